//! Routing what the relay delivers: data frames to the per-peer queues by the sender slot the
//! relay stamped (end markers counted, not queued), control messages to the failures they mean.

use super::wire::Control;
use crate::inbox::Delivery;
use chorus_core::net::{NetError, PartyId};
use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::watch;

/// What the session knows about each peer beyond its messages: end markers received and whether
/// it can still be heard.
#[derive(Debug, Clone)]
pub(super) struct PeerEnds {
    pub markers: Vec<u64>,
    pub gone: Vec<bool>,
}

/// What a control message means for the session.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum ControlOutcome {
    /// Nothing more to do (also for unknown types, as the protocol asks).
    Continue,
    /// The relay acknowledged this many data frames from this party.
    Ack(u64),
    /// A fatal error: the relay closes the connection next; the session is over.
    Fatal,
}

/// Routes what the relay sends to the per-peer queues.
pub(super) struct Demux {
    pub me: PartyId,
    pub senders: Vec<Option<UnboundedSender<Delivery>>>,
    pub ends: watch::Sender<PeerEnds>,
}

impl Demux {
    /// Delivers a data frame `[sender][payload]`; false if the relay broke the protocol.
    pub(super) fn data(&mut self, frame: &[u8]) -> bool {
        let Some((&sender, payload)) = frame.split_first() else {
            self.fail_all(NetError::Transport("relay sent an empty data frame".into()));
            return false;
        };
        let sender = sender as usize;
        if sender >= self.senders.len() || sender == self.me {
            self.fail_all(NetError::Transport(format!(
                "relay stamped a frame with impossible sender slot {sender}"
            )));
            return false;
        }
        if payload.is_empty() {
            self.ends.send_modify(|e| e.markers[sender] += 1);
        } else if let Some(tx) = &self.senders[sender] {
            let _ = tx.send(Ok(payload.to_vec()));
        }
        true
    }

    /// Handles a control message.
    pub(super) fn control(&mut self, c: &Control) -> ControlOutcome {
        match (c.kind.as_str(), c.slot) {
            // Demultiplexing starts after `ready`, so every departure breaks the session.
            ("peer-left", Some(slot)) | ("left", Some(slot)) => self.fail(slot, NetError::PeerLeft(slot)),
            // A peer's connection dropped; the relay keeps its slot and it may come back.
            ("peer-away", _) | ("peer-back", _) => {}
            ("ack", _) => match c.received {
                Some(n) => return ControlOutcome::Ack(n),
                None => {
                    self.fail_all(NetError::Transport("relay sent an ack without a count".into()));
                    return ControlOutcome::Fatal;
                }
            },
            ("error", slot) => {
                let code = c.code.as_deref().unwrap_or("unknown");
                let e = NetError::Transport(format!(
                    "relay error {code}: {}",
                    c.message.as_deref().unwrap_or("")
                ));
                match slot {
                    Some(slot) if c.fatal == Some(false) => self.fail(slot, e),
                    _ if c.fatal == Some(false) => {}
                    _ => {
                        self.fail_all(e);
                        return ControlOutcome::Fatal;
                    }
                }
            }
            _ => {}
        }
        ControlOutcome::Continue
    }

    pub(super) fn fail(&mut self, slot: PartyId, e: NetError) {
        if let Some(tx) = self.senders.get_mut(slot).and_then(Option::take) {
            let _ = tx.send(Err(e));
            self.ends.send_modify(|ends| ends.gone[slot] = true);
        }
    }

    pub(super) fn fail_all(&mut self, e: NetError) {
        for slot in 0..self.senders.len() {
            self.fail(slot, e.clone());
        }
    }
}
