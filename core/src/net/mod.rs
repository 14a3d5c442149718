//! The network abstraction every protocol runs over (GUIDE §2).
//!
//! Protocols are async functions generic over [`Network`]: send bytes to party *j*, receive bytes
//! from party *j*. Nothing here knows about sockets, threads or executors — only `futures`. The
//! in-memory implementation ([`memory`]) runs all parties in one process for tests; the SDK (WASM)
//! and the native runner implement the trait over the relay or TCP, under an encrypted channel.
//!
//! Messages are whole byte vectors: protocols batch one message per peer per round. Statistics
//! count protocol payload bytes only (what the papers count); transport and channel overheads are
//! reported by those layers.
//!
//! - [`secure`]: the Noise-based encrypted, authenticated channel every session runs under.

pub mod memory;
pub mod secure;
mod stats;
#[cfg(test)]
pub(crate) mod tamper;

pub use stats::{NetStats, StatsRecorder};

use core::future::Future;

/// Index of a party in a session, `0..parties`.
pub type PartyId = usize;

/// Errors of a network: each names the peer or what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// A party index outside the session.
    #[error("party {party} is not in this session of {parties} parties")]
    UnknownParty {
        /// The index that was used.
        party: PartyId,
        /// Number of parties in the session.
        parties: usize,
    },
    /// A party tried to send to or receive from itself.
    #[error("party {0} cannot send to or receive from itself")]
    SelfAddressed(PartyId),
    /// The peer left (its connection closed) before the protocol finished.
    #[error("party {0} left the session")]
    PeerLeft(PartyId),
    /// A frame from the peer failed authentication, or arrived replayed, reordered or dropped.
    #[error("integrity failure on the channel with party {peer}: {reason}")]
    Integrity {
        /// The peer whose frame failed.
        peer: PartyId,
        /// What failed.
        reason: String,
    },
    /// The transport failed (socket error, relay error, cancelled).
    #[error("transport error: {0}")]
    Transport(String),
}

/// A party's view of the network of an n-party session.
///
/// `send` queues a message and returns at once (transports flush in the background); `recv`
/// resolves with the next message from that peer, in order. Messages between one pair are
/// delivered in order and never merged or split.
pub trait Network {
    /// This party's index.
    fn party(&self) -> PartyId;

    /// Number of parties in the session.
    fn parties(&self) -> usize;

    /// Queues `msg` for party `to`.
    fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError>;

    /// The next message from party `from`.
    fn recv(&mut self, from: PartyId) -> impl Future<Output = Result<Vec<u8>, NetError>>;

    /// Bytes, messages and rounds so far.
    fn stats(&self) -> NetStats;

    /// Sends the same message to every other party.
    fn broadcast(&mut self, msg: &[u8]) -> Result<(), NetError> {
        let me = self.party();
        for to in (0..self.parties()).filter(|&p| p != me) {
            self.send(to, msg.to_vec())?;
        }
        Ok(())
    }

    /// Checks that `peer` is another party of this session.
    fn check_peer(&self, peer: PartyId) -> Result<(), NetError> {
        if peer >= self.parties() {
            Err(NetError::UnknownParty { party: peer, parties: self.parties() })
        } else if peer == self.party() {
            Err(NetError::SelfAddressed(peer))
        } else {
            Ok(())
        }
    }
}

/// A network borrowed for a while — one job of a session that keeps its channels between jobs.
impl<N: Network + ?Sized> Network for &mut N {
    fn party(&self) -> PartyId {
        (**self).party()
    }

    fn parties(&self) -> usize {
        (**self).parties()
    }

    fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError> {
        (**self).send(to, msg)
    }

    fn recv(&mut self, from: PartyId) -> impl Future<Output = Result<Vec<u8>, NetError>> {
        (**self).recv(from)
    }

    fn stats(&self) -> NetStats {
        (**self).stats()
    }

    fn broadcast(&mut self, msg: &[u8]) -> Result<(), NetError> {
        (**self).broadcast(msg)
    }
}

/// Yields once to the executor, so that other tasks on the same thread — on a single-threaded
/// runtime, the transport's writer — run before this task continues: a protocol that sends a
/// message and then computes for a while calls it after the send, so the message leaves while it
/// computes. Executor-agnostic (tokio, the browser's microtask queue, a test's `block_on`).
pub fn yield_now() -> impl Future<Output = ()> {
    struct YieldOnce(bool);
    impl Future for YieldOnce {
        type Output = ();
        fn poll(
            mut self: core::pin::Pin<&mut Self>,
            cx: &mut core::task::Context<'_>,
        ) -> core::task::Poll<()> {
            if self.0 {
                core::task::Poll::Ready(())
            } else {
                self.0 = true;
                cx.waker().wake_by_ref();
                core::task::Poll::Pending
            }
        }
    }
    YieldOnce(false)
}
