//! The tower field GF((2^4)^2) = GF(2^4)\[X\]/(X^2 + X + {E}) and the explicit isomorphism Φ with
//! GF(2^8) of Wolkerstorfer, Oswald and Lamberger, as given in MAESTRO §2.1.
//!
//! MAESTRO computes the AES S-box inversion in this tower: by its Eq. (1)–(2),
//! `(a_h X + a_l)^(-1) = (a_h v^(-1)) X + (a_h + a_l) v^(-1)` with
//! `v = a_h^2 {E} + a_h a_l + a_l^2`, one GF(2^4) inversion plus a few GF(2^4) products.
//! Φ and Φ⁻¹ are the GF(2)-linear bit maps printed there; all operations are branch- and
//! table-free.

use super::ops::impl_xor_field_ops;
use super::{Field, Gf16, Gf256};
use rand_core::RngCore;

/// An element `a_h X + a_l` of GF((2^4)^2): `a_h` in the high nibble, `a_l` in the low nibble.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Gf16Squared(pub u8);

impl Gf16Squared {
    /// The constant term {E} of the defining polynomial X^2 + X + {E}.
    pub const E: Gf16 = Gf16::new(0xe);

    /// The element `high · X + low`.
    #[inline]
    pub const fn from_coefficients(high: Gf16, low: Gf16) -> Self {
        Gf16Squared(high.value() << 4 | low.value())
    }

    /// The coefficient `a_h` of X.
    #[inline]
    pub const fn high(self) -> Gf16 {
        Gf16::new(self.0 >> 4)
    }

    /// The constant coefficient `a_l`.
    #[inline]
    pub const fn low(self) -> Gf16 {
        Gf16::new(self.0)
    }

    /// The bit representation `{a_h a_l}`.
    #[inline]
    pub const fn value(self) -> u8 {
        self.0
    }

    #[inline]
    fn product(self, rhs: Self) -> Self {
        let (ah, al, bh, bl) = (self.high(), self.low(), rhs.high(), rhs.low());
        let hh = ah * bh;
        // (ah X + al)(bh X + bl) with X^2 = X + E.
        Self::from_coefficients(hh + ah * bl + al * bh, al * bl + hh * Self::E)
    }

    /// Φ: GF(2^8) → GF((2^4)^2) (MAESTRO §2.1).
    pub fn from_gf256(a: Gf256) -> Self {
        let bit = |i: u32| (a.0 >> i) & 1;
        let high = bit(4) ^ bit(5) ^ bit(6)
            | (bit(1) ^ bit(4) ^ bit(6) ^ bit(7)) << 1
            | (bit(2) ^ bit(3) ^ bit(5) ^ bit(7)) << 2
            | (bit(5) ^ bit(7)) << 3;
        let low = bit(0) ^ bit(4) ^ bit(5) ^ bit(6)
            | (bit(1) ^ bit(2)) << 1
            | (bit(1) ^ bit(7)) << 2
            | (bit(2) ^ bit(4)) << 3;
        Gf16Squared(high << 4 | low)
    }

    /// Φ⁻¹: GF((2^4)^2) → GF(2^8) (MAESTRO §2.1).
    pub fn to_gf256(self) -> Gf256 {
        let h = |i: u32| (self.0 >> (4 + i)) & 1;
        let l = |i: u32| (self.0 >> i) & 1;
        let bits = [
            l(0) ^ h(0),
            h(0) ^ h(1) ^ h(3),
            l(1) ^ h(0) ^ h(1) ^ h(3),
            h(0) ^ h(1) ^ h(2) ^ l(1),
            l(1) ^ l(3) ^ h(0) ^ h(1) ^ h(3),
            l(2) ^ h(0) ^ h(1),
            l(1) ^ l(2) ^ l(3) ^ h(0) ^ h(3),
            l(2) ^ h(0) ^ h(1) ^ h(3),
        ];
        let mut value = 0u8;
        let mut i = 0;
        while i < 8 {
            value |= bits[i] << i;
            i += 1;
        }
        Gf256(value)
    }
}

impl_xor_field_ops!(Gf16Squared, product);

impl Field for Gf16Squared {
    const ZERO: Self = Gf16Squared(0);
    const ONE: Self = Gf16Squared(1);
    const BITS: u32 = 8;

    /// MAESTRO Eq. (1)–(2); `0 ↦ 0` because then `v = 0` and GF(2^4) maps 0 to 0.
    fn inverse(self) -> Self {
        let (ah, al) = (self.high(), self.low());
        let v = ah.square() * Self::E + ah * al + al.square();
        let v_inv = v.inverse();
        Self::from_coefficients(ah * v_inv, (ah + al) * v_inv)
    }

    fn random<R: RngCore + ?Sized>(rng: &mut R) -> Self {
        Gf16Squared(rng.next_u32() as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_bytes() -> impl Iterator<Item = u8> {
        0..=255u8
    }

    #[test]
    fn defining_polynomial_is_irreducible_over_gf16() {
        // X^2 + X + E has no root in GF(2^4), so the tower is a field.
        for r in (0..16).map(Gf16::new) {
            assert_ne!(r * r + r + Gf16Squared::E, Gf16::ZERO, "root {r:?}");
        }
    }

    #[test]
    fn phi_is_a_field_isomorphism() {
        for a in all_bytes() {
            let phi_a = Gf16Squared::from_gf256(Gf256(a));
            assert_eq!(phi_a.to_gf256(), Gf256(a), "Φ⁻¹∘Φ ≠ id at {a:#04x}");
            assert_eq!(Gf16Squared::from_gf256(Gf16Squared(a).to_gf256()), Gf16Squared(a), "Φ∘Φ⁻¹ ≠ id at {a:#04x}");
            assert_eq!(Gf16Squared::from_gf256(Gf256(a).inverse()), phi_a.inverse(), "inverse at {a:#04x}");
            for b in all_bytes() {
                let phi_b = Gf16Squared::from_gf256(Gf256(b));
                assert_eq!(Gf16Squared::from_gf256(Gf256(a) * Gf256(b)), phi_a * phi_b, "Φ(ab) at {a:#04x}, {b:#04x}");
                assert_eq!(Gf16Squared::from_gf256(Gf256(a) + Gf256(b)), phi_a + phi_b, "Φ(a+b) at {a:#04x}, {b:#04x}");
            }
        }
        assert_eq!(Gf16Squared::from_gf256(Gf256(1)), Gf16Squared::ONE);
    }

    #[test]
    fn tower_inverse_exhaustive() {
        assert_eq!(Gf16Squared::ZERO.inverse(), Gf16Squared::ZERO);
        for a in 1..=255u8 {
            assert_eq!(Gf16Squared(a) * Gf16Squared(a).inverse(), Gf16Squared::ONE, "a = {a:#04x}");
        }
    }
}
