//! Conversions between JS values and the shared binding types ([`chorus_bindings`]): JS objects
//! as [`Fields`] for the argument readers, a [`BridgeError`] as a JS `Error`, statistics and job
//! results as plain objects.

use chorus_bindings::jobs::{output_batch, Finished, JobLabels};
use chorus_bindings::{BridgeError, Fields, Value};
use chorus_core::jobs::{AesOutput, CircuitOutput, PrepareOutput};
use chorus_core::net::NetStats;
use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

/// A JS object read through `Reflect` (an arbitrary `JsValue`: a non-object fails every field).
pub struct JsFields<'a>(pub &'a JsValue);

fn value(v: JsValue) -> Value {
    if let Some(s) = v.as_string() {
        Value::Str(s)
    } else if let Some(n) = v.as_f64() {
        Value::Num(n)
    } else if let Some(bytes) = v.dyn_ref::<Uint8Array>() {
        Value::Bytes(bytes.to_vec())
    } else if Array::is_array(&v) {
        Value::List(Array::from(&v).iter().map(value).collect())
    } else if v.is_null() || v.is_undefined() {
        Value::Absent
    } else {
        Value::Other
    }
}

impl Fields for JsFields<'_> {
    fn field(&self, name: &str) -> Result<Option<Value>, BridgeError> {
        if !self.0.is_object() {
            return Err(BridgeError::config(name, "expected an object holding this field"));
        }
        let v =
            Reflect::get(self.0, &name.into()).map_err(|_| BridgeError::config(name, "could not be read"))?;
        Ok(if v.is_undefined() || v.is_null() { None } else { Some(value(v)) })
    }
}

/// Sets a property on a plain object the caller just created.
pub fn set_field(object: &Object, key: &str, value: &JsValue) {
    // Setting a property on a fresh plain object cannot fail.
    let _ = Reflect::set(object, &key.into(), value);
}

/// The JS `Error` object: `message`, `kind`, and `slot` / `field` / `check` when known.
pub fn error_to_js(e: &BridgeError) -> JsValue {
    let error = js_sys::Error::new(&e.message);
    set_field(&error, "kind", &e.kind.as_str().into());
    if let Some(slot) = e.slot {
        set_field(&error, "slot", &JsValue::from(slot as u32));
    }
    if let (Some(name), Some(detail)) = (e.detail_name(), &e.detail) {
        set_field(&error, name, &detail.as_str().into());
    }
    error.into()
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
        set_field(&object, name, &JsValue::from_f64(value as f64));
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

/// The statistics every job result carries.
fn stats_object(
    stats: &NetStats,
    online: &NetStats,
    preprocessing: &NetStats,
    transport: &NetStats,
) -> Object {
    let result = Object::new();
    set_field(&result, "stats", &stats_to_js(stats));
    set_field(&result, "onlineStats", &stats_to_js(online));
    set_field(&result, "preprocessingStats", &stats_to_js(preprocessing));
    set_field(&result, "transportStats", &stats_to_js(transport));
    result
}

/// `{ ciphertext?, stats, onlineStats, preprocessingStats, transportStats }`.
pub fn aes_result(done: &Finished<AesOutput>) -> JsValue {
    let o = &done.output;
    let result = stats_object(&o.stats, &o.online_stats, &o.preprocessing_stats, &done.transport);
    if let Some(ciphertext) = &o.ciphertext {
        set_field(&result, "ciphertext", &Uint8Array::from(ciphertext.as_slice()).into());
    }
    result.into()
}

/// `{ outputInstances, revealed: number[], bits: Uint8Array, stats, onlineStats,
/// preprocessingStats, transportStats }` (see [`output_batch`]).
pub fn circuit_result(done: &Finished<CircuitOutput>) -> JsValue {
    let o = &done.output;
    let result = stats_object(&o.stats, &o.online_stats, &o.preprocessing_stats, &done.transport);
    let batch = output_batch(o);
    let revealed: Array = batch.revealed.iter().map(|&v| JsValue::from(v as u32)).collect();
    set_field(&result, "outputInstances", &JsValue::from(batch.instances as u32));
    set_field(&result, "revealed", &revealed.into());
    set_field(&result, "bits", &Uint8Array::from(batch.bits.as_slice()).into());
    result.into()
}

/// `{ instances, available, stats, onlineStats, preprocessingStats, transportStats }` of a prepare
/// job (all of its communication is preprocessing).
pub fn prepare_result(done: &Finished<PrepareOutput>) -> JsValue {
    let o = &done.output;
    let result = stats_object(&o.stats, &NetStats::default(), &o.stats, &done.transport);
    set_field(&result, "instances", &JsValue::from(o.instances as u32));
    set_field(&result, "available", &JsValue::from(o.available as u32));
    result.into()
}

/// `{ protocol, variant?, security, preprocessing?, prepared? }`: what a checked job runs
/// (`prepared: true` when it consumes prepared material).
pub fn labels_to_js(labels: &JobLabels) -> JsValue {
    let object = Object::new();
    set_field(&object, "protocol", &labels.protocol.into());
    set_field(&object, "security", &labels.security.into());
    if labels.prepared {
        set_field(&object, "prepared", &true.into());
    }
    for (name, value) in [("variant", labels.variant), ("preprocessing", labels.preprocessing)] {
        if let Some(value) = value {
            set_field(&object, name, &value.into());
        }
    }
    object.into()
}
