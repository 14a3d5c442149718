//! Random shared bits on Spdz2k shares: `[b]` with b ∈ {0, 1} modulo 2^k, uniform and unknown to
//! every coalition of n − 1 parties — the masks from which comparisons learn a value's bits
//! ([`super::compare`]).
//!
//! **Construction** (the "XOR of one random bit per party" of Damgård–Escudero–Frederiksen–
//! Keller–Scholl–Volgushev, "New Primitives for Actively-Secure MPC over Rings", S&P 2019,
//! §3.1's alternative to their square-root method, which would need shares modulo 2^(k+2+s)):
//! 1. every party inputs its own random bits (one input mask each, one round);
//! 2. the XOR of the n contributions is computed arithmetically, `f(a, b) = a + b − 2ab`, in a
//!    tree of ⌈log2 n⌉ Beaver rounds;
//! 3. every result b is squared, `y = b·(b − 1)` (one round), y is opened modulo 2^k with its
//!    upper bits masked (`y + 2^k·r`, one round) and must be 0 ([`Check::ArithBit`]):
//!    b·(b − 1) ≡ 0 (mod 2^k) holds only for b ≡ 0 or 1, as one of two consecutive integers is
//!    odd;
//! 4. the batched MAC check of everything opened (four rounds) — before any bit masks an
//!    opening, since a non-bit could make a masked opening leak.
//!
//! **Why checking the result suffices.** f is symmetric and associative on the whole ring
//! (`f(f(a, b), c)` is symmetric in a, b, c), so b = f(β, h) with β the corrupt parties'
//! combined contribution and h the honest parties' XOR, a uniform bit. f(β, 0) = β and
//! f(β, 1) = 1 − β: b is a bit exactly when β is, whichever h is — so the check passes or fails
//! independently of h (no selective failure), and when it passes b = β ⊕ h is a uniform bit
//! nobody knows. Cost per bit: one input mask per party, n triples (n − 1 XORs and the square)
//! and one output mask; rounds 1 + ⌈log2 n⌉ + 1 + 1 + 4 for any number of bits.

use rand_core::RngCore;

use crate::net::Network;

use super::super::error::{Check, CoralError};
use super::super::messages::Step;
use super::online::ArithParty;
use super::prep::ArithDemand;
use super::share::AShare;

/// Adds the material `count` random bits among `parties` parties consume to `demand`.
pub fn add_demand(demand: &mut ArithDemand, count: usize, parties: usize) {
    if count == 0 {
        return;
    }
    if demand.input_masks.len() < parties {
        demand.input_masks.resize(parties, 0);
    }
    for masks in &mut demand.input_masks[..parties] {
        *masks += count;
    }
    demand.triples += parties * count;
    demand.output_masks += count;
}

/// Rounds of [`random_bits`] with `parties` parties (none for no bits).
pub fn rounds(parties: usize) -> usize {
    1 + parties.next_power_of_two().trailing_zeros() as usize + 1 + 1 + 4
}

/// `count` checked random bits (see the module docs).
///
/// # Errors
/// [`CoralError::CheckFailed`] with [`Check::ArithBit`] if a result is not a bit, or the
/// MAC check's failure; material and network errors.
pub async fn random_bits<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    count: usize,
) -> Result<Vec<AShare>, CoralError> {
    let mut own = vec![0u64; count];
    for chunk in own.chunks_mut(64) {
        let word = party.rng().next_u64();
        for (i, b) in chunk.iter_mut().enumerate() {
            *b = (word >> i) & 1;
        }
    }
    xor_of_contributions(party, net, &own).await
}

/// [`random_bits`] with this party's contributions `own` (each 0 or 1) chosen by the caller —
/// the arithmetic halves of packed daBits, whose boolean halves take the same bits
/// ([`crate::proto::coral::convert::dabits`]). Every party gives the same count.
///
/// # Errors
/// As [`random_bits`]; [`CoralError::BadInput`] if a contribution is not a bit.
pub(in crate::proto::coral) async fn xor_of_contributions<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    own: &[u64],
) -> Result<Vec<AShare>, CoralError> {
    let count = own.len();
    if count == 0 {
        return Ok(Vec::new());
    }
    if own.iter().any(|&b| b > 1) {
        return Err(CoralError::BadInput("a random-bit contribution is not 0 or 1".into()));
    }
    let parties = party.parties();
    let owners: Vec<usize> = (0..parties).flat_map(|p| std::iter::repeat_n(p, count)).collect();
    let contributions = party.input_at(net, Step::ArithBitInput, &owners, own).await?;
    let mut level: Vec<Vec<AShare>> = contributions.chunks_exact(count).map(<[AShare]>::to_vec).collect();
    while level.len() > 1 {
        let pairs: Vec<(AShare, AShare)> = level
            .chunks_exact(2)
            .flat_map(|two| two[0].iter().copied().zip(two[1].iter().copied()))
            .collect();
        let products = party.mul(net, &pairs).await?;
        let mut next: Vec<Vec<AShare>> = level
            .chunks_exact(2)
            .zip(products.chunks_exact(count))
            .map(|(two, ab)| {
                two[0].iter().zip(&two[1]).zip(ab).map(|((&a, &b), &ab)| a + b - ab.scale(2)).collect()
            })
            .collect();
        if level.len() % 2 == 1 {
            next.push(level.pop().expect("odd level"));
        }
        level = next;
    }
    let bits = level.pop().expect("n ≥ 2 contributions reduce to one");
    let squares: Vec<(AShare, AShare)> =
        bits.iter().map(|&b| (b, party.add_public(b, 1u128.wrapping_neg()))).collect();
    let checks = party.mul(net, &squares).await?;
    let opened = party.open_low(net, Step::ArithBitCheck, &checks).await?;
    if opened.iter().any(|&y| y != 0) {
        return Err(CoralError::failed(Check::ArithBit));
    }
    party.check(net).await?;
    Ok(bits)
}
