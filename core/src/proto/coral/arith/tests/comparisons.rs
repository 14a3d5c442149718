//! Comparisons and boolean gates on Spdz2k shares against the plaintext evaluator: a sort of 8,
//! a comparison-heavy program, random circuits with every supported gate on edge-heavy inputs
//! (n = 2, 3, 4; k = 32, 64), and the exact bytes and rounds of one comparison.

use rand_chacha::ChaCha20Rng;
use rand_core::RngCore;

use super::programs::agree;
use super::{deal, own, run, seeded, Deviation};
use crate::circuit::mixed::gen::{compare_count, sort};
use crate::circuit::mixed::tests::{io, text};
use crate::circuit::mixed::{MixedCircuit, MixedOp, RingBits};
use crate::net::Network;
use crate::proto::coral::arith::circuit::{demand, evaluate, Plan};
use crate::proto::coral::arith::{bits, compare, ArithRing};
use crate::proto::coral::messages::HEADER_BYTES;

/// A value drawn from the edges of Z_{2^k} (0, 1, 2^(k−1) − 1, 2^(k−1), 2^k − 1) or uniformly.
pub(in crate::proto::coral) fn edgy(rng: &mut ChaCha20Rng, ring: RingBits) -> u64 {
    let half = 1u64 << (ring.bits() - 1);
    let edges = [0, 1, half - 1, half, ring.mask(), 2];
    let r = rng.next_u64();
    if r.is_multiple_of(3) {
        r & ring.mask()
    } else {
        edges[(r >> 8) as usize % edges.len()]
    }
}

pub(super) fn edgy_inputs(
    rng: &mut ChaCha20Rng,
    circuit: &MixedCircuit,
    ring: RingBits,
    instances: usize,
) -> Vec<Vec<u64>> {
    (0..instances).map(|_| (0..circuit.inputs).map(|_| edgy(rng, ring)).collect()).collect()
}

#[test]
fn a_sort_of_eight_numbers_matches_plaintext() {
    let circuit = sort(8);
    let owners: Vec<usize> = (0..8).map(|i| i % 2).collect();
    let mut rng = seeded(61);
    let ring = RingBits::K32;
    let mut inputs = edgy_inputs(&mut rng, &circuit, ring, 3);
    inputs.push(vec![5, u64::from(u32::MAX), 0, 1 << 31, 5, (1 << 31) - 1, 0, 7]);
    for x in &inputs {
        let mut sorted = x.clone();
        sorted.sort_unstable();
        assert_eq!(circuit.evaluate(x, ring).unwrap(), sorted, "the generated network sorts");
    }
    agree(&circuit, ring, 2, &owners, &inputs, 62);
}

#[test]
fn a_comparison_heavy_program_in_both_rings_and_with_three_parties() {
    let circuit = compare_count(6);
    for (parties, ring, seed) in [(2, RingBits::K64, 63), (3, RingBits::K32, 64)] {
        let owners: Vec<usize> = (0..12).map(|i| usize::from(i >= 6) * (parties - 1)).collect();
        let mut rng = seeded(seed);
        let mut inputs = edgy_inputs(&mut rng, &circuit, ring, 4);
        // Equal pairs and a tie for the maximum.
        let xs = inputs[0][..6].to_vec();
        inputs[0][6..].copy_from_slice(&xs);
        inputs[1][3] = inputs[1][1];
        agree(&circuit, ring, parties, &owners, &inputs, seed);
    }
}

/// A random circuit over ring, comparison, boolean and shift gates; wire `inputs` is a random
/// constant, wire `inputs + 1` a shift amount (0..k+3), wire `inputs + 2` a power of two (or 0),
/// wire `inputs + 3` a low mask 2^s − 1 (0 < s < k).
fn random_bit_circuit(rng: &mut ChaCha20Rng, ring: RingBits, inputs: u32, gates: u32) -> MixedCircuit {
    use MixedOp::*;
    let ops = [
        Add, Sub, Mul, Lt, LEq, Gt, GEq, Eq, Neq, Not, BoolAnd, BoolOr, BitNot, ShiftL, Mul, Lt, ShiftR, Div,
        Mod, BitAnd,
    ];
    let (constant, shift, power, low) = (inputs, inputs + 1, inputs + 2, inputs + 3);
    let mut list = Vec::new();
    for g in 0..gates {
        let wires = inputs + 4 + g;
        let op = ops[rng.next_u32() as usize % ops.len()];
        let a = rng.next_u32() % wires;
        let b = match op {
            ShiftL | ShiftR => shift,
            Div | Mod => power,
            BitAnd => low,
            _ => rng.next_u32() % wires,
        };
        // The mask first or second, as a compiler may write either.
        let (a, b) = if op == BitAnd && rng.next_u32().is_multiple_of(2) { (b, a) } else { (a, b) };
        list.push((op, a, b, wires));
    }
    let shift_by = u64::from(rng.next_u32() % (ring.bits() + 3));
    let power_of_two = match rng.next_u32() % 8 {
        0 => 0,
        _ => 1u64 << (rng.next_u32() % ring.bits()),
    };
    MixedCircuit::parse(
        // Every gate's value is an output, so no gate goes unchecked.
        &text(inputs + 4 + gates, inputs as usize, gates as usize, &list),
        &io(&[
            (u64::from(constant), edgy(rng, ring)),
            (u64::from(shift), shift_by),
            (u64::from(power), power_of_two),
            (u64::from(low), (1u64 << (1 + rng.next_u32() % (ring.bits() - 1))) - 1),
        ]),
    )
    .expect("parses")
}

#[test]
fn random_circuits_with_every_supported_gate_agree_with_plaintext() {
    let mut rng = seeded(65);
    for (parties, ring, instances) in [
        (2, RingBits::K32, 1),
        (2, RingBits::K64, 5),
        (2, RingBits::K32, 3),
        (3, RingBits::K64, 2),
        (4, RingBits::K32, 1),
    ] {
        let circuit = random_bit_circuit(&mut rng, ring, 5, 40);
        let plan = Plan::new(&circuit, ring).expect("every gate is supported");
        assert!(plan.bits(ring.bits()) > 0, "the circuit compares shared values");
        let owners: Vec<usize> = (0..5).map(|i| i % parties).collect();
        let inputs = edgy_inputs(&mut rng, &circuit, ring, instances);
        agree(&circuit, ring, parties, &owners, &inputs, 66 + parties as u64);
    }
}

#[test]
fn comparisons_with_a_public_operand_and_every_order_of_the_same_values() {
    // x (party 0) against y (party 1) and against the constant 2^31 (wire 2), all six
    // comparisons each way, plus the boolean gates.
    use MixedOp::*;
    let list: Vec<(MixedOp, u32, u32, u32)> = [Lt, LEq, Gt, GEq, Eq, Neq, BoolAnd, BoolOr]
        .iter()
        .flat_map(|&op| [(op, 0, 1), (op, 1, 0), (op, 0, 2), (op, 2, 1)])
        .chain([(Not, 0, 0), (Not, 1, 1)])
        .enumerate()
        .map(|(i, (op, a, b))| (op, a, b, 3 + i as u32))
        .collect();
    let gates = list.len() as u32;
    let circuit =
        MixedCircuit::parse(&text(3 + gates, 2, gates as usize, &list), &io(&[(2, 1 << 31)])).unwrap();
    let half = 1u64 << 31;
    let values = [0, 1, half - 1, half, half + 1, u64::from(u32::MAX)];
    let inputs: Vec<Vec<u64>> =
        values.iter().flat_map(|&x| values.iter().map(move |&y| vec![x, y])).collect();
    agree(&circuit, RingBits::K32, 2, &[0, 1], &inputs, 67);
}

#[test]
fn bitwise_gates_of_comparison_results_are_products_and_with_full_values_use_their_bits() {
    use MixedOp::*;
    // c = x < y, e = x == y (0/1); c ⊕ e, c ∧ e, c ∨ e; c ⊕ 5, c ∨ 6, 7 ∧ e (wire 2 = 5, 3 = 6,
    // 4 = 7).
    let list = [
        (Lt, 0, 1, 5),
        (Eq, 0, 1, 6),
        (Xor, 5, 6, 7),
        (BitAnd, 5, 6, 8),
        (BitOr, 6, 5, 9),
        (Xor, 5, 2, 10),
        (BitOr, 3, 5, 11),
        (BitAnd, 4, 6, 12),
    ];
    let constants = [(2, 5), (3, 6), (4, 7)];
    let circuit = MixedCircuit::parse(&text(13, 2, 6, &list), &io(&constants)).unwrap();
    let inputs = vec![vec![3, 9], vec![9, 3], vec![4, 4], vec![0, u64::from(u32::MAX)]];
    agree(&circuit, RingBits::K32, 2, &[0, 1], &inputs, 71);
    // A 0/1 value XOR a full shared value runs on both values' bits.
    let list = [(Lt, 0, 1, 2), (Xor, 2, 0, 3)];
    let circuit = MixedCircuit::parse(&text(4, 2, 1, &list), &io(&[])).unwrap();
    let plan = Plan::new(&circuit, RingBits::K32).unwrap();
    assert_eq!(plan.bits(32), 32 * (3 + 2), "the comparison's three probes, two decompositions");
    agree(&circuit, RingBits::K32, 2, &[0, 1], &inputs, 72);
}

#[test]
fn too_many_random_bits_are_refused_before_anything_is_sent() {
    use crate::proto::coral::arith::circuit::MAX_RANDOM_BITS;
    use crate::proto::coral::arith::prep::ArithDemand;
    use crate::proto::coral::error::CoralError;
    let circuit = compare_count(1000);
    let owners: Vec<usize> = (0..2000).map(|i| usize::from(i >= 1000)).collect();
    let plan = Plan::new(&circuit, RingBits::K32).unwrap();
    let instances = MAX_RANDOM_BITS / plan.bits(32) + 1;
    let err = demand(&circuit, RingBits::K32, &owners, 2, instances).unwrap_err();
    assert!(matches!(err, CoralError::Limit { limit: MAX_RANDOM_BITS, .. }), "{err}");
    assert!(demand(&circuit, RingBits::K32, &owners, 2, instances - 1).is_ok());
    let d = ArithDemand { triples: 0, input_masks: vec![0, 0], output_masks: 0 };
    let (results, sent) = run(deal(70, RingBits::K32, 2, &d), Deviation::none(), |mut party, mut net| {
        let circuit = &circuit;
        let mine = vec![vec![0; 1000]; instances];
        let owners = (0..2000).map(|i| usize::from(i >= 1000)).collect::<Vec<_>>();
        async move { evaluate(&mut party, &mut net, circuit, &owners, &mine).await }
    });
    for r in results {
        assert!(matches!(r, Err(CoralError::Limit { limit: MAX_RANDOM_BITS, .. })));
    }
    assert!(sent.iter().all(Vec::is_empty), "nothing may be sent");
}

#[test]
fn bytes_and_rounds_of_one_comparison_are_exact() {
    // x < y with x from party 0 and y from party 1, k = 32, two parties, one instance.
    let circuit = MixedCircuit::parse("1 3\n2 1 1\n1 1\n\n2 1 0 1 2 ALt\n", &Default::default()).unwrap();
    let ring = RingBits::K32;
    let k = ring.bits() as usize;
    let inputs = vec![vec![3, 1 << 31]];
    let d = demand(&circuit, ring, &[0, 1], 2, 1).unwrap();
    let (results, _) = run(deal(68, ring, 2, &d), Deviation::none(), |mut party, mut net| {
        let mine = own(&inputs, &[0, 1], party.party());
        let circuit = &circuit;
        async move {
            let out = evaluate(&mut party, &mut net, circuit, &[0, 1], &mine).await?;
            Ok((out, net.stats()))
        }
    });
    let e = ArithRing::new(ring).element_bytes();
    let mac_check = 32 + 32 + 32 + (e + 32);
    let tested = 3; // x, y, x − y
    let bits = tested * k;
    // Random bits: inputs, XORs, squares, the checks' opening, a MAC check.
    let bit_bytes = bits * e + 2 * bits * e + 2 * bits * e + bits * e + mac_check;
    // The comparison: masked openings, the tree (2 products per combination, k − 2 each), the
    // last products (2 each), two finishing products.
    let compare_bytes = tested * e + 2 * e * (2 * (k - 2) * tested + 2 * tested + 2);
    let payload = bit_bytes + e + compare_bytes + 2 * mac_check + e;
    let rounds = bits::rounds(2) + 1 + compare::rounds(ring.bits(), 2) + 9;
    assert_eq!(rounds, 8 + 1 + 9 + 9);
    for (p, r) in results.into_iter().enumerate() {
        let (out, stats) = r.unwrap();
        assert_eq!(out, vec![vec![1]]);
        assert_eq!(stats.rounds as usize, rounds, "party {p}");
        assert_eq!(stats.messages_sent as usize, rounds, "party {p}");
        assert_eq!(stats.bytes_sent as usize, payload + rounds * HEADER_BYTES, "party {p}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]
    /// The msb, zero tests and right shifts of shared values, opened, are those of the values
    /// (some values forced to 0, to the top bit alone or to all ones; shifts 1..k−1).
    #[test]
    fn probes_give_the_msb_zero_test_and_shifts_of_the_values(
        xs in proptest::collection::vec(proptest::prelude::any::<u64>(), 1..8),
        k64 in proptest::prelude::any::<bool>(),
    ) {
        use crate::proto::coral::arith::prep::ArithDemand;
        use crate::proto::coral::arith::probe::{probe, Probe, Probed};
        let ring = if k64 { RingBits::K64 } else { RingBits::K32 };
        let k = ring.bits();
        let xs: Vec<u64> = xs
            .iter()
            .enumerate()
            .map(|(i, &x)| match (i + x as usize) % 6 { 0 => 0, 1 => 1 << (k - 1), 2 => ring.mask(), _ => x & ring.mask() })
            .collect();
        let n = xs.len();
        // Value i gets an msb probe, a shift by 1 + (x_i mod (k − 1)) and a zero test.
        let shifts: Vec<u32> = xs.iter().map(|&x| 1 + (x % u64::from(k - 1)) as u32).collect();
        let probes: Vec<Probe> =
            shifts.iter().flat_map(|&s| [Probe::MsbZero, Probe::ShiftRight(s), Probe::Zero]).collect();
        let mut d = ArithDemand {
            triples: probes.iter().map(|p| p.triples(k)).sum(),
            input_masks: vec![n, 0],
            output_masks: 3 * n + 4 * n,
        };
        bits::add_demand(&mut d, 3 * n * k as usize, 2);
        let (results, _) = run(deal(69, ring, 2, &d), Deviation::none(), |mut party, mut net| {
            let (xs, probes) = (xs.clone(), probes.clone());
            async move {
                let mine = if party.party() == 0 { xs } else { Vec::new() };
                let shares = party.input(&mut net, &vec![0; n], &mine).await?;
                let r = bits::random_bits(&mut party, &mut net, 3 * n * k as usize).await?;
                let items: Vec<_> = shares.iter().flat_map(|&x| [x, x, x]).zip(probes).collect();
                let answers = probe(&mut party, &mut net, &items, &r).await?;
                let flat: Vec<_> = answers
                    .iter()
                    .flat_map(|a| match *a {
                        Probed::MsbZero(m, z) => vec![m, z],
                        Probed::Shifted(q) | Probed::Zero(q) => vec![q],
                    })
                    .collect();
                party.output(&mut net, &flat).await
            }
        });
        let want: Vec<u64> = xs
            .iter()
            .zip(&shifts)
            .flat_map(|(&x, &s)| [x >> (k - 1), u64::from(x == 0), x >> s, u64::from(x == 0)])
            .collect();
        for r in results {
            proptest::prop_assert_eq!(r.expect("honest run"), want.clone());
        }
    }
}
