//! MAESTRO (Morita, Pohle, Takahashi, Cong, Ogata, Hanaoka, Aly, Boneh — "MAESTRO: Multi-Party
//! AES Using Lookup Tables", USENIX Security 2025): three-party honest-majority AES on (2,3)
//! replicated secret sharing over GF(2^8).
//!
//! Implemented here (semi-honest, §2.3 "relaxations in the semi-honest model"):
//! - [`rss`]: replicated sharing and its local linear operations (§2.4, §2.6), including the
//!   [`crate::aes::AesByte`] implementation the plain AES linear layer runs on;
//! - [`prss`]: pseudo-random secret sharing after a one-time key setup — 𝓕_rand and 𝓕_zero
//!   without communication (§2.5, Fig. 1);
//! - [`online`]: input sharing, batched multiplication by resharing (§2.6), and opening to all or
//!   some parties;
//! - [`sbox`]: the S-box black-box trait [`SboxLayer`] every variant implements: SubBytes,
//!   InvSubBytes (inverse affine map, then the same inversion, or the inverse table for the
//!   LUT-256 variants) and the resharing of non-replicated outputs; the inversion-based variants
//!   implement only [`sbox::Gf256Inversion`] and get the layer from it. The variants and
//!   their lookup and power pieces are its sub-modules (`sbox::…` below);
//! - [`gf256_circuit`](sbox::gf256_circuit): the GF(2^8)-circuit S-box of \[21\] (Table 1: 5120 bits, 30 rounds per
//!   AES-128 block per party, without key schedule);
//! - [`gf16_rss`]: replicated sharing over GF(2^4), Φ/Φ⁻¹ on shares, and nibble-packed batched
//!   multiplication;
//! - [`gf16_circuit`](sbox::gf16_circuit): the GF(2^4)-circuit S-box (§5; Protocol 3 with v⁻¹ = v²·v⁴·v⁸; Table 1:
//!   3200 bits per block per party; 40 rounds, not the 30 printed in Table 1 — see its docs);
//! - [`one_hot16`](sbox::one_hot16): random one-hot vectors of length 16 (Appendix A, Protocol 8), bit-packed;
//! - [`lut16`](sbox::lut16): the LUT-16 S-box (Protocol 3 with Protocol 4's lookup; Table 1: 1760
//!   preprocessing bits in 2 rounds, 2560 online bits in 20 rounds per block per party);
//! - [`lut256`](sbox::lut256): the (2,3) LUT-256 S-box (Protocol 4 on replicated input with Protocol 5's
//!   length-256 one-hot vectors; Table 1: 39520 preprocessing bits, 1280 online bits in 10
//!   rounds per block per party; preprocessing in 7 rounds, not the 6 printed in Table 1);
//! - [`lut256_33`](sbox::lut256_33): the (3,3) ⟨⟨·⟩⟩-LUT-256 S-box (§3.5.1 Protocol 6 and its ⟦·⟧ ↦ ⟨⟨·⟩⟩ variant,
//!   composed as in §3.5.3 Protocol 7 without its verification; Table 1: 3520 preprocessing bits
//!   in 2 rounds, 2560 online bits per block per party, in 11 rounds — Table 1's 10 lookup
//!   rounds plus the output resharing of Protocol 7 step 8), on [`mixed_share`]'s replicated-or-
//!   additive state bytes and [`tensor_lookup`](sbox::tensor_lookup)'s constant-time lookup;
//! - [`aes`]: the AES driver written once over [`SboxLayer`]: key schedule in MPC (or round keys
//!   supplied as shares) and batched encryption and decryption (FIPS-197 §5.1, §5.3) of many
//!   blocks, decryption at exactly the cost of encryption;
//! - [`frobenius`](sbox::frobenius): x², x⁴, x¹⁶ as constant-time F2-linear bit matrices (local on shares);
//! - [`msg`]: the raw-byte wire format; [`error`]: typed errors;
//! - [`packed`]: contiguous (structure-of-arrays) GF(2^8) and nibble-packed GF(2^4) shares with
//!   bulk local arithmetic (SIMD products, SWAR linear maps), which the semi-honest S-box layers
//!   run on internally; with the `rayon` feature (native only) large batches are split over
//!   threads in one place (`par`), with results identical to the in-order computation.
//! - [`verify`]: malicious security pieces — coin tossing, the triple log with Table 2
//!   embeddings and Eq. (3)/(5)/(6), Protocols 1–2, hash-compare openings (§2.4, §2.7);
//! - [`malicious`]: every S-box above with malicious security with abort, verifying before any
//!   output is revealed; the (3,3) LUT-256 is §3.5.3 Protocol 7 (the online costs of the
//!   semi-honest layer, 2560 bits in 11 rounds per block, plus one verification); the (2,3)
//!   LUT-256, which the paper does not evaluate maliciously, checks Protocol 5's bit products
//!   (8 GF(2^64) triples per S-box) and keeps the semi-honest online cost.
//!
//! Communication is that of the paper's model (payload bytes per party, rounds as counted by
//! [`crate::net::NetStats`]); setup costs 32 bytes and one round per party.

pub mod aes;
mod bits;
pub mod error;
pub mod gf16_rss;
pub mod malicious;
pub mod mixed_share;
pub mod msg;
pub mod online;
pub mod packed;
mod par;
mod pool;
pub mod prss;
pub mod rss;
pub mod sbox;
pub mod verify;

pub use error::{MaestroError, Step};
pub use mixed_share::{AdditiveShare, MixedShare};
pub use online::Party;
pub use prss::Prss;
pub use rss::RssShare;
pub use sbox::gf16_circuit::Gf16CircuitSbox;
pub use sbox::gf256_circuit::Gf256CircuitSbox;
pub use sbox::lut16::Lut16Sbox;
pub use sbox::lut256::Lut256Sbox;
pub use sbox::lut256_33::AdditiveLut256Sbox;
pub use sbox::SboxLayer;

#[cfg(test)]
mod tests;
