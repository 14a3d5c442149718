//! The basic (2m−1, m)_q-MFE (Coral §2.2.3 Definition 2, Theorem 2; maps fixed in §3.3).
//!
//! Over F_q = GF(2^r) with F_{q^m} = F_q\[Y\]/(P(Y)), α = Y, and 2m − 2 distinct points
//! β_1, …, β_{2m−2} of F_q (so q ≥ 2m − 2):
//!
//! - σ = ν1: read x as f of degree ≤ m−1 and output (f(β_1), …, f(β_{2m−2}), f_{m−1}) — the last
//!   entry is "evaluation at infinity"; μ1 is the identity because α = Y (§3.3).
//! - ρ = ν2 ∘ μ2^{-1}: find h of degree ≤ 2m−2 with h(β_i) = z_i and leading coefficient
//!   h_{2m−2} = z_{2m−1}, i.e. h = z_{2m−1}·N + L where N = ∏(Y − β_i) and L is the Lagrange
//!   interpolant of the z_i; output h mod P.
//!
//! σ(x) ⊙ σ(y) are exactly those values of f·g, whose degree is ≤ 2m−2, so ρ recovers f·g mod P =
//! x·y. The reference path here works on slices of base-field elements and is not constant time
//! (the interpolation skips zero values); the compiled, constant-time F2-level maps are in
//! [`super::concat`].

use super::composite::CompositeField;
use super::error::EmbedError;
use super::poly::{self, Poly};

/// A (2m−1, m)_q-MFE from the composite field F_q\[Y\]/(P(Y)) of degree m into F_q^{2m−1}.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BasicMfe {
    extension: CompositeField,
    /// `β_1, …, β_{2m−2}`.
    points: Vec<u64>,
    /// `N(Y) = ∏ (Y − β_i)`, of degree 2m − 2.
    vanishing: Poly,
}

impl BasicMfe {
    /// The MFE on `extension` with the points `0, 1, …, 2m−3` (the first 2m − 2 field elements).
    ///
    /// # Errors
    /// [`EmbedError::TooFewMfePoints`] if 2m − 2 > q.
    pub fn new(extension: CompositeField) -> Result<Self, EmbedError> {
        let needed = 2 * extension.degree() - 2;
        if needed as u128 > 1u128 << extension.base().m() {
            let base_bits = extension.base().m();
            return Err(EmbedError::TooFewMfePoints {
                m: extension.degree(),
                base_bits,
                q: 1u64 << base_bits.min(63),
            });
        }
        let points: Vec<u64> = (0..needed as u64).collect();
        Self::with_points(&points, extension)
    }

    /// The MFE with the given 2m − 2 distinct points.
    ///
    /// # Errors
    /// [`EmbedError::LengthMismatch`] unless there are 2m − 2 points,
    /// [`EmbedError::BadEvaluationPoint`] if one is repeated or outside F_q.
    pub fn with_points(points: &[u64], extension: CompositeField) -> Result<Self, EmbedError> {
        let needed = 2 * extension.degree() - 2;
        if points.len() != needed {
            return Err(EmbedError::LengthMismatch {
                what: "MFE points",
                expected: needed,
                found: points.len(),
            });
        }
        for (i, &beta) in points.iter().enumerate() {
            if !extension.base().contains(beta) {
                return Err(EmbedError::BadEvaluationPoint {
                    point: beta,
                    reason: "point is outside the base field",
                });
            }
            if points[..i].contains(&beta) {
                return Err(EmbedError::BadEvaluationPoint {
                    point: beta,
                    reason: "points must be distinct",
                });
            }
        }
        let vanishing = poly::from_roots(extension.base(), points);
        Ok(BasicMfe { extension, points: points.to_vec(), vanishing })
    }

    /// The extension degree m.
    pub fn m(&self) -> usize {
        self.extension.degree()
    }

    /// The output length t = 2m − 1.
    pub fn t(&self) -> usize {
        2 * self.m() - 1
    }

    /// The extension field F_{q^m} (domain of σ).
    pub fn extension(&self) -> &CompositeField {
        &self.extension
    }

    /// The evaluation points `β_1, …, β_{2m−2}`.
    pub fn points(&self) -> &[u64] {
        &self.points
    }

    /// σ(x) = (f(β_1), …, f(β_{2m−2}), f_{m−1}).
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `x` is not a packed extension element.
    pub fn sigma(&self, x: u64) -> Result<Vec<u64>, EmbedError> {
        if !self.extension.contains(x) {
            return Err(EmbedError::InputOutOfRange { value: x, bits: self.extension.bits() as usize });
        }
        let f = self.extension.coefficients(x);
        let base = self.extension.base();
        let mut out: Vec<u64> = self.points.iter().map(|&b| poly::eval(base, &f, b)).collect();
        out.push(f[self.m() - 1]);
        Ok(out)
    }

    /// ρ(z) = (z_{2m−1}·N + Lagrange(β, z)) mod P.
    ///
    /// # Errors
    /// [`EmbedError::LengthMismatch`] unless `z.len() == 2m − 1`, [`EmbedError::InputOutOfRange`]
    /// if an entry is not a base-field element.
    pub fn rho(&self, z: &[u64]) -> Result<u64, EmbedError> {
        if z.len() != self.t() {
            return Err(EmbedError::LengthMismatch { what: "MFE input", expected: self.t(), found: z.len() });
        }
        let base = self.extension.base();
        if let Some(&bad) = z.iter().find(|&&c| !base.contains(c)) {
            return Err(EmbedError::InputOutOfRange { value: bad, bits: base.m() as usize });
        }
        let (values, lead) = z.split_at(z.len() - 1);
        let h = poly::add(
            &poly::scale(base, &self.vanishing, lead[0]),
            &poly::interpolate(base, &self.points, values),
        );
        Ok(self.extension.pack(&h))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::BinaryField;

    #[test]
    fn exhaustive_multiplicativity_of_the_5_3_mfe_over_gf4() {
        let gf4 = BinaryField::new(2, 0b11).unwrap();
        let mfe = BasicMfe::new(CompositeField::new(gf4, &[2, 0, 0, 1]).unwrap()).unwrap();
        assert_eq!(mfe.t(), 5);
        let ext = mfe.extension().clone();
        for x in 0..64u64 {
            let sx = mfe.sigma(x).unwrap();
            for y in 0..64u64 {
                let sy = mfe.sigma(y).unwrap();
                let product: Vec<u64> = sx.iter().zip(&sy).map(|(&a, &b)| gf4.mul(a, b)).collect();
                assert_eq!(mfe.rho(&product).unwrap(), ext.mul(x, y));
            }
        }
    }

    #[test]
    fn the_3_2_mfe_over_gf2_is_karatsuba() {
        let gf2 = BinaryField::new(1, 0).unwrap();
        let mfe = BasicMfe::new(CompositeField::new(gf2, &[1, 1, 1]).unwrap()).unwrap();
        // Points 0 and 1: σ(a0 + a1·Y) = (a0, a0 + a1, a1).
        assert_eq!(mfe.sigma(0b10).unwrap(), [0, 1, 1]);
        assert_eq!(mfe.sigma(0b11).unwrap(), [1, 0, 1]);
    }

    #[test]
    fn bad_parameters_and_inputs_are_rejected() {
        let gf4 = BinaryField::new(2, 0b11).unwrap();
        // Degree 4 over GF(4) needs 6 > 4 points.
        let quartic = (0..256u64)
            .find_map(|c| CompositeField::new(gf4, &[c & 3, (c >> 2) & 3, (c >> 4) & 3, c >> 6, 1]).ok())
            .unwrap();
        assert!(matches!(BasicMfe::new(quartic), Err(EmbedError::TooFewMfePoints { m: 4, .. })));
        let cubic = CompositeField::new(gf4, &[2, 0, 0, 1]).unwrap();
        assert!(matches!(
            BasicMfe::with_points(&[0, 1, 1, 2], cubic.clone()),
            Err(EmbedError::BadEvaluationPoint { .. })
        ));
        assert!(matches!(
            BasicMfe::with_points(&[0, 1, 2, 4], cubic.clone()),
            Err(EmbedError::BadEvaluationPoint { .. })
        ));
        assert!(matches!(
            BasicMfe::with_points(&[0, 1, 2], cubic.clone()),
            Err(EmbedError::LengthMismatch { .. })
        ));
        let mfe = BasicMfe::new(cubic).unwrap();
        assert!(matches!(mfe.sigma(64), Err(EmbedError::InputOutOfRange { .. })));
        assert!(matches!(mfe.rho(&[0; 4]), Err(EmbedError::LengthMismatch { .. })));
        assert!(matches!(mfe.rho(&[0, 0, 4, 0, 0]), Err(EmbedError::InputOutOfRange { .. })));
    }
}
