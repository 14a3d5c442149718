//! Bit decomposition and the bit-level gates (bitwise gates of full values, shifts by shared
//! amounts, division and remainder by shared or odd divisors, powers) against the plaintext
//! evaluator — every operand kind, both rings, 2–4 parties, exact material — and attacks on them
//! caught by the MAC check with no output.

use rand_chacha::ChaCha20Rng;
use rand_core::RngCore;

use super::comparisons::{edgy, edgy_inputs};
use super::programs::agree;
use super::{deal, evaluate_round_robin, run, seeded, Deviation};
use crate::circuit::mixed::tests::{io, text};
use crate::circuit::mixed::{MixedCircuit, MixedOp, RingBits};
use crate::proto::coral::arith::bits::{add_demand, random_bits};
use crate::proto::coral::arith::circuit::Plan;
use crate::proto::coral::arith::decompose::{self, decompose};
use crate::proto::coral::arith::prep::ArithDemand;
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::Step;
use crate::proto::coral::tests::{flip_payload_bit, on_step};

const BIT_LEVEL: [MixedOp; 8] = [
    MixedOp::BitAnd,
    MixedOp::BitOr,
    MixedOp::Xor,
    MixedOp::ShiftL,
    MixedOp::ShiftR,
    MixedOp::Div,
    MixedOp::Mod,
    MixedOp::Exp,
];

#[test]
fn decomposition_gives_every_bit_of_edge_and_random_values() {
    for (ring, parties) in [(RingBits::K32, 2), (RingBits::K64, 3)] {
        let k = ring.bits() as usize;
        let mut rng = seeded(91);
        let values: Vec<u64> = (0..12).map(|_| edgy(&mut rng, ring)).collect();
        let mut d = ArithDemand {
            triples: values.len() * decompose::triples(ring.bits()),
            input_masks: vec![values.len(), 0, 0][..parties].to_vec(),
            // The masked openings, then every bit opened.
            output_masks: values.len() * (1 + k),
        };
        add_demand(&mut d, values.len() * k, parties);
        let (results, _) = run(deal(92, ring, parties, &d), Deviation::none(), |mut party, mut net| {
            let values = values.clone();
            async move {
                let r = random_bits(&mut party, &mut net, values.len() * k).await?;
                let owners = vec![0; values.len()];
                let own = if party.party() == 0 { values.clone() } else { Vec::new() };
                let xs = party.input(&mut net, &owners, &own).await?;
                let bits = decompose(&mut party, &mut net, &xs, &r).await?;
                let flat: Vec<_> = bits.into_iter().flatten().collect();
                let out = party.output(&mut net, &flat).await?;
                Ok((out, party.material().clone()))
            }
        });
        let want: Vec<u64> = values.iter().flat_map(|&v| (0..k).map(move |i| (v >> i) & 1)).collect();
        for (p, r) in results.into_iter().enumerate() {
            let (got, left) = r.unwrap_or_else(|e| panic!("party {p}: {e}"));
            assert_eq!(got, want, "party {p}, k = {k}");
            assert!(left.triples.is_empty() && left.output_masks.is_empty(), "exact material");
        }
    }
}

#[test]
fn scans_cover_every_prefix_once() {
    // The Sklansky schedule, replayed on ranges: every element ends as the prefix [0, i], and an
    // element's range is extended only by the range just below it.
    for len in 1..70 {
        let mut ranges: Vec<(usize, usize)> = (0..len).map(|i| (i, i)).collect();
        for level in decompose::scan_levels(len) {
            let before = ranges.clone();
            for (i, j, keep) in level {
                assert_eq!(before[j].1 + 1, before[i].0, "len {len}: {j} is just below {i}");
                ranges[i] = (before[j].0, before[i].1);
                assert_eq!(keep, ranges[i].0 > 0, "len {len}");
            }
        }
        assert!(ranges.iter().enumerate().all(|(i, &r)| r == (0, i)), "len {len}: {ranges:?}");
    }
}

/// Every bit-level op on (x, y), (x, c) and (c, y) for the constant c (wire 2); all outputs.
pub(in crate::proto::coral) fn every_operand_kind(c: u64) -> MixedCircuit {
    let mut list = Vec::new();
    for op in BIT_LEVEL {
        for (a, b) in [(0, 1), (0, 2), (2, 1)] {
            list.push((op, a, b, 3 + list.len() as u32));
        }
    }
    let gates = list.len() as u32;
    MixedCircuit::parse(&text(3 + gates, 2, gates as usize, &list), &io(&[(2, c)])).unwrap()
}

/// A second operand that makes shifts, divisions and powers interesting: small amounts around
/// 0, 1 and k, small divisors, or an edge value.
pub(in crate::proto::coral) fn small_or_edgy(rng: &mut ChaCha20Rng, ring: RingBits) -> u64 {
    let k = u64::from(ring.bits());
    match rng.next_u32() % 4 {
        0 => [0, 1, 2, 3, 7, k - 1, k, k + 1][rng.next_u32() as usize % 8],
        1 => u64::from(rng.next_u32() % 1000),
        _ => edgy(rng, ring),
    }
}

#[test]
fn every_bit_level_gate_with_every_operand_kind_in_both_rings() {
    for (ring, constants, seed) in
        [(RingBits::K32, [3u64, 0, 33, 0xdead_beef], 93), (RingBits::K64, [7, 1, 63, u64::MAX - 4], 94)]
    {
        let mut rng = seeded(seed);
        for c in constants {
            let circuit = every_operand_kind(c);
            let inputs: Vec<Vec<u64>> =
                (0..5).map(|_| vec![edgy(&mut rng, ring), small_or_edgy(&mut rng, ring)]).collect();
            agree(&circuit, ring, 2, &[0, 1], &inputs, seed + c);
        }
    }
}

#[test]
fn divisions_remainders_and_shifts_on_chosen_values() {
    use MixedOp::*;
    // x / y, x mod y, x << y, x >> y, x ^ y (power) for shared x, y.
    let list = [(Div, 0, 1, 2), (Mod, 0, 1, 3), (ShiftL, 0, 1, 4), (ShiftR, 0, 1, 5), (Exp, 0, 1, 6)];
    let circuit = MixedCircuit::parse(&text(7, 2, 5, &list), &io(&[])).unwrap();
    let max = u64::from(u32::MAX);
    let inputs: Vec<Vec<u64>> = [
        (100, 7),
        (100, 0),
        (0, 0),
        (max, 1),
        (max, max),
        (max - 1, max),
        (1 << 31, 3),
        (12345, 31),
        (12345, 32),
        (3, 20),
        (max, 1 << 31),
    ]
    .iter()
    .map(|&(x, y)| vec![x, y])
    .collect();
    agree(&circuit, RingBits::K32, 2, &[0, 1], &inputs, 95);
}

#[test]
fn random_circuits_with_bit_level_gates_among_the_others() {
    let mut rng = seeded(96);
    for (parties, ring, instances) in [(2, RingBits::K32, 3), (3, RingBits::K64, 2), (4, RingBits::K32, 1)] {
        use MixedOp::*;
        let ops = [Add, Sub, Mul, Lt, Eq, Not, BitNot, BitAnd, BitOr, Xor, ShiftL, ShiftR, Div, Mod, Exp];
        let inputs = 4;
        let mut list = Vec::new();
        for g in 0..16 {
            let wires = inputs + 1 + g;
            let op = ops[rng.next_u32() as usize % ops.len()];
            list.push((op, rng.next_u32() % wires, rng.next_u32() % wires, wires));
        }
        let circuit = MixedCircuit::parse(
            &text(inputs + 1 + 16, inputs as usize, 16, &list),
            &io(&[(u64::from(inputs), small_or_edgy(&mut rng, ring))]),
        )
        .unwrap();
        let owners: Vec<usize> = (0..inputs as usize).map(|i| i % parties).collect();
        let values: Vec<Vec<u64>> = (0..instances)
            .map(|_| {
                (0..inputs)
                    .map(|i| if i % 2 == 0 { edgy(&mut rng, ring) } else { small_or_edgy(&mut rng, ring) })
                    .collect()
            })
            .collect();
        agree(&circuit, ring, parties, &owners, &values, 97 + parties as u64);
    }
    // Every circuit of random gates now has a plan.
    let circuit = every_operand_kind(5);
    let plan = Plan::new(&circuit, RingBits::K64).expect("every gate runs");
    assert!(plan.bits(64) > 0);
    let inputs = edgy_inputs(&mut rng, &circuit, RingBits::K64, 1);
    assert_eq!(inputs[0].len(), 2);
}

/// The attack setting: x AND y, x / y and x >> y for shared x, y, two instances.
fn setting() -> (MixedCircuit, Vec<Vec<u64>>) {
    use MixedOp::*;
    let list = [(BitAnd, 0, 1, 2), (Div, 0, 1, 3), (ShiftR, 0, 1, 4)];
    let circuit = MixedCircuit::parse(&text(5, 2, 3, &list), &io(&[])).unwrap();
    (circuit, vec![vec![1000, 7], vec![u64::from(u32::MAX), 3]])
}

fn attack(parties: usize, deviation: Deviation) -> CoralError {
    let (circuit, inputs) = setting();
    let (results, sent) = evaluate_round_robin(&circuit, RingBits::K32, parties, &inputs, 98, deviation);
    for (p, r) in results.iter().enumerate() {
        assert!(r.is_err(), "party {p} returned outputs despite the deviation");
    }
    assert!(!sent[0].contains(&(Step::ArithOutput as u8)), "an output was opened");
    results.into_iter().next().unwrap().unwrap_err()
}

#[test]
fn honest_baseline_of_the_bit_level_attack_setting() {
    let (circuit, inputs) = setting();
    let (results, _) = evaluate_round_robin(&circuit, RingBits::K32, 3, &inputs, 98, Deviation::none());
    let want: Vec<Vec<u64>> = inputs.iter().map(|x| circuit.evaluate(x, RingBits::K32).unwrap()).collect();
    assert_eq!(want[0], vec![1000 & 7, 142, 7]);
    for r in results {
        assert_eq!(r.unwrap(), want);
    }
}

/// How many frames of `step` party 1 sends to party 0 in an honest run of the setting.
fn honest_frames(step: Step) -> usize {
    let (circuit, inputs) = setting();
    let (_, sent) = evaluate_round_robin(&circuit, RingBits::K32, 2, &inputs, 98, Deviation::none());
    sent[1].iter().filter(|&&s| s == step as u8).count()
}

#[test]
fn wrong_openings_in_decompositions_and_bit_level_products_are_caught() {
    // The decompositions' masked openings, and Beaver openings spread over the whole run: the
    // random bits, the scans, the bitwise products, the barrel shifter and the division's steps.
    let masked = honest_frames(Step::ArithMaskedOpen);
    assert!(masked >= 1);
    for nth in [0, masked - 1] {
        let err = attack(2, Deviation::wire(1, on_step(Step::ArithMaskedOpen, nth, flip_payload_bit(3))));
        assert_eq!(err, CoralError::CheckFailed { check: Check::ArithMac }, "masked opening {nth}");
    }
    let mults = honest_frames(Step::ArithMultOpen);
    assert!(mults > 100, "{mults} multiplication rounds");
    for nth in [3, mults / 5, mults / 3, mults / 2, 2 * mults / 3, mults - 3, mults - 1] {
        let err = attack(2, Deviation::wire(1, on_step(Step::ArithMultOpen, nth, flip_payload_bit(9))));
        assert_eq!(err, CoralError::CheckFailed { check: Check::ArithMac }, "round {nth} of {mults}");
    }
}

#[test]
fn a_cheater_among_three_and_wrong_triples_are_caught() {
    let err = attack(3, Deviation::wire(2, on_step(Step::ArithMultOpen, 40, flip_payload_bit(0))));
    assert_eq!(err, CoralError::CheckFailed { check: Check::ArithMac });
    // A wrong product in 50 triples from the middle, which the division's steps take (the
    // random bits, made first, take the first ones).
    let err = attack(
        2,
        Deviation::material(1, |m| {
            let middle = m.triples.len() / 2;
            for t in m.triples.iter_mut().skip(middle).take(50) {
                t.c.value ^= 1 << 5;
            }
        }),
    );
    assert_eq!(err, CoralError::CheckFailed { check: Check::ArithMac });
}

#[test]
fn bytes_and_rounds_of_one_bitwise_and_are_exact() {
    use crate::net::Network;
    use crate::proto::coral::arith::circuit::{demand, evaluate};
    use crate::proto::coral::arith::{bits, ArithRing};
    use crate::proto::coral::messages::HEADER_BYTES;
    // x AND y with x from party 0 and y from party 1, k = 32, two parties, one instance.
    let circuit = MixedCircuit::parse("1 3\n2 1 1\n1 1\n\n2 1 0 1 2 ABitAnd\n", &Default::default()).unwrap();
    let ring = RingBits::K32;
    let k = ring.bits() as usize;
    let inputs = vec![vec![0xf0f0_1234, 0x0ff0_ff00]];
    let d = demand(&circuit, ring, &[0, 1], 2, 1).unwrap();
    let (results, _) = run(deal(99, ring, 2, &d), Deviation::none(), |mut party, mut net| {
        let mine = super::own(&inputs, &[0, 1], party.party());
        let circuit = &circuit;
        async move {
            let out = evaluate(&mut party, &mut net, circuit, &[0, 1], &mine).await?;
            Ok((out, net.stats()))
        }
    });
    let e = ArithRing::new(ring).element_bytes();
    let mac_check = 32 + 32 + 32 + (e + 32);
    let bits = 2 * k;
    // Random bits: inputs, XORs, squares, the checks' opening, a MAC check.
    let bit_bytes = bits * e + 2 * bits * e + 2 * bits * e + bits * e + mac_check;
    // Two decompositions: masked openings, then two openings per product (the scan's: 75
    // combinations of 31 leaves, 45 of them keeping p, so 120 products; k − 1 for the bits);
    // the AND: k products.
    assert_eq!(decompose::triples(32), 120 + 31);
    let and_bytes = 2 * e + 2 * e * (2 * decompose::triples(32) + k);
    let payload = bit_bytes + e + and_bytes + 2 * mac_check + e;
    let rounds = bits::rounds(2) + 1 + (1 + 5 + 1) + 1 + 9;
    for (p, r) in results.into_iter().enumerate() {
        let (out, stats) = r.unwrap();
        assert_eq!(out, vec![vec![0xf0f0_1234 & 0x0ff0_ff00]]);
        assert_eq!(stats.rounds as usize, rounds, "party {p}");
        assert_eq!(stats.bytes_sent as usize, payload + rounds * HEADER_BYTES, "party {p}");
    }
}

#[test]
fn a_quotient_and_a_remainder_of_the_same_values_share_one_division() {
    use crate::proto::coral::arith::circuit::demand;
    use MixedOp::*;
    let both = MixedCircuit::parse(&text(4, 2, 2, &[(Div, 0, 1, 2), (Mod, 0, 1, 3)]), &io(&[])).unwrap();
    let div = MixedCircuit::parse(&text(3, 2, 1, &[(Div, 0, 1, 2)]), &io(&[])).unwrap();
    let (d_both, d_div) = (
        demand(&both, RingBits::K32, &[0, 1], 2, 1).unwrap(),
        demand(&div, RingBits::K32, &[0, 1], 2, 1).unwrap(),
    );
    assert_eq!(d_both.triples, d_div.triples);
    assert_eq!(d_both.output_masks, d_div.output_masks + 1, "one more output");
    // Swapped operands are another division.
    let swapped = MixedCircuit::parse(&text(4, 2, 2, &[(Div, 0, 1, 2), (Mod, 1, 0, 3)]), &io(&[])).unwrap();
    assert_eq!(demand(&swapped, RingBits::K32, &[0, 1], 2, 1).unwrap().triples, 2 * d_div.triples);
    let inputs = vec![vec![1000, 7], vec![7, 1000], vec![5, 0], vec![u64::from(u32::MAX), 2]];
    agree(&both, RingBits::K32, 2, &[0, 1], &inputs, 100);
    agree(&swapped, RingBits::K32, 3, &[0, 1], &inputs, 101);
}
