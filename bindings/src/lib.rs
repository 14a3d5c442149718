//! What the JavaScript bindings of `chorus-core` share — the WASM module (`wasm/`, wasm-bindgen)
//! and the Node addon (`node/`, Node-API): reading the SDK's job arguments ([`spec`]), running the
//! jobs over a JS-fed network ([`jobs`], [`network`], [`inbox`]), and classifying failures for the
//! SDK's typed errors ([`error`]). A binding only converts between its runtime's values and these
//! types, so both runtimes accept the same arguments, run the same code and fail the same way.

pub mod error;
pub mod inbox;
pub mod jobs;
pub mod mixed;
pub mod network;
pub mod prepare;
pub mod slot;
pub mod spec;
pub mod warm;

pub use error::{BridgeError, ErrorKind};
pub use inbox::Inbox;
pub use jobs::{AesJob, CircuitJob, Finished, PrepareJob};
pub use network::{BridgeNetwork, InstanceProgress, Progress, ProgressNetwork};
pub use prepare::Prepare;
pub use slot::{Claim, JobSlot};
pub use spec::{Fields, Value};
