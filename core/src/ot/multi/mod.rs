//! TinyOT for any number of parties: authenticated bits and AND triples among n ≥ 2 parties with
//! pairwise MACs, from the OT engine, with no trusted party — the material MiniMac and Coral need
//! when more than two parties hold the inputs and no majority is honest.
//!
//! **Format** ([`NBits`]; the pairwise-MAC sharing of Wang–Ranellucci–Katz, "Global-Scale Secure
//! Multiparty Computation", CCS 2017 (WRK17), §3): a bit `x = ⊕_i x^i`; party i holds its share
//! `x^i`, for every peer j the MAC `M_j[x^i] = K_j[x^i] ⊕ x^i·Δ_j` of its share under j's global
//! key, and its own key `K_i[x^j]` for every peer's share. `Δ_i` is one uniformly random 128-bit
//! string per party, the same towards every peer. This is the layout of Coral's `TinyBit` and of
//! the two-party [`crate::ot::TinyOt`] (whose [`crate::ot::ABit`] is the n = 2 case).
//!
//! **Authenticated bits** ([`abits`]): every ordered pair (i, j) runs correlated OT with the OT
//! engine ([`Extension`]; SoftSpoken interleaves both directions), i the receiver with its shares
//! as choice bits, j the sender with `Δ_j`. Each extension's own check makes i's choices
//! consistent within the pair; that i used the *same* shares with every peer is what the
//! consistency check of Hazay–Scholl–Soria-Vazquez ("Low Cost Constant Round MPC Combining BMR
//! and Oblivious Transfer", Asiacrypt 2017, the n-party F_aBit; WRK17 §3 builds on it) adds: a
//! random GF(2^128) combination of each party's shares is broadcast, and the parties show, with a
//! commit-then-open of their shares of `y·Δ`-terms, that every pairwise MAC agrees with it.
//!
//! **AND triples** ([`and_triples`](MultiTinyOt::and_triples)), WRK17 §4 for n parties:
//! 1. [`leaky_and`]: from authenticated `⟨x⟩, ⟨y⟩, ⟨r⟩`, the cross terms `x^i·y^j` come from the
//!    half-authenticated AND (one bit per triple and ordered pair, from hashes of the MAC keys),
//!    `e = x·y ⊕ r` is broadcast and `⟨z⟩ = ⟨r⟩ ⊕ e`; then the check that `z = x·y`: shares of
//!    `x·(y·Δ⊕)` (another half-authenticated product, 16 bytes per triple and ordered pair) and
//!    of `z·Δ⊕` must sum to zero (`Δ⊕ = ⊕_i Δ_i`). A party that deviates changes an honest
//!    party's share only where that party's `x` share is 1: the check may leak those shares, so
//!    the triples are *leaky*.
//! 2. [`bucket`]: coin-tossed buckets of `B` leaky triples ([`bucket_size`], 40-bit statistical
//!    security as in the two-party engine) combined into one triple each, with MAC-checked
//!    openings, so a triple's `x` leaks only if every triple of its bucket leaked.
//!
//! The checks that sum shares to zero combine all of a batch's values with coin-tossed GF(2^128)
//! coefficients and compare one element per party, through a commit-then-open (`commit`); a
//! broadcast value (the combinations `y`, the bits `e`) is echoed: every party's digest of what it
//! received from everyone goes into the same opening, so equivocation towards different honest
//! parties fails the check.
//!
//! **Trust model:** n ≥ 2 parties (at most [`MAX_PARTIES`]), up to n − 1 of them malicious (static
//! corruption); security with abort. Every failed check is an [`OtError::CheckFailed`] naming it,
//! every malformed frame an [`OtError::Malformed`], and the instance refuses further use; nothing
//! is returned from a batch whose checks did not all pass. Statistical security 40 bits
//! (bucketing; the sum checks are 2^-128 per batch up to the extensions' key-guessing, which costs
//! the guesser half its chance per bit as in the two-party engine). A party that runs the
//! extension towards one peer with another `Δ` fails the consistency check (tested); one that also
//! fixed its own check values accordingly would change only MACs on *honest* shares under its own
//! keys, which only it checks, so the honest parties' triples, MACs and checks do not depend on it.
//! Secrets (shares, `Δ`, keys) never select a branch or an index.
//!
//! The two-party engine [`crate::ot::TinyOt`] stays for n = 2: its half-gate leaky AND (KRRW18)
//! needs one garbled row per triple where this one needs a bit and a block per ordered pair.

pub mod abits;
mod bits;
pub mod bucket;
mod commit;
pub mod leaky_and;
#[cfg(test)]
mod tests;

pub use bits::{NBit, NBits};

use rand_core::{CryptoRng, RngCore};

use super::dispatch::{self, ExtReceiver, ExtSender, Extension};
use super::prg::TccrHash;
use super::tinyot::{bucket_size, MIN_BUCKETS};
use super::{softspoken, Block, OtError};
use crate::field::clmul::Backend;
use crate::net::{Network, PartyId};

/// Most parties of one instance (the per-bit MACs and keys grow with n, the OT state with n²).
pub const MAX_PARTIES: usize = 8;

/// Most AND triples one [`MultiTinyOt::and_triples`] call makes (its leaky triples, their MACs
/// and keys stay in memory for the bucketing: about `3·B·(1 + 32·n)` bytes per triple).
pub const MAX_TRIPLES: usize = 1 << 16;

/// A deviation of a test attacker inside the engine (a cheat that no edit of a whole frame
/// expresses: one value towards one peer).
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cheat {
    /// Use share `index` flipped in the correlated OTs with `peer` only.
    InconsistentBit { peer: PartyId, index: usize },
    /// Run the OT extension towards `peer` with another `Δ` than towards everyone else.
    InconsistentDelta { peer: PartyId },
    /// Flip every half-authenticated AND bit sent to `peer`.
    HalfAnd { peer: PartyId },
    /// XOR a constant into every `x·Φ` block sent to `peer`.
    Product { peer: PartyId },
    /// Flip broadcast bit `index` of `e = x·y ⊕ r` towards `peer` only.
    EquivocateE { peer: PartyId, index: usize },
    /// Flip opened bucket share `index` towards `peer` only.
    Opening { peer: PartyId, index: usize },
    /// Open a different sum-check value than the one committed.
    Reopen,
}

/// Outside tests nobody cheats: the setup's cheat argument can only be `None`.
#[cfg(not(test))]
type Cheat = core::convert::Infallible;

/// One party's n-party TinyOT preprocessing: OT extension in both directions with every peer and
/// the counters that keep hash tweaks and commitments unique.
pub struct MultiTinyOt {
    me: PartyId,
    parties: usize,
    session: Vec<u8>,
    delta: Block,
    /// Both directions of OT extension with each peer (`None` at this party's own index).
    pairs: Vec<Option<Pair>>,
    hash: TccrHash,
    backend: Backend,
    /// Leaky AND gates so far (their hash tweaks).
    gates: u64,
    /// Commit-then-open exchanges so far (their commitments' domain).
    exchanges: u64,
    failed: bool,
    #[cfg(test)]
    pub(crate) cheat: Option<Cheat>,
}

/// This party's ends of the two OT extensions with one peer.
struct Pair {
    /// This party sends with `Δ` (its keys for the peer's shares).
    sender: ExtSender,
    /// This party receives with its shares as choices (their MACs under the peer's `Δ`).
    receiver: ExtReceiver,
}

impl core::fmt::Debug for MultiTinyOt {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MultiTinyOt")
            .field("me", &self.me)
            .field("parties", &self.parties)
            .field("gates", &self.gates)
            .finish_non_exhaustive()
    }
}

/// The peers of `me` among `parties`, in increasing order (every pairwise step runs in this
/// order at every party, so the pairs proceed in one global order and none waits on a cycle).
pub(crate) fn peers(me: PartyId, parties: usize) -> impl Iterator<Item = PartyId> + Clone {
    (0..parties).filter(move |&j| j != me)
}

impl MultiTinyOt {
    /// Sets up OT extension with `extension` in both directions with every peer (each party's `Δ`
    /// is drawn here, 128 random bits). Every party calls this with the same `session` tag and
    /// extension.
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        session: &[u8],
        extension: Extension,
        rng: &mut R,
    ) -> Result<Self, OtError> {
        Self::setup_inner(net, session, extension, rng, None).await
    }

    #[cfg(test)]
    pub(crate) async fn setup_cheating<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        session: &[u8],
        extension: Extension,
        rng: &mut R,
        cheat: Cheat,
    ) -> Result<Self, OtError> {
        Self::setup_inner(net, session, extension, rng, Some(cheat)).await
    }

    async fn setup_inner<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        session: &[u8],
        extension: Extension,
        rng: &mut R,
        #[allow(unused_variables)] cheat: Option<Cheat>,
    ) -> Result<Self, OtError> {
        extension.validate()?;
        let (me, parties) = (net.party(), net.parties());
        if !(2..=MAX_PARTIES).contains(&parties) {
            return Err(OtError::InvalidRequest(format!(
                "n-party TinyOT runs among 2 to {MAX_PARTIES} parties, the session has {parties}"
            )));
        }
        let delta = rng.next_u64() as u128 | (rng.next_u64() as u128) << 64;
        let tag = |from: PartyId, to: PartyId| [session, b"/n-tinyot/", &[from as u8, to as u8]].concat();
        // `Δ` towards each peer: the same towards all but for a test's cheat.
        #[cfg(test)]
        let inconsistent = rng.next_u64() as u128 | 1;
        let towards = |#[allow(unused_variables)] j: PartyId| -> Block {
            #[cfg(test)]
            if cheat == Some(Cheat::InconsistentDelta { peer: j }) {
                return delta ^ inconsistent;
            }
            delta
        };
        let pairs = dispatch::setup_with_peers(net, tag, extension, towards, rng)
            .await?
            .into_iter()
            .map(|ends| ends.map(|(sender, receiver)| Pair { sender, receiver }))
            .collect();
        Ok(MultiTinyOt {
            me,
            parties,
            session: session.to_vec(),
            delta,
            pairs,
            hash: TccrHash::default(),
            backend: Backend::detect(),
            gates: 0,
            exchanges: 0,
            failed: false,
            #[cfg(test)]
            cheat,
        })
    }

    /// This party's global key `Δ`.
    pub fn delta(&self) -> Block {
        self.delta
    }

    /// This party's index.
    pub fn party(&self) -> PartyId {
        self.me
    }

    /// The number of parties.
    pub fn parties(&self) -> usize {
        self.parties
    }

    fn guard(&mut self) -> Result<(), OtError> {
        super::begin_step(&mut self.failed, "n-party TinyOT instance")
    }

    /// `count` random authenticated bits, checked for consistency across the pairs.
    pub async fn abits<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<NBits, OtError> {
        self.guard()?;
        let out = self.checked_abits(net, count, rng).await?;
        self.failed = false;
        Ok(out)
    }

    /// Opens shared bits, every share's MAC checked by every party.
    pub async fn open<N: Network>(&mut self, net: &mut N, bits: &NBits) -> Result<Vec<bool>, OtError> {
        self.guard()?;
        let out = self.open_checked(net, bits, "n-party TinyOT opening").await?;
        self.failed = false;
        Ok(out)
    }

    /// `count` AND triples `⟨x⟩, ⟨y⟩, ⟨z = x·y⟩` (at most [`MAX_TRIPLES`]; smaller requests are
    /// made from [`MIN_BUCKETS`] buckets).
    pub async fn and_triples<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<[NBits; 3], OtError> {
        if count > MAX_TRIPLES {
            return Err(OtError::InvalidRequest(format!(
                "{count} AND triples in one call; at most {MAX_TRIPLES}"
            )));
        }
        self.guard()?;
        let buckets = count.max(MIN_BUCKETS);
        let b = bucket_size(buckets);
        let m = buckets * b;
        let mut x = self.checked_abits(net, 3 * m, rng).await?;
        let mut y = x.split_off(m);
        let r = y.split_off(m);
        let z = self.leaky_and(net, &x, &y, r, rng).await?;
        let mut triples = self.bucket(net, [&x, &y, &z], b, count, rng).await?;
        for t in &mut triples {
            t.truncate(count);
        }
        x.clear();
        y.clear();
        self.failed = false;
        Ok(triples)
    }

    /// Correlated OTs with every peer in both directions, for this party's choices towards each
    /// (`choices[j]` for peer `j`): per peer, its keys for the peer's shares and the MACs of the
    /// choices under the peer's `Δ` (empty at this party's index). Over SoftSpoken every pair
    /// runs at once (`softspoken::extend_with_peers`); over KOS15 one pair after the other.
    async fn pair_ots<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        choices: &[std::borrow::Cow<'_, [bool]>],
        rng: &mut R,
    ) -> Result<Vec<(Vec<Block>, Vec<Block>)>, OtError> {
        let me = self.me;
        let mut out = vec![(Vec::new(), Vec::new()); self.parties];
        let mut soft = Vec::with_capacity(self.parties);
        let mut kos = Vec::new();
        for (j, pair) in self.pairs.iter_mut().enumerate().filter_map(|(j, p)| p.as_mut().map(|p| (j, p))) {
            match pair {
                Pair { sender: ExtSender::SoftSpoken(s), receiver: ExtReceiver::SoftSpoken(r) } => {
                    soft.push((
                        j,
                        softspoken::PeerEnds {
                            peer: j,
                            sender: Some((s, choices[j].len())),
                            receiver: Some((r, &choices[j])),
                        },
                    ))
                }
                pair => kos.push((j, pair)),
            }
        }
        let (peers, ends): (Vec<PartyId>, Vec<_>) = soft.into_iter().unzip();
        if !ends.is_empty() {
            for (j, rows) in peers.into_iter().zip(softspoken::extend_with_peers(net, ends, rng).await?) {
                out[j] = rows;
            }
        }
        for (j, pair) in kos {
            out[j] = if me < j {
                let keys = pair.sender.extend_correlated(net, choices[j].len(), rng).await?;
                (keys, pair.receiver.extend_correlated(net, &choices[j], rng).await?)
            } else {
                let macs = pair.receiver.extend_correlated(net, &choices[j], rng).await?;
                (pair.sender.extend_correlated(net, choices[j].len(), rng).await?, macs)
            };
        }
        Ok(out)
    }
}
