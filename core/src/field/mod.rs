//! Binary fields GF(2^k) and the helpers every protocol builds on.
//!
//! Each field is a `Copy` newtype over its bit representation and implements [`Field`]; addition is
//! XOR. Fast paths (PCLMULQDQ natively, nibble tables, SIMD) are chosen in one place per field and
//! cross-checked against the portable path in tests.

pub mod clmul;
mod error;
mod gf256;
mod gf2m;
mod traits;

pub use error::FieldError;
pub use gf256::Gf256;
pub use gf2m::{BinaryField, Gf2m};
pub use traits::Field;
