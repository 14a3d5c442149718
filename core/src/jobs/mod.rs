//! Whole jobs a party runs from start to finish, written once and called by every front end (the
//! WASM bindings behind the TypeScript SDK, the native runner, tests and benchmarks).
//!
//! A job takes an already-connected [`crate::net::Network`] (normally a
//! [`crate::net::secure::SecureNetwork`] over the relay or TCP), a spec every party must agree on,
//! and this party's private inputs; it returns what this party is allowed to learn plus its
//! communication statistics.

pub mod maestro_aes;
pub mod security;
pub mod tinytable;

pub use security::Security;
