//! Pieces of the S-box online phases that run once per state byte: the AES linear layer on
//! 16 plain bytes (word-parallel), and seed-derived table shares.
//!
//! **Linear layer** ([`linear_layer`]): ShiftRows, MixColumns (FIPS-197 §5.1.2, §5.1.3) and
//! AddRoundKey on a masked state, a mask or a share (all GF(2)-linear, §2.3). The generic
//! [`crate::aes::linear`] works byte by byte over any `AesByte`; here the four columns are the
//! four 32-bit lanes of one `u128` and `xtime` runs on all 16 bytes at once. It is a fast path of
//! the same maps for plain bytes, cross-checked against [`crate::aes::linear`] in the tests below.
//! Portable integer code only (no secret-dependent branch or index), so wasm32 runs it unchanged.
//!
//! **Seed-derived table shares** ([`TableStream`]): of the two XOR shares `A, B` of an S-box table
//! (§2.3) one may be any pseudorandom string, as long as the party holding the *other* share
//! cannot predict it. So the dealer gives that party a fresh 16-byte seed instead of the 256
//! bytes, and sets the other party's share to `S(e ⊕ m_in) ⊕ m_out ⊕ PRF(e)`. The PRF is AES-128
//! under the seed in counter mode: entry `e` of table `t` is byte `e mod 16` of
//! `AES_seed(16 t + ⌊e / 16⌋)` (counter as a little-endian 128-bit integer), so the dealer makes a
//! whole derived table with 16 AES calls and the party computes one entry with one. A party never
//! learns the peer's seed, so the peer's derived entries look uniform to it exactly as stored
//! random shares do (security of AES as a PRF). RustCrypto's `aes` selects AES-NI at run time
//! and its constant-time bitsliced software path elsewhere (wasm32).

use aes::cipher::generic_array::GenericArray;
use aes::cipher::{BlockEncrypt, KeyInit};
use aes::Aes128Enc;

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
/// `last`), AddRoundKey with `round_key` (16 bytes).
#[inline]
pub(crate) fn linear_layer(state: &mut [u8; 16], round_key: &[u8], last: bool) {
    let shifted: [u8; 16] = core::array::from_fn(|k| state[SHIFT_ROWS[k]]);
    let mut x = u128::from_le_bytes(shifted);
    if !last {
        // Column bytes a_r (lane byte r): out_r = 2 a_r + 3 a_{r+1} + a_{r+2} + a_{r+3}.
        let doubled = xtime_all(x);
        x = doubled ^ rotate_lanes(x ^ doubled, 1) ^ rotate_lanes(x, 2) ^ rotate_lanes(x, 3);
    }
    let key: [u8; 16] = round_key[..16].try_into().expect("a round key has 16 bytes");
    *state = (x ^ u128::from_le_bytes(key)).to_le_bytes();
}

/// A party's seed-derived table shares: entry `e` of table `t` is byte `e mod 16` of
/// `AES_seed(16 t + ⌊e / 16⌋)` (see the module docs).
#[derive(Clone)]
pub(crate) struct TableStream {
    cipher: Aes128Enc,
}

impl TableStream {
    /// The stream of `seed`.
    pub(crate) fn new(seed: [u8; 16]) -> Self {
        TableStream { cipher: Aes128Enc::new(GenericArray::from_slice(&seed)) }
    }

    /// All 256 entries of table `table`.
    pub(crate) fn table(&self, table: usize) -> [u8; 256] {
        let mut blocks: [GenericArray<u8, _>; 16] =
            core::array::from_fn(|c| GenericArray::from(((16 * table + c) as u128).to_le_bytes()));
        self.cipher.encrypt_blocks(&mut blocks);
        let mut out = [0u8; 256];
        for (dst, b) in out.chunks_exact_mut(16).zip(&blocks) {
            dst.copy_from_slice(b);
        }
        out
    }

    /// Entry `entries[k]` of table `tables[k]` for the eight pairs at once (one pipelined pass of
    /// the cipher). Indices are public (masked bytes).
    #[inline]
    pub(crate) fn entries8(&self, tables: [usize; 8], entries: [u8; 8]) -> [u8; 8] {
        let mut blocks: [GenericArray<u8, _>; 8] = core::array::from_fn(|k| {
            GenericArray::from(((16 * tables[k] + usize::from(entries[k] >> 4)) as u128).to_le_bytes())
        });
        self.cipher.encrypt_blocks(&mut blocks);
        core::array::from_fn(|k| blocks[k][usize::from(entries[k] & 15)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::linear::{mix_columns, shift_rows};
    use crate::field::Gf256;
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
    fn linear_layer_matches_the_generic_aes_maps() {
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
                let mut fast = state;
                linear_layer(&mut fast, &key, last);
                assert_eq!(fast, reference(&state, &key, last), "state {state:?}, last {last}");
            }
        }
    }

    #[test]
    fn single_entries_match_whole_tables() {
        let stream = TableStream::new([9; 16]);
        for (tables, entries) in [([0, 1, 2, 3, 159, 80, 7, 7], [0, 255, 16, 17, 128, 3, 15, 240])] {
            let got = stream.entries8(tables, entries);
            for k in 0..8 {
                assert_eq!(got[k], stream.table(tables[k])[usize::from(entries[k])]);
            }
        }
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        for _ in 0..64 {
            let tables: [usize; 8] = core::array::from_fn(|_| (rng.next_u32() % 160) as usize);
            let entries: [u8; 8] = core::array::from_fn(|_| rng.next_u32() as u8);
            let got = stream.entries8(tables, entries);
            for k in 0..8 {
                assert_eq!(got[k], stream.table(tables[k])[usize::from(entries[k])]);
            }
        }
        // Counter mode under AES-128: table 0's first 16 entries are AES_seed(0).
        let cipher = ::aes::Aes128::new(GenericArray::from_slice(&[9; 16]));
        let mut block = GenericArray::from([0u8; 16]);
        cipher.encrypt_block(&mut block);
        assert_eq!(&stream.table(0)[..16], block.as_slice());
        assert_ne!(stream.table(0), stream.table(1));
        assert_ne!(TableStream::new([8; 16]).table(0), stream.table(0));
    }
}
