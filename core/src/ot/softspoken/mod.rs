//! Maliciously secure OT extension with fewer bytes: SoftSpoken OT (Lawrence Roy, "SoftSpoken OT:
//! Quieter OT Extension from Small-Field Silent VOLE in the Minicrypt Model", CRYPTO 2022) with
//! KOS15's correlation check, producing exactly the correlated OTs of [`super::extension`]:
//! the sender holds `Δ` (128 bits) and `q_j`, the receiver `t_j = q_j ⊕ r_j·Δ`.
//!
//! **Idea.** KOS15 sends one `N`-bit column per bit of `Δ` (16 bytes per OT). SoftSpoken cuts
//! `Δ` into `b = 128/k` blocks of `k` bits and runs one small-field VOLE per block (Roy's
//! "subspace VOLE" from an all-but-one OT): the receiver sends one correction per *block*, so
//! an extension costs `16/k` bytes per OT, paid for with `2^k` PRG streams per block instead of
//! two. `k` ∈ {1, 2, 4, 8} is chosen at setup; `k = 1` is IKNP03/KOS15 with one redundant base-OT
//! step. [`crate::ot::tinyot::SOFTSPOKEN_K`] is the value recommended for TinyOT.
//!
//! **Protocol** (one [`SoftSpokenSender`] / [`SoftSpokenReceiver`] pair per direction):
//! 1. *Setup* (all-but-one OT by GGM tree, `ggm`). For each block `i` the receiver
//!    expands a random root into a depth-`k` GGM tree with leaves `s_{i,x}`, `x ∈ [0, 2^k)`. The
//!    sender's punctured point is `Δ_i` = bits `[ik, ik + k)` of `Δ` read as an integer. With
//!    128 random base OTs ([`super::base`]; the receiver sends, the sender chooses the complement
//!    of each path bit of `Δ_i`, base OT `ik + l − 1` for level `l`) and two masked level sums
//!    per level (4096 bytes in all), the sender learns every `s_{i,x}` with `x ≠ Δ_i`. Each leaf
//!    keys a [`Prg`](super::prg::Prg) stream that both parties read in the same order, and the
//!    sender commits to its first coin (as KOS15).
//! 2. *Extend N* (Roy's small-field VOLE, with KOS15's padding). The receiver pads its choices with `κ + s`
//!    random bits to `N'` = [`padded_len`]`(N)` and, for each block `i`, with `r_x` the next
//!    `N'` bits of leaf `x`'s stream, keeps the `k` columns `v_{i,c} = ⊕_{x : bit c of x} r_x`
//!    (column `ik + c`, matching bit `ik + c` of `Δ`) and sends `c_i = u_i ⊕ r` with
//!    `u_i = ⊕_x r_x`. The sender, missing only `r_{Δ_i}`, computes
//!    `w_{i,c} = ⊕_{x ≠ Δ_i : bit c of x ⊕ Δ_i} r_x = v_{i,c} ⊕ Δ_{i,c}·u_i`, then
//!    `w_{i,c} ⊕ Δ_{i,c}·c_i = v_{i,c} ⊕ Δ_{i,c}·r`. Transposed ([`super::transpose`]), row `j`
//!    reads `q_j = t_j ⊕ r_j·Δ`. Columns travel in chunks of at most [`CHUNK_OTS`] OTs and are
//!    folded in sub-ranges of [`SUB_BLOCKS`] blocks (both sides sum `2^k` streams with a binary
//!    counter, about three buffer copies or XORs per leaf instead of `k/2 + 1` XORs).
//! 3. *Coins and check*: exactly KOS15's (§3 there; the same code, [`super::extension`]): the
//!    receiver sends a fresh seed with its last chunk, the sender opens its committed seed,
//!    `χ_j` come from both, the receiver sends `x = ⊕ χ_j·r_j` and the unreduced `Σ χ_j·t_j`,
//!    and the sender checks `Σ χ_j·q_j = t ⊕ x·Δ`. Roy's paper treats malicious security of
//!    SoftSpoken with a consistency check of this kind (a universal hash of the VOLE outputs).
//!
//! **Costs.** Setup: 128 base OTs (32 bytes from the receiver, 64·128 from the sender), the GGM
//! level sums (4096 bytes from the receiver) and a 32-byte commitment, one round. Each extension
//! of `N` OTs: `(128/k)·N'/8` bytes of corrections plus 32 + 48 bytes of coin and check from the
//! receiver, 64 bytes from the sender — [`crate::ot::Extension::extension_bytes`] gives the
//! formula. Computation: `2^k` (receiver) and `2^k − 1` (sender) AES blocks per 128 OTs per
//! block, i.e. about `2^k·16/k` AES per OT and side (32 for `k = 8`, 2 for `k = 2`).
//!
//! **Constant time.** The hot loops branch and index only on public values (leaf numbers,
//! lengths); `Δ`'s bits and the choice bits enter through masks. The sender's puncture point is
//! used at setup only, through masks too: `ggm::puncture` visits every node and
//! `ggm::shift_by_point` re-indexes the leaves by `y = x ⊕ Δ_i` with masked swaps, after which
//! the punctured leaf is always number 0, so the hot loop's indices do not depend on `Δ`.
//!
//! **Trust model.** Either party may be malicious.
//! - A malicious *receiver*'s freedom is (a) corrections `c_i` inconsistent across blocks (as
//!   KOS15's inconsistent columns) and (b) GGM level sums that do not come from one tree, which
//!   make the sender's leaves depend on its puncture point `Δ_i`. Either way the honest sender's
//!   rows become `q_j ⊕ e_j(Δ)` for an error `e_j` that is a function of `Δ` the receiver fixed by
//!   its messages (for (a), `Δ` restricted to the deviating blocks times the flipped bits; for
//!   (b), the difference of pseudorandom streams selected by `Δ_i`). The correlation check then
//!   passes only if the receiver guessed the value the error takes on the real `Δ`, since the
//!   coins are uniform to it once it has sent its corrections; every guessed bit of `Δ` halves
//!   its chance to pass, which is the selective-failure trade-off KOS15's analysis allows (the
//!   `κ + s` padding rows keep the check message from revealing the real choices). Roy 2022
//!   analyses the malicious variant with such a check. This module's argument is the one above,
//!   not a machine-checked proof; the leakage (a few bits of `Δ` at the risk of an abort) is the
//!   same kind as KOS15's, which TinyOT already tolerates.
//! - A malicious *sender*'s only freedom is its coin, fixed by a commitment before it sees any
//!   correction; the corrections are one-time-padded by the leaf `Δ_i` it cannot compute, and its
//!   base-OT choices are hidden by the base OT.
//!
//! [`extend_both`] runs the two directions between a pair of parties interleaved, so both
//! compute at once, and [`extend_with_peers`] with several peers; [`setup_with_peers`] sets up
//! both directions with every peer in the rounds of one setup.
//!
//! On any error the batch is discarded and the instance refuses further use
//! ([`OtError::InvalidRequest`](super::OtError::InvalidRequest) afterwards).

mod both;
pub(crate) mod ggm;
mod receiver;
mod sender;
mod setup;
#[cfg(test)]
mod tests;

pub use both::{extend_both, extend_with_peers, PeerEnds};
pub use receiver::SoftSpokenReceiver;
pub use sender::SoftSpokenSender;
pub use setup::{setup_with_peers, Ends};

pub use super::extension::{padded_len, CHUNK_OTS, KAPPA};

use super::prg::Prg;
use super::{Block, OtError};

/// The values of `k` (bits of `Δ` per block) this implementation accepts.
pub const SUPPORTED_K: [u8; 4] = [1, 2, 4, 8];

/// Blocks (of 128 OTs) folded at a time: small enough that the `2k + 1` buffers stay in L1.
pub const SUB_BLOCKS: usize = 64;

/// Bytes of the receiver's GGM level sums: two blocks per level, `k` levels for each of the
/// `128/k` blocks.
pub const LEVEL_SUMS_BYTES: usize = 2 * KAPPA * 16;

/// `k` as a `usize` if it is supported, else an [`OtError::InvalidRequest`].
pub fn check_k(k: u8) -> Result<usize, OtError> {
    if SUPPORTED_K.contains(&k) {
        Ok(k as usize)
    } else {
        Err(OtError::InvalidRequest(format!("SoftSpoken k must be one of {SUPPORTED_K:?}, got {k}")))
    }
}

/// [`Ok`] if `count` base OTs are what a setup takes (128), else an [`OtError::InvalidRequest`].
fn check_base_count(count: usize) -> Result<(), OtError> {
    if count == KAPPA {
        Ok(())
    } else {
        Err(OtError::InvalidRequest(format!("{count} base OTs for SoftSpoken; it takes {KAPPA}")))
    }
}

/// Bytes of the receiver's corrections in one extension of `count` OTs with block size `k`
/// (a supported value): `(128/k)·N'/8`.
pub fn correction_bytes(k: usize, count: usize) -> usize {
    KAPPA / k * padded_len(count) / 8
}

const TAG: &[u8] = b"chorus/ot/softspoken/v1/k=";
const BASE_TAG: &[u8] = b"chorus/ot/softspoken/base/v1/k=";

/// The session tag of the coins of an instance (`k` is part of it).
fn coin_session(session: &[u8], k: usize) -> Vec<u8> {
    [TAG, &[k as u8], b"/", session].concat()
}

/// The session tag of the base OTs of an instance.
fn base_session(session: &[u8], k: usize) -> Vec<u8> {
    [BASE_TAG, &[k as u8], b"/", session].concat()
}

/// The folding buffers of one block: from the next blocks of the `2^k` leaf streams, the `k`
/// column sums `v_c = ⊕_{x : bit c of x} r_x` and the total `⊕_x r_x`, in about two XORs per
/// leaf. Leaves are summed as a binary counter: `stack[c]` holds the sum of the latest complete
/// group of `2^c` leaves whose bit `c` is 0, waiting for its bit-`c` = 1 partner.
pub(crate) struct Fold {
    k: usize,
    stack: Vec<Vec<Block>>,
    /// `v_c` for `c = 0..k`.
    pub(crate) columns: Vec<Vec<Block>>,
    /// `⊕_x r_x` after [`Fold::run`].
    pub(crate) total: Vec<Block>,
}

impl Fold {
    pub(crate) fn new(k: usize) -> Self {
        Fold {
            k,
            stack: vec![vec![0; SUB_BLOCKS]; k],
            columns: vec![vec![0; SUB_BLOCKS]; k],
            total: vec![0; SUB_BLOCKS],
        }
    }

    /// Folds the next `n ≤ SUB_BLOCKS` blocks of each leaf stream. `streams` are the leaves in
    /// order, all `2^k` of them, or — if `punctured` — leaves `1..2^k` with leaf 0 read as zero.
    /// The branches depend on leaf numbers only.
    pub(crate) fn run(&mut self, streams: &mut [Prg], punctured: bool, n: usize) {
        debug_assert!(n <= SUB_BLOCKS);
        let leaves = 1usize << self.k;
        debug_assert_eq!(streams.len(), leaves - punctured as usize);
        for c in &mut self.columns {
            c[..n].fill(0);
        }
        let cur = &mut self.total;
        for x in 0..leaves {
            if punctured && x == 0 {
                cur[..n].fill(0);
            } else {
                streams[x - punctured as usize].fill(&mut cur[..n]);
            }
            for c in 0..self.k {
                if (x >> c) & 1 == 0 {
                    self.stack[c][..n].copy_from_slice(&cur[..n]);
                    break;
                }
                for (v, &r) in self.columns[c][..n].iter_mut().zip(&cur[..n]) {
                    *v ^= r;
                }
                for (r, &s) in cur[..n].iter_mut().zip(&self.stack[c][..n]) {
                    *r ^= s;
                }
            }
        }
        // Only the last leaf (all bits 1) carries through every level: `cur` is now the total.
    }
}

/// Writes the blocks `src` into the packed `u64` column `dst` at block offset `at` (word `2m`
/// is the low half of block `m`).
pub(crate) fn put_words(dst: &mut [u64], at: usize, src: &[Block]) {
    for (m, &b) in src.iter().enumerate() {
        dst[2 * (at + m)] = b as u64;
        dst[2 * (at + m) + 1] = (b >> 64) as u64;
    }
}
