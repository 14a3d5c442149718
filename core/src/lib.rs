//! # chorus-core
//!
//! The I/O-free core of Chorus, an SDK for secure multi-party computation that runs the same
//! protocol code natively and in the browser (through `chorus-wasm`).
//!
//! Layers (see `shared/GUIDE.md` §1):
//! - [`arch`]: run-time CPU feature detection (once), the shared AES-NI primitives, prefetch and
//!   memory hints: the one place fast paths learn what the processor offers;
//! - [`field`]: binary fields GF(2^k) with run-time selected fast paths, embeddings, bit vectors;
//! - [`aes`]: AES-128/192/256 in plain form, built from the field operations, whose linear layer and
//!   key schedule structure the MPC protocols reuse;
//! - [`circuit`]: the one Bristol Fashion parser, circuit representation and plaintext evaluator, and
//!   the project's own AES-128 circuit generator;
//! - [`code`]: systematic Reed-Solomon codes over GF(2^8) and their Schur squares for MiniMac;
//! - [`embed`]: Coral's (reverse) multiplication-friendly embeddings, RMFE and MFE, and their parameter sets;
//! - [`net`]: the [`net::Network`] abstraction protocols run over, and an in-memory implementation;
//! - [`ot`]: the oblivious-transfer engine (base OT, OT extension, correlated OT) that two-party
//!   preprocessing builds on;
//! - [`proto`]: the MPC protocols, starting with three-party MAESTRO AES ([`proto::maestro`]);
//! - [`jobs`]: whole jobs (e.g. joint AES with MAESTRO) that every front end runs the same way;
//! - [`rng`]: per-session randomness (an OS-seeded ChaCha20 generator).

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod aes;
pub mod arch;
pub mod circuit;
pub mod code;
pub mod embed;
pub mod field;
pub mod jobs;
pub mod net;
pub mod ot;
pub mod proto;
pub mod rng;
