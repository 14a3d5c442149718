//! Portable, constant-time carry-less multiplication (usable in `const` contexts): the path of
//! every target without a hardware backend (non-x86 native, wasm32 without `simd128`, and every
//! target under `force-portable`), and the reference the fast paths are tested against.
//!
//! A 32×32-bit product splits each operand into four interleaved bit classes ("holes", BearSSL's
//! `bmul`): bits `i ≡ k (mod 4)`. The integer product of two classes has, at each position of
//! its output class, a count of at most 8 terms, which fits in the 3-bit gap below the next bit of
//! that class, so ordinary 64-bit multiplication computes the carry-less product of the classes
//! in those positions (the other positions hold carries, masked off). A 64×64-bit product is three
//! 32×32 ones (Karatsuba). Only 64-bit multiplications are used: they are one instruction on
//! every 64-bit target and on wasm32, where a 128-bit multiplication is a library call.
//!
//! Inner products accumulate the unmasked class sums of every term and mask (and recombine the
//! Karatsuba parts) once at the end: masking and recombination are linear over XOR.
//!
//! Narrow operands (below 2^42, [`super::NARROW_BITS`]: every field of degree at most 42, such as
//! Coral's GF(2^42)) take [`clmul42`]: Karatsuba over 21-bit halves, whose products split into
//! three classes (`i ≡ k (mod 3)`, seven bits each, so at most 7 terms per output bit: the count
//! fits in the three bits up to the class's next position): 3 × 9 multiplications instead of
//! 3 × 16.
//!
//! No branch or memory index depends on the operands; integer multiplication is constant time on
//! the targets Chorus supports.

/// Bit positions `i ≡ k (mod 4)` of a 32-bit half.
const HOLES32: [u64; 4] = [0x1111_1111, 0x2222_2222, 0x4444_4444, 0x8888_8888];
/// Bit positions `i ≡ k (mod 4)` of a 64-bit product.
const HOLES64: [u64; 4] =
    [0x1111_1111_1111_1111, 0x2222_2222_2222_2222, 0x4444_4444_4444_4444, 0x8888_8888_8888_8888];
const LOW32: u64 = 0xffff_ffff;
/// Bit positions `i ≡ k (mod 3)` of a 21-bit half of a narrow operand.
pub(super) const HOLES21: [u64; 3] = [0x04_9249, 0x09_2492, 0x12_4924];
/// Bit positions `i ≡ k (mod 3)` of a 64-bit word.
pub(super) const HOLES3: [u64; 3] = [0x9249_2492_4924_9249, 0x2492_4924_9249_2492, 0x4924_9249_2492_4924];
const LOW21: u64 = (1 << 21) - 1;
const LOW42: u64 = (1 << 42) - 1;

/// The class sums of the 32×32 product of `x`, `y` (each `< 2^32`): entry `k` holds the product's
/// bits at the positions `≡ k (mod 4)`, and carries elsewhere.
#[inline(always)]
const fn class_sums32(x: u64, y: u64) -> [u64; 4] {
    let [m0, m1, m2, m3] = HOLES32;
    let (x0, x1, x2, x3) = (x & m0, x & m1, x & m2, x & m3);
    let (y0, y1, y2, y3) = (y & m0, y & m1, y & m2, y & m3);
    [
        x0.wrapping_mul(y0) ^ x1.wrapping_mul(y3) ^ x2.wrapping_mul(y2) ^ x3.wrapping_mul(y1),
        x0.wrapping_mul(y1) ^ x1.wrapping_mul(y0) ^ x2.wrapping_mul(y3) ^ x3.wrapping_mul(y2),
        x0.wrapping_mul(y2) ^ x1.wrapping_mul(y1) ^ x2.wrapping_mul(y0) ^ x3.wrapping_mul(y3),
        x0.wrapping_mul(y3) ^ x1.wrapping_mul(y2) ^ x2.wrapping_mul(y1) ^ x3.wrapping_mul(y0),
    ]
}

/// The product's bits out of (XORs of) class sums.
#[inline(always)]
const fn mask(z: [u64; 4]) -> u64 {
    (z[0] & HOLES64[0]) | (z[1] & HOLES64[1]) | (z[2] & HOLES64[2]) | (z[3] & HOLES64[3])
}

#[inline(always)]
const fn xor4(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    [a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]]
}

/// The Karatsuba halves `(low, high, low ⊕ high)` of a 64-bit operand, each `< 2^32`.
#[inline(always)]
const fn halves(a: u64) -> [u64; 3] {
    [a & LOW32, a >> 32, (a ^ (a >> 32)) & LOW32]
}

/// `low ⊕ (mid ⊕ low ⊕ high)·x^32 ⊕ high·x^64` from the three 64-bit Karatsuba products.
#[inline(always)]
pub(super) const fn recombine(low: u64, high: u64, mid: u64) -> u128 {
    let mid = mid ^ low ^ high;
    (low as u128) ^ ((mid as u128) << 32) ^ ((high as u128) << 64)
}

/// The 64-bit carry-less product of two 32-bit polynomials.
#[inline]
pub const fn clmul32(x: u32, y: u32) -> u64 {
    mask(class_sums32(x as u64, y as u64))
}

/// The 128-bit carry-less product of two 64-bit polynomials.
#[inline]
pub const fn clmul64(a: u64, b: u64) -> u128 {
    let ([a0, a1, a2], [b0, b1, b2]) = (halves(a), halves(b));
    recombine(mask(class_sums32(a0, b0)), mask(class_sums32(a1, b1)), mask(class_sums32(a2, b2)))
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

/// A running XOR of unreduced 64×64 products, kept as unmasked class sums of the three
/// Karatsuba parts (masked and recombined once, in [`Lazy64::finish`]).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Lazy64([[u64; 4]; 3]);

impl Lazy64 {
    /// Adds `a · b`.
    #[inline(always)]
    pub(super) fn add(&mut self, a: u64, b: u64) {
        let ([a0, a1, a2], [b0, b1, b2]) = (halves(a), halves(b));
        self.0[0] = xor4(self.0[0], class_sums32(a0, b0));
        self.0[1] = xor4(self.0[1], class_sums32(a1, b1));
        self.0[2] = xor4(self.0[2], class_sums32(a2, b2));
    }

    /// The XOR of the products added.
    #[inline(always)]
    pub(super) fn finish(self) -> u128 {
        recombine(mask(self.0[0]), mask(self.0[1]), mask(self.0[2]))
    }
}

/// The class sums of the 21×21 product of `x`, `y` (each `< 2^21`): entry `k` holds the product's
/// bits at the positions `≡ k (mod 3)`, and carries elsewhere.
#[inline(always)]
const fn class_sums21(x: u64, y: u64) -> [u64; 3] {
    let [m0, m1, m2] = HOLES21;
    let (x0, x1, x2) = (x & m0, x & m1, x & m2);
    let (y0, y1, y2) = (y & m0, y & m1, y & m2);
    [
        x0.wrapping_mul(y0) ^ x1.wrapping_mul(y2) ^ x2.wrapping_mul(y1),
        x0.wrapping_mul(y1) ^ x1.wrapping_mul(y0) ^ x2.wrapping_mul(y2),
        x0.wrapping_mul(y2) ^ x1.wrapping_mul(y1) ^ x2.wrapping_mul(y0),
    ]
}

/// The carry-less product of two 21-bit polynomials from its class sums.
#[inline(always)]
const fn mask3(z: [u64; 3]) -> u64 {
    (z[0] & HOLES3[0]) | (z[1] & HOLES3[1]) | (z[2] & HOLES3[2])
}

/// `low ⊕ (mid ⊕ low ⊕ high)·x^21 ⊕ high·x^42` from the three 42-bit Karatsuba products.
#[inline(always)]
pub(super) const fn recombine42(low: u64, high: u64, mid: u64) -> u128 {
    let mid = mid ^ low ^ high;
    (low as u128) ^ ((mid as u128) << 21) ^ ((high as u128) << 42)
}

/// The 84-bit carry-less product of two polynomials of degree below 42 (bits 42 and up of the
/// operands are dropped first).
#[inline]
pub const fn clmul42(a: u64, b: u64) -> u128 {
    let (a, b) = (a & LOW42, b & LOW42);
    let [a0, a1, a2] = [a & LOW21, a >> 21, (a ^ (a >> 21)) & LOW21];
    let [b0, b1, b2] = [b & LOW21, b >> 21, (b ^ (b >> 21)) & LOW21];
    recombine42(mask3(class_sums21(a0, b0)), mask3(class_sums21(a1, b1)), mask3(class_sums21(a2, b2)))
}

/// XOR of the unreduced products `a[i] · b[i]` over the common prefix of the slices.
pub fn xor_sum_of_products64(a: &[u64], b: &[u64]) -> u128 {
    let mut acc = Lazy64::default();
    for (&x, &y) in a.iter().zip(b) {
        acc.add(x, y);
    }
    acc.finish()
}

/// `[low, high]` of a 256-bit product from the three 128-bit Karatsuba products.
#[inline(always)]
pub(super) fn recombine128(low: u128, high: u128, mid: u128) -> [u128; 2] {
    let mid = mid ^ low ^ high;
    [low ^ (mid << 64), high ^ (mid >> 64)]
}

/// XOR of the unreduced 256-bit products `a[i] · b[i]`, as `[low, high]`.
///
/// The Karatsuba parts are accumulated separately and recombined once.
pub fn xor_sum_of_products128(a: &[u128], b: &[u128]) -> [u128; 2] {
    let (mut low, mut high, mut mid) = (Lazy64::default(), Lazy64::default(), Lazy64::default());
    for (&x, &y) in a.iter().zip(b) {
        let (x0, x1) = (x as u64, (x >> 64) as u64);
        let (y0, y1) = (y as u64, (y >> 64) as u64);
        low.add(x0, y0);
        high.add(x1, y1);
        mid.add(x0 ^ x1, y0 ^ y1);
    }
    recombine128(low.finish(), high.finish(), mid.finish())
}
