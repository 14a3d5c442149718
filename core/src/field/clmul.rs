//! Carry-less multiplication, the one backend under every GF(2^k) with k > 8 in Chorus.
//!
//! A carry-less product multiplies two polynomials over GF(2) given as bit strings (bit i is the
//! coefficient of x^i). [`Gf64`](super::Gf64), [`Gf128`](super::Gf128) and the runtime-described
//! [`BinaryField`](super::BinaryField) all multiply through this module, then reduce.
//!
//! Backends, chosen by [`Backend::detect`] from [`crate::arch::cpu`] (detected once per process):
//! - [`Backend::Pclmulqdq`]: x86-64 `PCLMULQDQ`, selected at run time, so binaries run on any
//!   x86-64;
//! - [`Backend::Portable`]: constant-time integer code everywhere else (wasm32 included), and
//!   everywhere when the `force-portable` feature is on.
//!
//! The portable 64×64 product splits each operand into five interleaved bit classes ("holes",
//! the BearSSL trick adapted to 128-bit products): each partial product of two classes has at most
//! 13 terms per output bit, which fits in the 5-bit gap, so ordinary integer multiplication cannot
//! carry into a bit of the same class. No branch or memory index depends on the operands.
//!
//! Inner products use lazy reduction (MAESTRO §4): the unreduced products are XOR-accumulated and
//! the caller reduces the sum once.

/// Masks of the bit positions `i ≡ k (mod 5)` of a `u64`, for `k = 0..5`.
const CLASS_MASKS_64: [u64; 5] = class_masks_64();
/// Masks of the bit positions `i ≡ k (mod 5)` of a `u128`, for `k = 0..5`.
const CLASS_MASKS_128: [u128; 5] = class_masks_128();

const fn class_masks_64() -> [u64; 5] {
    let mut masks = [0u64; 5];
    let mut i = 0;
    while i < 64 {
        masks[i % 5] |= 1 << i;
        i += 1;
    }
    masks
}

const fn class_masks_128() -> [u128; 5] {
    let mut masks = [0u128; 5];
    let mut i = 0;
    while i < 128 {
        masks[i % 5] |= 1 << i;
        i += 1;
    }
    masks
}

/// Portable, constant-time carry-less multiplication (usable in `const` contexts).
pub mod portable {
    use super::{CLASS_MASKS_128, CLASS_MASKS_64};

    /// The 128-bit carry-less product of two 64-bit polynomials.
    #[inline]
    pub const fn clmul64(a: u64, b: u64) -> u128 {
        let mut acc = 0u128;
        let mut i = 0;
        while i < 5 {
            let a_class = (a & CLASS_MASKS_64[i]) as u128;
            let mut j = 0;
            while j < 5 {
                let b_class = (b & CLASS_MASKS_64[j]) as u128;
                acc ^= a_class.wrapping_mul(b_class) & CLASS_MASKS_128[(i + j) % 5];
                j += 1;
            }
            i += 1;
        }
        acc
    }

    /// The 256-bit carry-less product `[low, high]` of two 128-bit polynomials (Karatsuba).
    #[inline]
    pub const fn clmul128(a: u128, b: u128) -> [u128; 2] {
        let (a0, a1) = (a as u64, (a >> 64) as u64);
        let (b0, b1) = (b as u64, (b >> 64) as u64);
        let low = clmul64(a0, b0);
        let high = clmul64(a1, b1);
        let mid = clmul64(a0 ^ a1, b0 ^ b1) ^ low ^ high;
        [low ^ (mid << 64), high ^ (mid >> 64)]
    }

    /// XOR of the unreduced products `a[i] · b[i]` over the common prefix of the slices.
    pub fn xor_sum_of_products64(a: &[u64], b: &[u64]) -> u128 {
        a.iter().zip(b).fold(0, |acc, (&x, &y)| acc ^ clmul64(x, y))
    }

    /// XOR of the unreduced 256-bit products `a[i] · b[i]`, as `[low, high]`.
    ///
    /// The Karatsuba middle terms are accumulated separately and recombined once.
    pub fn xor_sum_of_products128(a: &[u128], b: &[u128]) -> [u128; 2] {
        let (mut low, mut high, mut mid) = (0u128, 0u128, 0u128);
        for (&x, &y) in a.iter().zip(b) {
            let (x0, x1) = (x as u64, (x >> 64) as u64);
            let (y0, y1) = (y as u64, (y >> 64) as u64);
            let l = clmul64(x0, y0);
            let h = clmul64(x1, y1);
            low ^= l;
            high ^= h;
            mid ^= clmul64(x0 ^ x1, y0 ^ y1) ^ l ^ h;
        }
        [low ^ (mid << 64), high ^ (mid >> 64)]
    }
}

/// `PCLMULQDQ` kernels. Every function requires the `pclmulqdq` CPU feature; [`Backend`] only
/// calls them after detecting it.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::{
        __m128i, _mm_clmulepi64_si128, _mm_cvtsi128_si64, _mm_set_epi64x, _mm_setzero_si128,
        _mm_unpackhi_epi64, _mm_xor_si128,
    };

    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    fn to_u128(v: __m128i) -> u128 {
        let low = _mm_cvtsi128_si64(v) as u64;
        let high = _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64;
        ((high as u128) << 64) | low as u128
    }

    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    fn from_u128(v: u128) -> __m128i {
        _mm_set_epi64x((v >> 64) as i64, v as i64)
    }

    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(super) fn clmul64(a: u64, b: u64) -> u128 {
        let x = _mm_set_epi64x(0, a as i64);
        let y = _mm_set_epi64x(0, b as i64);
        to_u128(_mm_clmulepi64_si128::<0x00>(x, y))
    }

    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    fn clmul128_parts(x: __m128i, y: __m128i) -> (__m128i, __m128i, __m128i) {
        let low = _mm_clmulepi64_si128::<0x00>(x, y);
        let high = _mm_clmulepi64_si128::<0x11>(x, y);
        let mid = _mm_xor_si128(_mm_clmulepi64_si128::<0x01>(x, y), _mm_clmulepi64_si128::<0x10>(x, y));
        (low, high, mid)
    }

    #[inline]
    fn combine(low: u128, high: u128, mid: u128) -> [u128; 2] {
        [low ^ (mid << 64), high ^ (mid >> 64)]
    }

    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(super) fn clmul128(a: u128, b: u128) -> [u128; 2] {
        let (low, high, mid) = clmul128_parts(from_u128(a), from_u128(b));
        combine(to_u128(low), to_u128(high), to_u128(mid))
    }

    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(super) fn xor_sum_of_products64(a: &[u64], b: &[u64]) -> u128 {
        let n = a.len().min(b.len());
        let (a, b) = (&a[..n], &b[..n]);
        let mut acc0 = _mm_setzero_si128();
        let mut acc1 = _mm_setzero_si128();
        let mut pairs_a = a.chunks_exact(2);
        let mut pairs_b = b.chunks_exact(2);
        for (pa, pb) in (&mut pairs_a).zip(&mut pairs_b) {
            let x = _mm_set_epi64x(pa[1] as i64, pa[0] as i64);
            let y = _mm_set_epi64x(pb[1] as i64, pb[0] as i64);
            acc0 = _mm_xor_si128(acc0, _mm_clmulepi64_si128::<0x00>(x, y));
            acc1 = _mm_xor_si128(acc1, _mm_clmulepi64_si128::<0x11>(x, y));
        }
        let mut acc = to_u128(_mm_xor_si128(acc0, acc1));
        for (&x, &y) in pairs_a.remainder().iter().zip(pairs_b.remainder()) {
            acc ^= clmul64(x, y);
        }
        acc
    }

    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(super) fn xor_sum_of_products128(a: &[u128], b: &[u128]) -> [u128; 2] {
        let mut low = _mm_setzero_si128();
        let mut high = _mm_setzero_si128();
        let mut mid = _mm_setzero_si128();
        for (&x, &y) in a.iter().zip(b) {
            let (l, h, m) = clmul128_parts(from_u128(x), from_u128(y));
            low = _mm_xor_si128(low, l);
            high = _mm_xor_si128(high, h);
            mid = _mm_xor_si128(mid, m);
        }
        combine(to_u128(low), to_u128(high), to_u128(mid))
    }
}

/// A carry-less multiplication backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Constant-time integer arithmetic, available everywhere.
    Portable,
    /// x86-64 `PCLMULQDQ` (only constructed when the CPU has it).
    #[cfg(target_arch = "x86_64")]
    Pclmulqdq,
}

impl Backend {
    /// The fastest backend this CPU supports (the portable one under `force-portable`).
    #[inline]
    pub fn detect() -> Self {
        if cfg!(feature = "force-portable") {
            return Backend::Portable;
        }
        Self::native().unwrap_or(Backend::Portable)
    }

    /// Every backend usable on this CPU, portable first (for cross-checks and benchmarks; ignores
    /// `force-portable`).
    pub fn available() -> Vec<Self> {
        core::iter::once(Backend::Portable).chain(Self::native()).collect()
    }

    /// The hardware backend, if this CPU has one.
    #[inline]
    fn native() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            if crate::arch::Cpu::detected().pclmulqdq {
                return Some(Backend::Pclmulqdq);
            }
        }
        None
    }

    /// The 128-bit carry-less product of `a` and `b`.
    #[inline]
    pub fn clmul64(self, a: u64, b: u64) -> u128 {
        match self {
            Backend::Portable => portable::clmul64(a, b),
            // SAFETY: `Pclmulqdq` is only constructed after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { x86::clmul64(a, b) },
        }
    }

    /// The 256-bit carry-less product `[low, high]` of `a` and `b`.
    #[inline]
    pub fn clmul128(self, a: u128, b: u128) -> [u128; 2] {
        match self {
            Backend::Portable => portable::clmul128(a, b),
            // SAFETY: `Pclmulqdq` is only constructed after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { x86::clmul128(a, b) },
        }
    }

    /// XOR of the unreduced products `a[i] · b[i]` (over the shorter length).
    pub fn xor_sum_of_products64(self, a: &[u64], b: &[u64]) -> u128 {
        match self {
            Backend::Portable => portable::xor_sum_of_products64(a, b),
            // SAFETY: `Pclmulqdq` is only constructed after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { x86::xor_sum_of_products64(a, b) },
        }
    }

    /// XOR of the unreduced 256-bit products `a[i] · b[i]` as `[low, high]` (over the shorter
    /// length).
    pub fn xor_sum_of_products128(self, a: &[u128], b: &[u128]) -> [u128; 2] {
        match self {
            Backend::Portable => portable::xor_sum_of_products128(a, b),
            // SAFETY: `Pclmulqdq` is only constructed after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { x86::xor_sum_of_products128(a, b) },
        }
    }
}

/// The 128-bit carry-less product with the detected backend.
#[inline]
pub fn clmul64(a: u64, b: u64) -> u128 {
    Backend::detect().clmul64(a, b)
}

/// The 256-bit carry-less product `[low, high]` with the detected backend.
#[inline]
pub fn clmul128(a: u128, b: u128) -> [u128; 2] {
    Backend::detect().clmul128(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Textbook shift-and-XOR product, the reference every backend is checked against.
    fn schoolbook64(a: u64, b: u64) -> u128 {
        (0..64).filter(|i| (b >> i) & 1 == 1).fold(0, |acc, i| acc ^ ((a as u128) << i))
    }

    fn schoolbook128(a: u128, b: u128) -> [u128; 2] {
        let mut out = [0u128; 2];
        for i in 0..128 {
            if (b >> i) & 1 == 1 {
                out[0] ^= a << i;
                if i > 0 {
                    out[1] ^= a >> (128 - i);
                }
            }
        }
        out
    }

    #[test]
    fn extreme_operands() {
        for backend in Backend::available() {
            assert_eq!(backend.clmul64(u64::MAX, u64::MAX), schoolbook64(u64::MAX, u64::MAX));
            assert_eq!(backend.clmul64(1 << 63, 1 << 63), 1 << 126);
            assert_eq!(backend.clmul128(u128::MAX, u128::MAX), schoolbook128(u128::MAX, u128::MAX));
            assert_eq!(backend.clmul128(1 << 127, 1 << 127), [0, 1 << 126]);
        }
    }

    #[test]
    fn detect_picks_an_available_backend() {
        assert!(Backend::available().contains(&Backend::detect()));
        assert_eq!(Backend::available()[0], Backend::Portable);
        if cfg!(feature = "force-portable") {
            assert_eq!(Backend::detect(), Backend::Portable);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(0xc1a5), ..ProptestConfig::default() })]

        #[test]
        fn backends_match_schoolbook(a: u64, b: u64, c: u128, d: u128) {
            for backend in Backend::available() {
                prop_assert_eq!(backend.clmul64(a, b), schoolbook64(a, b));
                prop_assert_eq!(backend.clmul128(c, d), schoolbook128(c, d));
            }
        }

        #[test]
        fn sums_of_products_match(xs in proptest::collection::vec(any::<(u64, u64)>(), 0..19),
                                  ys in proptest::collection::vec(any::<(u128, u128)>(), 0..9)) {
            let (a, b): (Vec<u64>, Vec<u64>) = xs.into_iter().unzip();
            let expected = a.iter().zip(&b).fold(0, |acc, (&x, &y)| acc ^ schoolbook64(x, y));
            let (c, d): (Vec<u128>, Vec<u128>) = ys.into_iter().unzip();
            let expected128 = c.iter().zip(&d).fold([0, 0], |acc, (&x, &y)| {
                let p = schoolbook128(x, y);
                [acc[0] ^ p[0], acc[1] ^ p[1]]
            });
            for backend in Backend::available() {
                prop_assert_eq!(backend.xor_sum_of_products64(&a, &b), expected);
                prop_assert_eq!(backend.xor_sum_of_products128(&c, &d), expected128);
            }
        }
    }
}
