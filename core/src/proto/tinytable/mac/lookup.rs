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
//! reason; [`derive_into`] is that `F`, instantiated with a fixed-key-AES tweakable hash
//! (domain-separated by a tweak naming the gate, instance, entry and prover, so strings of
//! different entries are unrelated).
//!
//! `SeededKeys`: the trusted dealer's verifier strings are not sampled and stored but derived
//! from a 16-byte secret seed with AES-128 as a PRF: entry `j`'s pair `(a^0, a^1)` is the first
//! `2k` bits of `AES_seed(j)` (one block per entry, so the two strings are independent and uniform
//! under the PRF assumption). The online verifier then reads no key material: it encrypts the
//! indices of the entries actually opened (one block per opened entry) and keeps the half the
//! received bit selects. The online loop (`opened_macs`) computes these blocks with a
//! fused AES-NI kernel when the CPU has AES-NI (detected at run time) and otherwise through
//! [`ManyAes`] (`SeededKeys::blocks`; on wasm32 the constant-time `simd128` bit-sliced AES).
//!
//! One block per opened entry is also the least a verifier can compute with this derivation, even
//! at k = 32 where half of each block is unused: which entry of an instance is opened (the public
//! masked index) and which string of it is needed (the received bit) are independent and uniform
//! per instance, so a block shared by two instances holds both needed strings only for a fixed
//! fraction of the 64 equally likely choices (at most 4 of the 16 strings of a pair of instances
//! fit in one block); and the strings of one instance cannot come from fewer bits, since the prover
//! knows one string of every entry (Fig. 3) and each other string must stay independent of those.

use crate::arch::ManyAes;
use rand_core::RngCore;

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
    /// The string as the low bits of a block (zero above).
    fn widen(self) -> u128;
    /// The string for bit `bit` of a PRF block: little-endian bytes `bit·k/8 .. (bit + 1)·k/8`
    /// (see `SeededKeys`). Both halves are read and one is selected by a mask, without a branch.
    fn from_block(block: &[u8; 16], bit: bool) -> Self;
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
            fn widen(self) -> u128 {
                u128::from(self)
            }
            fn from_block(block: &[u8; 16], bit: bool) -> Self {
                let x = u128::from_le_bytes(*block);
                let (zero, one) = (x as $t, (x >> <$t>::BITS) as $t);
                zero ^ (zero ^ one).times_bit(bit)
            }
        }
    };
}

mac_word!(u64);
mac_word!(u32);

/// The verifier's strings of every committed table entry of a batch, derived from a secret seed
/// (module docs). Entry `j` (the index in [`super::MaliciousPrep`]'s own-string layout) has
/// strings `M::from_block(AES_seed(j), b)`.
#[derive(Clone)]
pub(crate) struct SeededKeys {
    cipher: ManyAes,
    /// Kept so the material can be serialized and compared (the AES-128 key schedule is
    /// invertible, so this holds no more secret than `cipher`).
    seed: [u8; 16],
}

impl PartialEq for SeededKeys {
    fn eq(&self, other: &Self) -> bool {
        self.seed == other.seed
    }
}

impl Eq for SeededKeys {}

/// AES blocks per call to the cipher: enough for AES-NI to pipeline, small enough for the stack.
pub(crate) const KEY_CHUNK: usize = 64;

/// A buffer of [`KEY_CHUNK`] AES blocks (little-endian).
pub(crate) type KeyBlocks = [u128; KEY_CHUNK];

/// An all-zero [`KeyBlocks`].
pub(crate) fn key_blocks() -> KeyBlocks {
    [0; KEY_CHUNK]
}

impl SeededKeys {
    /// The keys of seed `seed`.
    pub(crate) fn new(seed: [u8; 16]) -> Self {
        SeededKeys { cipher: ManyAes::new(&seed), seed }
    }

    /// A fresh uniform seed.
    pub(crate) fn random<R: RngCore + ?Sized>(rng: &mut R) -> Self {
        let mut seed = [0u8; 16];
        rng.fill_bytes(&mut seed);
        Self::new(seed)
    }

    /// The secret seed (for serializing dealer material).
    pub(crate) fn seed(&self) -> &[u8; 16] {
        &self.seed
    }

    /// `blocks[t] = AES_seed(entries[t])` for `t < entries.len() ≤ KEY_CHUNK`.
    pub(crate) fn blocks(&self, entries: &[u64], blocks: &mut KeyBlocks) {
        let blocks = &mut blocks[..entries.len()];
        for (b, &j) in blocks.iter_mut().zip(entries) {
            *b = u128::from(j);
        }
        self.cipher.encrypt(blocks);
    }

    /// The string of entry `entry` for bit `bit` (one block; for tests).
    #[cfg(test)]
    pub(crate) fn key<M: MacWord>(&self, entry: u64, bit: bool) -> M {
        let mut blocks = key_blocks();
        self.blocks(&[entry], &mut blocks);
        M::from_block(&blocks[0].to_le_bytes(), bit)
    }
}

/// Which committed bit a derived string belongs to (the tweak of [`derive_into`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tweak {
    /// Entry `entry` of AND table `gate` of instance `instance`, committed by party `prover`.
    Table { prover: usize, gate: usize, instance: usize, entry: usize },
    /// The share of output-wire position `position` of instance `instance` held by `prover`.
    Output { prover: usize, position: usize, instance: usize },
}

/// The random oracle `F` of Fig. 8 on every `(tweak, value)` of `items`, appended to `out` in
/// order: maps a TinyOT MAC or key (`value`, a k-bit field element written as a [`MacWord`]) to an
/// independent-looking k-bit string, domain-separated by `tweak`.
///
/// Instantiated with the fixed-key-AES tweakable circular correlation-robust hash of
/// [`crate::ot::prg::TccrHash`] (GKWY20): what Fig. 8 needs of `F` is that the two strings of an
/// entry, `F(m)` and `F(m ⊕ α)`, look independent to a party that knows one of them, with the
/// same global key `α` in every entry — circular correlation robustness under a tweak that is
/// unique per (kind, k, prover, entry, gate or position, instance). Tweaks of this function have
/// bit 127 set, which the OT engine's tweaks never do. The hashes are computed [`KEY_CHUNK`] at a
/// time (pipelined fixed-key AES, no allocation per string).
pub(crate) fn derive_into<M: MacWord>(items: impl IntoIterator<Item = (Tweak, M)>, out: &mut Vec<M>) {
    static HASH: std::sync::OnceLock<crate::ot::prg::TccrHash> = std::sync::OnceLock::new();
    let hash = HASH.get_or_init(crate::ot::prg::TccrHash::default);
    let mut tweaks = [0u128; KEY_CHUNK];
    let mut xs = [0u128; KEY_CHUNK];
    let mut n = 0;
    let flush = |tweaks: &[u128], xs: &mut [u128], out: &mut Vec<M>| {
        hash.hash_tweaked(tweaks, xs);
        out.extend(xs.iter().map(|h| M::get(&h.to_le_bytes())));
    };
    for (tweak, value) in items {
        tweaks[n] = tweak_word::<M>(tweak);
        xs[n] = value.widen();
        n += 1;
        if n == KEY_CHUNK {
            flush(&tweaks, &mut xs, out);
            n = 0;
        }
    }
    flush(&tweaks[..n], &mut xs[..n], out);
}

/// `F(tweak, value)` of [`derive_into`] for one string.
#[cfg(test)]
pub(crate) fn derive<M: MacWord>(tweak: Tweak, value: M) -> M {
    let mut out = Vec::with_capacity(1);
    derive_into([(tweak, value)], &mut out);
    out[0]
}

/// The 128-bit tweak of [`derive_into`] for strings of type `M`.
fn tweak_word<M: MacWord>(tweak: Tweak) -> u128 {
    let (kind, prover, index, instance, entry) = match tweak {
        Tweak::Table { prover, gate, instance, entry } => (0u128, prover, gate, instance, entry),
        Tweak::Output { prover, position, instance } => (1u128, prover, position, instance, 0),
    };
    const FIELD: u32 = 48;
    assert!(
        (index as u128) < 1 << FIELD && (instance as u128) < 1 << FIELD && prover < 2 && entry < 4,
        "Fig. 8 tweak out of range"
    );
    1u128 << 127
        | kind << 126
        | (M::BYTES as u128) << 120
        | (prover as u128) << 119
        | (entry as u128) << 116
        | (index as u128) << FIELD
        | instance as u128
}

#[cfg(test)]
mod tests {
    use super::*;
    use aes::cipher::{BlockEncrypt, KeyInit};

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
    fn seeded_keys_are_block_halves_and_differ_per_entry_and_bit() {
        let keys = SeededKeys::new([7; 16]);
        let entries: Vec<u64> = (0..KEY_CHUNK as u64).map(|j| j * 3 + 1).collect();
        let mut blocks = key_blocks();
        keys.blocks(&entries, &mut blocks);
        let cipher = aes::Aes128::new(&[7; 16].into());
        for (b, &j) in blocks.iter().zip(&entries) {
            let mut want = aes::Block::from(u128::from(j).to_le_bytes());
            cipher.encrypt_block(&mut want);
            let raw = b.to_le_bytes();
            assert_eq!(raw, <[u8; 16]>::from(want));
            assert_eq!(u64::from_block(&raw, false), u64::get(&raw[..8]));
            assert_eq!(u64::from_block(&raw, true), u64::get(&raw[8..]));
            assert_eq!(u32::from_block(&raw, true), u32::get(&raw[4..]));
            assert_eq!(keys.key::<u64>(j, true), u64::get(&raw[8..]));
        }
        assert_ne!(keys.key::<u64>(1, false), keys.key::<u64>(1, true));
        assert_ne!(keys.key::<u64>(1, false), keys.key::<u64>(2, false));
        assert_ne!(keys.key::<u32>(1, false), SeededKeys::new([8; 16]).key::<u32>(1, false));
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

    #[test]
    fn derive_into_is_the_hash_of_the_tweak_and_the_widened_value_in_any_batch() {
        let hash = crate::ot::prg::TccrHash::default();
        // More than two batches, so full and partial ones are both covered.
        let items: Vec<(Tweak, u64)> = (0..2 * KEY_CHUNK + 5)
            .map(|j| {
                let tweak = if j % 3 == 0 {
                    Tweak::Output { prover: j % 2, position: j, instance: 7 * j }
                } else {
                    Tweak::Table { prover: j % 2, gate: j / 4, instance: j, entry: j % 4 }
                };
                (tweak, (j as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            })
            .collect();
        let mut all = Vec::new();
        derive_into(items.iter().copied(), &mut all);
        assert_eq!(all.len(), items.len());
        for (j, (&(tweak, value), &got)) in items.iter().zip(&all).enumerate() {
            let want = hash.hash(tweak_word::<u64>(tweak), u128::from(value)) as u64;
            assert_eq!(got, want, "string {j}");
            assert_eq!(derive(tweak, value), want, "string {j} alone");
        }
        let narrow: Vec<u32> = {
            let mut out = Vec::new();
            derive_into(items.iter().map(|&(t, v)| (t, v as u32)), &mut out);
            out
        };
        for (&(tweak, value), &got) in items.iter().zip(&narrow) {
            assert_eq!(got, hash.hash(tweak_word::<u32>(tweak), u128::from(value as u32)) as u32);
        }
    }
}
