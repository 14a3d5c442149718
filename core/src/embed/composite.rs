//! Composite fields F_q\[Y\]/(P(Y)) over a binary base field F_q = GF(2^r) (Coral §3.2).
//!
//! Concatenating a (k1, m1)_2-RMFE with a (k2, m2)_{2^m1}-RMFE (and likewise for MFEs) produces
//! values in the composite field F_{(2^m1)^m2}; Coral §3.2 converts them to the binary field
//! F_{2^(m1 m2)} (see [`super::conversion`]). Here an element is packed into one `u64` as "a simple
//! concatenation of m2 elements" of the base field: the coefficient of Y^j sits in bits
//! `[j·r, (j+1)·r)`. Arithmetic here is the reference path (polynomial multiplication and
//! division), used to build and test the compiled maps, not in hot loops.

use crate::field::BinaryField;

use super::error::EmbedError;
use super::poly::{self, Poly};

/// The field F_q\[Y\]/(P(Y)) for a monic irreducible `P` of degree `d` over `F_q = GF(2^r)`, with
/// `r·d ≤ 64` so that elements pack into one `u64`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompositeField {
    base: BinaryField,
    modulus: Poly,
}

impl CompositeField {
    /// The composite field over `base` defined by `modulus` (coefficients lowest first, monic).
    ///
    /// # Errors
    /// [`EmbedError::MalformedModulus`] if the modulus is not monic of degree ≥ 1 or has a
    /// coefficient outside the base field, [`EmbedError::TooWide`] if `r·d > 64`,
    /// [`EmbedError::ReducibleModulus`] if it is reducible over the base field.
    pub fn new(base: BinaryField, modulus: &[u64]) -> Result<Self, EmbedError> {
        if modulus.len() < 2 {
            return Err(EmbedError::MalformedModulus { reason: "degree must be at least 1" });
        }
        if modulus.last() != Some(&1) {
            return Err(EmbedError::MalformedModulus { reason: "leading coefficient must be 1" });
        }
        if modulus.iter().any(|&c| !base.contains(c)) {
            return Err(EmbedError::MalformedModulus { reason: "a coefficient is outside the base field" });
        }
        let degree = modulus.len() - 1;
        let bits = degree * base.m() as usize;
        if bits > 64 {
            return Err(EmbedError::TooWide { what: "composite field element", bits });
        }
        if !poly::is_irreducible(&base, modulus) {
            return Err(EmbedError::ReducibleModulus { degree, base_bits: base.m() });
        }
        Ok(CompositeField { base, modulus: modulus.to_vec() })
    }

    /// The base field F_q.
    pub fn base(&self) -> &BinaryField {
        &self.base
    }

    /// The modulus `P(Y)`, lowest coefficient first.
    pub fn modulus(&self) -> &[u64] {
        &self.modulus
    }

    /// The extension degree `d` of `P`.
    pub fn degree(&self) -> usize {
        self.modulus.len() - 1
    }

    /// Bits of a packed element, `r·d`.
    pub fn bits(&self) -> u32 {
        self.base.m() * self.degree() as u32
    }

    /// `true` iff `x` has no bit at or above [`Self::bits`].
    pub fn contains(&self, x: u64) -> bool {
        self.bits() == 64 || x >> self.bits() == 0
    }

    /// The `d` coefficients of a packed element, lowest first.
    pub fn coefficients(&self, x: u64) -> Vec<u64> {
        let r = self.base.m();
        let mask = self.base.order_minus_one();
        (0..self.degree() as u32).map(|j| (x >> (j * r)) & mask).collect()
    }

    /// Packs a polynomial of degree `< d` (reducing it first if it is longer).
    pub(crate) fn pack(&self, p: &[u64]) -> u64 {
        let reduced;
        let p = if p.len() > self.degree() {
            reduced = poly::rem(&self.base, p, &self.modulus);
            &reduced[..]
        } else {
            p
        };
        let r = self.base.m();
        p.iter().enumerate().fold(0, |acc, (j, &c)| acc | (c << (j as u32 * r)))
    }

    /// `a + b`.
    pub fn add(&self, a: u64, b: u64) -> u64 {
        a ^ b
    }

    /// `a · b` (reference path: polynomial product reduced modulo `P`).
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        let product = poly::mul(&self.base, &self.coefficients(a), &self.coefficients(b));
        self.pack(&product)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_and_reducible_moduli_are_rejected() {
        let gf4 = BinaryField::new(2, 0b11).unwrap();
        assert!(matches!(CompositeField::new(gf4, &[1]), Err(EmbedError::MalformedModulus { .. })));
        assert!(matches!(CompositeField::new(gf4, &[1, 1, 2]), Err(EmbedError::MalformedModulus { .. })));
        assert!(matches!(CompositeField::new(gf4, &[4, 0, 1]), Err(EmbedError::MalformedModulus { .. })));
        // Y^2 + Y + 1 splits over GF(4).
        assert_eq!(
            CompositeField::new(gf4, &[1, 1, 1]),
            Err(EmbedError::ReducibleModulus { degree: 2, base_bits: 2 })
        );
        let gf64 = BinaryField::new(6, 0b11).unwrap();
        let mut wide = vec![0u64; 12];
        wide[0] = 2;
        wide[11] = 1;
        assert!(matches!(CompositeField::new(gf64, &wide), Err(EmbedError::TooWide { .. })));
    }

    #[test]
    fn gf16_as_gf4_squared_is_a_field() {
        // Y^2 + Y + x is irreducible over GF(4) = F2[x]/(x^2+x+1); check every non-zero element
        // has an inverse and multiplication is commutative and associative on all 16 elements.
        let gf4 = BinaryField::new(2, 0b11).unwrap();
        let f = CompositeField::new(gf4, &[2, 1, 1]).unwrap();
        for a in 1..16u64 {
            assert_eq!((1..16u64).filter(|&b| f.mul(a, b) == 1).count(), 1);
            for b in 0..16u64 {
                assert_eq!(f.mul(a, b), f.mul(b, a));
                for c in 0..16u64 {
                    assert_eq!(f.mul(f.mul(a, b), c), f.mul(a, f.mul(b, c)));
                    assert_eq!(f.mul(a, b ^ c), f.mul(a, b) ^ f.mul(a, c));
                }
            }
        }
    }
}
