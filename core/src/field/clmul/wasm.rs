//! wasm32 `simd128` carry-less multiplication (the crate must be compiled with
//! `target-feature=+simd128`, as the WASM builds are).
//!
//! wasm32 has no carry-less multiply and no 64×64→128 integer multiply, but
//! `i64x2.extmul_{low,high}_i32x4_u` computes two full 32×32→64 products per instruction. A 64×64
//! product is the four 32×32 products `a_i·b_j` of its halves, laid out one per 32-bit lane
//! (`[a0, a0, a1, a1]` against `[b0, b1, b0, b1]`), each carry-less through the four-class
//! "holes" split of [`super::portable`] (bits `≡ k (mod 4)`, at most 8 terms per output bit):
//! 16 class pairs × 2 instructions give all four products' class sums at once.
//!
//! The class sums stay unmasked while they are accumulated ([`Lazy`]); masking and the
//! recombination of the four 64-bit parts happen once per sum (lazy reduction extended to the
//! carries of the holes trick, both linear over XOR).
//!
//! Constant time: only integer multiplications, AND, XOR and fixed lane shuffles; no branch or
//! memory index depends on the operands.

use core::arch::wasm32::*;

/// The 32-bit hole masks, splatted.
const HOLES32: [u32; 4] = [0x1111_1111, 0x2222_2222, 0x4444_4444, 0x8888_8888];
/// The 64-bit hole masks.
const HOLES64: [u64; 4] =
    [0x1111_1111_1111_1111, 0x2222_2222_2222_2222, 0x4444_4444_4444_4444, 0x8888_8888_8888_8888];

/// A running XOR of unreduced 64×64 products as unmasked class sums: `low[k]` holds the sums of
/// `[a0·b0, a0·b1]`, `high[k]` of `[a1·b0, a1·b1]`, for output class `k`.
#[derive(Clone, Copy)]
pub(super) struct Lazy {
    low: [v128; 4],
    high: [v128; 4],
}

impl Lazy {
    #[inline(always)]
    pub(super) fn new() -> Self {
        let z = u64x2_splat(0);
        Lazy { low: [z; 4], high: [z; 4] }
    }

    /// Adds `a · b`.
    #[inline(always)]
    pub(super) fn add(&mut self, a: u64, b: u64) {
        let a = u64x2_splat(a);
        // 32-bit lanes [a0, a0, a1, a1] and [b0, b1, b0, b1].
        let x = i32x4_shuffle::<0, 0, 1, 1>(a, a);
        let y = u64x2_splat(b);
        let m = HOLES32.map(|m| u32x4_splat(m));
        let xs = m.map(|m| v128_and(x, m));
        let ys = m.map(|m| v128_and(y, m));
        for (i, &xi) in xs.iter().enumerate() {
            for (j, &yj) in ys.iter().enumerate() {
                let k = (i + j) & 3;
                self.low[k] = v128_xor(self.low[k], u64x2_extmul_low_u32x4(xi, yj));
                self.high[k] = v128_xor(self.high[k], u64x2_extmul_high_u32x4(xi, yj));
            }
        }
    }

    /// The XOR of the products added.
    #[inline(always)]
    pub(super) fn finish(self) -> u128 {
        let (mut low, mut high) = (u64x2_splat(0), u64x2_splat(0));
        for (k, &m) in HOLES64.iter().enumerate() {
            let m = u64x2_splat(m);
            low = v128_xor(low, v128_and(self.low[k], m));
            high = v128_xor(high, v128_and(self.high[k], m));
        }
        let (p00, p01) = (u64x2_extract_lane::<0>(low), u64x2_extract_lane::<1>(low));
        let (p10, p11) = (u64x2_extract_lane::<0>(high), u64x2_extract_lane::<1>(high));
        u128::from(p00) ^ (u128::from(p01 ^ p10) << 32) ^ (u128::from(p11) << 64)
    }
}

/// A running XOR of unreduced 64×64 products taken two at a time, `a·b` and `c·d`, each as the
/// three 32×32 Karatsuba products of its halves: `low[k]` holds the class sums of
/// `[a0·b0, a1·b1]`, `high[k]` of `[c0·d0, c1·d1]` and `mid[k]` of `[(a0⊕a1)(b0⊕b1),
/// (c0⊕c1)(d0⊕d1)]` — 48 extended multiplications per two products instead of 64.
#[derive(Clone, Copy)]
pub(super) struct LazyPair {
    low: [v128; 4],
    high: [v128; 4],
    mid: [v128; 4],
}

impl LazyPair {
    #[inline(always)]
    pub(super) fn new() -> Self {
        let z = u64x2_splat(0);
        LazyPair { low: [z; 4], high: [z; 4], mid: [z; 4] }
    }

    /// Adds `a · b` to the first sum and `c · d` to the second.
    #[inline(always)]
    pub(super) fn add(&mut self, a: u64, b: u64, c: u64, d: u64) {
        // 32-bit lanes [a0, a1, c0, c1] and [b0, b1, d0, d1].
        let x = u64x2(a, c);
        let y = u64x2(b, d);
        // [a0⊕a1, c0⊕c1, ..] (the upper lanes are not used).
        let karatsuba = |v: v128| {
            let t = v128_xor(v, i32x4_shuffle::<1, 0, 3, 2>(v, v));
            i32x4_shuffle::<0, 2, 0, 2>(t, t)
        };
        let (xm, ym) = (karatsuba(x), karatsuba(y));
        let m = HOLES32.map(|m| u32x4_splat(m));
        let xs = m.map(|m| v128_and(x, m));
        let ys = m.map(|m| v128_and(y, m));
        let xms = m.map(|m| v128_and(xm, m));
        let yms = m.map(|m| v128_and(ym, m));
        for i in 0..4 {
            for j in 0..4 {
                let k = (i + j) & 3;
                self.low[k] = v128_xor(self.low[k], u64x2_extmul_low_u32x4(xs[i], ys[j]));
                self.high[k] = v128_xor(self.high[k], u64x2_extmul_high_u32x4(xs[i], ys[j]));
                self.mid[k] = v128_xor(self.mid[k], u64x2_extmul_low_u32x4(xms[i], yms[j]));
            }
        }
    }

    /// The two sums.
    #[inline(always)]
    pub(super) fn finish(self) -> [u128; 2] {
        let (mut low, mut high, mut mid) = (u64x2_splat(0), u64x2_splat(0), u64x2_splat(0));
        for (k, &m) in HOLES64.iter().enumerate() {
            let m = u64x2_splat(m);
            low = v128_xor(low, v128_and(self.low[k], m));
            high = v128_xor(high, v128_and(self.high[k], m));
            mid = v128_xor(mid, v128_and(self.mid[k], m));
        }
        let recombine = super::portable::recombine;
        [
            recombine(
                u64x2_extract_lane::<0>(low),
                u64x2_extract_lane::<1>(low),
                u64x2_extract_lane::<0>(mid),
            ),
            recombine(
                u64x2_extract_lane::<0>(high),
                u64x2_extract_lane::<1>(high),
                u64x2_extract_lane::<1>(mid),
            ),
        ]
    }
}

#[inline]
pub(super) fn clmul64(a: u64, b: u64) -> u128 {
    let mut acc = Lazy::new();
    acc.add(a, b);
    acc.finish()
}

#[inline]
pub(super) fn clmul128(a: u128, b: u128) -> [u128; 2] {
    xor_sum_of_products128(&[a], &[b])
}

/// The two products `[a[0]·b[0], a[1]·b[1]]`.
#[inline]
pub(super) fn clmul64x2(a: [u64; 2], b: [u64; 2]) -> [u128; 2] {
    let mut acc = LazyPair::new();
    acc.add(a[0], b[0], a[1], b[1]);
    acc.finish()
}

pub(super) fn xor_sum_of_products64(a: &[u64], b: &[u64]) -> u128 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = LazyPair::new();
    for (x, y) in a.chunks_exact(2).zip(b.chunks_exact(2)) {
        acc.add(x[0], y[0], x[1], y[1]);
    }
    if n % 2 == 1 {
        acc.add(a[n - 1], b[n - 1], 0, 0);
    }
    let [first, second] = acc.finish();
    first ^ second
}

#[inline]
pub(super) fn xor_sum_of_products128(a: &[u128], b: &[u128]) -> [u128; 2] {
    let (mut low, mut high, mut mid) = (Lazy::new(), Lazy::new(), Lazy::new());
    for (&x, &y) in a.iter().zip(b) {
        let (x0, x1) = (x as u64, (x >> 64) as u64);
        let (y0, y1) = (y as u64, (y >> 64) as u64);
        low.add(x0, y0);
        high.add(x1, y1);
        mid.add(x0 ^ x1, y0 ^ y1);
    }
    super::portable::recombine128(low.finish(), high.finish(), mid.finish())
}
