//! k-bit authentication strings of the lookup MAC scheme (Fig. 3/5), for k = 64 ([`u64`]) and
//! k = 32 ([`u32`]).
//!
//! In Fig. 3 each committed bit `v` of the prover comes with the string `a^v` held by the prover,
//! while the verifier holds both strings `a^0, a^1`; the strings are independent and uniform. They
//! are only ever XORed (accumulated, Fig. 5 steps 2–4), so a string is a plain k-bit word and no
//! field multiplication is needed. Forging one wrong opened bit means guessing a k-bit string
//! unknown to the prover: success probability `2^-k` (Theorem 1).
//!
//! Independence of `a^0` and `a^1` matters: with linear keys (`a^1 = a^0 ⊕ Δ`) the XOR of the MACs
//! of two flipped bits would cancel. Fig. 8 derives the strings with a random oracle `F` for that
//! reason; [`derive`] is that `F`, instantiated with SHA-256 (domain-separated by a tweak naming
//! the gate, instance, entry and prover, so strings of different entries are unrelated).

use rand_core::RngCore;
use sha2::{Digest, Sha256};

/// A k-bit authentication string: the MAC width of the lookup MAC scheme.
pub trait MacWord:
    Copy
    + Default
    + Eq
    + core::fmt::Debug
    + core::ops::BitXor<Output = Self>
    + core::ops::BitXorAssign
    + Send
    + Sync
    + 'static
{
    /// k / 8: bytes of one string.
    const BYTES: usize;
    /// A uniform string.
    fn random<R: RngCore + ?Sized>(rng: &mut R) -> Self;
    /// `self` if `bit`, else zero (`α · x` for a bit `x`), without a branch.
    fn times_bit(self, bit: bool) -> Self;
    /// The little-endian encoding, appended to `out`.
    fn put(self, out: &mut Vec<u8>);
    /// Reads a string from its first [`Self::BYTES`] little-endian bytes; the caller checked the
    /// length.
    fn get(bytes: &[u8]) -> Self;
}

macro_rules! mac_word {
    ($t:ty) => {
        impl MacWord for $t {
            const BYTES: usize = core::mem::size_of::<$t>();
            fn random<R: RngCore + ?Sized>(rng: &mut R) -> Self {
                rng.next_u64() as $t
            }
            fn times_bit(self, bit: bool) -> Self {
                self & (<$t>::from(bit)).wrapping_neg()
            }
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(bytes: &[u8]) -> Self {
                let mut raw = [0u8; core::mem::size_of::<$t>()];
                raw.copy_from_slice(&bytes[..Self::BYTES]);
                <$t>::from_le_bytes(raw)
            }
        }
    };
}

mac_word!(u64);
mac_word!(u32);

/// Which committed bit a derived string belongs to (the tweak of [`derive`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tweak {
    /// Entry `entry` of AND table `gate` of instance `instance`, committed by party `prover`.
    Table { prover: usize, gate: usize, instance: usize, entry: usize },
    /// The share of output-wire position `position` of instance `instance` held by `prover`.
    Output { prover: usize, position: usize, instance: usize },
}

/// The random oracle `F` of Fig. 8: maps a TinyOT MAC or key (`value`, a k-bit field element
/// written as a [`MacWord`]) to an independent-looking k-bit string, domain-separated by `tweak`.
pub(crate) fn derive<M: MacWord>(tweak: Tweak, value: M) -> M {
    let (kind, prover, index, instance, entry) = match tweak {
        Tweak::Table { prover, gate, instance, entry } => (0u8, prover, gate, instance, entry),
        Tweak::Output { prover, position, instance } => (1u8, prover, position, instance, 0),
    };
    // At most 8 + 4 + 16 + 8 = 36 bytes: one SHA-256 compression.
    let mut input = [0u8; 36];
    input[..8].copy_from_slice(b"TT/fig8F");
    input[8..12].copy_from_slice(&[kind, M::BYTES as u8, prover as u8, entry as u8]);
    input[12..20].copy_from_slice(&(index as u64).to_le_bytes());
    input[20..28].copy_from_slice(&(instance as u64).to_le_bytes());
    let mut raw = Vec::with_capacity(M::BYTES);
    value.put(&mut raw);
    input[28..28 + M::BYTES].copy_from_slice(&raw);
    M::get(&Sha256::digest(input))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_bit_and_encoding_round_trip() {
        for x in [0u64, 1, 0xdead_beef_0123_4567, u64::MAX] {
            assert_eq!(x.times_bit(true), x);
            assert_eq!(x.times_bit(false), 0);
            let mut out = Vec::new();
            x.put(&mut out);
            assert_eq!(out.len(), 8);
            assert_eq!(u64::get(&out), x);
            let y = x as u32;
            let mut out = Vec::new();
            y.put(&mut out);
            assert_eq!((out.len(), u32::get(&out)), (4, y));
            assert_eq!(y.times_bit(true) ^ y.times_bit(false), y);
        }
    }

    #[test]
    fn derive_separates_tweaks_and_values() {
        let t = Tweak::Table { prover: 0, gate: 3, instance: 1, entry: 2 };
        let u = Tweak::Table { prover: 1, gate: 3, instance: 1, entry: 2 };
        let o = Tweak::Output { prover: 0, position: 3, instance: 1 };
        let v = 0x1234_5678_9abc_def0u64;
        assert_eq!(derive(t, v), derive(t, v));
        assert_ne!(derive(t, v), derive(u, v));
        assert_ne!(derive(t, v), derive(o, v));
        assert_ne!(derive(t, v), derive(t, v ^ 1));
        assert_ne!(derive::<u32>(t, 5), derive::<u32>(t, 4));
    }
}
