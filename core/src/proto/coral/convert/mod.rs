//! Conversions between Coral's two sharings — the RMFE-packed boolean sharings `[[y]]` of
//! [`super::online`] and the Spdz2k sharings `[x]` over Z_{2^(k+s)} of [`super::arith`] — for
//! mixed circuits (Coral paper §4.3.1, the functionality F_mixed of Fig. 9 and the protocols of
//! Fig. 10, 19–21 in App. D).
//!
//! - [`dabits`]: packed daBits (Fig. 19, F_mixed.rDabit): a boolean sharing `[[r]]` whose 14
//!   lanes are random bits, and the same 14 bits as Spdz2k sharings `[r_0]…[r_13]`.
//! - [`b2a`]: rB2A (Fig. 20): the 14 lanes of `[[x]]` as 14 Spdz2k sharings of 0/1, one packed
//!   daBit and one opening per pack.
//! - [`a2b`]: the other direction with packed edaBits (F_mixed.rEdabit): the k bits of 14 Spdz2k
//!   values as k boolean sharings (bit i of the 14 values in the lanes of the i-th), one opening
//!   of `x + r` modulo 2^k and a ripple subtraction on the packs.
//! - [`decompose`]: both in a row — the bits of Spdz2k values as Spdz2k bits, the bit
//!   decomposition the bit-level gates of mixed circuits take
//!   ([`super::arith::bitlevel`]).
//!
//! **Packed edaBits** ([`EdaBit`]): `([r_0]…[r_13], [[ρ_0]]…[[ρ_{k−1}]])` with
//! `r_l = Σ_i 2^i·ψ(ρ_i)[l]`. Chorus makes them from k packed daBits — the arithmetic values are
//! the weighted sums of the daBits' arithmetic bits, a local step — where the paper's Fig. 21 and
//! Fig. 10 make them from private edaBits with cut-and-choose, bucketing and an n-input binary
//! adder. Both realise the same functionality; Fig. 21's is cheaper in arithmetic material per
//! edaBit once batches are large, this one needs no cut-and-choose and no bucket parameters and
//! reuses the daBit check alone, so its security argument is the daBits' ([`dabits`]).
//!
//! **Trust model:** malicious security with abort against n − 1 of n ≥ 2 parties, relative to
//! honest material for both sharings (the OT-based providers of [`super::prep::ot`] and
//! [`super::arith::ot`], or the labelled dealers). Every detected deviation is a
//! [`super::CoralError::CheckFailed`]: [`super::Check::DaBitConsistency`] for daBits whose halves
//! differ, the MAC checks of either sharing for a wrong opening. The conversions themselves open
//! only uniformly masked values and check nothing; their openings join the two MAC logs, and
//! an output must check both before it opens anything ([`check_both`], [`output_arith`],
//! [`output_boolean`]) — either party's own output checks only its own log.
//!
//! **Invariants:** a daBit's two halves hold the same 14 bits (checked before it is returned);
//! every opened value is a uniform mask of a secret (a fresh daBit's lanes, an edaBit's value
//! modulo 2^k) or a check combination masked by a discarded daBit; the two sharings' frames go
//! through their own channels on the same network, one operation at a time.

pub mod a2b;
pub mod b2a;
pub mod dabits;
pub mod decompose;

#[cfg(test)]
mod tests;

use crate::net::Network;

use super::arith::prep::ArithDemand;
use super::arith::{AShare, ArithParty};
use super::error::CoralError;
use super::online::Party;
use super::prep::Demand;
use super::share::{RShare, LANES};

/// A packed daBit: the boolean sharing `[[r]]` and its 14 lanes as Spdz2k sharings of 0/1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DaBit {
    /// `[[r]]`.
    pub boolean: RShare,
    /// `[ψ(r)[l]]` for l = 0…13.
    pub arith: [AShare; LANES],
}

/// A packed edaBit of k bits: 14 random values below 2^k as Spdz2k sharings, and their bits as
/// k boolean sharings (bit i of lane l in lane l of `bits[i]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdaBit {
    /// `[r_l]` for l = 0…13.
    pub arith: [AShare; LANES],
    /// `[[ρ_i]]` for i = 0…k − 1.
    pub bits: Vec<RShare>,
}

impl EdaBit {
    /// The edaBit of `dabits` (bit i from `dabits[i]`): `r_l = Σ_i 2^i·[b_{i,l}]`, local.
    pub fn from_dabits(dabits: &[DaBit]) -> EdaBit {
        let mut arith = [AShare::default(); LANES];
        for (i, d) in dabits.iter().enumerate() {
            for (acc, &b) in arith.iter_mut().zip(&d.arith) {
                *acc = *acc + b.scale(1u128 << i);
            }
        }
        EdaBit { arith, bits: dabits.iter().map(|d| d.boolean).collect() }
    }
}

/// The material of a conversion, for both sharings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertDemand {
    /// Coral's (boolean) material.
    pub boolean: Demand,
    /// Spdz2k's material.
    pub arith: ArithDemand,
}

impl ConvertDemand {
    /// No material, for `parties` parties.
    pub fn empty(parties: usize) -> Self {
        ConvertDemand {
            boolean: Demand::empty(parties),
            arith: ArithDemand { input_masks: vec![0; parties], ..ArithDemand::default() },
        }
    }
}

/// Both batched MAC checks — Coral's, then Spdz2k's — of every value opened so far.
///
/// # Errors
/// The first check that fails, network errors.
pub async fn check_both<N: Network>(
    boolean: &mut Party,
    arith: &mut ArithParty,
    net: &mut N,
) -> Result<(), CoralError> {
    boolean.check(net).await?;
    arith.check(net).await
}

/// Opens Spdz2k sharings after Coral's MAC check: a conversion's boolean openings (rB2A's) are
/// in Coral's log, which [`ArithParty::output`] alone would leave unchecked.
///
/// # Errors
/// As [`check_both`] and [`ArithParty::output`].
pub async fn output_arith<N: Network>(
    boolean: &mut Party,
    arith: &mut ArithParty,
    net: &mut N,
    ys: &[AShare],
) -> Result<Vec<u64>, CoralError> {
    boolean.check(net).await?;
    arith.output(net, ys).await
}

/// Opens boolean sharings' lanes after Spdz2k's MAC check (the A2B openings are in its log).
///
/// # Errors
/// As [`check_both`] and [`Party::output`].
pub async fn output_boolean<N: Network>(
    boolean: &mut Party,
    arith: &mut ArithParty,
    net: &mut N,
    ys: &[RShare],
) -> Result<Vec<super::online::Lanes>, CoralError> {
    arith.check(net).await?;
    boolean.output(net, ys).await
}

/// Checks that the two parties are the same party of the same session.
fn same_party(boolean: &Party, arith: &ArithParty) -> Result<(), CoralError> {
    if boolean.party() != arith.party() || boolean.parties != arith.parties() {
        return Err(CoralError::MaterialMismatch {
            party: boolean.party(),
            parties: boolean.parties,
            found_party: arith.party(),
            found_parties: arith.parties(),
        });
    }
    Ok(())
}
