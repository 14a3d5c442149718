//! Kernels written once against byte-lane vector operations ([`ByteLanes`]), instantiated per
//! SIMD backend.

use super::{multiples_of_powers_of_x, portable, POLY_LOW};
use crate::field::Gf256;

/// The nibble tables `(c·i, c·(i << 4))` for `i < 16`, built by linearity from `c·x^j` (cheap
/// enough to rebuild per call, and the table index is the public loop counter).
fn scalar_tables(c: u8) -> ([u8; 16], [u8; 16]) {
    let multiples = multiples_of_powers_of_x(c);
    let mut low = [0u8; 16];
    let mut high = [0u8; 16];
    for j in 0..4 {
        for k in 0..1 << j {
            low[(1 << j) + k] = low[k] ^ multiples[j];
            high[(1 << j) + k] = high[k] ^ multiples[j + 4];
        }
    }
    (low, high)
}

/// Nibble tables of the (public, linear) squaring map.
const SQUARE_TABLES: ([u8; 16], [u8; 16]) = {
    let mut low = [0u8; 16];
    let mut high = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        low[i] = Gf256::mul_const_time(i as u8, i as u8);
        high[i] = Gf256::mul_const_time((i as u8) << 4, (i as u8) << 4);
        i += 1;
    }
    (low, high)
};

/// The widest `ByteLanes::LANES` of any backend (for zero-padded tails).
const MAX_LANES: usize = 32;

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
    debug_assert!(V::LANES <= MAX_LANES);
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
        let (d, s) = (dst_chunks.into_remainder(), src_chunks.remainder());
        if !d.is_empty() {
            // The tail as one more vector, through zero-padded copies.
            let (mut dt, mut st) = ([0u8; MAX_LANES], [0u8; MAX_LANES]);
            dt[..d.len()].copy_from_slice(d);
            st[..s.len()].copy_from_slice(s);
            let product = apply_tables(V::load(&st), low, high, nibble_mask);
            V::load(&dt).xor(product).store(&mut dt);
            d.copy_from_slice(&dt[..d.len()]);
        }
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
pub(super) unsafe fn mul_add_slices<V: ByteLanes>(dst: &mut [u8], a: &[u8], b: &[u8]) {
    debug_assert!(V::LANES <= MAX_LANES);
    // SAFETY: the caller guarantees the backend's feature; chunks have exactly LANES bytes.
    unsafe {
        let mut dst_chunks = dst.chunks_exact_mut(V::LANES);
        let mut a_chunks = a.chunks_exact(V::LANES);
        let mut b_chunks = b.chunks_exact(V::LANES);
        for ((d, x), y) in (&mut dst_chunks).zip(&mut a_chunks).zip(&mut b_chunks) {
            V::load(d).xor(mul(V::load(x), V::load(y))).store(d);
        }
        let (d, x, y) = (dst_chunks.into_remainder(), a_chunks.remainder(), b_chunks.remainder());
        if !d.is_empty() {
            // The tail as one more vector, through zero-padded copies.
            let (mut dt, mut xt, mut yt) = ([0u8; MAX_LANES], [0u8; MAX_LANES], [0u8; MAX_LANES]);
            dt[..d.len()].copy_from_slice(d);
            xt[..x.len()].copy_from_slice(x);
            yt[..y.len()].copy_from_slice(y);
            V::load(&dt).xor(mul(V::load(&xt), V::load(&yt))).store(&mut dt);
            d.copy_from_slice(&dt[..d.len()]);
        }
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
