//! Per-peer receive queues shared by the TCP and relay networks, and the handle that lets a
//! caller wait until queued outgoing messages are on the wire.
//!
//! A transport's background reader pushes each message (or the error that ended the connection)
//! into the queue of the peer it came from; [`Inbox::recv`] takes them out in order. The first
//! error from a peer is remembered, so every later receive from that peer fails the same way
//! instead of hanging.

use chorus_core::net::{NetError, PartyId};
use std::time::Duration;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::task::JoinHandle;

/// What a reader task delivers for one peer: a message, or why the peer can no longer be heard.
pub(crate) type Delivery = Result<Vec<u8>, NetError>;

/// The receiving side of every peer's queue.
pub(crate) struct Inbox {
    queues: Vec<Option<UnboundedReceiver<Delivery>>>,
    failed: Vec<Option<NetError>>,
}

/// Queues for an `n`-party session seen by `me`: the inbox, and one sender per peer (`None` at
/// `me`) for the reader tasks.
pub(crate) fn inbox(n: usize, me: PartyId) -> (Inbox, Vec<Option<UnboundedSender<Delivery>>>) {
    let mut queues = Vec::with_capacity(n);
    let mut senders = Vec::with_capacity(n);
    for p in 0..n {
        if p == me {
            queues.push(None);
            senders.push(None);
        } else {
            let (tx, rx) = unbounded_channel();
            queues.push(Some(rx));
            senders.push(Some(tx));
        }
    }
    (Inbox { queues, failed: vec![None; n] }, senders)
}

impl Inbox {
    /// The next message from `from` (already checked to be a peer). A closed queue means the
    /// reader ended without an error of its own: the peer closed its connection.
    pub(crate) async fn recv(&mut self, from: PartyId) -> Delivery {
        if let Some(e) = &self.failed[from] {
            return Err(e.clone());
        }
        let queue = self.queues[from].as_mut().ok_or(NetError::SelfAddressed(from))?;
        let error = match queue.recv().await {
            Some(Ok(msg)) => return Ok(msg),
            Some(Err(e)) => e,
            None => NetError::PeerLeft(from),
        };
        self.failed[from] = Some(error.clone());
        Err(error)
    }
}

/// The background writer tasks of a network. Queued messages are written after `send`
/// returns; a program that exits right after its last `send` must first drop the network
/// (which ends the writers once their queues are empty) and then [`FlushHandle::finish`].
#[derive(Debug)]
pub struct FlushHandle {
    writers: Vec<JoinHandle<()>>,
}

impl FlushHandle {
    pub(crate) fn new(writers: Vec<JoinHandle<()>>) -> Self {
        FlushHandle { writers }
    }

    /// Waits up to `timeout` for every writer to flush and close its connection; returns whether
    /// all did. Call it after the network (and any wrapper owning it) was dropped, otherwise the
    /// writers keep waiting for more messages and this times out.
    pub async fn finish(self, timeout: Duration) -> bool {
        let all = futures::future::join_all(self.writers);
        matches!(tokio::time::timeout(timeout, all).await, Ok(results) if results.iter().all(Result::is_ok))
    }
}
