//! Routing what the relay delivers: data frames to the session's [`RelaySink`] by the sender slot
//! the relay stamped (end markers counted apart), control messages to the events and failures
//! they mean.
//!
//! The sink is where a relay membership ends: the runner's per-peer queues ([`Queues`], read by
//! [`super::RelayNetwork`]), or the Node addon's bridge inbox, so that the addon moves a job's
//! frames without JavaScript (`node/src/relay.rs`). Either way this file decides what a frame or
//! a control message means; the sink only stores it.

use super::wire::Control;
use crate::inbox::Delivery;
use chorus_core::net::{NetError, PartyId};
use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::watch;

/// A relay event a session may report beyond frames and failures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RelayEvent {
    /// Peer `slot` left the ready room (`reason` as the relay reported it); the session is broken.
    /// [`RelaySink::gone`] follows for the slot.
    PeerLeft {
        /// The slot that left.
        slot: PartyId,
        /// `closed`, `timeout`, `idle`, `error`, `resume-failed`, …
        reason: String,
        /// The connected slots after the departure.
        roster: Vec<PartyId>,
    },
    /// Peer `slot`'s connection dropped; the relay keeps its slot and it may resume.
    PeerAway {
        /// The slot that is away.
        slot: PartyId,
        /// `closed` or `timeout`.
        reason: String,
        /// The connected slots.
        roster: Vec<PartyId>,
    },
    /// Peer `slot` resumed.
    PeerBack {
        /// The slot that came back.
        slot: PartyId,
        /// The connected slots.
        roster: Vec<PartyId>,
    },
    /// This party's connection dropped; the client is resuming the slot.
    Reconnecting,
    /// This party's slot was resumed on a new connection.
    Resumed,
    /// The connection failed for good, before [`RelaySink::gone`] for every peer still heard.
    Failed {
        /// How, as the SDK's `RelayError` codes name it: the relay's code of a fatal error frame,
        /// `connection-lost`, `resume-failed` or `bad-relay-message`.
        code: String,
        /// What happened.
        message: String,
    },
}

/// Where a relay membership hands what arrives, on the connection's task.
pub trait RelaySink: Send + 'static {
    /// A data frame's payload (never empty) from peer `from`, in the order `from` sent them.
    fn frame(&mut self, from: PartyId, payload: Vec<u8>);
    /// An end marker (an empty data frame) from peer `from`.
    fn marker(&mut self, from: PartyId);
    /// Peer `slot` can no longer be heard (it left, or the connection failed); called at most once
    /// per slot, after every frame it sent before.
    fn gone(&mut self, slot: PartyId, error: &NetError);
    /// A relay event (peers away and back, departures, this connection resuming).
    fn event(&mut self, _event: RelayEvent) {}
}

/// What the session knows about each peer beyond its messages: end markers received and whether
/// it can still be heard.
#[derive(Debug, Clone)]
pub(super) struct PeerEnds {
    pub markers: Vec<u64>,
    pub gone: Vec<bool>,
}

/// The runner's sink: one queue per peer for [`super::RelayNetwork`], and the markers and
/// departures [`super::RelayHandle::close`] waits on.
pub(super) struct Queues {
    pub senders: Vec<Option<UnboundedSender<Delivery>>>,
    pub ends: watch::Sender<PeerEnds>,
}

impl RelaySink for Queues {
    fn frame(&mut self, from: PartyId, payload: Vec<u8>) {
        if let Some(tx) = &self.senders[from] {
            let _ = tx.send(Ok(payload));
        }
    }

    fn marker(&mut self, from: PartyId) {
        self.ends.send_modify(|e| e.markers[from] += 1);
    }

    fn gone(&mut self, slot: PartyId, error: &NetError) {
        if let Some(tx) = self.senders[slot].take() {
            let _ = tx.send(Err(error.clone()));
        }
        self.ends.send_modify(|ends| ends.gone[slot] = true);
    }
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

/// Routes what the relay sends to the sink.
pub(super) struct Demux<S> {
    me: PartyId,
    gone: Vec<bool>,
    /// Whether the connection failed for good (reported once).
    failed: bool,
    pub sink: S,
}

impl<S: RelaySink> Demux<S> {
    /// The router of party `me` of `parties`.
    pub(super) fn new(me: PartyId, parties: usize, sink: S) -> Self {
        let mut gone = vec![false; parties];
        gone[me] = true;
        Demux { me, gone, failed: false, sink }
    }

    /// Delivers a data frame `[sender][payload]`; false if the relay broke the protocol.
    pub(super) fn data(&mut self, frame: &[u8]) -> bool {
        let Some((&sender, payload)) = frame.split_first() else {
            self.fail_all("bad-relay-message", NetError::Transport("relay sent an empty data frame".into()));
            return false;
        };
        let sender = sender as usize;
        if sender >= self.gone.len() || sender == self.me {
            self.fail_all(
                "bad-relay-message",
                NetError::Transport(format!("relay stamped a frame with impossible sender slot {sender}")),
            );
            return false;
        }
        if payload.is_empty() {
            self.sink.marker(sender);
        } else if !self.gone[sender] {
            self.sink.frame(sender, payload.to_vec());
        }
        true
    }

    /// Handles a control message.
    pub(super) fn control(&mut self, c: &Control) -> ControlOutcome {
        let roster = || c.roster.clone().unwrap_or_default();
        let reason = || c.reason.clone().unwrap_or_else(|| "unknown".into());
        match (c.kind.as_str(), c.slot) {
            // Demultiplexing starts after `ready`, so every departure breaks the session.
            ("peer-left", Some(slot)) | ("left", Some(slot)) => {
                if slot < self.gone.len() && !self.gone[slot] {
                    self.sink.event(RelayEvent::PeerLeft { slot, reason: reason(), roster: roster() });
                }
                self.fail(slot, NetError::PeerLeft(slot))
            }
            // A peer's connection dropped; the relay keeps its slot and it may come back.
            ("peer-away", Some(slot)) => {
                self.sink.event(RelayEvent::PeerAway { slot, reason: reason(), roster: roster() })
            }
            ("peer-back", Some(slot)) => self.sink.event(RelayEvent::PeerBack { slot, roster: roster() }),
            ("ack", _) => match c.received {
                Some(n) => return ControlOutcome::Ack(n),
                None => {
                    self.fail_all(
                        "bad-relay-message",
                        NetError::Transport("relay sent an ack without a count".into()),
                    );
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
                        self.fail_all(code, e);
                        return ControlOutcome::Fatal;
                    }
                }
            }
            _ => {}
        }
        ControlOutcome::Continue
    }

    /// Peer `slot` can no longer be heard, for `e` (once per slot; out-of-range slots are ignored).
    pub(super) fn fail(&mut self, slot: PartyId, e: NetError) {
        if slot < self.gone.len() && !self.gone[slot] {
            self.gone[slot] = true;
            self.sink.gone(slot, &e);
        }
    }

    /// No peer can be heard any more: the connection failed for good (`code` says how, in the
    /// SDK's `RelayError` codes: the relay's own for a fatal error frame, `connection-lost`,
    /// `resume-failed`, `bad-relay-message`).
    pub(super) fn fail_all(&mut self, code: &str, e: NetError) {
        if !self.failed {
            self.failed = true;
            self.sink.event(RelayEvent::Failed { code: code.to_string(), message: e.to_string() });
        }
        for slot in 0..self.gone.len() {
            self.fail(slot, e.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records what the demultiplexer hands over.
    #[derive(Default)]
    struct Recorder {
        log: Vec<String>,
    }

    impl RelaySink for Recorder {
        fn frame(&mut self, from: PartyId, payload: Vec<u8>) {
            self.log.push(format!("frame {from} {payload:?}"));
        }
        fn marker(&mut self, from: PartyId) {
            self.log.push(format!("marker {from}"));
        }
        fn gone(&mut self, slot: PartyId, error: &NetError) {
            self.log.push(format!("gone {slot} {error}"));
        }
        fn event(&mut self, event: RelayEvent) {
            self.log.push(format!("{event:?}"));
        }
    }

    fn control(json: &str) -> Control {
        Control::parse(json).unwrap()
    }

    #[test]
    fn frames_markers_departures_and_a_fatal_error_reach_the_sink_in_order() {
        let mut demux = Demux::new(0, 3, Recorder::default());
        assert!(demux.data(&[1, 7, 8]));
        assert!(demux.data(&[2]));
        assert_eq!(
            demux.control(&control(r#"{"type":"peer-away","slot":2,"roster":[0,1],"reason":"closed"}"#)),
            ControlOutcome::Continue
        );
        demux.control(&control(r#"{"type":"peer-back","slot":2,"roster":[0,1,2]}"#));
        demux.control(&control(r#"{"type":"peer-left","slot":1,"roster":[0,2],"reason":"timeout"}"#));
        // Frames of a peer that is gone are dropped; a second departure of it is not reported.
        assert!(demux.data(&[1, 9]));
        demux.control(&control(r#"{"type":"left","slot":1,"roster":[0,2],"reason":"closed"}"#));
        assert_eq!(
            demux.control(&control(r#"{"type":"error","code":"idle","message":"bye","fatal":true}"#)),
            ControlOutcome::Fatal
        );
        demux.fail_all("connection-lost", NetError::Transport("closed".into()));
        assert_eq!(
            demux.sink.log,
            [
                "frame 1 [7, 8]".to_string(),
                "marker 2".into(),
                r#"PeerAway { slot: 2, reason: "closed", roster: [0, 1] }"#.into(),
                "PeerBack { slot: 2, roster: [0, 1, 2] }".into(),
                r#"PeerLeft { slot: 1, reason: "timeout", roster: [0, 2] }"#.into(),
                "gone 1 party 1 left the session".into(),
                r#"Failed { code: "idle", message: "transport error: relay error idle: bye" }"#.into(),
                "gone 2 transport error: relay error idle: bye".into(),
            ]
        );
    }

    #[test]
    fn a_frame_from_an_impossible_slot_fails_every_peer_as_a_bad_relay_message() {
        let mut demux = Demux::new(1, 2, Recorder::default());
        assert!(!demux.data(&[1, 5]));
        assert!(!demux.data(&[]));
        assert!(
            demux.sink.log[0].starts_with(r#"Failed { code: "bad-relay-message""#),
            "{:?}",
            demux.sink.log
        );
        assert_eq!(demux.sink.log.len(), 2, "{:?}", demux.sink.log);
    }
}
