//! Binary fields GF(2^k) and the helpers every protocol builds on.
//!
//! Each field is a `Copy` newtype over its bit representation and implements [`Field`]; addition is
//! XOR. Fast paths (PCLMULQDQ for the carry-less products in [`clmul`], SIMD nibble tables for
//! GF(2^8) slices in `gf256_bulk`) are chosen in one place each and cross-checked against the
//! portable path in tests; the `force-portable` feature disables them.
//!
//! - [`Gf16`], [`Gf256`]: the AES-related small fields (MAESTRO §2.1), with bulk slice operations;
//! - [`Gf16Squared`]: the tower GF((2^4)^2) with the isomorphism Φ to GF(2^8);
//! - [`Gf64`], [`Gf128`]: the large fields for multiplication checks, with lazy-reduction inner
//!   products; [`embedding`] maps GF(2^4) and GF(2^8) into GF(2^64) (MAESTRO Table 2);
//! - [`BinaryField`], [`Gf2m`]: any GF(2^m) with `m <= 64` (RMFE / embedding targets);
//! - [`BitVec`]: packed vectors over GF(2).

#[cfg(test)]
mod axioms;
mod bitvec;
pub mod clmul;
pub mod embedding;
mod error;
mod gf128;
mod gf16;
mod gf256;
mod gf256_bulk;
mod gf2m;
mod gf64;
#[cfg(target_arch = "x86_64")]
pub(crate) mod gf64x2;
mod ops;
mod tower;
mod traits;

pub use bitvec::{BitVec, LengthMismatch};
pub use error::FieldError;
pub use gf128::Gf128;
pub use gf16::Gf16;
pub use gf256::Gf256;
pub use gf256_bulk::Gf256Backend;
pub use gf2m::{BinaryField, Gf2m};
pub use gf64::Gf64;
pub use tower::Gf16Squared;
pub use traits::Field;
