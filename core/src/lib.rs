//! # chorus-core
//!
//! The I/O-free core of Chorus, an SDK for secure multi-party computation that runs the same
//! protocol code natively and in the browser (through `chorus-wasm`).
//!
//! Layers (see `shared/GUIDE.md` §1):
//! - [`field`]: binary fields GF(2^k) with run-time selected fast paths, embeddings, bit vectors;
//! - [`aes`]: AES-128/192/256 in plain form, built from the field operations, whose linear layer and
//!   key schedule structure the MPC protocols reuse;
//! - [`circuit`]: the one Bristol Fashion parser, circuit representation and plaintext evaluator, and
//!   the project's own AES-128 circuit generator.

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod aes;
pub mod circuit;
pub mod embed;
pub mod field;
