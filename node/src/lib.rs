//! The Node-API addon of `chorus-core` (napi-rs), published to the SDK as `@chorus/node`: the
//! native core — PCLMULQDQ, AES-NI and the other fast paths chosen at run time — for Node parties.
//!
//! A [`Bridge`] is one party's end of one session, with the same calls as the WASM module's
//! `Bridge` (`deliver`, `peerLeft`, `fail`, `runAes`, `runCircuit`, `free`), so the SDK
//! drives both the same way. The arguments are read, the jobs run and failures classified by the
//! code the WASM module uses ([`chorus_bindings`]); the two bindings differ only in how values cross
//! into JS and where the job runs:
//!
//! - `runAes` / `runCircuit` read and validate their arguments on the JS thread, then run the job
//!   on a thread of its own (the session's first job opens its Noise channels, later ones reuse
//!   them; one job at a time), so the JS event loop stays free to move frames; the returned
//!   promise settles on the JS thread.
//! - Everything the job reports goes through one thread-safe function, in order, to the JS
//!   callback given at construction, `events(to, frame?, stats?)`: a frame for party `to`, or
//!   progress statistics, or neither when the job's promise is about to settle. One queue keeps
//!   the order: the promise settles after the job's last frame went out and its last progress
//!   report arrived (on a queue of its own the settle could overtake frames, and the SDK's
//!   end-of-job marker or `close()` would go out before them). The SDK's adapter turns this into
//!   the WASM module's `send` and `onProgress` callbacks. Frames from peers come in through
//!   `deliver` into the shared inbox, which wakes the job. Progress is reported only when asked
//!   for (each report wakes the JS thread); `liveStats` reads the statistics without one.
//! - Made with a [`RelayLink`] (`relay.rs`), the bridge moves no frames through JS at all: its
//!   jobs run on the link's thread beside the relay connection (`link_thread.rs`), send into the
//!   connection's queue and receive from the inbox the connection fills, as the Rust runner runs a
//!   party. `events` then carries progress and settling only.
//! - A failed job resolves, rather than rejects, with `{ error: { kind, message, slot?, field?,
//!   check? } }` (Node-API errors carry no extra fields); the SDK's adapter turns it into the same
//!   error the WASM module throws.
//!
//! Trust model: as for the WASM module — the addon sees this party's secrets in process memory;
//! every frame that leaves through `events` is encrypted and authenticated by the Noise channels.

mod link_thread;
mod relay;
mod values;

use crate::link_thread::LinkThread;
use crate::relay::{Outlet, RelayLink};
use crate::values::{outcome, ObjectFields, Outcome, Stats};
use chorus_bindings::jobs::{Aes, Circuit, Job, JobKind};
use chorus_bindings::{BridgeError, BridgeNetwork, Claim, Inbox, JobSlot, Prepare, Progress};
use chorus_core::net::NetError;
use futures::executor::block_on;
use napi::bindgen_prelude::{FnArgs, Function, Object, Uint8Array};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::{Env, Result, Status};
use napi_derive::napi;
use std::future::Future;
use std::sync::{Arc, Mutex};

/// What the job's thread queues for the JS thread, in order.
enum Event {
    /// `events(to, frame)`.
    Frame(u32, Vec<u8>),
    /// `events(0, undefined, stats)`.
    Progress(Progress),
    /// Settle the job's promise; then `events(0)`.
    Settle(Box<dyn FnOnce() + Send>),
}

/// The arguments of `events(to, frame?, stats?)`.
type EventArgs = FnArgs<(u32, Option<Uint8Array>, Option<Stats>)>;
/// `events(...)` on the JS thread, from the job's thread.
type EventFn = ThreadsafeFunction<Event, (), EventArgs, Status, false, true>;

/// The version of the Chorus core compiled into this addon.
#[napi]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// One party's end of one session: frames between the JS transport and the protocol.
#[napi]
pub struct Bridge {
    party: usize,
    parties: usize,
    inbox: Inbox,
    events: Arc<EventFn>,
    /// The running job's latest statistics, for `liveStats` (kept whether or not progress is
    /// reported: reading them wakes nothing).
    live: Arc<Mutex<Option<Progress>>>,
    /// The session's own relay connection, when the addon moves the frames itself, and the
    /// thread that runs it and the jobs.
    link: Option<(Outlet, LinkThread)>,
    jobs: JobSlot<NodeNetwork>,
}

#[napi]
impl Bridge {
    /// The bridge of party `party` of `parties`; `events(to, frame?, stats?)` must queue a frame
    /// for party `to` and pass statistics on to the running job's progress listener. It runs later
    /// on the JS thread, so it must not throw: report transport failures with `fail(reason)`.
    /// With `link` (this party's [`RelayLink`] of the same session), frames go out through the
    /// link and come in from it, and `events` carries only progress.
    #[napi(constructor)]
    pub fn new(
        party: u32,
        parties: u32,
        events: Function<EventArgs, ()>,
        link: Option<&RelayLink>,
    ) -> Result<Self> {
        let (party, parties) = (party as usize, parties as usize);
        if parties < 2 || party >= parties {
            return Err(napi::Error::from_reason(format!("party {party} is not in 0..{parties}")));
        }
        tune_allocator();
        let (inbox, link) = match link {
            Some(link) => {
                let (inbox, outlet, thread) = link.attach();
                if !outlet.serves(party, parties) {
                    return Err(napi::Error::from_reason(format!(
                        "the relay link is not party {party}'s of {parties}"
                    )));
                }
                (inbox, Some((outlet, thread)))
            }
            None => (Inbox::new(parties), None),
        };
        let events = events.build_threadsafe_function::<Event>().weak::<true>().build_callback(|ctx| {
            Ok(FnArgs::from(match ctx.value {
                Event::Frame(to, frame) => (to, Some(Uint8Array::from(frame)), None),
                Event::Progress(stats) => (0, None, Some(Stats::from(&stats))),
                Event::Settle(settle) => {
                    settle();
                    (0, None, None)
                }
            }))
        })?;
        let live = Arc::new(Mutex::new(None));
        Ok(Bridge { party, parties, inbox, events: Arc::new(events), live, link, jobs: JobSlot::default() })
    }

    /// Hands over a frame received from party `from` (the bytes are copied).
    #[napi]
    pub fn deliver(&self, from: u32, frame: Uint8Array) -> Result<()> {
        self.inbox.deliver(from as usize, frame.to_vec()).map_err(|e| napi::Error::from_reason(e.to_string()))
    }

    /// Party `slot` left: the running protocol fails with a `peer-left` error.
    #[napi(js_name = "peerLeft")]
    pub fn peer_left(&self, slot: u32) {
        self.inbox.fail(NetError::PeerLeft(slot as usize));
    }

    /// The transport failed or the session was cancelled: the protocol fails with a `transport`
    /// error carrying `reason`.
    #[napi]
    pub fn fail(&self, reason: String) {
        self.inbox.fail(NetError::Transport(reason));
    }

    /// Checks a joint-AES job for this member as `runAes` would before it starts, without running
    /// it: the labels of what it runs (`{ protocol, variant, security, preprocessing? }`) or
    /// `{ error }`. The SDK's only validation of job options.
    #[napi(js_name = "checkAes")]
    pub fn check_aes(&self, env: &Env, spec: Object, input: Object) -> values::JobCheck {
        self.check::<Aes>(env, spec, Some(input))
    }

    /// Checks a circuit job for this member as `runCircuit` would, like `checkAes`.
    #[napi(js_name = "checkCircuit")]
    pub fn check_circuit(&self, env: &Env, spec: Object, input: Object) -> values::JobCheck {
        self.check::<Circuit>(env, spec, Some(input))
    }

    /// Checks a prepare job for this member as `prepare` would, like `checkAes`.
    #[napi(js_name = "checkPrepare")]
    pub fn check_prepare(&self, env: &Env, spec: Object) -> values::JobCheck {
        self.check::<Prepare>(env, spec, None)
    }

    /// Makes preprocessing ahead of time for future jobs of this session: the arguments and result
    /// are those of the WASM module's `prepare`, except that progress goes to `events` when
    /// `progress` is true and a failure resolves with `{ error }`.
    #[napi(ts_return_type = "Promise<unknown>")]
    pub fn prepare<'env>(
        &mut self,
        env: &'env Env,
        session: Object,
        spec: Object,
        progress: Option<bool>,
    ) -> Result<Object<'env>> {
        let input = Object::new(env)?;
        let job = self.read::<Prepare>(env, session, spec, input);
        let report = self.reporter(progress.unwrap_or(false));
        let network = self.network();
        self.spawn_job(env, async move {
            let (mut claim, job) = job?;
            let done = job.run(&mut claim.channels, &mut claim.prepared, network, report).await;
            // The claim goes back before the promise settles: the next job may start at once.
            drop(claim);
            Ok(Outcome::prepare(done?))
        })
    }

    /// Runs the joint-AES job of any protocol as this member: the arguments and result are those of
    /// the WASM module's `runAes`, except that progress goes to `events` when `progress` is true
    /// and a failure resolves with `{ error }`.
    #[napi(js_name = "runAes", ts_return_type = "Promise<unknown>")]
    pub fn run_aes<'env>(
        &mut self,
        env: &'env Env,
        session: Object,
        spec: Object,
        input: Object,
        progress: Option<bool>,
    ) -> Result<Object<'env>> {
        let job = self.read::<Aes>(env, session, spec, input);
        let report = self.reporter(progress.unwrap_or(false));
        let network = self.network();
        self.spawn_job(env, async move {
            let (mut claim, job) = job?;
            let done = job.run(&mut claim.channels, &mut claim.prepared, network, report).await;
            // The claim goes back before the promise settles: the next job may start at once.
            drop(claim);
            Ok(Outcome::aes(done?))
        })
    }

    /// Runs the circuit job of any two-party protocol as this member: the arguments and result are
    /// those of the WASM module's `runCircuit`, except that progress goes to `events` when
    /// `progress` is true and a failure resolves with `{ error }`.
    #[napi(js_name = "runCircuit", ts_return_type = "Promise<unknown>")]
    pub fn run_circuit<'env>(
        &mut self,
        env: &'env Env,
        session: Object,
        spec: Object,
        input: Object,
        progress: Option<bool>,
    ) -> Result<Object<'env>> {
        let job = self.read::<Circuit>(env, session, spec, input);
        let report = self.reporter(progress.unwrap_or(false));
        let network = self.network();
        self.spawn_job(env, async move {
            let (mut claim, job) = job?;
            let done = job.run(&mut claim.channels, &mut claim.prepared, network, report).await;
            // The claim goes back before the promise settles: the next job may start at once.
            drop(claim);
            Ok(Outcome::circuit(done?))
        })
    }

    /// The running job's statistics as of its last received message (`undefined` before it
    /// received one), without waiting for a progress report.
    #[napi(js_name = "liveStats")]
    pub fn live_stats(&self) -> Option<Stats> {
        self.live.lock().unwrap_or_else(|p| p.into_inner()).as_ref().map(Stats::from)
    }

    /// Releases nothing the garbage collector would not; present so the SDK frees both runtimes'
    /// bridges the same way (the channels go with the bridge object).
    #[napi]
    pub fn free(&self) {}

    /// Runs `job` on a thread of its own and returns the promise of its outcome, settled on the JS
    /// thread after the job's last event.
    /// Checks a job of kind `K` against this session's prepared material (no input: an empty one).
    fn check<K: JobKind>(&self, env: &Env, spec: Object, input: Option<Object>) -> values::JobCheck {
        let fields = |o| ObjectFields { env, object: o };
        let input = match input.map_or_else(|| Object::new(env), Ok) {
            Ok(input) => input,
            Err(e) => return values::check(Err(BridgeError::config("input", e.to_string()))),
        };
        let (spec, input) = (fields(spec), fields(input));
        values::check(
            self.jobs
                .peek_prepared(|prepared| Job::<K>::check(self.party, self.parties, &spec, &input, prepared))
                .and_then(|labels| labels),
        )
    }

    /// Claims the bridge for a job of kind `K` and reads it (on the JS thread, before anything is
    /// sent).
    fn read<K: JobKind>(
        &self,
        env: &Env,
        session: Object,
        spec: Object,
        input: Object,
    ) -> std::result::Result<(Claim<NodeNetwork>, Job<K>), BridgeError> {
        let claim = self.jobs.claim()?;
        let fields = |o| ObjectFields { env, object: o };
        Ok((
            claim,
            Job::<K>::read(self.party, self.parties, &fields(session), &fields(spec), &fields(input))?,
        ))
    }

    fn spawn_job<'env>(
        &self,
        env: &'env Env,
        job: impl Future<Output = std::result::Result<Outcome, BridgeError>> + Send + 'static,
    ) -> Result<Object<'env>> {
        let (deferred, promise) = env.create_deferred()?;
        let events = Arc::clone(&self.events);
        let settle = move |result| {
            let settle = move || deferred.resolve(move |_env: Env| Ok(outcome(result)));
            // Blocking: the settle must not be dropped on a full queue. It fails only while Node
            // shuts down, when nobody awaits the promise any more.
            let _ = events.call(Event::Settle(Box::new(settle)), ThreadsafeFunctionCallMode::Blocking);
        };
        match &self.link {
            // Beside the connection, on the link's thread.
            Some((_, thread)) => thread.spawn_job(async move { settle(job.await) }),
            None => {
                std::thread::Builder::new()
                    .name("chorus-job".into())
                    .spawn(move || settle(block_on(job)))
                    .map_err(|e| napi::Error::from_reason(format!("starting the job thread: {e}")))?;
            }
        }
        Ok(promise)
    }

    /// Records the statistics after each received protocol message for `liveStats`, and, if
    /// asked to, queues `events(0, undefined, stats)` with them.
    fn reporter(&self, enabled: bool) -> impl FnMut(&Progress) + Send + 'static {
        let (events, live) = (Arc::clone(&self.events), Arc::clone(&self.live));
        *live.lock().unwrap_or_else(|p| p.into_inner()) = None;
        move |progress| {
            *live.lock().unwrap_or_else(|p| p.into_inner()) = Some(*progress);
            if enabled {
                let _ = events.call(Event::Progress(*progress), ThreadsafeFunctionCallMode::NonBlocking);
            }
        }
    }

    /// The network over this bridge: frames out through the relay link, or else the thread-safe
    /// `events`; in from the inbox.
    fn network(&self) -> NodeNetwork {
        if let Some((outlet, _)) = &self.link {
            let outlet = outlet.clone();
            return BridgeNetwork::new(
                self.party,
                self.parties,
                self.inbox.clone(),
                Box::new(move |to, frame: Vec<u8>| outlet.send(to, &frame)),
            );
        }
        let events = Arc::clone(&self.events);
        BridgeNetwork::new(
            self.party,
            self.parties,
            self.inbox.clone(),
            Box::new(move |to, frame| {
                match events.call(Event::Frame(to as u32, frame), ThreadsafeFunctionCallMode::NonBlocking) {
                    Status::Ok => Ok(()),
                    status => Err(format!("the frame could not be queued for JS ({status})")),
                }
            }),
        )
    }
}

/// Keeps freed memory of the jobs' per-round buffers in the process for reuse, once per process,
/// as the Rust runner does (`chorus_native::alloc_tuning`: glibc's mmap and trim thresholds), so
/// a round does not pay page faults for memory the previous one released. The host process keeps
/// up to that much freed memory; `CHORUS_KEEP_FREED_MEMORY=0` in the environment leaves glibc's
/// defaults.
fn tune_allocator() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if std::env::var_os("CHORUS_KEEP_FREED_MEMORY").is_none_or(|v| v != "0") {
            chorus_native::alloc_tuning::keep_freed_memory();
        }
    });
}

/// The network under a bridge's channels: frames out through the thread-safe `events`.
type NodeNetwork = BridgeNetwork<Box<dyn FnMut(usize, Vec<u8>) -> std::result::Result<(), String> + Send>>;
