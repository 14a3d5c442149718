//! Conversions between Node-API values and the shared binding types ([`chorus_bindings`]): JS
//! objects as [`Fields`] for the argument readers, and job outcomes (results or classified
//! failures) as plain objects.

use chorus_bindings::jobs::{output_batch, Finished, JobLabels, OutputBatch};
use chorus_bindings::{BridgeError, Fields, Progress, Value};
use chorus_core::jobs::{AesOutput, CircuitOutput, PrepareOutput};
use chorus_core::net::NetStats;
use napi::bindgen_prelude::{Array, FromNapiValue, Object, Uint8Array};
use napi::{Env, JsValue, Unknown, ValueType};
use napi_derive::napi;

/// A JS object read field by field on the JS thread.
pub struct ObjectFields<'a, 'env> {
    pub env: &'a Env,
    pub object: Object<'env>,
}

/// A JS value as the readers see it; what cannot be read is [`Value::Other`].
fn value(env: &Env, v: Unknown<'_>) -> napi::Result<Value> {
    // SAFETY (all `from_napi_value` calls): `v` is a live value of `env`, read on the JS thread,
    // and its type was checked first.
    Ok(match v.get_type()? {
        ValueType::String => Value::Str(unsafe { String::from_napi_value(env.raw(), v.raw()) }?),
        ValueType::Number => Value::Num(unsafe { f64::from_napi_value(env.raw(), v.raw()) }?),
        ValueType::Object if v.is_typedarray()? => {
            match unsafe { Uint8Array::from_napi_value(env.raw(), v.raw()) } {
                Ok(bytes) => Value::Bytes(bytes.to_vec()),
                Err(_) => Value::Other,
            }
        }
        ValueType::Object if v.is_array()? => {
            let array = unsafe { Array::from_napi_value(env.raw(), v.raw()) }?;
            let mut items = Vec::with_capacity(array.len() as usize);
            for i in 0..array.len() {
                items.push(match array.get::<Unknown>(i)? {
                    Some(item) => value(env, item)?,
                    None => Value::Absent,
                });
            }
            Value::List(items)
        }
        ValueType::Null | ValueType::Undefined => Value::Absent,
        _ => Value::Other,
    })
}

impl Fields for ObjectFields<'_, '_> {
    fn field(&self, name: &str) -> Result<Option<Value>, BridgeError> {
        let unreadable = |_| BridgeError::config(name, "could not be read");
        let Some(v) = self.object.get::<Unknown>(name).map_err(unreadable)? else { return Ok(None) };
        match v.get_type().map_err(unreadable)? {
            ValueType::Undefined | ValueType::Null => Ok(None),
            _ => value(self.env, v).map(Some).map_err(unreadable),
        }
    }
}

/// `{ rounds, bytesSent, bytesReceived, messagesSent, messagesReceived }`.
#[napi(object)]
pub struct Stats {
    pub rounds: f64,
    pub bytes_sent: f64,
    pub bytes_received: f64,
    pub messages_sent: f64,
    pub messages_received: f64,
    /// Progress events only: whether the job is in an online phase, once it said.
    pub online: Option<bool>,
    /// A streaming circuit job's progress: instances evaluated and in all.
    pub instances_done: Option<f64>,
    pub instances_total: Option<f64>,
}

impl From<&NetStats> for Stats {
    fn from(s: &NetStats) -> Self {
        Stats {
            rounds: s.rounds as f64,
            bytes_sent: s.bytes_sent as f64,
            bytes_received: s.bytes_received as f64,
            messages_sent: s.messages_sent as f64,
            messages_received: s.messages_received as f64,
            online: None,
            instances_done: None,
            instances_total: None,
        }
    }
}

impl From<&Progress> for Stats {
    fn from(p: &Progress) -> Self {
        let mut stats = Stats::from(&p.stats);
        stats.online = p.online;
        if let Some((done, total)) = p.instances {
            stats.instances_done = Some(done as f64);
            stats.instances_total = Some(total as f64);
        }
        stats
    }
}

/// A classified failure: the fields the WASM module sets on the `Error` it throws.
#[napi(object)]
pub struct JobFailure {
    pub kind: String,
    pub message: String,
    pub slot: Option<u32>,
    pub field: Option<String>,
    pub check: Option<String>,
}

/// What a job's promise resolves with: the result fields of the WASM module's jobs, or `error`.
#[napi(object)]
pub struct JobOutcome {
    pub ciphertext: Option<Uint8Array>,
    pub output_instances: Option<f64>,
    pub revealed: Option<Vec<u32>>,
    pub bits: Option<Uint8Array>,
    pub stats: Option<Stats>,
    pub online_stats: Option<Stats>,
    pub preprocessing_stats: Option<Stats>,
    pub transport_stats: Option<Stats>,
    pub instances: Option<f64>,
    pub available: Option<f64>,
    pub error: Option<JobFailure>,
}

/// A finished job, kept as plain Rust data until the JS thread builds its object.
pub struct Outcome {
    ciphertext: Option<Vec<u8>>,
    outputs: Option<OutputBatch>,
    stats: [NetStats; 4],
    /// A prepare job's instances made and available.
    prepared: Option<(usize, usize)>,
}

impl Outcome {
    pub fn aes(done: Finished<AesOutput>) -> Self {
        let o = done.output;
        Outcome {
            ciphertext: o.ciphertext,
            outputs: None,
            stats: [o.stats, o.online_stats, o.preprocessing_stats, done.transport],
            prepared: None,
        }
    }

    /// A prepare job: all of its communication is preprocessing.
    pub fn prepare(done: Finished<PrepareOutput>) -> Self {
        let o = done.output;
        Outcome {
            ciphertext: None,
            outputs: None,
            stats: [o.stats, NetStats::default(), o.stats, done.transport],
            prepared: Some((o.instances, o.available)),
        }
    }

    pub fn circuit(done: Finished<CircuitOutput>) -> Self {
        let o = &done.output;
        Outcome {
            ciphertext: None,
            outputs: Some(output_batch(o)),
            stats: [o.stats, o.online_stats, o.preprocessing_stats, done.transport],
            prepared: None,
        }
    }
}

/// The object a job's promise resolves with.
pub fn outcome(result: Result<Outcome, BridgeError>) -> JobOutcome {
    match result {
        Ok(o) => {
            let [stats, online, preprocessing, transport] = o.stats.map(|s| Some(Stats::from(&s)));
            JobOutcome {
                ciphertext: o.ciphertext.map(Uint8Array::from),
                output_instances: o.outputs.as_ref().map(|b| b.instances as f64),
                revealed: o.outputs.as_ref().map(|b| b.revealed.iter().map(|&v| v as u32).collect()),
                bits: o.outputs.map(|b| Uint8Array::from(b.bits)),
                stats,
                online_stats: online,
                preprocessing_stats: preprocessing,
                transport_stats: transport,
                instances: o.prepared.map(|(made, _)| made as f64),
                available: o.prepared.map(|(_, left)| left as f64),
                error: None,
            }
        }
        Err(e) => JobOutcome {
            ciphertext: None,
            output_instances: None,
            revealed: None,
            bits: None,
            stats: None,
            online_stats: None,
            preprocessing_stats: None,
            transport_stats: None,
            instances: None,
            available: None,
            error: Some(failure(e)),
        },
    }
}

/// A classified failure as its JS object.
fn failure(e: BridgeError) -> JobFailure {
    let detail = |name| if e.detail_name() == Some(name) { e.detail.clone() } else { None };
    JobFailure {
        kind: e.kind.as_str().to_string(),
        field: detail("field"),
        check: detail("check"),
        slot: e.slot.map(|s| s as u32),
        message: e.message,
    }
}

/// What `checkAes` / `checkCircuit` return: the job's labels ([`JobLabels`]), or `error`.
#[napi(object)]
pub struct JobCheck {
    pub protocol: Option<String>,
    pub variant: Option<String>,
    pub security: Option<String>,
    pub preprocessing: Option<String>,
    pub prepared: Option<bool>,
    pub error: Option<JobFailure>,
}

/// The object a job check returns.
pub fn check(result: Result<JobLabels, BridgeError>) -> JobCheck {
    match result {
        Ok(l) => JobCheck {
            protocol: Some(l.protocol.into()),
            variant: l.variant.map(Into::into),
            security: Some(l.security.into()),
            preprocessing: l.preprocessing.map(Into::into),
            prepared: l.prepared.then_some(true),
            error: None,
        },
        Err(e) => JobCheck {
            protocol: None,
            variant: None,
            security: None,
            preprocessing: None,
            prepared: None,
            error: Some(failure(e)),
        },
    }
}
