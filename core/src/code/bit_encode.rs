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
        // Whole bytes of eight symbols: an even number of groups (the padding rows are zero).
        let groups = 2 * k.div_ceil(8);
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
        PlaneTables { k, redundancy: bits.redundancy, words_per_row, table }
    }

    /// Writes the codewords of the eight bit planes of `message` (length `k`): plane `i` (the 0/1
    /// vector `(m_j >> i) & 1`) goes to `out[i·n .. (i+1)·n]`, `n = k + redundancy`.
    pub(crate) fn planes_into(&self, message: &[u8], out: &mut [u8]) {
        // The plane bytes of every block of eight symbols, from one transposition each.
        let mut planes = [[0u8; 8]; MAX_WORDS];
        let blocks = message.len().div_ceil(8);
        for (block, chunk) in planes.iter_mut().zip(message.chunks(8)) {
            let mut bytes = [0u8; 8];
            bytes[..chunk.len()].copy_from_slice(chunk);
            *block = transpose8(u64::from_le_bytes(bytes)).to_le_bytes();
        }
        let planes = &planes[..blocks];
        // Plane by plane with a fixed-size accumulator the compiler keeps in vector registers
        // (sizes of the two MiniMac codes; other sizes take the general path), with AVX2 where
        // the CPU has it (chosen at run time; the result is the same on every path).
        #[cfg(target_arch = "x86_64")]
        if crate::arch::cpu().avx2 {
            // SAFETY: AVX2 was detected.
            unsafe { self.planes_avx2(planes, message, out) };
            return;
        }
        self.planes_dispatch(planes, message, out);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn planes_avx2(&self, planes: &[[u8; 8]], message: &[u8], out: &mut [u8]) {
        self.planes_dispatch(planes, message, out);
    }

    #[inline(always)]
    fn planes_dispatch(&self, planes: &[[u8; 8]], message: &[u8], out: &mut [u8]) {
        match self.words_per_row {
            17 => self.planes_fixed::<17>(planes, message, out),
            22 => self.planes_fixed::<22>(planes, message, out),
            _ => self.planes_general(planes, message, out),
        }
    }

    /// `words_per_row == W`.
    #[inline(always)]
    fn planes_fixed<const W: usize>(&self, planes: &[[u8; 8]], message: &[u8], out: &mut [u8]) {
        let n = self.k + self.redundancy;
        let row = |index: usize| -> &[u64; W] {
            let words = &self.table[index * W..];
            words.first_chunk::<W>().expect("tables have 16 rows per group and 2 groups per block")
        };
        for (i, plane_out) in out.chunks_exact_mut(n).take(8).enumerate() {
            let mut acc = [0u64; W];
            for (block, bytes) in planes.iter().enumerate() {
                let s = usize::from(bytes[i]);
                let (low, high) = (row(32 * block + (s & 0x0f)), row(32 * block + 16 + (s >> 4)));
                for j in 0..W {
                    acc[j] ^= low[j] ^ high[j];
                }
            }
            self.write_plane(i, &acc, message, plane_out);
        }
    }

    #[inline(always)]
    fn planes_general(&self, planes: &[[u8; 8]], message: &[u8], out: &mut [u8]) {
        let n = self.k + self.redundancy;
        let w = self.words_per_row;
        for (i, plane_out) in out.chunks_exact_mut(n).take(8).enumerate() {
            let mut acc = [0u64; MAX_WORDS];
            if w > 0 {
                for (block, bytes) in planes.iter().enumerate() {
                    let s = usize::from(bytes[i]);
                    let low = &self.table[(32 * block + (s & 0x0f)) * w..][..w];
                    let high = &self.table[(32 * block + 16 + (s >> 4)) * w..][..w];
                    for ((a, l), h) in acc[..w].iter_mut().zip(low).zip(high) {
                        *a ^= l ^ h;
                    }
                }
            }
            self.write_plane(i, &acc, message, plane_out);
        }
    }

    /// Writes plane `i`'s codeword: its bits, then the redundancy words `acc`.
    #[inline(always)]
    fn write_plane(&self, i: usize, acc: &[u64], message: &[u8], plane_out: &mut [u8]) {
        let (data, red) = plane_out.split_at_mut(self.k);
        for (d, m) in data.iter_mut().zip(message) {
            *d = (m >> i) & 1;
        }
        for (chunk, word) in red.chunks_mut(8).zip(acc) {
            chunk.copy_from_slice(&word.to_le_bytes()[..chunk.len()]);
        }
    }
}
