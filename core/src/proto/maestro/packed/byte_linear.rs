//! [`ByteLinear`]: F2-linear maps on bytes, eight bytes per `u64` portably or 32 per step with
//! AVX2 register tables ([`crate::arch::nibble_map`]; see the type's docs).

use crate::arch::nibble_map::Avx2;
use crate::proto::maestro::par::{for_chunks_mut, parallel_now, CHUNK};

/// An F2-linear map on bytes. Portable path: eight bytes per `u64` by masked XORs of its
/// columns. x86-64 with AVX2 (detected at run time, off under the `force-portable` feature):
/// L(b) = L(b & 0x0f) ⊕ L(b & 0xf0), both halves looked up in 16-entry tables held in registers
/// (`vpshufb`), 32 bytes per step — constant time, since the table never leaves the register.
#[derive(Clone, Copy, Debug)]
pub struct ByteLinear {
    /// Column i (the image of bit i) repeated in every byte lane.
    columns: [u64; 8],
    /// L(i) for the low nibble i (the SIMD path's register table).
    low: [u8; 16],
    /// L(i << 4) for the high nibble i.
    high: [u8; 16],
}

const LANE_LSBS: u64 = 0x0101_0101_0101_0101;

impl ByteLinear {
    /// The map with `linear(1 << i)` as column i; `linear` must be F2-linear.
    pub fn new(linear: impl Fn(u8) -> u8) -> Self {
        let columns: [u8; 8] = core::array::from_fn(|i| linear(1 << i));
        let combine = |bits: usize, shift: usize| {
            (0..4).filter(|j| bits >> j & 1 == 1).fold(0u8, |acc, j| acc ^ columns[j + shift])
        };
        ByteLinear {
            columns: columns.map(|c| u64::from(c) * LANE_LSBS),
            low: core::array::from_fn(|i| combine(i, 0)),
            high: core::array::from_fn(|i| combine(i, 4)),
        }
    }

    #[inline]
    fn apply_word(&self, w: u64) -> u64 {
        let mut acc = 0;
        for (i, col) in self.columns.iter().enumerate() {
            // Bit i of each byte spread over its byte: a mask per lane.
            acc ^= ((w >> i) & LANE_LSBS).wrapping_mul(0xff) & col;
        }
        acc
    }

    /// L(b) for one byte.
    #[inline]
    pub fn apply_byte(&self, b: u8) -> u8 {
        self.apply_word(u64::from(b)) as u8
    }

    /// L applied to every byte of `src`.
    pub fn apply(&self, src: &[u8]) -> Vec<u8> {
        if parallel_now(src.len()) {
            let mut out = vec![0u8; src.len()];
            self.apply_into(&mut out, src);
            return out;
        }
        // Mapped piece by piece through a buffer that stays in L1 and appended, so the output
        // is written once (no zero fill of a large buffer first).
        let simd = Avx2::detect();
        let mut out = Vec::with_capacity(src.len());
        let mut staging = [0u8; CHUNK];
        for piece in src.chunks(CHUNK) {
            let staged = &mut staging[..piece.len()];
            self.apply_piece(simd, staged, piece);
            out.extend_from_slice(staged);
        }
        out
    }

    /// `dst[k] = L(src[k])`.
    pub fn apply_into(&self, dst: &mut [u8], src: &[u8]) {
        let simd = Avx2::detect();
        for_chunks_mut(dst, |offset, d| self.apply_piece(simd, d, &src[offset..offset + d.len()]));
    }

    /// `dst[k] = L(src[k])` on one piece, by the SIMD path if `simd` and the portable path for
    /// what it leaves.
    #[inline]
    fn apply_piece(&self, simd: Option<Avx2>, dst: &mut [u8], src: &[u8]) {
        let done = simd.map_or(0, |avx2| avx2.map(&self.low, &self.high, dst, src));
        self.apply_portable(&mut dst[done..], &src[done..]);
    }

    /// `bytes[k] = L(bytes[k])`.
    pub fn apply_in_place(&self, bytes: &mut [u8]) {
        let simd = Avx2::detect();
        for_chunks_mut(bytes, |_, d| {
            let done = simd.map_or(0, |avx2| avx2.map_in_place(&self.low, &self.high, d));
            let tail = &mut d[done..];
            for b in tail.iter_mut() {
                *b = self.apply_byte(*b);
            }
        });
    }

    /// The portable path (SWAR), also the reference the SIMD path is tested against.
    pub(super) fn apply_portable(&self, dst: &mut [u8], src: &[u8]) {
        let mut d8 = dst.chunks_exact_mut(8);
        let mut s8 = src.chunks_exact(8);
        for (d, s) in (&mut d8).zip(&mut s8) {
            let w = u64::from_le_bytes(s.try_into().expect("8-byte chunk"));
            d.copy_from_slice(&self.apply_word(w).to_le_bytes());
        }
        for (d, &s) in d8.into_remainder().iter_mut().zip(s8.remainder()) {
            *d = self.apply_byte(s);
        }
    }

    /// The SIMD path on the longest prefix it handles (none without AVX2); returns that prefix's
    /// length. (The tests' entry to the SIMD path alone.)
    #[cfg(test)]
    pub(super) fn apply_simd(&self, dst: &mut [u8], src: &[u8]) -> usize {
        Avx2::detect().map_or(0, |avx2| avx2.map(&self.low, &self.high, dst, src))
    }
}

/// Whether [`ByteLinear`] uses its SIMD path (decided by [`Avx2::detect`]).
#[cfg(test)]
pub(super) fn simd_available() -> bool {
    Avx2::detect().is_some()
}
