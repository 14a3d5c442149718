//! The concatenated (t, m)_2-MFE [`Mfe`]: σ and ρ compiled from the stage chain.

use crate::field::BinaryField;

use super::{check_batch_words, check_first_stage, check_lengths, field_mismatch};
use crate::embed::conversion::FieldIsomorphism;
use crate::embed::error::EmbedError;
use crate::embed::linear_map::{check_bit_string, read_bits, words_for, xor_bits, Evaluation, LinearMap};
use crate::embed::mfe::BasicMfe;

#[derive(Clone, Debug)]
struct MfeStage {
    basic: BasicMfe,
    conversion: FieldIsomorphism,
    /// Total output length t after this stage.
    length: usize,
}

/// A (t, m)_2-MFE, possibly concatenated, from a binary field F_{2^m} into F_2^t.
#[derive(Clone, Debug)]
pub struct Mfe {
    stages: Vec<MfeStage>,
    sigma: LinearMap,
    rho: LinearMap,
}

impl Mfe {
    /// A single-stage MFE: `basic` must be over GF(2); `field` is the binary form of its domain.
    ///
    /// # Errors
    /// [`EmbedError::FieldMismatch`] if `basic` is not over GF(2), [`EmbedError::DegreeMismatch`]
    /// if `field` has the wrong degree.
    pub fn basic(basic: BasicMfe, field: BinaryField) -> Result<Self, EmbedError> {
        check_first_stage(basic.extension(), "first MFE stage must be over GF(2)")?;
        Self::from_stages(Vec::new(), basic, field)
    }

    /// The concatenation of `self` (a (t1, m1)_2-MFE on F_{2^m1}) with `outer`, a
    /// (t2, m2)_{2^m1}-MFE over exactly that field; `field` is the binary form of the new domain.
    ///
    /// # Errors
    /// [`EmbedError::FieldMismatch`] if `outer`'s base field is not `self.field()`,
    /// [`EmbedError::DegreeMismatch`] if `field` is not of degree m1·m2.
    pub fn concat(&self, outer: BasicMfe, field: BinaryField) -> Result<Self, EmbedError> {
        if outer.extension().base() != self.field() {
            return Err(field_mismatch(
                "MFE concatenation (outer base field vs inner domain field)",
                self.field(),
                outer.extension().base(),
            ));
        }
        Self::from_stages(self.stages.clone(), outer, field)
    }

    fn from_stages(
        mut stages: Vec<MfeStage>,
        basic: BasicMfe,
        field: BinaryField,
    ) -> Result<Self, EmbedError> {
        let inner_t = stages.last().map_or(1, |s| s.length);
        let length = inner_t * basic.t();
        let conversion = FieldIsomorphism::new(basic.extension().clone(), field)?;
        stages.push(MfeStage { basic, conversion, length });
        let m = field.m() as usize;
        let sigma = LinearMap::from_images(m, length, |i| {
            let mut out = vec![0u64; words_for(length)];
            sigma_at(&stages, 1 << i, &mut out, 0)?;
            Ok(out)
        })?;
        let rho = LinearMap::from_images(length, m, |i| {
            let mut unit = vec![0u64; words_for(length)];
            xor_bits(&mut unit, i, 1, 1);
            Ok(vec![rho_at(&stages, &unit, 0)?])
        })?;
        Ok(Mfe { stages, sigma, rho })
    }

    /// The output length t.
    pub fn t(&self) -> usize {
        self.sigma.out_bits()
    }

    /// The degree m of the domain field.
    pub fn m(&self) -> usize {
        self.sigma.in_bits()
    }

    /// Words of one element of F_2^t, `⌈t/64⌉`.
    pub fn share_words(&self) -> usize {
        self.sigma.out_words()
    }

    /// The binary field F_{2^m} that σ maps from.
    pub fn field(&self) -> &BinaryField {
        self.stages.last().expect("an MFE has at least one stage").conversion.binary()
    }

    /// The basic MFEs of the stages, innermost (over GF(2)) first.
    pub fn stages(&self) -> impl Iterator<Item = &BasicMfe> {
        self.stages.iter().map(|s| &s.basic)
    }

    /// The composite → binary conversion of each stage, innermost first.
    pub fn conversions(&self) -> impl Iterator<Item = &FieldIsomorphism> {
        self.stages.iter().map(|s| &s.conversion)
    }

    /// Selects how σ and ρ are evaluated (constant time by default).
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.sigma.set_evaluation(evaluation);
        self.rho.set_evaluation(evaluation);
    }

    /// The compiled σ.
    pub fn sigma_map(&self) -> &LinearMap {
        &self.sigma
    }

    /// The compiled ρ.
    pub fn rho_map(&self) -> &LinearMap {
        &self.rho
    }

    fn check_element(&self, x: u64) -> Result<(), EmbedError> {
        if !self.field().contains(x) {
            return Err(EmbedError::InputOutOfRange { value: x, bits: self.m() });
        }
        Ok(())
    }

    /// σ(x) written into `out` (`share_words()` words).
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `x` is not a field element,
    /// [`EmbedError::LengthMismatch`] if `out` has the wrong length.
    pub fn sigma_into(&self, x: u64, out: &mut [u64]) -> Result<(), EmbedError> {
        self.check_element(x)?;
        check_lengths("MFE share", self.share_words(), out.len())?;
        self.sigma.apply_unchecked(&[x], out);
        Ok(())
    }

    /// σ(x) as a freshly allocated share.
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `x` is not a field element.
    pub fn sigma(&self, x: u64) -> Result<Vec<u64>, EmbedError> {
        let mut out = vec![0u64; self.share_words()];
        self.sigma_into(x, &mut out)?;
        Ok(out)
    }

    /// ρ(z) for a share `z` of `share_words()` words.
    ///
    /// # Errors
    /// [`EmbedError::LengthMismatch`] or [`EmbedError::InputOutOfRange`] if `z` is not a
    /// well-formed t-bit string.
    pub fn rho(&self, z: &[u64]) -> Result<u64, EmbedError> {
        check_bit_string(z, self.t(), "MFE share")?;
        let mut out = [0u64];
        self.rho.apply_unchecked(z, &mut out);
        Ok(out[0])
    }

    /// σ on every element of `xs`; `out` holds `xs.len()` shares of `share_words()` words each.
    ///
    /// # Errors
    /// [`EmbedError::LengthMismatch`] or [`EmbedError::InputOutOfRange`].
    pub fn sigma_batch(&self, xs: &[u64], out: &mut [u64]) -> Result<(), EmbedError> {
        let words = self.share_words();
        check_lengths("MFE batch output", xs.len() * words, out.len())?;
        check_batch_words(xs, self.m())?;
        for (&x, share) in xs.iter().zip(out.chunks_exact_mut(words)) {
            self.sigma.apply_unchecked(&[x], share);
        }
        Ok(())
    }

    /// ρ on every share of `zs` (`share_words()` words each); `out` has one element per share.
    ///
    /// # Errors
    /// [`EmbedError::LengthMismatch`] or [`EmbedError::InputOutOfRange`].
    pub fn rho_batch(&self, zs: &[u64], out: &mut [u64]) -> Result<(), EmbedError> {
        let words = self.share_words();
        check_lengths("MFE batch input", out.len() * words, zs.len())?;
        for share in zs.chunks_exact(words) {
            check_bit_string(share, self.t(), "MFE share")?;
        }
        for (o, share) in out.iter_mut().zip(zs.chunks_exact(words)) {
            let mut word = [0u64];
            self.rho.apply_unchecked(share, &mut word);
            *o = word[0];
        }
        Ok(())
    }

    /// σ(x) through the polynomial reference path (slow, not constant time; for
    /// cross-checks).
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `x` is not a field element.
    pub fn sigma_reference(&self, x: u64) -> Result<Vec<u64>, EmbedError> {
        self.check_element(x)?;
        let mut out = vec![0u64; self.share_words()];
        sigma_at(&self.stages, x, &mut out, 0)?;
        Ok(out)
    }

    /// ρ(z) through the polynomial reference path (slow, not constant time; for
    /// cross-checks).
    ///
    /// # Errors
    /// [`EmbedError::LengthMismatch`] or [`EmbedError::InputOutOfRange`].
    pub fn rho_reference(&self, z: &[u64]) -> Result<u64, EmbedError> {
        check_bit_string(z, self.t(), "MFE share")?;
        rho_at(&self.stages, z, 0)
    }
}

/// σ of the chain ending with the last stage, XORed into `out` at bit `offset`.
fn sigma_at(stages: &[MfeStage], x: u64, out: &mut [u64], offset: usize) -> Result<(), EmbedError> {
    let (last, inner) = stages.split_last().expect("non-empty chain");
    let inner_t = inner.last().map_or(1, |s| s.length);
    let coordinates = last.basic.sigma(last.conversion.to_composite_unchecked(x))?;
    for (j, &c) in coordinates.iter().enumerate() {
        if inner.is_empty() {
            xor_bits(out, offset + j, 1, c);
        } else {
            sigma_at(inner, c, out, offset + j * inner_t)?;
        }
    }
    Ok(())
}

/// ρ of the chain ending with the last stage, reading the share from bit `offset` of `z`.
fn rho_at(stages: &[MfeStage], z: &[u64], offset: usize) -> Result<u64, EmbedError> {
    let (last, inner) = stages.split_last().expect("non-empty chain");
    let inner_t = inner.last().map_or(1, |s| s.length);
    let coordinates = (0..last.basic.t())
        .map(|j| {
            if inner.is_empty() {
                Ok(read_bits(z, offset + j, 1))
            } else {
                rho_at(inner, z, offset + j * inner_t)
            }
        })
        .collect::<Result<Vec<u64>, EmbedError>>()?;
    Ok(last.conversion.to_binary_unchecked(last.basic.rho(&coordinates)?))
}
