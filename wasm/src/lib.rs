//! wasm-bindgen bindings of `chorus-core`, driven by the TypeScript SDK (`ts-sdk/`).
//!
//! A [`Bridge`] is one party's end of one session. JS constructs it with a `send(to, frame)`
//! callback that puts a whole frame on the relay connection, feeds it every incoming frame with
//! `deliver(from, frame)`, and reports the end of the session with `peerLeft(slot)` or
//! `fail(reason)`. `runAes(...)` or `runCircuit(...)` then runs, inside WASM, the Noise
//! handshakes of [`chorus_core::net::secure::SecureNetwork`] over the bridge and the job
//! ([`chorus_core::jobs`], any protocol) over the encrypted channels, with an OS-seeded
//! generator; it returns a `Promise`. Reading the arguments, running the jobs and classifying
//! errors are shared with the Node addon ([`chorus_bindings`]); this crate only converts JS values. The JS side passes whole frames in and out — one call
//! per frame, never one per element — and gets one progress callback per received protocol message.
//!
//! Errors reject the promise with a JS `Error` carrying a `kind` ([`chorus_bindings::error`]).
//!
//! WebAssembly is single-threaded here: the protocol future runs on the JS event loop
//! (`wasm-bindgen-futures`), and frames delivered by JS wake it.
//!
//! Jobs bound ([`chorus_bindings::jobs`]): `runAes` (MAESTRO, TinyTable, MiniMac, Coral: the
//! protocol is a field of the spec), `runCircuit` (TinyTable, MiniMac, Coral) and `prepare`
//! (TinyTable material ahead of time, [`chorus_bindings::prepare`]); `parseCircuit` checks Bristol
//! text without a session; `warmUp` runs a small job of a spec among all its members inside the
//! module, so that V8 optimizes the job's code before a session's first job
//! ([`chorus_bindings::warm`]).
//!
//! # Limits
//! - The spec is validated before the handshake, but this party's inputs only inside the job, after
//!   the handshake (the core's input check is private); the SDK validates inputs itself first.
//! - Secret inputs cross the boundary as copies; the JS copies are the caller's to discard, and the
//!   Rust copies are freed, not wiped.

pub mod js;
pub mod kernel_bench;

use crate::js::{
    aes_result, circuit_result, describe_js_error, error_to_js, labels_to_js, prepare_result, set_field,
    stats_to_js, JsFields,
};
use chorus_bindings::jobs::{Aes, Circuit, Finished, Job, JobKind};
use chorus_bindings::warm::{Warm, WarmUp};
use chorus_bindings::{spec, BridgeError, BridgeNetwork, Inbox, JobSlot, Prepare, Progress};
use chorus_core::net::{NetError, PartyId};
use js_sys::{Function, Object, Promise, Uint8Array};
use wasm_bindgen::prelude::*;

/// The version of the Chorus core compiled into this module.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// One party's end of one session: frames between the JS transport and the protocol in WASM.
#[wasm_bindgen]
pub struct Bridge {
    party: PartyId,
    parties: usize,
    inbox: Inbox,
    send: Function,
    jobs: JobSlot<JsNetwork>,
}

#[wasm_bindgen]
impl Bridge {
    /// The bridge of party `party` of `parties`; `send(to: number, frame: Uint8Array)` must queue
    /// the frame for party `to` (throwing fails the session with a `transport` error).
    #[wasm_bindgen(constructor)]
    pub fn new(party: usize, parties: usize, send: Function) -> Result<Bridge, JsValue> {
        if parties < 2 || party >= parties {
            return Err(error_to_js(&BridgeError::config(
                "slot",
                format!("party {party} is not in 0..{parties}"),
            )));
        }
        Ok(Bridge { party, parties, inbox: Inbox::new(parties), send, jobs: JobSlot::default() })
    }

    /// Hands over a frame received from party `from` (the bytes are copied).
    pub fn deliver(&self, from: usize, frame: &[u8]) -> Result<(), JsValue> {
        self.inbox.deliver(from, frame.to_vec()).map_err(|e| error_to_js(&BridgeError::from(e)))
    }

    /// Party `slot` left: the running protocol fails with a `peer-left` error.
    #[wasm_bindgen(js_name = peerLeft)]
    pub fn peer_left(&self, slot: usize) {
        self.inbox.fail(NetError::PeerLeft(slot));
    }

    /// The transport failed or the session was cancelled: the protocol fails with a `transport`
    /// error carrying `reason`.
    pub fn fail(&self, reason: String) {
        self.inbox.fail(NetError::Transport(reason));
    }

    /// Checks a joint-AES job for this member as `runAes` would before it starts, without running
    /// it ([`AesJob::check`]): returns what it runs (`{ protocol, variant, security,
    /// preprocessing? }`, defaults filled in) or throws the `config` / `not-available` error.
    /// The SDK's only validation of job options.
    #[wasm_bindgen(js_name = checkAes)]
    pub fn check_aes(&self, spec: JsValue, input: JsValue) -> Result<JsValue, JsValue> {
        self.check::<Aes>(spec, input)
    }

    /// Checks a circuit job for this member as `runCircuit` would, like `checkAes`.
    #[wasm_bindgen(js_name = checkCircuit)]
    pub fn check_circuit(&self, spec: JsValue, input: JsValue) -> Result<JsValue, JsValue> {
        self.check::<Circuit>(spec, input)
    }

    /// Checks a prepare job for this member as `prepare` would, like `checkAes`.
    #[wasm_bindgen(js_name = checkPrepare)]
    pub fn check_prepare(&self, spec: JsValue) -> Result<JsValue, JsValue> {
        self.check::<Prepare>(spec, Object::new().into())
    }

    /// Runs the joint-AES job of any protocol as this member ([`AesJob`]).
    ///
    /// - `session`: `{ sessionId, secret }` (`NNpsk0`) or `{ sessionId, privateKey, publicKeys }`
    ///   (`KK`), all `Uint8Array`s;
    /// - `spec`: the SDK's AES options without inputs — `{ protocol?, blocks?, keyHolders?,
    ///   plaintextOwner?, reveal?, direction?, keyBits? }` with the protocol's options
    ///   ([`spec::aes_spec`]; roles default to the protocol's), the same at every member;
    /// - `input`: `{ keyShare?, plaintext? }`, what this member's roles require;
    /// - `onProgress(stats)`: called after each received protocol message.
    ///
    /// Resolves with `{ ciphertext?, stats, onlineStats, preprocessingStats, transportStats }`;
    /// stats objects are `{ rounds, bytesSent, bytesReceived, messagesSent, messagesReceived }`
    /// (protocol payload bytes; `transportStats` counts the encrypted frames, and the handshakes in
    /// the session's first job). A bridge runs one job at a time: the first opens the session's
    /// channels under its `session` credentials, later ones reuse them.
    #[wasm_bindgen(js_name = runAes)]
    pub fn run_aes(
        &self,
        session: JsValue,
        spec: JsValue,
        input: JsValue,
        on_progress: Option<Function>,
    ) -> Promise {
        self.run_job::<Aes>(session, spec, input, on_progress, aes_result)
    }

    /// Runs the circuit job of any two-party protocol as this member ([`CircuitJob`]):
    /// `spec` is `{ protocol?, circuit: string, inputOwners?, reveal? }` with the protocol's options
    /// ([`spec::circuit_spec`]; `reveal[v]`: `'both'`, 0 or 1), `input` `{ values?:
    /// (Uint8Array | undefined)[] }` (indexed by input value, given for this party's values only,
    /// one byte 0/1 per bit).
    /// Resolves with `{ outputs: (Uint8Array | undefined)[], stats, onlineStats,
    /// preprocessingStats, transportStats }`.
    #[wasm_bindgen(js_name = runCircuit)]
    pub fn run_circuit(
        &self,
        session: JsValue,
        spec: JsValue,
        input: JsValue,
        on_progress: Option<Function>,
    ) -> Promise {
        self.run_job::<Circuit>(session, spec, input, on_progress, circuit_result)
    }

    /// Makes preprocessing ahead of time for future jobs of this session
    /// ([`chorus_bindings::prepare`]): `spec` is `{ job: 'aes', ...AES options without inputs }`
    /// (`blocks` blocks) or `{ job: 'evaluate', ...circuit options, evaluations? }`, the same at
    /// every member. Later `runAes` / `runCircuit` jobs of the same kind consume the material
    /// (their spec's `prepared`: `'auto'` (default), `'require'` or `'never'`). Resolves with `{
    /// instances, available, stats, onlineStats, preprocessingStats, transportStats }`.
    pub fn prepare(&self, session: JsValue, spec: JsValue, on_progress: Option<Function>) -> Promise {
        self.run_job::<Prepare>(session, spec, Object::new().into(), on_progress, prepare_result)
    }

    /// The network over this bridge: frames out through the JS `send` callback (a throw fails the
    /// session with a `transport` error), frames in from the inbox.
    fn network(&self) -> JsNetwork {
        let send = self.send.clone();
        BridgeNetwork::new(
            self.party,
            self.parties,
            self.inbox.clone(),
            Box::new(move |to, frame: Vec<u8>| {
                let frame = Uint8Array::from(frame.as_slice());
                send.call2(&JsValue::NULL, &JsValue::from(to as u32), &frame)
                    .map(|_| ())
                    .map_err(|e| describe_js_error(&e))
            }),
        )
    }
}

impl Bridge {
    /// Checks a job of kind `K` against this session's prepared material: its labels or the
    /// thrown error.
    fn check<K: JobKind>(&self, spec: JsValue, input: JsValue) -> Result<JsValue, JsValue> {
        self.jobs
            .peek_prepared(|prepared| {
                Job::<K>::check(self.party, self.parties, &JsFields(&spec), &JsFields(&input), prepared)
            })
            .and_then(|labels| labels)
            .map(|labels| labels_to_js(&labels))
            .map_err(|e| error_to_js(&e))
    }

    /// Reads a job of kind `K` (before anything is sent: a bad argument rejects at once) and runs
    /// it on this bridge's channels; `result` is the object the promise resolves with.
    fn run_job<K: JobKind + 'static>(
        &self,
        session: JsValue,
        spec: JsValue,
        input: JsValue,
        on_progress: Option<Function>,
        result: fn(&Finished<K::Output>) -> JsValue,
    ) -> Promise
    where
        K::Spec: 'static,
        K::Input: 'static,
    {
        let job = self.jobs.claim().and_then(|claim| {
            let (session, spec, input) = (JsFields(&session), JsFields(&spec), JsFields(&input));
            Ok((claim, Job::<K>::read(self.party, self.parties, &session, &spec, &input)?))
        });
        let network = self.network();
        wasm_bindgen_futures::future_to_promise(async move {
            let (mut claim, job) = job.map_err(|e| error_to_js(&e))?;
            let done =
                job.run(&mut claim.channels, &mut claim.prepared, network, progress(on_progress)).await;
            // The claim goes back before the promise settles: the next job may start at once.
            drop(claim);
            Ok(result(&done.map_err(|e| error_to_js(&e))?))
        })
    }
}

/// The network under a bridge's channels: frames out through the JS `send` callback.
type JsNetwork = BridgeNetwork<Box<dyn FnMut(PartyId, Vec<u8>) -> Result<(), String>>>;

/// Calls `on_progress(stats)`, if given, after each received protocol message; the stats carry
/// `online` once the job said its phase, and a streaming circuit job's `instancesDone` and
/// `instancesTotal`. A throwing listener must not abort the
/// computation; the SDK isolates its listeners, so an exception is dropped.
fn progress(on_progress: Option<Function>) -> impl FnMut(&Progress) {
    move |progress| {
        if let Some(callback) = &on_progress {
            let stats = stats_to_js(&progress.stats);
            let object: &Object = stats.unchecked_ref();
            if let Some(online) = progress.online {
                let _ = js_sys::Reflect::set(object, &"online".into(), &JsValue::from(online));
            }
            if let Some((done, total)) = progress.instances {
                let _ = js_sys::Reflect::set(object, &"instancesDone".into(), &JsValue::from(done as u32));
                let _ = js_sys::Reflect::set(object, &"instancesTotal".into(), &JsValue::from(total as u32));
            }
            let _ = callback.call1(&JsValue::NULL, &stats);
        }
    }
}

/// Parses Bristol Fashion text and describes the circuit: `{ inputWidths, outputWidths, andGates,
/// xorGates, invGates, andDepth, wires }`. Malformed text throws a `config` error on `circuit`
/// whose message names the line.
#[wasm_bindgen(js_name = parseCircuit)]
pub fn parse_circuit(text: &str) -> Result<JsValue, JsValue> {
    let circuit = spec::circuit(text).map_err(|e| error_to_js(&e))?;
    let info = Object::new();
    let widths =
        |w: &[u32]| -> JsValue { w.iter().map(|&x| JsValue::from(x)).collect::<js_sys::Array>().into() };
    let counts = circuit.gate_counts();
    set_field(&info, "inputWidths", &widths(circuit.input_widths()));
    set_field(&info, "outputWidths", &widths(circuit.output_widths()));
    set_field(&info, "andGates", &JsValue::from(counts.and as u32));
    set_field(&info, "xorGates", &JsValue::from(counts.xor as u32));
    set_field(&info, "invGates", &JsValue::from(counts.inv as u32));
    set_field(&info, "andDepth", &JsValue::from(circuit.and_depth() as u32));
    set_field(&info, "wires", &JsValue::from(circuit.num_wires() as u32));
    Ok(info.into())
}

/// Warms this module's code before a session's first job ([`chorus_bindings::warm`]): every
/// member of a session of `parties` runs a smaller job of `spec` — `job: 'aes'` with the options
/// `runAes` takes, or `job: 'circuit'` with those of `runCircuit` — inside this module, through
/// the same network and progress types a bridge's jobs use, its frames passed between the members
/// in memory, with zero inputs; the result is dropped. Rejects with the error the job would give
/// the spec.
#[wasm_bindgen(js_name = warmUp)]
pub fn warm_up_job(job: String, parties: usize, spec: JsValue) -> Promise {
    match job.as_str() {
        "aes" => warm::<Aes>(parties, &spec),
        "circuit" => warm::<Circuit>(parties, &spec),
        other => {
            let error = BridgeError::config("job", format!("job must be 'aes' or 'circuit', got {other:?}"));
            Promise::reject(&error_to_js(&error))
        }
    }
}

/// The warm-up of jobs of kind `K`, over the bridge's network type ([`JsNetwork`]) and progress
/// callback.
fn warm<K: Warm + 'static>(parties: usize, spec: &JsValue) -> Promise
where
    K::Spec: 'static,
    K::Input: 'static,
{
    let warm_up = WarmUp::<K>::new(parties, &JsFields(spec));
    wasm_bindgen_futures::future_to_promise(async move {
        let warm_up = warm_up.map_err(|e| error_to_js(&e))?;
        let network = move |me, inbox, send| JsNetwork::new(me, parties, inbox, send);
        warm_up.run(network, || progress(None)).await.map_err(|e| error_to_js(&e))?;
        Ok(JsValue::UNDEFINED)
    })
}
