//! Circuit jobs' specs and inputs: the Bristol text, the protocol options of `evaluate`, and each
//! member's input values, one instance or a batch ([`super`] reads every other field).

use super::{
    code, index_list, mac_bits, malicious_only, number, ot_only, preprocessing, protocol_name,
    reject_foreign, security, string, Fields, Value,
};
use crate::error::BridgeError;
use chorus_core::circuit::Circuit;
use chorus_core::jobs::{CircuitInput, CircuitProtocol, CircuitSpec, Security};
use chorus_core::proto::tinytable::{IoSpec, Reveal};

/// Parses Bristol Fashion text; a parse error is a `config` error on `circuit` naming the line.
///
/// The last circuit parsed on this thread is kept: a job's text is read by the SDK's check and
/// again by the run (and in WASM by `parseCircuit` first), all on the JS thread, so one parse
/// serves them (large circuits take milliseconds to parse).
pub fn circuit(text: &str) -> Result<Circuit, BridgeError> {
    thread_local! {
        static LAST: std::cell::RefCell<Option<(String, Circuit)>> = const { std::cell::RefCell::new(None) };
    }
    LAST.with(|last| {
        if let Some((cached, circuit)) = &*last.borrow() {
            if cached == text {
                return Ok(circuit.clone());
            }
        }
        let circuit =
            Circuit::parse_bristol(text).map_err(|e| BridgeError::config("circuit", e.to_string()))?;
        *last.borrow_mut() = Some((text.to_owned(), circuit.clone()));
        Ok(circuit)
    })
}

/// Most instances one circuit job evaluates (the SDK documents the same number).
pub const MAX_INSTANCES: usize = 100_000;

/// The circuit job's spec: `{ protocol?, circuit: string, inputOwners: number[], reveal: number[],
/// instances?: number }` where `reveal[v]` is the party (0 or 1) that learns output value `v`, or
/// 2 for both, `instances` the number of evaluations (default 1, at most [`MAX_INSTANCES`]), and
/// the protocol's options — TinyTable (`protocol` absent or `'tinytable'`): `preprocessing?`,
/// `security?`, `macBits?`; MiniMac (`'minimac'`): `code?`, `preprocessing?`; Coral (`'coral'`):
/// `preprocessing?`; TinyOT (`'tinyot'`): `preprocessing?` (`'ot'` only). With `ring: 32 | 64` the text is a mixed circuit (Coral only; see
/// [`crate::mixed`]), each input and output value a k-bit integer.
pub fn circuit_spec(spec: &impl Fields) -> Result<CircuitSpec, BridgeError> {
    let protocol = match protocol_name(spec, "tinytable")?.as_str() {
        "tinytable" => {
            reject_foreign(spec, "tinytable", &["code"])?;
            let security = security(spec, Security::SemiHonest)?;
            CircuitProtocol::TinyTable {
                preprocessing: preprocessing(spec)?,
                security,
                mac_bits: mac_bits(spec, security)?,
            }
        }
        "minimac" => {
            reject_foreign(spec, "minimac", &["macBits"])?;
            malicious_only(spec, "MiniMac")?;
            CircuitProtocol::MiniMac { code: code(spec)?, preprocessing: preprocessing(spec)? }
        }
        "coral" => {
            reject_foreign(spec, "coral", &["macBits", "code"])?;
            malicious_only(spec, "Coral")?;
            CircuitProtocol::Coral { preprocessing: preprocessing(spec)? }
        }
        "tinyot" => {
            reject_foreign(spec, "tinyot", &["macBits", "code"])?;
            malicious_only(spec, "TinyOT")?;
            ot_only(spec)?;
            CircuitProtocol::TinyOt
        }
        other => {
            return Err(BridgeError::config(
                "protocol",
                format!("unknown circuit protocol {other:?}: 'tinytable', 'minimac', 'coral' or 'tinyot'"),
            ))
        }
    };
    let text =
        string(spec, "circuit")?.ok_or_else(|| BridgeError::config("circuit", "circuit is required"))?;
    let circuit = crate::mixed::job_circuit(spec, &text)?;
    let outputs = circuit.output_widths().len();
    let reveal = match spec.field("reveal")? {
        None => vec![Reveal::Both; outputs],
        Some(Value::List(entries)) => entries
            .iter()
            .enumerate()
            .map(|(i, entry)| match entry {
                Value::Str(s) if s == "both" => Ok(Reveal::Both),
                // Any party index: the job checks it against the computing parties.
                Value::Num(n) if n.fract() == 0.0 && (0.0..256.0).contains(n) => Ok(Reveal::To(*n as usize)),
                _ => {
                    Err(BridgeError::config("reveal", format!("reveal[{i}] must be 'both' or a party index")))
                }
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(BridgeError::config("reveal", "reveal must be an array of 'both' or party indices"))
        }
    };
    // A circuit of two input values has a natural owner for each; others must be told.
    let inputs = circuit.input_widths().len();
    let input_owners = match spec.field("inputOwners")? {
        None if inputs == 2 => vec![0, 1],
        None => {
            return Err(BridgeError::config(
                "inputOwners",
                format!("the circuit has {inputs} input values: say which party (0 or 1) owns each"),
            ))
        }
        Some(_) => index_list(spec, "inputOwners", Vec::new())?,
    };
    let instances = match number(spec, "instances")? {
        None => 1,
        Some(n) if n.fract() == 0.0 && n >= 1.0 && n <= MAX_INSTANCES as f64 => n as usize,
        Some(n) => {
            return Err(BridgeError::config(
                "instances",
                format!("instances must be an integer in 1..={MAX_INSTANCES}, got {n}"),
            ))
        }
    };
    Ok(CircuitSpec { protocol, circuit, io: IoSpec { input_owners, reveal }, instances })
}

/// This member's inputs: `{ values?: (Uint8Array | undefined)[] }` for a job of one instance, or
/// `{ instances: { values? }[] }` with one entry per instance of the spec — the input values
/// indexed by the circuit's input values (one byte, 0 or 1, per bit in wire order), given exactly
/// for the values `spec` says member `me` owns. Errors name `inputs[v]`, or
/// `instances[i].inputs[v]` for instance `i` of a batch.
pub fn circuit_input(
    input: &impl Fields,
    spec: &CircuitSpec,
    me: usize,
) -> Result<CircuitInput, BridgeError> {
    let dealer = spec.protocol.preprocessing().is_dealer(me);
    let Some(batch) = input.field("instances")? else {
        if spec.instances != 1 {
            return Err(BridgeError::config(
                "instances",
                format!("the spec has {} instances: give the inputs of each", spec.instances),
            ));
        }
        let values = instance_values(input.field("values")?, spec, me, "inputs")?;
        return Ok(CircuitInput { values: if dealer { Vec::new() } else { vec![values] } });
    };
    let Value::List(batch) = batch else {
        return Err(BridgeError::config("instances", "instances must be an array of { values } objects"));
    };
    if batch.len() != spec.instances {
        return Err(BridgeError::config(
            "instances",
            format!("{} instances of inputs given, the spec has {}", batch.len(), spec.instances),
        ));
    }
    let mut values = Vec::with_capacity(if dealer { 0 } else { batch.len() });
    for (i, entry) in batch.into_iter().enumerate() {
        let given = match entry {
            Value::List(list) => Some(Value::List(list)),
            Value::Absent => None,
            _ => {
                return Err(BridgeError::config(
                    &format!("instances[{i}]"),
                    "each instance's values are an array",
                ))
            }
        };
        let mine = instance_values(given, spec, me, &format!("instances[{i}].inputs"))?;
        if !dealer {
            values.push(mine);
        }
    }
    Ok(CircuitInput { values })
}

/// One instance's input values of member `me` (see [`circuit_input`]); errors name
/// `{prefix}[v]`.
fn instance_values(
    given: Option<Value>,
    spec: &CircuitSpec,
    me: usize,
    prefix: &str,
) -> Result<Vec<Vec<bool>>, BridgeError> {
    let given = match given {
        None => Vec::new(),
        Some(Value::List(values)) => values,
        Some(_) => return Err(BridgeError::config(prefix, "values must be an array of Uint8Array")),
    };
    let owners = &spec.io.input_owners;
    if given.len() > owners.len() {
        return Err(BridgeError::config(
            prefix,
            format!("{} input values given, the circuit has {}", given.len(), owners.len()),
        ));
    }
    let mut mine = Vec::new();
    for (v, &owner) in owners.iter().enumerate() {
        let field = format!("{prefix}[{v}]");
        match (given.get(v).unwrap_or(&Value::Absent), owner == me) {
            (Value::Absent, false) => {}
            (Value::Absent, true) => {
                return Err(BridgeError::config(
                    &field,
                    format!("party {me} owns input value {v} and must pass it"),
                ))
            }
            (_, false) if spec.protocol.preprocessing().is_dealer(me) => {
                return Err(BridgeError::config(&field, "the trusted dealer has no inputs"))
            }
            (_, false) => {
                return Err(BridgeError::config(&field, format!("input value {v} belongs to party {owner}")))
            }
            (Value::Bytes(bits), true) if bits.iter().all(|&b| b <= 1) => {
                mine.push(bits.iter().map(|&b| b == 1).collect());
            }
            (_, true) => {
                return Err(BridgeError::config(&field, "an input value is a Uint8Array of bits (0 or 1)"))
            }
        }
    }
    Ok(mine)
}
