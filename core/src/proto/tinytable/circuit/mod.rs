//! The binary-circuit protocol of TinyTable for any [`crate::circuit::Circuit`]: the material of
//! one party ([`prep::BinaryPrep`], Fig. 6; [`slice::SlicedPrep`] for a bit-sliced batch;
//! [`malicious_prep::MaliciousPrep`], Fig. 3), the passive online phase ([`online`], Fig. 7) and
//! the malicious one ([`malicious`], Fig. 5), both evaluated by one engine (`engine`: one message
//! per AND layer for the whole batch, 64 instances per word).
//!
//! Providers of the material are in [`super::prep`]; this folder only consumes it.

mod engine;
pub(crate) mod join;
pub mod malicious;
pub mod malicious_prep;
pub mod online;
pub(crate) mod opened_macs;
pub mod prep;
pub mod slice;
mod split;

#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) mod tests_malicious;
