//! Errors raised when building or applying an embedding (RMFE, MFE, concatenation, conversion).

use thiserror::Error;

use crate::field::FieldError;

/// What was wrong with requested embedding parameters or with an input to an embedding map.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EmbedError {
    /// A binary field could not be built (bad degree or reducible modulus).
    #[error("invalid binary field: {0}")]
    Field(#[from] FieldError),
    /// A dimension (k of an RMFE, m of an extension) is zero.
    #[error("{what} must be at least 1")]
    ZeroDimension {
        /// Which dimension was zero.
        what: &'static str,
    },
    /// Coral's RMFE (§3.3) evaluates at 0 and k−1 distinct non-zero points of F_q, so k ≤ q.
    #[error("a ({k}, m)_q-RMFE with Coral's maps needs k <= q, but q = 2^{base_bits} = {q}")]
    TooFewRmfePoints {
        /// The requested packing size.
        k: usize,
        /// Bits of the base field F_q.
        base_bits: u32,
        /// The size of the base field.
        q: u64,
    },
    /// An RMFE needs m ≥ 2k − 1 so that φ(x)·φ(y) needs no reduction (§2.2.3, Theorem 1).
    #[error("a (k = {k}, m = {m})-RMFE needs m >= 2k - 1")]
    RmfeDegreeTooSmall {
        /// The packing size.
        k: usize,
        /// The extension degree.
        m: usize,
    },
    /// The MFE of §2.2.3 (Theorem 2) evaluates at 2m − 2 distinct points of F_q, so 2m − 2 ≤ q.
    #[error("a (2m-1, m = {m})_q-MFE needs 2m - 2 <= q, but q = 2^{base_bits} = {q}")]
    TooFewMfePoints {
        /// The extension degree.
        m: usize,
        /// Bits of the base field F_q.
        base_bits: u32,
        /// The size of the base field.
        q: u64,
    },
    /// Evaluation points must be distinct elements of the base field (and non-zero for an RMFE).
    #[error("evaluation point {point:#x} is not allowed: {reason}")]
    BadEvaluationPoint {
        /// The rejected point.
        point: u64,
        /// Why it was rejected.
        reason: &'static str,
    },
    /// The packed representation of a vector or field element needs more than 64 bits.
    #[error("{what} needs {bits} bits, more than the 64 bits of a packed word")]
    TooWide {
        /// What was too wide.
        what: &'static str,
        /// The number of bits it would need.
        bits: usize,
    },
    /// An extension modulus must be monic of degree ≥ 1 with coefficients in the base field.
    #[error("extension modulus is malformed: {reason}")]
    MalformedModulus {
        /// What was wrong with it.
        reason: &'static str,
    },
    /// An extension modulus is reducible over its base field, so the quotient is not a field.
    #[error("the degree-{degree} extension modulus is reducible over GF(2^{base_bits})")]
    ReducibleModulus {
        /// The degree of the modulus.
        degree: usize,
        /// Bits of the base field.
        base_bits: u32,
    },
    /// Two fields that must be the same (a concatenation's inner output and outer base, an RMFE's
    /// output and an MFE's input) are different.
    #[error("field mismatch in {context}: expected GF(2^{expected_bits}) mod {expected_low:#x}, found GF(2^{found_bits}) mod {found_low:#x}")]
    FieldMismatch {
        /// Where the mismatch was found.
        context: &'static str,
        /// Degree of the expected field.
        expected_bits: u32,
        /// Low part of the expected modulus.
        expected_low: u64,
        /// Degree of the field found.
        found_bits: u32,
        /// Low part of the modulus found.
        found_low: u64,
    },
    /// The binary field chosen for a composite field has the wrong degree.
    #[error("composite field has {composite_bits} bits but the binary field has {binary_bits}")]
    DegreeMismatch {
        /// Bits of the composite field (base bits × extension degree).
        composite_bits: u32,
        /// Degree of the binary field.
        binary_bits: u32,
    },
    /// Root finding failed while building a composite ↔ binary conversion (cannot happen for an
    /// irreducible modulus of matching degree; reported rather than panicking).
    #[error("no root of the {what} found in the binary field")]
    NoRoot {
        /// Which polynomial had no root.
        what: &'static str,
    },
    /// The conversion matrix built from the chosen roots is not invertible (cannot happen when
    /// both moduli are irreducible; reported rather than panicking).
    #[error("the composite-to-binary conversion matrix is singular")]
    SingularConversion,
    /// An input value has bits set above the width of the map's domain.
    #[error("input {value:#x} has bits set above the {bits}-bit domain")]
    InputOutOfRange {
        /// The rejected value (or the offending word).
        value: u64,
        /// The width of the domain in bits.
        bits: usize,
    },
    /// A slice has the wrong length.
    #[error("{what} has length {found}, expected {expected}")]
    LengthMismatch {
        /// Which slice.
        what: &'static str,
        /// The required length.
        expected: usize,
        /// The length given.
        found: usize,
    },
    /// A parameter set has no RMFE or no MFE stage.
    #[error("a parameter set needs at least one {what} stage")]
    EmptyChain {
        /// "RMFE" or "MFE".
        what: &'static str,
    },
}
