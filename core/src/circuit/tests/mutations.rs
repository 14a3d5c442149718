//! Random byte and line mutations of valid Bristol Fashion text never make the parser panic; when a
//! mutant still parses, it evaluates and round-trips, its digest differs from its seed's exactly
//! when the circuits differ, and errors name a line inside the text.

use crate::circuit::{Circuit, CircuitBuilder};
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
use std::cell::Cell;

/// A small valid circuit using every gate type, and an S-box circuit (about 120 lines).
fn seeds() -> Vec<String> {
    let small = "7 12\n2 2 2\n2 2 1\n\n4 2 0 1 2 3 4 5 MAND\n1 1 1 6 EQ\n1 1 4 7 INV\n\
                 2 1 5 7 8 XOR\n1 1 8 9 EQW\n2 1 9 6 10 AND\n2 1 10 0 11 XOR\n"
        .to_string();
    let mut b = CircuitBuilder::new();
    let x = b.input(8);
    let s = crate::circuit::sbox_bp::sbox(&mut b, x.try_into().expect("8 wires"));
    let sbox = b.finish(&[s.to_vec()]).expect("valid S-box circuit").to_bristol();
    vec![small, sbox]
}

#[derive(Debug, Clone)]
enum Mutation {
    SetByte(usize, u8),
    InsertByte(usize, u8),
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    InsertToken(usize, String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let interesting = prop::sample::select(b"0123456789 \n\r\t-+XORANDINVEQWMx\xff".to_vec());
    let byte = prop_oneof![interesting, any::<u8>()];
    let token = prop_oneof![
        Just("XOR".to_string()),
        Just("MAND".to_string()),
        Just("18446744073709551616".to_string()),
        Just("67108864".to_string()),
        "[0-9]{1,6}",
    ];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Mutation::SetByte(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Mutation::InsertByte(i, b)),
        any::<usize>().prop_map(Mutation::DeleteLine),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::SwapLines(i, j)),
        (any::<usize>(), token).prop_map(|(i, t)| Mutation::InsertToken(i, t)),
    ]
}

fn apply(text: &str, mutation: &Mutation) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let mut lines: Vec<&str> = text.split('\n').collect();
    let n = lines.len();
    match mutation {
        Mutation::SetByte(i, b) => bytes[i % text.len()] = *b,
        Mutation::InsertByte(i, b) => bytes.insert(i % (text.len() + 1), *b),
        Mutation::DeleteLine(i) => {
            return {
                lines.remove(i % n);
                lines.join("\n")
            }
        }
        Mutation::DuplicateLine(i) => {
            return {
                lines.insert(i % n, lines[i % n]);
                lines.join("\n")
            }
        }
        Mutation::SwapLines(i, j) => {
            return {
                lines.swap(i % n, j % n);
                lines.join("\n")
            }
        }
        Mutation::InsertToken(i, t) => {
            let at = i % (text.len() + 1);
            let mut out = text[..at].to_string();
            out.push(' ');
            out.push_str(t);
            out.push(' ');
            out.push_str(&text[at..]);
            return out;
        }
    }
    // Byte mutations may break UTF-8; the parser takes `&str`, so use the lossy text a caller would.
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn mutated_circuits_never_panic() {
    let seeds = seeds();
    let config = ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let strategy = (0..seeds.len(), prop::collection::vec(mutation(), 1..4));
    // Both outcomes must occur, or the mutations are too mild or too harsh to test anything.
    let (parsed, rejected) = (Cell::new(0usize), Cell::new(0usize));
    runner
        .run(&strategy, |(seed, mutations)| {
            let text = mutations.iter().fold(seeds[seed].clone(), |t, m| apply(&t, m));
            match Circuit::parse_bristol(&text) {
                Ok(circuit) => {
                    parsed.set(parsed.get() + 1);
                    let zeros: Vec<Vec<bool>> =
                        circuit.input_widths().iter().map(|&w| vec![false; w as usize]).collect();
                    let outputs = circuit.evaluate(&zeros).expect("widths match");
                    prop_assert_eq!(outputs.len(), circuit.output_widths().len());
                    let reparsed = Circuit::parse_bristol(&circuit.to_bristol()).expect("round trip");
                    prop_assert_eq!(reparsed.digest(), circuit.digest());
                    prop_assert_eq!(&reparsed, &circuit);
                    // The digest tells a mutant from its seed exactly when the circuits differ.
                    let seed_circuit = Circuit::parse_bristol(&seeds[seed]).expect("valid seed");
                    prop_assert_eq!(circuit.digest() == seed_circuit.digest(), circuit == seed_circuit);
                }
                Err(error) => {
                    rejected.set(rejected.get() + 1);
                    let line = error.line().expect("parse errors carry a line");
                    prop_assert!(
                        line >= 1 && line <= text.lines().count() + 1,
                        "line {} for {:?}",
                        line,
                        error
                    );
                    prop_assert!(!error.to_string().is_empty());
                }
            }
            Ok(())
        })
        .unwrap();
    let (parsed, rejected) = (parsed.get(), rejected.get());
    assert!(parsed > 0 && rejected > 0, "parsed {parsed}, rejected {rejected}");
}
