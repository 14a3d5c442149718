//! The bit-sliced AES register on wasm32 with `simd128`: one `v128` per register, bitwise ops and
//! 64-bit lane shifts as single SIMD instructions, the row permutations as constant
//! `i8x16.shuffle`s (the parent's `SHIFT_ROWS`, `ROTATE_1` and `ROTATE_2`, spelled out as the
//! shuffles' immediate lane indices; the WASM self-check compares the result with the `aes` crate).

use super::Lane;
use core::arch::wasm32::{
    i64x2_shl, i8x16_shuffle, u64x2_shr, u8x16_splat, v128, v128_and, v128_load, v128_not, v128_store,
    v128_xor,
};

impl Lane for v128 {
    #[inline(always)]
    fn load(block: u128) -> Self {
        // SAFETY: reads the 16 bytes of a live `u128`; `v128.load` accepts any alignment.
        unsafe { v128_load((&block as *const u128).cast()) }
    }
    #[inline(always)]
    fn store(self) -> u128 {
        let mut out = 0u128;
        // SAFETY: writes the 16 bytes of a live `u128`; `v128.store` accepts any alignment.
        unsafe { v128_store((&mut out as *mut u128).cast(), self) };
        out
    }
    #[inline(always)]
    fn splat(b: u8) -> Self {
        u8x16_splat(b)
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        v128_xor(self, other)
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        v128_and(self, other)
    }
    #[inline(always)]
    fn not(self) -> Self {
        v128_not(self)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        u64x2_shr(self, n)
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        i64x2_shl(self, n)
    }
    #[inline(always)]
    fn shift_rows(self) -> Self {
        i8x16_shuffle::<0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11>(self, self)
    }
    #[inline(always)]
    fn rotate_rows_1(self) -> Self {
        i8x16_shuffle::<1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12>(self, self)
    }
    #[inline(always)]
    fn rotate_rows_2(self) -> Self {
        i8x16_shuffle::<2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13>(self, self)
    }
}
