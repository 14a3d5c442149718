//! The CPU-specific layer: which instruction-set extensions this machine has (detected once, in
//! [`cpu`]), the fixed-key AES-NI primitives the table kernels share ([`aes_ni`], x86-64 only),
//! software prefetch ([`prefetch`]) and the operating-system memory hints for large buffers
//! ([`memory`]).
//!
//! Fast paths elsewhere in the crate ask [`cpu`] which extensions they may use instead of
//! querying the processor themselves, so the `force-portable` feature (which makes [`cpu`] report
//! none, the path wasm32 takes) switches every one of them off at once, and tests that cross-check
//! a fast path against the portable one enumerate backends from [`Cpu::detected`].

#[cfg(target_arch = "x86_64")]
pub(crate) mod aes_ni;
mod features;
pub mod memory;
pub(crate) mod prefetch;

pub use features::{cpu, Cpu};
