//! The setup of SoftSpoken in both directions with every peer at once, with one batch of base
//! OTs per pair instead of two: the n-party engine's pairwise OT extensions
//! ([`crate::ot::multi`]).
//!
//! **One batch of base OTs per pair.** Of the two directions with a peer, the *primary* one is
//! set up from 128 public-key base OTs ([`crate::ot::base`]) as [`SoftSpokenSender::setup`] does.
//! The *secondary* one takes its base OTs from 128 correlated OTs of the primary one: the primary
//! receiver (the secondary's sender) chooses the base-OT choice bits of its own `Δ`
//! ([`base_choices`]), and with `t_l = q_l ⊕ c_l·Δ'` (`Δ'` the primary sender's) the pairs
//! `(H(q_l), H(q_l ⊕ Δ'))` and the chosen `H(t_l)` are random OTs, `H` the tweakable
//! correlation-robust hash ([`TccrHash`]) — the random OTs a KOS15-style extension yields (KOS15
//! §3; libOTe makes one direction's base OTs from the other's extension the same way). Each
//! party does half the public-key work of two independent setups. The primary direction of a
//! pair is chosen so that with three parties each does the heavier base-OT sender side once.
//!
//! **All pairs at once.** Every step runs with every peer before the next, so all parties compute
//! at the same time instead of one pair after the other: the primary setups (two rounds), the
//! 128 OTs ([`extend_with_peers`]), then the secondary setups (one round).
//!
//! **Security.** The primary instance is unchanged. Its 128 bootstrap OTs are its first batch,
//! with its correlation check; a malicious primary receiver may learn a few bits of `Δ'` at the
//! risk of an abort (the leakage the [parent module](super) describes), which leaves
//! `H(q_l ⊕ Δ')` for its unchosen messages unpredictable; the choice bits are hidden from the
//! primary sender as every receiver's are. The hash tweaks ([`BOOTSTRAP_TWEAK`] plus the index)
//! appear nowhere else, and later batches use other rows, so the derived messages are independent
//! of the instance's later outputs. The secondary instance then runs exactly its own steps.

use rand_core::{CryptoRng, RngCore};

use super::receiver::{ReceiverSetup, TreeReceiverSetup};
use super::sender::{base_choices, KeyedSenderSetup, SenderSetup};
use super::{check_k, extend_with_peers, PeerEnds, SoftSpokenReceiver, SoftSpokenSender, KAPPA};
use crate::net::{yield_now, Network, PartyId};
use crate::ot::prg::TccrHash;
use crate::ot::{Block, OtError};

/// This party's ends of the two instances with one peer.
pub type Ends = (SoftSpokenSender, SoftSpokenReceiver);

/// The first hash tweak of the bootstrap OTs (index `l` uses `BOOTSTRAP_TWEAK + l`).
const BOOTSTRAP_TWEAK: u128 = 0x736f_6674_7370_6f6b_656e_2f62_6f6f_7400;

/// Whether `me` is the sender of the primary direction with `peer` among `parties`: towards the
/// next half of the parties in cyclic order (ties, with an even count, to the lower index).
fn leads(me: PartyId, peer: PartyId, parties: usize) -> bool {
    let d = (peer + parties - me) % parties;
    2 * d < parties || (2 * d == parties && me < peer)
}

/// A pair's primary direction during its setup.
enum Primary {
    Sending(SenderSetup),
    Receiving(ReceiverSetup),
}

/// A pair's primary direction after this party's second message.
enum Answered {
    Sending(KeyedSenderSetup),
    Receiving(TreeReceiverSetup),
}

/// A pair's instances once the primary is set up: this party's end of it.
enum Set {
    Sending(SoftSpokenSender),
    Receiving(SoftSpokenReceiver),
}

/// A pair's instances before the secondary direction's last message.
enum Pending {
    /// This party sends in the primary direction (and receives in the secondary).
    Leading(SoftSpokenSender, TreeReceiverSetup),
    /// This party receives in the primary direction (and sends in the secondary).
    Following(SoftSpokenReceiver, KeyedSenderSetup),
}

/// Sets up SoftSpoken with block size `k` in both directions with every peer of `net`: this
/// party's sender towards peer `j` holds `delta(j)` and uses the session tag `session(me, j)`,
/// its receiver from `j` the tag `session(j, me)`. Returns the ends indexed by peer (`None` at
/// this party's index). Every party calls this with the same `session` and `k`.
pub async fn setup_with_peers<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    session: impl Fn(PartyId, PartyId) -> Vec<u8>,
    k: u8,
    delta: impl Fn(PartyId) -> Block,
    rng: &mut R,
) -> Result<Vec<Option<Ends>>, OtError> {
    let bits = check_k(k)?;
    let (me, n) = (net.party(), net.parties());
    let peers: Vec<PartyId> = (0..n).filter(|&j| j != me).collect();

    // The primary directions from public-key base OTs.
    let mut started = Vec::with_capacity(peers.len());
    for &j in &peers {
        started.push(if leads(me, j, n) {
            let (setup, points) = SoftSpokenSender::start_setup(j, &session(me, j), k, delta(j), rng)?;
            net.send(j, points)?;
            Primary::Sending(setup)
        } else {
            let (setup, key) = SoftSpokenReceiver::start_setup(j, &session(j, me), k, rng)?;
            net.send(j, key)?;
            Primary::Receiving(setup)
        });
    }
    let mut answered = Vec::with_capacity(peers.len());
    for (&j, setup) in peers.iter().zip(started) {
        let msg = net.recv(j).await?;
        let (setup, reply) = match setup {
            Primary::Sending(s) => s.on_key(&msg, rng).map(|(s, m)| (Answered::Sending(s), m))?,
            Primary::Receiving(r) => r.on_points(&msg, rng).map(|(r, m)| (Answered::Receiving(r), m))?,
        };
        net.send(j, reply)?;
        answered.push(setup);
    }
    let mut set = Vec::with_capacity(peers.len());
    for (&j, setup) in peers.iter().zip(answered) {
        let msg = net.recv(j).await?;
        set.push(match setup {
            Answered::Sending(s) => Set::Sending(s.finish(&msg)?),
            Answered::Receiving(r) => Set::Receiving(r.finish(&msg)?),
        });
    }

    // 128 correlated OTs per primary direction: the base OTs of the secondary one.
    let choices: Vec<Vec<bool>> = peers.iter().map(|&j| base_choices(bits, delta(j)).1).collect();
    let ends = peers
        .iter()
        .zip(&mut set)
        .zip(&choices)
        .map(|((&peer, end), choices)| match end {
            Set::Sending(s) => PeerEnds { peer, sender: Some((s, KAPPA)), receiver: None },
            Set::Receiving(r) => PeerEnds { peer, sender: None, receiver: Some((r, &choices[..])) },
        })
        .collect();
    let rows = extend_with_peers(net, ends, rng).await?;

    // The secondary directions.
    let hash = TccrHash::default();
    let mut pending = Vec::with_capacity(peers.len());
    for ((&j, end), (mut q, mut t)) in peers.iter().zip(set).zip(rows) {
        pending.push(match end {
            Set::Sending(s) => {
                let mut flipped: Vec<Block> = q.iter().map(|q| q ^ s.delta()).collect();
                hash.hash_in_place(BOOTSTRAP_TWEAK, &mut q);
                hash.hash_in_place(BOOTSTRAP_TWEAK, &mut flipped);
                let pairs: Vec<[Block; 2]> = q.into_iter().zip(flipped).map(|(a, b)| [a, b]).collect();
                let (tree, sums) = TreeReceiverSetup::from_base(j, &session(j, me), k, &pairs, rng)?;
                net.send(j, sums)?;
                Pending::Leading(s, tree)
            }
            Set::Receiving(r) => {
                hash.hash_in_place(BOOTSTRAP_TWEAK, &mut t);
                let (keyed, commitment) =
                    KeyedSenderSetup::from_base(j, &session(me, j), k, delta(j), t, rng)?;
                net.send(j, commitment)?;
                Pending::Following(r, keyed)
            }
        });
    }
    let mut ends: Vec<Option<Ends>> = (0..n).map(|_| None).collect();
    for (&j, pending) in peers.iter().zip(pending) {
        let msg = net.recv(j).await?;
        ends[j] = Some(match pending {
            Pending::Leading(s, r) => (s, r.finish(&msg)?),
            Pending::Following(r, s) => (s.finish(&msg)?, r),
        });
    }
    // The caller may compute for long before it next awaits the network.
    yield_now().await;
    Ok(ends)
}

#[cfg(test)]
#[path = "setup_tests.rs"]
mod tests;
