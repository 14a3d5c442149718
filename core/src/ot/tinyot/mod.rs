//! TinyOT authenticated bits and AND triples between two parties, from the OT engine — the
//! preprocessing TinyTable's Fig. 8 / §4 constructions consume (the TinyTable paper, §4: "the
//! format used in the TinyOT protocol [NNOB12]"; it names [FKOS15] as the faster route).
//!
//! **Format.** A shared bit `x = x_A ⊕ x_B`; party P holds its share `x_P`, the MAC
//! `M_P[x_P] = K_Q[x_P] ⊕ x_P·Δ_Q` and the key `K_P[x_Q]` of the peer's share, with `Δ_P` its
//! global key — 128-bit here ([`ABit`]); callers that use k-bit MACs (TinyTable's k = 64 / 32)
//! truncate every MAC, key and `Δ` alike, which keeps the relation.
//!
//! **Authenticated bits** ([`TinyOt::abits`]) are correlated OTs in both directions, from KOS15
//! ([`super::extension`], [`TinyOt::setup`]) or SoftSpoken ([`super::softspoken`], chosen with
//! [`TinyOt::setup_with`]; [`SOFTSPOKEN_K`] is the recommended block size): each party is the
//! extension's receiver with its random shares as choice bits (its MACs) and the sender with
//! `Δ_P` (its keys). The extensions' correlation check makes the receiver's choice bits
//! consistent; what a cheating receiver can learn is a few bits of `Δ` at the risk of an abort.
//! With SoftSpoken the two directions are set up together, one batch of public-key base OTs for
//! both ([`super::softspoken::setup_with_peers`]: the second direction's base OTs are hashed
//! correlated OTs of the first), and extended interleaved ([`super::softspoken::extend_both`]),
//! so both parties compute at once; KOS15's run one after the other.
//!
//! **AND triples** ([`TinyOt::and_triples`]) follow Wang–Ranellucci–Katz ("Authenticated
//! Garbling and Efficient Maliciously Secure Two-Party Computation", CCS 2017, §3 / Π_aAND) with
//! the half-gate leaky AND of Katz–Ranellucci–Rosulek–Wang ("Optimizing Authenticated Garbling
//! for Faster Secure Two-Party Computation", CRYPTO 2018, Fig. 5):
//! 1. [`leaky_and`]: from random authenticated `[a], [b], [r]`, each party garbles one half gate
//!    on its key of the peer's `a` share (`G = H(K) ⊕ H(K ⊕ Δ) ⊕ C`, `C = b·Δ ⊕ K[b] ⊕ M[b]`),
//!    evaluates the peer's, and obtains `S_A ⊕ S_B = (a·b ⊕ r)·Δ*` with `Δ* = Δ_A ⊕ Δ_B`. Bit 63
//!    of every `Δ` is pinned (1 for party 0, 0 for party 1), so the parties open
//!    `d = a·b ⊕ r` from bit 63 of `S`, set `[z] = [r] ⊕ d`, and `L_P = S_P ⊕ d·Δ_P` must then be
//!    equal. A cheating garbler changes the evaluator's `S` only where the evaluator's `a` share is
//!    1: the check leaks that share bit (the triple is "leaky").
//! 2. One commit-then-open exchange ([`coins`]) compares digests of the `L` vectors (the
//!    equality check) and tosses the coins of the next step.
//! 3. [`bucket`]: the leaky triples are permuted by the coins into buckets of `B`; each bucket
//!    is combined into one triple (`x = ⊕ x_i`, `y = y_1`, opening `d_i = y_1 ⊕ y_i` with a
//!    MAC check), so its `x` leaks only if every triple of the bucket leaked. `B` is the smallest
//!    size with `(B − 1)·log2 N > s` for `N ≥ 1024` buckets and `s` = [`STAT_SECURITY`] bits
//!    (the rule emp-ag2pc uses for this step); smaller requests are served from 1024 buckets.
//!    Callers with k ≤ 64-bit MACs take the triples from [`TinyOt::and_triples_low64_as`], which
//!    runs the leaky AND (8-byte half gates, `L` compared on 64 bits), keeps the leaky triples and
//!    checks the openings on the low 64 bits of every MAC, key and `Δ`: a forgery then needs the
//!    63 unpinned bits of `Δ` there, still far beyond `s`.
//!
//! Steps 1 and the authenticated bits under it run in passes of [`LEAKY_CHUNK`] leaky triples, so
//! a large batch keeps only its leaky triples (not every pass's OT rows and half gates) in memory;
//! the equality check's digests run over all passes, so the check and the bucketing are those of
//! one batch.
//!
//! Trust model: two parties, either may be malicious; every failed check is an
//! [`OtError::CheckFailed`] naming it, and the instance refuses further use. Nothing here
//! depends on a trusted party.

mod bucket;
mod coins;
mod leaky_and;
#[cfg(test)]
mod tests;

pub(crate) use bucket::permutation;
pub(crate) use leaky_and::pack;

use rand_core::{CryptoRng, RngCore};
use sha2::{Digest, Sha256};

use super::dispatch::{self, ExtReceiver, ExtSender, Extension};
use super::prg::TccrHash;
use super::softspoken;
use super::{Block, OtError};
use crate::net::{Network, PartyId};

/// Statistical security of the bucketing, in bits.
pub const STAT_SECURITY: u32 = 40;
/// The fewest buckets a triple batch is computed with (smaller requests are padded to it).
pub const MIN_BUCKETS: usize = 1024;
/// The SoftSpoken block size recommended for TinyOT's authenticated bits
/// ([`Extension::SoftSpoken`]): `k = 4` sends 4 bytes per OT and direction instead of KOS15's 16,
/// for about 4 AES blocks per OT and side instead of about 2. `k = 8` halves the bytes again, but
/// at about 32 AES blocks per OT and side it is too slow where AES is software (WASM in the
/// browser), and both parties of a session must use the same k.
pub const SOFTSPOKEN_K: u8 = 4;
/// Leaky triples made per pass of authenticated bits and leaky ANDs: large enough that each
/// pass's OT extension and round trips are amortised, small enough that a pass's working vectors
/// (its OT rows, authenticated bits and half gates) stay at tens of megabytes per party.
const LEAKY_CHUNK: usize = 1 << 17;
/// The pinned bit of every `Δ` (set for party 0, clear for party 1): inside the low 64 bits, so
/// the leaky AND can run at 64 bits for callers with k ≤ 64-bit MACs ([`bucket::StoredMac`]).
const PINNED_BIT: u32 = 63;

/// One party's part of an authenticated bit: its share, the MAC of its share under the peer's
/// `Δ`, and its key for the peer's share.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct ABit {
    /// This party's share.
    pub bit: bool,
    /// `M[bit] = K_peer ⊕ bit·Δ_peer`.
    pub mac: Block,
    /// This party's key for the peer's share.
    pub key: Block,
}

impl core::fmt::Debug for ABit {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("ABit(..)")
    }
}

/// An all-ones block if `bit`, else zero (no branch).
#[inline]
pub(crate) fn mask(bit: bool) -> Block {
    0u128.wrapping_sub(bit as u128)
}

impl ABit {
    /// `[x ⊕ y]` (local).
    pub fn xor(self, o: ABit) -> ABit {
        ABit { bit: self.bit ^ o.bit, mac: self.mac ^ o.mac, key: self.key ^ o.key }
    }

    /// `[c·x]` for a public bit `c` (local).
    pub fn times(self, c: bool) -> ABit {
        ABit { bit: self.bit & c, mac: self.mac & mask(c), key: self.key & mask(c) }
    }

    /// `[x ⊕ c]` for a public bit `c`: party 0 flips its share, party 1 shifts its key for party
    /// 0's share by `c·Δ_1` (local).
    pub fn add_public(self, c: bool, party: PartyId, delta: Block) -> ABit {
        if party == 0 {
            ABit { bit: self.bit ^ c, ..self }
        } else {
            ABit { key: self.key ^ (delta & mask(c)), ..self }
        }
    }
}

/// The bucket size for `buckets` triples: the smallest `B ≥ 2` with `(B − 1)·log2(buckets) >
/// STAT_SECURITY`, `buckets` taken as at least [`MIN_BUCKETS`].
pub fn bucket_size(buckets: usize) -> usize {
    let log = (buckets.max(MIN_BUCKETS) as f64).log2();
    let mut b = 2;
    while (b - 1) as f64 * log <= STAT_SECURITY as f64 {
        b += 1;
    }
    b
}

/// One party's TinyOT preprocessing with one peer: both directions of OT extension and the
/// state of the triple generation.
pub struct TinyOt {
    party: PartyId,
    peer: PartyId,
    session: Vec<u8>,
    sender: ExtSender,
    receiver: ExtReceiver,
    hash: TccrHash,
    /// Half gates garbled so far (their tweaks).
    gates: u64,
    /// Triple batches so far (their coin tosses).
    batches: u64,
    /// Leaky triples per pass ([`LEAKY_CHUNK`]; tests lower it to run several passes).
    leaky_chunk: usize,
    failed: bool,
}

impl core::fmt::Debug for TinyOt {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TinyOt")
            .field("party", &self.party)
            .field("batches", &self.batches)
            .finish_non_exhaustive()
    }
}

impl TinyOt {
    /// Sets up both directions of KOS15 OT extension with `peer` (256 base OTs in all). Both
    /// parties call this with the same `session` tag; the session must have parties 0 and 1 only.
    /// The same as [`setup_with`](Self::setup_with) with [`Extension::Kos15`].
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        session: &[u8],
        rng: &mut R,
    ) -> Result<Self, OtError> {
        Self::setup_with(net, session, Extension::Kos15, rng).await
    }

    /// [`setup`](Self::setup) with the OT extension `extension` in both directions (both parties
    /// must pass the same one).
    pub async fn setup_with<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        session: &[u8],
        extension: Extension,
        rng: &mut R,
    ) -> Result<Self, OtError> {
        extension.validate()?;
        if net.parties() != 2 {
            return Err(OtError::InvalidRequest(format!(
                "TinyOT needs 2 parties, the session has {}",
                net.parties()
            )));
        }
        let (party, peer) = (net.party(), 1 - net.party());
        let pin = 1u128 << PINNED_BIT;
        let delta = (rng.next_u64() as u128 | (rng.next_u64() as u128) << 64) & !pin
            | if party == 0 { pin } else { 0 };
        let tag = |from: PartyId| [session, b"/from-", &[from as u8]].concat();
        // SoftSpoken: both directions at once, one batch of public-key base OTs for the pair.
        let (sender, receiver) =
            dispatch::setup_with_peers(net, |from, _| tag(from), extension, |_| delta, rng)
                .await?
                .swap_remove(peer)
                .ok_or_else(|| OtError::InvalidRequest("no ends for the peer".into()))?;
        Ok(TinyOt {
            party,
            peer,
            session: session.to_vec(),
            sender,
            receiver,
            hash: TccrHash::default(),
            gates: 0,
            batches: 0,
            leaky_chunk: LEAKY_CHUNK,
            failed: false,
        })
    }

    /// This party's global key `Δ`.
    pub fn delta(&self) -> Block {
        self.sender.delta()
    }

    /// This party's index (0 or 1).
    pub fn party(&self) -> PartyId {
        self.party
    }

    fn guard(&mut self) -> Result<(), OtError> {
        super::begin_step(&mut self.failed, "TinyOT instance")
    }

    /// `count` random authenticated bits.
    pub async fn abits<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<Vec<ABit>, OtError> {
        self.guard()?;
        let out = self.abits_inner(net, count, rng).await?;
        self.failed = false;
        Ok(out)
    }

    async fn abits_inner<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<Vec<ABit>, OtError> {
        // The shares: one CSPRNG bit each, drawn a byte at a time.
        let mut bytes = vec![0u8; count.div_ceil(8)];
        rng.fill_bytes(&mut bytes);
        let bits: Vec<bool> = (0..count).map(|i| bytes[i / 8] >> (i % 8) & 1 == 1).collect();
        let (keys, macs) = if let (ExtSender::SoftSpoken(s), ExtReceiver::SoftSpoken(r)) =
            (&mut self.sender, &mut self.receiver)
        {
            softspoken::extend_both(s, r, net, &bits, rng).await?
        } else if self.party == 0 {
            let keys = self.sender.extend_correlated(net, count, rng).await?;
            (keys, self.receiver.extend_correlated(net, &bits, rng).await?)
        } else {
            let macs = self.receiver.extend_correlated(net, &bits, rng).await?;
            (self.sender.extend_correlated(net, count, rng).await?, macs)
        };
        Ok(bits.into_iter().zip(macs).zip(keys).map(|((bit, mac), key)| ABit { bit, mac, key }).collect())
    }

    /// `count` AND triples `[x], [y], [z = x·y]`, as `[x, y, z]` per triple.
    pub async fn and_triples<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<Vec<[ABit; 3]>, OtError> {
        self.and_triples_as(net, count, rng, |t| t).await
    }

    /// [`and_triples`](Self::and_triples), each triple converted by `f` as it is made (for
    /// callers that keep triples in another format).
    pub async fn and_triples_as<N: Network, R: RngCore + CryptoRng, T>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
        f: impl Fn([ABit; 3]) -> T,
    ) -> Result<Vec<T>, OtError> {
        self.triples_stored_as::<N, R, Block, T>(net, count, rng, f).await
    }

    /// [`and_triples_as`](Self::and_triples_as) for callers that use at most 64-bit MACs: the
    /// leaky ANDs send and compare, the leaky triples are kept, and the bucketing's openings
    /// checked, on the low 64 bits of every MAC, key and `Δ`; the triples handed to `f` have bits
    /// 64..128 of their MACs and keys zero. The checks' forgery chance stays 2^-63 (bit 63 is
    /// pinned), far below 2^-[`STAT_SECURITY`]; the half gates and the store the bucketing reads
    /// at random are half as large.
    pub async fn and_triples_low64_as<N: Network, R: RngCore + CryptoRng, T>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
        f: impl Fn([ABit; 3]) -> T,
    ) -> Result<Vec<T>, OtError> {
        self.triples_stored_as::<N, R, u64, T>(net, count, rng, f).await
    }

    async fn triples_stored_as<N: Network, R: RngCore + CryptoRng, W: bucket::StoredMac, T>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
        f: impl Fn([ABit; 3]) -> T,
    ) -> Result<Vec<T>, OtError> {
        self.guard()?;
        let buckets = count.max(MIN_BUCKETS);
        let b = bucket_size(buckets);
        let m = buckets * b;
        // Authenticated bits and leaky ANDs run `leaky_chunk` triples at a time, so only the
        // leaky triples themselves are kept for the whole batch; the L digest runs over all
        // chunks in order, the same digest as one pass would give.
        let mut leaky = bucket::LeakyTriples::<W>::with_capacity(m);
        let mut digest = Sha256::new();
        while leaky.len() < m {
            let n = self.leaky_chunk.min(m - leaky.len());
            let mut all = self.abits_inner(net, 3 * n, rng).await?;
            let (xy, z) = all.split_at_mut(2 * n);
            let (x, y) = xy.split_at(n);
            // The leaky AND turns the random bits r into z in place.
            self.leaky_and::<N, W>(net, x, y, z, &mut digest).await?;
            leaky.extend(x, y, z);
        }
        let coins = self.equality_and_coins(net, digest.finalize().into(), rng).await?;
        let mut triples = self.bucket(net, &leaky, b, count, coins, f).await?;
        triples.truncate(count);
        self.batches += 1;
        self.failed = false;
        Ok(triples)
    }
}
