//! Fast encoding of 0/1 vectors (paper §4.5): the codeword of a vector with entries in {0, 1} is the
//! XOR of the generator rows selected by its 1-entries, done eight symbols per `u64` word.
//!
//! MiniMac's bit-packing multiplication (§4.3, steps 3–4) encodes the eight bit planes
//! `C*^{-1}(δ)↓i` of an opened value; those vectors are public, but the selection is still done with
//! a mask (`0 - bit`) rather than a branch so the routine is constant time for secret inputs too.

use super::matrix::SystematicGenerator;
use crate::field::Gf256;

/// Largest number of `u64` words a redundancy row can need (n ≤ 256).
const MAX_WORDS: usize = 32;

/// The generator's redundancy rows packed little-endian into `u64` words.
#[derive(Clone, Debug)]
pub(crate) struct BitEncoder {
    redundancy: usize,
    words_per_row: usize,
    rows: Vec<u64>,
}

impl BitEncoder {
    /// Packs the rows of `generator` (with `k` rows of `redundancy` symbols).
    pub(crate) fn new(generator: &SystematicGenerator, k: usize, redundancy: usize) -> Self {
        let words_per_row = redundancy.div_ceil(8);
        let mut rows = vec![0u64; k * words_per_row];
        for i in 0..k {
            for (j, sym) in generator.parity_row(i).iter().enumerate() {
                rows[i * words_per_row + j / 8] |= u64::from(sym.0) << (8 * (j % 8));
            }
        }
        BitEncoder { redundancy, words_per_row, rows }
    }

    /// Writes the redundancy symbols of the 0/1 vector `bits` (length `k`, entries already checked
    /// to be 0 or 1) into `out` (length `n - k`).
    pub(crate) fn redundancy_into(&self, bits: impl Iterator<Item = u8>, out: &mut [Gf256]) {
        let mut acc = [0u64; MAX_WORDS];
        let acc = &mut acc[..self.words_per_row];
        if self.words_per_row > 0 {
            for (row, bit) in self.rows.chunks_exact(self.words_per_row).zip(bits) {
                let mask = 0u64.wrapping_sub(u64::from(bit));
                for (a, r) in acc.iter_mut().zip(row) {
                    *a ^= mask & r;
                }
            }
        }
        for (j, o) in out.iter_mut().enumerate().take(self.redundancy) {
            *o = Gf256((acc[j / 8] >> (8 * (j % 8))) as u8);
        }
    }
}
