//! Batched opening (TinyTable §3.3): instead of sending every tag `y_i`, the committer sends
//! `H(y_1, …, y_n) = ⊕_i F(y_i)` (16 bytes) and the verifier compares it with `H` of the tags it
//! recomputes as `α·x_i + β_i`. `F` is AES-128 under a fixed, per-execution public key, modelled
//! as a random permutation (§3.3); [`ManyAes`] uses AES-NI natively (runtime detection) and the
//! constant-time `simd128` bit-sliced AES in the WASM build.
//!
//! The hash is an XOR of independent terms, so it is accumulated incrementally (one [`BatchHash`]
//! per direction, fed round by round) and the order of the terms does not matter.
//!
//! Also here: [`KeyPrf`], AES-128 under a secret key as a PRF on indices, which lets a verifier
//! derive its per-entry MAC keys `β_i` from a 16-byte seed instead of storing them (so a party
//! stores `2k` extra bits per table entry — its tag — as §5 counts).

use crate::arch::ManyAes;

/// AES blocks encrypted per call to the cipher (lets AES-NI pipeline).
const CHUNK: usize = 32;

/// An incrementally computed `H(d_1, …, d_n) = ⊕ F(d_i)` with `F` fixed-key AES-128 (§3.3).
#[derive(Clone)]
pub struct BatchHash {
    cipher: ManyAes,
    acc: u128,
}

impl core::fmt::Debug for BatchHash {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BatchHash").finish_non_exhaustive()
    }
}

impl BatchHash {
    /// A hash with the fixed AES key `key` and no terms yet.
    pub fn new(key: &[u8; 16]) -> Self {
        BatchHash { cipher: ManyAes::new(key), acc: 0 }
    }

    /// Adds `F(d)` for every `d` in `items`.
    pub fn absorb(&mut self, items: &[u128]) {
        let mut buf = [0u128; CHUNK];
        for chunk in items.chunks(CHUNK) {
            let blocks = &mut buf[..chunk.len()];
            blocks.copy_from_slice(chunk);
            self.cipher.encrypt(blocks);
            self.acc = blocks.iter().fold(self.acc, |acc, b| acc ^ b);
        }
    }

    /// The hash of all terms absorbed so far.
    pub fn digest(&self) -> [u8; 16] {
        self.acc.to_le_bytes()
    }
}

/// AES-128 under a secret key as a PRF from 64-bit indices to elements of G = GF(2^127).
#[derive(Clone)]
pub struct KeyPrf {
    cipher: ManyAes,
    /// The seed, kept so a dealer's material can be serialized (the AES-128 key schedule is
    /// invertible, so this holds no more secret than `cipher`).
    seed: [u8; 16],
}

impl core::fmt::Debug for KeyPrf {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The seed is a secret MAC key.
        f.debug_struct("KeyPrf").finish_non_exhaustive()
    }
}

impl KeyPrf {
    /// The PRF with secret seed `seed`.
    pub fn new(seed: &[u8; 16]) -> Self {
        KeyPrf { cipher: ManyAes::new(seed), seed: *seed }
    }

    /// The secret seed this PRF was made from (for serializing dealer material).
    pub fn seed(&self) -> &[u8; 16] {
        &self.seed
    }

    /// `out[j] = PRF(indices[j])`, with bit 127 cleared so the value lies in G.
    pub fn eval(&self, indices: &[u64], out: &mut [u128]) {
        let n = indices.len().min(out.len());
        let out = &mut out[..n];
        for (d, &i) in out.iter_mut().zip(indices) {
            *d = u128::from(i);
        }
        self.cipher.encrypt(out);
        for d in out.iter_mut() {
            *d &= crate::proto::tinytable::mac::linear::G127_MASK;
        }
    }

    /// `PRF(index)`.
    pub fn one(&self, index: u64) -> u128 {
        let mut out = [0u128];
        self.eval(&[index], &mut out);
        out[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aes::cipher::generic_array::GenericArray;
    use aes::cipher::{BlockEncrypt, KeyInit};
    use aes::Aes128;

    fn f(key: &[u8; 16], d: u128) -> u128 {
        let cipher = Aes128::new(GenericArray::from_slice(key));
        let mut b = GenericArray::from(d.to_le_bytes());
        cipher.encrypt_block(&mut b);
        u128::from_le_bytes(b.into())
    }

    #[test]
    fn hash_is_xor_of_fixed_key_aes_in_any_order_and_chunking() {
        let key = [7u8; 16];
        let items: Vec<u128> =
            (0..100u128).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)).collect();
        let expected = items.iter().fold(0, |acc, &d| acc ^ f(&key, d));
        let mut whole = BatchHash::new(&key);
        whole.absorb(&items);
        assert_eq!(whole.digest(), expected.to_le_bytes());
        let mut parts = BatchHash::new(&key);
        parts.absorb(&items[60..]);
        parts.absorb(&items[..7]);
        parts.absorb(&items[7..60]);
        assert_eq!(parts.digest(), whole.digest());
        let mut changed = items.clone();
        changed[42] ^= 1 << 100;
        let mut other = BatchHash::new(&key);
        other.absorb(&changed);
        assert_ne!(other.digest(), whole.digest());
        let mut other_key = BatchHash::new(&[8u8; 16]);
        other_key.absorb(&items);
        assert_ne!(other_key.digest(), whole.digest());
    }

    #[test]
    fn fips197_key_and_prf_agree_with_single_blocks() {
        // FIPS-197 Appendix C.1 through the hash of one term.
        let key = crate::aes::fips197::KEY;
        let pt = u128::from_le_bytes(crate::aes::fips197::PLAINTEXT);
        let mut h = BatchHash::new(&key);
        h.absorb(&[pt]);
        assert_eq!(h.digest(), crate::aes::fips197::CIPHERTEXT);
        let prf = KeyPrf::new(&key);
        let idx: Vec<u64> = (0..70).collect();
        let mut out = vec![0u128; idx.len()];
        prf.eval(&idx, &mut out);
        for (&i, &o) in idx.iter().zip(&out) {
            assert_eq!(o, f(&key, u128::from(i)) & (u128::MAX >> 1));
            assert_eq!(prf.one(i), o);
        }
    }
}
