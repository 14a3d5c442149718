//! wasm-bindgen bindings of `chorus-core`, driven by the TypeScript SDK (`ts-sdk/`).
//!
//! A [`Bridge`] is one party's end of one session. JS constructs it with a `send(to, frame)`
//! callback that puts a whole frame on the relay connection, feeds it every incoming frame with
//! `deliver(from, frame)`, and reports the end of the session with `peerLeft(slot)` or
//! `fail(reason)`. `runMaestroAes(...)` then runs, inside WASM, the Noise handshakes of
//! [`SecureNetwork`] over the bridge and the three-party MAESTRO AES job
//! ([`chorus_core::jobs::maestro_aes`]) over the encrypted channels, with randomness from
//! [`session_rng`]; it returns a `Promise`. The JS side passes whole frames in and out — one call
//! per frame, never one per element — and gets one progress callback per received protocol message.
//!
//! Errors reject the promise with a JS `Error` carrying a `kind` ([`errors`]).
//!
//! WebAssembly is single-threaded here: the protocol future runs on the JS event loop
//! (`wasm-bindgen-futures`), and frames delivered by JS wake it.
//!
//! Jobs bound: MAESTRO AES (`runMaestroAes`, every S-box variant), and the two-party TinyTable
//! jobs with OT preprocessing between the two parties or a trusted-dealer member
//! ([`tinytable_jobs`]: `runTinyTableAes`, `runTinyTableCircuit`); `parseCircuit` checks Bristol
//! text without a session.
//!
//! # Limits
//! - The spec is validated before the handshake, but this party's inputs only inside the job, after
//!   the handshake (the core's input check is private); the SDK validates inputs itself first.
//! - Secret inputs cross the boundary as copies; the JS copies are the caller's to discard, and the
//!   Rust copies are freed, not wiped.

pub mod convert;
pub mod errors;
pub mod inbox;
pub mod js_network;
pub mod kernel_bench;
pub mod tinytable_jobs;

use crate::errors::BridgeError;
use crate::inbox::Inbox;
use crate::js_network::{stats_to_js, JsNetwork, ProgressNetwork};
use chorus_core::jobs::maestro_aes;
use chorus_core::net::secure::SecureNetwork;
use chorus_core::net::{NetError, PartyId};
use chorus_core::rng::session_rng;
use core::cell::Cell;
use js_sys::{Function, Object, Promise, Reflect, Uint8Array};
use std::rc::Rc;
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
    started: Rc<Cell<bool>>,
}

#[wasm_bindgen]
impl Bridge {
    /// The bridge of party `party` of `parties`; `send(to: number, frame: Uint8Array)` must queue
    /// the frame for party `to` (throwing fails the session with a `transport` error).
    #[wasm_bindgen(constructor)]
    pub fn new(party: usize, parties: usize, send: Function) -> Result<Bridge, JsValue> {
        if parties < 2 || party >= parties {
            return Err(BridgeError::config("slot", format!("party {party} is not in 0..{parties}")).to_js());
        }
        Ok(Bridge { party, parties, inbox: Inbox::new(parties), send, started: Rc::new(Cell::new(false)) })
    }

    /// Hands over a frame received from party `from` (the bytes are copied).
    pub fn deliver(&self, from: usize, frame: &[u8]) -> Result<(), JsValue> {
        self.inbox.deliver(from, frame.to_vec()).map_err(|e| BridgeError::from(e).to_js())
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

    /// Removes and returns the frames no job received, as `[from, frame]` pairs in arrival order
    /// per sender: after a job ends, the frames a faster peer already sent for the next job, to be
    /// delivered to the next bridge.
    #[wasm_bindgen(js_name = takeUnread)]
    pub fn take_unread(&self) -> js_sys::Array {
        self.inbox
            .drain()
            .into_iter()
            .map(|(from, frame)| {
                let pair = js_sys::Array::new();
                pair.push(&JsValue::from(from as u32));
                pair.push(&Uint8Array::from(frame.as_slice()));
                JsValue::from(pair)
            })
            .collect()
    }

    /// Runs the TinyTable AES job as this member (parties 0 and 1 compute, member 2 is the
    /// trusted dealer): `spec` is `{ path?, security?, blocks, keyHolders, plaintextOwner,
    /// revealTo }`, `input` `{ keyShare?, plaintext? }`; resolves like [`Self::run_maestro_aes`]
    /// with `onlineStats` in place of `roundsStats`.
    #[wasm_bindgen(js_name = runTinyTableAes)]
    pub fn run_tinytable_aes(
        &self,
        session: JsValue,
        spec: JsValue,
        input: JsValue,
        on_progress: Option<Function>,
    ) -> Promise {
        let started = self.started.replace(true);
        let network = self.network();
        wasm_bindgen_futures::future_to_promise(async move {
            if started {
                return Err(BridgeError::config("bridge", "a bridge runs one job; create a new one").to_js());
            }
            tinytable_jobs::run_aes(network, session, spec, input, on_progress).await.map_err(|e| e.to_js())
        })
    }

    /// Runs the TinyTable circuit job as this member: `spec` is `{ circuit: string, security?,
    /// inputOwners, reveal }` (`reveal[v]`: 0, 1, or 2 for both), `input` `{ values?: Uint8Array[] }`
    /// (this party's input values in circuit order, one byte 0/1 per bit). Resolves with
    /// `{ outputs: (Uint8Array | undefined)[], stats, onlineStats, transportStats }`.
    #[wasm_bindgen(js_name = runTinyTableCircuit)]
    pub fn run_tinytable_circuit(
        &self,
        session: JsValue,
        spec: JsValue,
        input: JsValue,
        on_progress: Option<Function>,
    ) -> Promise {
        let started = self.started.replace(true);
        let network = self.network();
        wasm_bindgen_futures::future_to_promise(async move {
            if started {
                return Err(BridgeError::config("bridge", "a bridge runs one job; create a new one").to_js());
            }
            tinytable_jobs::run_circuit(network, session, spec, input, on_progress)
                .await
                .map_err(|e| e.to_js())
        })
    }

    fn network(&self) -> JsNetwork {
        JsNetwork::new(self.party, self.parties, self.inbox.clone(), self.send.clone())
    }

    /// Runs the three-party MAESTRO AES job as this party.
    ///
    /// - `session`: `{ sessionId, secret }` (`NNpsk0`) or `{ sessionId, privateKey, publicKeys }`
    ///   (`KK`), all `Uint8Array`s;
    /// - `spec`: `{ variant?, security?, direction?, keyBits?, blocks, keyHolders, plaintextOwner,
    ///   revealTo }`, the same at every party (`variant`: `lut16` (default), `gf256-circuit`,
    ///   `gf16-circuit`, `lut256`, `lut256-33`; `security`: `malicious` (default) or `semi-honest`;
    ///   combinations without an implementation fail as not available);
    /// - `input`: `{ keyShare?, plaintext? }`, what this party's roles require;
    /// - `onProgress(stats)`: called after each received protocol message.
    ///
    /// Resolves with `{ ciphertext?, stats, roundsStats, transportStats }`; stats objects are
    /// `{ rounds, bytesSent, bytesReceived, messagesSent, messagesReceived }` (protocol payload
    /// bytes; `transportStats` counts the encrypted frames and handshakes). A bridge runs one job.
    #[wasm_bindgen(js_name = runMaestroAes)]
    pub fn run_maestro_aes(
        &self,
        session: JsValue,
        spec: JsValue,
        input: JsValue,
        on_progress: Option<Function>,
    ) -> Promise {
        let started = self.started.replace(true);
        let network = self.network();
        wasm_bindgen_futures::future_to_promise(async move {
            if started {
                return Err(BridgeError::config("bridge", "a bridge runs one job; create a new one").to_js());
            }
            run_aes(network, session, spec, input, on_progress).await.map_err(|e| e.to_js())
        })
    }
}

async fn run_aes(
    network: JsNetwork,
    session: JsValue,
    spec: JsValue,
    input: JsValue,
    on_progress: Option<Function>,
) -> Result<JsValue, BridgeError> {
    let config = convert::secure_config(&session)?;
    let spec = convert::aes_spec(&spec)?;
    let input = convert::aes_input(&input)?;
    spec.validate()?;
    let secure = SecureNetwork::establish(network, config).await?;
    let mut net = ProgressNetwork::new(secure, on_progress);
    let mut rng = job_rng()?;
    let output = maestro_aes::run(&mut net, &spec, input, &mut rng).await?;

    let result = Object::new();
    let set = |k: &str, v: &JsValue| set_field(&result, k, v);
    if let Some(ciphertext) = &output.ciphertext {
        set("ciphertext", &Uint8Array::from(ciphertext.as_slice()).into());
    }
    set("stats", &stats_to_js(&output.stats));
    set("roundsStats", &stats_to_js(&output.rounds_stats));
    set("transportStats", &stats_to_js(&net.inner().transport_stats()));
    Ok(result.into())
}

/// A fresh OS-seeded random generator for one job.
pub(crate) fn job_rng() -> Result<impl rand_core::RngCore + rand_core::CryptoRng, BridgeError> {
    session_rng().map_err(|e| BridgeError::from(NetError::Transport(e.to_string())))
}

/// Sets a property on a plain object the caller just created.
pub(crate) fn set_field(object: &Object, key: &str, value: &JsValue) {
    // Setting a property on a fresh plain object cannot fail.
    let _ = Reflect::set(object, &key.into(), value);
}

/// Parses Bristol Fashion text and describes the circuit: `{ inputWidths, outputWidths, andGates,
/// xorGates, invGates, andDepth, wires }`. Malformed text throws a `config` error on `circuit`
/// whose message names the line.
#[wasm_bindgen(js_name = parseCircuit)]
pub fn parse_circuit(text: &str) -> Result<JsValue, JsValue> {
    let circuit = convert::circuit(text).map_err(|e| e.to_js())?;
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
