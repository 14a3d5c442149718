//! Per-session randomness.
//!
//! Every session draws its randomness from one ChaCha20 stream cipher CSPRNG ([`ChaCha20Rng`])
//! keyed with a 32-byte seed from the operating system (`getrandom`: the kernel's generator
//! natively, `crypto.getRandomValues` on wasm32 through `getrandom`'s `js` feature). The OS is
//! asked once per session; everything else — Noise ephemeral keys (see
//! [`crate::net::secure`]), protocol masks — is expanded from the seed, so a session needs no
//! further system calls and randomness never comes from a global generator.
//!
//! Tests use [`seeded_rng`] so that a failing case reproduces; it must never be used for a real
//! session.

use rand_chacha::ChaCha20Rng;
use rand_core::{OsRng, RngCore, SeedableRng};
use zeroize::Zeroize;

/// The operating system could not supply a seed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RngError {
    /// `getrandom` failed (on wasm32: no `crypto.getRandomValues` in this JavaScript environment).
    #[error("the operating system's random source failed: {0}")]
    OsSource(String),
}

/// A fresh CSPRNG for one session, seeded with 32 bytes from the operating system.
pub fn session_rng() -> Result<ChaCha20Rng, RngError> {
    let mut seed = [0u8; 32];
    OsRng.try_fill_bytes(&mut seed).map_err(|e| RngError::OsSource(e.to_string()))?;
    let rng = ChaCha20Rng::from_seed(seed);
    seed.zeroize();
    Ok(rng)
}

/// A deterministic CSPRNG from a test seed: for tests and benchmarks only (its output is
/// predictable to anyone who knows the seed).
pub fn seeded_rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_rngs_are_independent() {
        let mut a = session_rng().unwrap();
        let mut b = session_rng().unwrap();
        let (mut x, mut y) = ([0u8; 32], [0u8; 32]);
        a.fill_bytes(&mut x);
        b.fill_bytes(&mut y);
        assert_ne!(x, y, "two OS-seeded session generators produced the same 256-bit output");
        assert_ne!(x, [0u8; 32]);
    }

    #[test]
    fn seeded_rng_reproduces() {
        let (mut x, mut y, mut z) = ([0u8; 16], [0u8; 16], [0u8; 16]);
        seeded_rng(7).fill_bytes(&mut x);
        seeded_rng(7).fill_bytes(&mut y);
        seeded_rng(8).fill_bytes(&mut z);
        assert_eq!(x, y);
        assert_ne!(x, z);
    }
}
