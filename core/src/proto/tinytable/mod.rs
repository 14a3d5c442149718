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
//!   provider [`TrustedDealer`] behind the [`Preprocessing`] trait; [`mod@slice`]: the same material
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
//! - [`linear_mac`]: the §3 linear MAC scheme (k = 64 and k = 32, tags as unreduced carry-less
//!   products in GF(2^{2k−1})) with subset-sum openings; [`batch_open`]: the §3.3 batched opening
//!   `H = ⊕ F(d_i)` with fixed-key AES.
//! - [`sbox_prep`]: authenticated S-box table material ([`MaliciousAesPrep`]) and its trusted-dealer
//!   provider; [`sbox_malicious`]: the malicious S-box AES online phase (10 lookup rounds, batched
//!   MAC check, output opening only after it).
//! - [`sbox_construct`]: the §4 two-party construction of that material from authenticated bits and
//!   triples (7 multiplications per entry), behind [`sbox_construct::AuthBitSource`].
//!
//! **Trust models:** [`TrustedDealer`] knows all masks; it must be honest and must not collude
//! with either party. [`fig8_binary`] / [`fig8_malicious`] and [`sbox_construct`] need no third
//! party but consume authenticated bits and triples from a [`TinyOtSource`] /
//! [`sbox_construct::AuthBitSource`]: [`OtTinyOt`] makes them over OT between the two parties
//! (nobody else trusted; what the jobs in [`crate::jobs::tinytable`] use by default), while
//! [`IdealTinyOt`] and [`sbox_construct::IdealAuthBits`] are *ideal functionalities* for tests, in
//! which both handles expand one shared seed — not secure on their own.
//!
//! Not implemented: the §6 asymptotic solution. The passive protocols ([`online`],
//! [`aes_tables`]) detect no deviating peer; the malicious ones abort with
//! [`TinyTableError::MacCheckFailed`] (binary) or [`TinyTableError::AuthenticationFailed`]
//! (S-box). Malformed (wrong-length) messages give typed errors ([`TinyTableError`]), never
//! panics.

#[cfg(target_arch = "x86_64")]
mod aes_ni;
pub mod aes_tables;
pub mod batch_open;
mod engine;
pub mod error;
pub mod fig8;
mod lanes;
pub mod linear_mac;
pub mod mac;
pub mod malicious;
pub mod malicious_prep;
mod msg;
pub mod online;
mod opened_macs;
mod prefetch;
pub mod prep;
pub mod sbox_construct;
pub mod sbox_malicious;
pub mod sbox_prep;
mod sbox_round;
pub mod slice;
pub mod tinyot;

#[cfg(test)]
mod sbox_construct_tests;
#[cfg(test)]
mod sbox_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_fig8;
#[cfg(test)]
pub(crate) mod tests_malicious;

pub use error::{MacCheck, Step, TinyTableError};
pub use fig8::{fig8_binary, fig8_malicious};
pub use mac::MacWord;
pub use malicious::evaluate_malicious;
pub use malicious_prep::MaliciousPrep;
pub use online::prepare_circuit;
pub use prep::{BinaryPrep, IoSpec, Preprocessing, Reveal, TrustedDealer};
pub use sbox_prep::MaliciousAesPrep;
pub use slice::SlicedPrep;
pub use tinyot::{Auth, IdealTinyOt, OtAuthBitPool, OtTinyOt, TinyOtSource};
