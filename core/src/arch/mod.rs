//! The CPU-specific layer: which instruction-set extensions this machine has (detected once, in
//! [`cpu`]), the fixed-key AES-NI primitives and register type the table kernels share
//! ([`aes_ni`], x86-64 only, with the backend choice `AesBackend`), AES-128 over many blocks with
//! its backend choice ([`many_aes`]; the `simd128` bit-sliced AES of the WASM build in
//! `sliced_aes`), the AVX2 nibble-table byte map (`nibble_map`), software prefetch ([`prefetch`])
//! and the operating-system memory hints for large buffers ([`memory`]). Field-arithmetic SIMD lives with the fields
//! ([`crate::field::clmul`], `field::gf256_bulk`, `field::gf64x2`). Protocol code imports no
//! `core::arch`: it uses these types and functions.
//!
//! Fast paths elsewhere in the crate ask [`cpu`] which extensions they may use instead of
//! querying the processor themselves, so the `force-portable` feature (which makes [`cpu`] report
//! none, the path wasm32 takes) switches every one of them off at once, and tests that cross-check
//! a fast path against the portable one enumerate backends from [`Cpu::detected`].
//!
//! **Why there is one backend enum per kernel family, not one for the crate.** Each family's enum
//! ([`crate::field::clmul::Backend`], [`crate::field::Gf256Backend`], `AesBackend`) lists exactly
//! the implementations that family has, so a kernel's `match` is exhaustive without unreachable
//! arms, and the tests iterate `available()` of the family they cross-check. A crate-wide enum
//! would hand the AES kernels a PCLMULQDQ variant (and vice versa) and make the choices of
//! different families depend on each other. What is shared is the detection: every `detect()`
//! reads [`cpu`] (or a compile-time `cfg` on wasm32) and honours `force-portable`.

#[cfg(target_arch = "x86_64")]
pub(crate) mod aes_ni;
mod features;
pub mod many_aes;
pub mod memory;
pub(crate) mod nibble_map;
pub(crate) mod prefetch;
// Native builds use the `aes` crate (AES-NI); the bit-sliced AES is compiled for the WASM build and
// for the native tests that cross-check its algorithm.
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
pub(crate) mod sliced_aes;

pub use features::{cpu, Cpu};
pub use many_aes::{ManyAes, ManyAesBackend};

/// The AES implementation of the TinyTable kernels that run many fixed-key or seeded AES calls in
/// their own loops (`opened_macs`, `sbox::malicious::openings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AesBackend {
    /// Scalar loops and the `aes` crate; available everywhere.
    Portable,
    /// Fused loops on [`aes_ni`] (x86-64 with AES-NI and SSE4.1, detected at run time).
    #[cfg(target_arch = "x86_64")]
    AesNi,
}

impl AesBackend {
    /// The fastest backend this CPU supports (the portable one under `force-portable`).
    pub(crate) fn detect() -> Self {
        if cfg!(feature = "force-portable") {
            return AesBackend::Portable;
        }
        Self::available().last().copied().unwrap_or(AesBackend::Portable)
    }

    /// Every backend usable here, portable first (ignores `force-portable`, for the cross-checks).
    pub(crate) fn available() -> Vec<Self> {
        core::iter::once(AesBackend::Portable).chain(Self::native()).collect()
    }

    /// The hardware backend, if this CPU has one.
    fn native() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        if Cpu::detected().aes && Cpu::detected().sse41 {
            return Some(AesBackend::AesNi);
        }
        None
    }
}
