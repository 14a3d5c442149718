//! Shared test helpers: the reference circuits and an independent AES S-box.

use crate::circuit::Circuit;

/// Reads a shared reference circuit; panics with a clear message if the file is missing, so a
/// missing file fails the tests instead of skipping them.
pub fn shared_circuit_text(name: &str) -> String {
    let path = format!("{}/../../shared/circuits/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reference circuit {path} is required by these tests but cannot be read: {e}"))
}

pub fn shared_circuit(name: &str) -> Circuit {
    Circuit::parse_bristol(&shared_circuit_text(name)).expect("reference circuit parses")
}
