//! Two GF(2^64) lanes in one SSE register with PCLMULQDQ (x86-64): the register arithmetic of
//! MAESTRO's batch verification (`proto::maestro::verify::inner_product`), where the two
//! components of a replicated share travel together so two products share one vectorised
//! reduction.
//!
//! Every method needs SSE2 and PCLMULQDQ; they are `#[target_feature]` functions, callable
//! safely from kernels compiled with those features, which callers only enter after
//! [`super::clmul::Backend::detect`] returned `Pclmulqdq`. Constant time (carry-less multiplies,
//! shifts, XORs; no data-dependent branch or index). Tested against [`super::Gf64`] below and,
//! through the verification kernels, against the portable backend.

use core::arch::x86_64::{
    __m128i, _mm_clmulepi64_si128, _mm_cvtsi128_si64, _mm_set_epi64x, _mm_setzero_si128, _mm_slli_epi64,
    _mm_srli_epi64, _mm_unpackhi_epi64, _mm_unpacklo_epi64, _mm_xor_si128,
};

/// Lanes `[first, second]` of 64 bits each (reduced field elements, or the two halves of one
/// unreduced 128-bit product).
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub(crate) struct Gf64x2(__m128i);

impl Gf64x2 {
    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(crate) fn new(first: u64, second: u64) -> Self {
        Gf64x2(_mm_set_epi64x(second as i64, first as i64))
    }

    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(crate) fn zero() -> Self {
        Gf64x2(_mm_setzero_si128())
    }

    /// `[first, second]`.
    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(crate) fn lanes(self) -> [u64; 2] {
        let first = _mm_cvtsi128_si64(self.0) as u64;
        let second = _mm_cvtsi128_si64(_mm_unpackhi_epi64(self.0, self.0)) as u64;
        [first, second]
    }

    /// `second · 2^64 + first` (an unreduced product).
    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(crate) fn to_u128(self) -> u128 {
        let [first, second] = self.lanes();
        u128::from(second) << 64 | u128::from(first)
    }

    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(crate) fn xor(self, other: Self) -> Self {
        Gf64x2(_mm_xor_si128(self.0, other.0))
    }

    /// `[self.first, other.first]`.
    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(crate) fn firsts(self, other: Self) -> Self {
        Gf64x2(_mm_unpacklo_epi64(self.0, other.0))
    }

    /// `[self.second, other.second]`.
    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(crate) fn seconds(self, other: Self) -> Self {
        Gf64x2(_mm_unpackhi_epi64(self.0, other.0))
    }

    /// The unreduced 128-bit product of one lane of `self` and one of `other`, PCLMULQDQ's
    /// immediate: bit 0 picks `self`'s lane, bit 4 `other`'s (`0x00`, `0x01`, `0x10`, `0x11`).
    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(crate) fn clmul<const IMM: i32>(self, other: Self) -> Self {
        Gf64x2(_mm_clmulepi64_si128::<IMM>(self.0, other.0))
    }

    /// h·(Y^4 + Y^3 + Y + 1) on each lane, keeping the low 64 bits.
    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    fn times_tail(h: __m128i) -> __m128i {
        let a = _mm_xor_si128(h, _mm_slli_epi64::<1>(h));
        _mm_xor_si128(a, _mm_xor_si128(_mm_slli_epi64::<3>(h), _mm_slli_epi64::<4>(h)))
    }

    /// The reductions of two unreduced 128-bit products, lane-wise as [`super::Gf64::reduce`]:
    /// `[reduce(p0), reduce(p1)]`.
    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(crate) fn reduce2(p0: Self, p1: Self) -> Self {
        let low = _mm_unpacklo_epi64(p0.0, p1.0);
        let high = _mm_unpackhi_epi64(p0.0, p1.0);
        let spill = _mm_xor_si128(
            _mm_srli_epi64::<63>(high),
            _mm_xor_si128(_mm_srli_epi64::<61>(high), _mm_srli_epi64::<60>(high)),
        );
        Gf64x2(_mm_xor_si128(low, _mm_xor_si128(Self::times_tail(high), Self::times_tail(spill))))
    }

    /// Both lanes of `self` times `other.first`, reduced.
    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(crate) fn mul_by_first(self, other: Self) -> Self {
        Self::reduce2(self.clmul::<0x00>(other), self.clmul::<0x01>(other))
    }

    /// Both lanes of `self` times `other.second`, reduced.
    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    pub(crate) fn mul_by_second(self, other: Self) -> Self {
        Self::reduce2(self.clmul::<0x10>(other), self.clmul::<0x11>(other))
    }
}

/// Reference check of the lane arithmetic against [`Gf64`].
#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::clmul::portable;
    use crate::field::Gf64;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(0x6464), ..ProptestConfig::default() })]

        #[test]
        fn lanes_match_gf64(a: u64, b: u64, c: u64, d: u64) {
            if !crate::arch::Cpu::detected().pclmulqdq {
                return Ok(());
            }
            let mul = |x: u64, y: u64| Gf64::reduce(portable::clmul64(x, y)).0;
            // SAFETY: PCLMULQDQ (and the SSE2 baseline) were detected above.
            let (first, second, product, lanes) = unsafe {
                let (x, y) = (Gf64x2::new(a, b), Gf64x2::new(c, d));
                (x.mul_by_first(y).lanes(), x.mul_by_second(y).lanes(), x.clmul::<0x11>(y).to_u128(),
                 (x.firsts(y).lanes(), x.seconds(y).lanes(), x.xor(y).lanes()))
            };
            prop_assert_eq!(first, [mul(a, c), mul(b, c)]);
            prop_assert_eq!(second, [mul(a, d), mul(b, d)]);
            prop_assert_eq!(product, portable::clmul64(b, d));
            prop_assert_eq!(lanes, ([a, c], [b, d], [a ^ c, b ^ d]));
        }
    }
}
