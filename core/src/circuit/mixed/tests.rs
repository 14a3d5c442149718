//! Mixed circuits: integer programs (sums, products, comparisons, a dot product, a sort of 8
//! numbers) against plain Rust arithmetic in Z_{2^32} and Z_{2^64}; every operation against the
//! native integer operations of that width (property test); gate counts by kind; and typed errors
//! with line numbers for malformed text, constants and inputs.

use super::*;
use crate::circuit::error::{ParseProblem, WireProblem};
use proptest::prelude::*;
use std::fmt::Write;

/// Constants without output addresses (the last wires are the outputs).
pub(crate) fn io(constants: &[(u64, u64)]) -> MixedIo {
    MixedIo { constants: constants.to_vec(), outputs: None }
}

/// Text of a circuit with `inputs` inputs, the gate lines `gates` (`(op, a, b, out)`, `b` unused
/// for unary gates) and the last `outputs` wires of `wires` as outputs.
pub(crate) fn text(wires: u32, inputs: usize, outputs: usize, gates: &[(MixedOp, u32, u32, u32)]) -> String {
    let mut t = format!(
        "{} {wires}\n{inputs}{}\n{outputs}{}\n\n",
        gates.len(),
        " 1".repeat(inputs),
        " 1".repeat(outputs)
    );
    for &(op, a, b, out) in gates {
        let _ = if op.arity() == 1 {
            writeln!(t, "1 1 {a} {out} {}", op.name())
        } else {
            writeln!(t, "2 1 {a} {b} {out} {}", op.name())
        };
    }
    t
}

#[test]
fn summons_arithmetic_form_of_an_addition_parses_and_evaluates() {
    // The arithmetic circuit boolify's README shows: one AAdd gate.
    let c = MixedCircuit::parse("1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AAdd\n", &MixedIo::default()).expect("parses");
    assert_eq!(c.evaluate(&[5, 7], RingBits::K32), Ok(vec![12]));
    assert_eq!(c.evaluate(&[u64::from(u32::MAX), 2], RingBits::K32), Ok(vec![1]));
    assert_eq!(c.evaluate(&[u64::MAX, 2], RingBits::K64), Ok(vec![1]));
    assert_eq!(c.counts(), MixedCounts { linear: 1, multiplications: 0, boolean: 0 });
}

/// What `summon-ts` (npm, `compile` without `boolifyWidth`) emitted for
///
/// ```ts
/// const a = io.input("alice", "a", summon.number());
/// const b = io.input("bob", "b", summon.number());
/// const c = io.input("bob", "c", summon.number());
/// const dot = a * b + c * 3;
/// io.outputPublic("dot", dot);
/// io.outputPublic("bigger", a > b ? a : b);
/// io.outputPublic("q", (dot - 7) / (c + 1));
/// ```
///
/// with its circuit info's constants (3 at wire 4, 7 at 10, 1 at 12) and output addresses (9, 14,
/// 15 — not the last three wires).
const SUMMON_PROGRAM: &str = "10 16\n3 1 1 1\n3 1 1 1\n\n2 1 0 1 3 AMul\n2 1 2 4 5 AMul\n2 1 0 1 6 AGt\n\
    2 1 0 1 7 AXor\n2 1 6 7 8 AMul\n2 1 3 5 9 AAdd\n2 1 9 10 11 ASub\n2 1 2 12 13 AAdd\n2 1 1 8 14 AXor\n\
    2 1 11 13 15 ADiv\n";

#[test]
fn a_program_compiled_by_summon_parses_and_evaluates() {
    let io = MixedIo { constants: vec![(4, 3), (10, 7), (12, 1)], outputs: Some(vec![9, 14, 15]) };
    let c = MixedCircuit::parse(SUMMON_PROGRAM, &io).expect("parses");
    assert_eq!(c.counts(), MixedCounts { linear: 3, multiplications: 3, boolean: 4 });
    for (a, b, cc) in [(5u64, 9u64, 2u64), (12, 4, 0), (1000, 999, 6)] {
        let dot = a * b + cc * 3;
        let want = vec![dot, a.max(b), (dot - 7) / (cc + 1)];
        assert_eq!(c.evaluate(&[a, b, cc], RingBits::K32), Ok(want.clone()), "{a} {b} {cc}");
        assert_eq!(c.evaluate(&[a, b, cc], RingBits::K64), Ok(want), "{a} {b} {cc}");
    }
    // Under Bristol's convention (outputs = the last wires) the same text means something else.
    let last = MixedCircuit::parse(SUMMON_PROGRAM, &MixedIo { outputs: None, ..io.clone() }).expect("parses");
    assert_eq!(last.outputs, vec![13, 14, 15]);
    // Output addresses: a wrong count, a wire never written.
    let bad = |outputs: Vec<u64>| {
        MixedCircuit::parse(SUMMON_PROGRAM, &MixedIo { outputs: Some(outputs), ..io.clone() })
    };
    assert!(matches!(bad(vec![9, 14]), Err(MixedCircuitError::Output { index: 2, .. })));
    assert!(matches!(bad(vec![9, 14, 99]), Err(MixedCircuitError::Output { index: 2, .. })));
}

#[test]
fn integer_programs_match_plain_arithmetic() {
    use MixedOp::*;
    // Dot product of length 3 (inputs x0..x2 y0..y2) and a comparison of it with a constant 100.
    // Wires: 0..6 inputs, 6 the constant, 7..9 products, 10..11 sums, 12 the comparison, then
    // the outputs (dot, dot > 100) copied to the last wires.
    let gates = [
        (Mul, 0, 3, 7),
        (Mul, 1, 4, 8),
        (Mul, 2, 5, 9),
        (Add, 7, 8, 10),
        (Add, 10, 9, 11),
        (Gt, 11, 6, 12),
        (UnaryAdd, 11, 0, 13),
        (UnaryAdd, 12, 0, 14),
    ];
    let c = MixedCircuit::parse(&text(15, 6, 2, &gates), &io(&[(6, 100)])).expect("parses");
    assert_eq!(c.counts(), MixedCounts { linear: 4, multiplications: 3, boolean: 1 });
    for (xs, ring) in [([3u64, 4, 5, 6, 7, 8], RingBits::K32), ([1, 2, 3, 4, 5, 6], RingBits::K64)] {
        let dot = xs[0] * xs[3] + xs[1] * xs[4] + xs[2] * xs[5];
        assert_eq!(c.evaluate(&xs, ring), Ok(vec![dot, u64::from(dot > 100)]), "{xs:?}");
    }
}

/// An odd-even transposition sort of `n` inputs: each compare-exchange takes `lt = a < b`,
/// `min = b + lt·(a − b)` and `max = a + b − min` (5 gates).
fn sorting_circuit(n: u32) -> MixedCircuit {
    use MixedOp::*;
    let mut gates = Vec::new();
    let mut current: Vec<u32> = (0..n).collect();
    let mut next_wire = n;
    let mut fresh = || {
        next_wire += 1;
        next_wire - 1
    };
    for round in 0..n {
        for i in ((round % 2)..n - 1).step_by(2) {
            let (a, b) = (current[i as usize], current[i as usize + 1]);
            let (lt, diff, scaled, min, sum, max) = (fresh(), fresh(), fresh(), fresh(), fresh(), fresh());
            gates.extend([(Lt, a, b, lt), (Sub, a, b, diff), (Mul, lt, diff, scaled), (Add, b, scaled, min)]);
            gates.extend([(Add, a, b, sum), (Sub, sum, min, max)]);
            current[i as usize] = min;
            current[i as usize + 1] = max;
        }
    }
    for &w in &current.clone() {
        let out = fresh();
        gates.push((UnaryAdd, w, 0, out));
    }
    MixedCircuit::parse(&text(next_wire, n as usize, n as usize, &gates), &MixedIo::default())
        .expect("parses")
}

#[test]
fn a_sorting_network_sorts_eight_numbers() {
    let c = sorting_circuit(8);
    assert_eq!(c.counts().boolean, 28, "8 rounds of 4 or 3 compare-exchanges");
    let mut rng = <rand_chacha::ChaCha20Rng as rand_core::SeedableRng>::seed_from_u64(8);
    for ring in [RingBits::K32, RingBits::K64] {
        for _ in 0..50 {
            let xs: Vec<u64> = (0..8).map(|_| rand_core::RngCore::next_u64(&mut rng) & ring.mask()).collect();
            let mut sorted = xs.clone();
            sorted.sort_unstable();
            assert_eq!(c.evaluate(&xs, ring), Ok(sorted));
        }
    }
}

/// The operation on native integers of the ring's width (an independent statement of the
/// semantics in the module docs).
fn native(op: MixedOp, a: u64, b: u64, ring: RingBits) -> u64 {
    use MixedOp::*;
    macro_rules! width {
        ($t:ty) => {{
            let (a, b) = (a as $t, b as $t);
            let shift = |b: $t| u32::try_from(b).ok().filter(|&s| s < <$t>::BITS);
            (match op {
                Add => a.wrapping_add(b),
                Sub => a.wrapping_sub(b),
                Mul => a.wrapping_mul(b),
                UnaryAdd => a,
                UnarySub => a.wrapping_neg(),
                Div => {
                    if b == 0 {
                        <$t>::MAX
                    } else {
                        a / b
                    }
                }
                Mod => {
                    if b == 0 {
                        a
                    } else {
                        a % b
                    }
                }
                Exp => a.wrapping_pow(b.min(u32::MAX as $t) as u32),
                Eq => (a == b) as $t,
                Neq => (a != b) as $t,
                Lt => (a < b) as $t,
                LEq => (a <= b) as $t,
                Gt => (a > b) as $t,
                GEq => (a >= b) as $t,
                BoolAnd => (a != 0 && b != 0) as $t,
                BoolOr => (a != 0 || b != 0) as $t,
                Not => (a == 0) as $t,
                BitAnd => a & b,
                BitOr => a | b,
                Xor => a ^ b,
                BitNot => !a,
                ShiftL => shift(b).map_or(0, |s| a << s),
                ShiftR => shift(b).map_or(0, |s| a >> s),
            }) as u64
        }};
    }
    match ring {
        RingBits::K32 => width!(u32),
        RingBits::K64 => width!(u64),
    }
}

proptest! {
    #[test]
    fn every_operation_matches_the_native_integers(
        op in 0..MixedOp::ALL.len(),
        a in any::<u64>(),
        b in prop_oneof![any::<u64>(), 0u64..70],
        wide in any::<bool>(),
    ) {
        let (op, name) = MixedOp::ALL[op];
        prop_assert_eq!(MixedOp::from_name(name), Some(op));
        let ring = if wide { RingBits::K64 } else { RingBits::K32 };
        // `AExp` with a huge exponent: the native `pow` takes u32 exponents, so keep b small there.
        let b = if op == MixedOp::Exp { b % 1000 } else { b };
        let (a, b) = (a & ring.mask(), b & ring.mask());
        let c = MixedCircuit::parse(&text(3, 2, 1, &[(op, 0, if op.arity() == 1 { 0 } else { 1 }, 2)]), &MixedIo::default()).unwrap();
        prop_assert_eq!(c.evaluate(&[a, b], ring), Ok(vec![native(op, a, b, ring)]), "{} {} {}", name, a, b);
    }
}

#[test]
fn malformed_text_constants_and_inputs_are_typed_errors_with_line_numbers() {
    let parse_err = |t: &str, constants: &[(u64, u64)]| MixedCircuit::parse(t, &io(constants)).unwrap_err();
    let at = |line: usize, problem: MixedProblem| MixedCircuitError::Parse { line, problem };
    // A width of 32 on an input: the boolean form, not a mixed circuit.
    assert_eq!(
        parse_err("1 40\n\n2 32 1\n1 1\n2 1 0 1 2 AAdd\n", &[]),
        at(3, MixedProblem::Width { what: "input", index: 0, width: 32 })
    );
    assert_eq!(
        parse_err("1 12\n2 1 1\n1 8\n2 1 0 1 2 AAdd\n", &[]),
        at(3, MixedProblem::Width { what: "output", index: 0, width: 8 })
    );
    // Boolean gate names are not arithmetic gates.
    assert_eq!(
        parse_err("1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n", &[]),
        at(5, MixedProblem::UnknownGate { name: "AND".into() })
    );
    assert_eq!(
        parse_err("1 3\n2 1 1\n1 1\n1 1 0 2 AAdd\n", &[]),
        at(4, MixedProblem::Arity { gate: "AAdd", expected: 2, found_in: 1, found_out: 1 })
    );
    // Reading a wire before it is written; a missing gate; an output never written.
    assert_eq!(
        parse_err("1 4\n2 1 1\n1 1\n2 1 0 2 3 AMul\n", &[]),
        at(4, MixedProblem::Bristol(ParseProblem::Wire(WireProblem::ReadBeforeWrite { wire: 2 })))
    );
    assert_eq!(
        parse_err("2 4\n2 1 1\n1 1\n2 1 0 1 3 AMul\n", &[]),
        at(5, MixedProblem::Bristol(ParseProblem::CountMismatch { what: "gates", declared: 2, found: 1 }))
    );
    assert_eq!(
        parse_err("1 4\n2 1 1\n1 1\n2 1 0 1 2 AMul\n", &[]),
        at(5, MixedProblem::Bristol(ParseProblem::OutputNeverWritten { wire: 3 }))
    );
    assert!(matches!(
        parse_err("", &[]),
        MixedCircuitError::Parse { line: 1, problem: MixedProblem::Bristol(ParseProblem::Empty) }
    ));
    // Constants: on an input, out of range, twice.
    let one = "1 4\n1 1\n1 1\n2 1 0 1 3 AAdd\n";
    assert_eq!(
        parse_err(one, &[(0, 1)]),
        MixedCircuitError::Constant { wire: 0, reason: "the wire is an input" }
    );
    assert_eq!(
        parse_err(one, &[(9, 1)]),
        MixedCircuitError::Constant { wire: 9, reason: "the wire is out of range" }
    );
    assert_eq!(
        parse_err(one, &[(1, 1), (1, 2)]),
        MixedCircuitError::Constant { wire: 1, reason: "the wire has another constant" }
    );
    // A constant is reduced modulo 2^k; inputs are not: a wide input is an error naming it.
    let c = MixedCircuit::parse(one, &io(&[(1, (1 << 32) + 5)])).expect("parses");
    assert_eq!(c.evaluate(&[2], RingBits::K32), Ok(vec![7]));
    assert!(matches!(c.evaluate(&[1 << 32], RingBits::K32), Err(MixedCircuitError::Input { index: 0, .. })));
    assert!(matches!(c.evaluate(&[], RingBits::K32), Err(MixedCircuitError::Input { index: 0, .. })));
    assert!(c.evaluate(&[1 << 32], RingBits::K64).is_ok());
    // Errors read well.
    let message = parse_err("1 3\n2 1 1\n1 1\n2 1 0 1 2 XAdd\n", &[]).to_string();
    assert!(message.starts_with("mixed circuit line 4: unknown gate `XAdd`"), "{message}");
}
