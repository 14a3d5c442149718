//! The concatenated (k, m)_2-RMFE [`Rmfe`]: φ, ψ, τ compiled from the stage chain.

use crate::field::BinaryField;

use super::{check_batch_words, check_first_stage, check_lengths, field_mismatch};
use crate::embed::conversion::FieldIsomorphism;
use crate::embed::error::EmbedError;
use crate::embed::linear_map::{low_mask, Evaluation, LinearMap};
use crate::embed::rmfe::BasicRmfe;

#[derive(Clone, Debug)]
struct RmfeStage {
    basic: BasicRmfe,
    conversion: FieldIsomorphism,
    /// Total packing size k after this stage.
    packing: usize,
}

/// A (k, m)_2-RMFE, possibly concatenated, from F_2^k (k ≤ 64) into a binary field F_{2^m}.
#[derive(Clone, Debug)]
pub struct Rmfe {
    stages: Vec<RmfeStage>,
    phi: LinearMap,
    psi: LinearMap,
    tau: LinearMap,
}

impl Rmfe {
    /// A single-stage RMFE: `basic` must be over GF(2); its extension is converted to `field`.
    ///
    /// # Errors
    /// [`EmbedError::FieldMismatch`] if `basic` is not over GF(2), [`EmbedError::DegreeMismatch`]
    /// if `field` has the wrong degree, [`EmbedError::TooWide`] if k > 64.
    pub fn basic(basic: BasicRmfe, field: BinaryField) -> Result<Self, EmbedError> {
        check_first_stage(basic.extension(), "first RMFE stage must be over GF(2)")?;
        Self::from_stages(Vec::new(), basic, field)
    }

    /// The concatenation of `self` (a (k1, m1)_2-RMFE into F_{2^m1}) with `outer`, a
    /// (k2, m2)_{2^m1}-RMFE over exactly that field, converted into the binary field `field`.
    ///
    /// # Errors
    /// [`EmbedError::FieldMismatch`] if `outer`'s base field is not `self.field()`,
    /// [`EmbedError::DegreeMismatch`] if `field` is not of degree m1·m2, [`EmbedError::TooWide`]
    /// if k1·k2 > 64.
    pub fn concat(&self, outer: BasicRmfe, field: BinaryField) -> Result<Self, EmbedError> {
        if outer.extension().base() != self.field() {
            return Err(field_mismatch(
                "RMFE concatenation (outer base field vs inner output field)",
                self.field(),
                outer.extension().base(),
            ));
        }
        Self::from_stages(self.stages.clone(), outer, field)
    }

    fn from_stages(
        mut stages: Vec<RmfeStage>,
        basic: BasicRmfe,
        field: BinaryField,
    ) -> Result<Self, EmbedError> {
        let inner_k = stages.last().map_or(1, |s| s.packing);
        let packing = inner_k * basic.k();
        if packing > 64 {
            return Err(EmbedError::TooWide { what: "RMFE packing size k", bits: packing });
        }
        let conversion = FieldIsomorphism::new(basic.extension().clone(), field)?;
        stages.push(RmfeStage { basic, conversion, packing });
        let m = field.m() as usize;
        let phi = LinearMap::from_images(packing, m, |i| Ok(vec![phi_at(&stages, 1 << i)?]))?;
        let psi = LinearMap::from_images(m, packing, |i| Ok(vec![psi_at(&stages, 1 << i)?]))?;
        let tau = psi.then(&phi)?;
        Ok(Rmfe { stages, phi, psi, tau })
    }

    /// The packing size k.
    pub fn k(&self) -> usize {
        self.phi.in_bits()
    }

    /// The degree m of the output field.
    pub fn m(&self) -> usize {
        self.phi.out_bits()
    }

    /// The binary field F_{2^m} that φ maps into.
    pub fn field(&self) -> &BinaryField {
        self.stages.last().expect("an RMFE has at least one stage").conversion.binary()
    }

    /// The basic RMFEs of the stages, innermost (over GF(2)) first.
    pub fn stages(&self) -> impl Iterator<Item = &BasicRmfe> {
        self.stages.iter().map(|s| &s.basic)
    }

    /// The composite → binary conversion of each stage, innermost first.
    pub fn conversions(&self) -> impl Iterator<Item = &FieldIsomorphism> {
        self.stages.iter().map(|s| &s.conversion)
    }

    /// Selects how φ, ψ, τ are evaluated (constant time by default).
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        for map in [&mut self.phi, &mut self.psi, &mut self.tau] {
            map.set_evaluation(evaluation);
        }
    }

    /// The compiled φ.
    pub fn phi_map(&self) -> &LinearMap {
        &self.phi
    }

    /// The compiled ψ.
    pub fn psi_map(&self) -> &LinearMap {
        &self.psi
    }

    /// The compiled τ = φ ∘ ψ.
    pub fn tau_map(&self) -> &LinearMap {
        &self.tau
    }

    fn check_input(x: u64, bits: usize) -> Result<(), EmbedError> {
        if x & !low_mask(bits) != 0 {
            return Err(EmbedError::InputOutOfRange { value: x, bits });
        }
        Ok(())
    }

    /// φ(x) (encode).
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `x ≥ 2^k`.
    pub fn phi(&self, x: u64) -> Result<u64, EmbedError> {
        Self::check_input(x, self.k())?;
        Ok(self.phi.apply_word(x))
    }

    /// ψ(y) (decode).
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `y` is not an element of the field.
    pub fn psi(&self, y: u64) -> Result<u64, EmbedError> {
        Self::check_input(y, self.m())?;
        Ok(self.psi.apply_word(y))
    }

    /// τ(y) = φ(ψ(y)) (re-encode / normalize).
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `y` is not an element of the field.
    pub fn tau(&self, y: u64) -> Result<u64, EmbedError> {
        Self::check_input(y, self.m())?;
        Ok(self.tau.apply_word(y))
    }

    fn batch(map: &LinearMap, input: &[u64], output: &mut [u64]) -> Result<(), EmbedError> {
        check_lengths("batch output", input.len(), output.len())?;
        check_batch_words(input, map.in_bits())?;
        for (o, &x) in output.iter_mut().zip(input) {
            *o = map.apply_word(x);
        }
        Ok(())
    }

    /// φ on every element of `xs`, written to `out` (same length).
    ///
    /// # Errors
    /// [`EmbedError::LengthMismatch`] or [`EmbedError::InputOutOfRange`].
    pub fn phi_batch(&self, xs: &[u64], out: &mut [u64]) -> Result<(), EmbedError> {
        Self::batch(&self.phi, xs, out)
    }

    /// ψ on every element of `ys`, written to `out` (same length).
    ///
    /// # Errors
    /// [`EmbedError::LengthMismatch`] or [`EmbedError::InputOutOfRange`].
    pub fn psi_batch(&self, ys: &[u64], out: &mut [u64]) -> Result<(), EmbedError> {
        Self::batch(&self.psi, ys, out)
    }

    /// τ on every element of `ys`, written to `out` (same length).
    ///
    /// # Errors
    /// [`EmbedError::LengthMismatch`] or [`EmbedError::InputOutOfRange`].
    pub fn tau_batch(&self, ys: &[u64], out: &mut [u64]) -> Result<(), EmbedError> {
        Self::batch(&self.tau, ys, out)
    }

    /// φ(x) through the polynomial reference path (slow, not constant time; for
    /// cross-checks).
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `x ≥ 2^k`.
    pub fn phi_reference(&self, x: u64) -> Result<u64, EmbedError> {
        Self::check_input(x, self.k())?;
        phi_at(&self.stages, x)
    }

    /// ψ(y) through the polynomial reference path (slow, not constant time; for
    /// cross-checks).
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `y` is not an element of the field.
    pub fn psi_reference(&self, y: u64) -> Result<u64, EmbedError> {
        Self::check_input(y, self.m())?;
        psi_at(&self.stages, y)
    }
}

/// φ of the chain ending with the last stage, by recursion on the inner stages.
fn phi_at(stages: &[RmfeStage], x: u64) -> Result<u64, EmbedError> {
    let (last, inner) = stages.split_last().expect("non-empty chain");
    let inner_k = inner.last().map_or(1, |s| s.packing);
    let coordinates = (0..last.basic.k())
        .map(|j| {
            let block = (x >> (j * inner_k)) & low_mask(inner_k);
            if inner.is_empty() {
                Ok(block)
            } else {
                phi_at(inner, block)
            }
        })
        .collect::<Result<Vec<u64>, EmbedError>>()?;
    Ok(last.conversion.to_binary_unchecked(last.basic.phi(&coordinates)?))
}

/// ψ of the chain ending with the last stage.
fn psi_at(stages: &[RmfeStage], y: u64) -> Result<u64, EmbedError> {
    let (last, inner) = stages.split_last().expect("non-empty chain");
    let inner_k = inner.last().map_or(1, |s| s.packing);
    let coordinates = last.basic.psi(last.conversion.to_composite_unchecked(y))?;
    coordinates.iter().enumerate().try_fold(0, |acc, (j, &c)| {
        let block = if inner.is_empty() { c } else { psi_at(inner, c)? };
        Ok(acc | (block << (j * inner_k)))
    })
}
