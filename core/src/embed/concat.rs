//! Concatenated RMFEs and MFEs over F_2 whose fields are binary fields (Coral §2.2.3
//! "Concatenation", §3.1, §3.2, Figure 2), compiled into F2-linear maps.
//!
//! A (k1, m1)_2-RMFE and a (k2, m2)_{2^m1}-RMFE concatenate to a (k1·k2, m1·m2)_2-RMFE: φ applies
//! the inner φ1 to each of the k2 blocks of k1 bits, giving k2 elements of F_{2^m1}, then the outer
//! φ2, giving an element of the composite field F_{(2^m1)^m2}, which θ (§3.2) converts into the
//! binary field F_{2^(m1 m2)}. ψ runs the same steps backwards. MFEs concatenate the same way
//! (a (t1, m1)_2-MFE and a (t2, m2)_{2^m1}-MFE give a (t1·t2, m1·m2)_2-MFE), with σ going from the
//! outermost field inwards. Each stage converts its composite field to a binary field, which must be
//! exactly the base field of the next stage (checked), so the final RMFE output and MFE input can be
//! the same F_{2^m} (§3.1).
//!
//! Bit layout: x ∈ F_2^k is a `u64` with x_i at bit i; block j of a concatenation holds bits
//! `[j·k1, (j+1)·k1)`. An MFE share in F_2^t is `⌈t/64⌉` words (bit i at bit i % 64 of word i / 64),
//! block j at bits `[j·t1, (j+1)·t1)`. Field elements are `u64` in the binary field's bit order.
//!
//! The maps are evaluated through the polynomial reference path once per unit vector at
//! construction and compiled into [`LinearMap`]s; the `*_reference` methods keep the algebraic
//! path available for cross-checks. Evaluation is constant time by default (see
//! [`super::linear_map`] for the faster, non-constant-time byte tables).

use crate::field::BinaryField;

use super::composite::CompositeField;
use super::conversion::FieldIsomorphism;
use super::error::EmbedError;
use super::linear_map::{
    check_bit_string, low_mask, read_bits, words_for, xor_bits, Evaluation, LinearMap,
};
use super::mfe::BasicMfe;
use super::rmfe::BasicRmfe;

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

fn field_mismatch(
    context: &'static str,
    expected: &BinaryField,
    found: &BinaryField,
) -> EmbedError {
    EmbedError::FieldMismatch {
        context,
        expected_bits: expected.m(),
        expected_low: expected.modulus_low(),
        found_bits: found.m(),
        found_low: found.modulus_low(),
    }
}

fn gf2() -> BinaryField {
    BinaryField::new(1, 0).expect("x is irreducible over GF(2)")
}

fn check_first_stage(extension: &CompositeField, what: &'static str) -> Result<(), EmbedError> {
    let two = gf2();
    if *extension.base() != two {
        return Err(field_mismatch(what, &two, extension.base()));
    }
    Ok(())
}

/// Checks that every word of a batch fits in `bits` bits, scanning all of them without branching.
fn check_batch_words(words: &[u64], bits: usize) -> Result<(), EmbedError> {
    let high = words.iter().fold(0, |acc, &w| acc | (w & !low_mask(bits)));
    if high != 0 {
        let value = words
            .iter()
            .copied()
            .find(|&w| w & !low_mask(bits) != 0)
            .unwrap_or(high);
        return Err(EmbedError::InputOutOfRange { value, bits });
    }
    Ok(())
}

fn check_lengths(what: &'static str, expected: usize, found: usize) -> Result<(), EmbedError> {
    if expected != found {
        return Err(EmbedError::LengthMismatch {
            what,
            expected,
            found,
        });
    }
    Ok(())
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
            return Err(EmbedError::TooWide {
                what: "RMFE packing size k",
                bits: packing,
            });
        }
        let conversion = FieldIsomorphism::new(basic.extension().clone(), field)?;
        stages.push(RmfeStage {
            basic,
            conversion,
            packing,
        });
        let m = field.m() as usize;
        let phi = LinearMap::from_images(packing, m, |i| Ok(vec![phi_at(&stages, 1 << i)?]))?;
        let psi = LinearMap::from_images(m, packing, |i| Ok(vec![psi_at(&stages, 1 << i)?]))?;
        let tau = psi.then(&phi)?;
        Ok(Rmfe {
            stages,
            phi,
            psi,
            tau,
        })
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
        self.stages
            .last()
            .expect("an RMFE has at least one stage")
            .conversion
            .binary()
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

    /// φ(x) through the polynomial reference path (slow; for cross-checks).
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `x ≥ 2^k`.
    pub fn phi_reference(&self, x: u64) -> Result<u64, EmbedError> {
        Self::check_input(x, self.k())?;
        phi_at(&self.stages, x)
    }

    /// ψ(y) through the polynomial reference path (slow; for cross-checks).
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
    Ok(last
        .conversion
        .to_binary_unchecked(last.basic.phi(&coordinates)?))
}

/// ψ of the chain ending with the last stage.
fn psi_at(stages: &[RmfeStage], y: u64) -> Result<u64, EmbedError> {
    let (last, inner) = stages.split_last().expect("non-empty chain");
    let inner_k = inner.last().map_or(1, |s| s.packing);
    let coordinates = last.basic.psi(last.conversion.to_composite_unchecked(y))?;
    coordinates.iter().enumerate().try_fold(0, |acc, (j, &c)| {
        let block = if inner.is_empty() {
            c
        } else {
            psi_at(inner, c)?
        };
        Ok(acc | (block << (j * inner_k)))
    })
}

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
        stages.push(MfeStage {
            basic,
            conversion,
            length,
        });
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
        self.stages
            .last()
            .expect("an MFE has at least one stage")
            .conversion
            .binary()
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
            return Err(EmbedError::InputOutOfRange {
                value: x,
                bits: self.m(),
            });
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

    /// σ(x) through the polynomial reference path (slow; for cross-checks).
    ///
    /// # Errors
    /// [`EmbedError::InputOutOfRange`] if `x` is not a field element.
    pub fn sigma_reference(&self, x: u64) -> Result<Vec<u64>, EmbedError> {
        self.check_element(x)?;
        let mut out = vec![0u64; self.share_words()];
        sigma_at(&self.stages, x, &mut out, 0)?;
        Ok(out)
    }

    /// ρ(z) through the polynomial reference path (slow; for cross-checks).
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
    let coordinates = last
        .basic
        .sigma(last.conversion.to_composite_unchecked(x))?;
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
    Ok(last
        .conversion
        .to_binary_unchecked(last.basic.rho(&coordinates)?))
}
