//! AES-128 over many blocks at once — the one place that picks the AES implementation of the
//! symmetric kernels that encrypt in bulk: the OT engine's PRGs and correlation-robust hash
//! (`crate::ot::prg`) and TinyTable's batched MAC-check hash, key PRF and seeded MAC keys.
//!
//! Backends ([`ManyAesBackend::detect`]):
//! - `RustCrypto`: the `aes` crate, which uses AES-NI when the CPU has it (detected at run time)
//!   and its constant-time fixsliced software AES elsewhere; every native build;
//! - `Vaes` (x86-64 with VAES and AVX-512F, detected at run time through [`super::cpu`]): the
//!   AES-NI key schedule of [`super::aes_ni`] and four blocks per 512-bit `vaesenc`, sixteen
//!   interleaved. The `aes` crate encrypts one block per AES-NI instruction;
//! - `Sliced` (wasm32 built with `target-feature=+simd128`, as the WASM builds are): the
//!   bit-sliced AES of `super::sliced_aes` on `v128` registers, eight blocks per pass. The `aes`
//!   crate has no SIMD path for WASM and its software AES there works on 32-bit words, two blocks
//!   at a time.
//!
//! Invariant: every backend returns the same ciphertexts (AES-128, FIPS-197). The native tests
//! check the bit-sliced algorithm against the `aes` crate on the portable register; [`self_check`]
//! checks every backend of the build and CPU against it (natively in the tests, inside WASM with
//! `scripts/bench-wasm.mjs --check`). Every backend is constant time (AES-NI and VAES have no
//! table lookups), so secret keys (seeded PRGs, MAC-key PRFs) are safe with any.

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use super::sliced_aes::SlicedKey;
use aes::cipher::{BlockEncrypt, KeyInit};
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use core::arch::wasm32::v128;

/// An implementation of [`ManyAes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManyAesBackend {
    /// The `aes` crate (AES-NI natively when present, fixsliced software otherwise).
    RustCrypto,
    /// Bit-sliced AES on wasm32 `simd128` registers.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Sliced,
    /// VAES on 512-bit registers (x86-64 with VAES and AVX-512F).
    #[cfg(target_arch = "x86_64")]
    Vaes,
}

impl ManyAesBackend {
    /// The fastest backend of this build (the `aes` crate under `force-portable`).
    pub fn detect() -> Self {
        if cfg!(feature = "force-portable") {
            return ManyAesBackend::RustCrypto;
        }
        *Self::available().last().expect("the aes crate is always available")
    }

    /// Every backend of this build and CPU, the `aes` crate first.
    pub fn available() -> Vec<Self> {
        #[allow(unused_mut)]
        let mut all = vec![
            ManyAesBackend::RustCrypto,
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            ManyAesBackend::Sliced,
        ];
        #[cfg(target_arch = "x86_64")]
        if super::Cpu::detected().vaes {
            all.push(ManyAesBackend::Vaes);
        }
        all
    }
}

/// AES-128 under one key, encrypting slices of blocks (a block is a little-endian `u128`: byte 0
/// of the AES block is its least significant byte).
#[derive(Clone)]
pub struct ManyAes(Inner);

// The `aes` crate's key stays inline (the native hot path); the bit-sliced round keys (1,408 bytes)
// are boxed so that vectors of PRGs stay compact.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum Inner {
    RustCrypto(aes::Aes128),
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Sliced(Box<SlicedKey<v128>>),
    #[cfg(target_arch = "x86_64")]
    Vaes(super::aes_ni::RoundKeys),
}

impl core::fmt::Debug for ManyAes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The key may be secret (a PRG seed or a MAC-key PRF).
        f.debug_struct("ManyAes").field("backend", &self.backend()).finish_non_exhaustive()
    }
}

impl ManyAes {
    /// The cipher under `key` on this build's fastest backend.
    pub fn new(key: &[u8; 16]) -> Self {
        Self::with_backend(ManyAesBackend::detect(), key)
    }

    /// The cipher under `key` on `backend` (one of [`ManyAesBackend::available`]; panics for a
    /// backend this CPU lacks).
    pub fn with_backend(backend: ManyAesBackend, key: &[u8; 16]) -> Self {
        match backend {
            ManyAesBackend::RustCrypto => ManyAes(Inner::RustCrypto(aes::Aes128::new(key.into()))),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            ManyAesBackend::Sliced => ManyAes(Inner::Sliced(Box::new(SlicedKey::new(key)))),
            #[cfg(target_arch = "x86_64")]
            ManyAesBackend::Vaes => {
                assert!(super::Cpu::detected().vaes, "this CPU has no VAES with AVX-512F");
                // SAFETY: AES-NI (implied by the `vaes` flag) was detected just above.
                ManyAes(Inner::Vaes(unsafe { super::aes_ni::RoundKeys::expand(key) }))
            }
        }
    }

    /// The backend this cipher runs on.
    pub fn backend(&self) -> ManyAesBackend {
        match self.0 {
            Inner::RustCrypto(_) => ManyAesBackend::RustCrypto,
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Inner::Sliced(_) => ManyAesBackend::Sliced,
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes(_) => ManyAesBackend::Vaes,
        }
    }

    /// Encrypts every block of `blocks` in place.
    pub fn encrypt(&self, blocks: &mut [u128]) {
        match &self.0 {
            Inner::RustCrypto(cipher) => {
                // Memory order = little-endian bytes (both loops vanish on little-endian targets).
                blocks.iter_mut().for_each(|b| *b = b.to_le());
                cipher.encrypt_blocks(as_aes_blocks(blocks));
                blocks.iter_mut().for_each(|b| *b = u128::from_le(*b));
            }
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Inner::Sliced(key) => key.encrypt(blocks),
            // SAFETY: a `Vaes` cipher is made only where VAES, AVX-512F and AES-NI were detected.
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes(keys) => unsafe { keys.encrypt_many_vaes(blocks) },
        }
    }

    /// The encryption of one block.
    pub fn encrypt_one(&self, x: u128) -> u128 {
        let mut b = [x];
        self.encrypt(&mut b);
        b[0]
    }
}

/// `blocks` as the `aes` crate's blocks, in place: the crate encrypts them with no copy in or out.
fn as_aes_blocks(blocks: &mut [u128]) -> &mut [aes::Block] {
    const _: () =
        assert!(core::mem::size_of::<aes::Block>() == 16 && core::mem::align_of::<aes::Block>() == 1);
    // SAFETY: `aes::Block` is `GenericArray<u8, U16>`, a `#[repr(transparent)]` wrapper of 16
    // bytes (checked above: size 16, alignment 1), valid for every bit pattern like `u128`, whose
    // alignment is stricter. The result borrows `blocks` mutably, so nothing else aliases it.
    unsafe { core::slice::from_raw_parts_mut(blocks.as_mut_ptr().cast(), blocks.len()) }
}

/// Cross-checks every backend of this build against the `aes` crate's single-block encryption on
/// the FIPS-197 C.1 vector and `cases` pseudorandom keys with block counts around the bit-sliced
/// pass size (for the WASM module, where `cargo test` does not run).
pub fn self_check(cases: u32) -> Result<(), String> {
    use rand_core::RngCore;
    let fips_key: [u8; 16] = core::array::from_fn(|i| i as u8);
    let fips_plain = u128::from_le_bytes(core::array::from_fn(|i| (i as u8) * 0x11));
    let fips_cipher = u128::from_le_bytes([
        0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a,
    ]);
    let mut rng = crate::rng::seeded_rng(0x5eed_0ae5);
    let mut block = move || u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64());
    for backend in ManyAesBackend::available() {
        let got = ManyAes::with_backend(backend, &fips_key).encrypt_one(fips_plain);
        if got != fips_cipher {
            return Err(format!("{backend:?}: FIPS-197 C.1 gave {got:032x}"));
        }
        for case in 0..cases {
            let key = block().to_le_bytes();
            let reference = aes::Aes128::new(&key.into());
            let n = [1, 3, 7, 8, 9, 16, 17, 35, 64, 67][case as usize % 10];
            let plain: Vec<u128> = (0..n).map(|_| block()).collect();
            let mut got = plain.clone();
            ManyAes::with_backend(backend, &key).encrypt(&mut got);
            for (j, (&x, &y)) in plain.iter().zip(&got).enumerate() {
                let mut b = aes::Block::from(x.to_le_bytes());
                reference.encrypt_block(&mut b);
                if u128::from_le_bytes(b.into()) != y {
                    return Err(format!(
                        "{backend:?}: case {case}, block {j} of {n} differs from the aes crate"
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_backend_matches_the_aes_crate() {
        self_check(50).unwrap();
        assert_eq!(ManyAes::new(&[0; 16]).backend(), ManyAesBackend::detect());
    }

    #[test]
    fn debug_does_not_print_the_key() {
        let shown = format!("{:?}", ManyAes::new(&[0xab; 16]));
        assert!(!shown.contains("ab") && !shown.contains("171"), "{shown}");
    }
}
