//! Whole jobs a party runs from start to finish, written once and called by every front end (the
//! WASM bindings behind the TypeScript SDK, the native runner, tests and benchmarks).
//!
//! A job takes an already-connected [`crate::net::Network`] (normally a
//! [`crate::net::secure::SecureNetwork`] over the relay or TCP), a spec every member must agree
//! on, and this member's private inputs; it returns what this member is allowed to learn plus its
//! communication statistics.
//!
//! There is **one AES job** ([`AesSpec`], [`run_aes`]) and **one circuit job** ([`CircuitSpec`],
//! [`run_circuit`]) for every protocol: the protocol and its options are one tagged field of the
//! spec ([`AesProtocol`], [`CircuitProtocol`]), the roles, inputs, outputs and the meaning of the
//! statistics are shared, errors are one type ([`JobError`]) and spec agreement is one step
//! ([`agreement`]). Front ends dispatch on these types only; a protocol contributes a runner
//! module ([`maestro_aes`], [`tinytable`], [`minimac`], [`coral`], [`tinyot`]) that turns the shared spec into calls of its
//! online and preprocessing code.

pub(crate) mod aes;
pub mod agreement;
pub(crate) mod circuit;
pub mod coral;
mod error;
pub mod keyed_aes;
pub mod maestro_aes;
pub mod minimac;
pub mod options;
pub mod parties;
mod prepare;
pub mod prepared;
mod preprocessing;
mod run;
pub mod security;
pub(crate) mod simd;
pub mod stream;
pub mod tinyot;
pub mod tinytable;
pub mod view;

#[cfg(test)]
mod tests;

pub use aes::{AesInput, AesOutput, AesProtocol, AesSpec, JobPhase};
pub use circuit::{CircuitInput, CircuitOutput, CircuitProtocol, CircuitSpec, JobCircuit, MixedJobCircuit};
pub use error::JobError;
pub use prepare::{
    check_prepare, check_prepare_aes, check_prepare_circuit, check_prepare_room, prepare, prepare_aes,
    prepare_circuit, PrepareSpec,
};
pub use prepared::{PrepareOutput, Prepared, PreparedUse, PREPARED_BUDGET_BYTES};
pub use preprocessing::{Preprocessing, DEALER, MEMBERS};
pub use run::{
    aes_uses_prepared, circuit_uses_prepared, run_aes, run_aes_observed, run_aes_prepared, run_circuit,
    run_circuit_observed, run_circuit_prepared,
};
pub use security::Security;
