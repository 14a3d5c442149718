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
//! Implemented (malicious security, S-box tables):
//! - [`linear_mac`]: the §3 linear MAC scheme (k = 64 and k = 32, tags as unreduced carry-less
//!   products in GF(2^{2k−1})) with subset-sum openings; [`batch_open`]: the §3.3 batched opening
//!   `H = ⊕ F(d_i)` with fixed-key AES.
//! - [`sbox_prep`]: authenticated S-box table material ([`MaliciousAesPrep`]) and its trusted-dealer
//!   provider; [`sbox_malicious`]: the online phase (10 lookup rounds, MAC check, output opening);
//! - [`sbox_construct`]: the §4 two-party construction of that material from authenticated bits and
//!   triples (7 multiplications per entry), behind [`sbox_construct::AuthBitSource`], with the ideal
//!   functionality as the only source.
//!
//! **Trust model:** the only preprocessing provider is a *trusted dealer* ([`TrustedDealer`]) that
//! knows all masks; it must be honest and must not collude with either party. The paper's
//! two-party preprocessing (Fig. 8, from TinyOT and OT) is not implemented.
//!
//! Not implemented here: malicious security of the binary (AND-table) protocol (Fig. 3/5) and of the
//! passive S-box path [`aes_tables`] — those detect no deviating peer; malformed (wrong-length)
//! messages give typed errors ([`TinyTableError`]), never panics. The malicious S-box path detects
//! deviations and aborts with [`TinyTableError::AuthenticationFailed`].

pub mod aes_tables;
pub mod batch_open;
pub mod error;
pub mod linear_mac;
mod msg;
pub mod online;
pub mod prep;
pub mod sbox_construct;
pub mod sbox_malicious;
pub mod sbox_prep;

#[cfg(test)]
mod sbox_construct_tests;
#[cfg(test)]
mod sbox_tests;
#[cfg(test)]
mod tests;

pub use error::{Step, TinyTableError};
pub use prep::{BinaryPrep, IoSpec, Preprocessing, Reveal, TrustedDealer};
pub use sbox_prep::MaliciousAesPrep;
