//! Reading the plain JS objects the SDK passes (session configuration, job spec, inputs) into core
//! types. Every malformed field is a `config` [`BridgeError`] naming the field.

use crate::errors::BridgeError;
use chorus_core::aes::KeySize;
use chorus_core::circuit::Circuit;
use chorus_core::jobs::maestro_aes::{Direction, SboxVariant, DEFAULT_SECURITY, DEFAULT_VARIANT};
use chorus_core::jobs::tinytable::aes::AesPath;
use chorus_core::jobs::tinytable::MacBits;
use chorus_core::jobs::{
    AesInput, AesProtocol, AesSpec, CircuitInput, CircuitProtocol, CircuitSpec, Preprocessing, Security,
};
use chorus_core::net::secure::config::KEY_LEN;
use chorus_core::net::secure::{PrivateKey, PublicKey, SecureConfig};
use chorus_core::proto::minimac::CodeChoice;
use chorus_core::proto::tinytable::{IoSpec, Reveal};
use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

fn field(object: &JsValue, name: &str) -> Result<Option<JsValue>, BridgeError> {
    if !object.is_object() {
        return Err(BridgeError::config(name, "expected an object holding this field"));
    }
    let value =
        Reflect::get(object, &name.into()).map_err(|_| BridgeError::config(name, "could not be read"))?;
    Ok(if value.is_undefined() || value.is_null() { None } else { Some(value) })
}

fn bytes(object: &JsValue, name: &str) -> Result<Option<Vec<u8>>, BridgeError> {
    field(object, name)?
        .map(|v| {
            v.dyn_into::<Uint8Array>()
                .map(|a| a.to_vec())
                .map_err(|_| BridgeError::config(name, format!("{name} must be a Uint8Array")))
        })
        .transpose()
}

fn index(value: &JsValue, name: &str) -> Result<usize, BridgeError> {
    match value.as_f64() {
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= u32::MAX as f64 => Ok(n as usize),
        _ => Err(BridgeError::config(name, format!("{name} must be a non-negative integer"))),
    }
}

fn required_index(object: &JsValue, name: &str) -> Result<usize, BridgeError> {
    let value =
        field(object, name)?.ok_or_else(|| BridgeError::config(name, format!("{name} is required")))?;
    index(&value, name)
}

fn index_list(object: &JsValue, name: &str) -> Result<Vec<usize>, BridgeError> {
    let value =
        field(object, name)?.ok_or_else(|| BridgeError::config(name, format!("{name} is required")))?;
    if !Array::is_array(&value) {
        return Err(BridgeError::config(name, format!("{name} must be an array of party indices")));
    }
    Array::from(&value).iter().map(|v| index(&v, name)).collect()
}

fn key32(bytes: Vec<u8>, name: &str) -> Result<[u8; KEY_LEN], BridgeError> {
    bytes.try_into().map_err(|b: Vec<u8>| {
        BridgeError::config(name, format!("{name} must be {KEY_LEN} bytes, got {}", b.len()))
    })
}

/// `{ sessionId: Uint8Array, secret?: Uint8Array, privateKey?: Uint8Array, publicKeys?: Uint8Array[] }`:
/// `secret` selects `NNpsk0`, `privateKey` with `publicKeys` (one per party, in party order)
/// selects `KK`; exactly one of the two modes.
pub fn secure_config(session: &JsValue) -> Result<SecureConfig, BridgeError> {
    let session_id = bytes(session, "sessionId")?
        .ok_or_else(|| BridgeError::config("sessionId", "sessionId is required"))?;
    let secret = bytes(session, "secret")?;
    let private = bytes(session, "privateKey")?;
    let publics = field(session, "publicKeys")?;
    match (secret, private, publics) {
        (Some(secret), None, None) => Ok(SecureConfig::session_secret(&session_id, &secret)),
        (None, Some(private), Some(publics)) => {
            if !Array::is_array(&publics) {
                return Err(BridgeError::config("publicKeys", "publicKeys must be an array of Uint8Array"));
            }
            let public_keys = Array::from(&publics)
                .iter()
                .map(|k| {
                    let k = k
                        .dyn_into::<Uint8Array>()
                        .map_err(|_| BridgeError::config("publicKeys", "publicKeys must hold Uint8Arrays"))?;
                    key32(k.to_vec(), "publicKeys")
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

fn string(object: &JsValue, name: &str) -> Result<Option<String>, BridgeError> {
    field(object, name)?
        .map(|v| v.as_string().ok_or_else(|| BridgeError::config(name, format!("{name} must be a string"))))
        .transpose()
}

/// `security?: 'semi-honest' | 'malicious'` (default `default`).
fn security(spec: &JsValue, default: Security) -> Result<Security, BridgeError> {
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

/// `macBits?: 64 | 32` (default 64): the MAC width of malicious TinyTable.
fn mac_bits(spec: &JsValue) -> Result<MacBits, BridgeError> {
    match field(spec, "macBits")?.map(|v| v.as_f64()) {
        None | Some(Some(64.0)) => Ok(MacBits::K64),
        Some(Some(32.0)) => Ok(MacBits::K32),
        Some(_) => Err(BridgeError::config("macBits", "macBits must be 64 or 32")),
    }
}

/// `preprocessing?: 'ot' | 'dealer'` (default `ot`): where a two-party protocol's material comes
/// from.
fn preprocessing(spec: &JsValue) -> Result<Preprocessing, BridgeError> {
    match string(spec, "preprocessing")? {
        None => Ok(Preprocessing::default()),
        Some(name) => Preprocessing::from_name(&name).ok_or_else(|| {
            BridgeError::config("preprocessing", format!("unknown preprocessing {name:?}: 'ot' or 'dealer'"))
        }),
    }
}

/// Fails with a `config` error naming the first of `options` that `spec` sets: options of another
/// protocol than `protocol`.
fn reject_foreign(spec: &JsValue, protocol: &str, options: &[&str]) -> Result<(), BridgeError> {
    for &name in options {
        if field(spec, name)?.is_some() {
            return Err(BridgeError::config(
                name,
                format!("{name} is not an option of protocol '{protocol}'"),
            ));
        }
    }
    Ok(())
}

/// `variant?` (MAESTRO): `lut16` (default), `gf256-circuit`, `gf16-circuit`, `lut256`, `lut256-33`.
fn variant(spec: &JsValue) -> Result<SboxVariant, BridgeError> {
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
fn path(spec: &JsValue) -> Result<AesPath, BridgeError> {
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
fn code(spec: &JsValue) -> Result<CodeChoice, BridgeError> {
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
fn malicious_only(spec: &JsValue, protocol: &str) -> Result<(), BridgeError> {
    match security(spec, Security::Malicious)? {
        Security::Malicious => Ok(()),
        Security::SemiHonest => Err(BridgeError::config(
            "security",
            format!("{protocol} is malicious with abort only: drop security or pass 'malicious'"),
        )),
    }
}

/// `protocol?`: `maestro` (default for AES), `tinytable`, `minimac` or `coral`.
fn protocol_name(spec: &JsValue, default: &str) -> Result<String, BridgeError> {
    Ok(string(spec, "protocol")?.unwrap_or_else(|| default.to_string()))
}

/// The AES job's spec: `{ protocol?, blocks, keyHolders, plaintextOwner, revealTo, direction?,
/// keyBits? }` and the protocol's options — MAESTRO (`protocol` absent or `'maestro'`):
/// `variant?`, `security?` (default `malicious`); TinyTable (`'tinytable'`): `path?`,
/// `preprocessing?` (`'ot'` default, or `'dealer'`), `security?` (default `semi-honest`),
/// `macBits?`; MiniMac (`'minimac'`): `code?`, `preprocessing?`; Coral (`'coral'`):
/// `preprocessing?`. An option of another protocol is a `config` error naming it.
pub fn aes_spec(spec: &JsValue) -> Result<AesSpec, BridgeError> {
    let protocol = match protocol_name(spec, "maestro")?.as_str() {
        "maestro" => {
            reject_foreign(spec, "maestro", &["path", "preprocessing", "macBits", "code"])?;
            AesProtocol::Maestro { variant: variant(spec)?, security: security(spec, DEFAULT_SECURITY)? }
        }
        "tinytable" => {
            reject_foreign(spec, "tinytable", &["variant", "code"])?;
            AesProtocol::TinyTable {
                path: path(spec)?,
                preprocessing: preprocessing(spec)?,
                security: security(spec, Security::SemiHonest)?,
                mac_bits: mac_bits(spec)?,
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
        other => {
            return Err(BridgeError::config(
                "protocol",
                format!("unknown protocol {other:?}: 'maestro', 'tinytable', 'minimac' or 'coral'"),
            ))
        }
    };
    let key_size = match field(spec, "keyBits")?.map(|v| v.as_f64()) {
        None | Some(Some(128.0)) => KeySize::Aes128,
        Some(Some(192.0)) => KeySize::Aes192,
        Some(Some(256.0)) => KeySize::Aes256,
        Some(_) => return Err(BridgeError::config("keyBits", "keyBits must be 128, 192 or 256")),
    };
    let direction = match string(spec, "direction")? {
        None => Direction::Encrypt,
        Some(name) => Direction::from_name(&name).ok_or_else(|| {
            BridgeError::config("direction", format!("unknown direction {name:?}: 'encrypt' or 'decrypt'"))
        })?,
    };
    Ok(AesSpec {
        protocol,
        direction,
        key_size,
        blocks: required_index(spec, "blocks")?,
        key_holders: index_list(spec, "keyHolders")?,
        plaintext_owner: required_index(spec, "plaintextOwner")?,
        reveal_to: index_list(spec, "revealTo")?,
    })
}

/// `{ keyShare?: Uint8Array, plaintext?: Uint8Array }`.
pub fn aes_input(input: &JsValue) -> Result<AesInput, BridgeError> {
    Ok(AesInput { key_share: bytes(input, "keyShare")?, plaintext: bytes(input, "plaintext")? })
}

/// Parses Bristol Fashion text; a parse error is a `config` error on `circuit` naming the line.
pub fn circuit(text: &str) -> Result<Circuit, BridgeError> {
    Circuit::parse_bristol(text).map_err(|e| BridgeError::config("circuit", e.to_string()))
}

/// The circuit job's spec: `{ protocol?, circuit: string, inputOwners: number[], reveal: number[] }`
/// where `reveal[v]` is the party (0 or 1) that learns output value `v`, or 2 for both, and the
/// protocol's options — TinyTable (`protocol` absent or `'tinytable'`): `preprocessing?`,
/// `security?`, `macBits?`; MiniMac (`'minimac'`): `code?`, `preprocessing?`; Coral (`'coral'`):
/// `preprocessing?`. One instance.
pub fn circuit_spec(spec: &JsValue) -> Result<CircuitSpec, BridgeError> {
    let protocol = match protocol_name(spec, "tinytable")?.as_str() {
        "tinytable" => {
            reject_foreign(spec, "tinytable", &["code"])?;
            CircuitProtocol::TinyTable {
                preprocessing: preprocessing(spec)?,
                security: security(spec, Security::SemiHonest)?,
                mac_bits: mac_bits(spec)?,
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
        other => {
            return Err(BridgeError::config(
                "protocol",
                format!("unknown circuit protocol {other:?}: 'tinytable', 'minimac' or 'coral'"),
            ))
        }
    };
    let text =
        string(spec, "circuit")?.ok_or_else(|| BridgeError::config("circuit", "circuit is required"))?;
    let reveal = index_list(spec, "reveal")?
        .into_iter()
        .map(|p| match p {
            0 | 1 => Ok(Reveal::To(p)),
            2 => Ok(Reveal::Both),
            _ => Err(BridgeError::config("reveal", format!("reveal entries are 0, 1 or 2 (both), got {p}"))),
        })
        .collect::<Result<_, _>>()?;
    Ok(CircuitSpec {
        protocol,
        circuit: circuit(&text)?,
        io: IoSpec { input_owners: index_list(spec, "inputOwners")?, reveal },
        instances: 1,
    })
}

/// `{ values: Uint8Array[] }`: this party's input values in circuit order, one byte (0 or 1) per
/// bit in wire order; one instance.
pub fn circuit_input(input: &JsValue) -> Result<CircuitInput, BridgeError> {
    let Some(values) = field(input, "values")? else { return Ok(CircuitInput::default()) };
    if !Array::is_array(&values) {
        return Err(BridgeError::config("inputs", "values must be an array of Uint8Array"));
    }
    let values = Array::from(&values)
        .iter()
        .map(|v| {
            let bits = v
                .dyn_into::<Uint8Array>()
                .map_err(|_| BridgeError::config("inputs", "values must hold Uint8Arrays of bits"))?
                .to_vec();
            if bits.iter().any(|&b| b > 1) {
                return Err(BridgeError::config("inputs", "bits must be 0 or 1"));
            }
            Ok(bits.into_iter().map(|b| b == 1).collect())
        })
        .collect::<Result<Vec<Vec<bool>>, _>>()?;
    Ok(CircuitInput { values: vec![values] })
}
