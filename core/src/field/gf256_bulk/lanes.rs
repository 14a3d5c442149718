//! Kernels written once against byte-lane vector operations ([`ByteLanes`]), instantiated per
//! SIMD backend.

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
