//! An in-memory [`Network`] that runs all parties of a session in one process (for tests and
//! benchmarks of protocol logic without I/O).
//!
//! Each ordered pair of parties has an unbounded FIFO channel. Dropping a party's network closes
//! its channels, so its peers' pending and future receives fail with [`NetError::PeerLeft`] — the
//! same behaviour a real transport gives when a party disconnects.

use super::{NetError, NetStats, Network, PartyId, StatsRecorder};
use futures::channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use futures::StreamExt;
use std::future::Future;

/// One party's endpoint of an in-memory network.
pub struct MemoryNetwork {
    party: PartyId,
    to: Vec<Option<UnboundedSender<Vec<u8>>>>,
    from: Vec<Option<UnboundedReceiver<Vec<u8>>>>,
    stats: StatsRecorder,
}

impl core::fmt::Debug for MemoryNetwork {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MemoryNetwork").field("party", &self.party).field("parties", &self.to.len()).finish()
    }
}

impl MemoryNetwork {
    /// Endpoints for an `n`-party session, one per party, in party order.
    pub fn session(n: usize) -> Vec<MemoryNetwork> {
        let mut to: Vec<Vec<Option<UnboundedSender<Vec<u8>>>>> = (0..n).map(|_| Vec::new()).collect();
        let mut from: Vec<Vec<Option<UnboundedReceiver<Vec<u8>>>>> =
            (0..n).map(|_| (0..n).map(|_| None).collect()).collect();
        for (i, to_i) in to.iter_mut().enumerate() {
            for (j, from_j) in from.iter_mut().enumerate() {
                if i == j {
                    to_i.push(None);
                } else {
                    let (tx, rx) = unbounded();
                    to_i.push(Some(tx));
                    from_j[i] = Some(rx);
                }
            }
        }
        to.into_iter()
            .zip(from)
            .enumerate()
            .map(|(party, (to, from))| MemoryNetwork { party, to, from, stats: StatsRecorder::new() })
            .collect()
    }
}

impl Network for MemoryNetwork {
    fn party(&self) -> PartyId {
        self.party
    }

    fn parties(&self) -> usize {
        self.to.len()
    }

    fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError> {
        self.check_peer(to)?;
        self.stats.on_send(msg.len());
        let tx = self.to[to].as_ref().ok_or(NetError::SelfAddressed(to))?;
        tx.unbounded_send(msg).map_err(|_| NetError::PeerLeft(to))
    }

    async fn recv(&mut self, from: PartyId) -> Result<Vec<u8>, NetError> {
        self.check_peer(from)?;
        let rx = self.from[from].as_mut().ok_or(NetError::SelfAddressed(from))?;
        let msg = rx.next().await.ok_or(NetError::PeerLeft(from))?;
        self.stats.on_recv(msg.len());
        Ok(msg)
    }

    fn stats(&self) -> NetStats {
        self.stats.stats()
    }
}

/// Runs `party_fn` for every party of an `n`-party in-memory session concurrently on the current
/// thread and returns their results in party order.
pub fn run_session<T, F, Fut>(n: usize, party_fn: F) -> Vec<T>
where
    F: Fn(MemoryNetwork) -> Fut,
    Fut: Future<Output = T>,
{
    let parties = MemoryNetwork::session(n).into_iter().map(party_fn);
    futures::executor::block_on(futures::future::join_all(parties))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_arrive_in_order_and_are_counted() {
        let results = run_session(3, |mut net| async move {
            let me = net.party();
            net.broadcast(&[me as u8; 5]).unwrap();
            net.send((me + 1) % 3, vec![9; 2]).unwrap();
            let mut got = Vec::new();
            for p in (0..3).filter(|&p| p != me) {
                got.push(net.recv(p).await.unwrap());
            }
            got.push(net.recv((me + 2) % 3).await.unwrap());
            net.broadcast(&[1]).unwrap();
            for p in (0..3).filter(|&p| p != me) {
                assert_eq!(net.recv(p).await.unwrap(), vec![1]);
            }
            (got, net.stats())
        });
        for (me, (got, stats)) in results.into_iter().enumerate() {
            let others: Vec<usize> = (0..3).filter(|&p| p != me).collect();
            assert_eq!(got[0], vec![others[0] as u8; 5]);
            assert_eq!(got[1], vec![others[1] as u8; 5]);
            assert_eq!(got[2], vec![9; 2]);
            assert_eq!(stats.bytes_sent, 5 + 5 + 2 + 2);
            assert_eq!(stats.bytes_received, 5 + 5 + 2 + 2);
            assert_eq!(stats.messages_sent, 5);
            assert_eq!(stats.rounds, 2, "party {me}");
        }
    }

    #[test]
    fn bad_addresses_are_errors() {
        let mut nets = MemoryNetwork::session(2);
        assert_eq!(nets[0].send(0, vec![]), Err(NetError::SelfAddressed(0)));
        assert_eq!(nets[0].send(5, vec![]), Err(NetError::UnknownParty { party: 5, parties: 2 }));
        let r = futures::executor::block_on(nets[1].recv(7));
        assert_eq!(r, Err(NetError::UnknownParty { party: 7, parties: 2 }));
    }

    #[test]
    fn dropped_peer_is_reported_as_left() {
        let mut nets = MemoryNetwork::session(2);
        let gone = nets.pop().unwrap();
        drop(gone);
        assert_eq!(futures::executor::block_on(nets[0].recv(1)), Err(NetError::PeerLeft(1)));
        assert_eq!(nets[0].send(1, vec![1]), Err(NetError::PeerLeft(1)));
    }
}
