//! The task that owns a party's relay connection once the room is ready: it writes the frames the
//! party sends, reads what the relay delivers, acknowledges in both directions, and, when the
//! connection drops, resumes the slot on a new one (PROTOCOL.md §6) exactly like the TypeScript
//! SDK: backoff from 100 ms doubling to 2 s, within the relay's grace period, and then every frame
//! the relay has not received goes out again while the relay sends again every frame this party
//! has not received. Nothing is lost or delivered twice, so the job above never notices.
//!
//! One task, not a reader and a writer: a resume replaces the socket under both. Reading never
//! waits for a write to finish (the write runs as a future of its own that owns the socket's
//! sink), so a party blocked on writing to a relay that paused it still reads what would unblock
//! the relay.

use super::demux::{ControlOutcome, Demux, RelayEvent, RelaySink};
use super::resend::{ReceivedFrames, SentFrames};
use super::wire::{ack_text, open, Control, Seat, Socket, Welcome};
use super::RelayError;
use chorus_core::net::NetError;
use futures::future::BoxFuture;
use futures::stream::{SplitSink, SplitStream};
use futures::{FutureExt, SinkExt, StreamExt};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::{Bytes, Message};

/// Bytes of sent frames kept for a resume until the relay acknowledges them (as the SDK).
const RESUME_BUFFER_BYTES: usize = 64 * 1024 * 1024;
/// Delay before acknowledging frames that did not reach the relay's `ackBytes`.
const ACK_DELAY: Duration = Duration::from_millis(50);
/// Backoff between resume attempts: the first delay, and the cap it doubles up to.
const RECONNECT_FIRST: Duration = Duration::from_millis(100);
const RECONNECT_MAX: Duration = Duration::from_secs(2);
/// Most frames handed to the socket in one write.
const BATCH: usize = 64;
/// How long a closing party waits for the relay to answer its close frame (within the SDK's
/// 2 s bound on `close`).
const CLOSE_HANDSHAKE: Duration = Duration::from_secs(1);

type Sink = SplitSink<Socket, Message>;
type Write = BoxFuture<'static, (Sink, Result<(), String>)>;

/// One socket: its read half, and its write half (idle, or inside the write in progress).
struct Link {
    stream: SplitStream<Socket>,
    sink: Option<Sink>,
    writing: Option<Write>,
}

impl Link {
    fn new(socket: Socket) -> Link {
        let (sink, stream) = socket.split();
        Link { stream, sink: Some(sink), writing: None }
    }

    /// Starts writing `batch` (the sink is idle).
    fn write(&mut self, batch: Vec<Message>) {
        let mut sink = self.sink.take().expect("no write in progress");
        self.writing = Some(
            async move {
                let mut result = Ok(());
                for message in batch {
                    if let Err(e) = sink.feed(message).await {
                        result = Err(e.to_string());
                        break;
                    }
                }
                if result.is_ok() {
                    result = sink.flush().await.map_err(|e| e.to_string());
                }
                (sink, result)
            }
            .boxed(),
        );
    }
}

/// How the current socket ended.
enum Ended {
    /// Dropped without a close frame: resume if the relay allows it.
    Dropped(String),
    /// The session is over (the relay closed the connection, a fatal error, or this party closed).
    Over,
}

/// A party's relay session after `ready`.
pub(super) struct Connection<S> {
    seat: Seat,
    welcome: Welcome,
    demux: Demux<S>,
    outgoing: UnboundedReceiver<Vec<u8>>,
    /// Whether a sender of `outgoing` is alive (the job's network or the handle).
    accepting: bool,
    sent: SentFrames,
    received: ReceivedFrames,
    /// When an `ack` of frames below `ackBytes` is due.
    ack_at: Option<Instant>,
}

impl<S: RelaySink> Connection<S> {
    pub(super) fn new(
        seat: Seat,
        welcome: Welcome,
        demux: Demux<S>,
        outgoing: UnboundedReceiver<Vec<u8>>,
    ) -> Self {
        Connection {
            seat,
            welcome,
            demux,
            outgoing,
            accepting: true,
            sent: SentFrames::new(RESUME_BUFFER_BYTES),
            received: ReceivedFrames::default(),
            ack_at: None,
        }
    }

    /// Counts and routes a data frame that arrived before `ready` (it belongs to the session).
    pub(super) fn early(&mut self, frame: &[u8]) {
        self.record(frame.len());
        self.demux.data(frame);
    }

    /// Runs the session on `socket` and on the sockets of later resumes, until it is over.
    pub(super) async fn run(mut self, socket: Socket) {
        let mut link = Link::new(socket);
        loop {
            match self.serve(&mut link).await {
                Ended::Over => return,
                Ended::Dropped(why) => match self.resume(why).await {
                    Some(socket) => {
                        self.demux.sink.event(RelayEvent::Resumed);
                        link = Link::new(socket);
                    }
                    None => return,
                },
            }
        }
    }

    /// Serves one socket until it ends.
    async fn serve(&mut self, link: &mut Link) -> Ended {
        loop {
            if link.writing.is_none() {
                let batch = self.batch();
                if !batch.is_empty() {
                    link.write(batch);
                } else if !self.accepting {
                    // Everything written and nobody sends any more: close the connection, and
                    // wait for the relay's answer (the close handshake, RFC 6455 §7.1.1) reading
                    // and dropping what still arrives. A socket dropped with unread data is reset,
                    // and a reset can discard the close frame at the relay, which then takes the
                    // departure for a drop and keeps the slot for its grace period.
                    let mut sink = link.sink.take().expect("idle");
                    if sink.send(Message::Close(None)).await.is_ok() {
                        let drain = async { while let Some(Ok(_)) = link.stream.next().await {} };
                        let _ = tokio::time::timeout(CLOSE_HANDSHAKE, drain).await;
                    }
                    return Ended::Over;
                }
            }
            let ack_at = self.ack_at;
            let Link { stream, sink, writing } = link;
            tokio::select! {
                message = stream.next() => match message {
                    Some(Ok(Message::Binary(frame))) => {
                        self.record(frame.len());
                        if !self.demux.data(&frame) {
                            return Ended::Over;
                        }
                    }
                    Some(Ok(Message::Text(text))) => {
                        if !self.control(text.as_str()) {
                            return Ended::Over;
                        }
                    }
                    Some(Ok(Message::Close(frame))) => {
                        let why = frame
                            .map(|f| format!(" (code {}: {})", u16::from(f.code), f.reason))
                            .unwrap_or_default();
                        let closed = NetError::Transport(format!("the relay closed the connection{why}"));
                        self.demux.fail_all("connection-lost", closed);
                        return Ended::Over;
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => return Ended::Dropped(format!("relay connection failed: {e}")),
                    None => return Ended::Dropped("the relay connection ended".into()),
                },
                frame = self.outgoing.recv(), if self.accepting => match frame {
                    Some(frame) => self.sent.push(Bytes::from(frame)),
                    None => self.accepting = false,
                },
                (idle, result) = async { writing.as_mut().expect("guarded").await }, if writing.is_some() => {
                    *writing = None;
                    *sink = Some(idle);
                    if let Err(e) = result {
                        return Ended::Dropped(format!("writing to the relay failed: {e}"));
                    }
                }
                _ = tokio::time::sleep_until(ack_at.unwrap_or_else(Instant::now)), if ack_at.is_some() => {
                    self.ack_at = None;
                }
            }
        }
    }

    /// The next messages to write: an `ack` when one is due, then unwritten frames.
    fn batch(&mut self) -> Vec<Message> {
        let mut batch = Vec::new();
        let ack_due = self.ack_at.is_none_or(|at| at <= Instant::now());
        if self.received.behind() && ack_due {
            self.ack_at = None;
            batch.push(Message::Text(ack_text(self.received.acknowledge()).into()));
        }
        while batch.len() < BATCH {
            match self.sent.next_unwritten() {
                Some(frame) => batch.push(Message::Binary(frame)),
                None => break,
            }
        }
        batch
    }

    /// Counts a received data frame and schedules its `ack`.
    fn record(&mut self, length: usize) {
        if self.received.record(length, self.welcome.ack_bytes) {
            self.ack_at = None;
        } else if self.ack_at.is_none() {
            self.ack_at = Some(Instant::now() + ACK_DELAY);
        }
    }

    /// Handles a control message; false once the session is over.
    fn control(&mut self, text: &str) -> bool {
        let c = match Control::parse(text) {
            Ok(c) => c,
            Err(e) => {
                self.demux.fail_all("bad-relay-message", NetError::Transport(e.to_string()));
                return false;
            }
        };
        match self.demux.control(&c) {
            ControlOutcome::Continue => true,
            ControlOutcome::Fatal => false,
            ControlOutcome::Ack(n) => {
                if !self.sent.acknowledge(n) {
                    self.demux.fail_all(
                        "bad-relay-message",
                        NetError::Transport(format!(
                            "relay acknowledged {n} frames, more than this party sent"
                        )),
                    );
                    return false;
                }
                true
            }
        }
    }

    /// The socket dropped: opens new ones, with backoff, until the relay resumes the slot or its
    /// grace period is over. Returns the resumed socket, or None (every peer failed).
    async fn resume(&mut self, why: String) -> Option<Socket> {
        if self.welcome.grace.is_zero() || !self.accepting && !self.sent.has_unwritten() {
            self.demux.fail_all("connection-lost", NetError::Transport(why));
            return None;
        }
        self.demux.sink.event(RelayEvent::Reconnecting);
        let deadline = Instant::now() + self.welcome.grace;
        let mut delay = Duration::ZERO;
        let mut backoff = RECONNECT_FIRST;
        loop {
            tokio::time::sleep(delay).await;
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                self.demux.fail_all(
                    "connection-lost",
                    NetError::Transport(format!(
                        "{why}; could not resume within the relay's grace period of {} ms",
                        self.welcome.grace.as_millis()
                    )),
                );
                return None;
            }
            match tokio::time::timeout(remaining, open(&self.seat, Some(self.received.received))).await {
                Ok(Ok((socket, welcome))) => {
                    if !self.sent.can_resume_after(welcome.received) {
                        self.demux.fail_all(
                            "resume-failed",
                            NetError::Transport(
                                "resume-failed: the relay needs frames this party no longer keeps".into(),
                            ),
                        );
                        return None;
                    }
                    // The resume URL told the relay what was received: that counts as acknowledged.
                    self.received.acknowledge();
                    self.ack_at = None;
                    self.sent.acknowledge(welcome.received);
                    self.sent.rewind();
                    return Some(socket);
                }
                Ok(Err(RelayError::Refused { code, message })) => {
                    self.demux.fail_all(
                        &code,
                        NetError::Transport(format!("relay refused the resume ({code}): {message}")),
                    );
                    return None;
                }
                // The network may still be down: try again.
                Ok(Err(_)) | Err(_) => {}
            }
            // Jitter in [backoff/2, backoff], from the clock's low bits (no secret, no RNG needed).
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| u64::from(d.subsec_nanos()));
            let half = backoff.as_millis() as u64 / 2;
            delay = Duration::from_millis(half + nanos % (half + 1));
            backoff = (backoff * 2).min(RECONNECT_MAX);
        }
    }
}
