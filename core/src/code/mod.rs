//! Systematic Reed-Solomon codes over GF(2^8) and their Schur squares, as MiniMac uses them
//! (the MiniMac implementation paper, `shared/papers/minimac-implementation.txt`, which also
//! introduces the "MiniTrix" improvements: §2.1, §4.2, §4.3, §4.5).
//!
//! A MiniMac value is a k-vector over GF(2^8) held as (shares of) a codeword `C(x)` of a systematic
//! code `C`; products land in the Schur square `C* = span{c1 ∗ c2}` (§2). This module provides:
//!
//! - [`ReedSolomon`]: a systematic code (first `k` positions are the message) given by evaluation
//!   points, with the generator matrix `E = V_{n×k} V_{k×k}^{-1}` of §2.1; encoding, decoding,
//!   membership (typed [`CodeError::NotACodeword`] naming the first failing position) and
//!   [`ReedSolomon::schur_square`] (same points, dimension `2k - 1`, so `C*` is exactly the code of
//!   products and is systematic in its first `2k - 1` positions; its first `k` positions hold the
//!   product of the two messages, which is what §4.3's `C*^{-1}` extracts);
//! - [`ReedSolomon::rs256_120`]: the (256, 120) code of §2.1 (point of position `j` is `Gf256(j)`);
//! - [`ReedSolomon::rs255_85`]: the (255, 85) code of §4.2 over GF(2^8)^*, encodable both by the
//!   matrix and by a prime-factor FFT (module `fft255`), selected by [`Encoder`];
//! - [`schur_product`] and [`ReedSolomon::multiply_by_public`]: the coordinate-wise product, e.g.
//!   `C(u) ∗ C(x) ∈ C*` for a public `u`;
//! - [`ReedSolomon::encode_bits`] / [`ReedSolomon::encode_bit_plane`]: the XOR-of-rows encoding of
//!   0/1 vectors of §4.5 (constant time);
//! - [`ReedSolomon::encode_public_planes`] / [`ReedSolomon::encode_public_into`]: all eight bit
//!   planes of a *public* message at once by four-row subset tables (variable time, for opened
//!   values only), as MiniMac's bit-packing multiplication needs them (§4.3 steps 3–4).
//!
//! # Distances and the MAC bound
//!
//! | code       | d(C) = n-k+1 | C* dimension | d(C*) = n-2k+2 | forging `[[x]]` | forging `[[x]]*` |
//! |------------|--------------|--------------|----------------|-----------------|------------------|
//! | (256, 120) | 137          | 239          | 18             | 2^-1096         | 2^-144           |
//! | (255, 85)  | 171          | 169          | 87             | 2^-1368         | 2^-696           |
//!
//! §2.1: a party that opens a wrong share must move to another codeword, changing at least `d`
//! positions, and then guess the MAC key `α` in each of them: success probability `256^{-d}`
//! ([`ReedSolomon::mac_forgery_bits`] gives `8·d`). The binding constraint is `C*`; the paper asks
//! `d* ≥ 16` for 128-bit security, which (256, 120) meets with `d* = 18`.
//!
//! Why the distances hold (checked in the tests): a nonzero codeword is the evaluation of a nonzero
//! polynomial of degree `< k` at `n` distinct points, so it has at most `k - 1` zeros and weight
//! `≥ n - k + 1`; the tests check that every code here is exactly such an evaluation code (random
//! polynomials of degree `< k`, evaluated directly by Horner's rule, are accepted and re-encode to
//! themselves from their first `k` symbols; both spaces have dimension `k`, so they coincide; a
//! polynomial of degree `k` is rejected), that random nonzero messages reach weight `≥ d`, and
//! that the polynomial
//! `Π_{l ∈ S} (X - v_l)` for a chosen set `S` of `k - 1` points gives a codeword of weight exactly
//! `d`, so the bound is tight. The same argument with degree `≤ 2k - 2` gives `d(C*)`.
//!
//! # Speed
//!
//! `cargo bench -p chorus-core --bench code` measures every encoder and membership check, with
//! `--features force-portable` for the code path wasm32 takes; the figures are in
//! `docs/performance.md`. The (255, 85) FFT needs a third of the products of the matrix encoder
//! (4824 against 14450) and is the faster one on both paths.

mod bit_encode;
mod dft;
mod encoder;
mod error;
mod fft255;
mod matrix;
mod reed_solomon;
#[cfg(test)]
mod tests;

pub(crate) use bit_encode::transpose8;
pub use encoder::Encoder;
pub use error::CodeError;
pub use fft255::{group_point, OMEGA};
pub use reed_solomon::ReedSolomon;

use crate::field::Gf256;

/// The coordinate-wise (Schur) product `a ∗ b` of two words of equal length; for `a ∈ C` and
/// `b = C(u)` it is the codeword of `u ∗ x` in `C*` (§2, multiplication by a public vector).
pub fn schur_product(a: &[Gf256], b: &[Gf256]) -> Result<Vec<Gf256>, CodeError> {
    if a.len() != b.len() {
        return Err(CodeError::WrongLength { what: "second factor", expected: a.len(), actual: b.len() });
    }
    let mut out = vec![Gf256(0); a.len()];
    Gf256::mul_slices(&mut out, a, b);
    Ok(out)
}
