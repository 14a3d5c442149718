//! TinyTable: two-party secure computation with scrambled truth tables (Damgård, Nielsen,
//! Nielsen, Ranellucci, Toft, "The TinyTable protocol for 2-Party Secure Computation, or:
//! Gate-scrambling Revisited", CRYPTO 2017; `/work/shared/papers/tinytable.txt`).
//!
//! Every wire carries a masked value `e_w = x_w ⊕ r_w` known to both parties; a non-linear gate is
//! a table, XOR-shared between the parties and indexed by masked inputs, whose entries are masked
//! outputs. The online phase is one table lookup and one exchanged entry per gate and direction.
//!
//! The folder has one sub-folder per concept; dependencies point one way,
//! `spec`/`error`/`msg` ← [`mac`] ← [`circuit`], [`sbox`] ← [`prep`]:
//! - [`spec`]: who inputs and who learns what ([`IoSpec`], [`Reveal`]).
//! - [`mac`]: the MAC schemes — the Fig. 3 lookup MACs ([`mac::lookup`], k = 64 or 32,
//!   [`MacWord`]), the §3 linear MACs ([`mac::linear`], tags as unreduced carry-less products in
//!   GF(2^{2k−1})) and the §3.3 batched opening `H = ⊕ F(d_i)` ([`mac::batch_open`]).
//! - [`circuit`]: the binary-circuit protocol for any [`crate::circuit::Circuit`] — its material
//!   ([`BinaryPrep`], Fig. 6 = Fig. 1 with free XOR; [`SlicedPrep`], 64 instances per word;
//!   [`MaliciousPrep`], Fig. 3), the passive online phase (Fig. 7 = Fig. 2 with free XOR, §2.1;
//!   NOT gates local, §2.2) and the malicious one (Fig. 5: every opened entry's string
//!   accumulated into one MAC per direction, checked before any output is revealed), both run by
//!   one bit-sliced engine.
//! - [`sbox`]: AES-128 with 256-entry S-box tables of bytes (§2.3, §5 "optimized version"): 10
//!   lookup rounds per block, linear layers local; semi-honest ([`sbox::tables`]) and malicious
//!   with linear MACs ([`sbox::malicious`], [`MaliciousAesPrep`]), and the §4 two-party
//!   construction of the malicious material from authenticated bits and triples
//!   ([`sbox::construct`], 7 multiplications per entry).
//! - [`prep`]: the providers — the [`TrustedDealer`] of every kind of material, and the two-party
//!   Fig. 8 preprocessing ([`fig8_binary`], [`fig8_malicious`]) fed by TinyOT-format authenticated
//!   bits and AND triples from a [`TinyOtSource`] ([`prep::tinyot`]).
//!
//! **Trust models:** [`TrustedDealer`] knows all masks; it must be honest and must not collude
//! with either party. [`fig8_binary`] / [`fig8_malicious`] and [`sbox::construct`] need no third
//! party but consume authenticated bits and triples from a [`TinyOtSource`] /
//! [`sbox::construct::AuthBitSource`]: [`OtTinyOt`] makes them over OT between the two parties
//! (nobody else trusted; what the jobs in [`crate::jobs::tinytable`] use by default), while
//! [`IdealTinyOt`] and [`sbox::construct::IdealAuthBits`] are *ideal functionalities* for tests, in
//! which both handles expand one shared seed — not secure on their own.
//!
//! Not implemented: the §6 asymptotic solution. The passive protocols ([`circuit::online`],
//! [`sbox::tables`]) detect no deviating peer; the malicious ones abort with
//! [`TinyTableError::MacCheckFailed`] (binary) or [`TinyTableError::AuthenticationFailed`]
//! (S-box). Malformed (wrong-length) messages give typed errors ([`TinyTableError`]), never
//! panics.

pub mod circuit;
pub mod error;
pub mod mac;
mod msg;
pub mod prep;
pub mod sbox;
pub mod spec;

pub use circuit::malicious::evaluate_malicious;
pub use circuit::malicious_prep::MaliciousPrep;
pub use circuit::online::PlannedCircuit;
pub use circuit::prep::{BinaryPrep, Preprocessing};
pub use circuit::slice::SlicedPrep;
pub use error::{MacCheck, Step, TinyTableError};
pub use mac::lookup::MacWord;
pub use prep::dealer::TrustedDealer;
pub use prep::fig8::{fig8_binary, fig8_malicious};
pub use prep::tinyot::{Auth, IdealTinyOt, OtAuthBitPool, OtTinyOt, TinyOtSource};
pub use sbox::prep::MaliciousAesPrep;
pub use spec::{IoSpec, Reveal};
