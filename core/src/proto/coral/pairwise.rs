//! The pairwise plumbing of COPE among n parties, written once for both of Coral's COPEs: the
//! MFE-vectorised COPEe over GF(2^42) (`prep::ot::cope`) and COPE over Z_{2^(k+s)}
//! ([`super::arith::ot::cope`]).
//!
//! Each is MASCOT's Π_COPE between every ordered pair of parties (Keller–Orsini–Scholl, CCS 2016;
//! the paper's Fig. 16–18 for the vectorised one): the key holder is the receiver of one random
//! base OT per bit of its key vector, with those bits as choices, and learns one seed per column;
//! the input side learns both. What differs between the two is only what a column is and how
//! the key holder's and input side's outputs are formed from the seeds' streams — the
//! `PeerColumns` a protocol supplies per peer (the F_2-linear one on the shared column layer of
//! [`crate::ot::cope::columns`]). This module does the rest: the base OTs with every peer
//! ([`PeerSeeds::base_ots`]: the lower index receives first, so no two parties wait on each
//! other), and the extension in chunks, one frame of columns per peer and chunk
//! ([`Channel::pairwise`]).

use rand_core::{CryptoRng, RngCore};

use crate::net::{Network, PartyId};
use crate::ot::cope::columns::PeerSeeds;
use crate::proto::coral::error::CoralError;
use crate::proto::coral::messages::{Channel, Step};

/// One direction pair of COPE with one peer: the key-holder seeds (`chosen`, one per key bit) and
/// the input-side seed pairs (`pairs`, one per bit of the peer's key).
pub(crate) trait PeerColumns {
    /// What the input side authenticates.
    type Input;
    /// A share of a MAC term.
    type Output;

    /// Input side: the columns to send for `x` and this party's outputs for them.
    fn columns(&mut self, x: &[Self::Input]) -> (Vec<u8>, Vec<Self::Output>);

    /// Key side: this party's outputs for the peer's `count` elements from its columns `u`
    /// (`peer` names the sender in errors).
    fn keys(&mut self, u: &[u8], count: usize, peer: PartyId) -> Result<Vec<Self::Output>, CoralError>;
}

/// One party's COPE states with every peer (`None` at its own index).
pub(crate) struct Pairwise<P> {
    peers: Vec<Option<P>>,
    step: Step,
    chunk: usize,
}

/// The outputs of one extension at one party, per peer (empty at its own index).
pub struct PairwiseOutput<T> {
    /// `own[j]`: this party's outputs for its own elements under peer j's key.
    pub own: Vec<Vec<T>>,
    /// `peer[j]`: this party's outputs for peer j's elements under its own key.
    pub peer: Vec<Vec<T>>,
}

impl<P: PeerColumns> Pairwise<P> {
    /// Base OTs with every peer in both directions ([`PeerSeeds::base_ots`]): this party receives
    /// with `choices` (its key bits) and sends `peer_bits` random pairs; `make(seeds)` builds the
    /// per-peer state.
    /// All parties pass the same `session` and `tag`; `step` and `chunk` are the extension's
    /// frame step and elements per frame.
    #[allow(clippy::too_many_arguments)]
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        tag: &[u8],
        session: &[u8],
        choices: &[bool],
        peer_bits: usize,
        (step, chunk): (Step, usize),
        rng: &mut R,
        mut make: impl FnMut(PeerSeeds) -> P,
    ) -> Result<Self, CoralError> {
        let me = net.party();
        let tag = |key_holder: usize, input: usize| [tag, session, &[key_holder as u8, input as u8]].concat();
        let mut peers = Vec::with_capacity(net.parties());
        for peer in 0..net.parties() {
            if peer == me {
                peers.push(None);
                continue;
            }
            let tags = (&tag(me, peer)[..], &tag(peer, me)[..]);
            let seeds = PeerSeeds::base_ots(net, peer, choices, peer_bits, tags, rng).await?;
            peers.push(Some(make(seeds)));
        }
        Ok(Pairwise { peers, step, chunk })
    }

    /// Authenticates this party's `own` elements under every peer's key and `counts[j]` elements
    /// of each peer j under its own key, in ⌈max/chunk⌉ exchanges of one frame per peer.
    pub async fn extend<N: Network>(
        &mut self,
        channel: &mut Channel,
        net: &mut N,
        own: &[P::Input],
        counts: &[usize],
    ) -> Result<PairwiseOutput<P::Output>, CoralError> {
        let n = self.peers.len();
        let mut out = PairwiseOutput {
            own: (0..n).map(|_| Vec::new()).collect(),
            peer: (0..n).map(|_| Vec::new()).collect(),
        };
        let most = counts.iter().copied().chain([own.len()]).max().unwrap_or(0);
        let chunk = self.chunk;
        for k in 0..most.div_ceil(chunk) {
            let mine = &own[(k * chunk).min(own.len())..((k + 1) * chunk).min(own.len())];
            let mut payloads = vec![Vec::new(); n];
            for (j, state) in self.peers.iter_mut().enumerate() {
                if let Some(state) = state {
                    let (u, t) = state.columns(mine);
                    payloads[j] = u;
                    out.own[j].extend(t);
                }
            }
            let all = channel.pairwise(net, self.step, payloads).await?;
            for (j, state) in self.peers.iter_mut().enumerate() {
                if let Some(state) = state {
                    let theirs = ((k + 1) * chunk).min(counts[j]).saturating_sub(k * chunk);
                    out.peer[j].extend(state.keys(&all[j], theirs, j)?);
                }
            }
        }
        Ok(out)
    }
}
