//! n-party authenticated bits (the format of the [parent module](super)): [`NBits`] keeps a batch
//! flat — one share bit, and `n` MACs and `n` keys per bit (slot `me` zero) — and [`NBit`] is one
//! element, for the local operations.

use super::MAX_PARTIES;
use crate::net::PartyId;
use crate::ot::tinyot::mask;
use crate::ot::{ABit, Block};

/// One party's part of one authenticated bit.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct NBit {
    /// This party's share `x^i`.
    pub bit: bool,
    /// `macs[j] = M_j[x^i] = K_j[x^i] ⊕ x^i·Δ_j` (0 at this party's index and beyond `n`).
    pub macs: [Block; MAX_PARTIES],
    /// `keys[j] = K_i[x^j]`, this party's key for peer j's share (0 at its own index).
    pub keys: [Block; MAX_PARTIES],
}

impl core::fmt::Debug for NBit {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("NBit(..)")
    }
}

impl NBit {
    /// `⟨x ⊕ y⟩` (local).
    pub fn xor(mut self, o: &NBit) -> NBit {
        self.bit ^= o.bit;
        for j in 0..MAX_PARTIES {
            self.macs[j] ^= o.macs[j];
            self.keys[j] ^= o.keys[j];
        }
        self
    }

    /// `⟨c·x⟩` for a public bit `c` (local).
    pub fn times(mut self, c: bool) -> NBit {
        let m = mask(c);
        self.bit &= c;
        for j in 0..MAX_PARTIES {
            self.macs[j] &= m;
            self.keys[j] &= m;
        }
        self
    }

    /// `⟨x ⊕ c⟩` for a public bit `c`: party 0 flips its share, every other party shifts its key
    /// for party 0's share by `c·Δ` (local).
    pub fn add_public(mut self, c: bool, me: PartyId, delta: Block) -> NBit {
        if me == 0 {
            self.bit ^= c;
        } else {
            self.keys[0] ^= delta & mask(c);
        }
        self
    }

    /// This party's share of `x·Δ⊕` (`Δ⊕ = ⊕_i Δ_i`): `x^i·Δ_i ⊕ ⊕_j (M_j[x^i] ⊕ K_i[x^j])`.
    /// Summed over the parties, every key meets its MAC and the `x^i·Δ_j` terms remain.
    pub fn delta_share(&self, delta: Block) -> Block {
        let mut s = delta & mask(self.bit);
        for j in 0..MAX_PARTIES {
            s ^= self.macs[j] ^ self.keys[j];
        }
        s
    }
}

/// A batch of one party's authenticated bits.
#[derive(Clone, PartialEq, Eq)]
pub struct NBits {
    parties: usize,
    me: PartyId,
    bits: Vec<bool>,
    /// `macs[e·n + j] = M_j[x_e^me]`.
    macs: Vec<Block>,
    /// `keys[e·n + j] = K_me[x_e^j]`.
    keys: Vec<Block>,
}

impl core::fmt::Debug for NBits {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("NBits").field("len", &self.bits.len()).field("parties", &self.parties).finish()
    }
}

impl NBits {
    /// An empty batch for party `me` of `parties` with room for `capacity` bits.
    pub fn with_capacity(parties: usize, me: PartyId, capacity: usize) -> Self {
        NBits {
            parties,
            me,
            bits: Vec::with_capacity(capacity),
            macs: Vec::with_capacity(capacity * parties),
            keys: Vec::with_capacity(capacity * parties),
        }
    }

    /// A batch from this party's shares and, per party `j` (empty at `me`), the MACs of the shares
    /// under `j`'s key and this party's keys for `j`'s shares.
    pub(super) fn from_columns(
        me: PartyId,
        bits: Vec<bool>,
        macs: &[Vec<Block>],
        keys: &[Vec<Block>],
    ) -> Self {
        let (parties, len) = (macs.len(), bits.len());
        let column = |cols: &[Vec<Block>], e: usize, j: usize| if j == me { 0 } else { cols[j][e] };
        let mut out = NBits::with_capacity(parties, me, len);
        for e in 0..len {
            out.macs.extend((0..parties).map(|j| column(macs, e, j)));
            out.keys.extend((0..parties).map(|j| column(keys, e, j)));
        }
        out.bits = bits;
        out
    }

    /// Bit `e` as seen towards peer `q` alone, in the two-party format: this party's share, its
    /// MAC under `q`'s key and its key for `q`'s share.
    #[inline]
    pub fn pair(&self, e: usize, q: PartyId) -> ABit {
        let at = e * self.parties + q;
        ABit { bit: self.bits[e], mac: self.macs[at], key: self.keys[at] }
    }

    /// The number of bits.
    pub fn len(&self) -> usize {
        self.bits.len()
    }

    /// Whether the batch is empty.
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// The number of parties.
    pub fn parties(&self) -> usize {
        self.parties
    }

    /// This party's share of bit `e`.
    pub fn bit(&self, e: usize) -> bool {
        self.bits[e]
    }

    /// `M_j[x_e]`: the MAC of this party's share of bit `e` under party `j`'s key.
    pub fn mac(&self, e: usize, j: PartyId) -> Block {
        self.macs[e * self.parties + j]
    }

    /// `K[x_e^j]`: this party's key for party `j`'s share of bit `e`.
    pub fn key(&self, e: usize, j: PartyId) -> Block {
        self.keys[e * self.parties + j]
    }

    /// Bit `e` as one element.
    pub fn get(&self, e: usize) -> NBit {
        let mut out = NBit { bit: self.bits[e], macs: [0; MAX_PARTIES], keys: [0; MAX_PARTIES] };
        let at = e * self.parties..(e + 1) * self.parties;
        out.macs[..self.parties].copy_from_slice(&self.macs[at.clone()]);
        out.keys[..self.parties].copy_from_slice(&self.keys[at]);
        out
    }

    /// Appends one element.
    pub fn push(&mut self, x: &NBit) {
        self.bits.push(x.bit);
        self.macs.extend_from_slice(&x.macs[..self.parties]);
        self.keys.extend_from_slice(&x.keys[..self.parties]);
    }

    /// Replaces bit `e`.
    pub fn set(&mut self, e: usize, x: &NBit) {
        self.bits[e] = x.bit;
        let at = e * self.parties..(e + 1) * self.parties;
        self.macs[at.clone()].copy_from_slice(&x.macs[..self.parties]);
        self.keys[at].copy_from_slice(&x.keys[..self.parties]);
    }

    /// Keeps the first `len` bits.
    pub fn truncate(&mut self, len: usize) {
        self.bits.truncate(len);
        self.macs.truncate(len * self.parties);
        self.keys.truncate(len * self.parties);
    }

    /// Splits off the bits from `at` on (as `Vec::split_off`).
    pub fn split_off(&mut self, at: usize) -> NBits {
        NBits {
            parties: self.parties,
            me: self.me,
            bits: self.bits.split_off(at),
            macs: self.macs.split_off(at * self.parties),
            keys: self.keys.split_off(at * self.parties),
        }
    }

    /// This party's share of `x_e·Δ⊕` ([`NBit::delta_share`] of bit `e`, read in place).
    pub fn delta_share(&self, e: usize, delta: Block) -> Block {
        let at = e * self.parties..(e + 1) * self.parties;
        let macs = self.macs[at.clone()].iter().fold(0, |s, m| s ^ m);
        self.keys[at].iter().fold(macs ^ (delta & mask(self.bits[e])), |s, k| s ^ k)
    }

    /// Bit `e` becomes `⟨x_e ⊕ c⟩` for a public bit `c` ([`NBit::add_public`] in place).
    pub fn add_public(&mut self, e: usize, c: bool, delta: Block) {
        if self.me == 0 {
            self.bits[e] ^= c;
        } else {
            self.keys[e * self.parties] ^= delta & mask(c);
        }
    }

    /// Appends bit `e` of `src` (a batch of the same party and session size).
    pub fn push_from(&mut self, src: &NBits, e: usize) {
        let at = e * self.parties..(e + 1) * self.parties;
        self.bits.push(src.bits[e]);
        self.macs.extend_from_slice(&src.macs[at.clone()]);
        self.keys.extend_from_slice(&src.keys[at]);
    }

    /// Bit `e` becomes `⟨x_e ⊕ c·s_k⟩` for bit `k` of `src` and a public bit `c` (local).
    pub fn xor_from(&mut self, e: usize, src: &NBits, k: usize, c: bool) {
        let (n, m) = (self.parties, mask(c));
        self.bits[e] ^= src.bits[k] & c;
        for (d, s) in self.macs[e * n..(e + 1) * n].iter_mut().zip(&src.macs[k * n..(k + 1) * n]) {
            *d ^= s & m;
        }
        for (d, s) in self.keys[e * n..(e + 1) * n].iter_mut().zip(&src.keys[k * n..(k + 1) * n]) {
            *d ^= s & m;
        }
    }

    /// Appends every bit of `other` (a batch of the same party and session size).
    pub fn append(&mut self, other: &mut NBits) {
        debug_assert_eq!((self.parties, self.me), (other.parties, other.me));
        self.bits.append(&mut other.bits);
        self.macs.append(&mut other.macs);
        self.keys.append(&mut other.keys);
    }

    /// Drops every bit (and its memory).
    pub fn clear(&mut self) {
        *self = NBits::with_capacity(self.parties, self.me, 0);
    }

    /// The MACs of every bit under party `j`'s key, in order.
    pub(super) fn macs_for(&self, j: PartyId) -> impl Iterator<Item = Block> + '_ {
        self.macs.iter().skip(j).step_by(self.parties).copied()
    }

    /// This party's keys for party `j`'s share of every bit, in order.
    pub(super) fn keys_for(&self, j: PartyId) -> impl Iterator<Item = Block> + '_ {
        self.keys.iter().skip(j).step_by(self.parties).copied()
    }

    /// Every share bit, in order.
    pub fn shares(&self) -> &[bool] {
        &self.bits
    }
}
