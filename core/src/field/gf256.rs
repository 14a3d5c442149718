//! GF(2^8) = F2\[x\]/(x^8 + x^4 + x^3 + x + 1), the AES field (FIPS-197 §4).
//!
//! Scalar operations are constant-time shift-and-add; the slice operations dispatch to the bulk
//! backends of [`Gf256Backend`] (SIMD nibble tables where available).

use super::ops::impl_xor_field_ops;
use super::{Field, Gf256Backend};
use rand_core::RngCore;

/// An element of GF(2^8) with the AES polynomial; bit i is the coefficient of x^i.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Gf256(pub u8);

impl Gf256 {
    /// The reduction polynomial without its leading term: x^4 + x^3 + x + 1.
    pub const POLY_LOW: u8 = 0x1b;

    /// The element with bit representation `v`.
    #[inline]
    pub const fn new(v: u8) -> Self {
        Gf256(v)
    }

    /// The bit representation.
    #[inline]
    pub const fn value(self) -> u8 {
        self.0
    }

    /// Constant-time schoolbook product (no secret-dependent branch or index).
    #[inline]
    pub const fn mul_const_time(a: u8, b: u8) -> u8 {
        let mut acc: u8 = 0;
        let mut a = a;
        let mut i = 0;
        while i < 8 {
            acc ^= a & 0u8.wrapping_sub((b >> i) & 1);
            let carry = 0u8.wrapping_sub(a >> 7);
            a = (a << 1) ^ (carry & Self::POLY_LOW);
            i += 1;
        }
        acc
    }

    #[inline]
    const fn product(self, rhs: Self) -> Self {
        Gf256(Self::mul_const_time(self.0, rhs.0))
    }

    /// `dst[i] += c · src[i]` (the "axpy" that matrix encoders and linear maps are made of), with
    /// the fastest available backend (see [`Gf256Backend`]); constant time.
    ///
    /// # Panics
    /// If the slices differ in length (a programming error, never external input).
    pub fn mul_add_scalar_slice(dst: &mut [Gf256], src: &[Gf256], c: Gf256) {
        Gf256Backend::detect().mul_add_scalar(Self::as_bytes_mut(dst), Self::as_bytes(src), c.0);
    }

    /// `dst[i] = a[i] · b[i]`, with the fastest available backend; constant time.
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn mul_slices(dst: &mut [Gf256], a: &[Gf256], b: &[Gf256]) {
        Gf256Backend::detect().mul_slices(Self::as_bytes_mut(dst), Self::as_bytes(a), Self::as_bytes(b));
    }

    /// `dst[i] += a[i] · b[i]` (the lane-wise multiply-accumulate of MiniMac's products with public
    /// codewords), with the fastest available backend; constant time.
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn mul_add_slices(dst: &mut [Gf256], a: &[Gf256], b: &[Gf256]) {
        Gf256Backend::detect().mul_add_slices(Self::as_bytes_mut(dst), Self::as_bytes(a), Self::as_bytes(b));
    }

    /// Replaces every element by its inverse (`0 ↦ 0`), with the fastest available backend;
    /// constant time.
    pub fn inverse_slice(values: &mut [Gf256]) {
        Gf256Backend::detect().inverse_slice(Self::as_bytes_mut(values));
    }

    /// The representations of a slice of elements.
    #[inline]
    pub fn as_bytes(values: &[Gf256]) -> &[u8] {
        // SAFETY: `Gf256` is `repr(transparent)` over `u8`.
        unsafe { core::slice::from_raw_parts(values.as_ptr().cast::<u8>(), values.len()) }
    }

    /// The representations of a mutable slice of elements (every byte is a valid element).
    #[inline]
    pub fn as_bytes_mut(values: &mut [Gf256]) -> &mut [u8] {
        // SAFETY: `Gf256` is `repr(transparent)` over `u8`, and every `u8` is a valid `Gf256`.
        unsafe { core::slice::from_raw_parts_mut(values.as_mut_ptr().cast::<u8>(), values.len()) }
    }

    /// Views bytes as elements.
    #[inline]
    pub fn from_bytes(bytes: &[u8]) -> &[Gf256] {
        // SAFETY: `Gf256` is `repr(transparent)` over `u8`.
        unsafe { core::slice::from_raw_parts(bytes.as_ptr().cast::<Gf256>(), bytes.len()) }
    }

    /// Views mutable bytes as elements.
    #[inline]
    pub fn from_bytes_mut(bytes: &mut [u8]) -> &mut [Gf256] {
        // SAFETY: `Gf256` is `repr(transparent)` over `u8`.
        unsafe { core::slice::from_raw_parts_mut(bytes.as_mut_ptr().cast::<Gf256>(), bytes.len()) }
    }
}

impl_xor_field_ops!(Gf256, product);

impl Field for Gf256 {
    const ZERO: Self = Gf256(0);
    const ONE: Self = Gf256(1);
    const BITS: u32 = 8;

    /// x^254 by a fixed addition chain, so `0 ↦ 0` and no branch depends on the value.
    fn inverse(self) -> Self {
        let x2 = self.square();
        let x3 = x2 * self;
        let x6 = x3.square();
        let x12 = x6.square();
        let x15 = x12 * x3;
        let x240 = x15.square().square().square().square();
        let x252 = x240 * x12;
        x252 * x2
    }

    fn random<R: RngCore + ?Sized>(rng: &mut R) -> Self {
        let mut b = [0u8; 1];
        rng.fill_bytes(&mut b);
        Gf256(b[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fips197_examples() {
        // FIPS-197 §4.2: {57} • {83} = {c1}; §4.2.1: {57} • {13} = {fe}.
        assert_eq!(Gf256(0x57) * Gf256(0x83), Gf256(0xc1));
        assert_eq!(Gf256(0x57) * Gf256(0x13), Gf256(0xfe));
    }

    #[test]
    fn inverse_exhaustive() {
        assert_eq!(Gf256(0).inverse(), Gf256(0));
        for v in 1..=255u8 {
            assert_eq!(Gf256(v) * Gf256(v).inverse(), Gf256::ONE, "v = {v:#04x}");
        }
    }
}
