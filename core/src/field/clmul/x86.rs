//! `PCLMULQDQ` kernels. Every function requires the `pclmulqdq` CPU feature; [`super::Backend`]
//! only calls them after detecting it.
use core::arch::x86_64::{
    __m128i, _mm_clmulepi64_si128, _mm_cvtsi128_si64, _mm_set_epi64x, _mm_setzero_si128, _mm_unpackhi_epi64,
    _mm_xor_si128,
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

#[target_feature(enable = "sse2,pclmulqdq")]
pub(super) fn xor_products64_into(a: &[u64], b: &[u64], acc: &mut [u128]) {
    for ((&x, &y), z) in a.iter().zip(b).zip(acc.iter_mut()) {
        *z ^= clmul64(x, y);
    }
}

#[target_feature(enable = "sse2,pclmulqdq")]
pub(super) fn barrett_many(products: &[u128], field: super::BarrettConstants, out: &mut [u64]) {
    for (&p, o) in products.iter().zip(out.iter_mut()) {
        *o = field.reduce_by(p, |a, b| clmul64(a, b));
    }
}
