//! GF(2^4) = F2\[x\]/(x^4 + x + 1), the small field of MAESTRO (§2.1) and the base of the tower
//! field [`Gf16Squared`](super::Gf16Squared).
//!
//! Scalar operations are branch-free and table-free. The bulk operations run the same masked
//! shift-and-add on 16 nibbles packed in a `u64` (SWAR), eight elements per word half, so they are
//! constant time and need no CPU-specific code.

use super::ops::impl_xor_field_ops;
use super::Field;
use rand_core::RngCore;

/// An element of GF(2^4); bit i is the coefficient of x^i, the high four bits are always zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Gf16(u8);

impl Gf16 {
    /// The reduction polynomial without its leading term: x + 1.
    pub const POLY_LOW: u8 = 0x3;

    /// The element whose bits are the low four bits of `v` (the high bits are dropped).
    #[inline]
    pub const fn new(v: u8) -> Self {
        Gf16(v & 0xf)
    }

    /// The bit representation (`< 16`).
    #[inline]
    pub const fn value(self) -> u8 {
        self.0
    }

    /// Constant-time schoolbook product of two 4-bit values.
    #[inline]
    pub const fn mul_const_time(a: u8, b: u8) -> u8 {
        let mut acc = 0u8;
        let mut a = a & 0xf;
        let mut i = 0;
        while i < 4 {
            acc ^= a & 0u8.wrapping_sub((b >> i) & 1);
            let carry = 0u8.wrapping_sub((a >> 3) & 1);
            a = ((a << 1) & 0xf) ^ (carry & Self::POLY_LOW);
            i += 1;
        }
        acc
    }

    #[inline]
    const fn product(self, rhs: Self) -> Self {
        Gf16(Self::mul_const_time(self.0, rhs.0))
    }

    /// Sixteen products at once: `a` and `b` each hold 16 elements, one per nibble.
    #[inline]
    pub const fn mul_packed(a: u64, b: u64) -> u64 {
        const LOW_BITS: u64 = 0x1111_1111_1111_1111;
        const TOP_BITS: u64 = 0x8888_8888_8888_8888;
        let mut acc = 0u64;
        let mut a = a;
        let mut i = 0;
        while i < 4 {
            // Spread bit i of each nibble of b over its whole nibble: a mask per lane.
            let select = ((b >> i) & LOW_BITS).wrapping_mul(0xf);
            acc ^= a & select;
            let carry = (a & TOP_BITS) >> 3;
            a = ((a & !TOP_BITS) << 1) ^ carry.wrapping_mul(Self::POLY_LOW as u64);
            i += 1;
        }
        acc
    }

    /// `dst[i] = a[i] · b[i]`.
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn mul_slices(dst: &mut [Gf16], a: &[Gf16], b: &[Gf16]) {
        assert!(dst.len() == a.len() && a.len() == b.len(), "mul_slices: length mismatch");
        for ((d, x), y) in dst.chunks_mut(16).zip(a.chunks(16)).zip(b.chunks(16)) {
            let product = Self::mul_packed(pack(x), pack(y));
            unpack(product, d);
        }
    }

    /// `dst[i] += c · src[i]`.
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn mul_add_scalar_slice(dst: &mut [Gf16], src: &[Gf16], c: Gf16) {
        assert_eq!(dst.len(), src.len(), "mul_add_scalar_slice: length mismatch");
        let scalar = (c.0 as u64).wrapping_mul(0x1111_1111_1111_1111);
        for (d, s) in dst.chunks_mut(16).zip(src.chunks(16)) {
            let sum = pack(d) ^ Self::mul_packed(pack(s), scalar);
            unpack(sum, d);
        }
    }

    /// Replaces every element by its inverse (`0 ↦ 0`).
    pub fn inverse_slice(values: &mut [Gf16]) {
        for chunk in values.chunks_mut(16) {
            let x = pack(chunk);
            let x2 = Self::mul_packed(x, x);
            let x4 = Self::mul_packed(x2, x2);
            let x8 = Self::mul_packed(x4, x4);
            // x^14 = x^8 · x^4 · x^2.
            unpack(Self::mul_packed(Self::mul_packed(x8, x4), x2), chunk);
        }
    }
}

/// Up to 16 elements, one per nibble (element j in bits 4j..4j+4).
#[inline]
fn pack(values: &[Gf16]) -> u64 {
    values.iter().enumerate().fold(0, |acc, (j, v)| acc | (v.0 as u64) << (4 * j))
}

#[inline]
fn unpack(packed: u64, out: &mut [Gf16]) {
    for (j, v) in out.iter_mut().enumerate() {
        *v = Gf16((packed >> (4 * j)) as u8 & 0xf);
    }
}

impl_xor_field_ops!(Gf16, product);

impl Field for Gf16 {
    const ZERO: Self = Gf16(0);
    const ONE: Self = Gf16(1);
    const BITS: u32 = 4;

    /// x^14, so `0 ↦ 0` without a branch.
    fn inverse(self) -> Self {
        let x2 = self.square();
        let x4 = x2.square();
        let x8 = x4.square();
        x8 * x4 * x2
    }

    fn random<R: RngCore + ?Sized>(rng: &mut R) -> Self {
        Gf16::new(rng.next_u32() as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> impl Iterator<Item = Gf16> {
        (0..16).map(Gf16::new)
    }

    #[test]
    fn scalar_multiplication_table() {
        // x · x^3 = x^4 = x + 1, and {E}·{E}: (x^3+x^2+x)^2 = x^6+x^4+x^2 = (x^3+x^2)+(x+1)+x^2 = x^3+x+1.
        assert_eq!(Gf16::new(2) * Gf16::new(8), Gf16::new(3));
        assert_eq!(Gf16::new(0xe) * Gf16::new(0xe), Gf16::new(0xb));
        for a in all() {
            assert_eq!(a * a.inverse(), if a == Gf16::ZERO { Gf16::ZERO } else { Gf16::ONE });
        }
    }

    #[test]
    fn bulk_operations_match_scalar_on_all_lengths() {
        let pairs: Vec<(Gf16, Gf16)> = all().flat_map(|a| all().map(move |b| (a, b))).collect();
        for len in [0, 1, 15, 16, 17, 33, pairs.len()] {
            let (a, b): (Vec<Gf16>, Vec<Gf16>) = pairs[..len].iter().copied().unzip();
            let mut product = vec![Gf16::ZERO; len];
            Gf16::mul_slices(&mut product, &a, &b);
            let expected: Vec<Gf16> = a.iter().zip(&b).map(|(&x, &y)| x * y).collect();
            assert_eq!(product, expected, "len = {len}");

            for c in all() {
                let mut acc = b.clone();
                Gf16::mul_add_scalar_slice(&mut acc, &a, c);
                let expected: Vec<Gf16> = a.iter().zip(&b).map(|(&x, &y)| y + c * x).collect();
                assert_eq!(acc, expected, "len = {len}, c = {c:?}");
            }

            let mut inverses = a.clone();
            Gf16::inverse_slice(&mut inverses);
            assert_eq!(inverses, a.iter().map(|x| x.inverse()).collect::<Vec<_>>());
        }
    }
}
