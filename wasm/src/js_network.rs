//! The [`Network`] whose frames travel through JavaScript: `send` calls a JS callback with the
//! destination and the whole frame, and frames from peers come in through an [`Inbox`] that JS
//! feeds. The SDK puts this under [`chorus_core::net::secure::SecureNetwork`], so every frame that
//! crosses the JS boundary is already encrypted and authenticated.
//!
//! [`ProgressNetwork`] wraps any network to report statistics to a JS callback after each received
//! protocol message (one call per message, never per element).

use crate::inbox::Inbox;
use chorus_core::net::{NetError, NetStats, Network, PartyId, StatsRecorder};
use core::future::{poll_fn, Future};
use js_sys::{Function, Object, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

/// A party's network over JS callbacks; counts the bytes of the frames it moves.
pub struct JsNetwork {
    me: PartyId,
    parties: usize,
    inbox: Inbox,
    send: Function,
    stats: StatsRecorder,
}

impl JsNetwork {
    /// The network of party `me` of `parties`, sending through `send(to, Uint8Array)` and
    /// receiving from `inbox`.
    pub fn new(me: PartyId, parties: usize, inbox: Inbox, send: Function) -> Self {
        JsNetwork { me, parties, inbox, send, stats: StatsRecorder::new() }
    }
}

impl Network for JsNetwork {
    fn party(&self) -> PartyId {
        self.me
    }

    fn parties(&self) -> usize {
        self.parties
    }

    fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError> {
        self.check_peer(to)?;
        if let Some(error) = self.inbox.failure() {
            return Err(error);
        }
        let frame = Uint8Array::from(msg.as_slice());
        self.send
            .call2(&JsValue::NULL, &JsValue::from(to as u32), &frame)
            .map_err(|e| NetError::Transport(describe_js_error(&e)))?;
        self.stats.on_send(msg.len());
        Ok(())
    }

    fn recv(&mut self, from: PartyId) -> impl Future<Output = Result<Vec<u8>, NetError>> {
        let checked = self.check_peer(from);
        async move {
            checked?;
            let frame = poll_fn(|cx| self.inbox.poll_recv(from, cx)).await?;
            self.stats.on_recv(frame.len());
            Ok(frame)
        }
    }

    fn stats(&self) -> NetStats {
        self.stats.stats()
    }
}

/// A network that calls `on_progress(stats)` after every message it receives.
pub struct ProgressNetwork<N> {
    inner: N,
    on_progress: Option<Function>,
}

impl<N: Network> ProgressNetwork<N> {
    /// Wraps `inner`; without a callback it only forwards.
    pub fn new(inner: N, on_progress: Option<Function>) -> Self {
        ProgressNetwork { inner, on_progress }
    }

    /// The wrapped network.
    pub fn inner(&self) -> &N {
        &self.inner
    }

    fn report(&self) {
        if let Some(callback) = &self.on_progress {
            // A throwing progress listener must not abort the computation; the SDK isolates its
            // listeners, so an exception here is dropped.
            let _ = callback.call1(&JsValue::NULL, &stats_to_js(&self.inner.stats()));
        }
    }
}

impl<N: Network> Network for ProgressNetwork<N> {
    fn party(&self) -> PartyId {
        self.inner.party()
    }

    fn parties(&self) -> usize {
        self.inner.parties()
    }

    fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError> {
        self.inner.send(to, msg)
    }

    async fn recv(&mut self, from: PartyId) -> Result<Vec<u8>, NetError> {
        let msg = self.inner.recv(from).await?;
        self.report();
        Ok(msg)
    }

    fn stats(&self) -> NetStats {
        self.inner.stats()
    }

    fn broadcast(&mut self, msg: &[u8]) -> Result<(), NetError> {
        self.inner.broadcast(msg)
    }
}

/// `{ rounds, bytesSent, bytesReceived, messagesSent, messagesReceived }` as a JS object.
pub fn stats_to_js(stats: &NetStats) -> JsValue {
    let object = Object::new();
    for (name, value) in [
        ("rounds", stats.rounds),
        ("bytesSent", stats.bytes_sent),
        ("bytesReceived", stats.bytes_received),
        ("messagesSent", stats.messages_sent),
        ("messagesReceived", stats.messages_received),
    ] {
        // Setting a property on a fresh plain object cannot fail.
        let _ = Reflect::set(&object, &name.into(), &JsValue::from_f64(value as f64));
    }
    object.into()
}

/// The message of a thrown JS value, for error reports.
pub fn describe_js_error(error: &JsValue) -> String {
    if let Some(e) = error.dyn_ref::<js_sys::Error>() {
        String::from(e.message())
    } else {
        error.as_string().unwrap_or_else(|| format!("{error:?}"))
    }
}
