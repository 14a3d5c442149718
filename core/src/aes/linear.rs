//! The linear layer of AES (FIPS-197 §5.1.2, §5.1.3, §5.1.4 and their inverses §5.3.1, §5.3.3),
//! written once over any [`AesByte`].
//!
//! All of these maps are GF(2^8)-linear (MixColumns) or permutations (ShiftRows) or additions
//! (AddRoundKey), so on additively or replicated secret-shared bytes they are computed locally,
//! component by component. Protocols implement [`AesByte`] for their share types and call these
//! functions unchanged.
//!
//! The state is 16 bytes in FIPS-197 input order: byte `r + 4c` is row `r`, column `c` (§3.4).

use crate::field::Gf256;
use core::ops::{Add, AddAssign};

/// A byte of the AES state: anything with addition (XOR) and multiplication by {02}.
pub trait AesByte: Copy + Add<Output = Self> + AddAssign {
    /// Multiplication by the public constant {02} in GF(2^8) (`xtime`, FIPS-197 §4.2.1).
    fn xtime(self) -> Self;

    /// Addition of a public constant byte. For a share type, exactly the parties whose components
    /// carry the constant add it (e.g. one party for additive shares).
    fn add_public(self, c: u8) -> Self;

    /// Multiplication by a public constant, by repeated `xtime` (FIPS-197 §4.2.1).
    ///
    /// The constant is public, so branching on its bits is fine; the value is never branched on.
    fn mul_public(self, c: u8) -> Self {
        let mut acc: Option<Self> = None;
        let mut power = self;
        let mut c = c;
        while c != 0 {
            if c & 1 == 1 {
                acc = Some(match acc {
                    Some(a) => a + power,
                    None => power,
                });
            }
            c >>= 1;
            if c != 0 {
                power = power.xtime();
            }
        }
        // 0 · x = x + x in characteristic 2, which keeps this generic over share types.
        acc.unwrap_or(self + self)
    }

    /// The linear part of an encryption round after SubBytes: ShiftRows, MixColumns (skipped
    /// when `last`) and AddRoundKey with `round_key`. The default composes the generic maps
    /// below; byte types with a word-parallel form (plain bytes, and replicated shares component
    /// by component through [`round_linear_bytes`]) override it.
    #[inline]
    fn round_linear(state: &mut [Self; 16], round_key: &[Self; 16], last: bool) {
        shift_rows(state);
        if !last {
            mix_columns(state);
        }
        add_round_key(state, round_key);
    }
}

impl AesByte for Gf256 {
    #[inline]
    fn xtime(self) -> Self {
        let carry = 0u8.wrapping_sub(self.0 >> 7);
        Gf256((self.0 << 1) ^ (carry & Gf256::POLY_LOW))
    }

    #[inline]
    fn add_public(self, c: u8) -> Self {
        Gf256(self.0 ^ c)
    }

    #[inline]
    fn round_linear(state: &mut [Self; 16], round_key: &[Self; 16], last: bool) {
        let mut bytes = state.map(|b| b.0);
        round_linear_bytes(&mut bytes, Gf256::as_bytes(round_key), last);
        *state = bytes.map(Gf256);
    }
}

/// ShiftRows: row `r` rotates left by `r` positions.
pub fn shift_rows<B: AesByte>(state: &mut [B; 16]) {
    let old = *state;
    for c in 0..4 {
        for r in 1..4 {
            state[r + 4 * c] = old[r + 4 * ((c + r) % 4)];
        }
    }
}

/// InvShiftRows: row `r` rotates right by `r` positions.
pub fn inv_shift_rows<B: AesByte>(state: &mut [B; 16]) {
    let old = *state;
    for c in 0..4 {
        for r in 1..4 {
            state[r + 4 * ((c + r) % 4)] = old[r + 4 * c];
        }
    }
}

/// MixColumns: each column times {03}x^3 + {01}x^2 + {01}x + {02} modulo x^4 + 1.
pub fn mix_columns<B: AesByte>(state: &mut [B; 16]) {
    for col in state.chunks_exact_mut(4) {
        let [a0, a1, a2, a3] = [col[0], col[1], col[2], col[3]];
        let all = a0 + a1 + a2 + a3;
        // s'_r = 2·a_r + 3·a_{r+1} + a_{r+2} + a_{r+3} = a_r + all + 2·(a_r + a_{r+1}).
        col[0] = a0 + all + (a0 + a1).xtime();
        col[1] = a1 + all + (a1 + a2).xtime();
        col[2] = a2 + all + (a2 + a3).xtime();
        col[3] = a3 + all + (a3 + a0).xtime();
    }
}

/// InvMixColumns: each column times {0b}x^3 + {0d}x^2 + {09}x + {0e}.
///
/// That polynomial is ({04}x^2 + {05}) times MixColumns' {03}x^3 + {01}x^2 + {01}x + {02}
/// (mod x^4 + 1; Daemen–Rijmen, *The Design of Rijndael*, §4.1.3), so a column is first
/// multiplied by {04}x^2 + {05} — adding u = {04}(a₀ + a₂) to a₀, a₂ and v = {04}(a₁ + a₃) to
/// a₁, a₃ — and then mixed: 4 extra `xtime`s per column instead of the general products.
pub fn inv_mix_columns<B: AesByte>(state: &mut [B; 16]) {
    for col in state.chunks_exact_mut(4) {
        let u = (col[0] + col[2]).xtime().xtime();
        let v = (col[1] + col[3]).xtime().xtime();
        col[0] += u;
        col[1] += v;
        col[2] += u;
        col[3] += v;
    }
    mix_columns(state);
}

/// AddRoundKey: XOR of the round key into the state.
pub fn add_round_key<B: AesByte>(state: &mut [B; 16], round_key: &[B; 16]) {
    for (s, k) in state.iter_mut().zip(round_key) {
        *s += *k;
    }
}

const LOW7: u128 = 0x7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f;
const LOW1: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;

/// ShiftRows as a byte permutation: output byte `r + 4c` is input byte `r + 4 ((c + r) mod 4)`.
const SHIFT_ROWS: [usize; 16] = [0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11];

/// Lane-wise rotation of the four 32-bit lanes right by `8 k` bits (byte `r` of a lane becomes
/// byte `r + k` of the input lane, indices mod 4).
#[inline(always)]
fn rotate_lanes(x: u128, k: u32) -> u128 {
    let s = 8 * k;
    let low = u128::from(u32::MAX >> s) * (u128::MAX / u128::from(u32::MAX));
    ((x >> s) & low) | ((x << (32 - s)) & !low)
}

/// Multiplication of all 16 bytes by {02} in GF(2^8) (`xtime`, FIPS-197 §4.2.1).
#[inline(always)]
fn xtime_all(x: u128) -> u128 {
    let carries = (x >> 7) & LOW1;
    // Each byte of `carries` is 0 or 1, so the shifts building `· 0x1b` stay inside their byte.
    ((x & LOW7) << 1) ^ (carries << 4) ^ (carries << 3) ^ (carries << 1) ^ carries
}

/// The AES round function after SubBytes on plain bytes: ShiftRows, MixColumns (skipped when
/// `last`), AddRoundKey with `round_key` (16 bytes). Panics if `round_key` is shorter than 16
/// bytes.
///
/// Two implementations, chosen here and nowhere else: with AES-NI (x86-64, detected at run time)
/// three instructions (`aesni::round_linear`); elsewhere a word-parallel form of the generic maps
/// above (`round_linear_portable`). Neither branches on or indexes by the state; the tests
/// cross-check both against the generic maps.
#[inline]
pub fn round_linear_bytes(state: &mut [u8; 16], round_key: &[u8], last: bool) {
    let key: &[u8; 16] = round_key[..16].try_into().expect("a round key has 16 bytes");
    #[cfg(target_arch = "x86_64")]
    if aesni::available() {
        // SAFETY: `available` checked that the CPU has AES-NI and SSSE3.
        unsafe { aesni::round_linear(state, key, last) };
        return;
    }
    round_linear_portable(state, key, last);
}

/// The portable [`round_linear_bytes`]: the four columns are the four 32-bit lanes of one `u128`
/// and `xtime` runs on all 16 bytes at once.
#[inline]
fn round_linear_portable(state: &mut [u8; 16], key: &[u8; 16], last: bool) {
    let shifted: [u8; 16] = core::array::from_fn(|k| state[SHIFT_ROWS[k]]);
    let mut x = u128::from_le_bytes(shifted);
    if !last {
        // Column bytes a_r (lane byte r): out_r = 2 a_r + 3 a_{r+1} + a_{r+2} + a_{r+3}.
        let doubled = xtime_all(x);
        x = doubled ^ rotate_lanes(x ^ doubled, 1) ^ rotate_lanes(x, 2) ^ rotate_lanes(x, 3);
    }
    *state = (x ^ u128::from_le_bytes(*key)).to_le_bytes();
}

/// InvShiftRows as a byte permutation: output byte `r + 4c` is input byte `r + 4 ((c − r) mod 4)`.
const INV_SHIFT_ROWS: [usize; 16] = [0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3];

/// The round of FIPS-197 §5.3.5's equivalent inverse cipher after InvSubBytes, on plain bytes:
/// InvShiftRows, InvMixColumns (skipped when `last`), AddRoundKey with `round_key` (16 bytes; the
/// equivalent cipher's key, InvMixColumns of the round key, in the middle rounds). Word-parallel
/// like the portable [`round_linear_bytes`]: InvMixColumns is MixColumns after adding
/// {04}(a_r + a_{r+2}) to every byte (see [`inv_mix_columns`]). No branch or index on the state.
/// Panics if `round_key` is shorter than 16 bytes.
#[inline]
pub fn inv_round_linear_bytes(state: &mut [u8; 16], round_key: &[u8], last: bool) {
    let key: &[u8; 16] = round_key[..16].try_into().expect("a round key has 16 bytes");
    let shifted: [u8; 16] = core::array::from_fn(|k| state[INV_SHIFT_ROWS[k]]);
    let mut x = u128::from_le_bytes(shifted);
    if !last {
        x ^= xtime_all(xtime_all(x ^ rotate_lanes(x, 2)));
        let doubled = xtime_all(x);
        x = doubled ^ rotate_lanes(x ^ doubled, 1) ^ rotate_lanes(x, 2) ^ rotate_lanes(x, 3);
    }
    *state = (x ^ u128::from_le_bytes(*key)).to_le_bytes();
}

/// The AES round instructions used for the linear layer alone. `aesenc(y, k)` computes
/// `MixColumns(SubBytes(ShiftRows(y))) ⊕ k`, and `aesdeclast(z, 0)` computes
/// `InvSubBytes(InvShiftRows(z))`. With `z = ShiftRows(x)` (one byte shuffle) the latter is
/// `InvSubBytes(x)`, and as SubBytes works byte by byte it commutes with ShiftRows, so
/// `aesenc(aesdeclast(ShiftRows(x), 0), k) = MixColumns(ShiftRows(x)) ⊕ k`.
#[cfg(target_arch = "x86_64")]
mod aesni {
    use core::arch::x86_64::{
        __m128i, _mm_aesdeclast_si128, _mm_aesenc_si128, _mm_loadu_si128, _mm_setr_epi8, _mm_setzero_si128,
        _mm_shuffle_epi8, _mm_storeu_si128, _mm_xor_si128,
    };

    /// Whether this CPU has the instructions (and the portable path is not forced).
    #[inline]
    pub(super) fn available() -> bool {
        let cpu = crate::arch::cpu();
        cpu.aes && cpu.ssse3
    }

    /// [`super::round_linear_bytes`] with AES-NI.
    ///
    /// # Safety
    /// The CPU must support AES-NI and SSSE3 ([`available`]).
    #[target_feature(enable = "aes,ssse3")]
    pub(super) unsafe fn round_linear(state: &mut [u8; 16], key: &[u8; 16], last: bool) {
        // SAFETY: both pointers are to 16 readable (and, for the store, writable) bytes; the
        // unaligned load and store accept any alignment.
        unsafe {
            let x = _mm_loadu_si128(state.as_ptr().cast::<__m128i>());
            let k = _mm_loadu_si128(key.as_ptr().cast::<__m128i>());
            // Byte k of the result is byte SHIFT_ROWS[k] of the input.
            let shift_rows = _mm_setr_epi8(0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11);
            let shifted = _mm_shuffle_epi8(x, shift_rows);
            let out = if last {
                _mm_xor_si128(shifted, k)
            } else {
                _mm_aesenc_si128(_mm_aesdeclast_si128(shifted, _mm_setzero_si128()), k)
            };
            _mm_storeu_si128(state.as_mut_ptr().cast::<__m128i>(), out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    fn reference(state: &[u8; 16], key: &[u8; 16], last: bool) -> [u8; 16] {
        let mut s = state.map(Gf256);
        shift_rows(&mut s);
        if !last {
            mix_columns(&mut s);
        }
        core::array::from_fn(|j| s[j].0 ^ key[j])
    }

    #[test]
    fn gf256_round_linear_is_the_word_parallel_form() {
        let mut rng = ChaCha20Rng::seed_from_u64(42);
        for _ in 0..200 {
            let (mut state, mut key) = ([0u8; 16], [0u8; 16]);
            rng.fill_bytes(&mut state);
            rng.fill_bytes(&mut key);
            for last in [false, true] {
                let mut s = state.map(Gf256);
                Gf256::round_linear(&mut s, &key.map(Gf256), last);
                assert_eq!(s.map(|b| b.0), reference(&state, &key, last));
            }
        }
    }

    #[test]
    fn round_linear_bytes_matches_the_generic_aes_maps() {
        let mut rng = ChaCha20Rng::seed_from_u64(41);
        for i in 0..2000 {
            let (mut state, mut key) = ([0u8; 16], [0u8; 16]);
            rng.fill_bytes(&mut state);
            rng.fill_bytes(&mut key);
            if i < 256 {
                // Every byte value in every position at least once.
                state = core::array::from_fn(|j| (i as u8).wrapping_add(j as u8));
            }
            for last in [false, true] {
                let want = reference(&state, &key, last);
                let mut fast = state;
                round_linear_bytes(&mut fast, &key, last);
                assert_eq!(fast, want, "state {state:?}, last {last}");
                let mut portable = state;
                round_linear_portable(&mut portable, &key, last);
                assert_eq!(portable, want, "portable: state {state:?}, last {last}");
                #[cfg(target_arch = "x86_64")]
                if aesni::available() {
                    let mut aesni_out = state;
                    // SAFETY: `available` checked the CPU features.
                    unsafe { aesni::round_linear(&mut aesni_out, &key, last) };
                    assert_eq!(aesni_out, want, "AES-NI: state {state:?}, last {last}");
                }
            }
        }
    }

    #[test]
    fn inv_round_linear_bytes_matches_the_generic_inverse_maps() {
        let mut rng = ChaCha20Rng::seed_from_u64(43);
        for i in 0..1000 {
            let (mut state, mut key) = ([0u8; 16], [0u8; 16]);
            rng.fill_bytes(&mut state);
            rng.fill_bytes(&mut key);
            if i < 256 {
                state = core::array::from_fn(|j| (i as u8).wrapping_add(j as u8));
            }
            for last in [false, true] {
                let mut s = state.map(Gf256);
                inv_shift_rows(&mut s);
                if !last {
                    inv_mix_columns(&mut s);
                }
                let want: [u8; 16] = core::array::from_fn(|j| s[j].0 ^ key[j]);
                let mut fast = state;
                inv_round_linear_bytes(&mut fast, &key, last);
                assert_eq!(fast, want, "state {state:?}, last {last}");
            }
        }
    }

    #[test]
    fn inv_mix_columns_is_the_textbook_product_and_inverts_mix_columns() {
        let mut rng = ChaCha20Rng::seed_from_u64(42);
        for i in 0..1000 {
            let mut bytes = [0u8; 16];
            rng.fill_bytes(&mut bytes);
            if i < 256 {
                bytes = core::array::from_fn(|j| (i as u8).wrapping_mul(j as u8 + 1));
            }
            let state = bytes.map(Gf256);
            // FIPS-197 §5.3.3: each column times {0b}x^3 + {0d}x^2 + {09}x + {0e}.
            let mut textbook = state;
            for col in textbook.chunks_exact_mut(4) {
                let a = [col[0], col[1], col[2], col[3]];
                for (r, out) in col.iter_mut().enumerate() {
                    *out = a[r].mul_public(0x0e)
                        + a[(r + 1) % 4].mul_public(0x0b)
                        + a[(r + 2) % 4].mul_public(0x0d)
                        + a[(r + 3) % 4].mul_public(0x09);
                }
            }
            let mut fast = state;
            inv_mix_columns(&mut fast);
            assert_eq!(fast, textbook);
            mix_columns(&mut fast);
            assert_eq!(fast, state);
        }
    }
}
