//! Reading the plain JS objects the SDK passes (session configuration, job spec, inputs) into core
//! types, once for every binding: a binding implements [`Fields`] for its runtime's objects and
//! gets the same readers, defaults and messages. Every malformed field is a `config`
//! [`BridgeError`] naming the field.

use crate::error::BridgeError;
use chorus_core::aes::KeySize;
use chorus_core::jobs::options::{
    AesPath, Direction, MacBits, SboxVariant, DEFAULT_SECURITY, DEFAULT_VARIANT,
};
use chorus_core::jobs::{AesInput, AesProtocol, AesSpec, PreparedUse, Preprocessing, Security};
use chorus_core::net::secure::config::KEY_LEN;
use chorus_core::net::secure::{PrivateKey, PublicKey, SecureConfig};
use chorus_core::proto::minimac::CodeChoice;

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

mod circuit;
pub use circuit::{circuit, circuit_input, circuit_spec, MAX_INSTANCES};

#[cfg(test)]
pub(crate) mod tests;
