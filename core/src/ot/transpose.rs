//! The bit-matrix transpose of OT extension (IKNP03; the MASCOT implementation notes call it out
//! as one of the two hot loops beside the PRG): the extension works on κ = 128 *columns* of N bits
//! each, and every OT needs its *row*, a 128-bit block.
//!
//! The kernel is portable integer code, the same natively and in WASM: each 64×64 sub-matrix is
//! transposed in place by six rounds of masked block swaps (Hacker's Delight §7-3, here with bit i
//! of a word as column i), about 3 integer operations per bit pair moved. [`transpose_naive`] is
//! the definition it is cross-checked against in tests.

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
/// `i`.
///
/// # Panics
/// If `rows.len() != 128·w` or `out.len() != 64·w` (a caller bug, never peer input).
pub fn transpose_128(rows: &[u64], w: usize, out: &mut [Block]) {
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

/// The definition of [`transpose_128`], bit by bit (tests only).
pub fn transpose_naive(rows: &[u64], w: usize) -> Vec<Block> {
    (0..64 * w)
        .map(|j| (0..128).fold(0u128, |acc, i| acc | (((rows[i * w + j / 64] >> (j % 64)) & 1) as u128) << i))
        .collect()
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
            let mut out = vec![0; 64 * w];
            transpose_128(&rows, w, &mut out);
            prop_assert_eq!(out, transpose_naive(&rows, w));
        }
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
