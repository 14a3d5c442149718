//! The basic (k, m)_q-RMFE with Coral's maps (§2.2.3 Definition 1, Theorem 1; §3.3).
//!
//! Over F_q = GF(2^r) with extension F_{q^m} = F_q\[Y\]/(P(Y)) and α = Y (Coral's "simplified
//! basis", §3.3, which turns π1 into the identity), and with the evaluation points
//! `0, β_1, …, β_{k−1}` (distinct, β_i ≠ 0; evaluating at 0 reads the constant coefficient f_0,
//! Coral's fix that makes decoding invert encoding):
//!
//! - φ = ξ1^{-1}: interpolate the polynomial f of degree ≤ k−1 with f(0) = x_0, f(β_i) = x_i; its
//!   coefficients are φ(x) ∈ F_{q^m}.
//! - ψ = ξ2: read an element as g of degree ≤ m−1 and output (g(0), g(β_1), …, g(β_{k−1})).
//!
//! Because m ≥ 2k−1, φ(x)·φ(y) = f·g needs no reduction modulo P, so ψ(φ(x)·φ(y)) = x ⊙ y; and
//! ψ(φ(x)) = x, φ(1) = 1 (the constant polynomial). This covers the (k, 2k−1)_q and (k, 2k)_q
//! instances of Theorem 1 (any m ≥ 2k−1 works). The points force k ≤ q (§3.3).
//!
//! These maps work on slices of base-field elements through the polynomial reference path, which
//! is not constant time (the interpolation skips zero values); the compiled, constant-time
//! F2-level maps used in protocols are in [`super::concat`].

use super::composite::CompositeField;
use super::error::EmbedError;
use super::poly;

/// A (k, m)_q-RMFE from F_q^k into the composite field F_q\[Y\]/(P(Y)) of degree m.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BasicRmfe {
    extension: CompositeField,
    /// `0, β_1, …, β_{k−1}`.
    points: Vec<u64>,
}

impl BasicRmfe {
    /// The (k, m)_q-RMFE into `extension` (m = its degree) with the points `0, 1, 2, …, k−1`
    /// (as integers, i.e. the first k field elements in bit order).
    ///
    /// # Errors
    /// [`EmbedError::ZeroDimension`] if k = 0, [`EmbedError::TooFewRmfePoints`] if k > q,
    /// [`EmbedError::RmfeDegreeTooSmall`] if m < 2k − 1.
    pub fn new(k: usize, extension: CompositeField) -> Result<Self, EmbedError> {
        if k == 0 {
            return Err(EmbedError::ZeroDimension { what: "RMFE packing size k" });
        }
        let q = 1u128 << extension.base().m();
        if k as u128 > q {
            return Err(too_few_points(k, &extension));
        }
        let non_zero: Vec<u64> = (1..k as u64).collect();
        Self::with_points(&non_zero, extension)
    }

    /// The RMFE with the given non-zero points `β_1, …, β_{k−1}` (so k = `non_zero.len() + 1`).
    ///
    /// # Errors
    /// [`EmbedError::BadEvaluationPoint`] if a point is zero, repeated or outside F_q;
    /// [`EmbedError::TooFewRmfePoints`] if k > q; [`EmbedError::RmfeDegreeTooSmall`] if m < 2k − 1.
    pub fn with_points(non_zero: &[u64], extension: CompositeField) -> Result<Self, EmbedError> {
        let k = non_zero.len() + 1;
        if k as u128 > 1u128 << extension.base().m() {
            return Err(too_few_points(k, &extension));
        }
        let m = extension.degree();
        if m < 2 * k - 1 {
            return Err(EmbedError::RmfeDegreeTooSmall { k, m });
        }
        for (i, &beta) in non_zero.iter().enumerate() {
            let reason = if beta == 0 {
                Some("RMFE points β_i must be non-zero (0 is already used for f_0)")
            } else if !extension.base().contains(beta) {
                Some("point is outside the base field")
            } else if non_zero[..i].contains(&beta) {
                Some("points must be distinct")
            } else {
                None
            };
            if let Some(reason) = reason {
                return Err(EmbedError::BadEvaluationPoint { point: beta, reason });
            }
        }
        let mut points = vec![0];
        points.extend_from_slice(non_zero);
        Ok(BasicRmfe { extension, points })
    }

    /// The packing size k.
    pub fn k(&self) -> usize {
        self.points.len()
    }

    /// The extension degree m.
    pub fn m(&self) -> usize {
        self.extension.degree()
    }

    /// The extension field F_{q^m} (codomain of φ).
    pub fn extension(&self) -> &CompositeField {
        &self.extension
    }

    /// The evaluation points `0, β_1, …, β_{k−1}`.
    pub fn points(&self) -> &[u64] {
        &self.points
    }

    /// φ(x): interpolation at the points, coefficients packed as an extension element.
    ///
    /// # Errors
    /// [`EmbedError::LengthMismatch`] unless `x.len() == k`; [`EmbedError::InputOutOfRange`] if an
    /// entry is not a base-field element.
    pub fn phi(&self, x: &[u64]) -> Result<u64, EmbedError> {
        if x.len() != self.k() {
            return Err(EmbedError::LengthMismatch {
                what: "RMFE input",
                expected: self.k(),
                found: x.len(),
            });
        }
        let base = self.extension.base();
        if let Some(&bad) = x.iter().find(|&&c| !base.contains(c)) {
            return Err(EmbedError::InputOutOfRange { value: bad, bits: base.m() as usize });
        }
        Ok(self.extension.pack(&poly::interpolate(base, &self.points, x)))
    }

    /// ψ(y): evaluation of y (as a polynomial in Y) at the points.
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `y` is not a packed extension element.
    pub fn psi(&self, y: u64) -> Result<Vec<u64>, EmbedError> {
        if !self.extension.contains(y) {
            return Err(EmbedError::InputOutOfRange { value: y, bits: self.extension.bits() as usize });
        }
        let coefficients = self.extension.coefficients(y);
        let base = self.extension.base();
        Ok(self.points.iter().map(|&p| poly::eval(base, &coefficients, p)).collect())
    }
}

fn too_few_points(k: usize, extension: &CompositeField) -> EmbedError {
    let base_bits = extension.base().m();
    EmbedError::TooFewRmfePoints { k, base_bits, q: 1u64 << base_bits.min(63) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::BinaryField;

    fn gf8_to_the_14() -> CompositeField {
        let mut modulus = vec![0u64; 15];
        (modulus[0], modulus[5], modulus[14]) = (1, 1, 1);
        CompositeField::new(BinaryField::new(3, 0b101).unwrap(), &modulus).unwrap()
    }

    #[test]
    fn exhaustive_multiplicativity_of_the_2_3_rmfe_over_gf2() {
        let gf2 = BinaryField::new(1, 0).unwrap();
        let rmfe = BasicRmfe::new(2, CompositeField::new(gf2, &[1, 0, 1, 1]).unwrap()).unwrap();
        let ext = rmfe.extension().clone();
        for x in 0..4u64 {
            let xv = [x & 1, x >> 1];
            assert_eq!(rmfe.psi(rmfe.phi(&xv).unwrap()).unwrap(), xv);
            for y in 0..4u64 {
                let yv = [y & 1, y >> 1];
                let product = ext.mul(rmfe.phi(&xv).unwrap(), rmfe.phi(&yv).unwrap());
                assert_eq!(rmfe.psi(product).unwrap(), [xv[0] & yv[0], xv[1] & yv[1]]);
            }
        }
        assert_eq!(rmfe.phi(&[1, 1]).unwrap(), 1);
    }

    #[test]
    fn the_7_14_rmfe_over_gf8_multiplies_coordinatewise() {
        let rmfe = BasicRmfe::new(7, gf8_to_the_14()).unwrap();
        let f = BinaryField::new(3, 0b101).unwrap();
        let x = [1, 2, 3, 4, 5, 6, 7];
        let y = [7, 0, 5, 1, 3, 6, 2];
        let product = rmfe.extension().mul(rmfe.phi(&x).unwrap(), rmfe.phi(&y).unwrap());
        let expected: Vec<u64> = x.iter().zip(&y).map(|(&a, &b)| f.mul(a, b)).collect();
        assert_eq!(rmfe.psi(product).unwrap(), expected);
        assert_eq!(rmfe.phi(&[1; 7]).unwrap(), 1);
    }

    #[test]
    fn bad_parameters_are_rejected() {
        let ext = gf8_to_the_14();
        assert!(matches!(BasicRmfe::new(0, ext.clone()), Err(EmbedError::ZeroDimension { .. })));
        assert!(matches!(BasicRmfe::new(9, ext.clone()), Err(EmbedError::TooFewRmfePoints { k: 9, .. })));
        let gf8 = BinaryField::new(3, 0b101).unwrap();
        let small =
            (0..64u64).find_map(|ab| CompositeField::new(gf8, &[ab & 7, ab >> 3, 0, 0, 1]).ok()).unwrap();
        assert!(matches!(BasicRmfe::new(3, small), Err(EmbedError::RmfeDegreeTooSmall { k: 3, m: 4 })));
        for bad in [[0u64, 1], [1, 1], [1, 8]] {
            assert!(matches!(
                BasicRmfe::with_points(&bad, ext.clone()),
                Err(EmbedError::BadEvaluationPoint { .. })
            ));
        }
        let rmfe = BasicRmfe::new(7, ext).unwrap();
        assert!(matches!(rmfe.phi(&[1, 2]), Err(EmbedError::LengthMismatch { .. })));
        assert!(matches!(rmfe.phi(&[8, 0, 0, 0, 0, 0, 0]), Err(EmbedError::InputOutOfRange { .. })));
        assert!(matches!(rmfe.psi(1 << 42), Err(EmbedError::InputOutOfRange { .. })));
    }
}
