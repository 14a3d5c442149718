//! wasm-bindgen bindings of `chorus-core`, driven by the TypeScript SDK (`ts-sdk/`).
//!
//! A [`Bridge`] is one party's end of one session. JS constructs it with a `send(to, frame)`
//! callback that puts a whole frame on the relay connection, feeds it every incoming frame with
//! `deliver(from, frame)`, and reports the end of the session with `peerLeft(slot)` or
//! `fail(reason)`. `runAes(...)` or `runCircuit(...)` then runs, inside WASM, the Noise
//! handshakes of [`chorus_core::net::secure::SecureNetwork`] over the bridge and the job
//! ([`chorus_core::jobs`], any protocol) over the encrypted channels, with randomness from
//! [`session_rng`]; it returns a `Promise`. The JS side passes whole frames in and out — one call
//! per frame, never one per element — and gets one progress callback per received protocol message.
//!
//! Errors reject the promise with a JS `Error` carrying a `kind` ([`errors`]).
//!
//! WebAssembly is single-threaded here: the protocol future runs on the JS event loop
//! (`wasm-bindgen-futures`), and frames delivered by JS wake it.
//!
//! Jobs bound ([`jobs`]): `runAes` (MAESTRO, TinyTable, MiniMac: the protocol is a field of the
//! spec) and `runCircuit` (TinyTable, MiniMac); `parseCircuit` checks Bristol text without a
//! session.
//!
//! # Limits
//! - The spec is validated before the handshake, but this party's inputs only inside the job, after
//!   the handshake (the core's input check is private); the SDK validates inputs itself first.
//! - Secret inputs cross the boundary as copies; the JS copies are the caller's to discard, and the
//!   Rust copies are freed, not wiped.

pub mod convert;
pub mod errors;
pub mod inbox;
pub mod jobs;
pub mod js_network;
pub mod kernel_bench;

use crate::errors::BridgeError;
use crate::inbox::Inbox;
use crate::js_network::JsNetwork;
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

    /// Runs the joint-AES job of any protocol as this member ([`jobs::run_aes`]).
    ///
    /// - `session`: `{ sessionId, secret }` (`NNpsk0`) or `{ sessionId, privateKey, publicKeys }`
    ///   (`KK`), all `Uint8Array`s;
    /// - `spec`: `{ protocol?, blocks, keyHolders, plaintextOwner, revealTo, direction?, keyBits? }`
    ///   with the protocol's options ([`convert::aes_spec`]), the same at every member;
    /// - `input`: `{ keyShare?, plaintext? }`, what this member's roles require;
    /// - `onProgress(stats)`: called after each received protocol message.
    ///
    /// Resolves with `{ ciphertext?, stats, onlineStats, preprocessingStats, transportStats }`;
    /// stats objects are `{ rounds, bytesSent, bytesReceived, messagesSent, messagesReceived }`
    /// (protocol payload bytes; `transportStats` counts the encrypted frames and handshakes). A
    /// bridge runs one job.
    #[wasm_bindgen(js_name = runAes)]
    pub fn run_aes(
        &self,
        session: JsValue,
        spec: JsValue,
        input: JsValue,
        on_progress: Option<Function>,
    ) -> Promise {
        let (started, network) = (self.started.replace(true), self.network());
        wasm_bindgen_futures::future_to_promise(async move {
            once(started)?;
            jobs::run_aes(network, session, spec, input, on_progress).await.map_err(|e| e.to_js())
        })
    }

    /// Runs the circuit job of any two-party protocol as this member ([`jobs::run_circuit`]):
    /// `spec` is `{ protocol?, circuit: string, inputOwners, reveal }` with the protocol's options
    /// ([`convert::circuit_spec`]; `reveal[v]`: 0, 1, or 2 for both), `input` `{ values?:
    /// Uint8Array[] }` (this party's input values in circuit order, one byte 0/1 per bit).
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
        let (started, network) = (self.started.replace(true), self.network());
        wasm_bindgen_futures::future_to_promise(async move {
            once(started)?;
            jobs::run_circuit(network, session, spec, input, on_progress).await.map_err(|e| e.to_js())
        })
    }

    fn network(&self) -> JsNetwork {
        JsNetwork::new(self.party, self.parties, self.inbox.clone(), self.send.clone())
    }
}

/// A bridge runs one job: the second call fails with a `config` error on `bridge`.
fn once(started: bool) -> Result<(), JsValue> {
    if started {
        return Err(BridgeError::config("bridge", "a bridge runs one job; create a new one").to_js());
    }
    Ok(())
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
