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
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("ssse3") {
            &[Portable, Ssse3, Avx2]
        } else if std::is_x86_feature_detected!("ssse3") {
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
            #[cfg(target_arch = "x86_64")]
            Gf256Backend::Ssse3 => unsafe { x86::mul_slices_ssse3(dst, a, b) },
            #[cfg(target_arch = "x86_64")]
            Gf256Backend::Avx2 => unsafe { x86::mul_slices_avx2(dst, a, b) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Gf256Backend::Simd128 => unsafe { lanes::mul_slices::<wasm::Simd128>(dst, a, b) },
        }
    }

    /// Replaces every element by its inverse (`0 ↦ 0`).
    pub fn inverse_slice(self, values: &mut [u8]) {
        match self {
            Gf256Backend::Portable => portable::inverse_slice(values),
            #[cfg(target_arch = "x86_64")]
            Gf256Backend::Ssse3 => unsafe { x86::inverse_slice_ssse3(values) },
            #[cfg(target_arch = "x86_64")]
            Gf256Backend::Avx2 => unsafe { x86::inverse_slice_avx2(values) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Gf256Backend::Simd128 => unsafe { lanes::inverse_slice::<wasm::Simd128>(values) },
        }
    }
}

/// `a · b` on single bytes, constant time (the scalar reference for table construction).
const fn mul_byte(a: u8, b: u8) -> u8 {
    super::Gf256::mul_const_time(a, b)
}

/// The nibble tables `(c·i, c·(i << 4))` for `i < 16`.
fn scalar_tables(c: u8) -> ([u8; 16], [u8; 16]) {
    let mut low = [0u8; 16];
    let mut high = [0u8; 16];
    for i in 0..16u8 {
        low[i as usize] = mul_byte(c, i);
        high[i as usize] = mul_byte(c, i << 4);
    }
    (low, high)
}

/// Nibble tables of the (public, linear) squaring map.
const SQUARE_TABLES: ([u8; 16], [u8; 16]) = {
    let mut low = [0u8; 16];
    let mut high = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        low[i] = mul_byte(i as u8, i as u8);
        high[i] = mul_byte((i as u8) << 4, (i as u8) << 4);
        i += 1;
    }
    (low, high)
};

mod portable {
    use super::{mul_byte, POLY_LOW};

    const ONES: u64 = 0x0101_0101_0101_0101;

    /// Multiplies each byte lane by x.
    #[inline]
    fn times_x(a: u64) -> u64 {
        ((a & (0x7f * ONES)) << 1) ^ (((a >> 7) & ONES) * POLY_LOW as u64)
    }

    /// Eight lane-wise products.
    #[inline]
    fn mul_words(a: u64, b: u64) -> u64 {
        let mut acc = 0;
        let mut a = a;
        for i in 0..8 {
            acc ^= a & (((b >> i) & ONES) * 0xff);
            a = times_x(a);
        }
        acc
    }

    /// Eight lane-wise inverses `x^254`.
    #[inline]
    fn inverse_word(x: u64) -> u64 {
        let x2 = mul_words(x, x);
        let x3 = mul_words(x2, x);
        let x6 = mul_words(x3, x3);
        let x12 = mul_words(x6, x6);
        let x15 = mul_words(x12, x3);
        let x30 = mul_words(x15, x15);
        let x60 = mul_words(x30, x30);
        let x120 = mul_words(x60, x60);
        let x240 = mul_words(x120, x120);
        mul_words(mul_words(x240, x12), x2)
    }

    /// Up to eight bytes as a little-endian word (missing bytes are zero).
    #[inline]
    fn load(bytes: &[u8]) -> u64 {
        let mut buffer = [0u8; 8];
        buffer[..bytes.len()].copy_from_slice(bytes);
        u64::from_le_bytes(buffer)
    }

    #[inline]
    fn store(word: u64, out: &mut [u8]) {
        let n = out.len();
        out.copy_from_slice(&word.to_le_bytes()[..n]);
    }

    pub(super) fn mul_add_scalar(dst: &mut [u8], src: &[u8], c: u8) {
        let mut multiples = [0u64; 8];
        let mut power = c;
        for m in multiples.iter_mut() {
            *m = power as u64 * ONES;
            power = mul_byte(power, 2);
        }
        for (d, s) in dst.chunks_mut(8).zip(src.chunks(8)) {
            let s = load(s);
            let product = multiples
                .iter()
                .enumerate()
                .fold(0, |acc, (i, m)| acc ^ (m & (((s >> i) & ONES) * 0xff)));
            store(load(d) ^ product, d);
        }
    }

    pub(super) fn mul_slices(dst: &mut [u8], a: &[u8], b: &[u8]) {
        for ((d, x), y) in dst.chunks_mut(8).zip(a.chunks(8)).zip(b.chunks(8)) {
            store(mul_words(load(x), load(y)), d);
        }
    }

    pub(super) fn inverse_slice(values: &mut [u8]) {
        for chunk in values.chunks_mut(8) {
            store(inverse_word(load(chunk)), chunk);
        }
    }
}

/// Kernels written once against byte-lane vector operations, instantiated per SIMD backend.
#[cfg(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))]
mod lanes {
    use super::{portable, scalar_tables, POLY_LOW, SQUARE_TABLES};

    /// Byte-lane vector operations.
    ///
    /// # Safety
    /// Every method requires the CPU feature of the implementing backend.
    pub(super) trait ByteLanes: Copy {
        const LANES: usize;
        unsafe fn splat(byte: u8) -> Self;
        /// The 16-byte table repeated in every 128-bit lane.
        unsafe fn table(table: &[u8; 16]) -> Self;
        /// Loads `LANES` bytes; `bytes.len() >= LANES`.
        unsafe fn load(bytes: &[u8]) -> Self;
        /// Stores `LANES` bytes; `out.len() >= LANES`.
        unsafe fn store(self, out: &mut [u8]);
        unsafe fn xor(self, other: Self) -> Self;
        unsafe fn and(self, other: Self) -> Self;
        /// Lane-wise wrapping `self + self` (a left shift by one inside each byte).
        unsafe fn double(self) -> Self;
        /// 0xff in lanes whose top bit is set.
        unsafe fn top_bit_mask(self) -> Self;
        /// 0xff in lanes equal to `other`.
        unsafe fn equal(self, other: Self) -> Self;
        /// Lane-wise logical shift right by four.
        unsafe fn high_nibbles(self) -> Self;
        /// `table[index]` per lane, for indices below 16.
        unsafe fn lookup(table: Self, index: Self) -> Self;
    }

    #[inline(always)]
    unsafe fn apply_tables<V: ByteLanes>(v: V, low: V, high: V, nibble_mask: V) -> V {
        // SAFETY: the caller guarantees the backend's feature.
        unsafe { V::lookup(low, v.and(nibble_mask)).xor(V::lookup(high, v.high_nibbles())) }
    }

    #[inline(always)]
    unsafe fn mul<V: ByteLanes>(a: V, b: V) -> V {
        // SAFETY: the caller guarantees the backend's feature.
        unsafe {
            let poly = V::splat(POLY_LOW);
            let mut acc = V::splat(0);
            let mut a = a;
            for i in 0..8 {
                let bit = V::splat(1 << i);
                acc = acc.xor(a.and(b.and(bit).equal(bit)));
                a = a.double().xor(a.top_bit_mask().and(poly));
            }
            acc
        }
    }

    /// # Safety
    /// Requires the CPU feature of `V`.
    #[inline(always)]
    pub(super) unsafe fn mul_add_scalar<V: ByteLanes>(dst: &mut [u8], src: &[u8], c: u8) {
        let (low, high) = scalar_tables(c);
        // SAFETY: the caller guarantees the backend's feature; chunks have exactly LANES bytes.
        unsafe {
            let (low, high, nibble_mask) = (V::table(&low), V::table(&high), V::splat(0x0f));
            let mut dst_chunks = dst.chunks_exact_mut(V::LANES);
            let mut src_chunks = src.chunks_exact(V::LANES);
            for (d, s) in (&mut dst_chunks).zip(&mut src_chunks) {
                let product = apply_tables(V::load(s), low, high, nibble_mask);
                V::load(d).xor(product).store(d);
            }
            portable::mul_add_scalar(dst_chunks.into_remainder(), src_chunks.remainder(), c);
        }
    }

    /// # Safety
    /// Requires the CPU feature of `V`.
    #[inline(always)]
    pub(super) unsafe fn mul_slices<V: ByteLanes>(dst: &mut [u8], a: &[u8], b: &[u8]) {
        // SAFETY: the caller guarantees the backend's feature; chunks have exactly LANES bytes.
        unsafe {
            let mut dst_chunks = dst.chunks_exact_mut(V::LANES);
            let mut a_chunks = a.chunks_exact(V::LANES);
            let mut b_chunks = b.chunks_exact(V::LANES);
            for ((d, x), y) in (&mut dst_chunks).zip(&mut a_chunks).zip(&mut b_chunks) {
                mul(V::load(x), V::load(y)).store(d);
            }
            portable::mul_slices(dst_chunks.into_remainder(), a_chunks.remainder(), b_chunks.remainder());
        }
    }

    /// # Safety
    /// Requires the CPU feature of `V`.
    #[inline(always)]
    pub(super) unsafe fn inverse_slice<V: ByteLanes>(values: &mut [u8]) {
        // SAFETY: the caller guarantees the backend's feature; chunks have exactly LANES bytes.
        unsafe {
            let (sq_low, sq_high, nibble_mask) =
                (V::table(&SQUARE_TABLES.0), V::table(&SQUARE_TABLES.1), V::splat(0x0f));
            let square = |v: V| apply_tables(v, sq_low, sq_high, nibble_mask);
            let mut chunks = values.chunks_exact_mut(V::LANES);
            for chunk in &mut chunks {
                let x = V::load(chunk);
                let x2 = square(x);
                let x3 = mul(x2, x);
                let x12 = square(square(x3));
                let x15 = mul(x12, x3);
                let x240 = square(square(square(square(x15))));
                mul(mul(x240, x12), x2).store(chunk);
            }
            portable::inverse_slice(chunks.into_remainder());
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::lanes::{self, ByteLanes};
    use core::arch::x86_64::*;

    #[derive(Clone, Copy)]
    pub(super) struct Sse(__m128i);
    #[derive(Clone, Copy)]
    pub(super) struct Avx(__m256i);

    // SAFETY (both impls): each method is only reached through the `#[target_feature]` entry points
    // below, after run-time detection; loads and stores stay within slices of at least LANES bytes.
    impl ByteLanes for Sse {
        const LANES: usize = 16;
        #[inline(always)]
        unsafe fn splat(byte: u8) -> Self {
            Sse(unsafe { _mm_set1_epi8(byte as i8) })
        }
        #[inline(always)]
        unsafe fn table(table: &[u8; 16]) -> Self {
            Sse(unsafe { _mm_loadu_si128(table.as_ptr().cast()) })
        }
        #[inline(always)]
        unsafe fn load(bytes: &[u8]) -> Self {
            debug_assert!(bytes.len() >= 16);
            Sse(unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) })
        }
        #[inline(always)]
        unsafe fn store(self, out: &mut [u8]) {
            debug_assert!(out.len() >= 16);
            unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), self.0) }
        }
        #[inline(always)]
        unsafe fn xor(self, other: Self) -> Self {
            Sse(unsafe { _mm_xor_si128(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn and(self, other: Self) -> Self {
            Sse(unsafe { _mm_and_si128(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn double(self) -> Self {
            Sse(unsafe { _mm_add_epi8(self.0, self.0) })
        }
        #[inline(always)]
        unsafe fn top_bit_mask(self) -> Self {
            Sse(unsafe { _mm_cmplt_epi8(self.0, _mm_setzero_si128()) })
        }
        #[inline(always)]
        unsafe fn equal(self, other: Self) -> Self {
            Sse(unsafe { _mm_cmpeq_epi8(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn high_nibbles(self) -> Self {
            Sse(unsafe { _mm_and_si128(_mm_srli_epi16::<4>(self.0), _mm_set1_epi8(0x0f)) })
        }
        #[inline(always)]
        unsafe fn lookup(table: Self, index: Self) -> Self {
            Sse(unsafe { _mm_shuffle_epi8(table.0, index.0) })
        }
    }

    impl ByteLanes for Avx {
        const LANES: usize = 32;
        #[inline(always)]
        unsafe fn splat(byte: u8) -> Self {
            Avx(unsafe { _mm256_set1_epi8(byte as i8) })
        }
        #[inline(always)]
        unsafe fn table(table: &[u8; 16]) -> Self {
            Avx(unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast())) })
        }
        #[inline(always)]
        unsafe fn load(bytes: &[u8]) -> Self {
            debug_assert!(bytes.len() >= 32);
            Avx(unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) })
        }
        #[inline(always)]
        unsafe fn store(self, out: &mut [u8]) {
            debug_assert!(out.len() >= 32);
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), self.0) }
        }
        #[inline(always)]
        unsafe fn xor(self, other: Self) -> Self {
            Avx(unsafe { _mm256_xor_si256(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn and(self, other: Self) -> Self {
            Avx(unsafe { _mm256_and_si256(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn double(self) -> Self {
            Avx(unsafe { _mm256_add_epi8(self.0, self.0) })
        }
        #[inline(always)]
        unsafe fn top_bit_mask(self) -> Self {
            Avx(unsafe { _mm256_cmpgt_epi8(_mm256_setzero_si256(), self.0) })
        }
        #[inline(always)]
        unsafe fn equal(self, other: Self) -> Self {
            Avx(unsafe { _mm256_cmpeq_epi8(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn high_nibbles(self) -> Self {
            Avx(unsafe { _mm256_and_si256(_mm256_srli_epi16::<4>(self.0), _mm256_set1_epi8(0x0f)) })
        }
        #[inline(always)]
        unsafe fn lookup(table: Self, index: Self) -> Self {
            // vpshufb looks up within each 128-bit lane; `table` repeats the table in both lanes.
            Avx(unsafe { _mm256_shuffle_epi8(table.0, index.0) })
        }
    }

    #[target_feature(enable = "ssse3")]
    pub(super) unsafe fn mul_add_scalar_ssse3(dst: &mut [u8], src: &[u8], c: u8) {
        unsafe { lanes::mul_add_scalar::<Sse>(dst, src, c) }
    }
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn mul_add_scalar_avx2(dst: &mut [u8], src: &[u8], c: u8) {
        unsafe { lanes::mul_add_scalar::<Avx>(dst, src, c) }
    }
    #[target_feature(enable = "ssse3")]
    pub(super) unsafe fn mul_slices_ssse3(dst: &mut [u8], a: &[u8], b: &[u8]) {
        unsafe { lanes::mul_slices::<Sse>(dst, a, b) }
    }
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn mul_slices_avx2(dst: &mut [u8], a: &[u8], b: &[u8]) {
        unsafe { lanes::mul_slices::<Avx>(dst, a, b) }
    }
    #[target_feature(enable = "ssse3")]
    pub(super) unsafe fn inverse_slice_ssse3(values: &mut [u8]) {
        unsafe { lanes::inverse_slice::<Sse>(values) }
    }
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn inverse_slice_avx2(values: &mut [u8]) {
        unsafe { lanes::inverse_slice::<Avx>(values) }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm {
    use super::lanes::ByteLanes;
    use core::arch::wasm32::*;

    #[derive(Clone, Copy)]
    pub(super) struct Simd128(v128);

    // The crate is compiled with simd128 enabled, so the intrinsics are safe to call; only the raw
    // loads and stores need `unsafe`, and they stay within slices of at least 16 bytes.
    impl ByteLanes for Simd128 {
        const LANES: usize = 16;
        #[inline(always)]
        unsafe fn splat(byte: u8) -> Self {
            Simd128(u8x16_splat(byte))
        }
        #[inline(always)]
        unsafe fn table(table: &[u8; 16]) -> Self {
            Simd128(unsafe { v128_load(table.as_ptr().cast()) })
        }
        #[inline(always)]
        unsafe fn load(bytes: &[u8]) -> Self {
            debug_assert!(bytes.len() >= 16);
            Simd128(unsafe { v128_load(bytes.as_ptr().cast()) })
        }
        #[inline(always)]
        unsafe fn store(self, out: &mut [u8]) {
            debug_assert!(out.len() >= 16);
            unsafe { v128_store(out.as_mut_ptr().cast(), self.0) }
        }
        #[inline(always)]
        unsafe fn xor(self, other: Self) -> Self {
            Simd128(v128_xor(self.0, other.0))
        }
        #[inline(always)]
        unsafe fn and(self, other: Self) -> Self {
            Simd128(v128_and(self.0, other.0))
        }
        #[inline(always)]
        unsafe fn double(self) -> Self {
            Simd128(u8x16_add(self.0, self.0))
        }
        #[inline(always)]
        unsafe fn top_bit_mask(self) -> Self {
            Simd128(i8x16_lt(self.0, i8x16_splat(0)))
        }
        #[inline(always)]
        unsafe fn equal(self, other: Self) -> Self {
            Simd128(i8x16_eq(self.0, other.0))
        }
        #[inline(always)]
        unsafe fn high_nibbles(self) -> Self {
            Simd128(u8x16_shr(self.0, 4))
        }
        #[inline(always)]
        unsafe fn lookup(table: Self, index: Self) -> Self {
            Simd128(i8x16_swizzle(table.0, index.0))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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

                let c = rng.next_u32() as u8;
                let mut acc = b.clone();
                backend.mul_add_scalar(&mut acc, &a, c);
                let expected: Vec<u8> = a.iter().zip(&b).map(|(&x, &y)| y ^ mul_byte(c, x)).collect();
                assert_eq!(acc, expected, "{backend:?} mul_add_scalar, len {len}, c {c:#04x}");

                let mut inverses = a.clone();
                backend.inverse_slice(&mut inverses);
                let expected: Vec<u8> = a.iter().map(|&x| crate::field::Field::inverse(crate::field::Gf256(x)).0).collect();
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
