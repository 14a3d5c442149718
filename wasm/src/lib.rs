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
//! # Limits
//! - One job is bound: MAESTRO AES. Circuit evaluation and the two-party protocols are not.
//! - The spec is validated before the handshake, but this party's inputs only inside the job, after
//!   the handshake (the core's input check is private); the SDK validates inputs itself first.
//! - Secret inputs cross the boundary as copies; the JS copies are the caller's to discard, and the
//!   Rust copies are freed, not wiped.

pub mod convert;
pub mod errors;
pub mod inbox;
pub mod js_network;
pub mod kernel_bench;

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

    /// Runs the three-party MAESTRO AES job as this party.
    ///
    /// - `session`: `{ sessionId, secret }` (`NNpsk0`) or `{ sessionId, privateKey, publicKeys }`
    ///   (`KK`), all `Uint8Array`s;
    /// - `spec`: `{ keyBits?, blocks, keyHolders, plaintextOwner, revealTo }`, the same at every party;
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
        let network = JsNetwork::new(self.party, self.parties, self.inbox.clone(), self.send.clone());
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
    let mut rng = session_rng().map_err(|e| BridgeError::from(NetError::Transport(e.to_string())))?;
    let output = maestro_aes::run(&mut net, &spec, input, &mut rng).await?;

    let result = Object::new();
    let set = |k: &str, v: &JsValue| {
        // Setting a property on a fresh plain object cannot fail.
        let _ = Reflect::set(&result, &k.into(), v);
    };
    if let Some(ciphertext) = &output.ciphertext {
        set("ciphertext", &Uint8Array::from(ciphertext.as_slice()).into());
    }
    set("stats", &stats_to_js(&output.stats));
    set("roundsStats", &stats_to_js(&output.rounds_stats));
    set("transportStats", &stats_to_js(&net.inner().transport_stats()));
    Ok(result.into())
}
