//! The addon's own networking: one party's membership of a Chorus relay room, joined and served
//! in Rust by the runner's relay client (`chorus_native::relay`, protocol 2 with resume), so that
//! a job's frames go from the job's thread to the socket and back without crossing JavaScript.
//!
//! A [`RelayLink`] is made for a slot, joins with `open` (resolving once the room is ready), and
//! is handed to the [`crate::Bridge`] of the same session, which then sends its frames into the
//! link's outgoing queue, receives from the link's inbox, and runs its jobs on the link's own
//! thread beside the connection task (`link_thread.rs`). JavaScript hears only what the
//! session reports: end markers, peers away, back or gone, this connection resuming or broken —
//! through one thread-safe function, `events(kind, slot, detail?, roster?)`, in order.
//!
//! The wire is the relay's, byte for byte as the SDK's own WebSocket client writes it (the header
//! byte, the end markers, the acknowledgements), so parties of every runtime share a room.
//!
//! Trust model: as for the bridge — the frames that leave are the secure channels' ciphertexts;
//! the link sees only their destination and length.

use crate::link_thread::LinkThread;
use chorus_bindings::Inbox;
use chorus_core::net::{NetError, PartyId};
use chorus_native::relay::{RelayAddress, RelayError, RelayEvent, RelayLink as Joined, RelaySink};
use napi::bindgen_prelude::{FnArgs, Function, Object, Uint8Array};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::{Env, Result, Status};
use napi_derive::napi;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

/// What the link reports to JavaScript, in order.
enum LinkEvent {
    /// `events('marker', from)`: an end marker from `from`.
    Marker(PartyId),
    /// `events(kind, slot, reason?, roster)` for `peer-left`, `peer-away`, `peer-back`.
    Peer { kind: &'static str, slot: PartyId, reason: Option<String>, roster: Vec<PartyId> },
    /// `events('reconnecting' | 'resumed', 0)`.
    Connection(&'static str),
    /// `events('broken', 0, message)`: the connection failed for good (not by `close`); `failure()`
    /// has the code.
    Broken(String),
}

/// The arguments of `events(kind, slot, detail?, roster?)`.
type LinkEventArgs = FnArgs<(String, u32, Option<String>, Option<Vec<u32>>)>;
type LinkEventFn = ThreadsafeFunction<LinkEvent, (), LinkEventArgs, Status, false, true>;

/// Data frames and their bytes in each direction, the header byte included (as the SDK's
/// `TransportStats` counts them).
#[derive(Debug, Default)]
pub(crate) struct Counters {
    frames_sent: AtomicU64,
    bytes_sent: AtomicU64,
    frames_received: AtomicU64,
    bytes_received: AtomicU64,
}

impl Counters {
    fn sent(&self, frame: usize) {
        self.frames_sent.fetch_add(1, Ordering::Relaxed);
        self.bytes_sent.fetch_add(frame as u64, Ordering::Relaxed);
    }

    fn received(&self, frame: usize) {
        self.frames_received.fetch_add(1, Ordering::Relaxed);
        self.bytes_received.fetch_add(frame as u64, Ordering::Relaxed);
    }
}

/// The sending half of a link, shared by the link (end markers, close) and its bridge's jobs.
#[derive(Clone)]
pub(crate) struct Outlet {
    slot: PartyId,
    parties: usize,
    /// The connection's queue (none before the room is ready and after `close`).
    queue: Arc<Mutex<Queue>>,
    /// The relay's `maxPayloadBytes` (header byte included), once joined.
    max_payload: Arc<AtomicUsize>,
    counters: Arc<Counters>,
}

/// The connection's queue, and whether `close` was called (a join that completes after it
/// closes at once).
#[derive(Default)]
struct Queue {
    sender: Option<UnboundedSender<Vec<u8>>>,
    /// Whether `open` was called.
    opened: bool,
    closed: bool,
}

impl Outlet {
    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Takes the connection of a completed join (unless the link was closed meanwhile, which
    /// closes it) and says how `open` ended.
    fn joined(
        &self,
        joined: std::result::Result<Joined, RelayError>,
        task: &Mutex<Option<JoinHandle<()>>>,
    ) -> Opened {
        match joined {
            Ok(Joined { parties, .. }) if parties != self.parties => {
                failed("parties", format!("the room has {parties} parties, not {}", self.parties))
            }
            Ok(Joined { max_payload, outgoing, connection, .. }) => {
                self.max_payload.store(max_payload, Ordering::Relaxed);
                let mut queue = self.queue();
                if queue.closed {
                    // Dropping the sender closes the connection.
                    return failed("closed", "the link was closed while joining".into());
                }
                queue.sender = Some(outgoing);
                *task.lock().unwrap_or_else(|p| p.into_inner()) = Some(connection);
                Opened { max_payload_bytes: Some(max_payload.min(u32::MAX as usize) as u32), error: None }
            }
            Err(RelayError::Refused { code, message }) => failed(&code, message),
            Err(e @ RelayError::Timeout(_)) => failed("timeout", e.to_string()),
            Err(e) => failed("connect-failed", e.to_string()),
        }
    }

    /// Whether this is the outlet of `party` of `parties`.
    pub(crate) fn serves(&self, party: PartyId, parties: usize) -> bool {
        (self.slot, self.parties) == (party, parties)
    }

    /// Queues `payload` for party `to` (an empty payload is an end marker).
    pub(crate) fn send(&self, to: PartyId, payload: &[u8]) -> std::result::Result<(), String> {
        if to >= self.parties || to == self.slot {
            return Err(format!("party {to} is not a peer of slot {} in 0..{}", self.slot, self.parties));
        }
        let max = self.max_payload.load(Ordering::Relaxed);
        if payload.len() + 1 > max {
            return Err(format!(
                "a frame of {} bytes for party {to} exceeds the relay's maxPayloadBytes of {max} (header byte included)",
                payload.len()
            ));
        }
        let mut frame = Vec::with_capacity(payload.len() + 1);
        frame.push(to as u8);
        frame.extend_from_slice(payload);
        let queue = self.queue();
        let sender = queue.sender.as_ref().ok_or_else(|| "the relay connection is closed".to_string())?;
        sender.send(frame).map_err(|_| "the relay connection is closed".to_string())?;
        self.counters.sent(payload.len() + 1);
        Ok(())
    }
}

/// Where the connection hands what arrives: frames into the bridge's inbox, the rest to JS.
struct BridgeSink {
    inbox: Inbox,
    events: Arc<LinkEventFn>,
    counters: Arc<Counters>,
    failure: Arc<Mutex<Option<LinkFailure>>>,
}

impl BridgeSink {
    fn report(&self, event: LinkEvent) {
        let _ = self.events.call(event, ThreadsafeFunctionCallMode::NonBlocking);
    }
}

impl RelaySink for BridgeSink {
    fn frame(&mut self, from: PartyId, payload: Vec<u8>) {
        self.counters.received(payload.len() + 1);
        // A sender outside the session's size (a relay that broke its welcome) is dropped: the
        // job waiting for it fails on the departure that follows.
        let _ = self.inbox.deliver(from, payload);
    }

    fn marker(&mut self, from: PartyId) {
        self.counters.received(1);
        self.report(LinkEvent::Marker(from));
    }

    fn gone(&mut self, _slot: PartyId, error: &NetError) {
        // A departure or failure was reported as an event first; the session breaks on it.
        self.inbox.fail(error.clone());
    }

    fn event(&mut self, event: RelayEvent) {
        self.report(match event {
            RelayEvent::Failed { code, message } => {
                // Recorded before the inbox fails, so the session can name it when the job does.
                *self.failure.lock().unwrap_or_else(|p| p.into_inner()) =
                    Some(LinkFailure { code, message: message.clone() });
                LinkEvent::Broken(message)
            }
            RelayEvent::PeerLeft { slot, reason, roster } => {
                LinkEvent::Peer { kind: "peer-left", slot, reason: Some(reason), roster }
            }
            RelayEvent::PeerAway { slot, reason, roster } => {
                LinkEvent::Peer { kind: "peer-away", slot, reason: Some(reason), roster }
            }
            RelayEvent::PeerBack { slot, roster } => {
                LinkEvent::Peer { kind: "peer-back", slot, reason: None, roster }
            }
            RelayEvent::Reconnecting => LinkEvent::Connection("reconnecting"),
            RelayEvent::Resumed => LinkEvent::Connection("resumed"),
        });
    }
}

/// The relay's answer to `open`, or why it failed: `{ maxPayloadBytes }` or `{ error: { code, message } }`.
#[napi(object)]
pub struct Opened {
    pub max_payload_bytes: Option<u32>,
    pub error: Option<OpenError>,
}

/// A failed `open`.
fn failed(code: &str, message: String) -> Opened {
    Opened { max_payload_bytes: None, error: Some(OpenError { code: code.to_string(), message }) }
}

/// Why `open` failed: the relay's refusal code (`bad-token`, `room-full`, …), `bad-url`,
/// `timeout`, `parties` or `connect-failed`.
#[napi(object)]
pub struct OpenError {
    pub code: String,
    pub message: String,
}

/// Why the connection failed for good: a `RelayError` code and message.
#[napi(object)]
#[derive(Clone)]
pub struct LinkFailure {
    pub code: String,
    pub message: String,
}

/// The counters of `stats()`.
#[napi(object)]
pub struct LinkStats {
    pub frames_sent: f64,
    pub bytes_sent: f64,
    pub frames_received: f64,
    pub bytes_received: f64,
}

/// One party's relay membership, served in Rust; see the module documentation.
#[napi]
pub struct RelayLink {
    inbox: Inbox,
    outlet: Outlet,
    events: Arc<LinkEventFn>,
    connection: Arc<Mutex<Option<JoinHandle<()>>>>,
    failure: Arc<Mutex<Option<LinkFailure>>>,
    thread: LinkThread,
}

#[napi]
impl RelayLink {
    /// The link of `slot` in a room of `parties`; `events(kind, slot, detail?, roster?)` hears
    /// `marker`, `peer-left`, `peer-away`, `peer-back`, `reconnecting`, `resumed` and `broken`.
    #[napi(constructor)]
    pub fn new(slot: u32, parties: u32, events: Function<LinkEventArgs, ()>) -> Result<Self> {
        let (slot, parties) = (slot as usize, parties as usize);
        if !(2..=256).contains(&parties) || slot >= parties {
            return Err(napi::Error::from_reason(format!("slot {slot} is not in 0..{parties}")));
        }
        let events =
            events.build_threadsafe_function::<LinkEvent>().weak::<true>().build_callback(|ctx| {
                let roster = |r: Vec<PartyId>| Some(r.into_iter().map(|s| s as u32).collect::<Vec<_>>());
                Ok(FnArgs::from(match ctx.value {
                    LinkEvent::Marker(from) => ("marker".to_string(), from as u32, None, None),
                    LinkEvent::Peer { kind, slot, reason, roster: r } => {
                        (kind.to_string(), slot as u32, reason, roster(r))
                    }
                    LinkEvent::Connection(kind) => (kind.to_string(), 0, None, None),
                    LinkEvent::Broken(message) => ("broken".to_string(), 0, Some(message), None),
                }))
            })?;
        Ok(RelayLink {
            inbox: Inbox::new(parties),
            outlet: Outlet {
                slot,
                parties,
                queue: Arc::new(Mutex::new(Queue::default())),
                max_payload: Arc::new(AtomicUsize::new(0)),
                counters: Arc::new(Counters::default()),
            },
            events: Arc::new(events),
            connection: Arc::new(Mutex::new(None)),
            failure: Arc::new(Mutex::new(None)),
            thread: LinkThread::start()
                .map_err(|e| napi::Error::from_reason(format!("starting the relay link's thread: {e}")))?,
        })
    }

    /// Joins the slot of `room` at `relay` (`http://` or `ws://`) with `token` and resolves, once
    /// the room is ready (at most `timeoutMs`), with `{ maxPayloadBytes }` or `{ error }`.
    #[napi(ts_return_type = "Promise<Opened>")]
    pub fn open<'env>(
        &self,
        env: &'env Env,
        relay: String,
        room: String,
        token: String,
        timeout_ms: u32,
    ) -> Result<Object<'env>> {
        let (deferred, promise) = env.create_deferred()?;
        let sink = BridgeSink {
            inbox: self.inbox.clone(),
            events: Arc::clone(&self.events),
            counters: Arc::clone(&self.outlet.counters),
            failure: Arc::clone(&self.failure),
        };
        let (outlet, connection) = (self.outlet.clone(), Arc::clone(&self.connection));
        let timeout = Duration::from_millis(u64::from(timeout_ms));
        // One join per link: a second `open` fails without touching the first.
        let first = !std::mem::replace(&mut self.outlet.queue().opened, true);
        self.thread.spawn(async move {
            let opened = match RelayAddress::parse(&relay) {
                _ if !first => failed("already-open", "this link was opened before".into()),
                Ok(address) => {
                    let joined = Joined::join(&address, &room, outlet.slot, &token, timeout, |_| sink).await;
                    outlet.joined(joined, &connection)
                }
                Err(e) => failed("bad-url", e.to_string()),
            };
            deferred.resolve(move |_| Ok(opened));
        });
        Ok(promise)
    }

    /// Sends `frame` to party `to` (an empty frame is an end marker).
    #[napi]
    pub fn send(&self, to: u32, frame: Uint8Array) -> Result<()> {
        self.outlet.send(to as usize, &frame).map_err(napi::Error::from_reason)
    }

    /// Why the connection failed for good, once it did (not after `close`): `{ code, message }`.
    #[napi]
    pub fn failure(&self) -> Option<LinkFailure> {
        self.failure.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Data frames and bytes (header byte included) in each direction.
    #[napi]
    pub fn stats(&self) -> LinkStats {
        let c = &self.outlet.counters;
        let read = |a: &AtomicU64| a.load(Ordering::Relaxed) as f64;
        LinkStats {
            frames_sent: read(&c.frames_sent),
            bytes_sent: read(&c.bytes_sent),
            frames_received: read(&c.frames_received),
            bytes_received: read(&c.bytes_received),
        }
    }

    /// Closes the connection after the frames already queued and resolves once it is closed (at
    /// most `timeoutMs`); the inbox fails with `reason`, so a job still running ends. Idempotent.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn close<'env>(&self, env: &'env Env, reason: String, timeout_ms: u32) -> Result<Object<'env>> {
        let (deferred, promise) = env.create_deferred()?;
        self.inbox.fail(NetError::Transport(reason));
        // Dropping the queue's last sender ends the connection once what is queued is written.
        let sender = {
            let mut queue = self.outlet.queue();
            queue.closed = true;
            queue.sender.take()
        };
        drop(sender);
        let task = self.connection.lock().unwrap_or_else(|p| p.into_inner()).take();
        let timeout = Duration::from_millis(u64::from(timeout_ms));
        let thread = self.thread.clone();
        self.thread.spawn(async move {
            if let Some(task) = task {
                let abort = task.abort_handle();
                if tokio::time::timeout(timeout, task).await.is_err() {
                    abort.abort();
                }
            }
            thread.close();
            deferred.resolve(|_| Ok(()));
        });
        Ok(promise)
    }
}

impl RelayLink {
    /// What a bridge of this session needs: the inbox the connection fills, the outlet, and the
    /// thread its jobs run on.
    pub(crate) fn attach(&self) -> (Inbox, Outlet, LinkThread) {
        (self.inbox.clone(), self.outlet.clone(), self.thread.clone())
    }
}

impl Drop for RelayLink {
    /// A link collected without `close` (its session was dropped): the thread ends once its jobs
    /// did; the connection task goes with it.
    fn drop(&mut self) {
        self.thread.close();
    }
}
