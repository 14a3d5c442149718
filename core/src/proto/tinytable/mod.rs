//! TinyTable: two-party secure computation with scrambled truth tables (Damgård, Nielsen,
//! Nielsen, Ranellucci, Toft, "The TinyTable protocol for 2-Party Secure Computation, or:
//! Gate-scrambling Revisited", CRYPTO 2017; `/work/shared/papers/tinytable.txt`).
//!
//! Every wire carries a masked value `e_w = x_w ⊕ r_w` known to both parties; a non-linear gate is
//! a table, XOR-shared between the parties and indexed by masked inputs, whose entries are masked
//! outputs. The online phase is one table lookup and one exchanged entry per gate and direction.
//!
//! Implemented:
//! - [`prep`]: the passive material ([`BinaryPrep`], Fig. 6 = Fig. 1 with free XOR) and its
//!   provider [`TrustedDealer`] behind the [`Preprocessing`] trait; [`slice`]: the same material
//!   for a whole batch in a bit-sliced layout ([`SlicedPrep`], 64 instances per word).
//! - [`online`]: the passive online phase for any [`crate::circuit::Circuit`] (Fig. 7 = Fig. 2
//!   with free XOR, §2.1; NOT gates local, §2.2), inputs from either party, outputs to chosen
//!   parties, batches sharing one message per AND layer, evaluated bit-sliced by one engine
//!   (`engine`) that the malicious protocol shares.
//! - [`malicious`], [`malicious_prep`], [`mac`]: malicious security for any binary circuit (Fig. 3
//!   and Fig. 5 with free XOR): every table entry committed bit by bit with `k`-bit lookup MACs
//!   (k = 64 or 32, [`MacWord`]), the strings of all opened bits accumulated into one MAC per
//!   direction and checked before any output is revealed; output masks opened only after the
//!   check. Material from [`TrustedDealer::malicious_batch`] or from Fig. 8.
//! - [`fig8`], [`tinyot`]: the two-party preprocessing of Fig. 8 (§4), run as real message passing,
//!   producing both [`BinaryPrep`] and [`MaliciousPrep`] from TinyOT-format authenticated bits and
//!   AND triples supplied by a [`TinyOtSource`].
//! - [`aes_tables`]: AES-128 with 256-entry S-box tables of bytes (§2.3, §5 "optimized version"):
//!   10 lookup rounds per block, all linear layers local (semi-honest).
//!
//! **Trust models:** [`TrustedDealer`] knows all masks; it must be honest and must not collude
//! with either party (tests, demos). [`fig8_binary`] / [`fig8_malicious`] need no third party but
//! consume a [`TinyOtSource`]; the only implementation here is [`IdealTinyOt`], an *ideal
//! functionality* in which both handles expand one shared seed — it stands in for an OT-based
//! TinyOT and is not secure on its own.
//!
//! Not implemented: the linear MAC scheme of §3.2 and the batched check of §3.3 (another branch),
//! an OT-based [`TinyOtSource`], and the §6 asymptotic solution. Malformed (wrong-length) messages
//! give typed errors ([`TinyTableError`]), never panics.

pub mod aes_tables;
mod engine;
pub mod error;
pub mod fig8;
pub mod mac;
pub mod malicious;
pub mod malicious_prep;
mod msg;
pub mod online;
pub mod prep;
pub mod slice;
pub mod tinyot;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_fig8;
#[cfg(test)]
mod tests_malicious;

pub use error::{MacCheck, Step, TinyTableError};
pub use fig8::{fig8_binary, fig8_malicious};
pub use mac::MacWord;
pub use malicious::evaluate_malicious;
pub use malicious_prep::MaliciousPrep;
pub use prep::{BinaryPrep, IoSpec, Preprocessing, Reveal, TrustedDealer};
pub use slice::SlicedPrep;
pub use tinyot::{Auth, IdealTinyOt, TinyOtSource};
