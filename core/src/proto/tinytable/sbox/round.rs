//! Seed-derived table shares of the S-box online phases.
//!
//! [`TableSeed`]: of the two XOR shares `A, B` of an S-box table (§2.3) one may be any pseudorandom string, as long as the party holding the *other* share
//! cannot predict it. So the dealer gives that party a fresh 16-byte seed `k` instead of the 256
//! bytes, and sets the other party's share to `S(e ⊕ m_in) ⊕ m_out ⊕ PRF_k(e)`. The PRF is the
//! single-key Even–Mansour cipher over fixed-key AES-128, `PRF_k(x) = π(k ⊕ x) ⊕ k` with `π` AES
//! under the public constant [`PERMUTATION_KEY`] — fixed-key AES modelled as a random permutation,
//! the model §3.3 already uses for the batched opening. Entry `e` of table `t` is byte `e mod 16`
//! of `PRF_k(16 t + ⌊e / 16⌋)` (counter as a little-endian 128-bit integer), so the dealer makes a
//! whole derived table with 16 calls and the party computes one entry with one. A party never
//! learns the peer's seed, so the peer's derived entries look uniform to it, exactly as stored
//! random shares do. With one fixed key for everything, the online phase runs the AES passes of
//! many blocks back to back with the round keys in registers. [`ManyAes`] selects AES-NI at run
//! time natively and the constant-time `simd128` bit-sliced AES in the WASM build.

use crate::arch::ManyAes;
use std::sync::OnceLock;

/// The public key of the fixed permutation `π` of the seed-derived tables.
pub const PERMUTATION_KEY: [u8; 16] = *b"chorus/tt/sbox-p";

/// `π`: AES-128 under [`PERMUTATION_KEY`], expanded once per process.
fn permutation() -> &'static ManyAes {
    static PERMUTATION: OnceLock<ManyAes> = OnceLock::new();
    PERMUTATION.get_or_init(|| ManyAes::new(&PERMUTATION_KEY))
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
    fn input(self, table: usize, chunk: usize) -> PermBlock {
        self.0 ^ (16 * table + chunk) as u128
    }

    /// All 256 entries of table `table`.
    pub(crate) fn table(self, table: usize) -> [u8; 256] {
        let mut blocks: [PermBlock; 16] = core::array::from_fn(|c| self.input(table, c));
        permutation().encrypt(&mut blocks);
        let mut out = [0u8; 256];
        for (dst, b) in out.chunks_exact_mut(16).zip(&blocks) {
            dst.copy_from_slice(&(b ^ self.0).to_le_bytes());
        }
        out
    }
}

/// A permutation input or output block (little-endian).
pub(crate) type PermBlock = u128;

/// Derived entries in bulk: [`TableSeed::request`] writes the permutation input of an entry,
/// [`permute_all`] runs the permutation over many inputs in one pass (AES-NI pipelines them), and
/// [`TableSeed::entry_from`] reads the entry off the output.
pub(crate) fn permute_all(blocks: &mut [PermBlock]) {
    permutation().encrypt(blocks);
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
        (output ^ self.0).to_le_bytes()[usize::from(entry & 15)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

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
        use aes::cipher::{BlockEncrypt, KeyInit};
        let cipher = ::aes::Aes128::new(&PERMUTATION_KEY.into());
        let seed: [u8; 16] = core::array::from_fn(|i| i as u8 * 7);
        let (t, e) = (37usize, 0xa5u8);
        let mut x = u128::from_le_bytes(seed) ^ (16 * t + usize::from(e >> 4)) as u128;
        let mut block = aes::Block::from(x.to_le_bytes());
        cipher.encrypt_block(&mut block);
        x = u128::from_le_bytes(block.into()) ^ u128::from_le_bytes(seed);
        assert_eq!(seeds[1].table(t)[usize::from(e)], x.to_le_bytes()[usize::from(e & 15)]);
        assert_ne!(seeds[0].table(0), seeds[0].table(1));
        assert_ne!(seeds[0].table(0), seeds[1].table(0));
    }
}
