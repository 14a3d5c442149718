//! Errors of the Reed-Solomon layer.

use thiserror::Error;

/// What went wrong when building, encoding with or checking a Reed-Solomon code.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CodeError {
    /// A vector had the wrong number of symbols.
    #[error("{what} has {actual} symbols, expected {expected}")]
    WrongLength {
        /// Which argument was wrong (e.g. "message", "codeword").
        what: &'static str,
        /// The length the code requires.
        expected: usize,
        /// The length that was given.
        actual: usize,
    },
    /// The vector is not a codeword: `position` is the first redundancy position whose symbol
    /// disagrees with the re-encoding of the systematic (first k) positions.
    #[error("not a codeword: first disagreeing position is {position}")]
    NotACodeword {
        /// Index of the first failing symbol.
        position: usize,
    },
    /// A bit-vector entry was neither 0 nor 1.
    #[error("entry {position} of a bit vector is {value:#04x}, expected 0 or 1")]
    NotABit {
        /// Index of the offending entry.
        position: usize,
        /// Its value.
        value: u8,
    },
    /// The parameters do not define a Reed-Solomon code over GF(2^8).
    #[error("invalid Reed-Solomon parameters: {reason}")]
    InvalidParameters {
        /// Why the parameters were rejected.
        reason: &'static str,
    },
    /// The requested encoder does not exist for this code (the FFT covers only the (255, 85) code).
    #[error("the {encoder} encoder is not available for the ({n}, {k}) code")]
    EncoderUnavailable {
        /// Name of the requested encoder.
        encoder: &'static str,
        /// Length of the code.
        n: usize,
        /// Dimension of the code.
        k: usize,
    },
}
