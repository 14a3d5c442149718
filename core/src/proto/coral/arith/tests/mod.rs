//! Tests of the Spdz2k half of mixed circuits: integer programs and random ring circuits against
//! the plaintext evaluator (n = 2, 3, 4; k = 32, 64; 1 and many instances), attacks caught by
//! the MAC check with no output, exact bytes and rounds.

mod attacks;
mod bit_attacks;
pub(in crate::proto::coral) mod bitlevel;
pub(in crate::proto::coral) mod comparisons;
mod cost;
mod ot_provider;
mod outputs;
mod programs;
pub(crate) mod summon;

use std::future::Future;

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use super::online::ArithParty;
use super::prep::{ArithDealer, ArithDemand, ArithMaterial};
use super::ring::ArithRing;
use crate::circuit::mixed::tests::{io, text};
use crate::circuit::mixed::{MixedCircuit, MixedOp, RingBits};
use crate::net::memory::MemoryNetwork;
use crate::net::tamper::Tamper;
use crate::proto::coral::error::CoralError;
use crate::proto::coral::tests::run_parties;
use crate::rng::seeded_rng;

pub(super) fn deal(seed: u64, ring: RingBits, parties: usize, demand: &ArithDemand) -> Vec<ArithMaterial> {
    ArithDealer::new(seeded_rng(seed)).deal(ArithRing::new(ring), parties, demand).expect("dealer")
}

/// How the attacker (if any) deviates (Coral's test harness, on Spdz2k material).
pub(super) type Deviation = crate::proto::coral::tests::Deviate<ArithMaterial>;

/// Runs `body` at every party of an in-memory session; returns the results in party order and
/// the step tags each party sent.
pub(super) fn run<T, F, Fut>(
    materials: Vec<ArithMaterial>,
    deviation: Deviation,
    body: F,
) -> (Vec<Result<T, CoralError>>, Vec<Vec<u8>>)
where
    F: Fn(ArithParty, Tamper<'static, MemoryNetwork>) -> Fut,
    Fut: Future<Output = Result<T, CoralError>>,
{
    let party = |me: usize, n, m| ArithParty::new(me, n, m, seeded_rng(2000 + me as u64)).expect("party");
    run_parties(materials, deviation, party, body)
}

/// Every party's outputs (or error), and the step tags each party sent.
pub(super) type Evaluation = (Vec<Result<Vec<Vec<u64>>, CoralError>>, Vec<Vec<u8>>);

/// Every party's outputs (or error) and sent step tags when `parties` parties evaluate `circuit`
/// on `inputs` (input i owned by party i mod `parties`) with dealt material (seed `seed`), party
/// `deviation.attacker` deviating.
pub(super) fn evaluate_round_robin(
    circuit: &MixedCircuit,
    ring: RingBits,
    parties: usize,
    inputs: &[Vec<u64>],
    seed: u64,
    deviation: Deviation,
) -> Evaluation {
    use super::circuit::{demand, evaluate};
    let owners: Vec<usize> = (0..circuit.inputs as usize).map(|i| i % parties).collect();
    let d = demand(circuit, ring, &owners, parties, inputs.len()).expect("demand");
    run(deal(seed, ring, parties, &d), deviation, |mut party, mut net| {
        let mine = own(inputs, &owners, party.party());
        let owners = owners.clone();
        async move { evaluate(&mut party, &mut net, circuit, &owners, &mine).await }
    })
}

pub(super) use crate::circuit::mixed::gen::dot_product;

/// A random circuit of ring gates on `inputs` inputs and one constant, `gates` gates, the last
/// `outputs` wires as outputs.
pub(super) fn random_ring_circuit(
    rng: &mut ChaCha20Rng,
    inputs: u32,
    gates: u32,
    outputs: usize,
) -> MixedCircuit {
    use MixedOp::*;
    let ops = [Add, Sub, Mul, Mul, UnarySub, UnaryAdd];
    let constant = inputs;
    let mut list = Vec::new();
    for g in 0..gates {
        let wires = inputs + 1 + g;
        let op = ops[rng.next_u32() as usize % ops.len()];
        let (a, b) = (rng.next_u32() % wires, rng.next_u32() % wires);
        list.push((op, a, b, wires));
    }
    let constant_value = rng.next_u64();
    MixedCircuit::parse(
        &text(inputs + 1 + gates, inputs as usize, outputs, &list),
        &io(&[(u64::from(constant), constant_value)]),
    )
    .expect("parses")
}

/// Random inputs: `instances` × (one value per input below 2^k).
pub(super) fn random_inputs(
    rng: &mut ChaCha20Rng,
    circuit: &MixedCircuit,
    ring: RingBits,
    instances: usize,
) -> Vec<Vec<u64>> {
    (0..instances).map(|_| (0..circuit.inputs).map(|_| rng.next_u64() & ring.mask()).collect()).collect()
}

/// The values of `party` in each instance, in input order.
pub(super) fn own(inputs: &[Vec<u64>], owners: &[usize], party: usize) -> Vec<Vec<u64>> {
    inputs
        .iter()
        .map(|values| values.iter().zip(owners).filter(|(_, &o)| o == party).map(|(&v, _)| v).collect())
        .collect()
}

pub(super) fn seeded(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}
