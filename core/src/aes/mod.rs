//! AES-128/192/256 (FIPS-197) in plain form, built from the GF(2^8) field operations.
//!
//! This is the reference every MPC AES in Chorus is tested against, and the source of the pieces
//! the protocols reuse:
//! - [`linear`]: ShiftRows, MixColumns and AddRoundKey written once over any [`AesByte`] (plain
//!   bytes here, secret shares in the protocols — the linear layer is local on additive shares);
//! - [`sbox`]: the S-box as inversion in GF(2^8) followed by the affine map (FIPS-197 §5.1.1), split
//!   into its F2-linear part and constant so share-wise evaluation is possible;
//! - [`key_schedule`]: the key expansion (FIPS-197 §5.2) as a sequence of 4-byte `SubWord` steps,
//!   so a protocol can batch the S-boxes of each step.
//!
//! The plain cipher is constant time: the S-box is computed by a fixed addition chain for x^254 and
//! bit rotations, never by a table indexed with key or state bytes.

pub mod fips197;
pub mod key_schedule;
pub mod linear;
pub mod sbox;

use crate::field::Gf256;
pub use key_schedule::{expand_key, KeyExpansion, KeySize, RoundKeys};
pub use linear::AesByte;

/// One AES state or block: 16 bytes in FIPS-197 input order (column-major state).
pub type Block = [u8; 16];

/// Encryption (FIPS-197 §5.1 Cipher) or decryption (§5.3 InvCipher) of the blocks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Blocks are plaintexts; the output is their ciphertexts.
    #[default]
    Encrypt,
    /// Blocks are ciphertexts; the output is their plaintexts.
    Decrypt,
}

impl Direction {
    /// `encrypt` or `decrypt`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Encrypt => "encrypt",
            Direction::Decrypt => "decrypt",
        }
    }

    /// The direction called `name` (see [`Self::name`]).
    pub fn from_name(name: &str) -> Option<Direction> {
        [Direction::Encrypt, Direction::Decrypt].into_iter().find(|d| d.name() == name)
    }
}

/// Errors of the plain AES API.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AesError {
    /// The key is not 16, 24 or 32 bytes long.
    #[error("AES key must be 16, 24 or 32 bytes, got {0}")]
    BadKeyLength(usize),
}

/// An AES cipher with its expanded key.
#[derive(Clone)]
pub struct Aes {
    round_keys: RoundKeys<Gf256>,
}

impl core::fmt::Debug for Aes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never print key material.
        f.debug_struct("Aes").field("key_size", &self.round_keys.key_size()).finish_non_exhaustive()
    }
}

impl Aes {
    /// Expands `key` (16, 24 or 32 bytes selects AES-128, -192 or -256).
    pub fn new(key: &[u8]) -> Result<Self, AesError> {
        let key_size = KeySize::from_key_len(key.len()).ok_or(AesError::BadKeyLength(key.len()))?;
        let key: Vec<Gf256> = key.iter().map(|&b| Gf256(b)).collect();
        let round_keys = expand_key(key_size, &key, |word| {
            for b in word.iter_mut() {
                *b = sbox::sbox(*b);
            }
        });
        Ok(Aes { round_keys })
    }

    /// The key size this cipher was built with.
    pub fn key_size(&self) -> KeySize {
        self.round_keys.key_size()
    }

    /// Encrypts one block (FIPS-197 §5.1, Figure 5).
    pub fn encrypt_block(&self, block: &Block) -> Block {
        let mut state = to_state(block);
        let rounds = self.round_keys.rounds();
        linear::add_round_key(&mut state, self.round_keys.round(0));
        for r in 1..=rounds {
            for b in state.iter_mut() {
                *b = sbox::sbox(*b);
            }
            AesByte::round_linear(&mut state, self.round_keys.round(r), r == rounds);
        }
        from_state(&state)
    }

    /// Decrypts one block (FIPS-197 §5.3, Figure 12: the straightforward inverse cipher).
    pub fn decrypt_block(&self, block: &Block) -> Block {
        let mut state = to_state(block);
        let rounds = self.round_keys.rounds();
        linear::add_round_key(&mut state, self.round_keys.round(rounds));
        for r in (0..rounds).rev() {
            linear::inv_shift_rows(&mut state);
            for b in state.iter_mut() {
                *b = sbox::inv_sbox(*b);
            }
            linear::add_round_key(&mut state, self.round_keys.round(r));
            if r != 0 {
                linear::inv_mix_columns(&mut state);
            }
        }
        from_state(&state)
    }

    /// Encrypts every block in place.
    pub fn encrypt_blocks(&self, blocks: &mut [Block]) {
        for b in blocks.iter_mut() {
            *b = self.encrypt_block(b);
        }
    }

    /// Decrypts every block in place.
    pub fn decrypt_blocks(&self, blocks: &mut [Block]) {
        for b in blocks.iter_mut() {
            *b = self.decrypt_block(b);
        }
    }
}

fn to_state(block: &Block) -> [Gf256; 16] {
    block.map(Gf256)
}

fn from_state(state: &[Gf256; 16]) -> Block {
    state.map(|b| b.0)
}

#[cfg(test)]
mod tests;
