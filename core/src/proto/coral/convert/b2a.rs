//! rB2A (Coral paper App. D, Fig. 20; F_mixed.rB2A of Fig. 9): the 14 lanes of a boolean sharing
//! `[[x]]` as 14 Spdz2k sharings of 0/1, with one packed daBit `([[r]], [r_l])` per pack.
//!
//! Open `c = ψ(x + r)` and set `[x_l] = c_l + [r_l] − 2·c_l·[r_l]` (that is `[r_l]` where
//! c_l = 0 and `1 − [r_l]` where c_l = 1), local after the opening. Fig. 20 opens `x + r`
//! itself; Chorus adds a kernel element `u + τ(u)` from an encoding pair, as Coral's outputs do
//! (§2.2.4 "Partial opening"): x need not be a φ-image (products are not), and its part in
//! ker ψ could depend on secrets, so only the lanes may be shown — and the lanes are masked by
//! the daBit's uniform ones. One round for any number of packs; the opening joins Coral's MAC
//! log, checked before any output ([`super::check_both`]).

use crate::net::Network;

use super::super::arith::{AShare, ArithParty};
use super::super::error::CoralError;
use super::super::messages::Step;
use super::super::online::Party;
use super::super::share::{RShare, LANES};
use super::{dabits, same_party, ConvertDemand, DaBit};

/// Adds the material of converting `packs` packs, daBits included, to `demand`.
pub fn add_demand(demand: &mut ConvertDemand, packs: usize, parties: usize) {
    dabits::add_demand(demand, packs, parties);
    add_online_demand(demand, packs);
}

/// Adds the material of converting `packs` packs once their daBits exist.
pub fn add_online_demand(demand: &mut ConvertDemand, packs: usize) {
    demand.boolean.encodings += packs;
}

/// Rounds of [`b2a`] once its daBits exist.
pub const ROUNDS: usize = 1;

/// The lanes of every `xs[j]` as Spdz2k sharings of 0/1, with `dabits[j]`.
///
/// # Errors
/// [`CoralError::BadInput`] if the counts differ; [`CoralError::MaterialMismatch`] if the two
/// parties are not the same party of one session; material and network errors.
pub async fn b2a<N: Network>(
    boolean: &mut Party,
    arith: &mut ArithParty,
    net: &mut N,
    xs: &[RShare],
    dabits: &[DaBit],
) -> Result<Vec<[AShare; LANES]>, CoralError> {
    same_party(boolean, arith)?;
    if xs.len() != dabits.len() {
        return Err(CoralError::BadInput(format!(
            "{} packs to convert but {} daBits",
            xs.len(),
            dabits.len()
        )));
    }
    if xs.is_empty() {
        return Ok(Vec::new());
    }
    let encodings = boolean.material.take_encodings(xs.len())?;
    let masked: Vec<RShare> =
        xs.iter().zip(dabits).zip(&encodings).map(|((&x, d), e)| x + d.boolean + e.r + e.tau_r).collect();
    let opened = boolean.open(net, Step::B2aOpen, &masked).await?;
    let one = arith.constant(1);
    Ok(opened
        .into_iter()
        .zip(dabits)
        .map(|(w, d)| {
            let c = boolean.params().psi(w);
            let mut lanes = d.arith;
            for (l, x) in lanes.iter_mut().enumerate() {
                if (c >> l) & 1 == 1 {
                    *x = one - *x;
                }
            }
            lanes
        })
        .collect())
}
