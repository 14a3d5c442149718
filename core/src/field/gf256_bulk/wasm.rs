//! wasm32 `simd128` byte lanes (the crate must be compiled with `target-feature=+simd128`).

use super::lanes::ByteLanes;
use core::arch::wasm32::*;

#[derive(Clone, Copy)]
pub(super) struct Simd128(v128);

// The crate is compiled with simd128 enabled, so the intrinsics are safe to call; only the raw
// loads and stores need `unsafe`, and they stay within slices of at least 16 bytes.
impl ByteLanes for Simd128 {
    const LANES: usize = 16;
    #[inline(always)]
    unsafe fn splat(byte: u8) -> Self {
        Simd128(u8x16_splat(byte))
    }
    #[inline(always)]
    unsafe fn table(table: &[u8; 16]) -> Self {
        Simd128(unsafe { v128_load(table.as_ptr().cast()) })
    }
    #[inline(always)]
    unsafe fn load(bytes: &[u8]) -> Self {
        debug_assert!(bytes.len() >= 16);
        Simd128(unsafe { v128_load(bytes.as_ptr().cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, out: &mut [u8]) {
        debug_assert!(out.len() >= 16);
        unsafe { v128_store(out.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        Simd128(v128_xor(self.0, other.0))
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        Simd128(v128_and(self.0, other.0))
    }
    #[inline(always)]
    unsafe fn double(self) -> Self {
        Simd128(u8x16_add(self.0, self.0))
    }
    #[inline(always)]
    unsafe fn top_bit_mask(self) -> Self {
        Simd128(i8x16_lt(self.0, i8x16_splat(0)))
    }
    #[inline(always)]
    unsafe fn equal(self, other: Self) -> Self {
        Simd128(i8x16_eq(self.0, other.0))
    }
    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        Simd128(u8x16_shr(self.0, 4))
    }
    #[inline(always)]
    unsafe fn lookup(table: Self, index: Self) -> Self {
        Simd128(i8x16_swizzle(table.0, index.0))
    }
}
