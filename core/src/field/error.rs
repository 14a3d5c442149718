//! Errors for field construction and for parsing field elements from external data.

use thiserror::Error;

/// What was wrong with a requested field or element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum FieldError {
    /// The extension degree `m` of GF(2^m) must satisfy `1 <= m <= 64`.
    #[error("extension degree m = {m} is out of range (1..=64)")]
    DegreeOutOfRange {
        /// The rejected degree.
        m: u32,
    },
    /// The low part of the modulus has a bit at position `>= m`, so `x^m + modulus_low` is not a
    /// polynomial of degree `m`.
    #[error("modulus_low = {modulus_low:#x} has a bit at or above position m = {m}")]
    ModulusTooWide {
        /// The degree.
        m: u32,
        /// The rejected low part of the modulus.
        modulus_low: u64,
    },
    /// `x^m + modulus_low` is reducible over GF(2), so the quotient ring is not a field.
    #[error("x^{m} + {modulus_low:#x} is reducible over GF(2)")]
    Reducible {
        /// The degree.
        m: u32,
        /// The low part of the rejected modulus.
        modulus_low: u64,
    },
    /// An element's bit representation does not fit in the field's `m` bits.
    #[error("value {value:#x} does not fit in GF(2^{m})")]
    ElementOutOfRange {
        /// The degree of the field.
        m: u32,
        /// The rejected value.
        value: u64,
    },
}
