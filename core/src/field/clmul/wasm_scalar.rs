//! wasm32 `simd128` multiplication of many GF(2^64) elements by one fixed element (a public coin),
//! sixteen at a time, with nibble tables in vector registers.
//!
//! Multiplication by a fixed `c` is GF(2)-linear: for `x = Σⱼ nⱼ·Y^(4j)` (sixteen nibbles),
//! `c·x = Σⱼ Tⱼ[nⱼ]` with `Tⱼ[n] = c·n·Y^(4j)`, reduced. Each table holds sixteen 64-bit entries,
//! kept as eight byte planes of one `v128` each, so `i8x16.swizzle` looks up one byte plane for
//! sixteen elements at once: 16 nibbles × 8 planes = 128 swizzles per sixteen products, against 24
//! extended multiplications per product of the general kernel ([`super::wasm`]). The sixteen inputs
//! are transposed into byte columns, and the products back, by fixed shuffles.
//!
//! Constant time: `i8x16.swizzle` is a register permutation (no memory access depends on the
//! operands), and everything else is XOR, AND, fixed shifts and fixed shuffles. The tables depend
//! only on `c`, which is public wherever this is used (the verification's coins); building them
//! branches on `c`'s bits.

use core::arch::wasm32::*;

/// Sixteen elements at a time.
pub const LANES: usize = 16;

/// Two-input byte shuffle with a pattern from a `const` array.
macro_rules! shuffle {
    ($a:expr, $b:expr, $p:expr) => {
        i8x16_shuffle::<
            { $p[0] },
            { $p[1] },
            { $p[2] },
            { $p[3] },
            { $p[4] },
            { $p[5] },
            { $p[6] },
            { $p[7] },
            { $p[8] },
            { $p[9] },
            { $p[10] },
            { $p[11] },
            { $p[12] },
            { $p[13] },
            { $p[14] },
            { $p[15] },
        >($a, $b)
    };
}

/// The shuffle patterns of the transposition between sixteen 8-byte rows (two per vector) and eight
/// 16-byte columns, in three stages each way; `f(o)` is the source index (0..32) of output byte `o`.
const fn pattern(stage: usize, variant: usize) -> [usize; 16] {
    let mut p = [0usize; 16];
    let mut o = 0;
    while o < 16 {
        p[o] = match stage {
            // Rows → columns. 1: four rows' bytes 4h..4h+4, byte-major (o = i·4 + e).
            0 => {
                let (i, e) = (o / 4, o % 4);
                (e / 2) * 16 + 8 * (e % 2) + 4 * variant + i
            }
            // 2: eight rows' bytes 2q, 2q+1 of the half (o = i·8 + e).
            1 => {
                let (i, e) = (o / 8, o % 8);
                (e / 4) * 16 + (2 * variant + i) * 4 + e % 4
            }
            // 3: sixteen rows' byte i (o = e).
            2 => (o / 8) * 16 + variant * 8 + o % 8,
            // Columns → rows, the stages reversed. 3⁻¹: rows 8p..8p+8 of two columns.
            3 => {
                let (i, e) = (o / 8, o % 8);
                i * 16 + 8 * variant + e
            }
            // 2⁻¹: rows 4m..4m+4 of four columns, m = 2p + variant.
            4 => {
                let (i, e) = (o / 4, o % 4);
                (i / 2) * 16 + (i % 2) * 8 + 4 * variant + e
            }
            // 1⁻¹: rows 2n, 2n+1 whole, n = 2m + variant.
            _ => {
                let (which, i) = (o / 8, o % 8);
                (i / 4) * 16 + (i % 4) * 4 + 2 * variant + which
            }
        };
        o += 1;
    }
    p
}

const ROWS_1: [[usize; 16]; 2] = [pattern(0, 0), pattern(0, 1)];
const ROWS_2: [[usize; 16]; 2] = [pattern(1, 0), pattern(1, 1)];
const ROWS_3: [[usize; 16]; 2] = [pattern(2, 0), pattern(2, 1)];
const COLS_3: [[usize; 16]; 2] = [pattern(3, 0), pattern(3, 1)];
const COLS_2: [[usize; 16]; 2] = [pattern(4, 0), pattern(4, 1)];
const COLS_1: [[usize; 16]; 2] = [pattern(5, 0), pattern(5, 1)];

/// Byte columns of sixteen 64-bit rows: `columns[i]` lane `e` is byte `i` of `rows[e]`.
#[inline(always)]
fn to_columns(rows: &[u64; LANES]) -> [v128; 8] {
    let v: [v128; 8] = core::array::from_fn(|m| u64x2(rows[2 * m], rows[2 * m + 1]));
    // w[2m + h]: rows 4m..4m+4, bytes 4h..4h+4.
    let w: [v128; 8] = core::array::from_fn(|k| {
        let (m, h) = (k / 2, k % 2);
        if h == 0 {
            shuffle!(v[2 * m], v[2 * m + 1], ROWS_1[0])
        } else {
            shuffle!(v[2 * m], v[2 * m + 1], ROWS_1[1])
        }
    });
    // x[4p + 2h + q]: rows 8p..8p+8, bytes 4h + 2q, +1.
    let x: [v128; 8] = core::array::from_fn(|k| {
        let (p, h, q) = (k / 4, (k / 2) % 2, k % 2);
        let (a, b) = (w[4 * p + h], w[4 * p + 2 + h]);
        if q == 0 {
            shuffle!(a, b, ROWS_2[0])
        } else {
            shuffle!(a, b, ROWS_2[1])
        }
    });
    core::array::from_fn(|i| {
        let (h, q, j) = (i / 4, (i / 2) % 2, i % 2);
        let (a, b) = (x[2 * h + q], x[4 + 2 * h + q]);
        if j == 0 {
            shuffle!(a, b, ROWS_3[0])
        } else {
            shuffle!(a, b, ROWS_3[1])
        }
    })
}

/// The inverse of [`to_columns`].
#[inline(always)]
fn to_rows(columns: &[v128; 8], rows: &mut [u64; LANES]) {
    // x[4p + 2h + q] as in `to_columns`.
    let x: [v128; 8] = core::array::from_fn(|k| {
        let (p, h, q) = (k / 4, (k / 2) % 2, k % 2);
        let (a, b) = (columns[4 * h + 2 * q], columns[4 * h + 2 * q + 1]);
        if p == 0 {
            shuffle!(a, b, COLS_3[0])
        } else {
            shuffle!(a, b, COLS_3[1])
        }
    });
    // w[2m + h].
    let w: [v128; 8] = core::array::from_fn(|k| {
        let (m, h) = (k / 2, k % 2);
        let (a, b) = (x[4 * (m / 2) + 2 * h], x[4 * (m / 2) + 2 * h + 1]);
        if m % 2 == 0 {
            shuffle!(a, b, COLS_2[0])
        } else {
            shuffle!(a, b, COLS_2[1])
        }
    });
    for n in 0..8 {
        let (a, b) = (w[2 * (n / 2)], w[2 * (n / 2) + 1]);
        let v = if n % 2 == 0 { shuffle!(a, b, COLS_1[0]) } else { shuffle!(a, b, COLS_1[1]) };
        rows[2 * n] = u64x2_extract_lane::<0>(v);
        rows[2 * n + 1] = u64x2_extract_lane::<1>(v);
    }
}

/// Multiplication by one fixed element of GF(2^64) = GF(2)\[Y\]/(Y^64 + Y^4 + Y^3 + Y + 1).
pub struct Gf64Scalar {
    /// `planes[j][b]` lane `n`: byte `b` of `c·n·Y^(4j)`.
    planes: [[v128; 8]; 16],
}

impl Gf64Scalar {
    /// The tables of `c` (public).
    pub fn new(c: u64) -> Self {
        // c·Y^i for i < 64.
        let mut basis = [0u64; 64];
        let mut power = c;
        for b in &mut basis {
            *b = power;
            let carry = power >> 63;
            power = (power << 1) ^ (carry * 0x1b);
        }
        let planes = core::array::from_fn(|j| {
            let entries: [u64; 16] = core::array::from_fn(|n| {
                (0..4).filter(|t| (n >> t) & 1 == 1).fold(0, |acc, t| acc ^ basis[4 * j + t])
            });
            core::array::from_fn(|b| {
                let bytes: [u8; 16] = core::array::from_fn(|n| (entries[n] >> (8 * b)) as u8);
                v128_load_bytes(&bytes)
            })
        });
        Gf64Scalar { planes }
    }

    /// `x[e] ← c·x[e]` for the sixteen elements.
    #[inline(always)]
    pub fn mul_in_place(&self, x: &mut [u64; LANES]) {
        let columns = to_columns(x);
        let low = u8x16_splat(0x0f);
        let mut out = [u64x2_splat(0); 8];
        for (i, &column) in columns.iter().enumerate() {
            let nibbles = [v128_and(column, low), u8x16_shr(column, 4)];
            for (t, &n) in nibbles.iter().enumerate() {
                let planes = &self.planes[2 * i + t];
                for (o, &plane) in out.iter_mut().zip(planes) {
                    *o = v128_xor(*o, i8x16_swizzle(plane, n));
                }
            }
        }
        to_rows(&out, x);
    }
}

/// A `v128` from 16 bytes.
#[inline(always)]
fn v128_load_bytes(bytes: &[u8; 16]) -> v128 {
    u64x2(
        u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")),
        u64::from_le_bytes(bytes[8..].try_into().expect("8 bytes")),
    )
}
