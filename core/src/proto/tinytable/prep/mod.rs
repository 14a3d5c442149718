//! Providers of TinyTable's preprocessed material.
//!
//! - [`dealer`], [`dealer_malicious`], [`dealer_sbox`]: the [`TrustedDealer`] — a third party
//!   that knows every mask and key (labelled trust model in each module; for tests, benchmarks and
//!   the `dealer` option of the jobs).
//! - [`fig8`]: the paper's two-party preprocessing (Fig. 8, §4), turning TinyOT-format
//!   authenticated bits and AND triples into [`crate::proto::tinytable::BinaryPrep`] and
//!   [`crate::proto::tinytable::MaliciousPrep`] by real message passing.
//! - [`tinyot`]: the sources of those bits and triples — over oblivious transfer between the two
//!   parties ([`OtTinyOt`], [`OtAuthBitPool`], nobody else trusted) or the ideal functionality
//!   ([`IdealTinyOt`], tests only).

pub mod dealer;
pub mod dealer_malicious;
pub mod dealer_sbox;
pub mod fig8;
pub mod tinyot;

#[cfg(test)]
mod tests_fig8;

pub use dealer::TrustedDealer;
pub use tinyot::{IdealTinyOt, OtAuthBitPool, OtTinyOt};
