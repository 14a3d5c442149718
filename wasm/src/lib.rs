//! wasm-bindgen bindings of `chorus-core`.
//!
//! The JS side passes whole buffers in and out: one call per protocol message or batch, never one
//! call per element. Protocol bindings arrive with the vertical-slice issue; for now the crate
//! exposes a version probe and plain AES-128 so the build pipeline is exercised end to end.

use wasm_bindgen::prelude::*;

/// The version of the Chorus core compiled into this module.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
