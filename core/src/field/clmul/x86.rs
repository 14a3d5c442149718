//! `PCLMULQDQ` kernels. Every function requires the `pclmulqdq` CPU feature; [`super::Backend`]
//! only calls them after detecting it.
use core::arch::x86_64::{
    __m128i, __m256i, _mm256_and_si256, _mm256_castsi256_si128, _mm256_clmulepi64_epi128,
    _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_permute2x128_si256, _mm256_permute4x64_epi64,
    _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_sll_epi64, _mm256_srl_epi64, _mm256_storeu_si256,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi64, _mm256_xor_si256, _mm_clmulepi64_si128, _mm_cvtsi128_si64,
    _mm_cvtsi64_si128, _mm_set_epi64x, _mm_setzero_si128, _mm_unpackhi_epi64, _mm_xor_si128,
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

/// `Σ a[i] · b[i]` unreduced, four products per step with VPCLMULQDQ where the CPU has it.
#[target_feature(enable = "sse2,pclmulqdq")]
pub(super) fn xor_sum_of_products64(a: &[u64], b: &[u64]) -> u128 {
    if wide() {
        // SAFETY: `wide` checked AVX2 and VPCLMULQDQ.
        return unsafe { xor_sum_of_products64_wide(a, b) };
    }
    xor_sum_of_products64_narrow(a, b)
}

#[target_feature(enable = "sse2,pclmulqdq")]
fn xor_sum_of_products64_narrow(a: &[u64], b: &[u64]) -> u128 {
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

/// `acc[i] ^= a[i] · b[i]`, four products per step with VPCLMULQDQ where the CPU has it.
#[target_feature(enable = "sse2,pclmulqdq")]
pub(super) fn xor_products64_into(a: &[u64], b: &[u64], acc: &mut [u128]) {
    if wide() {
        // SAFETY: `wide` checked AVX2 and VPCLMULQDQ.
        return unsafe { xor_products64_into_wide(a, b, acc) };
    }
    xor_products64_into_narrow(a, b, acc);
}

#[target_feature(enable = "sse2,pclmulqdq")]
fn xor_products64_into_narrow(a: &[u64], b: &[u64], acc: &mut [u128]) {
    for ((&x, &y), z) in a.iter().zip(b).zip(acc.iter_mut()) {
        *z ^= clmul64(x, y);
    }
}

/// Barrett reduction of each product, four per step with VPCLMULQDQ where the CPU has it.
#[target_feature(enable = "sse2,pclmulqdq")]
pub(super) fn barrett_many(products: &[u128], field: super::BarrettConstants, out: &mut [u64]) {
    if wide() {
        // SAFETY: `wide` checked AVX2 and VPCLMULQDQ.
        return unsafe { barrett_many_wide(products, field, out) };
    }
    barrett_many_narrow(products, field, out);
}

#[target_feature(enable = "sse2,pclmulqdq")]
fn barrett_many_narrow(products: &[u128], field: super::BarrettConstants, out: &mut [u64]) {
    for (&p, o) in products.iter().zip(out.iter_mut()) {
        *o = field.reduce_by(p, |a, b| clmul64(a, b));
    }
}

/// Whether the 256-bit kernels below may run (VPCLMULQDQ and AVX2 detected; chosen here, once
/// per call, so every caller of the `Pclmulqdq` backend gets them).
#[inline]
fn wide() -> bool {
    crate::arch::Cpu::detected().vpclmulqdq
}

/// Four consecutive `u64` as one vector.
#[inline]
#[target_feature(enable = "avx2")]
fn load4(words: &[u64; 4]) -> __m256i {
    // SAFETY: `words` is 32 readable bytes; the load is unaligned.
    unsafe { _mm256_loadu_si256(words.as_ptr().cast()) }
}

/// The products `[x0·y0, x1·y1]` and `[x2·y2, x3·y3]` of four lanes, each 128-bit lane one
/// unreduced product.
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn products4(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    let even = _mm256_clmulepi64_epi128::<0x00>(x, y); // [x0·y0, x2·y2]
    let odd = _mm256_clmulepi64_epi128::<0x11>(x, y); // [x1·y1, x3·y3]
    (_mm256_permute2x128_si256::<0x20>(even, odd), _mm256_permute2x128_si256::<0x31>(even, odd))
}

#[target_feature(enable = "avx2,pclmulqdq,vpclmulqdq")]
fn xor_products64_into_wide(a: &[u64], b: &[u64], acc: &mut [u128]) {
    let n = a.len().min(b.len()).min(acc.len());
    let (a, b, acc) = (&a[..n], &b[..n], &mut acc[..n]);
    let mut xs = a.chunks_exact(4);
    let mut ys = b.chunks_exact(4);
    let mut zs = acc.chunks_exact_mut(4);
    for ((x, y), z) in (&mut xs).zip(&mut ys).zip(&mut zs) {
        let (x, y) = (load4(x.try_into().expect("4 words")), load4(y.try_into().expect("4 words")));
        let (low, high) = products4(x, y);
        let z: &mut [u128; 4] = z.try_into().expect("4 products");
        // SAFETY: `z` is 64 writable bytes, read and written as two unaligned 32-byte vectors.
        unsafe {
            let p = z.as_mut_ptr().cast::<__m256i>();
            _mm256_storeu_si256(p, _mm256_xor_si256(_mm256_loadu_si256(p), low));
            _mm256_storeu_si256(p.add(1), _mm256_xor_si256(_mm256_loadu_si256(p.add(1)), high));
        }
    }
    for ((&x, &y), z) in xs.remainder().iter().zip(ys.remainder()).zip(zs.into_remainder()) {
        *z ^= clmul64(x, y);
    }
}

#[target_feature(enable = "avx2,pclmulqdq,vpclmulqdq")]
fn xor_sum_of_products64_wide(a: &[u64], b: &[u64]) -> u128 {
    let n = a.len().min(b.len());
    let mut xs = a[..n].chunks_exact(4);
    let mut ys = b[..n].chunks_exact(4);
    let (mut even, mut odd) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    for (x, y) in (&mut xs).zip(&mut ys) {
        let (x, y) = (load4(x.try_into().expect("4 words")), load4(y.try_into().expect("4 words")));
        even = _mm256_xor_si256(even, _mm256_clmulepi64_epi128::<0x00>(x, y));
        odd = _mm256_xor_si256(odd, _mm256_clmulepi64_epi128::<0x11>(x, y));
    }
    let sum = _mm256_xor_si256(even, odd);
    let mut acc = to_u128(_mm_xor_si128(_mm256_castsi256_si128(sum), _mm256_extracti128_si256::<1>(sum)));
    for (&x, &y) in xs.remainder().iter().zip(ys.remainder()) {
        acc ^= clmul64(x, y);
    }
    acc
}

/// `(v >> m)` as a 64-bit value in the low quadword of each 128-bit lane (for 1 ≤ m ≤ 64).
#[inline]
#[target_feature(enable = "avx2")]
fn shift_right_128(v: __m256i, m: __m128i, rest: __m128i) -> __m256i {
    _mm256_xor_si256(_mm256_srl_epi64(v, m), _mm256_sll_epi64(_mm256_unpackhi_epi64(v, v), rest))
}

#[target_feature(enable = "avx2,pclmulqdq,vpclmulqdq")]
fn barrett_many_wide(products: &[u128], field: super::BarrettConstants, out: &mut [u64]) {
    let m = _mm_cvtsi64_si128(i64::from(field.m));
    let rest = _mm_cvtsi64_si128(64 - i64::from(field.m));
    let barrett = _mm256_set1_epi64x(field.barrett_low as i64);
    let modulus = _mm256_set1_epi64x(field.modulus_low as i64);
    let mask = _mm256_set1_epi64x(field.mask as i64);
    // Each 128-bit lane of `p` is one product; the low quadword of the result is its reduction.
    let reduce = |p: __m256i| {
        let high = shift_right_128(p, m, rest);
        let t = _mm256_clmulepi64_epi128::<0x00>(high, barrett);
        let quotient = _mm256_xor_si256(high, shift_right_128(t, m, rest));
        _mm256_xor_si256(p, _mm256_clmulepi64_epi128::<0x00>(quotient, modulus))
    };
    let n = products.len().min(out.len());
    let mut ps = products[..n].chunks_exact(4);
    let mut os = out[..n].chunks_exact_mut(4);
    for (p, o) in (&mut ps).zip(&mut os) {
        let p: &[u128; 4] = p.try_into().expect("4 products");
        // SAFETY: `p` is 64 readable bytes, read as two unaligned 32-byte vectors.
        let (low, high) = unsafe {
            let ptr = p.as_ptr().cast::<__m256i>();
            (_mm256_loadu_si256(ptr), _mm256_loadu_si256(ptr.add(1)))
        };
        // [r0, r2, r1, r3] → [r0, r1, r2, r3].
        let r = _mm256_unpacklo_epi64(reduce(low), reduce(high));
        let r = _mm256_and_si256(_mm256_permute4x64_epi64::<0b11_01_10_00>(r), mask);
        let o: &mut [u64; 4] = o.try_into().expect("4 words");
        // SAFETY: `o` is 32 writable bytes; the store is unaligned.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), r) };
    }
    for (&p, o) in ps.remainder().iter().zip(os.into_remainder()) {
        *o = field.reduce_by(p, |a, b| clmul64(a, b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::clmul::Backend;
    use crate::field::BinaryField;
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    /// The 256-bit kernels against the one-product-at-a-time ones, every length up to three full
    /// vectors plus a remainder, in fields from GF(2) to GF(2^64).
    #[test]
    fn wide_kernels_match_the_narrow_ones() {
        if !wide() {
            eprintln!("skipped: this CPU has no VPCLMULQDQ");
            return;
        }
        let mut rng = ChaCha20Rng::seed_from_u64(42);
        for (m, low) in
            [(1, 1), (3, 0b011), (42, (1 << 7) | 1), (48, (1 << 9) | (1 << 7) | (1 << 4) | 1), (64, 0x1b)]
        {
            let field = BinaryField::new(m, low).expect("valid field");
            let element = |rng: &mut ChaCha20Rng| field.random(rng);
            for len in 0..=13 {
                let a: Vec<u64> = (0..len).map(|_| element(&mut rng)).collect();
                let b: Vec<u64> = (0..len).map(|_| element(&mut rng)).collect();
                let start: Vec<u128> = (0..len).map(|_| u128::from(rng.next_u64())).collect();
                let (mut wide_acc, mut narrow_acc) = (start.clone(), start);
                // SAFETY: `wide` checked the features; PCLMULQDQ comes with them.
                unsafe {
                    xor_products64_into_wide(&a, &b, &mut wide_acc);
                    xor_products64_into_narrow(&a, &b, &mut narrow_acc);
                }
                assert_eq!(wide_acc, narrow_acc, "products, m = {m}, length {len}");
                // SAFETY: as above.
                let sums =
                    unsafe { (xor_sum_of_products64_wide(&a, &b), xor_sum_of_products64_narrow(&a, &b)) };
                assert_eq!(sums.0, sums.1, "sum of products, m = {m}, length {len}");
                let products: Vec<u128> =
                    a.iter().zip(&b).map(|(&x, &y)| Backend::Portable.clmul64(x, y)).collect();
                let mut out = vec![0u64; len];
                // SAFETY: as above.
                unsafe { barrett_many_wide(&products, field.barrett(), &mut out) };
                let want: Vec<u64> =
                    products.iter().map(|&p| field.reduce_with(Backend::Portable, p)).collect();
                assert_eq!(out, want, "reductions, m = {m}, length {len}");
            }
        }
    }
}
