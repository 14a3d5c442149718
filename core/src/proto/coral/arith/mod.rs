//! The arithmetic half of Coral's mixed circuits (Coral paper §4.3.1; §2.2.1 with S = Z_{2^ℓ}):
//! Spdz2k (Cramer–Damgård–Escudero–Scholl–Xing, CRYPTO 2018) — additive shares of values of
//! Z_{2^k} (k = 32 or 64) held modulo 2^(k+s) with MACs under a key α ∈ Z_{2^s}, s = 48.
//!
//! - [`ring`]: Z_{2^(k+s)} as wrapping `u128`, the wire encoding, the parameter s.
//! - [`share`]: sharings and their local linear operations.
//! - [`online`]: input, Beaver multiplication, output with masked upper bits.
//! - [`checks`]: Spdz2k's batched MAC check, run before and after any output is opened.
//! - [`prep`]: the material (triples, input and output masks) and its labelled trusted dealer.
//! - [`ot`]: the OT-based provider for n ≥ 2 parties (COPE over the ring between every pair,
//!   triples by OT multiplication, combination and sacrifice) — no trusted party.
//! - [`bits`]: checked random bits (every party's random bit, XORed arithmetically).
//! - [`probe`]: a shared value's msb, zero test and right shift from one masked opening.
//! - [`compare`]: comparisons, equality, boolean gates and shifts by public amounts.
//! - [`decompose`]: every bit of a shared value (bit decomposition), lockstep scans and product
//!   trees.
//! - [`bitlevel`]: bitwise gates of full values, shifts by shared amounts, division by shared
//!   divisors and powers, on those bits.
//! - [`plan`]: how a mixed circuit runs — gates sorted by kind into layers, the material one
//!   instance takes.
//! - [`circuit`]: mixed circuits on many instances in lockstep.
//!
//! **Trust model:** malicious security with abort against n − 1 of n ≥ 2 parties, relative to
//! honest material — from the OT-based provider (no trusted party), or from the labelled dealer. Every detected deviation is [`super::CoralError::CheckFailed`] naming
//! [`super::Check::ArithMac`] (or the commitment it broke) and the honest parties reveal no
//! output. Frames carry Coral's step tags and sequence numbers ([`super::messages`]).
//!
//! **Invariants:** every opened value is uniform modulo 2^(k+s) (Beaver differences and input
//! differences are masked by uniform material; outputs by 2^k·r) or an output modulo 2^k;
//! shares are never reduced below 2^(k+s); the MAC log is empty after every output.
//!
//! **Conversions** to and from the paper's RMFE-packed boolean sharings (daBits, rB2A, A2B with
//! edaBits; Fig. 9, 10, 19, 20) are [`super::convert`]. The gates of mixed circuits that need all
//! of a value's bits run on bit decompositions ([`bitlevel`]): through those conversions where
//! that takes fewer Spdz2k triples ([`circuit::evaluate_converting`], chosen by
//! [`plan::Plan::converts`]), within the arithmetic shares otherwise — the same functionality and
//! security. Comparisons probe a value from one masked opening ([`probe`]).

pub mod bitlevel;
pub mod bits;
pub mod checks;
pub mod circuit;
pub mod compare;
pub mod decompose;
pub mod online;
pub mod ot;
pub mod plan;
pub mod prep;
pub mod probe;
pub mod ring;
pub mod share;

#[cfg(test)]
pub(crate) mod tests;

pub use online::ArithParty;
pub use ot::ArithOtProvider;
pub use prep::{ArithDealer, ArithDemand, ArithMaterial};
pub use ring::ArithRing;
pub use share::AShare;
