//! The command-line form of a circuit job's values (`chorus-party --circuit`), the same as the
//! TypeScript SDK's byte form so native and SDK members can share a job: a value of width `w` is
//! `⌈w/8⌉` bytes in hex, big-endian, whose bit `i` (counting from the least significant bit of
//! the last byte) is the value's `i`-th wire. An instances file has one line per instance with
//! this member's input values in circuit order, separated by white space. A mixed circuit
//! (`--ring`) is read from Summon's compiled circuit object ([`summon_mixed`]); its values are
//! k-bit integers in the same hex form.

use chorus_core::circuit::mixed::{MixedCircuit, MixedIo, RingBits};
use chorus_core::jobs::{JobCircuit, MixedJobCircuit};
use chorus_core::proto::tinytable::Reveal;
use serde_json::Value as Json;

/// A mixed circuit from Summon's circuit object compiled without boolify (`{ bristol, info }`:
/// the Bristol text with arithmetic gates, `info.constants` as `{ address, value }` and
/// `info.outputs` as `{ address }`), evaluated in Z_2^`ring`.
pub fn summon_mixed(json: &str, ring: u32) -> Result<JobCircuit, String> {
    let ring = match ring {
        32 => RingBits::K32,
        64 => RingBits::K64,
        other => return Err(format!("--ring must be 32 or 64, got {other}")),
    };
    let object: Json =
        serde_json::from_str(json).map_err(|e| format!("not a Summon circuit object (JSON): {e}"))?;
    let bristol = object["bristol"].as_str().ok_or("the circuit object has no `bristol` text")?;
    let list = |key: &str| -> Result<Vec<Json>, String> {
        match &object["info"][key] {
            Json::Null if key == "constants" => Ok(Vec::new()),
            Json::Array(items) => Ok(items.clone()),
            _ => Err(format!("the circuit object's info has no `{key}` array")),
        }
    };
    let number = |item: &Json, key: &str, what: String| {
        item[key].as_u64().ok_or_else(|| format!("{what} has no non-negative integer `{key}`"))
    };
    let constants = list("constants")?
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let value = match c["value"].as_i64() {
                // Negative constants as k-bit two's complement.
                Some(v) if v < 0 => v as u64 & ring.mask(),
                _ => number(c, "value", format!("constant {i}"))?,
            };
            Ok((number(c, "address", format!("constant {i}"))?, value))
        })
        .collect::<Result<_, String>>()?;
    let outputs = list("outputs")?
        .iter()
        .enumerate()
        .map(|(i, o)| number(o, "address", format!("output {i}")))
        .collect::<Result<_, String>>()?;
    let circuit = MixedCircuit::parse(bristol, &MixedIo { constants, outputs: Some(outputs) })
        .map_err(|e| e.to_string())?;
    // A `bool` input (the inputs are the first wires, so its address is its index) holds 0 or 1.
    let inputs = match &object["info"]["inputs"] {
        Json::Array(items) => items.clone(),
        _ => Vec::new(),
    };
    let bits = inputs
        .iter()
        .enumerate()
        .filter(|(_, input)| input["type"] == "bool")
        .map(|(i, input)| {
            number(input, "address", format!("input {i}"))
                .and_then(|a| u32::try_from(a).map_err(|_| format!("input {i}: address {a} out of range")))
        })
        .collect::<Result<_, String>>()?;
    let circuit = MixedJobCircuit::new(circuit, ring).with_bit_inputs(bits).map_err(|e| e.to_string())?;
    Ok(JobCircuit::Mixed(circuit))
}

/// The bits (wire order) of the `width`-bit value written as `hex`; errors name `what`.
pub fn value_bits(hex: &str, width: usize, what: &str) -> Result<Vec<bool>, String> {
    let bytes = hex::decode(hex).map_err(|e| format!("{what} is not hex: {e}"))?;
    let needed = width.div_ceil(8);
    if bytes.len() != needed {
        return Err(format!("{what} has {} bytes; a {width}-bit value takes {needed}", bytes.len()));
    }
    let bit = |i: usize| bytes[needed - 1 - i / 8] >> (i % 8) & 1 == 1;
    if (width..needed * 8).any(bit) {
        return Err(format!("{what} does not fit in {width} bits"));
    }
    Ok((0..width).map(bit).collect())
}

/// The hex form of a value's bits (wire order).
pub fn value_hex(bits: &[bool]) -> String {
    let n = bits.len().div_ceil(8);
    let mut bytes = vec![0u8; n];
    for (i, _) in bits.iter().enumerate().filter(|(_, &b)| b) {
        bytes[n - 1 - i / 8] |= 1 << (i % 8);
    }
    hex::encode(bytes)
}

/// The recipients of each of `outputs` output values: `both` (every party) or a party's index
/// each, or one entry for all of them; none means `both`. The job checks the index against the
/// session (two parties for boolean circuits, up to eight for mixed ones).
pub fn reveal(list: &[String], outputs: usize) -> Result<Vec<Reveal>, String> {
    let one = |s: &str| match (s, s.parse::<u8>()) {
        ("both", _) => Ok(Reveal::Both),
        (_, Ok(p)) => Ok(Reveal::To(usize::from(p))),
        (other, Err(_)) => {
            Err(format!("--outputs-to takes both or a party index per output value, got {other:?}"))
        }
    };
    match list {
        [] => Ok(vec![Reveal::Both; outputs]),
        [all] => Ok(vec![one(all)?; outputs]),
        each if each.len() == outputs => each.iter().map(|s| one(s)).collect(),
        each => {
            Err(format!("--outputs-to lists {} entries; the circuit has {outputs} output values", each.len()))
        }
    }
}

/// This member's (`me`) input values per instance from an instances file's `text`.
pub fn instances(
    text: &str,
    input_widths: &[u32],
    owners: &[usize],
    me: usize,
) -> Result<Vec<Vec<Vec<bool>>>, String> {
    let widths: Vec<usize> =
        input_widths.iter().zip(owners).filter(|(_, &owner)| owner == me).map(|(&w, _)| w as usize).collect();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return Err("the instances file has no instance".into());
    }
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let values: Vec<&str> = line.split_whitespace().collect();
            if values.len() != widths.len() {
                return Err(format!(
                    "instance {i}: {} values given; party {me} owns {} input values",
                    values.len(),
                    widths.len()
                ));
            }
            values
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(k, (v, &w))| value_bits(v, w, &format!("instance {i}, owned value {k}")))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_core::circuit::Circuit;

    #[test]
    fn values_round_trip_in_the_sdk_byte_order() {
        // 0x0102 over 16 wires: wire 1 (of 0x02) and wire 8 (of 0x01) are set.
        let bits = value_bits("0102", 16, "v").unwrap();
        let set: Vec<usize> = (0..16).filter(|&i| bits[i]).collect();
        assert_eq!(set, vec![1, 8]);
        assert_eq!(value_hex(&bits), "0102");
        assert_eq!(value_bits("05", 3, "v").unwrap(), vec![true, false, true]);
        assert_eq!(value_hex(&[true, false, true]), "05");
    }

    #[test]
    fn bad_values_name_what_is_wrong() {
        assert!(value_bits("zz", 8, "instance 2, owned value 0")
            .unwrap_err()
            .starts_with("instance 2, owned value 0 is not hex"));
        assert!(value_bits("0102", 8, "v").unwrap_err().contains("takes 1"));
        assert!(value_bits("08", 3, "v").unwrap_err().contains("does not fit in 3 bits"));
    }

    #[test]
    fn reveal_lists_and_instances_files_are_checked() {
        assert_eq!(reveal(&[], 2).unwrap(), vec![Reveal::Both; 2]);
        assert_eq!(reveal(&["1".into()], 2).unwrap(), vec![Reveal::To(1); 2]);
        assert_eq!(reveal(&["both".into(), "2".into()], 2).unwrap(), vec![Reveal::Both, Reveal::To(2)]);
        assert!(reveal(&["both".into(), "x".into()], 2).is_err());
        assert!(reveal(&vec!["0".to_string(); 3], 2).unwrap_err().contains("3 entries"));

        // out = a AND b, one bit each, a from party 0 and b from party 1.
        let circuit = Circuit::parse_bristol("1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n").unwrap();
        assert_eq!(
            instances("01\n00\n", circuit.input_widths(), &[0, 1], 0).unwrap(),
            vec![vec![vec![true]], vec![vec![false]]]
        );
        assert!(instances("", circuit.input_widths(), &[0, 1], 0).is_err());
        assert!(instances("01 01\n", circuit.input_widths(), &[0, 1], 1)
            .unwrap_err()
            .starts_with("instance 0: 2 values"));
    }

    #[test]
    fn summon_objects_give_mixed_circuits_and_bad_ones_name_the_problem() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../circuits/summon/arithmetic.json");
        let json = std::fs::read_to_string(path).unwrap();
        let JobCircuit::Mixed(m) = summon_mixed(&json, 64).unwrap() else { panic!("mixed") };
        // |a − b|, (a + b) / 2, (a & 255) + b % 16.
        assert_eq!(m.circuit().evaluate(&[1000, 24], RingBits::K64).unwrap(), vec![976, 512, 232 + 8]);
        assert_eq!(JobCircuit::Mixed(m).input_widths(), &[64, 64]);
        assert!(summon_mixed(&json, 16).unwrap_err().contains("--ring"));
        let choose = std::fs::read_to_string(path.replace("arithmetic", "choose")).unwrap();
        let JobCircuit::Mixed(m) = summon_mixed(&choose, 32).unwrap() else { panic!("mixed") };
        assert_eq!(m.bit_inputs(), &[0], "the bool input `flag`");
        assert!(summon_mixed("1 3\n", 32).unwrap_err().contains("JSON"));
        assert!(summon_mixed(r#"{"bristol": "x", "info": {}}"#, 32).unwrap_err().contains("outputs"));
        let bad =
            r#"{"bristol": "1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AAdd\n", "info": {"outputs": [{"address": 9}]}}"#;
        assert!(summon_mixed(bad, 32).unwrap_err().contains("output 0"));
    }
}
