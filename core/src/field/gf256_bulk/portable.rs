//! The portable backend: SWAR on `u64` words, eight byte lanes per word.

use super::{multiples_of_powers_of_x, POLY_LOW};

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
    // Full words (all but the tail) take the fixed-size path the compiler turns into one load.
    if let Ok(word) = <[u8; 8]>::try_from(bytes) {
        return u64::from_le_bytes(word);
    }
    let mut buffer = [0u8; 8];
    buffer[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(buffer)
}

#[inline]
fn store(word: u64, out: &mut [u8]) {
    if let Ok(full) = <&mut [u8; 8]>::try_from(&mut *out) {
        *full = word.to_le_bytes();
        return;
    }
    let n = out.len();
    out.copy_from_slice(&word.to_le_bytes()[..n]);
}

pub(super) fn mul_add_scalar(dst: &mut [u8], src: &[u8], c: u8) {
    let multiples = multiples_of_powers_of_x(c).map(|m| m as u64 * ONES);
    for (d, s) in dst.chunks_mut(8).zip(src.chunks(8)) {
        let s = load(s);
        let product =
            multiples.iter().enumerate().fold(0, |acc, (i, m)| acc ^ (m & (((s >> i) & ONES) * 0xff)));
        store(load(d) ^ product, d);
    }
}

pub(super) fn mul_slices(dst: &mut [u8], a: &[u8], b: &[u8]) {
    for ((d, x), y) in dst.chunks_mut(8).zip(a.chunks(8)).zip(b.chunks(8)) {
        store(mul_words(load(x), load(y)), d);
    }
}

pub(super) fn mul_add_slices(dst: &mut [u8], a: &[u8], b: &[u8]) {
    for ((d, x), y) in dst.chunks_mut(8).zip(a.chunks(8)).zip(b.chunks(8)) {
        store(load(d) ^ mul_words(load(x), load(y)), d);
    }
}

pub(super) fn inverse_slice(values: &mut [u8]) {
    for chunk in values.chunks_mut(8) {
        store(inverse_word(load(chunk)), chunk);
    }
}
