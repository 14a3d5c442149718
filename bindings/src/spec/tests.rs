//! The readers against plain maps standing in for JS objects: defaults, every malformed field
//! named, and the circuit job's inputs.

use super::*;
use chorus_core::jobs::JobError;
use chorus_core::proto::tinytable::Reveal;
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
    assert_eq!(spec.protocol, AesProtocol::Maestro { variant: DEFAULT_VARIANT, security: DEFAULT_SECURITY });
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
    semi.extend([("protocol", Value::Str("coral".into())), ("security", Value::Str("semi-honest".into()))]);
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
    let dealt = [("protocol", Value::Str("minimac".into())), ("preprocessing", Value::Str("dealer".into()))];
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
    let pinned = [id.clone(), ("privateKey", Value::Bytes(vec![4; KEY_LEN])), ("publicKeys", keys.clone())];
    assert!(secure_config(&map(&pinned)).is_ok());
    let both =
        [id.clone(), ("secret", Value::Bytes(vec![1; 32])), ("privateKey", Value::Bytes(vec![4; KEY_LEN]))];
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
    let to_two = circuit_spec(&map(&[and.clone(), ("reveal", Value::List(vec![Value::Num(2.0)]))])).unwrap();
    assert!(matches!(to_two.validate(), Err(JobError::InvalidSpec { field: "reveal", .. })));
    assert_eq!(reveal(Value::Str("both".into())), "reveal");
    let parse = map(&[("circuit", Value::Str("not bristol".into()))]);
    assert_eq!(field_of(circuit_spec(&parse).unwrap_err()), "circuit");
}
