//! Packed daBits (Coral paper App. D, Fig. 19; F_mixed.rDabit of Fig. 9; the daBits of
//! Rotaru–Wood and their generation in Escudero et al., CRYPTO 2020, vectorised): N packs
//! `([[r]], [r_0]…[r_13])` whose boolean lanes ψ(r) and arithmetic bits r_l agree, uniform and
//! unknown to any n − 1 parties.
//!
//! **Construction**, for N packs and s = [`CHECKS`] extra ones:
//! 1. every party draws 14·(N + s) random bits and inputs them twice: each pack's 14 as one
//!    RMFE sharing (rInput of φ(lanes), one round) and each bit as a Spdz2k sharing;
//! 2. boolean halves: the XOR of the n contributions is their sum (local); arithmetic halves: the
//!    XOR `a + b − 2ab` in a Beaver tree, then every result is checked to be a bit
//!    ([`crate::proto::coral::arith::bits`], which ends with Spdz2k's MAC check);
//! 3. a public random subset J_h of the N packs per check h < s (a coin toss after every input is
//!    fixed): open the boolean sum `Σ_{j∈J_h} [[r_j]] + [[r_{N+h}]]` and the arithmetic sums
//!    `Σ_{j∈J_h} [r_{j,l}] + [r_{N+h,l}]` times 2^(k−1) modulo 2^k (upper bits masked), i.e.
//!    their parities; both MAC checks; then every lane of ψ(boolean sum) must equal the parity of
//!    its arithmetic sum ([`Check::DaBitConsistency`]);
//! 4. the s masking packs are discarded.
//!
//! Fig. 19 combines all packs with random coefficients φ(a_j) of GF(2^42); Chorus combines whole
//! packs with 0/1 coefficients instead (a subset), because ψ(φ(a)·y) = a ⊙ ψ(y) holds only
//! for φ-images y and a corrupt party's input need not be one — a subset sum is F_2-linear on
//! lanes whatever the elements are.
//!
//! **Why it is sound.** Let e_{j,l} = ψ(r_j)[l] ⊕ r_{j,l} (the arithmetic halves are bits after
//! step 2). Check h passes on lane l iff `⊕_{j∈J_h} e_{j,l} = e_{N+h,l}`. The errors are fixed
//! before the coins; if some e_{j,l} with j < N is 1, a uniform J_h satisfies the equation with
//! probability 1/2, independently for each h: an inconsistent daBit survives with probability
//! 2^-s. **Why it hides the bits:** each check opens lanes masked by pack N + h, used by no other
//! check and then discarded, whose honest contribution is uniform; the arithmetic openings show
//! only the same parities (2^(k−1)·z modulo 2^k). **No selective failure:** both halves are
//! `β ⊕ h` with h the honest parties' XOR and β the corrupt ones' (a bit, once step 2 passed), so
//! e depends on the corrupt contributions alone and whether the check fails reveals nothing
//! about h.

use rand_core::RngCore;

use crate::net::Network;

use super::super::arith::bits::{self, xor_of_contributions};
use super::super::arith::ArithParty;
use super::super::checks::coin_toss;
use super::super::error::{Check, CoralError};
use super::super::messages::Step;
use super::super::online::{InputRequest, Party, ALL_LANES};
use super::super::share::{RShare, LANES};
use super::{check_both, same_party, ConvertDemand, DaBit};

/// The checks s of step 3: an inconsistent daBit passes with probability 2^-40.
pub const CHECKS: usize = 40;

/// Adds the material of `packs` packed daBits among `parties` parties to `demand`.
pub fn add_demand(demand: &mut ConvertDemand, packs: usize, parties: usize) {
    if packs == 0 {
        return;
    }
    let total = packs + CHECKS;
    let masks = &mut demand.boolean.input_masks;
    if masks.len() < parties {
        masks.resize(parties, 0);
    }
    for m in &mut masks[..parties] {
        *m += total;
    }
    bits::add_demand(&mut demand.arith, total * LANES, parties);
    demand.arith.output_masks += CHECKS * LANES;
}

/// Rounds of [`dabits`] with `parties` parties (none for no packs): the boolean input, the
/// arithmetic bits with their MAC check, the coin toss, the two check openings and both MAC
/// checks.
pub fn rounds(parties: usize) -> usize {
    1 + bits::rounds(parties) + 2 + 1 + 1 + 4 + 4
}

/// `packs` checked packed daBits (see the module docs).
///
/// # Errors
/// [`CoralError::CheckFailed`] with [`Check::DaBitConsistency`] if the halves differ,
/// [`Check::ArithBit`] if an arithmetic half is not a bit, either MAC check's failure;
/// [`CoralError::MaterialMismatch`] if the two parties are not the same party of one session;
/// material and network errors.
pub async fn dabits<N: Network>(
    boolean: &mut Party,
    arith: &mut ArithParty,
    net: &mut N,
    packs: usize,
) -> Result<Vec<DaBit>, CoralError> {
    same_party(boolean, arith)?;
    if packs == 0 {
        return Ok(Vec::new());
    }
    let (me, parties, total) = (boolean.party(), boolean.parties, packs + CHECKS);
    let own: Vec<u64> = (0..total).map(|_| boolean.rng.next_u64() & ALL_LANES).collect();

    // Step 1–2, boolean halves: every party's packs, summed.
    let requests: Vec<InputRequest> = (0..parties)
        .flat_map(|owner| {
            own.iter().map(move |&lanes| InputRequest { owner, lanes: (owner == me).then_some(lanes) })
        })
        .collect();
    let inputs = boolean.input_step(net, Step::DaBitInput, &requests).await?;
    let mut packed = vec![RShare::default(); total];
    for contribution in inputs.chunks_exact(total) {
        for (sum, &x) in packed.iter_mut().zip(contribution) {
            *sum = *sum + x;
        }
    }

    // Step 1–2, arithmetic halves: the same bits, XORed and checked to be bits.
    let own_bits: Vec<u64> =
        own.iter().flat_map(|&lanes| (0..LANES).map(move |l| (lanes >> l) & 1)).collect();
    let bits = xor_of_contributions(arith, net, &own_bits).await?;

    // Step 3: subsets of the packs, masked by one extra pack per check.
    let mut coins = coin_toss(&mut boolean.channel, net, &mut boolean.rng).await?;
    let subsets: Vec<Vec<bool>> = (0..CHECKS).map(|_| random_subset(&mut coins, packs)).collect();
    let mut combinations = Vec::with_capacity(CHECKS);
    let mut parities = Vec::with_capacity(CHECKS * LANES);
    let top = 1u128 << (arith.ring().k() - 1);
    for (h, subset) in subsets.iter().enumerate() {
        let mask = packs + h;
        let mut sum = packed[mask];
        let mut lanes: Vec<_> = bits[mask * LANES..(mask + 1) * LANES].to_vec();
        for j in (0..packs).filter(|&j| subset[j]) {
            sum = sum + packed[j];
            for (acc, &b) in lanes.iter_mut().zip(&bits[j * LANES..(j + 1) * LANES]) {
                *acc = *acc + b;
            }
        }
        combinations.push(sum);
        parities.extend(lanes.into_iter().map(|z| z.scale(top)));
    }
    let opened = boolean.open(net, Step::DaBitCheck, &combinations).await?;
    let opened_parities = arith.open_low(net, Step::DaBitParity, &parities).await?;
    check_both(boolean, arith, net).await?;
    let k = arith.ring().k();
    for (h, &w) in opened.iter().enumerate() {
        let lanes = boolean.params().psi(w);
        for l in 0..LANES {
            if (lanes >> l) & 1 != opened_parities[h * LANES + l] >> (k - 1) {
                return Err(CoralError::failed(Check::DaBitConsistency));
            }
        }
    }

    // Step 4: the first `packs` are the daBits.
    Ok(packed
        .into_iter()
        .zip(bits.chunks_exact(LANES))
        .take(packs)
        .map(|(boolean, arith)| DaBit { boolean, arith: arith.try_into().expect("14 lanes") })
        .collect())
}

/// A uniform subset of `0..len` from the public coins.
fn random_subset(coins: &mut impl RngCore, len: usize) -> Vec<bool> {
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        let word = coins.next_u64();
        out.extend((0..64).map(|i| (word >> i) & 1 == 1).take(len - out.len()));
    }
    out
}
