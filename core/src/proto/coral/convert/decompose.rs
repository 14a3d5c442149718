//! Bit decomposition through the boolean sharings: the k bits of Spdz2k values as Spdz2k
//! sharings of 0/1 — what [`crate::proto::coral::arith::decompose`] gives within the arithmetic
//! shares — by A2B with edaBits ([`super::a2b`]) and rB2A of every bit ([`super::b2a`]), the
//! route of the Coral paper (§4.3.1) to the bit-level gates of mixed circuits.
//!
//! Per pack of 14 values: 2k packed daBits (k for the edaBit, k for rB2A), k − 1 quintuples, k
//! encoding pairs and 14 output masks; rounds [`ROUNDS`] (the daBits made beforehand, in one
//! batch for a whole evaluation: [`dabits_for`]). In Spdz2k material, per value: 2k daBit
//! lanes of n triples each among n parties (2nk; 128 at k = 32, n = 2), where the arithmetic
//! decomposition takes k random bits of n triples and its borrow scan's
//! [`crate::proto::coral::arith::decompose::triples`] (215 in all at k = 32, n = 2) — fewer
//! for a few parties, more from n = 5 at k = 32; the boolean half's quintuples are shared by
//! 14 values. [`cheaper`] compares the two for a batch, checks included.

use crate::net::Network;

use super::super::arith::{AShare, ArithParty};
use super::super::error::CoralError;
use super::super::online::Party;
use super::super::share::LANES;
use super::{a2b, b2a, ConvertDemand, DaBit};

/// Rounds of [`decompose`] (A2B's opening and adder, rB2A's opening).
pub fn rounds(k: u32) -> usize {
    a2b::rounds(k) + b2a::ROUNDS
}

/// Packed daBits one [`decompose`] of `values` values of k bits consumes.
pub fn dabits_for(values: usize, k: u32) -> usize {
    2 * a2b::packs(values) * k as usize
}

/// Whether decomposing `values` values of k bits among `parties` parties through the
/// conversions (daBits made in one batch) takes fewer Spdz2k triples than the arithmetic
/// decomposition — by at least a quarter, which leaves room for the boolean half's material and
/// its provider's setup.
pub fn cheaper(values: usize, k: u32, parties: usize) -> bool {
    let lanes = (dabits_for(values, k) + super::dabits::CHECKS) * LANES;
    let convert = lanes * parties;
    let arith = values * (parties * k as usize + crate::proto::coral::arith::decompose::triples(k));
    values > 0 && 4 * convert < 3 * arith
}

/// Adds the material of one [`decompose`] of `values` values, daBits excluded, to `demand`.
pub fn add_online_demand(demand: &mut ConvertDemand, values: usize, k: u32) {
    a2b::add_online_demand(demand, values, k);
    b2a::add_online_demand(demand, a2b::packs(values) * k as usize);
}

/// The k bits of every value in `xs` (lowest first, each a Spdz2k sharing of 0 or 1), taking
/// [`dabits_for`] daBits from the front of `dabits`.
///
/// # Errors
/// [`CoralError::BadInput`] if `dabits` is too short; material, network errors.
pub async fn decompose<N: Network>(
    boolean: &mut Party,
    arith: &mut ArithParty,
    net: &mut N,
    xs: &[AShare],
    dabits: &mut &[DaBit],
) -> Result<Vec<Vec<AShare>>, CoralError> {
    if xs.is_empty() {
        return Ok(Vec::new());
    }
    let k = arith.ring().k();
    let (packs, need) = (a2b::packs(xs.len()), dabits_for(xs.len(), k));
    if dabits.len() < need {
        return Err(CoralError::BadInput(format!(
            "decomposing {} values needs {need} daBits, {} are left",
            xs.len(),
            dabits.len()
        )));
    }
    let (used, rest) = dabits.split_at(need);
    *dabits = rest;
    let (for_a2b, for_b2a) = used.split_at(need / 2);
    let bits: Vec<_> = a2b::a2b(boolean, arith, net, xs, &a2b::edabits_of(for_a2b, k))
        .await?
        .into_iter()
        .flatten()
        .collect();
    let lanes = b2a::b2a(boolean, arith, net, &bits, for_b2a).await?;
    let k = k as usize;
    debug_assert_eq!(lanes.len(), packs * k);
    Ok((0..xs.len()).map(|v| (0..k).map(|i| lanes[(v / LANES) * k + i][v % LANES]).collect()).collect())
}
