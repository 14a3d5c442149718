//! Maliciously secure OT extension: KOS15 (Keller–Orsini–Scholl, "Actively Secure OT Extension
//! with Optimal Overhead", CRYPTO 2015) on top of the IKNP03 matrix, with κ = 128 base OTs.
//!
//! **Why KOS15.** It is the construction the MASCOT implementation notes (§"OT extension") build
//! on, its check costs one GF(2^128) inner product per side and 48 bytes of messages, and its
//! correlated output `q_j = t_j ⊕ r_j·Δ` *is* a TinyOT authenticated bit (§4 of the TinyTable
//! paper) without any further step. SoftSpoken OT (Roy, CRYPTO 2022) trades computation for
//! fewer bytes per OT; it is [`super::softspoken`], with the same output and this module's check
//! (the helpers below are shared), chosen through [`super::Extension`].
//!
//! **Protocol** (one [`OtExtSender`] / [`OtExtReceiver`] pair per direction):
//! 1. *Setup.* The extension's sender picks `Δ ∈ {0,1}^128` and, as the **receiver** of 128 base
//!    OTs ([`super::base`]) with choice bits `Δ_i`, learns one seed `k_i^{Δ_i}` of each pair the
//!    extension's receiver holds. The sender also commits to its first coin.
//! 2. *Extend N.* The receiver pads its choices with `κ + s` random bits (s = [`STAT_SECURITY`])
//!    to `N'` (a multiple of [`CHUNK_ALIGN`]), and for every column `i` sends
//!    `u_i = G(k_i^0) ⊕ G(k_i^1) ⊕ r` and keeps `t_i = G(k_i^0)`; the sender computes
//!    `q_i = G(k_i^{Δ_i}) ⊕ Δ_i·u_i = t_i ⊕ Δ_i·r`. Transposed ([`super::transpose`]), row `j`
//!    reads `q_j = t_j ⊕ r_j·Δ`. Columns travel in chunks of at most [`CHUNK_OTS`] OTs, so memory
//!    beyond the outputs stays bounded and the sender works while the receiver still sends.
//! 3. *Coins.* With its last chunk the receiver sends a fresh seed `s_R`; the sender opens the
//!    seed `s_S` it committed to *before* it saw any column, and commits to the next batch's seed.
//!    `χ_1..χ_N' = PRG(H(s_S, s_R))` is therefore uniform to either party ([`super::coins`]).
//! 4. *Check* (KOS15 §3, the correlation check): the receiver sends `x = ⊕ χ_j·r_j` and
//!    `t = Σ χ_j·t_j` (a 256-bit carry-less sum, compared unreduced, which is as strict as the
//!    GF(2^128) comparison); the sender checks `Σ χ_j·q_j = t ⊕ x·Δ` and aborts with
//!    [`OtError::CheckFailed`](super::OtError::CheckFailed) otherwise. The `κ + s` padding rows mask `x` and `t`, so the check
//!    reveals nothing of the real choices. A receiver that used inconsistent `r` in some columns
//!    passes only by guessing the matching bits of `Δ` (each guess halves its chance), as KOS15's
//!    analysis allows; Roy's SoftSpoken paper revisits that analysis.
//! 5. *Outputs.* Correlated OT: the sender keeps `q_j` (its keys for bit 0; `q_j ⊕ Δ` for bit 1),
//!    the receiver `t_j`. Random OT: both hash with [`TccrHash`](super::prg::TccrHash) under a
//!    fresh tweak per OT: `H(j, q_j), H(j, q_j ⊕ Δ)` and `H(j, t_j)`, each chunk as soon as it is
//!    transposed (the hashes are handed out only after the check). Chosen-message OT: the sender
//!    also sends its messages masked by the random ones (one more message).
//!
//! **Costs.** Setup: 128 base OTs (32 + 64·128 bytes, one round) and a 32-byte commitment.
//! Each extension of N OTs: 16·N' bytes of columns plus 32 + 48 bytes of coins and check from the
//! receiver, 64 bytes from the sender; three message flights (columns, coins, check).
//!
//! Trust model: either party may be malicious. The receiver's only freedom is its choice of
//! columns, which the check bounds; the sender's only freedom is its coin, fixed by the
//! commitment before it sees the receiver's contribution. On any error the batch is discarded and
//! the instance must not be used again.

mod receiver;
mod sender;
#[cfg(test)]
mod tests;

pub use receiver::OtExtReceiver;
pub use sender::OtExtSender;

use super::prg::Prg;
use super::{block, Block, OtError};
use crate::field::clmul::Backend;

/// κ: base OTs and bits per block.
pub const KAPPA: usize = 128;
/// s: statistical security of the check's masking, in bits (the padding is κ + s rows).
pub const STAT_SECURITY: usize = 40;
/// Extensions are computed in multiples of this many OTs (one PRG block per column).
pub const CHUNK_ALIGN: usize = 128;
/// Most OTs whose columns travel in one message (2 MiB of columns).
pub const CHUNK_OTS: usize = 1 << 17;

/// `N'`: the padded number of rows an extension of `count` OTs computes.
pub fn padded_len(count: usize) -> usize {
    (count + KAPPA + STAT_SECURITY).div_ceil(CHUNK_ALIGN) * CHUNK_ALIGN
}

/// The chunk lengths (in OTs) of an extension of `padded` rows, in order.
pub(crate) fn chunk_lens(padded: usize) -> impl Iterator<Item = usize> {
    (0..padded).step_by(CHUNK_OTS).map(move |start| CHUNK_OTS.min(padded - start))
}

const BASE_TAG: &[u8] = b"chorus/ot/kos15/base/v1";

/// The session tag of the base OTs under an extension session.
fn base_session(session: &[u8]) -> Vec<u8> {
    [BASE_TAG, session].concat()
}

/// Bytes of the receiver's check message: `x` (16) and the unreduced `t` (32).
pub(crate) const CHECK_BYTES: usize = 48;

/// Packs bits into little-endian 64-bit words (bit `j` is bit `j % 64` of word `j / 64`).
pub(crate) fn pack_bits(bits: impl Iterator<Item = bool>, words: usize) -> Vec<u64> {
    let mut out = vec![0u64; words];
    for (j, b) in bits.enumerate() {
        out[j / 64] |= (b as u64) << (j % 64);
    }
    out
}

/// Check coefficients drawn from the coin stream per call of [`coin_sum`]: the coefficients of
/// all rows are never held at once (they would be as large as the rows).
const COIN_CHUNK: usize = 4096;

/// `(⊕ χ_j·r_j, Σ χ_j·rows_j)` with `χ_j` the next `rows.len()` blocks of `coins` and `r_j` bit
/// `j` of `r` (all ones when `r` is `None`): the unreduced 256-bit sum of carry-less products,
/// coefficients drawn [`COIN_CHUNK`] at a time. No branch on `r`.
fn coin_sum(backend: Backend, coins: &mut Prg, r: Option<&[u64]>, rows: &[Block]) -> (Block, [Block; 2]) {
    let mut chis = vec![0u128; COIN_CHUNK.min(rows.len())];
    let (mut x, mut sum) = (0u128, [0u128; 2]);
    for (c, rows) in rows.chunks(COIN_CHUNK).enumerate() {
        let chis = &mut chis[..rows.len()];
        coins.fill(chis);
        if let Some(r) = r {
            for (k, &chi) in chis.iter().enumerate() {
                let j = c * COIN_CHUNK + k;
                x ^= chi & 0u128.wrapping_sub(((r[j / 64] >> (j % 64)) & 1) as u128);
            }
        }
        let part = backend.xor_sum_of_products128(chis, rows);
        sum = [sum[0] ^ part[0], sum[1] ^ part[1]];
    }
    (x, sum)
}

/// The receiver's check message (step 4): `x = ⊕ χ_j·r_j` for its packed choice bits `r` and the
/// unreduced `Σ χ_j·t_j` over its rows (no branch on `r`), `χ_j` the next blocks of `coins`.
/// Shared with [`softspoken`](super::softspoken), whose output has the same correlation.
pub(crate) fn check_message(backend: Backend, mut coins: Prg, r: &[u64], rows: &[Block]) -> Vec<u8> {
    let (x, sum) = coin_sum(backend, &mut coins, Some(r), rows);
    let mut check = Vec::with_capacity(CHECK_BYTES);
    block::put_blocks(&mut check, &[x, sum[0], sum[1]]);
    check
}

/// The sender's side of the check (step 4): `Σ χ_j·q_j = t ⊕ x·Δ` for the receiver's message
/// `msg`, `χ_j` the next blocks of `coins`; `step` names a malformed message, `check` the failed
/// comparison.
pub(crate) fn verify_check(
    backend: Backend,
    mut coins: Prg,
    rows: &[Block],
    delta: Block,
    msg: &[u8],
    step: &'static str,
    check: &'static str,
) -> Result<(), OtError> {
    let m = block::get_blocks(step, msg, CHECK_BYTES / 16)?;
    let (x, t) = (m[0], [m[1], m[2]]);
    let (_, q_sum) = coin_sum(backend, &mut coins, None, rows);
    let x_delta = backend.clmul128(x, delta);
    if q_sum != [t[0] ^ x_delta[0], t[1] ^ x_delta[1]] {
        return Err(OtError::CheckFailed { check });
    }
    Ok(())
}
