//! Reading the plain JS objects the SDK passes (session configuration, job spec, inputs) into core
//! types, once for every binding: a binding implements [`Fields`] for its runtime's objects and
//! gets the same readers, defaults and messages. Every malformed field is a `config`
//! [`BridgeError`] naming the field.

use crate::error::BridgeError;
use chorus_core::aes::KeySize;
use chorus_core::circuit::Circuit;
use chorus_core::jobs::options::{
    AesPath, Direction, MacBits, SboxVariant, DEFAULT_SECURITY, DEFAULT_VARIANT,
};
use chorus_core::jobs::{
    AesInput, AesProtocol, AesSpec, CircuitInput, CircuitProtocol, CircuitSpec, PreparedUse, Preprocessing,
    Security,
};
use chorus_core::net::secure::config::KEY_LEN;
use chorus_core::net::secure::{PrivateKey, PublicKey, SecureConfig};
use chorus_core::proto::minimac::CodeChoice;
use chorus_core::proto::tinytable::{IoSpec, Reveal};

/// A JS value as the readers see it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A string.
    Str(String),
    /// A number.
    Num(f64),
    /// A `Uint8Array` (or Node `Buffer`), copied.
    Bytes(Vec<u8>),
    /// An array.
    List(Vec<Value>),
    /// `null` or `undefined` (as an array element; absent fields are `None`).
    Absent,
    /// Anything else (boolean, plain object, function, other typed array).
    Other,
}

/// A JS object whose fields the readers take apart.
pub trait Fields {
    /// Field `name`: `None` when absent, `undefined` or `null`; an error naming `name` when `self`
    /// is not an object or the field cannot be read.
    fn field(&self, name: &str) -> Result<Option<Value>, BridgeError>;
}

fn bytes(object: &impl Fields, name: &str) -> Result<Option<Vec<u8>>, BridgeError> {
    match object.field(name)? {
        None => Ok(None),
        Some(Value::Bytes(b)) => Ok(Some(b)),
        Some(_) => Err(BridgeError::config(name, format!("{name} must be a Uint8Array"))),
    }
}

fn number(object: &impl Fields, name: &str) -> Result<Option<f64>, BridgeError> {
    Ok(object.field(name)?.map(|v| if let Value::Num(n) = v { n } else { f64::NAN }))
}

fn index(value: &Value, name: &str) -> Result<usize, BridgeError> {
    match *value {
        Value::Num(n) if n >= 0.0 && n.fract() == 0.0 && n <= u32::MAX as f64 => Ok(n as usize),
        _ => Err(BridgeError::config(name, format!("{name} must be a non-negative integer"))),
    }
}

/// A list of party indices, or `default` when absent.
fn index_list(object: &impl Fields, name: &str, default: Vec<usize>) -> Result<Vec<usize>, BridgeError> {
    match object.field(name)? {
        None => Ok(default),
        Some(Value::List(values)) => values.iter().map(|v| index(v, name)).collect(),
        Some(_) => Err(BridgeError::config(name, format!("{name} must be an array of party indices"))),
    }
}

/// An index, or `default` when absent.
fn index_or(object: &impl Fields, name: &str, default: usize) -> Result<usize, BridgeError> {
    object.field(name)?.map_or(Ok(default), |v| index(&v, name))
}

fn key32(bytes: Vec<u8>, name: &str) -> Result<[u8; KEY_LEN], BridgeError> {
    bytes.try_into().map_err(|b: Vec<u8>| {
        BridgeError::config(name, format!("{name} must be {KEY_LEN} bytes, got {}", b.len()))
    })
}

/// `{ sessionId: Uint8Array, secret?: Uint8Array, privateKey?: Uint8Array, publicKeys?: Uint8Array[],
/// channel?: 'unauthenticated' }`: `secret` selects `NNpsk0`, `privateKey` with `publicKeys` (one per
/// party, in party order) selects `KK`, `channel: 'unauthenticated'` alone selects `NN`; exactly
/// one of the three modes.
pub fn secure_config(session: &impl Fields) -> Result<SecureConfig, BridgeError> {
    let session_id = bytes(session, "sessionId")?
        .ok_or_else(|| BridgeError::config("sessionId", "sessionId is required"))?;
    let secret = bytes(session, "secret")?;
    let private = bytes(session, "privateKey")?;
    let publics = session.field("publicKeys")?;
    match string(session, "channel")?.as_deref() {
        None => {}
        Some("unauthenticated") if secret.is_none() && private.is_none() && publics.is_none() => {
            return Ok(SecureConfig::unauthenticated(&session_id));
        }
        Some("unauthenticated") => {
            return Err(BridgeError::config(
                "channel",
                "an unauthenticated channel takes no secret and no keys",
            ));
        }
        Some(other) => {
            return Err(BridgeError::config(
                "channel",
                format!("channel must be 'unauthenticated' or absent, got {other:?}"),
            ));
        }
    }
    match (secret, private, publics) {
        (Some(secret), None, None) => Ok(SecureConfig::session_secret(&session_id, &secret)),
        (None, Some(private), Some(publics)) => {
            let Value::List(publics) = publics else {
                return Err(BridgeError::config("publicKeys", "publicKeys must be an array of Uint8Array"));
            };
            let public_keys = publics
                .into_iter()
                .map(|k| match k {
                    Value::Bytes(k) => key32(k, "publicKeys"),
                    _ => Err(BridgeError::config("publicKeys", "publicKeys must hold Uint8Arrays")),
                })
                .collect::<Result<Vec<PublicKey>, _>>()?;
            let private = PrivateKey::from_bytes(key32(private, "privateKey")?);
            Ok(SecureConfig::pinned_keys(&session_id, private, public_keys))
        }
        _ => Err(BridgeError::config(
            "secret",
            "give either a session secret, or a private key together with every party's public key",
        )),
    }
}

fn string(object: &impl Fields, name: &str) -> Result<Option<String>, BridgeError> {
    match object.field(name)? {
        None => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s)),
        Some(_) => Err(BridgeError::config(name, format!("{name} must be a string"))),
    }
}

/// `prepared?: 'auto' | 'require' | 'never'` (default `auto`): whether a job consumes the
/// session's prepared material (the SDK's `usePrepared` option: absent, `true`, `false`; errors
/// name it).
pub fn prepared_use(spec: &impl Fields) -> Result<PreparedUse, BridgeError> {
    match spec.field("prepared")? {
        None => Ok(PreparedUse::Auto),
        Some(Value::Str(s)) if s == "auto" => Ok(PreparedUse::Auto),
        Some(Value::Str(s)) if s == "require" => Ok(PreparedUse::Require),
        Some(Value::Str(s)) if s == "never" => Ok(PreparedUse::Never),
        Some(_) => Err(BridgeError::config("usePrepared", "usePrepared must be true, false or absent")),
    }
}

/// `security?: 'semi-honest' | 'malicious'` (default `default`).
fn security(spec: &impl Fields, default: Security) -> Result<Security, BridgeError> {
    match string(spec, "security")? {
        None => Ok(default),
        Some(name) => Security::from_name(&name).ok_or_else(|| {
            BridgeError::config(
                "security",
                format!("unknown security level {name:?}: 'semi-honest' or 'malicious'"),
            )
        }),
    }
}

/// `macBits?: 64 | 32` (default 64): the MAC width of malicious TinyTable, so only with
/// `security` malicious.
fn mac_bits(spec: &impl Fields, security: Security) -> Result<MacBits, BridgeError> {
    let bits = match number(spec, "macBits")? {
        None => return Ok(MacBits::K64),
        Some(64.0) => MacBits::K64,
        Some(32.0) => MacBits::K32,
        Some(_) => return Err(BridgeError::config("macBits", "macBits must be 64 or 32")),
    };
    match security {
        Security::Malicious => Ok(bits),
        Security::SemiHonest => {
            Err(BridgeError::config("macBits", "macBits sets the MAC width of security 'malicious'"))
        }
    }
}

/// `preprocessing?: 'ot' | 'dealer'` (default `ot`): where a two-party protocol's material comes
/// from.
fn preprocessing(spec: &impl Fields) -> Result<Preprocessing, BridgeError> {
    match string(spec, "preprocessing")? {
        None => Ok(Preprocessing::default()),
        Some(name) => Preprocessing::from_name(&name).ok_or_else(|| {
            BridgeError::config("preprocessing", format!("unknown preprocessing {name:?}: 'ot' or 'dealer'"))
        }),
    }
}

/// Fails with a `config` error naming the first of `options` that `spec` sets: options of another
/// protocol than `protocol`.
fn reject_foreign(spec: &impl Fields, protocol: &str, options: &[&str]) -> Result<(), BridgeError> {
    for &name in options {
        if spec.field(name)?.is_some() {
            return Err(BridgeError::config(
                name,
                format!("{name} is not an option of protocol '{protocol}'"),
            ));
        }
    }
    Ok(())
}

/// `variant?` (MAESTRO): `lut16` (default), `gf256-circuit`, `gf16-circuit`, `lut256`, `lut256-33`.
fn variant(spec: &impl Fields) -> Result<SboxVariant, BridgeError> {
    match string(spec, "variant")? {
        None => Ok(DEFAULT_VARIANT),
        Some(name) => SboxVariant::from_name(&name).ok_or_else(|| {
            BridgeError::config(
                "variant",
                format!(
                    "unknown MAESTRO variant {name:?}: 'gf256-circuit', 'gf16-circuit', 'lut16', 'lut256' or 'lut256-33'"
                ),
            )
        }),
    }
}

/// `path?` (TinyTable AES): `circuit` (default) or `sbox-tables`.
fn path(spec: &impl Fields) -> Result<AesPath, BridgeError> {
    match string(spec, "path")? {
        None => Ok(AesPath::default()),
        Some(name) => AesPath::from_name(&name).ok_or_else(|| {
            BridgeError::config(
                "path",
                format!("unknown TinyTable AES path {name:?}: 'circuit' or 'sbox-tables'"),
            )
        }),
    }
}

/// `code?` (MiniMac): `rs256-120-matrix` (default) or `rs255-85-fft`.
fn code(spec: &impl Fields) -> Result<CodeChoice, BridgeError> {
    match string(spec, "code")? {
        None => Ok(CodeChoice::DEFAULT),
        Some(name) => CodeChoice::from_name(&name).ok_or_else(|| {
            BridgeError::config(
                "code",
                format!("unknown MiniMac code {name:?}: 'rs256-120-matrix' or 'rs255-85-fft'"),
            )
        }),
    }
}

/// MiniMac and Coral run malicious with abort only: `security` may be absent or `malicious`.
fn malicious_only(spec: &impl Fields, protocol: &str) -> Result<(), BridgeError> {
    match security(spec, Security::Malicious)? {
        Security::Malicious => Ok(()),
        Security::SemiHonest => Err(BridgeError::config(
            "security",
            format!("{protocol} is malicious with abort only: drop security or pass 'malicious'"),
        )),
    }
}

/// TinyOT makes its material over OT among the members only: `preprocessing` may be absent or
/// `ot`.
fn ot_only(spec: &impl Fields) -> Result<(), BridgeError> {
    match preprocessing(spec)? {
        Preprocessing::Ot => Ok(()),
        Preprocessing::Dealer => Err(BridgeError::config(
            "preprocessing",
            "TinyOT makes its material over OT among the members, with no dealer: drop preprocessing or pass 'ot'",
        )),
    }
}

/// `protocol?`: `maestro` (default for AES), `tinytable`, `minimac`, `coral` or `tinyot`.
fn protocol_name(spec: &impl Fields, default: &str) -> Result<String, BridgeError> {
    Ok(string(spec, "protocol")?.unwrap_or_else(|| default.to_string()))
}

/// The AES job's spec: `{ protocol?, blocks, keyHolders, plaintextOwner, revealTo, direction?,
/// keyBits? }` and the protocol's options — MAESTRO (`protocol` absent or `'maestro'`):
/// `variant?`, `security?` (default `malicious`); TinyTable (`'tinytable'`): `path?`,
/// `preprocessing?` (`'ot'` default, or `'dealer'`), `security?` (default `semi-honest`),
/// `macBits?`; MiniMac (`'minimac'`): `code?`, `preprocessing?`; Coral (`'coral'`):
/// `preprocessing?`; TinyOT (`'tinyot'`): `preprocessing?` (`'ot'` only). An option of another
/// protocol is a `config` error naming it.
pub fn aes_spec(spec: &impl Fields) -> Result<AesSpec, BridgeError> {
    aes_spec_among(spec, 2)
}

/// [`aes_spec`] for a session of `parties` members (its role defaults depend on it where every
/// member computes: MiniMac and Coral over OT).
pub fn aes_spec_among(spec: &impl Fields, parties: usize) -> Result<AesSpec, BridgeError> {
    let protocol = match protocol_name(spec, "maestro")?.as_str() {
        "maestro" => {
            reject_foreign(spec, "maestro", &["path", "preprocessing", "macBits", "code"])?;
            AesProtocol::Maestro { variant: variant(spec)?, security: security(spec, DEFAULT_SECURITY)? }
        }
        "tinytable" => {
            reject_foreign(spec, "tinytable", &["variant", "code"])?;
            let security = security(spec, Security::SemiHonest)?;
            AesProtocol::TinyTable {
                path: path(spec)?,
                preprocessing: preprocessing(spec)?,
                security,
                mac_bits: mac_bits(spec, security)?,
            }
        }
        "minimac" => {
            reject_foreign(spec, "minimac", &["variant", "path", "macBits"])?;
            malicious_only(spec, "MiniMac")?;
            AesProtocol::MiniMac { code: code(spec)?, preprocessing: preprocessing(spec)? }
        }
        "coral" => {
            reject_foreign(spec, "coral", &["variant", "path", "macBits", "code"])?;
            malicious_only(spec, "Coral")?;
            AesProtocol::Coral { preprocessing: preprocessing(spec)? }
        }
        "tinyot" => {
            reject_foreign(spec, "tinyot", &["variant", "path", "macBits", "code"])?;
            malicious_only(spec, "TinyOT")?;
            ot_only(spec)?;
            AesProtocol::TinyOt
        }
        other => {
            return Err(BridgeError::config(
                "protocol",
                format!("unknown protocol {other:?}: 'maestro', 'tinytable', 'minimac', 'coral' or 'tinyot'"),
            ))
        }
    };
    let key_size = match number(spec, "keyBits")? {
        None | Some(128.0) => KeySize::Aes128,
        Some(192.0) => KeySize::Aes192,
        Some(256.0) => KeySize::Aes256,
        Some(_) => return Err(BridgeError::config("keyBits", "keyBits must be 128, 192 or 256")),
    };
    let direction = match string(spec, "direction")? {
        None => Direction::Encrypt,
        Some(name) => Direction::from_name(&name).ok_or_else(|| {
            BridgeError::config("direction", format!("unknown direction {name:?}: 'encrypt' or 'decrypt'"))
        })?,
    };
    // Roles default to the protocol's computing parties: MAESTRO's key shared by parties 0 and 1,
    // the plaintext from party 2; a two-party protocol's key at party 0, the plaintext from party
    // 1; the ciphertext to every computing party. MiniMac and Coral over OT compute with every
    // member: in a session of three or more, MAESTRO's layout (key shares from 0 and 1, plaintext
    // from the last).
    let computing =
        if protocol.every_member_computes() && parties > 2 { parties } else { protocol.computing_parties() };
    let key_holders = if computing >= 3 { vec![0, 1] } else { vec![0] };
    let blocks = index_or(spec, "blocks", 1)?;
    if blocks == 0 {
        return Err(BridgeError::config("blocks", "blocks must be a positive integer"));
    }
    Ok(AesSpec {
        protocol,
        direction,
        key_size,
        blocks,
        key_holders: index_list(spec, "keyHolders", key_holders)?,
        plaintext_owner: index_or(spec, "plaintextOwner", computing - 1)?,
        reveal_to: index_list(spec, "reveal", (0..computing).collect())?,
    })
}

/// `{ keyShare?: Uint8Array, plaintext?: Uint8Array }`.
pub fn aes_input(input: &impl Fields) -> Result<AesInput, BridgeError> {
    Ok(AesInput { key_share: bytes(input, "keyShare")?, plaintext: bytes(input, "plaintext")? })
}

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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use chorus_core::jobs::JobError;
    use std::collections::HashMap;

    /// A plain object as a map from field name to value.
    pub(crate) struct Map(HashMap<&'static str, Value>);

    impl Fields for Map {
        fn field(&self, name: &str) -> Result<Option<Value>, BridgeError> {
            Ok(self.0.get(name).cloned())
        }
    }

    pub(crate) fn map(entries: &[(&'static str, Value)]) -> Map {
        Map(entries.iter().cloned().collect())
    }

    fn indices(list: &[f64]) -> Value {
        Value::List(list.iter().map(|&n| Value::Num(n)).collect())
    }

    fn aes_base() -> Vec<(&'static str, Value)> {
        vec![
            ("blocks", Value::Num(4.0)),
            ("keyHolders", indices(&[0, 1].map(f64::from))),
            ("plaintextOwner", Value::Num(0.0)),
            ("reveal", indices(&[1.0])),
        ]
    }

    /// The field (or check) an error names.
    pub(crate) fn field_of(e: BridgeError) -> String {
        e.detail.unwrap_or_default()
    }

    #[test]
    fn an_aes_spec_gets_the_documented_defaults() {
        let spec = aes_spec(&map(&aes_base())).unwrap();
        assert_eq!(
            spec.protocol,
            AesProtocol::Maestro { variant: DEFAULT_VARIANT, security: DEFAULT_SECURITY }
        );
        assert_eq!((spec.blocks, spec.key_size, spec.direction), (4, KeySize::Aes128, Direction::Encrypt));
        assert_eq!((spec.key_holders, spec.reveal_to), (vec![0, 1], vec![1]));
        let mut coral = aes_base();
        coral.push(("protocol", Value::Str("coral".into())));
        assert_eq!(
            aes_spec(&map(&coral)).unwrap().protocol,
            AesProtocol::Coral { preprocessing: Preprocessing::Ot }
        );
    }

    #[test]
    fn bad_aes_fields_are_named() {
        let with = |extra: (&'static str, Value)| {
            let mut entries = aes_base();
            entries.push(extra);
            field_of(aes_spec(&map(&entries)).unwrap_err())
        };
        assert_eq!(with(("protocol", Value::Str("garbled".into()))), "protocol");
        assert_eq!(with(("keyBits", Value::Num(100.0))), "keyBits");
        assert_eq!(with(("keyBits", Value::Str("128".into()))), "keyBits");
        assert_eq!(with(("variant", Value::Str("lut9".into()))), "variant");
        assert_eq!(with(("blocks", Value::Num(-1.0))), "blocks");
        assert_eq!(with(("reveal", Value::Num(1.0))), "reveal");
        assert_eq!(with(("blocks", Value::Num(0.0))), "blocks");
        let mut minimac = aes_base();
        minimac.extend([("protocol", Value::Str("minimac".into())), ("macBits", Value::Num(32.0))]);
        let e = aes_spec(&map(&minimac)).unwrap_err();
        assert_eq!(e.message, "macBits is not an option of protocol 'minimac'");
        let mut semi = aes_base();
        semi.extend([
            ("protocol", Value::Str("coral".into())),
            ("security", Value::Str("semi-honest".into())),
        ]);
        assert_eq!(field_of(aes_spec(&map(&semi)).unwrap_err()), "security");
        let mut semi_k32 = aes_base();
        semi_k32.extend([("protocol", Value::Str("tinytable".into())), ("macBits", Value::Num(32.0))]);
        assert_eq!(field_of(aes_spec(&map(&semi_k32)).unwrap_err()), "macBits");
    }

    #[test]
    fn aes_roles_default_to_the_protocols_computing_parties() {
        let maestro = aes_spec(&map(&[])).unwrap();
        assert_eq!(maestro.blocks, 1);
        assert_eq!(
            (maestro.key_holders, maestro.plaintext_owner, maestro.reveal_to),
            (vec![0, 1], 2, vec![0, 1, 2])
        );
        let two = aes_spec(&map(&[("protocol", Value::Str("tinytable".into()))])).unwrap();
        assert_eq!((two.key_holders, two.plaintext_owner, two.reveal_to), (vec![0], 1, vec![0, 1]));
        // MiniMac and Coral over OT compute with every member: among four, MAESTRO's layout over
        // all four; beside MiniMac's dealer, the two parties' layout.
        for name in ["coral", "minimac"] {
            let ot = [("protocol", Value::Str(name.into()))];
            let four = aes_spec_among(&map(&ot), 4).unwrap();
            assert_eq!(
                (four.key_holders, four.plaintext_owner, four.reveal_to),
                (vec![0, 1], 3, vec![0, 1, 2, 3]),
                "{name}"
            );
            let pair = aes_spec_among(&map(&ot), 2).unwrap();
            assert_eq!((pair.key_holders, pair.plaintext_owner, pair.reveal_to), (vec![0], 1, vec![0, 1]));
        }
        let dealt =
            [("protocol", Value::Str("minimac".into())), ("preprocessing", Value::Str("dealer".into()))];
        let three = aes_spec_among(&map(&dealt), 3).unwrap();
        assert_eq!((three.key_holders, three.plaintext_owner, three.reveal_to), (vec![0], 1, vec![0, 1]));
    }

    #[test]
    fn an_unauthenticated_channel_is_asked_for_by_name_and_alone() {
        use chorus_core::net::secure::ChannelMode;
        let id = ("sessionId", Value::Bytes(b"s".to_vec()));
        let nn = [id.clone(), ("channel", Value::Str("unauthenticated".into()))];
        assert_eq!(secure_config(&map(&nn)).unwrap().mode(), ChannelMode::Nn);
        let with_secret = [nn[0].clone(), nn[1].clone(), ("secret", Value::Bytes(vec![1; 32]))];
        assert_eq!(field_of(secure_config(&map(&with_secret)).unwrap_err()), "channel");
        let other = [id.clone(), ("channel", Value::Str("plain".into()))];
        assert_eq!(field_of(secure_config(&map(&other)).unwrap_err()), "channel");
        assert_eq!(field_of(secure_config(&map(&[id])).unwrap_err()), "secret");
    }

    #[test]
    fn a_session_has_a_secret_or_pinned_keys_not_both() {
        let id = ("sessionId", Value::Bytes(vec![7; 8]));
        assert!(secure_config(&map(&[id.clone(), ("secret", Value::Bytes(vec![1; 32]))])).is_ok());
        let keys = Value::List(vec![Value::Bytes(vec![2; KEY_LEN]), Value::Bytes(vec![3; KEY_LEN])]);
        let pinned =
            [id.clone(), ("privateKey", Value::Bytes(vec![4; KEY_LEN])), ("publicKeys", keys.clone())];
        assert!(secure_config(&map(&pinned)).is_ok());
        let both = [
            id.clone(),
            ("secret", Value::Bytes(vec![1; 32])),
            ("privateKey", Value::Bytes(vec![4; KEY_LEN])),
        ];
        assert_eq!(field_of(secure_config(&map(&both)).unwrap_err()), "secret");
        let short = [id.clone(), ("privateKey", Value::Bytes(vec![4; 5])), ("publicKeys", keys)];
        assert_eq!(field_of(secure_config(&map(&short)).unwrap_err()), "privateKey");
        let text = [id, ("secret", Value::Str("hunter2".into()))];
        assert_eq!(secure_config(&map(&text)).unwrap_err().message, "secret must be a Uint8Array");
        assert_eq!(field_of(secure_config(&map(&[])).unwrap_err()), "sessionId");
    }

    #[test]
    fn circuit_inputs_are_bits_of_the_values_a_party_owns() {
        // One AND gate of two 1-bit inputs; the defaults give value 0 to party 0, 1 to party 1.
        let and = ("circuit", Value::Str("1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n".into()));
        let spec = circuit_spec(&map(std::slice::from_ref(&and))).unwrap();
        assert_eq!((spec.io.input_owners.clone(), spec.io.reveal.clone()), (vec![0, 1], vec![Reveal::Both]));
        let values = |v: Vec<Value>| map(&[("values", Value::List(v))]);
        let mine = values(vec![Value::Bytes(vec![1])]);
        assert_eq!(circuit_input(&mine, &spec, 0).unwrap().values, vec![vec![vec![true]]]);
        let theirs = values(vec![Value::Bytes(vec![1]), Value::Bytes(vec![0])]);
        assert_eq!(circuit_input(&theirs, &spec, 0).unwrap_err().detail.as_deref(), Some("inputs[1]"));
        assert_eq!(circuit_input(&map(&[]), &spec, 1).unwrap_err().detail.as_deref(), Some("inputs[1]"));
        let two = values(vec![Value::Bytes(vec![2])]);
        assert_eq!(field_of(circuit_input(&two, &spec, 0).unwrap_err()), "inputs[0]");
        let reveal = |r: Value| field_of(circuit_spec(&map(&[and.clone(), ("reveal", r)])).unwrap_err());
        assert_eq!(reveal(Value::List(vec![Value::Num(0.5)])), "reveal");
        // Any party index parses; the spec's protocol checks it (TinyTable: parties 0 and 1).
        let to_two =
            circuit_spec(&map(&[and.clone(), ("reveal", Value::List(vec![Value::Num(2.0)]))])).unwrap();
        assert!(matches!(to_two.validate(), Err(JobError::InvalidSpec { field: "reveal", .. })));
        assert_eq!(reveal(Value::Str("both".into())), "reveal");
        let parse = map(&[("circuit", Value::Str("not bristol".into()))]);
        assert_eq!(field_of(circuit_spec(&parse).unwrap_err()), "circuit");
    }
}
