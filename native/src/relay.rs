//! A [`Network`] through the Chorus WebSocket relay, implementing `server/PROTOCOL.md` (version 1)
//! as a client, so a native party can share a room with browser and Node parties.
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
//! - `error`: [`NetError::Transport`] naming the relay's code — for a fatal error (and for a
//!   close of the connection) on every peer, for the non-fatal `peer-not-connected` on the slot
//!   named (its frame was dropped, so the session cannot complete);
//! - unknown types and fields are ignored, as the protocol asks.
//!
//! A message plus its header byte must fit the relay's `maxPayloadBytes` from `welcome`; the
//! secure channel cuts protocol messages into frames far below the 1 MiB default. WebSocket
//! pings are answered by the WebSocket library while the reader task polls the connection.
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

mod http;

pub use http::{create_room, RelayAddress, Room};

use crate::inbox::{inbox, Delivery, Inbox};
use chorus_core::net::{NetError, NetStats, Network, PartyId, StatsRecorder};
use futures::stream::{SplitSink, SplitStream};
use futures::{SinkExt, StreamExt};
use serde::Deserialize;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::sync::watch;
use tokio::task::{AbortHandle, JoinHandle};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// The relay wire protocol version this client speaks.
pub const PROTOCOL_VERSION: u64 = 1;

type Socket = WebSocketStream<TcpStream>;

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
}

/// A control message from the relay (PROTOCOL.md §3.2); unknown fields are ignored.
#[derive(Debug, Deserialize)]
struct Control {
    #[serde(rename = "type")]
    kind: String,
    protocol: Option<u64>,
    slot: Option<usize>,
    parties: Option<usize>,
    #[serde(rename = "maxPayloadBytes")]
    max_payload_bytes: Option<usize>,
    code: Option<String>,
    message: Option<String>,
    fatal: Option<bool>,
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

/// What the reader task knows about each peer beyond its messages: end markers received and
/// whether it can still be heard.
#[derive(Debug, Clone)]
struct PeerEnds {
    markers: Vec<u64>,
    gone: Vec<bool>,
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
    reader: AbortHandle,
    writer: JoinHandle<()>,
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
        let closed =
            matches!(tokio::time::timeout(linger.max(Duration::from_secs(1)), self.writer).await, Ok(Ok(())));
        self.reader.abort();
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
    /// ready. Must run inside a tokio runtime, which then hosts the reader and writer tasks.
    /// The handle sends end markers and closes the connection once the network is dropped.
    pub async fn join(
        relay: &RelayAddress,
        room: &str,
        slot: PartyId,
        token: &str,
        timeout: Duration,
    ) -> Result<(RelayNetwork, RelayHandle), RelayError> {
        let joining = async {
            let stream = TcpStream::connect(relay.authority()).await.map_err(|source| RelayError::Io {
                what: format!("connecting to the relay at {}", relay.authority()),
                source,
            })?;
            stream
                .set_nodelay(true)
                .map_err(|source| RelayError::Io { what: "configuring the relay socket".into(), source })?;
            let (mut socket, _) = tokio_tungstenite::client_async(relay.join_url(room, slot, token), stream)
                .await
                .map_err(|e| RelayError::WebSocket(e.to_string()))?;
            let welcome = wait_until_ready(&mut socket, slot).await?;
            Ok::<_, RelayError>((socket, welcome))
        };
        let (socket, (parties, max_payload, early)) = tokio::time::timeout(timeout, joining)
            .await
            .map_err(|_| RelayError::Timeout("the room to be ready"))??;

        let (inbox, senders) = inbox(parties, slot);
        let (ends_tx, ends) =
            watch::channel(PeerEnds { markers: vec![0; parties], gone: vec![false; parties] });
        let mut demux = Demux { me: slot, senders, ends: ends_tx };
        for frame in early {
            demux.data(&frame);
        }
        let (sink, stream) = socket.split();
        let (tx, rx) = unbounded_channel();
        let reader = tokio::spawn(read_frames(stream, demux)).abort_handle();
        let writer = tokio::spawn(write_frames(sink, rx));
        let handle = RelayHandle { slot, parties, outgoing: tx.clone(), ends, jobs_done: 0, reader, writer };
        let net =
            RelayNetwork { slot, parties, max_payload, outgoing: tx, inbox, stats: StatsRecorder::new() };
        Ok((net, handle))
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

/// Reads `welcome` and waits for `ready`; returns the party count, the payload limit and any
/// data frames that arrived first.
async fn wait_until_ready(
    socket: &mut Socket,
    slot: PartyId,
) -> Result<(usize, usize, Vec<Vec<u8>>), RelayError> {
    let mut welcome: Option<(usize, usize)> = None;
    let mut early = Vec::new();
    while let Some(message) = socket.next().await {
        match message.map_err(|e| RelayError::WebSocket(e.to_string()))? {
            Message::Text(text) => {
                let c: Control = serde_json::from_str(text.as_str())
                    .map_err(|e| RelayError::Protocol(format!("control message is not JSON: {e}")))?;
                match c.kind.as_str() {
                    "welcome" => welcome = Some(check_welcome(&c, slot)?),
                    "ready" => match welcome {
                        Some((parties, max)) => return Ok((parties, max, early)),
                        None => return Err(RelayError::Protocol("ready before welcome".into())),
                    },
                    "error" => {
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

fn check_welcome(c: &Control, slot: PartyId) -> Result<(usize, usize), RelayError> {
    let bad = |m: String| Err(RelayError::Protocol(m));
    if c.protocol != Some(PROTOCOL_VERSION) {
        return bad(format!("relay speaks protocol {:?}, this client {PROTOCOL_VERSION}", c.protocol));
    }
    if c.slot != Some(slot) {
        return bad(format!("welcome names slot {:?}, this party joined slot {slot}", c.slot));
    }
    let (Some(parties), Some(max)) = (c.parties, c.max_payload_bytes) else {
        return bad("welcome lacks parties or maxPayloadBytes".into());
    };
    if !(2..=256).contains(&parties) || slot >= parties || max < 2 {
        return bad(format!("welcome has impossible values: {parties} parties, maxPayloadBytes {max}"));
    }
    Ok((parties, max))
}

/// Routes what the relay sends to the per-peer queues.
struct Demux {
    me: PartyId,
    senders: Vec<Option<UnboundedSender<Delivery>>>,
    ends: watch::Sender<PeerEnds>,
}

impl Demux {
    /// Delivers a data frame `[sender][payload]`; false if the relay broke the protocol.
    fn data(&mut self, frame: &[u8]) -> bool {
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

    /// Handles a control message; false once the connection is finished.
    fn control(&mut self, text: &str) -> bool {
        let Ok(c) = serde_json::from_str::<Control>(text) else {
            self.fail_all(NetError::Transport(format!(
                "relay sent a control message that is not JSON: {text:.80}"
            )));
            return false;
        };
        match (c.kind.as_str(), c.slot) {
            // Demultiplexing starts after `ready`, so every departure breaks the session.
            ("peer-left", Some(slot)) | ("left", Some(slot)) => self.fail(slot, NetError::PeerLeft(slot)),
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
                        return false;
                    }
                }
            }
            _ => {}
        }
        true
    }

    fn fail(&mut self, slot: PartyId, e: NetError) {
        if let Some(tx) = self.senders.get_mut(slot).and_then(Option::take) {
            let _ = tx.send(Err(e));
            self.ends.send_modify(|ends| ends.gone[slot] = true);
        }
    }

    fn fail_all(&mut self, e: NetError) {
        for slot in 0..self.senders.len() {
            self.fail(slot, e.clone());
        }
    }
}

async fn read_frames(mut stream: SplitStream<Socket>, mut demux: Demux) {
    while let Some(message) = stream.next().await {
        let go_on = match message {
            Ok(Message::Binary(frame)) => demux.data(&frame),
            Ok(Message::Text(text)) => demux.control(text.as_str()),
            Ok(Message::Close(frame)) => {
                let why =
                    frame.map(|f| format!(" (code {}: {})", u16::from(f.code), f.reason)).unwrap_or_default();
                demux.fail_all(NetError::Transport(format!("the relay closed the connection{why}")));
                false
            }
            Ok(_) => true,
            Err(e) => {
                demux.fail_all(NetError::Transport(format!("relay connection failed: {e}")));
                false
            }
        };
        if !go_on {
            return;
        }
    }
    demux.fail_all(NetError::Transport("the relay connection ended".into()));
}

async fn write_frames(mut sink: SplitSink<Socket, Message>, mut queue: UnboundedReceiver<Vec<u8>>) {
    while let Some(frame) = queue.recv().await {
        let mut next = Some(frame);
        while let Some(frame) = next {
            if sink.feed(Message::Binary(frame.into())).await.is_err() {
                return;
            }
            next = queue.try_recv().ok();
        }
        if sink.flush().await.is_err() {
            return;
        }
    }
    let _ = sink.close().await;
}
