//! Boolean circuits: the one Bristol Fashion parser, circuit representation and plaintext evaluator
//! of Chorus, and the project's own AES-128 circuit generator.
//!
//! - [`Circuit`] (in `repr`): wires, input/output values with bit widths, gates split into linear
//!   gates (XOR, INV, copy, constant) and AND gates, stored in layers by AND-depth
//!   ([`Circuit::layers`], [`Circuit::and_layers`]): all AND gates of one layer are independent, so a
//!   protocol (TinyTable, Coral, ...) handles each layer in one round.
//! - `bristol`: [`Circuit::parse_bristol`] and [`Circuit::to_bristol`] for the Bristol Fashion format
//!   (<https://nigelsmart.github.io/MPC-Circuits/>), including the `EQ`, `EQW` and `MAND` gates;
//!   malformed text gives a [`CircuitError`] with the line number, never a panic.
//! - `eval`: [`Circuit::evaluate`] on bits and [`Circuit::evaluate_bitsliced`] on 64 lanes at once,
//!   one generic implementation over [`WireWord`].
//! - [`aes_bristol`]: the bit ordering of the Bristol Fashion AES circuits (key first; values as
//!   big-endian integers, least significant bit on the first wire) and helpers to map bytes to wires.
//! - [`mixed`]: [`mixed::MixedCircuit`], arithmetic circuits over Z_{2^k} in Summon's
//!   non-boolified form (the input of Coral's mixed circuits), parsed and evaluated in the clear.
//! - [`slots`]: [`WireSlots`], the layers on reusable storage slots (live wires only) for
//!   protocols that keep a large value per wire.
//! - [`CircuitBuilder`], [`sbox_bp`] (Boyar–Peralta S-box with 32 AND gates), [`aes_gen`]
//!   ([`aes_gen::aes128_circuit`], 6400 AND gates) and [`sha256_gen`]
//!   ([`sha256_gen::sha256_compression_circuit`], 22,696 AND gates) generate circuits.
//!
//! Limits and choices: gates must appear in topological order (as the format requires; files are
//! not re-sorted); `MAND` gates are read as individual AND gates and the writer emits basic Bristol
//! Fashion only; at most [`MAX_WIRES`] wires; the generators cover AES-128 and the SHA-256 compression
//! function only (AES-192/256 come from the shared reference circuits).

pub mod aes_bristol;
pub mod aes_gen;
pub mod bristol;
pub mod builder;
pub mod error;
pub mod eval;
pub mod mixed;
pub mod repr;
pub mod sbox_bp;
pub mod sha256_gen;
pub mod slots;

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;

pub use builder::{CircuitBuilder, Wire};
pub use error::{CircuitError, EvalError, ParseProblem, WireProblem};
pub use eval::{pack_lanes, unpack_lanes, WireWord};
pub use repr::{AndGate, Circuit, Gate, GateCounts, Layer, LinearGate, WireId, MAX_WIRES};
pub use slots::WireSlots;
