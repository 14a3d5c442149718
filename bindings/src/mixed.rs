//! The circuit of a circuit job as the SDK describes it: Bristol Fashion text alone (a boolean
//! circuit, [`crate::spec::circuit`]), or — with `ring: 32 | 64` — a mixed circuit of Summon's
//! arithmetic gates ([`chorus_core::circuit::mixed`]) with what its text leaves to Summon's
//! circuit info: `constants?: [wire, value][]` (value a safe integer or a decimal string, for
//! 64-bit constants) and `outputWires?: number[]` (the output values' wires; default the last
//! wires) and `bitInputs?: number[]` (the inputs that hold 0 or 1 — Summon's `bool` inputs —
//! which the protocol checks and may use as conditions). Errors are `config` errors on the field
//! at fault; parse errors name the line.

use crate::error::BridgeError;
use crate::spec::{Fields, Value};
use chorus_core::circuit::mixed::{MixedCircuit, MixedIo, RingBits};
use chorus_core::jobs::{JobCircuit, MixedJobCircuit};

/// The job's circuit from its text and the spec's `ring`, `constants`, `outputWires` and
/// `bitInputs`.
pub fn job_circuit(spec: &impl Fields, text: &str) -> Result<JobCircuit, BridgeError> {
    let ring = match spec.field("ring")? {
        None => {
            for field in ["constants", "outputWires", "bitInputs"] {
                if spec.field(field)?.is_some() {
                    return Err(BridgeError::config(
                        field,
                        format!("{field} belongs to a mixed circuit (ring: 32 or 64)"),
                    ));
                }
            }
            return Ok(JobCircuit::Boolean(crate::spec::circuit(text)?));
        }
        Some(Value::Num(32.0)) => RingBits::K32,
        Some(Value::Num(64.0)) => RingBits::K64,
        Some(_) => {
            return Err(BridgeError::config(
                "ring",
                "ring must be 32 or 64 (the bits of a mixed circuit's values)",
            ))
        }
    };
    let io = MixedIo {
        constants: constants(spec.field("constants")?)?,
        outputs: wires(spec.field("outputWires")?, "outputWires")?,
    };
    let circuit =
        MixedCircuit::parse(text, &io).map_err(|e| BridgeError::config("circuit", e.to_string()))?;
    let bits = wires(spec.field("bitInputs")?, "bitInputs")?.unwrap_or_default();
    // Past u32, an entry names no input: the job's check refuses it.
    let bits = bits.into_iter().map(|w| u32::try_from(w).unwrap_or(u32::MAX)).collect();
    Ok(JobCircuit::Mixed(MixedJobCircuit::new(circuit, ring).with_bit_inputs(bits)?))
}

/// A non-negative integer below 2^64: a safe integer or a decimal string.
fn integer(value: &Value) -> Option<u64> {
    match value {
        Value::Num(n) if *n >= 0.0 && n.fract() == 0.0 && *n <= 9_007_199_254_740_991.0 => Some(*n as u64),
        Value::Str(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => s.parse().ok(),
        _ => None,
    }
}

fn constants(given: Option<Value>) -> Result<Vec<(u64, u64)>, BridgeError> {
    let bad = |i: usize| {
        BridgeError::config(
            "constants",
            format!("constants[{i}] must be [wire, value] with non-negative integers (value below 2^64)"),
        )
    };
    match given {
        None => Ok(Vec::new()),
        Some(Value::List(entries)) => entries
            .iter()
            .enumerate()
            .map(|(i, entry)| match entry {
                Value::List(pair) if pair.len() == 2 => {
                    Ok((integer(&pair[0]).ok_or_else(|| bad(i))?, integer(&pair[1]).ok_or_else(|| bad(i))?))
                }
                _ => Err(bad(i)),
            })
            .collect(),
        Some(_) => Err(BridgeError::config("constants", "constants must be an array of [wire, value]")),
    }
}

/// A list of wire or input numbers in field `name`.
fn wires(given: Option<Value>, name: &'static str) -> Result<Option<Vec<u64>>, BridgeError> {
    match given {
        None => Ok(None),
        Some(Value::List(wires)) => wires
            .iter()
            .enumerate()
            .map(|(i, w)| {
                integer(w).ok_or_else(|| {
                    BridgeError::config(name, format!("{name}[{i}] must be a non-negative integer"))
                })
            })
            .collect::<Result<_, _>>()
            .map(Some),
        Some(_) => Err(BridgeError::config(name, format!("{name} must be an array of numbers"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::tests::{field_of, map};

    /// `a + 7` with the constant on wire 2 and the output on wire 3.
    const TEXT: &str = "1 4\n2 1 1\n1 1\n\n2 1 0 1 3 AAdd\n";

    #[test]
    fn a_ring_makes_the_text_a_mixed_circuit_with_its_constants_and_outputs() {
        let spec = map(&[
            ("ring", Value::Num(64.0)),
            (
                "constants",
                Value::List(vec![Value::List(vec![
                    Value::Num(2.0),
                    Value::Str("18446744073709551615".into()),
                ])]),
            ),
            ("outputWires", Value::List(vec![Value::Num(3.0)])),
        ]);
        let text = "1 4\n1 1\n1 1\n\n2 1 0 2 3 AAdd\n";
        let JobCircuit::Mixed(m) = job_circuit(&spec, text).unwrap() else { panic!("mixed") };
        assert_eq!(m.ring(), RingBits::K64);
        assert_eq!(m.circuit().constants, vec![(2, u64::MAX)]);
        assert_eq!(m.circuit().evaluate(&[5], RingBits::K64).unwrap(), vec![4]);
    }

    #[test]
    fn bad_mixed_fields_are_config_errors_on_the_field() {
        let ring = ("ring", Value::Num(32.0));
        assert_eq!(field_of(job_circuit(&map(&[("ring", Value::Num(16.0))]), TEXT).unwrap_err()), "ring");
        let constants =
            |c: Value| field_of(job_circuit(&map(&[ring.clone(), ("constants", c)]), TEXT).unwrap_err());
        assert_eq!(constants(Value::Str("x".into())), "constants");
        assert_eq!(
            constants(Value::List(vec![Value::List(vec![Value::Num(2.0), Value::Num(-1.0)])])),
            "constants"
        );
        assert_eq!(
            constants(Value::List(vec![Value::List(vec![Value::Num(2.0), Value::Str("1e3".into())])])),
            "constants"
        );
        let outputs =
            field_of(job_circuit(&map(&[ring.clone(), ("outputWires", Value::Num(3.0))]), TEXT).unwrap_err());
        assert_eq!(outputs, "outputWires");
        let bits = |b: Vec<Value>| job_circuit(&map(&[ring.clone(), ("bitInputs", Value::List(b))]), TEXT);
        let JobCircuit::Mixed(m) = bits(vec![Value::Num(1.0)]).unwrap() else { panic!("mixed") };
        assert_eq!(m.bit_inputs(), &[1]);
        assert_eq!(field_of(bits(vec![Value::Num(2.0)]).unwrap_err()), "bitInputs");
        assert_eq!(field_of(bits(vec![Value::Num(0.0), Value::Num(0.0)]).unwrap_err()), "bitInputs");
        // Without a ring the mixed fields are refused, and A-gates do not parse as Bristol.
        let stray = map(&[("outputWires", Value::List(vec![Value::Num(3.0)]))]);
        assert_eq!(field_of(job_circuit(&stray, TEXT).unwrap_err()), "outputWires");
        assert_eq!(field_of(job_circuit(&map(&[]), TEXT).unwrap_err()), "circuit");
        // A constant on an unused wire is fine; one on an input wire is a circuit error.
        let on_input = map(&[
            ring,
            ("constants", Value::List(vec![Value::List(vec![Value::Num(0.0), Value::Num(1.0)])])),
        ]);
        let e = job_circuit(&on_input, TEXT).unwrap_err();
        assert_eq!(field_of(e.clone()), "circuit");
        assert!(e.message.contains("constant on wire 0"), "{}", e.message);
    }
}
