//! GF(2^8) = F2[x]/(x^8 + x^4 + x^3 + x + 1), the AES field (FIPS-197 §4).

use super::Field;
use core::ops::{Add, AddAssign, Mul, MulAssign, Sub, SubAssign};
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

    /// `dst[i] += c · src[i]` (the "axpy" that matrix encoders and linear maps are made of).
    ///
    /// # Panics
    /// If the slices differ in length (a programming error, never external input).
    pub fn mul_add_scalar_slice(dst: &mut [Gf256], src: &[Gf256], c: Gf256) {
        assert_eq!(dst.len(), src.len(), "mul_add_scalar_slice: length mismatch");
        for (d, s) in dst.iter_mut().zip(src) {
            *d += *s * c;
        }
    }

    /// `dst[i] = a[i] · b[i]`.
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn mul_slices(dst: &mut [Gf256], a: &[Gf256], b: &[Gf256]) {
        assert!(dst.len() == a.len() && a.len() == b.len(), "mul_slices: length mismatch");
        for ((d, x), y) in dst.iter_mut().zip(a).zip(b) {
            *d = *x * *y;
        }
    }

    /// Replaces every element by its inverse (`0 ↦ 0`).
    pub fn inverse_slice(values: &mut [Gf256]) {
        for v in values.iter_mut() {
            *v = v.inverse();
        }
    }
}

impl Add for Gf256 {
    type Output = Self;
    #[inline]
    fn add(self, rhs: Self) -> Self {
        Gf256(self.0 ^ rhs.0)
    }
}
impl AddAssign for Gf256 {
    #[inline]
    fn add_assign(&mut self, rhs: Self) {
        self.0 ^= rhs.0;
    }
}
impl Sub for Gf256 {
    type Output = Self;
    #[inline]
    fn sub(self, rhs: Self) -> Self {
        Gf256(self.0 ^ rhs.0)
    }
}
impl SubAssign for Gf256 {
    #[inline]
    fn sub_assign(&mut self, rhs: Self) {
        self.0 ^= rhs.0;
    }
}
impl Mul for Gf256 {
    type Output = Self;
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        Gf256(Self::mul_const_time(self.0, rhs.0))
    }
}
impl MulAssign for Gf256 {
    #[inline]
    fn mul_assign(&mut self, rhs: Self) {
        *self = *self * rhs;
    }
}

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
