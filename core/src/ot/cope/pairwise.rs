//! The pairwise extension of COPE among n parties, written once for every COPE in Chorus: the
//! GF(2^128) COPE of [`super`] (two parties, one direction), MiniMac's per-position GF(2^8) keys
//! (`proto::minimac::prep::ot::cope`), Coral's MFE-vectorised COPEe over GF(2^42)
//! (`proto::coral::prep::ot::cope`) and Coral's COPE over Z_{2^(k+s)} for Spdz2k
//! (`proto::coral::arith::ot::cope`).
//!
//! Each is MASCOT's Π_COPE between every ordered pair of parties (Keller–Orsini–Scholl, CCS 2016,
//! Fig. 1; the Coral paper's Fig. 16–18 for the vectorised one): the key holder is the receiver of
//! one random OT per bit of its key vector, with those bits as choices, and keeps one seed per
//! column; the input side keeps both ([`PeerSeeds`]). What differs between the uses is only what
//! a column carries and how each side's outputs are formed from the seeds' streams — the
//! [`PeerColumns`] a use supplies per peer — and how a frame of columns is tagged on the wire —
//! its [`ColumnWire`]. This module does the rest, the same for all of them:
//!
//! - [`Pairwise::setup`]: random base OTs with every peer in both directions
//!   ([`PeerSeeds::base_ots`]: the lower index receives first, so no two parties wait on each
//!   other), or [`Pairwise::from_peers`] for seeds the caller made (MiniMac hashes TinyOT's
//!   authenticated bits; the two-party COPE runs one direction);
//! - [`Pairwise::extend`]: the elements in chunks of at most `chunk`, each chunk one exchange —
//!   this party's columns to every peer it has a state with, then every such peer's columns —
//!   which bounds the memory of an exchange whatever the number of elements.
//!
//! Invariants: a peer's frame is handed to its [`PeerColumns::keys`] with the exact element count
//! the peer was to send in that chunk, so a use checks the frame's length against it and a short,
//! long or missing frame is that use's typed error; the wire refuses replayed or reordered frames
//! (each use's framing numbers its frames). Key bits never select branches or indices here: they
//! live in the [`PeerColumns`] as masks.

use rand_core::{CryptoRng, RngCore};

use super::columns::PeerSeeds;
use crate::net::{Network, PartyId};
use crate::ot::OtError;

/// One direction pair of COPE with one peer: the key-holder seeds (one per bit of this party's
/// key vector) and the input-side seed pairs (one per bit of the peer's), and what a column of
/// this use carries.
pub(crate) trait PeerColumns {
    /// What the input side authenticates.
    type Input;
    /// A share of a MAC term.
    type Output;
    /// The use's error (a malformed frame of columns).
    type Error;

    /// Input side: the columns to send for `x` and this party's outputs for them.
    fn columns(&mut self, x: &[Self::Input]) -> (Vec<u8>, Vec<Self::Output>);

    /// Key side: this party's outputs for the peer's `count` elements from its columns `u`
    /// (`peer` names the sender in errors). A frame of any other length is an error.
    fn keys(&mut self, u: &[u8], count: usize, peer: PartyId) -> Result<Vec<Self::Output>, Self::Error>;
}

/// How a use puts frames of columns on the network: its own tags, sequence numbers and checks.
pub(crate) trait ColumnWire {
    /// The use's error (a network failure, an unexpected frame).
    type Error;

    /// One exchange: `frames[j]` (`Some` for every peer this party has a COPE state with) goes to
    /// peer j, each carrying the columns of `sent` elements; then the frame of every peer `j`
    /// with a state, carrying `received[j]` elements, comes back in slot j (empty elsewhere). A
    /// wire may leave out frames of no elements, in both directions alike.
    async fn exchange<N: Network>(
        &mut self,
        net: &mut N,
        frames: Vec<Option<Vec<u8>>>,
        sent: usize,
        received: &[usize],
    ) -> Result<Vec<Vec<u8>>, Self::Error>;
}

/// One party's COPE states with every peer (`None` at its own index, and for parties it runs no
/// COPE with).
pub(crate) struct Pairwise<P> {
    peers: Vec<Option<P>>,
    chunk: usize,
}

/// The outputs of one extension at one party, per peer (empty where it has no state).
pub struct PairwiseOutput<T> {
    /// `own[j]`: this party's outputs for its own elements under peer j's key.
    pub own: Vec<Vec<T>>,
    /// `peer[j]`: this party's outputs for peer j's elements under its own key.
    pub peer: Vec<Vec<T>>,
}

impl<P: PeerColumns> Pairwise<P> {
    /// Per-peer states the caller built (`None` at its own index), extended `chunk` elements per
    /// exchange.
    pub fn from_peers(peers: Vec<Option<P>>, chunk: usize) -> Self {
        assert!(chunk > 0, "a chunk holds at least one element");
        Pairwise { peers, chunk }
    }

    /// Base OTs with every peer in both directions ([`PeerSeeds::base_ots`]): this party receives
    /// with `choices` (its key bits) and sends `peer_bits` random pairs; `make(seeds)` builds the
    /// per-peer state. All parties pass the same `session` and `tag`; `chunk` is the extension's
    /// elements per exchange.
    #[allow(clippy::too_many_arguments)]
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        tag: &[u8],
        session: &[u8],
        choices: &[bool],
        peer_bits: usize,
        chunk: usize,
        rng: &mut R,
        mut make: impl FnMut(PeerSeeds) -> P,
    ) -> Result<Self, P::Error>
    where
        P::Error: From<OtError>,
    {
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
        Ok(Pairwise::from_peers(peers, chunk))
    }

    /// Authenticates this party's `own` elements under the key of every peer it has a state with,
    /// and `counts[j]` elements of each such peer j under its own key, in ⌈max/chunk⌉ exchanges
    /// over `wire`.
    pub async fn extend<N: Network, W: ColumnWire<Error = P::Error>>(
        &mut self,
        wire: &mut W,
        net: &mut N,
        own: &[P::Input],
        counts: &[usize],
    ) -> Result<PairwiseOutput<P::Output>, P::Error> {
        let n = self.peers.len();
        let mut out = PairwiseOutput {
            own: (0..n).map(|_| Vec::new()).collect(),
            peer: (0..n).map(|_| Vec::new()).collect(),
        };
        let has = |j: usize, peers: &[Option<P>]| peers[j].is_some();
        let most = (0..n).filter(|&j| has(j, &self.peers)).map(|j| counts[j]).chain([own.len()]).max();
        let chunk = self.chunk;
        let in_chunk = |count: usize, k: usize| (count.min((k + 1) * chunk)).saturating_sub(k * chunk);
        for k in 0..most.unwrap_or(0).div_ceil(chunk) {
            let mine = &own[(k * chunk).min(own.len())..((k + 1) * chunk).min(own.len())];
            let mut frames = Vec::with_capacity(n);
            for (j, state) in self.peers.iter_mut().enumerate() {
                frames.push(state.as_mut().map(|state| {
                    let (u, t) = state.columns(mine);
                    out.own[j].extend(t);
                    u
                }));
            }
            let received: Vec<usize> =
                (0..n).map(|j| if has(j, &self.peers) { in_chunk(counts[j], k) } else { 0 }).collect();
            let all = wire.exchange(net, frames, mine.len(), &received).await?;
            for (j, state) in self.peers.iter_mut().enumerate() {
                if let Some(state) = state {
                    out.peer[j].extend(state.keys(&all[j], received[j], j)?);
                }
            }
        }
        Ok(out)
    }
}
