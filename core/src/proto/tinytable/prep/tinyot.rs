//! Authenticated bits and AND triples in the TinyOT format (§4, \[NNOB12\]), behind the
//! [`TinyOtSource`] trait, with an ideal-functionality implementation [`IdealTinyOt`].
//!
//! A shared bit `[[x]]`, `x = x_A ⊕ x_B`: party A holds `(x_A, y_A, β_A)` and B holds
//! `(x_B, y_B, β_B)` with `y_A = α_B·x_A ⊕ β_B` and `y_B = α_A·x_B ⊕ β_A`, where `α_P` is party
//! P's global key in GF(2^k). Because shares are bits, `α·x` is `α` or 0, so the format needs only
//! XOR of k-bit words ([`MacWord`]). Sums and products with public bits are local ([`Auth`]).
//!
//! Two implementations:
//! - [`OtTinyOt`], the protocol: authenticated bits and triples from OT between the two parties
//!   ([`crate::ot::TinyOt`]: SoftSpoken OT extension ([`EXTENSION`]), WRK17/KRRW18 leaky AND
//!   with bucketing), with the 128-bit MACs, keys and global keys truncated to k bits — the MAC
//!   relation holds bit by bit. The bit TinyOT pins in each global key (bit 63, public) lies
//!   inside the k = 64 truncation, so there a forgery needs the other 63 bits of `α`. Nothing but
//!   the two parties is trusted.
//! - [`OtAuthBitPool`]: the same OT-generated bits and triples, made ahead and handed to the §4
//!   S-box-table construction through its synchronous [`AuthBitSource`] (k = 64, the §3 MAC's
//!   64-bit `α`; tags and keys are the low 64 bits of TinyOT's, which keeps the relation).
//! - [`IdealTinyOt`], a **test helper**: it stands in for the TinyOT preprocessing
//!   functionality. Both parties' instances expand one shared seed and each keeps its own view,
//!   so each instance could compute the other's shares: an *ideal functionality for tests and
//!   benchmarks*, not a protocol.

use crate::net::{Network, PartyId};
use crate::ot::tinyot::SOFTSPOKEN_K;
use crate::ot::{ABit, Extension, TinyOt};
use crate::proto::tinytable::error::TinyTableError;
use crate::proto::tinytable::mac::lookup::MacWord;
use crate::proto::tinytable::sbox::construct::{take_from_pool, AuthBit, AuthBitSource, AuthTriple};
use core::future::Future;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

/// The OT extension under [`OtTinyOt`]'s authenticated bits: SoftSpoken with [`SOFTSPOKEN_K`],
/// 4 bytes per OT and direction instead of KOS15's 16. It takes about the time KOS15 takes, natively
/// and in WASM with the bit-sliced AES (its extra AES work is paid back in fewer bytes to encrypt
/// and move), so it is chosen for the bytes; both parties of a session use it.
pub const EXTENSION: Extension = Extension::SoftSpoken { k: SOFTSPOKEN_K };

/// One party's part of an authenticated bit `[[x]]`: its share, the MAC of its share under the
/// peer's global key, and its key for the peer's share.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Auth<M> {
    /// This party's share `x_P`.
    pub bit: bool,
    /// `y_P = α_Q·x_P ⊕ β_Q`.
    pub mac: M,
    /// `β_P`, this party's key for the peer's share.
    pub key: M,
}

impl<M> core::fmt::Debug for Auth<M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Auth(..)")
    }
}

impl<M: MacWord> Auth<M> {
    /// `[[a ⊕ b]]`, the sum in GF(2) (local).
    pub fn xor(self, other: Self) -> Self {
        Auth { bit: self.bit ^ other.bit, mac: self.mac ^ other.mac, key: self.key ^ other.key }
    }

    /// `[[c·a]]` for a public bit `c` (local).
    pub fn times(self, c: bool) -> Self {
        Auth { bit: self.bit & c, mac: self.mac.times_bit(c), key: self.key.times_bit(c) }
    }

    /// `[[a ⊕ c]]` for a public bit `c`: party 0 flips its share, party 1 shifts its key for party
    /// 0's share by `α_1·c` (local).
    pub fn add_public(self, c: bool, party: PartyId, global_key: M) -> Self {
        if party == 0 {
            Auth { bit: self.bit ^ c, ..self }
        } else {
            Auth { key: self.key ^ global_key.times_bit(c), ..self }
        }
    }

    /// The MAC the peer's share `peer_bit` must carry under this party's key.
    pub fn expected_peer_mac(self, peer_bit: bool, global_key: M) -> M {
        global_key.times_bit(peer_bit) ^ self.key
    }
}

/// A source of TinyOT-format correlated randomness for one party (§4): random authenticated bits
/// and AND triples `[[x]], [[y]], [[z = x·y]]`. Both parties call the same methods in the same
/// order; the source may talk to the peer over `net`.
pub trait TinyOtSource<M: MacWord> {
    /// This party's global MAC key `α_P`.
    fn global_key(&self) -> M;

    /// `count` random authenticated bits.
    fn random_bits<N: Network>(
        &mut self,
        net: &mut N,
        count: usize,
    ) -> impl Future<Output = Result<Vec<Auth<M>>, TinyTableError>>;

    /// `count` AND triples, as `(x, y, z)` per triple.
    fn and_triples<N: Network>(
        &mut self,
        net: &mut N,
        count: usize,
    ) -> impl Future<Output = Result<Vec<[Auth<M>; 3]>, TinyTableError>>;
}

/// The ideal TinyOT functionality (see the module docs for its trust model).
pub struct IdealTinyOt<M> {
    party: PartyId,
    rng: ChaCha20Rng,
    alpha: [M; 2],
}

impl<M> core::fmt::Debug for IdealTinyOt<M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("IdealTinyOt").field("party", &self.party).finish()
    }
}

impl<M: MacWord> IdealTinyOt<M> {
    /// The two parties' handles of one functionality instance, seeded by `seed`.
    pub fn pair(seed: [u8; 32]) -> [IdealTinyOt<M>; 2] {
        [0, 1].map(|party| {
            let mut rng = ChaCha20Rng::from_seed(seed);
            let alpha = [M::random(&mut rng), M::random(&mut rng)];
            IdealTinyOt { party, rng, alpha }
        })
    }

    /// Both parties' views of a bit whose shares are `shares`, with fresh keys.
    fn share(&mut self, shares: [bool; 2]) -> Auth<M> {
        let keys = [M::random(&mut self.rng), M::random(&mut self.rng)];
        let (me, peer) = (self.party, 1 - self.party);
        Auth { bit: shares[me], mac: self.alpha[peer].times_bit(shares[me]) ^ keys[peer], key: keys[me] }
    }

    fn random_bit(&mut self) -> bool {
        self.rng.next_u32() & 1 == 1
    }
}

impl<M: MacWord> TinyOtSource<M> for IdealTinyOt<M> {
    fn global_key(&self) -> M {
        self.alpha[self.party]
    }

    async fn random_bits<N: Network>(
        &mut self,
        _: &mut N,
        count: usize,
    ) -> Result<Vec<Auth<M>>, TinyTableError> {
        Ok((0..count)
            .map(|_| {
                let shares = [self.random_bit(), self.random_bit()];
                self.share(shares)
            })
            .collect())
    }

    async fn and_triples<N: Network>(
        &mut self,
        _: &mut N,
        count: usize,
    ) -> Result<Vec<[Auth<M>; 3]>, TinyTableError> {
        Ok((0..count)
            .map(|_| {
                let x = [self.random_bit(), self.random_bit()];
                let y = [self.random_bit(), self.random_bit()];
                let z0 = self.random_bit();
                let z = [z0, z0 ^ ((x[0] ^ x[1]) & (y[0] ^ y[1]))];
                [self.share(x), self.share(y), self.share(z)]
            })
            .collect())
    }
}

/// TinyOT preprocessing between the two parties over OT (see the module docs), with k-bit MACs.
pub struct OtTinyOt<M> {
    inner: TinyOt,
    rng: ChaCha20Rng,
    _mac: core::marker::PhantomData<M>,
}

impl<M> core::fmt::Debug for OtTinyOt<M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OtTinyOt").field("party", &self.inner.party()).finish_non_exhaustive()
    }
}

/// The low k bits of a 128-bit MAC, key or global key.
fn truncate<M: MacWord>(block: crate::ot::Block) -> M {
    M::get(&block.to_le_bytes())
}

fn truncate_bit<M: MacWord>(a: ABit) -> Auth<M> {
    Auth { bit: a.bit, mac: truncate(a.mac), key: truncate(a.key) }
}

impl<M: MacWord> OtTinyOt<M> {
    /// Sets up the OT extensions of both directions with the peer (both parties call this with
    /// the same `session` tag); `rng` is this party's CSPRNG (for example
    /// [`crate::rng::session_rng`]).
    pub async fn setup<N: Network>(
        net: &mut N,
        session: &[u8],
        mut rng: ChaCha20Rng,
    ) -> Result<Self, TinyTableError> {
        let party = net.party();
        let inner = TinyOt::setup_with(net, session, EXTENSION, &mut rng)
            .await
            .map_err(|source| TinyTableError::Preprocessing { party, source })?;
        Ok(OtTinyOt { inner, rng, _mac: core::marker::PhantomData })
    }

    /// `count` AND triples with k-bit MACs, each converted by `f` as the bucketing makes it.
    async fn triples_as<N: Network, T>(
        &mut self,
        net: &mut N,
        count: usize,
        f: impl Fn([Auth<M>; 3]) -> T,
    ) -> Result<Vec<T>, TinyTableError> {
        let party = net.party();
        self.inner
            .and_triples_low64_as(net, count, &mut self.rng, |t| f(t.map(truncate_bit)))
            .await
            .map_err(|source| TinyTableError::Preprocessing { party, source })
    }
}

impl<M: MacWord> TinyOtSource<M> for OtTinyOt<M> {
    fn global_key(&self) -> M {
        truncate(self.inner.delta())
    }

    async fn random_bits<N: Network>(
        &mut self,
        net: &mut N,
        count: usize,
    ) -> Result<Vec<Auth<M>>, TinyTableError> {
        let party = net.party();
        let bits = self
            .inner
            .abits(net, count, &mut self.rng)
            .await
            .map_err(|source| TinyTableError::Preprocessing { party, source })?;
        Ok(bits.into_iter().map(truncate_bit).collect())
    }

    async fn and_triples<N: Network>(
        &mut self,
        net: &mut N,
        count: usize,
    ) -> Result<Vec<[Auth<M>; 3]>, TinyTableError> {
        self.triples_as(net, count, |t| t).await
    }
}

/// Authenticated bits and triples generated over OT before the §4 S-box construction runs, in
/// the construction's [`AuthBit`] format (see the module docs).
pub struct OtAuthBitPool {
    party: PartyId,
    alpha: u64,
    bits: Vec<AuthBit>,
    triples: Vec<AuthTriple>,
}

impl core::fmt::Debug for OtAuthBitPool {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OtAuthBitPool")
            .field("party", &self.party)
            .field("bits", &self.bits.len())
            .field("triples", &self.triples.len())
            .finish_non_exhaustive()
    }
}

impl OtAuthBitPool {
    /// Generates `bits` authenticated bits and `triples` triples with the peer over `source`.
    pub async fn generate<N: Network>(
        net: &mut N,
        source: &mut OtTinyOt<u64>,
        bits: usize,
        triples: usize,
    ) -> Result<Self, TinyTableError> {
        let to_bit = |a: Auth<u64>| AuthBit { share: a.bit, tag: a.mac as u128, key: a.key as u128 };
        let triples = source
            .triples_as(net, triples, |[a, b, c]| AuthTriple { a: to_bit(a), b: to_bit(b), c: to_bit(c) })
            .await?;
        let bits = source.random_bits(net, bits).await?.into_iter().map(to_bit).collect();
        Ok(OtAuthBitPool { party: net.party(), alpha: source.global_key(), bits, triples })
    }
}

impl AuthBitSource for OtAuthBitPool {
    fn alpha(&self) -> u64 {
        self.alpha
    }
    fn random_bits(&mut self, n: usize) -> Result<Vec<AuthBit>, TinyTableError> {
        take_from_pool(self.party, &mut self.bits, n, "the OT-generated pool", "bits")
    }
    fn triples(&mut self, n: usize) -> Result<Vec<AuthTriple>, TinyTableError> {
        take_from_pool(self.party, &mut self.triples, n, "the OT-generated pool", "triples")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::memory::MemoryNetwork;

    /// Both views of a value are consistent: each share's MAC is the other party's key shifted by
    /// the other party's global key times the share.
    fn valid<M: MacWord>(views: [Auth<M>; 2], alpha: [M; 2]) -> bool {
        (0..2).all(|p| views[p].mac == views[1 - p].expected_peer_mac(views[p].bit, alpha[1 - p]))
    }

    fn check_source<M: MacWord>() {
        let [mut a, mut b] = IdealTinyOt::<M>::pair([5; 32]);
        let alpha = [a.global_key(), b.global_key()];
        assert_ne!(alpha[0], alpha[1]);
        let mut nets = MemoryNetwork::session(2);
        let run = |s: &mut IdealTinyOt<M>, net: &mut MemoryNetwork| {
            futures::executor::block_on(async {
                (s.random_bits(net, 50).await.expect("bits"), s.and_triples(net, 50).await.expect("triples"))
            })
        };
        let (net0, net1) = nets.split_at_mut(1);
        let (bits_a, triples_a) = run(&mut a, &mut net0[0]);
        let (bits_b, triples_b) = run(&mut b, &mut net1[0]);
        let mut ones = 0;
        for (j, (&x, &y)) in bits_a.iter().zip(&bits_b).enumerate() {
            assert!(valid([x, y], alpha), "bit {j}");
            ones += usize::from(x.bit ^ y.bit);
            let c = j % 3 == 0;
            let sum = [x.xor(bits_a[0]), y.xor(bits_b[0])];
            assert!(valid(sum, alpha));
            assert!(valid([x.times(c), y.times(c)], alpha));
            let shifted = [x.add_public(c, 0, alpha[0]), y.add_public(c, 1, alpha[1])];
            assert!(valid(shifted, alpha));
            assert_eq!(shifted[0].bit ^ shifted[1].bit, x.bit ^ y.bit ^ c);
        }
        assert!((10..40).contains(&ones), "random bits look random: {ones} of 50");
        for (ta, tb) in triples_a.iter().zip(&triples_b) {
            let open = |k: usize| ta[k].bit ^ tb[k].bit;
            assert_eq!(open(2), open(0) & open(1));
            assert!((0..3).all(|k| valid([ta[k], tb[k]], alpha)));
        }
    }

    #[test]
    fn ideal_source_gives_valid_macs_and_triples_k64() {
        check_source::<u64>();
    }

    #[test]
    fn ideal_source_gives_valid_macs_and_triples_k32() {
        check_source::<u32>();
    }
}
