//! Malformed Bristol Fashion text: every problem is a typed error with the right line, never a panic.

use super::support::shared_circuit_text;
use crate::circuit::{Circuit, CircuitError, ParseProblem, WireProblem, MAX_WIRES};

/// Inputs: a 2-bit value (wires 0, 1) and a 1-bit value (wire 2); output: a 2-bit value (wires 4, 5).
const HEADER: &str = "3 6\n2 2 1\n1 2\n\n";

fn parse_err(text: &str) -> (usize, ParseProblem) {
    match Circuit::parse_bristol(text) {
        Err(CircuitError::Parse { line, problem }) => (line, problem),
        other => panic!("expected a parse error for {text:?}, got {other:?}"),
    }
}

fn with_gates(gates: &str) -> String {
    format!("{HEADER}{gates}")
}

#[test]
fn the_base_circuit_is_valid() {
    let circuit = Circuit::parse_bristol(&with_gates("2 1 0 1 3 AND\n1 1 3 4 INV\n2 1 4 2 5 XOR\n")).unwrap();
    assert_eq!(circuit.gate_counts().total(), 3);
}

#[test]
fn empty_input() {
    assert_eq!(parse_err(""), (1, ParseProblem::Empty));
    assert_eq!(parse_err(" \n\n\t\n"), (1, ParseProblem::Empty));
}

#[test]
fn malformed_header() {
    assert!(matches!(parse_err("3\n"), (1, ParseProblem::TokenCount { expected: 2, found: 1, .. })));
    assert!(matches!(parse_err("3 6 7\n"), (1, ParseProblem::TokenCount { expected: 2, found: 3, .. })));
    assert!(
        matches!(parse_err("\n\n3 x\n"), (3, ParseProblem::NotANumber { ref token, .. }) if token == "x")
    );
    assert!(matches!(parse_err("-3 6\n"), (1, ParseProblem::NotANumber { .. })));
    assert!(matches!(parse_err("+3 6\n"), (1, ParseProblem::NotANumber { .. })));
    assert!(matches!(
        parse_err("3 99999999999999999999999\n"),
        (1, ParseProblem::TooLarge { value: u64::MAX, .. })
    ));
    let too_many_wires = format!("1 {}\n", MAX_WIRES + 1);
    assert!(matches!(parse_err(&too_many_wires), (1, ParseProblem::TooLarge { max: MAX_WIRES, .. })));
}

#[test]
fn missing_or_malformed_declarations() {
    assert!(matches!(parse_err("3 6\n"), (2, ParseProblem::UnexpectedEnd { .. })));
    assert!(matches!(parse_err("3 6\n2 2 1\n"), (3, ParseProblem::UnexpectedEnd { .. })));
    assert!(matches!(
        parse_err("3 6\n2 2\n1 2\n"),
        (2, ParseProblem::TokenCount { expected: 3, found: 2, .. })
    ));
    assert!(matches!(parse_err("3 6\n2 2 1\n1 2 2\n"), (3, ParseProblem::TokenCount { .. })));
    assert!(matches!(parse_err("3 6\n2 2 y\n1 2\n"), (2, ParseProblem::NotANumber { .. })));
    assert!(matches!(
        parse_err("3 6\n2 4 4\n1 2\n"),
        (2, ParseProblem::NotEnoughWires { needed: 8, num_wires: 6, .. })
    ));
    assert!(matches!(parse_err("3 6\n2 2 1\n1 7\n"), (3, ParseProblem::NotEnoughWires { needed: 7, .. })));
    assert!(matches!(parse_err("3 6\n1 99999999999\n"), (2, ParseProblem::TooLarge { .. })));
    assert!(matches!(parse_err("3 6\n18446744073709551615 1\n"), (2, ParseProblem::TokenCount { .. })));
}

#[test]
fn unknown_gates_and_wrong_arity() {
    let base = "2 1 0 1 3 AND\n1 1 3 4 INV\n";
    assert!(
        matches!(parse_err(&with_gates(&format!("{base}2 1 4 2 5 NAND\n"))), (7, ParseProblem::UnknownGate { ref name }) if name == "NAND")
    );
    assert!(matches!(
        parse_err(&with_gates(&format!("{base}2 1 4 2 5 xor\n"))),
        (7, ParseProblem::UnknownGate { .. })
    ));
    assert!(matches!(
        parse_err(&with_gates("1 1 0 3 AND\n")),
        (5, ParseProblem::WrongArity { gate: "AND", .. })
    ));
    assert!(matches!(
        parse_err(&with_gates("2 1 0 1 3 INV\n")),
        (5, ParseProblem::WrongArity { gate: "INV", .. })
    ));
    assert!(matches!(
        parse_err(&with_gates("2 1 0 1 3 EQW\n")),
        (5, ParseProblem::WrongArity { gate: "EQW", .. })
    ));
    assert!(matches!(
        parse_err(&with_gates("1 2 0 3 4 XOR\n")),
        (5, ParseProblem::WrongArity { gate: "XOR", .. })
    ));
    assert!(matches!(
        parse_err(&with_gates("3 1 0 1 2 3 MAND\n")),
        (5, ParseProblem::WrongArity { gate: "MAND", .. })
    ));
    assert!(matches!(
        parse_err(&with_gates("0 0 MAND\n")),
        (5, ParseProblem::WrongArity { gate: "MAND", .. })
    ));
}

#[test]
fn wrong_token_counts_on_gate_lines() {
    assert!(matches!(
        parse_err(&with_gates("2 1 0 1 AND\n")),
        (5, ParseProblem::TokenCount { expected: 6, found: 5, .. })
    ));
    assert!(matches!(parse_err(&with_gates("2 1 0 1 3 4 AND\n")), (5, ParseProblem::TokenCount { .. })));
    assert!(matches!(parse_err(&with_gates("AND\n")), (5, ParseProblem::TokenCount { .. })));
    assert!(matches!(
        parse_err(&with_gates("4000000000 2000000000 MAND\n")),
        (5, ParseProblem::TokenCount { .. })
    ));
    assert!(matches!(
        parse_err(&with_gates("18446744073709551615 18446744073709551615 0 MAND\n")),
        (5, ParseProblem::TokenCount { .. })
    ));
}

#[test]
fn bad_wire_references() {
    let wire = |text: &str| match parse_err(&with_gates(text)) {
        (line, ParseProblem::Wire(problem)) => (line, problem),
        other => panic!("expected a wire problem, got {other:?}"),
    };
    assert_eq!(wire("2 1 0 1 6 AND\n"), (5, WireProblem::OutOfRange { wire: 6, num_wires: 6 }));
    assert_eq!(
        wire("2 1 0 99999999999 3 AND\n"),
        (5, WireProblem::OutOfRange { wire: 99_999_999_999, num_wires: 6 })
    );
    assert_eq!(wire("2 1 0 4 3 AND\n"), (5, WireProblem::ReadBeforeWrite { wire: 4 }));
    // A cycle: 3 = f(4), 4 = f(3); in topological-order text it is a read before the write.
    assert_eq!(wire("2 1 0 4 3 XOR\n2 1 0 3 4 XOR\n"), (5, WireProblem::ReadBeforeWrite { wire: 4 }));
    assert_eq!(wire("2 1 0 1 3 AND\n\n2 1 0 1 3 XOR\n"), (7, WireProblem::WrittenTwice { wire: 3 }));
    assert_eq!(wire("2 1 0 1 2 AND\n"), (5, WireProblem::WrittenTwice { wire: 2 }));
    assert_eq!(wire("1 1 3 3 INV\n"), (5, WireProblem::ReadBeforeWrite { wire: 3 }));
    assert_eq!(wire("4 2 0 1 2 0 3 3 MAND\n"), (5, WireProblem::WrittenTwice { wire: 3 }));
    assert_eq!(wire("4 2 0 1 2 3 3 4 MAND\n"), (5, WireProblem::ReadBeforeWrite { wire: 3 }));
    assert!(matches!(
        parse_err(&with_gates("2 1 0 x1 3 AND\n")),
        (5, ParseProblem::NotANumber { what: "input wire", .. })
    ));
    assert!(matches!(
        parse_err(&with_gates("2 1 0 1 -3 AND\n")),
        (5, ParseProblem::NotANumber { what: "output wire", .. })
    ));
}

#[test]
fn constants() {
    assert!(matches!(
        parse_err(&with_gates("1 1 2 3 EQ\n")),
        (5, ParseProblem::ConstantNotABit { value: 2 })
    ));
    assert!(matches!(
        parse_err(&with_gates("1 1 a 3 EQ\n")),
        (5, ParseProblem::NotANumber { what: "EQ constant", .. })
    ));
}

#[test]
fn gate_count_mismatches() {
    let gates = "2 1 0 1 3 AND\n1 1 3 4 INV\n2 1 4 2 5 XOR\n";
    let more = with_gates(&format!("{gates}1 1 5 5 INV\n"));
    assert_eq!(parse_err(&more), (8, ParseProblem::CountMismatch { what: "gates", declared: 3, found: 4 }));
    let fewer = with_gates("2 1 0 1 3 AND\n1 1 3 4 INV\n\n");
    assert_eq!(parse_err(&fewer), (8, ParseProblem::CountMismatch { what: "gates", declared: 3, found: 2 }));
    let huge = "999999999999999 6\n2 2 1\n1 2\n2 1 0 1 5 AND\n";
    assert!(matches!(parse_err(huge), (5, ParseProblem::CountMismatch { found: 1, .. })));
}

#[test]
fn outputs_must_be_written() {
    let text = "2 6\n2 2 1\n1 2\n2 1 0 1 3 AND\n2 1 3 2 5 XOR\n";
    assert_eq!(parse_err(text), (6, ParseProblem::OutputNeverWritten { wire: 4 }));
}

#[test]
fn errors_display_the_line_number() {
    let message = Circuit::parse_bristol(&with_gates("2 1 0 1 3 NAND\n")).unwrap_err().to_string();
    assert!(message.contains("line 5") && message.contains("NAND"), "{message}");
}

#[test]
fn truncated_reference_circuit_is_rejected_with_a_line_number() {
    let text = shared_circuit_text("aes_128.txt");
    let complete = text.trim_end();
    let head = (0..8192).step_by(997);
    let tail = (complete.len().saturating_sub(8192)..complete.len()).step_by(997);
    let cuts: Vec<usize> = head.chain(tail).chain([1, 5, 12, complete.len() - 1]).collect();
    for cut in cuts {
        let prefix = &text[..cut];
        let error = Circuit::parse_bristol(prefix).expect_err("a truncated circuit must not parse");
        let line =
            error.line().unwrap_or_else(|| panic!("cut at {cut}: expected a parse error, got {error}"));
        assert!(line >= 1 && line <= prefix.lines().count() + 1, "cut at {cut}: line {line}");
    }
    assert!(Circuit::parse_bristol(complete).is_ok());
}
