//! Tests of the conversions: daBits whose halves agree, B2A and A2B against plaintext (n = 2, 3;
//! k = 32, 64; full and partial packs), exact material and rounds, and attacks on every new
//! opening and check caught with typed errors and no output.

mod attacks;
mod circuits;
mod conversions;

use std::future::Future;

use super::ConvertDemand;
use crate::circuit::mixed::RingBits;
use crate::net::memory::MemoryNetwork;
use crate::net::tamper::Tamper;
use crate::proto::coral::arith::prep::{ArithDealer, ArithMaterial};
use crate::proto::coral::arith::{ArithParty, ArithRing};
use crate::proto::coral::error::CoralError;
use crate::proto::coral::online::Party;
use crate::proto::coral::prep::CoralMaterial;
use crate::proto::coral::tests::{deal, params, run_parties, Deviate};
use crate::rng::seeded_rng;

/// Both materials of one party.
pub(super) type Materials = (CoralMaterial, ArithMaterial);

/// How the attacker (if any) deviates.
pub(super) type Deviation = Deviate<Materials>;

/// Dealt material of both sharings for `demand` (the labelled dealers, test helpers).
fn deal_both(seed: u64, ring: RingBits, parties: usize, demand: &ConvertDemand) -> Vec<Materials> {
    let boolean = deal(seed, parties, &demand.boolean);
    let arith = ArithDealer::new(seeded_rng(seed + 1))
        .deal(ArithRing::new(ring), parties, &demand.arith)
        .expect("dealer");
    boolean.into_iter().zip(arith).collect()
}

/// Runs `body` at every party (its Coral and Spdz2k parties) of an in-memory session; results
/// in party order and the step tags each party sent.
fn run<T, F, Fut>(
    materials: Vec<Materials>,
    deviation: Deviation,
    body: F,
) -> (Vec<Result<T, CoralError>>, Vec<Vec<u8>>)
where
    F: Fn(Party, ArithParty, Tamper<'static, MemoryNetwork>) -> Fut,
    Fut: Future<Output = Result<T, CoralError>>,
{
    let party = |me: usize, n: usize, (b, a): Materials| {
        (
            Party::new(params(), me, n, b, seeded_rng(1000 + me as u64)).expect("party"),
            ArithParty::new(me, n, a, seeded_rng(2000 + me as u64)).expect("party"),
        )
    };
    run_parties(materials, deviation, party, |(b, a), net| body(b, a, net))
}
