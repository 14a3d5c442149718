//! Binary fields GF(2^k) and the helpers every protocol builds on.
//!
//! Each field is a `Copy` newtype over its bit representation and implements [`Field`]; addition is
//! XOR. Fast paths (PCLMULQDQ natively, nibble tables, SIMD) are chosen in one place per field and
//! cross-checked against the portable path in tests.

mod gf256;
mod traits;

pub use gf256::Gf256;
pub use traits::Field;
