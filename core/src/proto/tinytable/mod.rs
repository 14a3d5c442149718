//! TinyTable: two-party secure computation with scrambled truth tables (Damgård, Nielsen,
//! Nielsen, Ranellucci, Toft, "The TinyTable protocol for 2-Party Secure Computation, or:
//! Gate-scrambling Revisited", CRYPTO 2017; `/work/shared/papers/tinytable.txt`).
//!
//! Every wire carries a masked value `e_w = x_w ⊕ r_w` known to both parties; a non-linear gate is
//! a table, XOR-shared between the parties and indexed by masked inputs, whose entries are masked
//! outputs. The online phase is one table lookup and one exchanged entry per gate and direction.
//!
//! Implemented (semi-honest security):
//! - [`prep`]: the material the online phase consumes ([`BinaryPrep`], Fig. 6 = Fig. 1 with free
//!   XOR) and its provider [`TrustedDealer`] behind the [`Preprocessing`] trait.
//! - [`online`]: the online phase for any [`crate::circuit::Circuit`] (Fig. 7 = Fig. 2 with free
//!   XOR, §2.1; NOT gates local, §2.2), inputs from either party, outputs to chosen parties,
//!   batches of instances sharing one message per AND layer.
//! - [`aes_tables`]: AES-128 with 256-entry S-box tables of bytes (§2.3, §5 "optimized version"):
//!   10 lookup rounds per block, all linear layers local.
//!
//! **Trust model:** the only preprocessing provider is a *trusted dealer* ([`TrustedDealer`]) that
//! knows all masks; it must be honest and must not collude with either party. The paper's
//! two-party preprocessing (Fig. 8, from TinyOT and OT) is not implemented.
//!
//! Not implemented: malicious security (§3: MACs on table entries, Fig. 3/5, the linear MAC scheme
//! of §3.2 and the batched check of §3.3) — the protocols here are secure against semi-honest
//! parties only and do not detect a deviating peer; malformed (wrong-length) messages give typed
//! errors ([`TinyTableError`]), never panics.

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
