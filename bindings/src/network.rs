//! The [`Network`] whose frames travel through JavaScript: `send` hands the destination and the
//! whole frame to a binding-supplied sender (a JS callback, directly in WebAssembly or through a
//! thread-safe function in the Node addon), and frames from peers come in through an [`Inbox`]
//! that JS feeds. The bindings put this under [`chorus_core::net::secure::SecureNetwork`], so
//! every frame that crosses the JS boundary is already encrypted and authenticated.
//!
//! [`ProgressNetwork`] wraps any network to report statistics after each received protocol message
//! (one call per message, never per element).

use crate::inbox::Inbox;
use chorus_core::jobs::JobPhase;
use chorus_core::net::{NetError, NetStats, Network, PartyId, StatsRecorder};
use core::future::{poll_fn, Future};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

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

/// What a running job reports after each received protocol message: its statistics so far, its
/// phase once it said, and, for a circuit job that streams its instances, how many are done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The job's statistics since it started.
    pub stats: NetStats,
    /// Whether the job is in an online phase (`Some(true)`), making material (`Some(false)`), or
    /// has not said (jobs that report no [`JobPhase`]).
    pub online: Option<bool>,
    /// Instances evaluated and in all, once a circuit job reported its first chunk.
    pub instances: Option<(usize, usize)>,
}

/// The job's milestones as its observer hears them ([`JobPhase`]), read by its
/// [`ProgressNetwork`] (shared, so the job and the network need not borrow each other): the phase
/// (0 not said, 1 preprocessing, 2 online) and the instances done and in all.
#[derive(Debug, Clone, Default)]
pub struct InstanceProgress(Arc<[AtomicUsize; 3]>);

impl InstanceProgress {
    /// Records a milestone: an online phase starts, or a chunk of instances is done (the next
    /// chunk's material is made next, if any).
    pub fn observe(&self, phase: JobPhase) {
        match phase {
            JobPhase::OnlineStarts => self.0[2].store(2, Ordering::Relaxed),
            JobPhase::Instances { done, total } => {
                self.0[1].store(total, Ordering::Relaxed);
                self.0[0].store(done, Ordering::Relaxed);
                self.0[2].store(if done < total { 1 } else { 2 }, Ordering::Relaxed);
            }
        }
    }

    /// The phase, if said.
    pub fn online(&self) -> Option<bool> {
        match self.0[2].load(Ordering::Relaxed) {
            0 => None,
            phase => Some(phase == 2),
        }
    }

    /// The last recorded instance counts, if any.
    pub fn instances(&self) -> Option<(usize, usize)> {
        let total = self.0[1].load(Ordering::Relaxed);
        (total > 0).then(|| (self.0[0].load(Ordering::Relaxed), total))
    }
}

/// A network that calls `on_progress` after every message it receives, with the statistics since
/// it was made (one job's, on a session's channels) and the job's instance counts.
pub struct ProgressNetwork<N, P> {
    inner: N,
    on_progress: P,
    base: NetStats,
    instances: InstanceProgress,
}

impl<N: Network, P: FnMut(&Progress)> ProgressNetwork<N, P> {
    /// Wraps `inner`; `instances` is what the job records.
    pub fn new(inner: N, on_progress: P, instances: InstanceProgress) -> Self {
        let base = inner.stats();
        ProgressNetwork { inner, on_progress, base, instances }
    }

    /// The wrapped network.
    pub fn inner(&self) -> &N {
        &self.inner
    }
}

impl<N: Network, P: FnMut(&Progress)> Network for ProgressNetwork<N, P> {
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
        let progress =
            Progress { stats, online: self.instances.online(), instances: self.instances.instances() };
        (self.on_progress)(&progress);
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
            let mut net = ProgressNetwork::new(
                net,
                |p: &Progress| reports.push(p.stats.messages_received),
                InstanceProgress::default(),
            );
            inbox.deliver(0, vec![1]).unwrap();
            inbox.deliver(0, vec![2]).unwrap();
            block_on(net.recv(0)).unwrap();
            block_on(net.recv(0)).unwrap();
        }
        assert_eq!(reports, vec![1, 2]);
    }
}
