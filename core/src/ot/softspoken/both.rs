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
//! The two instances are independent (their own keys, coins and batch counters); interleaving
//! changes only the order of their messages, not any message, so the security argument of the
//! [parent module](super) holds per direction unchanged.

use rand_core::{CryptoRng, RngCore};

use super::{SoftSpokenReceiver, SoftSpokenSender};
use crate::net::Network;
use crate::ot::coins::ReceiverCoins;
use crate::ot::{Block, OtError};

/// `choices.len()` correlated OTs in each direction with the peer that `receiver` and `sender`
/// (this party's ends of the two instances) share: returns this party's sender rows `q_j` (the
/// keys of the peer's choice bits) and its receiver rows `t_j` for `choices`. The peer calls this
/// with its own ends and as many choice bits.
pub async fn extend_both<N: Network, R: RngCore + CryptoRng>(
    sender: &mut SoftSpokenSender,
    receiver: &mut SoftSpokenReceiver,
    net: &mut N,
    choices: &[bool],
    rng: &mut R,
) -> Result<(Vec<Block>, Vec<Block>), OtError> {
    let peer = receiver.peer();
    if sender.peer() != peer {
        return Err(OtError::InvalidRequest("both directions must run with the same peer".into()));
    }
    let mut sending = sender.begin(choices.len())?;
    let mut receiving = receiver.begin(choices, rng)?;
    // Both directions pad the same count, so they have the same chunks.
    while let Some(msg) = receiver.next_columns(&mut receiving) {
        net.send(peer, msg)?;
        sender.next_columns(&mut sending, &net.recv(peer).await?)?;
    }
    let seed = ReceiverCoins::fresh(rng);
    net.send(peer, seed.to_vec())?;
    let (opening, coins) = sender.open(&net.recv(peer).await?, rng)?;
    net.send(peer, opening)?;
    let (check, t) = receiver.finish(receiving, &net.recv(peer).await?, &seed)?;
    net.send(peer, check)?;
    let q = sender.finish(sending, coins, &net.recv(peer).await?)?;
    Ok((q, t))
}
