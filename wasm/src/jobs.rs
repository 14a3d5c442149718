//! The two jobs behind the bridge — joint AES and circuit evaluation, for every protocol
//! ([`chorus_core::jobs`]): the spec is read and validated before the handshake, the session size
//! checked against the protocol, then the job runs over the Noise channels with a fresh OS-seeded
//! generator. A protocol added to the core's job layer needs nothing here beyond its options in
//! [`crate::convert`].

use crate::convert;
use crate::errors::BridgeError;
use crate::js_network::{stats_to_js, JsNetwork, ProgressNetwork};
use crate::{job_rng, set_field};
use chorus_core::jobs::{self, AesProtocol, JobError};
use chorus_core::net::secure::SecureNetwork;
use chorus_core::net::{NetStats, Network};
use js_sys::{Array, Function, Object, Uint8Array};
use wasm_bindgen::JsValue;

/// The session size a job needs, checked before the handshake (the job checks it again).
fn check_members(
    network: &JsNetwork,
    protocol: &'static str,
    members: usize,
    preprocessing: Option<jobs::Preprocessing>,
) -> Result<(), BridgeError> {
    let got = network.parties();
    if got == members {
        return Ok(());
    }
    Err(match preprocessing {
        Some(preprocessing) => JobError::WrongSessionSize { protocol, preprocessing, got }.into(),
        None => BridgeError::config(
            "parties",
            format!("{protocol} runs in a session of {members}, this one has {got}"),
        ),
    })
}

fn aes_preprocessing(protocol: &AesProtocol) -> Option<jobs::Preprocessing> {
    match *protocol {
        AesProtocol::Maestro { .. } => None,
        AesProtocol::TinyTable { preprocessing, .. }
        | AesProtocol::MiniMac { preprocessing, .. }
        | AesProtocol::Coral { preprocessing } => Some(preprocessing),
    }
}

/// The statistics every job result carries.
fn set_stats(
    result: &Object,
    stats: &NetStats,
    online: &NetStats,
    preprocessing: &NetStats,
    transport: &NetStats,
) {
    set_field(result, "stats", &stats_to_js(stats));
    set_field(result, "onlineStats", &stats_to_js(online));
    set_field(result, "preprocessingStats", &stats_to_js(preprocessing));
    set_field(result, "transportStats", &stats_to_js(transport));
}

pub(crate) async fn run_aes(
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
    check_members(
        &network,
        spec.protocol.name(),
        spec.protocol.members(),
        aes_preprocessing(&spec.protocol),
    )?;
    let secure = SecureNetwork::establish(network, config).await?;
    let mut net = ProgressNetwork::new(secure, on_progress);
    let output = jobs::run_aes(&mut net, &spec, input, &mut job_rng()?).await?;
    let result = Object::new();
    if let Some(ciphertext) = &output.ciphertext {
        set_field(&result, "ciphertext", &Uint8Array::from(ciphertext.as_slice()).into());
    }
    let transport = net.inner().transport_stats();
    set_stats(&result, &output.stats, &output.online_stats, &output.preprocessing_stats, &transport);
    Ok(result.into())
}

pub(crate) async fn run_circuit(
    network: JsNetwork,
    session: JsValue,
    spec: JsValue,
    input: JsValue,
    on_progress: Option<Function>,
) -> Result<JsValue, BridgeError> {
    let config = convert::secure_config(&session)?;
    let spec = convert::circuit_spec(&spec)?;
    let input = convert::circuit_input(&input)?;
    spec.validate()?;
    let preprocessing = spec.protocol.preprocessing();
    check_members(&network, spec.protocol.name(), preprocessing.members(), Some(preprocessing))?;
    let secure = SecureNetwork::establish(network, config).await?;
    let mut net = ProgressNetwork::new(secure, on_progress);
    let output = jobs::run_circuit(&mut net, &spec, input, &mut job_rng()?).await?;
    let outputs: Array = output
        .outputs
        .first()
        .map(|values| {
            values
                .iter()
                .map(|value| match value {
                    Some(bits) => {
                        Uint8Array::from(bits.iter().map(|&b| u8::from(b)).collect::<Vec<u8>>().as_slice())
                            .into()
                    }
                    None => JsValue::UNDEFINED,
                })
                .collect()
        })
        .unwrap_or_default();
    let result = Object::new();
    set_field(&result, "outputs", &outputs.into());
    let transport = net.inner().transport_stats();
    set_stats(&result, &output.stats, &output.online_stats, &output.preprocessing_stats, &transport);
    Ok(result.into())
}
