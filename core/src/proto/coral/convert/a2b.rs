//! Arithmetic to boolean with packed edaBits (Coral paper §4.3.1; F_mixed.rEdabit of Fig. 9, used
//! as Escudero et al., "Improved Primitives for MPC over Mixed Arithmetic-Binary Circuits",
//! CRYPTO 2020, use edaBits): the k bits of Spdz2k values,
//! 14 per pack, as k RMFE sharings — `bits[i]` holds bit i of the pack's 14 values in its lanes.
//!
//! With a packed edaBit `([r_l], [[ρ_i]])` per pack (made from k daBits, [`super::EdaBit`]):
//! 1. open `c_l = x_l + r_l` modulo 2^k with the upper s bits masked (`+ 2^k·t`, one round): r_l
//!    is uniform below 2^k, so c_l is too;
//! 2. `x = c − r = c + ¬r + 1` modulo 2^k on the packs, a ripple-carry adder with the public
//!    bits of c (per lane, added locally) and the shared `¬ρ_i`: with carry `γ_0 = 1`, bit i is
//!    `c_i ⊕ ¬ρ_i ⊕ γ_i` and `γ_{i+1} = ((c_i ⊕ γ_i) ∧ (¬ρ_i ⊕ γ_i)) ⊕ γ_i` (the majority, one
//!    packed AND) — k − 1 rounds of one AND per pack, every pack in the same round.
//!
//! A last pack may be partial: its missing lanes open nothing and their bits are junk (`−r`,
//! independent of every input); callers ignore them. The opening joins Spdz2k's MAC log,
//! checked before any output ([`super::check_both`]).

use crate::net::Network;

use super::super::arith::{AShare, ArithParty};
use super::super::error::CoralError;
use super::super::messages::Step;
use super::super::online::{Lanes, Party, ALL_LANES};
use super::super::share::{RShare, LANES};
use super::{dabits, same_party, ConvertDemand, DaBit, EdaBit};

/// Packs of `values` values.
pub fn packs(values: usize) -> usize {
    values.div_ceil(LANES)
}

/// Adds the material of converting `values` values of k bits, edaBits (k daBits per pack)
/// included, to `demand`.
pub fn add_demand(demand: &mut ConvertDemand, values: usize, k: u32, parties: usize) {
    dabits::add_demand(demand, packs(values) * k as usize, parties);
    add_online_demand(demand, values, k);
}

/// Adds the material of converting `values` values of k bits once their edaBits exist.
pub fn add_online_demand(demand: &mut ConvertDemand, values: usize, k: u32) {
    demand.boolean.quintuples += packs(values) * (k as usize - 1);
    demand.arith.output_masks += values;
}

/// Rounds of [`a2b`] once its edaBits exist.
pub fn rounds(k: u32) -> usize {
    k as usize
}

/// The bits of `xs` (k-bit values, 14 per pack), with one edaBit per pack.
///
/// # Errors
/// [`CoralError::BadInput`] if the edaBits are not one per pack of k bits;
/// [`CoralError::MaterialMismatch`] if the two parties are not the same party of one session;
/// material and network errors.
pub async fn a2b<N: Network>(
    boolean: &mut Party,
    arith: &mut ArithParty,
    net: &mut N,
    xs: &[AShare],
    edabits: &[EdaBit],
) -> Result<Vec<Vec<RShare>>, CoralError> {
    same_party(boolean, arith)?;
    let k = arith.ring().k() as usize;
    if edabits.len() != packs(xs.len()) || edabits.iter().any(|e| e.bits.len() != k) {
        return Err(CoralError::BadInput(format!(
            "{} values of {k} bits need {} edaBits of {k} bits",
            xs.len(),
            packs(xs.len())
        )));
    }
    if xs.is_empty() {
        return Ok(Vec::new());
    }
    let masked: Vec<AShare> =
        xs.iter().enumerate().map(|(v, &x)| x + edabits[v / LANES].arith[v % LANES]).collect();
    let opened = arith.open_low(net, Step::A2bOpen, &masked).await?;
    // c's bit i of every lane of every pack.
    let public_bits = |i: usize| -> Vec<Lanes> {
        opened
            .chunks(LANES)
            .map(|pack| pack.iter().enumerate().fold(0, |w, (l, &c)| w | (((c >> i) & 1) << l)))
            .collect()
    };
    let mut carries: Vec<RShare> = vec![boolean.constant(ALL_LANES); edabits.len()];
    let mut bits: Vec<Vec<RShare>> = vec![Vec::with_capacity(k); edabits.len()];
    for i in 0..k {
        let c = public_bits(i);
        let mut pairs = Vec::with_capacity(edabits.len());
        for (p, e) in edabits.iter().enumerate() {
            let y = boolean.not(e.bits[i]);
            let carry = carries[p];
            bits[p].push(boolean.add_lanes(y + carry, c[p]));
            pairs.push((boolean.add_lanes(carry, c[p]), y + carry));
        }
        if i + 1 < k {
            let products = boolean.mul(net, &pairs).await?;
            for (carry, product) in carries.iter_mut().zip(products) {
                *carry = product + *carry;
            }
        }
    }
    Ok(bits)
}

/// Makes `packs` edaBits of k bits from k·`packs` daBits (consecutive runs of k).
pub fn edabits_of(dabits: &[DaBit], k: u32) -> Vec<EdaBit> {
    dabits.chunks_exact(k as usize).map(EdaBit::from_dabits).collect()
}
