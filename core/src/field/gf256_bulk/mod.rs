//! Bulk GF(2^8) arithmetic on byte slices, with the fast path chosen in one place
//! ([`Gf256Backend::detect`]).
//!
//! Backends, all constant time (no secret-dependent branch or memory index):
//! - [`Gf256Backend::Portable`]: SWAR on `u64` words, eight elements at a time. Multiplication is the
//!   masked shift-and-add of FIPS-197 §4.2.1 run in every byte lane; multiplication by a scalar `c`
//!   XORs the precomputed `c·x^i` under per-bit masks.
//! - [`Gf256Backend::Ssse3`] / [`Gf256Backend::Avx2`] (x86-64, detected at run time) and
//!   [`Gf256Backend::Simd128`] (wasm32 built with `target-feature=+simd128`): multiplication by a
//!   scalar uses two 16-entry nibble tables `c·i` and `c·(i << 4)` looked up with an in-register byte
//!   shuffle (`pshufb` / `i8x16.swizzle`), which is constant time because the table never leaves the
//!   register; lane-wise products use the vectorized shift-and-add; squaring (GF(2)-linear) uses
//!   nibble tables too.
//!
//! Inversion is `x^254` by the fixed chain of [`Gf256`](super::Gf256)'s scalar inverse (7 squarings,
//! 4 products). The x86 GFNI instructions (`gf2p8mulb`, `gf2p8affineinv`) would be faster still,
//! but are not implemented because no machine available to this project could test them.
//! Every backend is cross-checked against the portable one in the tests, tails included.

/// `c · x^i` for the reduction: x^8 ≡ x^4 + x^3 + x + 1.
const POLY_LOW: u8 = 0x1b;

/// A bulk GF(2^8) backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gf256Backend {
    /// SWAR on 64-bit words; available everywhere.
    Portable,
    /// 128-bit SSSE3 (`pshufb`), x86-64.
    #[cfg(target_arch = "x86_64")]
    Ssse3,
    /// 256-bit AVX2 (`vpshufb`), x86-64.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// wasm32 SIMD (`i8x16.swizzle`), when compiled with `target-feature=+simd128`.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
}

impl Gf256Backend {
    /// The fastest backend available (the portable one under the `force-portable` feature).
    #[inline]
    pub fn detect() -> Self {
        if cfg!(feature = "force-portable") {
            return Gf256Backend::Portable;
        }
        Self::available().last().copied().unwrap_or(Gf256Backend::Portable)
    }

    /// Every backend usable here, slowest (portable) first; ignores `force-portable` so tests and
    /// benchmarks can compare them.
    #[cfg(target_arch = "x86_64")]
    pub fn available() -> &'static [Self] {
        use Gf256Backend::*;
        let cpu = crate::arch::Cpu::detected();
        if cpu.avx2 && cpu.ssse3 {
            &[Portable, Ssse3, Avx2]
        } else if cpu.ssse3 {
            &[Portable, Ssse3]
        } else {
            &[Portable]
        }
    }

    /// Every backend usable here, slowest (portable) first; ignores `force-portable` so tests and
    /// benchmarks can compare them.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    pub fn available() -> &'static [Self] {
        &[Gf256Backend::Portable, Gf256Backend::Simd128]
    }

    /// Every backend usable here (only the portable one on this target).
    #[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
    pub fn available() -> &'static [Self] {
        &[Gf256Backend::Portable]
    }

    /// `dst[i] ^= c · src[i]`.
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn mul_add_scalar(self, dst: &mut [u8], src: &[u8], c: u8) {
        assert_eq!(dst.len(), src.len(), "mul_add_scalar: length mismatch");
        match self {
            Gf256Backend::Portable => portable::mul_add_scalar(dst, src, c),
            // SAFETY (all arms below): the variant exists only if `available` detected the feature
            // (or, for simd128, the target was compiled with it).
            #[cfg(target_arch = "x86_64")]
            Gf256Backend::Ssse3 => unsafe { x86::mul_add_scalar_ssse3(dst, src, c) },
            #[cfg(target_arch = "x86_64")]
            Gf256Backend::Avx2 => unsafe { x86::mul_add_scalar_avx2(dst, src, c) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Gf256Backend::Simd128 => unsafe { lanes::mul_add_scalar::<wasm::Simd128>(dst, src, c) },
        }
    }

    /// `dst[i] = a[i] · b[i]`.
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn mul_slices(self, dst: &mut [u8], a: &[u8], b: &[u8]) {
        assert!(dst.len() == a.len() && a.len() == b.len(), "mul_slices: length mismatch");
        match self {
            Gf256Backend::Portable => portable::mul_slices(dst, a, b),
            // SAFETY (all arms below): as in `mul_add_scalar`.
            #[cfg(target_arch = "x86_64")]
            Gf256Backend::Ssse3 => unsafe { x86::mul_slices_ssse3(dst, a, b) },
            #[cfg(target_arch = "x86_64")]
            Gf256Backend::Avx2 => unsafe { x86::mul_slices_avx2(dst, a, b) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Gf256Backend::Simd128 => unsafe { lanes::mul_slices::<wasm::Simd128>(dst, a, b) },
        }
    }

    /// `dst[i] ^= a[i] · b[i]`.
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn mul_add_slices(self, dst: &mut [u8], a: &[u8], b: &[u8]) {
        assert!(dst.len() == a.len() && a.len() == b.len(), "mul_add_slices: length mismatch");
        match self {
            Gf256Backend::Portable => portable::mul_add_slices(dst, a, b),
            // SAFETY (all arms below): as in `mul_add_scalar`.
            #[cfg(target_arch = "x86_64")]
            Gf256Backend::Ssse3 => unsafe { x86::mul_add_slices_ssse3(dst, a, b) },
            #[cfg(target_arch = "x86_64")]
            Gf256Backend::Avx2 => unsafe { x86::mul_add_slices_avx2(dst, a, b) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Gf256Backend::Simd128 => unsafe { lanes::mul_add_slices::<wasm::Simd128>(dst, a, b) },
        }
    }

    /// Replaces every element by its inverse (`0 ↦ 0`).
    pub fn inverse_slice(self, values: &mut [u8]) {
        match self {
            Gf256Backend::Portable => portable::inverse_slice(values),
            // SAFETY (all arms below): as in `mul_add_scalar`.
            #[cfg(target_arch = "x86_64")]
            Gf256Backend::Ssse3 => unsafe { x86::inverse_slice_ssse3(values) },
            #[cfg(target_arch = "x86_64")]
            Gf256Backend::Avx2 => unsafe { x86::inverse_slice_avx2(values) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Gf256Backend::Simd128 => unsafe { lanes::inverse_slice::<wasm::Simd128>(values) },
        }
    }
}

/// `a · x`, branch-free.
#[inline]
const fn times_x(a: u8) -> u8 {
    (a << 1) ^ (0u8.wrapping_sub(a >> 7) & POLY_LOW)
}

/// `[c, c·x, …, c·x^7]`.
#[inline]
fn multiples_of_powers_of_x(c: u8) -> [u8; 8] {
    let mut out = [c; 8];
    for i in 1..8 {
        out[i] = times_x(out[i - 1]);
    }
    out
}

mod portable;

#[cfg(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))]
mod lanes;

#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm;

#[cfg(test)]
mod tests {
    use super::*;

    const fn mul_byte(a: u8, b: u8) -> u8 {
        crate::field::Gf256::mul_const_time(a, b)
    }
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    /// Lengths around every vector width, so each backend's tail handling is exercised.
    const LENGTHS: [usize; 14] = [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 1000];

    fn random_bytes(rng: &mut ChaCha20Rng, len: usize) -> Vec<u8> {
        let mut v = vec![0u8; len];
        rng.fill_bytes(&mut v);
        v
    }

    #[test]
    fn every_backend_matches_the_scalar_reference() {
        let mut rng = ChaCha20Rng::seed_from_u64(256);
        for &backend in Gf256Backend::available() {
            for len in LENGTHS {
                let a = random_bytes(&mut rng, len);
                let b = random_bytes(&mut rng, len);

                let mut product = vec![0u8; len];
                backend.mul_slices(&mut product, &a, &b);
                let expected: Vec<u8> = a.iter().zip(&b).map(|(&x, &y)| mul_byte(x, y)).collect();
                assert_eq!(product, expected, "{backend:?} mul_slices, len {len}");

                let mut fused = b.clone();
                backend.mul_add_slices(&mut fused, &a, &product);
                let expected: Vec<u8> =
                    a.iter().zip(&b).zip(&product).map(|((&x, &y), &z)| y ^ mul_byte(x, z)).collect();
                assert_eq!(fused, expected, "{backend:?} mul_add_slices, len {len}");

                let c = rng.next_u32() as u8;
                let mut acc = b.clone();
                backend.mul_add_scalar(&mut acc, &a, c);
                let expected: Vec<u8> = a.iter().zip(&b).map(|(&x, &y)| y ^ mul_byte(c, x)).collect();
                assert_eq!(acc, expected, "{backend:?} mul_add_scalar, len {len}, c {c:#04x}");

                let mut inverses = a.clone();
                backend.inverse_slice(&mut inverses);
                let expected: Vec<u8> =
                    a.iter().map(|&x| crate::field::Field::inverse(crate::field::Gf256(x)).0).collect();
                assert_eq!(inverses, expected, "{backend:?} inverse_slice, len {len}");
            }
        }
    }

    #[test]
    fn every_backend_is_exhaustively_correct() {
        let all: Vec<u8> = (0..=255).collect();
        for &backend in Gf256Backend::available() {
            for c in 0..=255u8 {
                let mut acc = vec![0u8; 256];
                backend.mul_add_scalar(&mut acc, &all, c);
                let scalar = vec![c; 256];
                let mut product = vec![0u8; 256];
                backend.mul_slices(&mut product, &all, &scalar);
                for x in 0..=255u8 {
                    assert_eq!(acc[x as usize], mul_byte(c, x), "{backend:?} {c:#04x}·{x:#04x}");
                    assert_eq!(product[x as usize], mul_byte(c, x), "{backend:?} {c:#04x}·{x:#04x}");
                }
            }
            let mut inverses = all.clone();
            backend.inverse_slice(&mut inverses);
            for x in 1..=255u8 {
                assert_eq!(mul_byte(x, inverses[x as usize]), 1, "{backend:?} inverse of {x:#04x}");
            }
            assert_eq!(inverses[0], 0);
        }
    }

    #[test]
    fn detect_picks_an_available_backend() {
        assert!(Gf256Backend::available().contains(&Gf256Backend::detect()));
        if cfg!(feature = "force-portable") {
            assert_eq!(Gf256Backend::detect(), Gf256Backend::Portable);
        }
    }
}
