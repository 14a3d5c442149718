//! Coral: RMFE-packed boolean circuits with malicious security against a dishonest majority
//! (paper: `shared/papers/coral-rmfe.txt`; sections and figures below are its own). I/O-free:
//! every step is an async function over [`crate::net::Network`].
//!
//! **Sharings** (§2.2.1, Fig. 4), in [`share`]: RMFE sharings `[[y]]` over F = GF(2^42) with
//! SPDZ MACs under a global key α ∈ F (MAC field GF(2^42); a forged opening passes the batched
//! check with probability ≤ 2^-41, the paper's "> 40 bits" for Table 1's Param. 1), packing
//! k = 14 lanes per element through the (14, 42)_2-RMFE of [`crate::embed`] (φ, ψ, τ = φ∘ψ);
//! TinyOT sharings `[[x]]_B` with pairwise MACs over GF(2^128) side by side.
//!
//! **Online** ([`online`], [`circuit`]): rInput with preprocessed masks, local XOR/NOT,
//! packed AND with quintuples `(a, b, φ(ψ(a)⊙ψ(b)), τ(a), τ(b))` (Fig. 8), SIMD constant
//! multiplication with encoding pairs (§4.3.2, Fig. 11), output through kernel-element masking
//! (§2.2.4), or to one party only through the recipient's input mask (rInput's material, §2.2.4,
//! Fig. 4 / App. A; the masked opening is checked with every other before anyone outputs, see
//! [`online`]). Any Bristol circuit runs packed over batches of instances (14 per pack, a last pack
//! may be partial). [`rconv`]: ΠrConv (§4.1, Fig. 6), the general boolean share conversion from
//! TinyOT sharings to RMFE sharings with its normality and consistency checks.
//!
//! **Checks** ([`checks`]): n-party commit-and-open coin toss and the batched MAC check (random
//! linear combination) of every partially opened value, run before any output is opened; every
//! detected deviation is a [`CoralError::CheckFailed`] naming the [`Check`], and the honest
//! parties return that error instead of outputs. Frames carry a step tag and sequence number
//! ([`messages`]): replayed or reordered frames are typed errors.
//!
//! **Preprocessing** ([`prep`]): the [`prep::Preprocessing`] trait with the **trusted-dealer**
//! provider ([`prep::dealer::TrustedDealer`], tBit, tTriple, rQuintuple, rEnc and input masks in
//! place of MFE-based input authentication) and the **OT-based provider**
//! ([`prep::ot::OtProvider`], for any n ≥ 2: TinyOT bits and triples from the OT engine —
//! two-party or [`crate::ot::multi`] — elements authenticated by pairwise COPE over GF(2^42) with
//! Π_Auth's check, checked encoding pairs, quintuples by Fig. 7 — no trusted party; see its module
//! docs for the security argument).
//!
//! **Parties and trust:** everything runs with any n ≥ 2 (the dealer caps n at
//! [`prep::dealer::MAX_PARTIES`]); the SPDZ-style online phase and the pairwise TinyOT MACs need
//! no new cryptography for n > 2. Security: malicious with abort against up to n − 1 corrupt
//! parties, relative to an honest dealer — or with the OT-based provider and no trusted party at
//! all. Π_rQuintuple (Fig. 7) runs on top of TinyOT triples ([`prep::quintuple`], fed by the
//! dealer's or the OT engine's tTriples). Not covered: VOLE-style (silent) OT extension
//! (§4.3.3). Mixed circuits (§4.3.1) are [`arith`] (Spdz2k), with [`convert`] between the two
//! sharings (packed daBits, rB2A, A2B with edaBits).
//!
//! **Invariants:** a wire's sharing y stands for ψ(y) ∈ F_2^14; only φ-images are normal; opened
//! values are uniform masks (d, e, x − r, and y + r for an output to one party) or kernel-masked
//! outputs; the MAC log is empty after every output.

pub mod arith;
pub mod checks;
pub mod circuit;
pub mod convert;
pub mod error;
pub mod messages;
pub mod online;
pub mod prep;
pub mod rconv;
pub mod share;

#[cfg(test)]
mod tests;

pub use circuit::{
    demand as circuit_demand, demand_revealed as circuit_demand_revealed, evaluate as evaluate_circuit,
    evaluate_revealed as evaluate_circuit_revealed, packs, RevealedOutputs, MAX_BATCH,
};
pub use error::{Check, CoralError};
pub use online::{InputRequest, Lanes, Party, ALL_LANES};
pub use prep::dealer::{DealtMaterial, TrustedDealer};
pub use prep::ot::OtProvider;
pub use prep::{CoralMaterial, Demand, Preprocessing};
pub use share::{CoralParams, RShare, TinyBit, FIELD_BITS, LANES};
