//! The [`Network`] whose frames travel through JavaScript: `send` hands the destination and the
//! whole frame to a binding-supplied sender (a JS callback, directly in WebAssembly or through a
//! thread-safe function in the Node addon), and frames from peers come in through an [`Inbox`]
//! that JS feeds. The bindings put this under [`chorus_core::net::secure::SecureNetwork`], so
//! every frame that crosses the JS boundary is already encrypted and authenticated.
//!
//! [`ProgressNetwork`] wraps any network to report statistics after each received protocol message
//! (one call per message, never per element).

use crate::inbox::Inbox;
use chorus_core::net::{NetError, NetStats, Network, PartyId, StatsRecorder};
use core::future::{poll_fn, Future};

/// A party's network over a frame sender and an [`Inbox`]; counts the bytes of the frames it
/// moves. `send(to, frame)` must queue the frame for party `to`, or describe why it cannot.
pub struct BridgeNetwork<S> {
    me: PartyId,
    parties: usize,
    inbox: Inbox,
    send: S,
    stats: StatsRecorder,
}

impl<S: FnMut(PartyId, Vec<u8>) -> Result<(), String>> BridgeNetwork<S> {
    /// The network of party `me` of `parties`, sending through `send` and receiving from `inbox`.
    pub fn new(me: PartyId, parties: usize, inbox: Inbox, send: S) -> Self {
        BridgeNetwork { me, parties, inbox, send, stats: StatsRecorder::new() }
    }
}

impl<S: FnMut(PartyId, Vec<u8>) -> Result<(), String>> Network for BridgeNetwork<S> {
    fn party(&self) -> PartyId {
        self.me
    }

    fn parties(&self) -> usize {
        self.parties
    }

    fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError> {
        self.check_peer(to)?;
        if let Some(error) = self.inbox.failure() {
            return Err(error);
        }
        let len = msg.len();
        (self.send)(to, msg).map_err(NetError::Transport)?;
        self.stats.on_send(len);
        Ok(())
    }

    fn recv(&mut self, from: PartyId) -> impl Future<Output = Result<Vec<u8>, NetError>> {
        let checked = self.check_peer(from);
        async move {
            checked?;
            let frame = poll_fn(|cx| self.inbox.poll_recv(from, cx)).await?;
            self.stats.on_recv(frame.len());
            Ok(frame)
        }
    }

    fn stats(&self) -> NetStats {
        self.stats.stats()
    }
}

/// A network that calls `on_progress(stats)` after every message it receives, with the
/// statistics since it was made (one job's, on a session's channels).
pub struct ProgressNetwork<N, P> {
    inner: N,
    on_progress: P,
    base: NetStats,
}

impl<N: Network, P: FnMut(&NetStats)> ProgressNetwork<N, P> {
    /// Wraps `inner`.
    pub fn new(inner: N, on_progress: P) -> Self {
        let base = inner.stats();
        ProgressNetwork { inner, on_progress, base }
    }

    /// The wrapped network.
    pub fn inner(&self) -> &N {
        &self.inner
    }
}

impl<N: Network, P: FnMut(&NetStats)> Network for ProgressNetwork<N, P> {
    fn party(&self) -> PartyId {
        self.inner.party()
    }

    fn parties(&self) -> usize {
        self.inner.parties()
    }

    fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError> {
        self.inner.send(to, msg)
    }

    async fn recv(&mut self, from: PartyId) -> Result<Vec<u8>, NetError> {
        let msg = self.inner.recv(from).await?;
        let stats = self.inner.stats().since(&self.base);
        (self.on_progress)(&stats);
        Ok(msg)
    }

    fn stats(&self) -> NetStats {
        self.inner.stats()
    }

    fn broadcast(&mut self, msg: &[u8]) -> Result<(), NetError> {
        self.inner.broadcast(msg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;

    #[test]
    fn frames_go_out_through_the_sender_and_come_in_through_the_inbox() {
        let inbox = Inbox::new(2);
        let mut sent = Vec::new();
        let mut net = BridgeNetwork::new(0, 2, inbox.clone(), |to, frame| {
            sent.push((to, frame));
            Ok(())
        });
        net.send(1, vec![1, 2, 3]).unwrap();
        assert_eq!(net.send(0, vec![]), Err(NetError::SelfAddressed(0)));
        inbox.deliver(1, vec![4, 5]).unwrap();
        assert_eq!(block_on(net.recv(1)), Ok(vec![4, 5]));
        let stats = net.stats();
        assert_eq!((stats.bytes_sent, stats.bytes_received, stats.messages_sent), (3, 2, 1));
        drop(net);
        assert_eq!(sent, vec![(1, vec![1, 2, 3])]);
    }

    #[test]
    fn a_failing_sender_or_a_failed_inbox_fails_the_send() {
        let inbox = Inbox::new(2);
        let mut net = BridgeNetwork::new(0, 2, inbox.clone(), |_, _| Err("socket closed".to_string()));
        assert_eq!(net.send(1, vec![1]), Err(NetError::Transport("socket closed".into())));
        inbox.fail(NetError::PeerLeft(1));
        assert_eq!(net.send(1, vec![1]), Err(NetError::PeerLeft(1)));
    }

    #[test]
    fn progress_is_reported_once_per_received_message() {
        let inbox = Inbox::new(2);
        let mut reports = Vec::new();
        {
            let net = BridgeNetwork::new(1, 2, inbox.clone(), |_, _| Ok(()));
            let mut net = ProgressNetwork::new(net, |s: &NetStats| reports.push(s.messages_received));
            inbox.deliver(0, vec![1]).unwrap();
            inbox.deliver(0, vec![2]).unwrap();
            block_on(net.recv(0)).unwrap();
            block_on(net.recv(0)).unwrap();
        }
        assert_eq!(reports, vec![1, 2]);
    }
}
