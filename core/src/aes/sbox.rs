//! The AES S-box as inversion in GF(2^8) followed by an affine map (FIPS-197 §5.1.1), and its
//! inverse (§5.3.2).
//!
//! The affine map is split into its F2-linear part [`affine_linear`] and the constant
//! [`AFFINE_CONSTANT`]: on additive shares x = x₁ + x₂ + …, the linear part applies share-wise and
//! exactly one party adds the constant. Everything here is constant time (no tables indexed by the
//! argument).

use crate::field::{Field, Gf256};

/// The constant {63} of the S-box affine map.
pub const AFFINE_CONSTANT: u8 = 0x63;

/// The constant {05} of the inverse affine map.
pub const INV_AFFINE_CONSTANT: u8 = 0x05;

/// The F2-linear part of the affine map: b ⊕ rotl(b,1) ⊕ rotl(b,2) ⊕ rotl(b,3) ⊕ rotl(b,4).
#[inline]
pub const fn affine_linear(b: u8) -> u8 {
    b ^ b.rotate_left(1) ^ b.rotate_left(2) ^ b.rotate_left(3) ^ b.rotate_left(4)
}

/// The F2-linear part of the inverse affine map: rotl(b,1) ⊕ rotl(b,3) ⊕ rotl(b,6).
#[inline]
pub const fn inv_affine_linear(b: u8) -> u8 {
    b.rotate_left(1) ^ b.rotate_left(3) ^ b.rotate_left(6)
}

/// SubBytes on one byte: affine(x^-1) with 0 ↦ 0 before the affine map.
#[inline]
pub fn sbox(x: Gf256) -> Gf256 {
    Gf256(affine_linear(x.inverse().0) ^ AFFINE_CONSTANT)
}

/// InvSubBytes on one byte: (inverse affine(x))^-1.
#[inline]
pub fn inv_sbox(x: Gf256) -> Gf256 {
    Gf256(inv_affine_linear(x.0) ^ INV_AFFINE_CONSTANT).inverse()
}

/// The full S-box as a table, for protocols whose preprocessing needs it (e.g. lookup-table
/// protocols build masked tables from it) and for tests. Computed, not transcribed.
pub fn sbox_table() -> [u8; 256] {
    core::array::from_fn(|i| sbox(Gf256(i as u8)).0)
}

/// The full inverse S-box as a table (see [`sbox_table`]).
pub fn inv_sbox_table() -> [u8; 256] {
    core::array::from_fn(|i| inv_sbox(Gf256(i as u8)).0)
}
