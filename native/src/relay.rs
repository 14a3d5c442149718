//! A [`Network`] through the Chorus WebSocket relay, implementing `server/PROTOCOL.md` (version 2)
//! as a client, so a native party can share a room with browser and Node parties.
//!
//! [`RelayLink::join`] is the client itself: it joins a slot and hands what arrives to a
//! [`RelaySink`] (`demux.rs`) — [`RelayNetwork`]'s per-peer queues here, the Node addon's bridge
//! inbox there (`node/src/relay.rs`), so both move frames without another layer.
//!
//! [`create_room`] is `POST /rooms` (§1). [`RelayNetwork::join`] opens the WebSocket of a slot
//! (§2), reads `welcome`, and waits for `ready` (§3.2) before returning, so no frame is sent
//! before every slot is taken. A refused join (error frame then close, §2) becomes
//! [`RelayError::Refused`] with the relay's code.
//!
//! After `ready`, `send(j, m)` writes the binary frame `[j][m]` (§3.1); incoming frames
//! `[sender][payload]` are demultiplexed by the sender slot the relay stamped. Control messages:
//! - `peer-left` (and `left` after `ready`, which the relay sends for later departures) for slot
//!   *j*: receives from *j* fail with [`NetError::PeerLeft`] once its queued frames are read;
//! - `peer-away` / `peer-back`: a peer's connection dropped and came back; nothing fails;
//! - `ack`: the relay received this party's frames up to the count (kept until then, §6);
//! - `error`: [`NetError::Transport`] naming the relay's code — for a fatal error (and for a
//!   close of the connection) on every peer, for the non-fatal `peer-not-connected` on the slot
//!   named (its frame was dropped, so the session cannot complete);
//! - unknown types and fields are ignored, as the protocol asks.
//!
//! **Resume (§6).** When the connection drops (it ends without a close frame) once the room is
//! ready, the client resumes the slot on a new connection within the relay's grace period, and no
//! frame is lost or delivered twice (`connection.rs`); the job does not notice. A relay with
//! `minProtocol` 2 admits this client.
//!
//! A message plus its header byte must fit the relay's `maxPayloadBytes` from `welcome`; the
//! secure channel cuts protocol messages into frames far below the 1 MiB default. WebSocket
//! pings are answered by the WebSocket library while the connection task reads.
//!
//! # Job end markers (shared with the TypeScript SDK)
//! An *empty* data frame is not a message: it is the SDK's job end marker (channel frames are
//! never empty). After a job succeeds, each party sends every peer one marker
//! ([`RelayHandle::job_done`]); before closing, a party waits a bounded time until every peer
//! sent markers for all jobs it finished ([`RelayHandle::close`]), because the relay turns the
//! first departure from a ready room into `peer-left`, which fails the session of SDK parties
//! that are still finishing. Received markers are counted, never queued as messages; `send`
//! refuses empty messages. Markers are not authenticated: forging or dropping one only makes a
//! close earlier or later, which the relay can cause anyway.

mod connection;
mod demux;
mod http;
mod resend;
pub mod tls;
mod wire;

pub use demux::{RelayEvent, RelaySink};
pub use http::{create_room, RelayAddress, Room};
pub use wire::PROTOCOL_VERSION;

use crate::inbox::{inbox, Inbox};
use chorus_core::net::{NetError, NetStats, Network, PartyId, StatsRecorder};
use connection::Connection;
use demux::{Demux, PeerEnds, Queues};
use futures::StreamExt;
use std::time::Duration;
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use wire::{open, Control, Seat, Socket};

/// Errors of creating or joining a relay room.
#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    /// The relay URL is not usable.
    #[error("bad relay URL {url:?}: {reason}")]
    BadUrl {
        /// The URL given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A socket operation failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The socket error.
        #[source]
        source: std::io::Error,
    },
    /// The relay answered an HTTP request with an error (PROTOCOL.md §1 table).
    #[error("relay answered HTTP {status} ({code}): {message}")]
    Http {
        /// HTTP status.
        status: u16,
        /// The relay's error code.
        code: String,
        /// The relay's message.
        message: String,
    },
    /// The relay's answer could not be understood.
    #[error("unexpected answer from the relay: {0}")]
    BadResponse(String),
    /// The WebSocket handshake or connection failed.
    #[error("WebSocket error: {0}")]
    WebSocket(String),
    /// The relay refused the join with an error frame (PROTOCOL.md §2 table).
    #[error("relay refused the join ({code}): {message}")]
    Refused {
        /// The relay's error code, e.g. `bad-token`.
        code: String,
        /// The relay's message.
        message: String,
    },
    /// The connection closed before the room was ready.
    #[error("relay closed the connection before the room was ready: {0}")]
    ClosedEarly(String),
    /// Waiting timed out.
    #[error("timed out waiting for {0}")]
    Timeout(&'static str),
    /// The relay broke the wire protocol.
    #[error("relay protocol violation: {0}")]
    Protocol(String),
    /// TLS to an `https://` / `wss://` relay failed: its configuration, or the handshake (an
    /// untrusted or misnamed certificate among others).
    #[error("TLS: {0}")]
    Tls(String),
}

/// One party's endpoint of a relay room.
pub struct RelayNetwork {
    slot: PartyId,
    parties: usize,
    max_payload: usize,
    outgoing: UnboundedSender<Vec<u8>>,
    inbox: Inbox,
    stats: StatsRecorder,
}

/// The connection-level side of a relay membership: end markers and closing. Outlives the
/// [`RelayNetwork`] (which a job consumes) so the connection can close after the job.
#[derive(Debug)]
pub struct RelayHandle {
    slot: PartyId,
    parties: usize,
    outgoing: UnboundedSender<Vec<u8>>,
    ends: watch::Receiver<PeerEnds>,
    jobs_done: u64,
    connection: JoinHandle<()>,
}

impl RelayHandle {
    /// Records that a job succeeded and sends every peer an end marker (an empty data frame),
    /// after the job's own frames.
    pub fn job_done(&mut self) {
        self.jobs_done += 1;
        for peer in (0..self.parties).filter(|&p| p != self.slot) {
            // A closed connection needs no markers; `close` will not wait for anyone then.
            let _ = self.outgoing.send(vec![peer as u8]);
        }
    }

    /// Waits up to `linger` until every peer has sent an end marker for each job this party
    /// finished (or can no longer be heard), then closes the connection and waits (up to the
    /// same bound again) for queued frames and the close frame to be written. Drop the
    /// [`RelayNetwork`] (or the job's network wrapping it) first. Returns whether every peer had
    /// finished and the connection closed cleanly.
    pub async fn close(mut self, linger: Duration) -> bool {
        let (me, jobs) = (self.slot, self.jobs_done);
        let finished =
            move |e: &PeerEnds| (0..e.markers.len()).all(|p| p == me || e.gone[p] || e.markers[p] >= jobs);
        let peers_finished =
            matches!(tokio::time::timeout(linger, self.ends.wait_for(finished)).await, Ok(Ok(_)));
        drop(self.outgoing);
        let abort = self.connection.abort_handle();
        let closed = matches!(
            tokio::time::timeout(linger.max(Duration::from_secs(1)), self.connection).await,
            Ok(Ok(()))
        );
        abort.abort();
        peers_finished && closed
    }
}

impl core::fmt::Debug for RelayNetwork {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RelayNetwork").field("slot", &self.slot).field("parties", &self.parties).finish()
    }
}

impl RelayNetwork {
    /// Joins `slot` of `room` with `token` and waits (at most `timeout`) until the room is
    /// ready. Must run inside a tokio runtime, which then hosts the connection task (it resumes
    /// the slot if the connection drops). The handle sends end markers and closes the connection
    /// once the network is dropped.
    pub async fn join(
        relay: &RelayAddress,
        room: &str,
        slot: PartyId,
        token: &str,
        timeout: Duration,
    ) -> Result<(RelayNetwork, RelayHandle), RelayError> {
        let mut queues = None;
        let link = RelayLink::join(relay, room, slot, token, timeout, |parties| {
            let (inbox, senders) = inbox(parties, slot);
            let (ends_tx, ends) =
                watch::channel(PeerEnds { markers: vec![0; parties], gone: vec![false; parties] });
            queues = Some((inbox, ends));
            Queues { senders, ends: ends_tx }
        })
        .await?;
        let (inbox, ends) = queues.expect("the sink is made once the room is ready");
        let RelayLink { parties, max_payload, outgoing, connection, .. } = link;
        let handle =
            RelayHandle { slot, parties, outgoing: outgoing.clone(), ends, jobs_done: 0, connection };
        let net = RelayNetwork { slot, parties, max_payload, outgoing, inbox, stats: StatsRecorder::new() };
        Ok((net, handle))
    }
}

/// A membership of a relay room whose arrivals go to a [`RelaySink`]: what [`RelayNetwork`] is
/// built on, and what the Node addon joins with so that a job's frames cross no JavaScript.
#[derive(Debug)]
pub struct RelayLink {
    /// This party's slot.
    pub slot: PartyId,
    /// The room's number of parties (from `welcome`).
    pub parties: usize,
    /// The largest data frame the relay accepts, header byte included.
    pub max_payload: usize,
    /// Frames `[to][payload]` to write, in order; an empty payload is an end marker. The
    /// connection closes (after writing what is queued) once every sender is dropped.
    pub outgoing: UnboundedSender<Vec<u8>>,
    /// The connection's task (it ends when the connection closes for good).
    pub connection: JoinHandle<()>,
}

impl RelayLink {
    /// Joins `slot` of `room` with `token`, waits (at most `timeout`) until the room is ready,
    /// then hands every later arrival to the sink `make_sink(parties)` returns (frames that
    /// arrived before `ready` first). Must run inside a tokio runtime, which hosts the connection
    /// task; it resumes the slot if the connection drops.
    pub async fn join<S: RelaySink>(
        relay: &RelayAddress,
        room: &str,
        slot: PartyId,
        token: &str,
        timeout: Duration,
        make_sink: impl FnOnce(usize) -> S,
    ) -> Result<RelayLink, RelayError> {
        let seat = Seat { relay: relay.clone(), room: room.to_string(), slot, token: token.to_string() };
        let joining = async {
            let (mut socket, welcome) = open(&seat, None).await?;
            let early = wait_until_ready(&mut socket).await?;
            Ok::<_, RelayError>((socket, welcome, early))
        };
        let (socket, welcome, early) = tokio::time::timeout(timeout, joining)
            .await
            .map_err(|_| RelayError::Timeout("the room to be ready"))??;
        let parties = welcome.parties;
        let demux = Demux::new(slot, parties, make_sink(parties));
        let (outgoing, rx) = unbounded_channel();
        let mut connection = Connection::new(seat, welcome, demux, rx);
        for frame in early {
            connection.early(&frame);
        }
        let connection = tokio::spawn(connection.run(socket));
        Ok(RelayLink { slot, parties, max_payload: welcome.max_payload, outgoing, connection })
    }
}

impl Network for RelayNetwork {
    fn party(&self) -> PartyId {
        self.slot
    }

    fn parties(&self) -> usize {
        self.parties
    }

    fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError> {
        self.check_peer(to)?;
        if msg.is_empty() {
            return Err(NetError::Transport(format!(
                "an empty message for party {to} cannot cross the relay: empty frames are job end markers"
            )));
        }
        if msg.len() + 1 > self.max_payload {
            return Err(NetError::Transport(format!(
                "message of {} bytes for party {to} exceeds the relay's maxPayloadBytes of {} (header byte included)",
                msg.len(),
                self.max_payload
            )));
        }
        let mut frame = Vec::with_capacity(msg.len() + 1);
        frame.push(to as u8);
        frame.extend_from_slice(&msg);
        self.outgoing
            .send(frame)
            .map_err(|_| NetError::Transport("the relay connection is closed".into()))?;
        self.stats.on_send(msg.len());
        Ok(())
    }

    async fn recv(&mut self, from: PartyId) -> Result<Vec<u8>, NetError> {
        self.check_peer(from)?;
        let msg = self.inbox.recv(from).await?;
        self.stats.on_recv(msg.len());
        Ok(msg)
    }

    fn stats(&self) -> NetStats {
        self.stats.stats()
    }
}

/// Waits for `ready` after the `welcome`; returns any data frames that arrived first.
async fn wait_until_ready(socket: &mut Socket) -> Result<Vec<Vec<u8>>, RelayError> {
    let mut early = Vec::new();
    while let Some(message) = socket.next().await {
        match message.map_err(|e| RelayError::WebSocket(e.to_string()))? {
            Message::Text(text) => {
                let c = Control::parse(text.as_str())?;
                match c.kind.as_str() {
                    "ready" => return Ok(early),
                    "error" if c.fatal != Some(false) => {
                        return Err(RelayError::Refused {
                            code: c.code.unwrap_or_else(|| "unknown".into()),
                            message: c.message.unwrap_or_default(),
                        })
                    }
                    _ => {}
                }
            }
            Message::Binary(frame) => early.push(frame.to_vec()),
            Message::Close(frame) => {
                let why =
                    frame.map(|f| format!("code {}: {}", u16::from(f.code), f.reason)).unwrap_or_default();
                return Err(RelayError::ClosedEarly(why));
            }
            _ => {}
        }
    }
    Err(RelayError::ClosedEarly("connection ended".into()))
}
