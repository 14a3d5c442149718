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
//! **Seed-derived table shares** ([`TableSeed`]): of the two XOR shares `A, B` of an S-box table
//! (§2.3) one may be any pseudorandom string, as long as the party holding the *other* share
//! cannot predict it. So the dealer gives that party a fresh 16-byte seed `k` instead of the 256
//! bytes, and sets the other party's share to `S(e ⊕ m_in) ⊕ m_out ⊕ PRF_k(e)`. The PRF is the
//! single-key Even–Mansour cipher over fixed-key AES-128, `PRF_k(x) = π(k ⊕ x) ⊕ k` with `π` AES
//! under the public constant [`PERMUTATION_KEY`] — fixed-key AES modelled as a random permutation,
//! the model §3.3 already uses for the batched opening. Entry `e` of table `t` is byte `e mod 16`
//! of `PRF_k(16 t + ⌊e / 16⌋)` (counter as a little-endian 128-bit integer), so the dealer makes a
//! whole derived table with 16 calls and the party computes one entry with one. A party never
//! learns the peer's seed, so the peer's derived entries look uniform to it, exactly as stored
//! random shares do. With one fixed key for everything, the online phase runs the AES passes of
//! many blocks back to back with the round keys in registers. RustCrypto's `aes` selects AES-NI
//! at run time and its constant-time bitsliced software path elsewhere (wasm32).

use aes::cipher::consts::U16;
use aes::cipher::generic_array::GenericArray;
use aes::cipher::{BlockEncrypt, KeyInit};
use aes::Aes128Enc;
use std::sync::OnceLock;

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

/// The public key of the fixed permutation `π` of the seed-derived tables.
pub const PERMUTATION_KEY: [u8; 16] = *b"chorus/tt/sbox-p";

/// `π`: AES-128 under [`PERMUTATION_KEY`], expanded once per process.
fn permutation() -> &'static Aes128Enc {
    static PERMUTATION: OnceLock<Aes128Enc> = OnceLock::new();
    PERMUTATION.get_or_init(|| Aes128Enc::new(GenericArray::from_slice(&PERMUTATION_KEY)))
}

/// A party's seed for its derived table shares of one block: entry `e` of table `t` is byte
/// `e mod 16` of `π(k ⊕ (16 t + ⌊e / 16⌋)) ⊕ k` (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct TableSeed(u128);

impl TableSeed {
    /// The seed `k`.
    pub(crate) fn new(seed: [u8; 16]) -> Self {
        TableSeed(u128::from_le_bytes(seed))
    }

    /// The permutation input for entries `16 c .. 16 c + 15` of table `table`.
    #[inline(always)]
    fn input(self, table: usize, chunk: usize) -> GenericArray<u8, U16> {
        GenericArray::from((self.0 ^ (16 * table + chunk) as u128).to_le_bytes())
    }

    /// All 256 entries of table `table`.
    pub(crate) fn table(self, table: usize) -> [u8; 256] {
        let mut blocks: [GenericArray<u8, U16>; 16] = core::array::from_fn(|c| self.input(table, c));
        permutation().encrypt_blocks(&mut blocks);
        let mut out = [0u8; 256];
        let seed = self.0.to_le_bytes();
        for (dst, b) in out.chunks_exact_mut(16).zip(&blocks) {
            dst.iter_mut().zip(b.iter().zip(&seed)).for_each(|(d, (x, k))| *d = x ^ k);
        }
        out
    }
}

/// A permutation input or output block.
pub(crate) type PermBlock = GenericArray<u8, U16>;

/// Derived entries in bulk: [`TableSeed::request`] writes the permutation input of an entry,
/// [`permute_all`] runs the permutation over many inputs in one pass (AES-NI pipelines them), and
/// [`TableSeed::entry_from`] reads the entry off the output.
pub(crate) fn permute_all(blocks: &mut [PermBlock]) {
    permutation().encrypt_blocks(blocks);
}

impl TableSeed {
    /// The permutation input for entry `entry` (a public masked byte) of table `table`.
    #[inline(always)]
    pub(crate) fn request(self, table: usize, entry: u8) -> PermBlock {
        self.input(table, usize::from(entry >> 4))
    }

    /// Entry `entry` from the permutation's output on [`Self::request`]'s block.
    #[inline(always)]
    pub(crate) fn entry_from(self, output: &PermBlock, entry: u8) -> u8 {
        let pos = usize::from(entry & 15);
        output[pos] ^ self.0.to_le_bytes()[pos]
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
    fn bulk_entries_match_whole_tables_and_the_definition() {
        let seeds = [TableSeed::new([9; 16]), TableSeed::new(core::array::from_fn(|i| i as u8 * 7))];
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let requests: Vec<(usize, usize, u8)> = (0..300)
            .map(|i| (i % 2, (rng.next_u32() % 160) as usize, rng.next_u32() as u8))
            .chain([(0, 0, 0), (1, 159, 255), (0, 7, 16)])
            .collect();
        let mut blocks: Vec<PermBlock> = requests.iter().map(|&(s, t, e)| seeds[s].request(t, e)).collect();
        permute_all(&mut blocks);
        for (k, &(s, t, e)) in requests.iter().enumerate() {
            let want = seeds[s].table(t)[usize::from(e)];
            assert_eq!(seeds[s].entry_from(&blocks[k], e), want, "request {k}");
        }
        // Entry e of table t is byte e mod 16 of AES_P(k ⊕ (16 t + e / 16)) ⊕ k.
        let cipher = ::aes::Aes128::new(GenericArray::from_slice(&PERMUTATION_KEY));
        let seed: [u8; 16] = core::array::from_fn(|i| i as u8 * 7);
        let (t, e) = (37usize, 0xa5u8);
        let mut x = u128::from_le_bytes(seed) ^ (16 * t + usize::from(e >> 4)) as u128;
        let mut block = GenericArray::from(x.to_le_bytes());
        cipher.encrypt_block(&mut block);
        x = u128::from_le_bytes(block.into()) ^ u128::from_le_bytes(seed);
        assert_eq!(seeds[1].table(t)[usize::from(e)], x.to_le_bytes()[usize::from(e & 15)]);
        assert_ne!(seeds[0].table(0), seeds[0].table(1));
        assert_ne!(seeds[0].table(0), seeds[1].table(0));
    }
}
