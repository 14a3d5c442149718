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
//! Two independent products at once ([`PairOperands`]: the inner products, [`clmul64x2`] and
//! [`gf64_mul_pair`]) use Karatsuba instead: three 32×32 products each, six per pair, which fill
//! three 64-bit lane pairs — 48 extended multiplications per two products instead of 64;
//! [`gf64_mul_pair`] also reduces both products in vector lanes.
//!
//! Narrow operands (below 2^42, [`clmul42x2`]) take the same layout over 21-bit halves with three
//! bit classes (seven bits each, at most 7 terms per output bit): 27 extended multiplications per
//! two products instead of 48.
//!
//! Constant time: only integer multiplications, AND, XOR, fixed shifts and fixed lane shuffles;
//! no branch or memory index depends on the operands.

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

/// Two 64×64 products `a·b` and `c·d` prepared for [`PairOperands::class_sums`]: each as the
/// three 32×32 Karatsuba products of its halves, `[a0·b0, a1·b1]` (from the low lanes),
/// `[c0·d0, c1·d1]` (high lanes) and `[(a0⊕a1)(b0⊕b1), (c0⊕c1)(d0⊕d1)]` — 48 extended
/// multiplications per two products instead of 64.
struct PairOperands {
    xs: [v128; 4],
    ys: [v128; 4],
    xms: [v128; 4],
    yms: [v128; 4],
}

impl PairOperands {
    #[inline(always)]
    fn new(a: u64, b: u64, c: u64, d: u64) -> Self {
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
        PairOperands {
            xs: m.map(|m| v128_and(x, m)),
            ys: m.map(|m| v128_and(y, m)),
            xms: m.map(|m| v128_and(xm, m)),
            yms: m.map(|m| v128_and(ym, m)),
        }
    }

    /// The unmasked sums of output class `k` of the low, high and middle products.
    #[inline(always)]
    fn class_sums(&self, k: usize) -> [v128; 3] {
        let (mut low, mut high, mut mid) = (u64x2_splat(0), u64x2_splat(0), u64x2_splat(0));
        for i in 0..4 {
            let j = (k + 4 - i) & 3;
            low = v128_xor(low, u64x2_extmul_low_u32x4(self.xs[i], self.ys[j]));
            high = v128_xor(high, u64x2_extmul_high_u32x4(self.xs[i], self.ys[j]));
            mid = v128_xor(mid, u64x2_extmul_low_u32x4(self.xms[i], self.yms[j]));
        }
        [low, high, mid]
    }
}

/// A running XOR of pairs of products ([`PairOperands`]), the class sums left unmasked until
/// [`LazyPair::finish`].
#[derive(Clone, Copy)]
pub(super) struct LazyPair {
    sums: [[v128; 3]; 4],
}

impl LazyPair {
    #[inline(always)]
    pub(super) fn new() -> Self {
        LazyPair { sums: [[u64x2_splat(0); 3]; 4] }
    }

    /// Adds `a · b` to the first sum and `c · d` to the second.
    #[inline(always)]
    pub(super) fn add(&mut self, a: u64, b: u64, c: u64, d: u64) {
        let operands = PairOperands::new(a, b, c, d);
        for (k, sums) in self.sums.iter_mut().enumerate() {
            let class = operands.class_sums(k);
            for (s, c) in sums.iter_mut().zip(class) {
                *s = v128_xor(*s, c);
            }
        }
    }

    /// The masked sums `[low, high, mid]`.
    #[inline(always)]
    fn masked(self) -> [v128; 3] {
        let mut out = [u64x2_splat(0); 3];
        for (sums, &hole) in self.sums.iter().zip(&HOLES64) {
            let hole = u64x2_splat(hole);
            for (o, &s) in out.iter_mut().zip(sums) {
                *o = v128_xor(*o, v128_and(s, hole));
            }
        }
        out
    }

    /// The two sums.
    #[inline(always)]
    pub(super) fn finish(self) -> [u128; 2] {
        wide_pair(recombine_pair(self.masked()))
    }
}

/// The two products of [`PairOperands`] alone, masking each class as soon as it is summed
/// (three live sums instead of twelve: the working set stays within the host's vector
/// registers), as `[low, high, mid]`.
#[inline(always)]
fn pair_product(a: u64, b: u64, c: u64, d: u64) -> [v128; 3] {
    let operands = PairOperands::new(a, b, c, d);
    let mut out = [u64x2_splat(0); 3];
    for (k, &hole) in HOLES64.iter().enumerate() {
        let hole = u64x2_splat(hole);
        for (o, s) in out.iter_mut().zip(operands.class_sums(k)) {
            *o = v128_xor(*o, v128_and(s, hole));
        }
    }
    out
}

/// Karatsuba's recombination of both products at once, p00 ⊕ (mid ⊕ p00 ⊕ p11)·x^32 ⊕ p11·x^64,
/// as lanes: `[low half of the first, of the second]` and the high halves.
#[inline(always)]
fn recombine_pair([low, high, mid]: [v128; 3]) -> (v128, v128) {
    let p00 = i64x2_shuffle::<0, 2>(low, high);
    let p11 = i64x2_shuffle::<1, 3>(low, high);
    let mid = v128_xor(mid, v128_xor(p00, p11));
    (v128_xor(p00, i64x2_shl(mid, 32)), v128_xor(p11, u64x2_shr(mid, 32)))
}

/// The two 128-bit values whose halves [`recombine_pair`] returns as lanes.
#[inline(always)]
fn wide_pair((low, high): (v128, v128)) -> [u128; 2] {
    let wide = |l: u64, h: u64| u128::from(l) | u128::from(h) << 64;
    [
        wide(u64x2_extract_lane::<0>(low), u64x2_extract_lane::<0>(high)),
        wide(u64x2_extract_lane::<1>(low), u64x2_extract_lane::<1>(high)),
    ]
}

/// `[a[0]·b[0], a[1]·b[1]]` in GF(2^64) = GF(2)\[Y\]/(Y^64 + Y^4 + Y^3 + Y + 1): the products of
/// [`pair_product`] reduced in vector lanes, the same folding as [`crate::field::Gf64::reduce`]
/// (and `Gf64x2::reduce2` on x86-64) applied to both products at once.
///
/// Never inlined: its working set fills the host's vector registers, and inlined into a loop
/// with more live values (the folds) it gets spilled.
#[inline(never)]
pub(super) fn gf64_mul_pair(a: [u64; 2], b: [u64; 2]) -> [u64; 2] {
    let (low, high) = recombine_pair(pair_product(a[0], b[0], a[1], b[1]));
    // high · Y^64 ≡ high · (Y^4 + Y^3 + Y + 1); the bits that spill past Y^63 are folded again.
    let tail = |v: v128| v128_xor(v128_xor(v, i64x2_shl(v, 1)), v128_xor(i64x2_shl(v, 3), i64x2_shl(v, 4)));
    let spill = v128_xor(u64x2_shr(high, 63), v128_xor(u64x2_shr(high, 61), u64x2_shr(high, 60)));
    let reduced = v128_xor(low, v128_xor(tail(high), tail(spill)));
    [u64x2_extract_lane::<0>(reduced), u64x2_extract_lane::<1>(reduced)]
}

/// The two 84-bit products `[a[0]·b[0], a[1]·b[1]]` of operands below 2^42 (higher bits are
/// dropped first): [`PairOperands`]'s Karatsuba layout over 21-bit halves in 32-bit lanes, each
/// 21×21 product through three bit classes (`i ≡ k (mod 3)`, the portable backend's `clmul42`).
#[inline]
pub(super) fn clmul42x2(a: [u64; 2], b: [u64; 2]) -> [u128; 2] {
    wide_pair(narrow_pair(a, b))
}

/// XOR of the products `a[i]·b[i]` of operands below 2^42, two at a time ([`narrow_pair`]).
pub(super) fn xor_sum_of_products42(a: &[u64], b: &[u64]) -> u128 {
    let n = a.len().min(b.len());
    let (mut low, mut high) = (u64x2_splat(0), u64x2_splat(0));
    for (x, y) in a[..n].chunks_exact(2).zip(b[..n].chunks_exact(2)) {
        let (l, h) = narrow_pair([x[0], x[1]], [y[0], y[1]]);
        low = v128_xor(low, l);
        high = v128_xor(high, h);
    }
    let [first, second] = wide_pair((low, high));
    let last = if n % 2 == 1 { super::portable::clmul42(a[n - 1], b[n - 1]) } else { 0 };
    first ^ second ^ last
}

/// The products of [`clmul42x2`] as lanes: the low words of both, and the high words.
#[inline(always)]
fn narrow_pair(a: [u64; 2], b: [u64; 2]) -> (v128, v128) {
    use super::portable::{HOLES21, HOLES3};
    const LOW21: u64 = (1 << 21) - 1;
    // 32-bit lanes [a0, a1, c0, c1] of 21-bit halves, and [a0⊕a1, c0⊕c1, 0, 0].
    let halves = |[a, c]: [u64; 2]| {
        let (a0, a1, c0, c1) = (a & LOW21, (a >> 21) & LOW21, c & LOW21, (c >> 21) & LOW21);
        (u32x4(a0 as u32, a1 as u32, c0 as u32, c1 as u32), u32x4((a0 ^ a1) as u32, (c0 ^ c1) as u32, 0, 0))
    };
    let ((x, xm), (y, ym)) = (halves(a), halves(b));
    let m = HOLES21.map(|m| u32x4_splat(m as u32));
    let (xs, ys) = (m.map(|m| v128_and(x, m)), m.map(|m| v128_and(y, m)));
    let (xms, yms) = (m.map(|m| v128_and(xm, m)), m.map(|m| v128_and(ym, m)));
    let (mut low, mut high, mut mid) = (u64x2_splat(0), u64x2_splat(0), u64x2_splat(0));
    for (k, &hole) in HOLES3.iter().enumerate() {
        let (mut l, mut h, mut d) = (u64x2_splat(0), u64x2_splat(0), u64x2_splat(0));
        for i in 0..3 {
            let j = (k + 3 - i) % 3;
            l = v128_xor(l, u64x2_extmul_low_u32x4(xs[i], ys[j]));
            h = v128_xor(h, u64x2_extmul_high_u32x4(xs[i], ys[j]));
            d = v128_xor(d, u64x2_extmul_low_u32x4(xms[i], yms[j]));
        }
        let hole = u64x2_splat(hole);
        low = v128_xor(low, v128_and(l, hole));
        high = v128_xor(high, v128_and(h, hole));
        mid = v128_xor(mid, v128_and(d, hole));
    }
    // [a0·b0, c0·d0], [a1·b1, c1·d1] and the middle terms; p00 ⊕ mid·x^21 ⊕ p11·x^42 (each part
    // below 2^42, so mid·x^21 fits the low word).
    let p00 = i64x2_shuffle::<0, 2>(low, high);
    let p11 = i64x2_shuffle::<1, 3>(low, high);
    let mid = v128_xor(mid, v128_xor(p00, p11));
    let lo = v128_xor(p00, v128_xor(i64x2_shl(mid, 21), i64x2_shl(p11, 42)));
    (lo, u64x2_shr(p11, 22))
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
    wide_pair(recombine_pair(pair_product(a[0], b[0], a[1], b[1])))
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
