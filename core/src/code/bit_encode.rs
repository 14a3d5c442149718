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

/// Message symbols per table group of [`PlaneTables`] (one nibble of a plane byte).
const GROUP: usize = 4;

/// Table-driven encoding of all eight bit planes of a **public** message at once (§4.3 steps 3–4
/// encode `C(C*^{-1}(ε)↓i)` for `i = 0..7`, and §4.5 asks for that encoding to be fast).
///
/// The redundancy of a 0/1 vector is the XOR of the generator rows it selects; grouping the rows
/// four at a time ("method of four Russians") precomputes, per group, the XOR of each of the 16
/// subsets, so one plane costs `⌈k/4⌉` table rows instead of `k` masked rows. The eight planes of
/// eight consecutive symbols come from one 8×8 bit transposition. The tables are indexed by the
/// message bits, so this is **variable time**: it is only for values every party knows (opened
/// values); secret vectors go through the masked [`BitEncoder`].
#[derive(Clone, Debug)]
pub(crate) struct PlaneTables {
    k: usize,
    redundancy: usize,
    words_per_row: usize,
    groups: usize,
    /// `table[(g·16 + s)·words_per_row ..]`: XOR of the rows `GROUP·g + b` for the set bits `b` of
    /// `s` (rows at or past `k` are zero).
    table: Vec<u64>,
}

/// Transposes the 8×8 bit matrix whose row `r` is byte `r` of `x` (bit `c` of a byte = column
/// `c`): byte `c` of the result has bit `r` = bit `c` of byte `r` of `x`.
#[inline]
pub(crate) fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0;
    x ^ t ^ (t << 28)
}

impl PlaneTables {
    /// Builds the subset tables of `bits`' rows.
    pub(crate) fn new(bits: &BitEncoder, k: usize) -> Self {
        let words_per_row = bits.words_per_row;
        let groups = k.div_ceil(GROUP);
        let mut table = vec![0u64; groups * 16 * words_per_row];
        if words_per_row > 0 {
            for g in 0..groups {
                for s in 1..16usize {
                    let low = s.trailing_zeros() as usize;
                    let row = GROUP * g + low;
                    let (before, current) = table.split_at_mut((g * 16 + s) * words_per_row);
                    let rest = &before[(g * 16 + (s & (s - 1))) * words_per_row..][..words_per_row];
                    let current = &mut current[..words_per_row];
                    current.copy_from_slice(rest);
                    if row < k {
                        let r = &bits.rows[row * words_per_row..(row + 1) * words_per_row];
                        for (c, w) in current.iter_mut().zip(r) {
                            *c ^= w;
                        }
                    }
                }
            }
        }
        PlaneTables { k, redundancy: bits.redundancy, words_per_row, groups, table }
    }

    /// Writes the codewords of the eight bit planes of `message` (length `k`): plane `i` (the 0/1
    /// vector `(m_j >> i) & 1`) goes to `out[i·n .. (i+1)·n]`, `n = k + redundancy`.
    pub(crate) fn planes_into(&self, message: &[u8], out: &mut [u8]) {
        let n = self.k + self.redundancy;
        let mut acc = [[0u64; MAX_WORDS]; 8];
        let w = self.words_per_row;
        for (block, chunk) in message.chunks(8).enumerate() {
            let mut bytes = [0u8; 8];
            bytes[..chunk.len()].copy_from_slice(chunk);
            let planes = transpose8(u64::from_le_bytes(bytes)).to_le_bytes();
            for (i, &plane) in planes.iter().enumerate() {
                for half in 0..2 {
                    let g = 2 * block + half;
                    if g >= self.groups || w == 0 {
                        continue;
                    }
                    let s = usize::from((plane >> (4 * half)) & 0x0f);
                    let row = &self.table[(g * 16 + s) * w..][..w];
                    for (a, r) in acc[i][..w].iter_mut().zip(row) {
                        *a ^= r;
                    }
                }
            }
        }
        for (i, plane_out) in out.chunks_exact_mut(n).take(8).enumerate() {
            let (data, red) = plane_out.split_at_mut(self.k);
            for (d, m) in data.iter_mut().zip(message) {
                *d = (m >> i) & 1;
            }
            for (j, o) in red.iter_mut().enumerate() {
                *o = (acc[i][j / 8] >> (8 * (j % 8))) as u8;
            }
        }
    }
}
