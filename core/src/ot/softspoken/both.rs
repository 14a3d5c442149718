//! Both directions of SoftSpoken OT extension with one peer at once: this party extends as the
//! receiver of one instance and as the sender of the other, and the peer does the same with the
//! roles swapped — TinyOT's authenticated bits need exactly that ([`crate::ot::tinyot`]).
//!
//! Run one after the other, the two directions leave each party idle half the time: the sender
//! of a chunk waits for the receiver's corrections, and each correlation check is computed by one
//! party while the other waits. Here the steps of the two instances are interleaved, so that both
//! parties compute the same kind of step at once: per chunk, each computes its receiver
//! corrections and sends them, then takes the peer's as the sender; then both send their coin
//! seeds, open, send their check messages and verify the peer's. Every send precedes the receive
//! that waits for the peer's matching message, so neither party can block the other.
//!
//! [`extend_with_peers`] does the same with several peers at once (the n-party engine's pairwise
//! OTs, [`crate::ot::multi`]): each step runs with every peer before the next step, so all pairs
//! compute at the same time instead of one pair after the other in a chain.
//!
//! The instances are independent (their own keys, coins and batch counters); interleaving
//! changes only the order of their messages, not any message, so the security argument of the
//! [parent module](super) holds per direction unchanged.

use rand_core::{CryptoRng, RngCore};

use super::{SoftSpokenReceiver, SoftSpokenSender};
use crate::net::{Network, PartyId};
use crate::ot::coins::ReceiverCoins;
use crate::ot::{Block, OtError};

/// `choices.len()` correlated OTs in each direction with the peer that `receiver` and `sender`
/// (this party's ends of the two instances) share: returns this party's sender rows `q_j` (the
/// keys of the peer's choice bits) and its receiver rows `t_j` for `choices`. The peer calls this
/// with its own ends and as many choice bits. The one-peer case of [`extend_with_peers`].
pub async fn extend_both<N: Network, R: RngCore + CryptoRng>(
    sender: &mut SoftSpokenSender,
    receiver: &mut SoftSpokenReceiver,
    net: &mut N,
    choices: &[bool],
    rng: &mut R,
) -> Result<(Vec<Block>, Vec<Block>), OtError> {
    let peer = receiver.peer();
    let ends = PeerEnds { peer, sender: Some((sender, choices.len())), receiver: Some((receiver, choices)) };
    let mut out = extend_with_peers(net, vec![ends], rng).await?;
    Ok(out.pop().expect("one result per peer"))
}

/// This party's ends of the instances with one peer that take part in one
/// [`extend_with_peers`] call.
pub struct PeerEnds<'a> {
    /// The peer.
    pub peer: PartyId,
    /// This party's sender end with the peer (its `Δ`, the keys of the peer's choices) and the
    /// number of OTs the peer chooses.
    pub sender: Option<(&'a mut SoftSpokenSender, usize)>,
    /// This party's receiver end with the peer and its choice bits.
    pub receiver: Option<(&'a mut SoftSpokenReceiver, &'a [bool])>,
}

/// Correlated OTs with several peers at once, each step run with every peer before the next
/// one (an n-party engine's pairwise OTs: every pair computes at the same time instead of one
/// pair after the other), in either direction or both per peer. Returns, per entry of `peers` in
/// order, this party's sender rows (empty without a sender end) and receiver rows (empty without
/// a receiver end). Each peer runs this (or [`extend_both`]) with the matching ends.
pub async fn extend_with_peers<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    mut peers: Vec<PeerEnds<'_>>,
    rng: &mut R,
) -> Result<Vec<(Vec<Block>, Vec<Block>)>, OtError> {
    let wrong = |p: &PeerEnds<'_>| {
        p.sender.as_ref().is_some_and(|(s, _)| s.peer() != p.peer)
            || p.receiver.as_ref().is_some_and(|(r, _)| r.peer() != p.peer)
    };
    if peers.iter().any(wrong) {
        return Err(OtError::InvalidRequest("an end of another peer in extend_with_peers".into()));
    }
    let mut sending = Vec::with_capacity(peers.len());
    let mut receiving = Vec::with_capacity(peers.len());
    for p in &mut peers {
        sending.push(p.sender.as_mut().map(|(s, count)| s.begin(*count)).transpose()?);
        receiving.push(p.receiver.as_mut().map(|(r, choices)| r.begin(choices, rng)).transpose()?);
    }
    // Chunk by chunk: every receiver end sends its corrections, then every sender end takes the
    // peer's (both ends with a peer pad the same count, so they have the same chunks).
    loop {
        let mut more = false;
        for (p, batch) in peers.iter_mut().zip(&mut receiving) {
            if let (Some((r, _)), Some(batch)) = (&mut p.receiver, batch) {
                if let Some(msg) = r.next_columns(batch) {
                    net.send(p.peer, msg)?;
                    more = true;
                }
            }
        }
        for (p, batch) in peers.iter_mut().zip(&mut sending) {
            if let (Some((s, _)), Some(batch)) = (&mut p.sender, batch) {
                if batch.columns_left() {
                    s.next_columns(batch, &net.recv(p.peer).await?)?;
                    more = true;
                }
            }
        }
        if !more {
            break;
        }
    }
    let mut seeds = Vec::with_capacity(peers.len());
    for p in &peers {
        let seed = p.receiver.as_ref().map(|_| ReceiverCoins::fresh(rng));
        if let Some(seed) = seed {
            net.send(p.peer, seed.to_vec())?;
        }
        seeds.push(seed);
    }
    let mut coins = Vec::with_capacity(peers.len());
    for p in &mut peers {
        coins.push(match &mut p.sender {
            Some((s, _)) => {
                let (opening, c) = s.open(&net.recv(p.peer).await?, rng)?;
                net.send(p.peer, opening)?;
                Some(c)
            }
            None => None,
        });
    }
    let mut ts = Vec::with_capacity(peers.len());
    for ((p, batch), seed) in peers.iter_mut().zip(receiving).zip(&seeds) {
        ts.push(match (&mut p.receiver, batch, seed) {
            (Some((r, _)), Some(batch), Some(seed)) => {
                let (check, t) = r.finish(batch, &net.recv(p.peer).await?, seed)?;
                net.send(p.peer, check)?;
                t
            }
            _ => Vec::new(),
        });
    }
    let mut out = Vec::with_capacity(peers.len());
    for (((p, batch), coins), t) in peers.iter_mut().zip(sending).zip(coins).zip(ts) {
        let q = match (&mut p.sender, batch, coins) {
            (Some((s, _)), Some(batch), Some(coins)) => s.finish(batch, coins, &net.recv(p.peer).await?)?,
            _ => Vec::new(),
        };
        out.push((q, t));
    }
    Ok(out)
}
