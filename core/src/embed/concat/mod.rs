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

mod mfe_chain;
mod rmfe_chain;

pub use mfe_chain::Mfe;
pub use rmfe_chain::Rmfe;

use crate::field::BinaryField;

use super::composite::CompositeField;
use super::error::EmbedError;
use super::linear_map::low_mask;

pub(super) fn field_mismatch(
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

pub(super) fn check_first_stage(extension: &CompositeField, what: &'static str) -> Result<(), EmbedError> {
    let two = gf2();
    if *extension.base() != two {
        return Err(field_mismatch(what, &two, extension.base()));
    }
    Ok(())
}

/// Checks that every word of a batch fits in `bits` bits, scanning all of them without branching.
pub(super) fn check_batch_words(words: &[u64], bits: usize) -> Result<(), EmbedError> {
    let high = words.iter().fold(0, |acc, &w| acc | (w & !low_mask(bits)));
    if high != 0 {
        let value = words.iter().copied().find(|&w| w & !low_mask(bits) != 0).unwrap_or(high);
        return Err(EmbedError::InputOutOfRange { value, bits });
    }
    Ok(())
}

pub(super) fn check_lengths(what: &'static str, expected: usize, found: usize) -> Result<(), EmbedError> {
    if expected != found {
        return Err(EmbedError::LengthMismatch { what, expected, found });
    }
    Ok(())
}
