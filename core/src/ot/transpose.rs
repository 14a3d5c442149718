//! The bit-matrix transpose of OT extension (IKNP03; the MASCOT implementation notes call it out
//! as one of the two hot loops beside the PRG): the extension works on κ = 128 *columns* of N bits
//! each, and every OT needs its *row*, a 128-bit block.
//!
//! Three kernels, chosen in [`transpose_128`] (the one place):
//! - **byte-plane (SIMD)**: 16 rows × 8 columns at a time. A vector holds one byte of each of 16
//!   rows; the byte-wise sign-bit mask (`pmovmskb` on x86-64, where SSE2 is always present, or
//!   `i8x16.bitmask` in WASM builds with `simd128`) yields one column's 16 bits, and a 1-bit shift
//!   left of the 64-bit lanes brings the next column's bits into the sign positions (a bit that
//!   crosses into the next byte lands below its sign bit and is never read). About one instruction
//!   per output byte.
//! - **byte-plane, AVX2** (x86-64 when [`crate::arch::cpu`] reports AVX2): the same steps on
//!   256-bit vectors whose two 128-bit lanes hold two 16-row groups, so each mask yields 32 bits
//!   of a column; about half the vector instructions per output bit.
//! - **portable**: each 64×64 sub-matrix transposed in place by six rounds of masked block swaps
//!   (Hacker's Delight §7-3, here with bit i of a word as column i), about 3 integer operations per
//!   bit pair moved; used where neither vector kernel is compiled.
//!
//! Both are cross-checked in tests against [`transpose_naive`], the definition, bit by bit (the
//! WASM kernel by the WASM self-check, `wasm/src/kernel_bench.rs`). Neither branches on or indexes
//! by matrix contents.

use super::Block;

/// Transposes a 64×64 bit matrix in place: afterwards bit `c` of `m[r]` is what bit `r` of
/// `m[c]` was.
#[inline]
pub fn transpose64(m: &mut [u64; 64]) {
    let mut j = 32;
    let mut mask: u64 = 0x0000_0000_ffff_ffff;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            // Swap the high j columns of row k with the low j columns of row k + j in each
            // 2j-wide block.
            let t = ((m[k] >> j) ^ m[k + j]) & mask;
            m[k + j] ^= t;
            m[k] ^= t << j;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        mask ^= mask << j;
    }
}

/// Transposes a 128 × `64·w` bit matrix given as 128 rows of `w` words (`rows[i·w + k]`, bit `b`
/// of word `k` is column `64k + b`) into `64·w` blocks: bit `i` of `out[j]` is column `j` of row
/// `i`. Uses the vector kernel where one is compiled in (see the module docs).
///
/// # Panics
/// If `rows.len() != 128·w` or `out.len() != 64·w` (a caller bug, never peer input).
pub fn transpose_128(rows: &[u64], w: usize, out: &mut [Block]) {
    assert_eq!(rows.len(), 128 * w, "transpose_128: rows");
    assert_eq!(out.len(), 64 * w, "transpose_128: out");
    #[cfg(target_arch = "x86_64")]
    if crate::arch::cpu().avx2 {
        // SAFETY: AVX2 was detected at run time.
        return unsafe { transpose_128_avx2_unchecked(rows, w, out) };
    }
    #[cfg(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))]
    transpose_128_bytes(rows, w, out);
    #[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
    transpose_128_portable(rows, w, out);
}

/// The AVX2 kernel of [`transpose_128`] (same contract), or `None` without AVX2 (or under the
/// `force-portable` feature).
#[cfg(target_arch = "x86_64")]
pub fn transpose_128_avx2(rows: &[u64], w: usize, out: &mut [Block]) -> Option<()> {
    // SAFETY: AVX2 was detected at run time.
    crate::arch::cpu().avx2.then(|| unsafe { transpose_128_avx2_unchecked(rows, w, out) })
}

/// [`transpose_128_avx2`] without the check.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn transpose_128_avx2_unchecked(rows: &[u64], w: usize, out: &mut [Block]) {
    assert_eq!(rows.len(), 128 * w, "transpose_128: rows");
    assert_eq!(out.len(), 64 * w, "transpose_128: out");
    // masks[c][p]: bit t is column 64k + c of row 32p + t.
    let mut masks = [[0u32; 4]; 64];
    for k in 0..w {
        for p in 0..4 {
            let mut words = [0u64; 32];
            for (t, word) in words.iter_mut().enumerate() {
                *word = rows[(32 * p + t) * w + k];
            }
            let columns = simd::column_masks_avx2(&words);
            for (c, m) in columns.iter().enumerate() {
                masks[c][p] = *m;
            }
        }
        for (o, m) in out[64 * k..64 * (k + 1)].iter_mut().zip(&masks) {
            *o = u128::from(m[0]) | u128::from(m[1]) << 32 | u128::from(m[2]) << 64 | u128::from(m[3]) << 96;
        }
    }
}

/// The portable kernel of [`transpose_128`] (same contract).
pub fn transpose_128_portable(rows: &[u64], w: usize, out: &mut [Block]) {
    assert_eq!(rows.len(), 128 * w, "transpose_128: rows");
    assert_eq!(out.len(), 64 * w, "transpose_128: out");
    let mut lo = [0u64; 64];
    let mut hi = [0u64; 64];
    for k in 0..w {
        for i in 0..64 {
            lo[i] = rows[i * w + k];
            hi[i] = rows[(64 + i) * w + k];
        }
        transpose64(&mut lo);
        transpose64(&mut hi);
        for (c, o) in out[64 * k..64 * (k + 1)].iter_mut().enumerate() {
            *o = lo[c] as u128 | (hi[c] as u128) << 64;
        }
    }
}

/// The byte-plane kernel of [`transpose_128`] (same contract; see the module docs).
#[cfg(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))]
pub fn transpose_128_bytes(rows: &[u64], w: usize, out: &mut [Block]) {
    assert_eq!(rows.len(), 128 * w, "transpose_128: rows");
    assert_eq!(out.len(), 64 * w, "transpose_128: out");
    // masks[c][g]: bit t is column 64k + c of row 16g + t.
    let mut masks = [[0u16; 8]; 64];
    for k in 0..w {
        for g in 0..8 {
            let words: [u64; 16] = core::array::from_fn(|t| rows[(16 * g + t) * w + k]);
            let columns = simd::column_masks(&words);
            for (c, m) in columns.iter().enumerate() {
                masks[c][g] = *m;
            }
        }
        for (o, m) in out[64 * k..64 * (k + 1)].iter_mut().zip(&masks) {
            *o = m.iter().enumerate().fold(0u128, |acc, (g, &v)| acc | u128::from(v) << (16 * g));
        }
    }
}

/// The vector steps of [`transpose_128_bytes`] on one 16 × 64 tile, in terms of four lane
/// operations every target provides: a 16 × 8 byte transpose by interleaving (bytes, then 16-,
/// 32- and 64-bit units), then per byte column eight sign-bit masks with a 1-bit shift between.
#[cfg(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))]
mod simd {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    use lanes_wasm as lanes;
    #[cfg(target_arch = "x86_64")]
    use lanes_x86 as lanes;

    /// The tile steps, for a lanes module (`V`, `rows(words, t)` for the vector of row `t` and its
    /// partners, the interleavings, `sign_mask`, `shl1`) and its mask width.
    macro_rules! column_masks {
        ($(#[$attr:meta])* $name:ident, $lanes:ident, $rows:literal, $mask:ty) => {
            /// For `$rows` words (word `t` from row `t`), bit `t` of entry `c` of the result is
            /// bit `c` of word `t`, for every `c` in 0..64.
            $(#[$attr])*
            pub(super) fn $name(words: &[u64; $rows]) -> [$mask; 64] {
                use $lanes::{hi16, hi32, hi64, hi8, lo16, lo32, lo64, lo8, rows, shl1, sign_mask, V};
                // x[t]: the bytes of word t (low half) and of word t + 8 (high half), per
                // 16-row group. (Written out, not mapped: a closure would not inherit a
                // `target_feature` and would stay a call.)
                let w = words;
                let x: [V; 8] =
                    [rows(w, 0), rows(w, 1), rows(w, 2), rows(w, 3), rows(w, 4), rows(w, 5), rows(w, 6), rows(w, 7)];
                // a[t]: byte pairs (rows 2t, 2t + 1) for bytes 0..8 of the low words; a2: high.
                let a: [V; 4] = [lo8(x[0], x[1]), lo8(x[2], x[3]), lo8(x[4], x[5]), lo8(x[6], x[7])];
                let a2: [V; 4] = [hi8(x[0], x[1]), hi8(x[2], x[3]), hi8(x[4], x[5]), hi8(x[6], x[7])];
                // b: 4-byte groups (rows 4s..4s+4) for bytes 0..4 (lo) and 4..8 (hi).
                let b = [lo16(a[0], a[1]), lo16(a[2], a[3]), hi16(a[0], a[1]), hi16(a[2], a[3])];
                let b2 = [lo16(a2[0], a2[1]), lo16(a2[2], a2[3]), hi16(a2[0], a2[1]), hi16(a2[2], a2[3])];
                // c: 8-byte groups (rows 0..8 or 8..16) for byte pairs (0,1), (2,3), (4,5), (6,7).
                let c = [lo32(b[0], b[1]), hi32(b[0], b[1]), lo32(b[2], b[3]), hi32(b[2], b[3])];
                let c2 = [lo32(b2[0], b2[1]), hi32(b2[0], b2[1]), lo32(b2[2], b2[3]), hi32(b2[2], b2[3])];
                let mut out = [0; 64];
                for pair in 0..4 {
                    for (half, mut v) in [lo64(c[pair], c2[pair]), hi64(c[pair], c2[pair])].into_iter().enumerate() {
                        // v: byte 2·pair + half of the group's 16 rows; its bit 7 first.
                        let byte = 2 * pair + half;
                        for bit in (0..8).rev() {
                            out[8 * byte + bit] = sign_mask(v);
                            v = shl1(v);
                        }
                    }
                }
                out
            }
        };
    }

    column_masks!(
        #[inline]
        column_masks,
        lanes,
        16,
        u16
    );
    #[cfg(target_arch = "x86_64")]
    column_masks!(
        #[inline]
        #[target_feature(enable = "avx2")]
        column_masks_avx2,
        lanes_avx2,
        32,
        u32
    );

    #[cfg(target_arch = "x86_64")]
    mod lanes_x86 {
        //! SSE2 (x86-64 baseline): always present, so no run-time check is needed.
        use core::arch::x86_64::*;
        pub(super) type V = __m128i;
        // SAFETY (every function): SSE2 is part of the x86-64 baseline; none touches memory.
        #[inline(always)]
        pub(super) fn rows(words: &[u64; 16], t: usize) -> V {
            unsafe { _mm_set_epi64x(words[t + 8] as i64, words[t] as i64) }
        }
        #[inline(always)]
        pub(super) fn lo8(a: V, b: V) -> V {
            unsafe { _mm_unpacklo_epi8(a, b) }
        }
        #[inline(always)]
        pub(super) fn hi8(a: V, b: V) -> V {
            unsafe { _mm_unpackhi_epi8(a, b) }
        }
        #[inline(always)]
        pub(super) fn lo16(a: V, b: V) -> V {
            unsafe { _mm_unpacklo_epi16(a, b) }
        }
        #[inline(always)]
        pub(super) fn hi16(a: V, b: V) -> V {
            unsafe { _mm_unpackhi_epi16(a, b) }
        }
        #[inline(always)]
        pub(super) fn lo32(a: V, b: V) -> V {
            unsafe { _mm_unpacklo_epi32(a, b) }
        }
        #[inline(always)]
        pub(super) fn hi32(a: V, b: V) -> V {
            unsafe { _mm_unpackhi_epi32(a, b) }
        }
        #[inline(always)]
        pub(super) fn lo64(a: V, b: V) -> V {
            unsafe { _mm_unpacklo_epi64(a, b) }
        }
        #[inline(always)]
        pub(super) fn hi64(a: V, b: V) -> V {
            unsafe { _mm_unpackhi_epi64(a, b) }
        }
        #[inline(always)]
        pub(super) fn sign_mask(a: V) -> u16 {
            unsafe { _mm_movemask_epi8(a) as u16 }
        }
        #[inline(always)]
        pub(super) fn shl1(a: V) -> V {
            unsafe { _mm_slli_epi64(a, 1) }
        }
    }

    #[cfg(target_arch = "x86_64")]
    mod lanes_avx2 {
        //! AVX2: the SSE2 steps on both 128-bit lanes at once (rows 0..16 of a 32-row tile in the
        //! low lane, rows 16..32 in the high one); only called from `#[target_feature(enable =
        //! "avx2")]` code.
        use core::arch::x86_64::*;
        pub(super) type V = __m256i;
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn rows(words: &[u64; 32], t: usize) -> V {
            _mm256_set_epi64x(
                words[t + 24] as i64,
                words[t + 16] as i64,
                words[t + 8] as i64,
                words[t] as i64,
            )
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn lo8(a: V, b: V) -> V {
            _mm256_unpacklo_epi8(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn hi8(a: V, b: V) -> V {
            _mm256_unpackhi_epi8(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn lo16(a: V, b: V) -> V {
            _mm256_unpacklo_epi16(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn hi16(a: V, b: V) -> V {
            _mm256_unpackhi_epi16(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn lo32(a: V, b: V) -> V {
            _mm256_unpacklo_epi32(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn hi32(a: V, b: V) -> V {
            _mm256_unpackhi_epi32(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn lo64(a: V, b: V) -> V {
            _mm256_unpacklo_epi64(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn hi64(a: V, b: V) -> V {
            _mm256_unpackhi_epi64(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn sign_mask(a: V) -> u32 {
            _mm256_movemask_epi8(a) as u32
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn shl1(a: V) -> V {
            _mm256_slli_epi64(a, 1)
        }
    }

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    mod lanes_wasm {
        //! `simd128` (the WASM builds enable it): the interleavings as constant shuffles.
        use core::arch::wasm32::*;
        pub(super) type V = v128;
        #[inline(always)]
        pub(super) fn rows(words: &[u64; 16], t: usize) -> V {
            u64x2(words[t], words[t + 8])
        }
        #[inline(always)]
        pub(super) fn lo8(a: V, b: V) -> V {
            i8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(a, b)
        }
        #[inline(always)]
        pub(super) fn hi8(a: V, b: V) -> V {
            i8x16_shuffle::<8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31>(a, b)
        }
        #[inline(always)]
        pub(super) fn lo16(a: V, b: V) -> V {
            i16x8_shuffle::<0, 8, 1, 9, 2, 10, 3, 11>(a, b)
        }
        #[inline(always)]
        pub(super) fn hi16(a: V, b: V) -> V {
            i16x8_shuffle::<4, 12, 5, 13, 6, 14, 7, 15>(a, b)
        }
        #[inline(always)]
        pub(super) fn lo32(a: V, b: V) -> V {
            i32x4_shuffle::<0, 4, 1, 5>(a, b)
        }
        #[inline(always)]
        pub(super) fn hi32(a: V, b: V) -> V {
            i32x4_shuffle::<2, 6, 3, 7>(a, b)
        }
        #[inline(always)]
        pub(super) fn lo64(a: V, b: V) -> V {
            i64x2_shuffle::<0, 2>(a, b)
        }
        #[inline(always)]
        pub(super) fn hi64(a: V, b: V) -> V {
            i64x2_shuffle::<1, 3>(a, b)
        }
        #[inline(always)]
        pub(super) fn sign_mask(a: V) -> u16 {
            i8x16_bitmask(a)
        }
        #[inline(always)]
        pub(super) fn shl1(a: V) -> V {
            i64x2_shl(a, 1)
        }
    }
}

/// The definition of [`transpose_128`], bit by bit (tests only).
pub fn transpose_naive(rows: &[u64], w: usize) -> Vec<Block> {
    (0..64 * w)
        .map(|j| (0..128).fold(0u128, |acc, i| acc | (((rows[i * w + j / 64] >> (j % 64)) & 1) as u128) << i))
        .collect()
}

/// Cross-checks [`transpose_128`] (whichever kernel this build chose) and the portable kernel
/// against [`transpose_naive`] on `cases` pseudo-random matrices of 1 to 4 column words; run by
/// the tests natively and by the WASM module's self-check in WASM.
pub fn self_check(cases: u32) -> Result<(), String> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for case in 0..cases as usize {
        let w = 1 + case % 4;
        let rows: Vec<u64> = (0..128 * w)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            })
            .collect();
        let want = transpose_naive(&rows, w);
        let (mut chosen, mut portable) = (vec![0; 64 * w], vec![0; 64 * w]);
        transpose_128(&rows, w, &mut chosen);
        transpose_128_portable(&rows, w, &mut portable);
        #[cfg(target_arch = "x86_64")]
        {
            let mut bytes = vec![0; 64 * w];
            transpose_128_bytes(&rows, w, &mut bytes);
            if bytes != want {
                return Err(format!(
                    "case {case} (w = {w}): the SSE2 byte-plane kernel differs from the definition"
                ));
            }
        }
        if chosen != want || portable != want {
            return Err(format!("case {case} (w = {w}): a transpose kernel differs from the definition"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn transpose_128_equals_its_definition(w in 1usize..5, seed in any::<u64>()) {
            let mut x = seed | 1;
            let rows: Vec<u64> = (0..128 * w)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x
                })
                .collect();
            let want = transpose_naive(&rows, w);
            let mut out = vec![0; 64 * w];
            transpose_128(&rows, w, &mut out);
            prop_assert_eq!(&out, &want);
            let mut portable = vec![0; 64 * w];
            transpose_128_portable(&rows, w, &mut portable);
            prop_assert_eq!(&portable, &want);
            #[cfg(target_arch = "x86_64")]
            {
                let mut bytes = vec![0; 64 * w];
                transpose_128_bytes(&rows, w, &mut bytes);
                prop_assert_eq!(&bytes, &want);
                let mut avx2 = vec![0; 64 * w];
                if transpose_128_avx2(&rows, w, &mut avx2).is_some() {
                    prop_assert_eq!(&avx2, &want);
                }
            }
        }
    }

    #[test]
    fn the_self_check_passes() {
        assert_eq!(self_check(20), Ok(()));
    }

    #[test]
    fn transpose64_twice_is_the_identity_and_moves_single_bits() {
        for (r, c) in [(0, 0), (0, 63), (63, 0), (5, 40), (40, 5), (31, 32)] {
            let mut m = [0u64; 64];
            m[r] = 1 << c;
            transpose64(&mut m);
            let mut want = [0u64; 64];
            want[c] = 1 << r;
            assert_eq!(m, want, "bit ({r},{c})");
            transpose64(&mut m);
            assert_eq!(m[r], 1 << c);
        }
    }
}
