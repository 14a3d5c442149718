//! The two-party TinyTable jobs ([`chorus_core::jobs::tinytable`]) behind the bridge: parties 0
//! and 1 compute. With `preprocessing: 'ot'` (the default) they make their material between
//! themselves over OT and the session has two members; with `'dealer'` member 2 is the **trusted
//! dealer** (it knows every mask; see the core module's trust model). Same conventions as the
//! MAESTRO job: spec validated before the handshake, one job per bridge, errors as
//! [`BridgeError`]s.

use crate::convert;
use crate::errors::BridgeError;
use crate::js_network::{stats_to_js, JsNetwork, ProgressNetwork};
use crate::{job_rng, set_field};
use chorus_core::jobs::tinytable::{aes, circuit, Preprocessing, TinyTableJobError};
use chorus_core::net::secure::SecureNetwork;
use chorus_core::net::Network;
use js_sys::{Array, Function, Object, Uint8Array};
use wasm_bindgen::JsValue;

/// The session size `preprocessing` needs, checked before the handshake (the job checks it again).
fn check_members(network: &JsNetwork, preprocessing: Preprocessing) -> Result<(), BridgeError> {
    if network.parties() != preprocessing.members() {
        return Err(TinyTableJobError::WrongSessionSize { preprocessing, got: network.parties() }.into());
    }
    Ok(())
}

pub(crate) async fn run_aes(
    network: JsNetwork,
    session: JsValue,
    spec: JsValue,
    input: JsValue,
    on_progress: Option<Function>,
) -> Result<JsValue, BridgeError> {
    let config = convert::secure_config(&session)?;
    let spec = convert::tinytable_aes_spec(&spec)?;
    let input = convert::tinytable_aes_input(&input)?;
    spec.validate()?;
    check_members(&network, spec.preprocessing)?;
    let secure = SecureNetwork::establish(network, config).await?;
    let mut net = ProgressNetwork::new(secure, on_progress);
    let output = aes::run(&mut net, &spec, input, &mut job_rng()?).await?;
    let result = Object::new();
    if let Some(ciphertext) = &output.ciphertext {
        set_field(&result, "ciphertext", &Uint8Array::from(ciphertext.as_slice()).into());
    }
    set_field(&result, "stats", &stats_to_js(&output.stats));
    set_field(&result, "onlineStats", &stats_to_js(&output.online_stats));
    set_field(&result, "transportStats", &stats_to_js(&net.inner().transport_stats()));
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
    check_members(&network, spec.preprocessing)?;
    let secure = SecureNetwork::establish(network, config).await?;
    let mut net = ProgressNetwork::new(secure, on_progress);
    let output = circuit::run(&mut net, &spec, input, &mut job_rng()?).await?;
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
    set_field(&result, "stats", &stats_to_js(&output.stats));
    set_field(&result, "onlineStats", &stats_to_js(&output.online_stats));
    set_field(&result, "transportStats", &stats_to_js(&net.inner().transport_stats()));
    Ok(result.into())
}
