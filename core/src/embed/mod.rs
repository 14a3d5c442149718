//! Reverse multiplication-friendly embeddings (RMFE) and multiplication-friendly embeddings (MFE)
//! as Coral uses them (`shared/papers/coral-rmfe.txt`).
//!
//! What is implemented, and where it comes from:
//! - [`BasicRmfe`]: the (k, m)_q-RMFE of §2.2.3 (Definition 1, Theorem 1) with Coral's fixed maps
//!   of §3.3 — α = Y, evaluation at 0 (the constant coefficient f_0) and k − 1 distinct non-zero
//!   β_i, so that φ(1) = 1 and ψ(φ(x)) = x; needs k ≤ q and m ≥ 2k − 1 (both the (k, 2k−1) and
//!   (k, 2k) instances).
//! - [`BasicMfe`]: the (2m − 1, m)_q-MFE of §2.2.3 (Definition 2, Theorem 2) with σ = ν1 and
//!   ρ = ν2 ∘ μ2^{-1} (§3.3); needs 2m − 2 ≤ q.
//! - [`CompositeField`] and [`FieldIsomorphism`]: composite fields F_{(2^r)^d} and the conversion
//!   matrices θ to and from the binary field F_{2^(rd)} of §3.2, built once from the chosen
//!   polynomials.
//! - [`Rmfe`] and [`Mfe`]: concatenations (§2.2.3 "Concatenation") over F_2 in which every stage's
//!   composite field is converted to a binary field that is exactly the next stage's base field,
//!   so that the RMFE output and the MFE input live in the same F_{2^m} (§3.1, Figure 2). They
//!   expose φ, ψ, τ = φ ∘ ψ (RMFE) and σ, ρ (MFE), on single elements and on batches.
//! - [`ParamSet`]: Coral's Table 1 sets as values — [`CORAL_SET_1`] ((14, 42)_2-RMFE =
//!   (2, 3)_2 ∘ (7, 14)_8 with (195, 42)_2-MFE = (3, 2)_2 ∘ (5, 3)_4 ∘ (13, 7)_64),
//!   [`CORAL_SET_2`] ((12, 48)_2 with (225, 48)_2) and [`CORAL_SET_3`] ((16, 48)_2 with
//!   (225, 48)_2) — plus Figure 2's toy example [`FIGURE_2_EXAMPLE`].
//!
//! Speed (§3.4): Coral reaches millions of operations per second with lookup tables, precomputed
//! small-field arithmetic and caching. Here every map is F2-linear on at most a few hundred bits,
//! so it is evaluated once per unit vector through the polynomial reference path (kept as
//! `*_reference` methods and cross-checked in tests) and compiled into a [`LinearMap`]. Evaluation
//! is constant time by default (masked XOR of columns); byte-indexed tables ("four Russians") are
//! faster but index memory with secret bytes, so they are opt-in through [`Evaluation::ByteTable`].
//!
//! Not covered: RMFE instances with other point sets than Coral's (the `with_points`
//! constructors accept any valid set, but parameter sets always use `0, 1, …`), and the
//! hash-based cache of §3.4, which the compiled maps make unnecessary.
//!
//! Polynomials and bit orders are documented in [`ParamSet`]'s module and in [`Rmfe`] / [`Mfe`].

mod composite;
mod concat;
mod conversion;
mod error;
mod linear_map;
mod mfe;
mod params;
mod poly;
mod rmfe;
#[cfg(test)]
mod tests;

pub use composite::CompositeField;
pub use concat::{Mfe, Rmfe};
pub use conversion::FieldIsomorphism;
pub use error::EmbedError;
pub use linear_map::{Evaluation, LinearMap};
pub use mfe::BasicMfe;
pub use params::{
    CoralEmbedding, MfeStageSpec, ParamSet, RmfeStageSpec, CORAL_SETS, CORAL_SET_1, CORAL_SET_2, CORAL_SET_3,
    FIGURE_2_EXAMPLE, GF2_42_MODULUS_LOW, GF2_48_MODULUS_LOW,
};
pub use rmfe::BasicRmfe;
