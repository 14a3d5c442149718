//! Composite ↔ binary field conversion θ : F_{(2^r)^d} → F_{2^(r·d)} (Coral §3.2, Figure 2).
//!
//! Coral builds, once, an `m × m` bit matrix `M` (m = r·d) with `x = M · x'`, following the
//! composite-field representation method the paper cites ([40]). We construct the same kind of
//! matrix from roots:
//!
//! 1. `γ` = a root, in the binary field, of the base field's modulus `x^r + …` — so
//!    `Σ c_i x^i ↦ Σ c_i γ^i` embeds F_{2^r} into F_{2^m};
//! 2. `δ` = a root, in the binary field, of the composite modulus `P(Y)` with its coefficients
//!    embedded by step 1 (it splits there because F_{2^m} ≅ F_{2^r}\[Y\]/(P));
//! 3. θ(x^i Y^j) = γ^i δ^j gives the columns of `M`, a ring homomorphism between fields of equal
//!    size, hence an isomorphism; `M^{-1}` is computed by Gaussian elimination.
//!
//! Roots are found by random trace splitting with a fixed seed, and the smallest root (as an
//! integer) is chosen each time, so the matrices depend only on the chosen polynomials. For an
//! r = 1 base the composite field is already binary and θ is the identity when both use the same
//! modulus (γ = 1, δ = x).

use crate::field::BinaryField;

use super::composite::CompositeField;
use super::error::EmbedError;
use super::linear_map::{Evaluation, LinearMap};
use super::poly;

/// The isomorphism θ between a composite field and a binary field of the same size, compiled to
/// bit matrices in both directions.
#[derive(Clone, Debug)]
pub struct FieldIsomorphism {
    composite: CompositeField,
    binary: BinaryField,
    to_binary: LinearMap,
    to_composite: LinearMap,
}

impl FieldIsomorphism {
    /// Builds θ from `composite` to `binary`.
    ///
    /// # Errors
    /// [`EmbedError::DegreeMismatch`] if the two fields have different sizes; [`EmbedError::NoRoot`]
    /// or [`EmbedError::SingularConversion`] only if the (validated) moduli were inconsistent.
    pub fn new(composite: CompositeField, binary: BinaryField) -> Result<Self, EmbedError> {
        if composite.bits() != binary.m() {
            return Err(EmbedError::DegreeMismatch {
                composite_bits: composite.bits(),
                binary_bits: binary.m(),
            });
        }
        let base = *composite.base();
        let r = base.m();
        let base_modulus: Vec<u64> =
            (0..=r).map(|i| if i == r { 1 } else { (base.modulus_low() >> i) & 1 }).collect();
        let gamma = smallest_root(&binary, &base_modulus, "base field modulus")?;
        let gamma_powers: Vec<u64> = (0..r).map(|i| binary.pow(gamma, i.into())).collect();
        let embed = |c: u64| {
            gamma_powers
                .iter()
                .enumerate()
                .fold(0, |acc, (i, &g)| acc ^ (g & 0u64.wrapping_sub((c >> i) & 1)))
        };
        let embedded_modulus: Vec<u64> = composite.modulus().iter().map(|&c| embed(c)).collect();
        let delta = smallest_root(&binary, &embedded_modulus, "composite field modulus")?;
        let bits = binary.m() as usize;
        let to_binary = LinearMap::from_images(bits, bits, |column| {
            let (j, i) = (column / r as usize, column % r as usize);
            Ok(vec![binary.mul(gamma_powers[i], binary.pow(delta, j as u64))])
        })?;
        let to_composite = to_binary.inverse().ok_or(EmbedError::SingularConversion)?;
        Ok(FieldIsomorphism { composite, binary, to_binary, to_composite })
    }

    /// The composite field (domain of θ).
    pub fn composite(&self) -> &CompositeField {
        &self.composite
    }

    /// The binary field (codomain of θ).
    pub fn binary(&self) -> &BinaryField {
        &self.binary
    }

    /// The conversion matrix `M` (composite → binary) as a compiled map.
    pub fn matrix(&self) -> &LinearMap {
        &self.to_binary
    }

    /// θ(x): a packed composite element to its binary-field representation.
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `x` is not a packed composite element.
    pub fn to_binary(&self, x: u64) -> Result<u64, EmbedError> {
        if !self.composite.contains(x) {
            return Err(EmbedError::InputOutOfRange { value: x, bits: self.composite.bits() as usize });
        }
        Ok(self.to_binary.apply_word(x))
    }

    /// θ^{-1}(y): a binary-field element to its packed composite representation.
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `y` is not an element of the binary field.
    pub fn to_composite(&self, y: u64) -> Result<u64, EmbedError> {
        if !self.binary.contains(y) {
            return Err(EmbedError::InputOutOfRange { value: y, bits: self.binary.m() as usize });
        }
        Ok(self.to_composite.apply_word(y))
    }

    /// θ on a value known to be in range (internal reference paths).
    pub(crate) fn to_binary_unchecked(&self, x: u64) -> u64 {
        self.to_binary.apply_word(x)
    }

    /// θ^{-1} on a value known to be in range (internal reference paths).
    pub(crate) fn to_composite_unchecked(&self, y: u64) -> u64 {
        self.to_composite.apply_word(y)
    }

    /// Selects the evaluation strategy of both matrices.
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.to_binary.set_evaluation(evaluation);
        self.to_composite.set_evaluation(evaluation);
    }
}

fn smallest_root(field: &BinaryField, p: &[u64], what: &'static str) -> Result<u64, EmbedError> {
    poly::distinct_roots(field, p).and_then(|roots| roots.first().copied()).ok_or(EmbedError::NoRoot { what })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    fn check_isomorphism(iso: &FieldIsomorphism, rng: &mut ChaCha20Rng, samples: usize) {
        let composite = iso.composite();
        let binary = iso.binary();
        let mask = binary.order_minus_one();
        assert_eq!(iso.to_binary(1).unwrap(), 1);
        for _ in 0..samples {
            let a = binary.random(rng) & mask;
            let b = binary.random(rng) & mask;
            let (ca, cb) = (iso.to_composite(a).unwrap(), iso.to_composite(b).unwrap());
            assert_eq!(iso.to_binary(ca).unwrap(), a);
            assert_eq!(iso.to_binary(composite.mul(ca, cb)).unwrap(), binary.mul(a, b));
            assert_eq!(iso.to_binary(ca ^ cb).unwrap(), a ^ b);
        }
    }

    #[test]
    fn gf64_as_gf4_cubed_is_isomorphic_exhaustively() {
        let gf4 = BinaryField::new(2, 0b11).unwrap();
        let composite = CompositeField::new(gf4, &[2, 0, 0, 1]).unwrap();
        let binary = BinaryField::new(6, 0b11).unwrap();
        let iso = FieldIsomorphism::new(composite.clone(), binary).unwrap();
        for a in 0..64u64 {
            for b in 0..64u64 {
                assert_eq!(
                    iso.to_binary(composite.mul(a, b)).unwrap(),
                    binary.mul(iso.to_binary(a).unwrap(), iso.to_binary(b).unwrap())
                );
            }
        }
    }

    #[test]
    fn gf2_42_as_gf8_to_the_14_is_isomorphic() {
        let gf8 = BinaryField::new(3, 0b101).unwrap();
        let mut modulus = vec![0u64; 15];
        modulus[0] = 1;
        modulus[5] = 1;
        modulus[14] = 1;
        let composite = CompositeField::new(gf8, &modulus).unwrap();
        let binary = BinaryField::new(42, 0x2000_0007).unwrap();
        let iso = FieldIsomorphism::new(composite, binary).unwrap();
        check_isomorphism(&iso, &mut ChaCha20Rng::seed_from_u64(11), 200);
    }

    #[test]
    fn same_modulus_over_gf2_gives_the_identity() {
        let gf2 = BinaryField::new(1, 0).unwrap();
        let composite = CompositeField::new(gf2, &[1, 0, 1, 1]).unwrap();
        let iso = FieldIsomorphism::new(composite, BinaryField::new(3, 0b101).unwrap()).unwrap();
        for x in 0..8 {
            assert_eq!(iso.to_binary(x).unwrap(), x);
        }
    }

    #[test]
    fn size_mismatch_and_out_of_range_inputs_are_rejected() {
        let gf4 = BinaryField::new(2, 0b11).unwrap();
        let composite = CompositeField::new(gf4, &[2, 0, 0, 1]).unwrap();
        assert_eq!(
            FieldIsomorphism::new(composite.clone(), BinaryField::new(5, 0b101).unwrap()).unwrap_err(),
            EmbedError::DegreeMismatch { composite_bits: 6, binary_bits: 5 }
        );
        let iso = FieldIsomorphism::new(composite, BinaryField::new(6, 0b11).unwrap()).unwrap();
        assert!(matches!(iso.to_binary(64), Err(EmbedError::InputOutOfRange { .. })));
        assert!(matches!(iso.to_composite(1 << 40), Err(EmbedError::InputOutOfRange { .. })));
    }
}
