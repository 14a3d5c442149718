//! SSSE3 (128-bit) and AVX2 (256-bit) byte lanes and their `#[target_feature]` entry points.

use super::lanes::{self, ByteLanes};
use core::arch::x86_64::*;

#[derive(Clone, Copy)]
pub(super) struct Sse(__m128i);
#[derive(Clone, Copy)]
pub(super) struct Avx(__m256i);

// SAFETY (both impls): each method is only reached through the `#[target_feature]` entry points
// below, after run-time detection; loads and stores stay within slices of at least LANES bytes.
impl ByteLanes for Sse {
    const LANES: usize = 16;
    #[inline(always)]
    unsafe fn splat(byte: u8) -> Self {
        Sse(unsafe { _mm_set1_epi8(byte as i8) })
    }
    #[inline(always)]
    unsafe fn table(table: &[u8; 16]) -> Self {
        Sse(unsafe { _mm_loadu_si128(table.as_ptr().cast()) })
    }
    #[inline(always)]
    unsafe fn load(bytes: &[u8]) -> Self {
        debug_assert!(bytes.len() >= 16);
        Sse(unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, out: &mut [u8]) {
        debug_assert!(out.len() >= 16);
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        Sse(unsafe { _mm_xor_si128(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        Sse(unsafe { _mm_and_si128(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn double(self) -> Self {
        Sse(unsafe { _mm_add_epi8(self.0, self.0) })
    }
    #[inline(always)]
    unsafe fn top_bit_mask(self) -> Self {
        Sse(unsafe { _mm_cmplt_epi8(self.0, _mm_setzero_si128()) })
    }
    #[inline(always)]
    unsafe fn equal(self, other: Self) -> Self {
        Sse(unsafe { _mm_cmpeq_epi8(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        Sse(unsafe { _mm_and_si128(_mm_srli_epi16::<4>(self.0), _mm_set1_epi8(0x0f)) })
    }
    #[inline(always)]
    unsafe fn lookup(table: Self, index: Self) -> Self {
        Sse(unsafe { _mm_shuffle_epi8(table.0, index.0) })
    }
}

impl ByteLanes for Avx {
    const LANES: usize = 32;
    #[inline(always)]
    unsafe fn splat(byte: u8) -> Self {
        Avx(unsafe { _mm256_set1_epi8(byte as i8) })
    }
    #[inline(always)]
    unsafe fn table(table: &[u8; 16]) -> Self {
        Avx(unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast())) })
    }
    #[inline(always)]
    unsafe fn load(bytes: &[u8]) -> Self {
        debug_assert!(bytes.len() >= 32);
        Avx(unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, out: &mut [u8]) {
        debug_assert!(out.len() >= 32);
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        Avx(unsafe { _mm256_xor_si256(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        Avx(unsafe { _mm256_and_si256(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn double(self) -> Self {
        Avx(unsafe { _mm256_add_epi8(self.0, self.0) })
    }
    #[inline(always)]
    unsafe fn top_bit_mask(self) -> Self {
        Avx(unsafe { _mm256_cmpgt_epi8(_mm256_setzero_si256(), self.0) })
    }
    #[inline(always)]
    unsafe fn equal(self, other: Self) -> Self {
        Avx(unsafe { _mm256_cmpeq_epi8(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        Avx(unsafe { _mm256_and_si256(_mm256_srli_epi16::<4>(self.0), _mm256_set1_epi8(0x0f)) })
    }
    #[inline(always)]
    unsafe fn lookup(table: Self, index: Self) -> Self {
        // vpshufb looks up within each 128-bit lane; `table` repeats the table in both lanes.
        Avx(unsafe { _mm256_shuffle_epi8(table.0, index.0) })
    }
}

// SAFETY (the eight entry points): callers have detected the named feature, which the
// `ByteLanes` implementation used inside requires.
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn mul_add_scalar_ssse3(dst: &mut [u8], src: &[u8], c: u8) {
    unsafe { lanes::mul_add_scalar::<Sse>(dst, src, c) }
}
#[target_feature(enable = "avx2")]
pub(super) unsafe fn mul_add_scalar_avx2(dst: &mut [u8], src: &[u8], c: u8) {
    unsafe { lanes::mul_add_scalar::<Avx>(dst, src, c) }
}
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn mul_slices_ssse3(dst: &mut [u8], a: &[u8], b: &[u8]) {
    unsafe { lanes::mul_slices::<Sse>(dst, a, b) }
}
#[target_feature(enable = "avx2")]
pub(super) unsafe fn mul_slices_avx2(dst: &mut [u8], a: &[u8], b: &[u8]) {
    unsafe { lanes::mul_slices::<Avx>(dst, a, b) }
}
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn mul_add_slices_ssse3(dst: &mut [u8], a: &[u8], b: &[u8]) {
    unsafe { lanes::mul_add_slices::<Sse>(dst, a, b) }
}
#[target_feature(enable = "avx2")]
pub(super) unsafe fn mul_add_slices_avx2(dst: &mut [u8], a: &[u8], b: &[u8]) {
    unsafe { lanes::mul_add_slices::<Avx>(dst, a, b) }
}
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn inverse_slice_ssse3(values: &mut [u8]) {
    unsafe { lanes::inverse_slice::<Sse>(values) }
}
#[target_feature(enable = "avx2")]
pub(super) unsafe fn inverse_slice_avx2(values: &mut [u8]) {
    unsafe { lanes::inverse_slice::<Avx>(values) }
}
