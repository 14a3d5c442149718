//! Multi-party TinyOT: any boolean circuit among n ≥ 2 parties (up to
//! [`crate::ot::multi::MAX_PARTIES`]), malicious security with abort against up to n − 1
//! colluding parties, no trusted party — one instance as cheaply as many.
//!
//! Why it is here: MiniMac and Coral are SIMD protocols whose material comes in units of a whole
//! codeword or RMFE pack, so one instance among three parties costs what hundreds or fourteen
//! cost. This protocol evaluates gate by gate on the n-party authenticated bits and AND triples
//! that the OT layer already makes for them ([`crate::ot::multi`], WRK17 §3–§4 for n ≥ 3; the
//! two-party engine for n = 2), so one instance costs one triple per AND gate.
//!
//! - [`prep`]: the material ([`Material`]: a triple per AND gate and instance, a mask per input
//!   wire and instance) and [`OtProvider`], which makes it over OT among the parties.
//! - [`online`]: the online phase ([`evaluate`]): Beaver multiplication on pairwise-MAC shares
//!   (the online phase of the n-party TinyOT of Frederiksen–Keller–Orsini–Scholl, Asiacrypt 2015),
//!   one round per AND layer, every opened share's MAC checked with one digest per peer before
//!   any output opens; rounds, bytes and the security argument are in its docs.
//! - [`error`]: [`TinyOtError`] and the [`Check`]s it names.
//! - `msg`: framing and bit packing.
//!
//! **Trust model:** the parties only; security with abort (an honest party aborts with a typed
//! error naming the failed check, here or as a peer's verdict, and no output opens to a party
//! unless every peer's checks passed). Statistical security 40 bits from the triples'
//! bucketing; the MAC checks 2^-128 per opened share.

pub mod error;
mod msg;
pub mod online;
pub mod prep;
#[cfg(test)]
mod tests;

pub use error::{Check, TinyOtError};
pub use online::{evaluate, MAX_INSTANCES};
pub use prep::{Demand, Material, OtProvider};
