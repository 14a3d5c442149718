//! Layer structure, gate semantics (including EQ, EQW, MAND), builder renumbering, evaluation errors,
//! and random circuits: bool vs bit-sliced evaluation and Bristol round trips.

use super::support::{generated_aes128, shared_circuit};
use crate::circuit::{
    pack_lanes, unpack_lanes, Circuit, CircuitBuilder, CircuitError, EvalError, Gate, LinearGate, Wire,
    WireProblem,
};
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};

/// Checks, independently of the layering code, that layers are a valid evaluation order, that every
/// AND gate of layer `k` has AND-depth exactly `k`, and that linear gates sit at their depth.
fn assert_layers_valid(circuit: &Circuit) {
    let mut depth: Vec<Option<usize>> = vec![None; circuit.num_wires()];
    depth[..circuit.num_input_wires()].fill(Some(0));
    let read = |depth: &[Option<usize>], wire: u32| {
        depth[wire as usize].unwrap_or_else(|| panic!("wire {wire} read before written"))
    };
    for layer in circuit.layers() {
        assert_eq!(layer.and_gates.is_empty(), layer.depth == 0 || circuit.and_depth() == 0);
        let ands: Vec<(u32, usize)> =
            layer.and_gates.iter().map(|g| (g.out, read(&depth, g.a).max(read(&depth, g.b)) + 1)).collect();
        for (out, d) in ands {
            assert_eq!(d, layer.depth, "AND gate writing {out} in the wrong layer");
            depth[out as usize] = Some(d);
        }
        for gate in layer.linear_gates {
            let d = Gate::Linear(*gate).inputs().map(|w| read(&depth, w)).max().unwrap_or(0);
            assert!(d <= layer.depth);
            depth[gate.out() as usize] = Some(layer.depth.max(d));
        }
    }
    assert_eq!(circuit.gates().count(), circuit.gate_counts().total());
}

#[test]
fn reference_and_generated_aes_layers_are_valid() {
    assert_layers_valid(shared_circuit("aes_128.txt"));
    assert_layers_valid(generated_aes128());
}

#[test]
fn eq_eqw_mand_not_semantics() {
    // Inputs: a (wires 0, 1), b (wires 2, 3); output: one 6-bit value on wires 10..=15. CRLF line
    // endings and blank lines are accepted.
    let text = [
        "9 16",
        "2 2 2",
        "1 6",
        "",
        "4 2 0 1 2 3 4 5 MAND",
        "1 1 1 6 EQ",
        "1 1 0 7 EQ",
        "1 1 0 8 NOT",
        "1 1 8 9 EQW",
        "2 1 4 5 10 XOR",
        "6 3 4 5 9 6 7 1 11 12 13 MAND",
        "",
        "2 1 6 7 14 AND",
        "1 1 10 15 EQW",
    ]
    .join("\r\n");
    let circuit = Circuit::parse_bristol(&text).unwrap();
    let counts = circuit.gate_counts();
    assert_eq!((counts.and, counts.xor, counts.inv, counts.copy, counts.constant), (6, 1, 1, 2, 2));
    for x in 0..16u8 {
        let bits: Vec<bool> = (0..4).map(|i| x >> i & 1 == 1).collect();
        let (a0, a1, b0, b1) = (bits[0], bits[1], bits[2], bits[3]);
        // MAND pairs the first half of its inputs with the second half: 4 = a0 & b0, 5 = a1 & b1.
        let (w4, w5) = (a0 & b0, a1 & b1);
        let expected = vec![w4 ^ w5, w4, false, !a0 & a1, false, w4 ^ w5];
        assert_eq!(circuit.evaluate(&[&bits[..2], &bits[2..]]).unwrap(), vec![expected], "x = {x}");
    }
    assert_eq!(Circuit::parse_bristol(&circuit.to_bristol()).unwrap(), circuit);
}

#[test]
fn evaluation_rejects_wrong_input_shapes() {
    let circuit = shared_circuit("aes_128.txt");
    assert_eq!(
        circuit.evaluate(&[vec![false; 128]]).unwrap_err(),
        EvalError::InputCount { expected: 2, found: 1 }
    );
    let err = circuit.evaluate(&[vec![false; 128], vec![false; 127]]).unwrap_err();
    assert_eq!(err, EvalError::InputWidth { index: 1, expected: 128, found: 127 });
    assert!(err.to_string().contains("input value 1 must have 128 bits"));
    let err = circuit.evaluate_bitsliced(&[vec![0u64; 256], vec![0u64; 128]]).unwrap_err();
    assert_eq!(err, EvalError::InputWidth { index: 0, expected: 128, found: 256 });
}

#[test]
fn builder_renumbers_to_bristol_conventions() {
    let mut b = CircuitBuilder::new();
    let x = b.input(2);
    let one = b.constant(true);
    let y = b.input(1);
    let t = b.and(x[0], y[0]);
    let u = b.xor(t, one);
    // Outputs: an input wire directly, the same wire twice, and a gate output.
    let circuit = b.finish(&[vec![y[0], u, u]]).unwrap();
    assert_eq!(circuit.input_widths(), &[2, 1]);
    assert_eq!(circuit.output_widths(), &[3]);
    assert_eq!(circuit.output_wires(0), Some(circuit.num_wires() - 3..circuit.num_wires()));
    assert_eq!(circuit.gate_counts().copy, 2);
    for x in 0..8u8 {
        let bits: Vec<bool> = (0..3).map(|i| x >> i & 1 == 1).collect();
        let out = circuit.evaluate(&[&bits[..2], &bits[2..]]).unwrap();
        let u = !(bits[0] & bits[2]);
        assert_eq!(out, vec![vec![bits[2], u, u]]);
    }
}

#[test]
fn builder_rejects_foreign_wires() {
    let mut other = CircuitBuilder::new();
    let foreign: Vec<Wire> = other.input(50);
    let mut b = CircuitBuilder::new();
    let x = b.input(1);
    let y = b.xor(x[0], foreign[40]);
    assert!(matches!(
        b.finish(&[vec![y]]),
        Err(CircuitError::Gate { index: 0, problem: WireProblem::OutOfRange { .. } })
    ));
}

#[test]
fn new_checks_gate_lists() {
    let gates = vec![Gate::Linear(LinearGate::Inv { a: 2, out: 1 })];
    assert!(matches!(Circuit::new(2, vec![1], vec![1], gates), Err(CircuitError::Gate { index: 0, .. })));
    let gates = vec![Gate::Linear(LinearGate::Inv { a: 0, out: 1 })];
    let circuit = Circuit::new(2, vec![1], vec![1], gates).unwrap();
    assert_eq!(circuit.evaluate(&[[true]]).unwrap(), vec![vec![false]]);
    assert!(matches!(Circuit::new(2, vec![1], vec![1], vec![]), Err(CircuitError::Structure(_))));
    assert!(matches!(Circuit::new(2, vec![3], vec![1], vec![]), Err(CircuitError::Structure(_))));
}

#[test]
fn lane_packing_round_trips() {
    let lanes: Vec<Vec<bool>> =
        (0..64).map(|l: usize| (0..5).map(|k| (l * 7 + k).is_multiple_of(3)).collect()).collect();
    let words = pack_lanes(&lanes).unwrap();
    assert_eq!(unpack_lanes(&words, 64), lanes);
    assert_eq!(pack_lanes(&vec![vec![true]; 65]), None);
    assert_eq!(pack_lanes(&[vec![true], vec![true, false]]), None);
}

/// A random circuit: `ops` picks gate kinds and operands among the wires built so far.
fn random_circuit(inputs: &[usize], ops: &[(u8, usize, usize)], outputs: &[usize]) -> Circuit {
    let mut b = CircuitBuilder::new();
    let mut wires: Vec<Wire> = inputs.iter().flat_map(|&w| b.input(w)).collect();
    if wires.is_empty() {
        wires.push(b.constant(false));
    }
    for &(kind, i, j) in ops {
        let (x, y) = (wires[i % wires.len()], wires[j % wires.len()]);
        let w = match kind % 6 {
            0 | 1 => b.and(x, y),
            2 | 3 => b.xor(x, y),
            4 => b.not(x),
            _ => {
                if i % 5 == 0 {
                    b.constant(j % 2 == 1)
                } else {
                    b.copy(x)
                }
            }
        };
        wires.push(w);
    }
    let outs: Vec<Vec<Wire>> =
        outputs.iter().map(|&o| vec![wires[o % wires.len()], wires[(o / 3) % wires.len()]]).collect();
    b.finish(&outs).unwrap()
}

#[test]
fn random_circuits_bool_equals_bitsliced_and_round_trip() {
    let config = ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let strategy = (
        prop::collection::vec(0usize..5, 0..4),
        prop::collection::vec((any::<u8>(), any::<usize>(), any::<usize>()), 0..80),
        prop::collection::vec(any::<usize>(), 1..4),
        any::<u64>(),
    );
    runner
        .run(&strategy, |(inputs, ops, outputs, seed)| {
            let circuit = random_circuit(&inputs, &ops, &outputs);
            assert_layers_valid(&circuit);
            prop_assert_eq!(Circuit::parse_bristol(&circuit.to_bristol()).unwrap(), circuit.clone());
            let words: Vec<Vec<u64>> = inputs
                .iter()
                .enumerate()
                .map(|(v, &w)| {
                    (0..w)
                        .map(|k| seed.rotate_left((7 * v + 3 * k) as u32).wrapping_mul(0x9e37_79b9_7f4a_7c15))
                        .collect()
                })
                .collect();
            let sliced = circuit.evaluate_bitsliced(&words).unwrap();
            for lane in [0, 13, 63] {
                let bits: Vec<Vec<bool>> =
                    words.iter().map(|v| v.iter().map(|w| w >> lane & 1 == 1).collect()).collect();
                let single = circuit.evaluate(&bits).unwrap();
                let lane_out: Vec<Vec<bool>> =
                    sliced.iter().map(|v| v.iter().map(|w| w >> lane & 1 == 1).collect()).collect();
                prop_assert_eq!(single, lane_out);
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn clones_share_gates_and_equality_is_by_content() {
    let a = crate::circuit::aes_gen::aes128_circuit().expect("generator");
    let b = crate::circuit::aes_gen::aes128_circuit().expect("generator");
    // Built twice: different allocations, equal contents.
    assert_eq!(a, b);
    let clone = a.clone();
    assert_eq!(clone, a);
    assert_eq!(clone.gates().count(), a.gates().count());
    // The last gate swapped between AND and XOR: a different circuit.
    let mut gates: Vec<Gate> = a.gates().collect();
    let last = gates.len() - 1;
    gates[last] = match gates[last] {
        Gate::Linear(LinearGate::Xor { a: x, b: y, out }) => {
            Gate::And(crate::circuit::AndGate { a: x, b: y, out })
        }
        Gate::And(crate::circuit::AndGate { a: x, b: y, out }) => {
            Gate::Linear(LinearGate::Xor { a: x, b: y, out })
        }
        other => other,
    };
    let changed =
        Circuit::new(a.num_wires() as u32, a.input_widths().to_vec(), a.output_widths().to_vec(), gates)
            .expect("still a valid circuit");
    assert_ne!(changed, a);
}
