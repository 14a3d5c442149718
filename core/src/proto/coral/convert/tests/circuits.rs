//! Mixed circuits whose bit-level gates decompose through the conversions
//! ([`evaluate_converting`]): every bit-level gate with every operand kind in both rings and
//! random circuits against the plaintext evaluator, exact material in both sharings, the choice
//! between the two decompositions, and attacks on a circuit's conversions.

use rand_core::RngCore;

use super::{deal_both, run, Deviation, Materials};
use crate::circuit::mixed::tests::{io, text};
use crate::circuit::mixed::{MixedCircuit, MixedOp, RingBits};
use crate::proto::coral::arith::circuit::{demand_converting, evaluate_converting, Plan};
use crate::proto::coral::arith::tests::bitlevel::{every_operand_kind, small_or_edgy};
use crate::proto::coral::arith::tests::comparisons::edgy;
use crate::proto::coral::convert::decompose::cheaper;
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::Step;
use crate::proto::coral::prep::Demand;
use crate::proto::coral::tests::{flip_payload_bit, on_step};
use crate::rng::seeded_rng;

/// Every party's outputs (or error) and the step tags each sent, for `inputs` (one vector per
/// instance) owned as `owners` says, with `deviation`.
#[allow(clippy::type_complexity)]
fn evaluate(
    circuit: &MixedCircuit,
    ring: RingBits,
    parties: usize,
    owners: &[usize],
    inputs: &[Vec<u64>],
    seed: u64,
    deviation: Deviation,
) -> (Vec<Result<(Vec<Vec<u64>>, bool), CoralError>>, Vec<Vec<u8>>) {
    let d = demand_converting(circuit, ring, &[], owners, &[], parties, inputs.len()).expect("demand");
    run(deal_both(seed, ring, parties, &d), deviation, |mut b, mut a, mut net| {
        let me = a.party();
        let own: Vec<Vec<u64>> = inputs
            .iter()
            .map(|v| v.iter().zip(owners).filter(|&(_, &o)| o == me).map(|(&x, _)| x).collect())
            .collect();
        async move {
            let out = evaluate_converting(&mut a, &mut b, &mut net, circuit, &[], owners, &[], &own).await?;
            let out = out.into_iter().map(|o| o.into_iter().map(|v| v.expect("public")).collect()).collect();
            let left = a.material();
            let used_up = b.material().remaining() == Demand::empty(a.parties())
                && left.triples.is_empty()
                && left.output_masks.is_empty()
                && left.input_masks.iter().all(|m| m.is_empty());
            Ok((out, used_up))
        }
    })
}

fn agree(
    circuit: &MixedCircuit,
    ring: RingBits,
    parties: usize,
    owners: &[usize],
    inputs: &[Vec<u64>],
    seed: u64,
) {
    let (results, _) = evaluate(circuit, ring, parties, owners, inputs, seed, Deviation::none());
    let want: Vec<Vec<u64>> = inputs.iter().map(|x| circuit.evaluate(x, ring).expect("plaintext")).collect();
    for (p, r) in results.into_iter().enumerate() {
        let (got, used_up) = r.unwrap_or_else(|e| panic!("party {p}: {e}"));
        assert_eq!(got, want, "party {p}, {parties} parties, k = {}", ring.bits());
        assert!(used_up, "party {p}: the material of both sharings is used up exactly");
    }
}

#[test]
fn every_bit_level_gate_through_the_conversions_in_both_rings() {
    for (ring, parties, c, instances, seed) in [
        (RingBits::K32, 2, 0xdead_beef, 3, 31u64),
        (RingBits::K64, 3, 63, 2, 32),
        (RingBits::K32, 2, 0, 15, 33),
    ] {
        let mut rng = seeded_rng(seed);
        let circuit = every_operand_kind(c);
        let inputs: Vec<Vec<u64>> =
            (0..instances).map(|_| vec![edgy(&mut rng, ring), small_or_edgy(&mut rng, ring)]).collect();
        agree(&circuit, ring, parties, &[0, 1], &inputs, seed);
    }
}

#[test]
fn random_circuits_through_the_conversions() {
    use MixedOp::*;
    let mut rng = seeded_rng(34);
    for (parties, ring, instances) in [(2, RingBits::K32, 2), (3, RingBits::K32, 1)] {
        let ops = [Add, Mul, Lt, Eq, BitNot, BitAnd, BitOr, Xor, ShiftL, ShiftR, Div, Mod, Exp];
        let inputs = 4;
        let mut list = Vec::new();
        for g in 0..14 {
            let wires = inputs + 1 + g;
            let op = ops[rng.next_u32() as usize % ops.len()];
            list.push((op, rng.next_u32() % wires, rng.next_u32() % wires, wires));
        }
        let circuit = MixedCircuit::parse(
            &text(inputs + 1 + 14, inputs as usize, 14, &list),
            &io(&[(u64::from(inputs), small_or_edgy(&mut rng, ring))]),
        )
        .expect("parses");
        let owners: Vec<usize> = (0..inputs as usize).map(|i| i % parties).collect();
        let values: Vec<Vec<u64>> =
            (0..instances).map(|_| (0..inputs).map(|_| small_or_edgy(&mut rng, ring)).collect()).collect();
        agree(&circuit, ring, parties, &owners, &values, 35 + parties as u64);
    }
}

#[test]
fn conversions_are_chosen_where_they_take_fewer_triples() {
    // One pack's daBits and their 40 checking packs cost more than one value's arithmetic
    // decomposition; a few packs' cost less; from n = 5 at k = 32 a daBit lane's n triples
    // make the conversions the dearer way.
    assert!(!cheaper(1, 32, 2));
    assert!(cheaper(140, 32, 2) && cheaper(1400, 32, 2));
    assert!(!cheaper(1400, 32, 5) && !cheaper(0, 32, 2));
    let plan = Plan::new(&every_operand_kind(3), RingBits::K32).expect("plan");
    assert!(plan.decomposed() > 0);
    assert!(!plan.converts(32, 2, 1) && plan.converts(32, 2, 100));
}

/// x AND y, x / y and x >> y for shared x, y on 15 instances; one party deviates.
fn attack(parties: usize, deviation: Deviation, checks: &[Check]) {
    use MixedOp::*;
    let list = [(BitAnd, 0, 1, 2), (Div, 0, 1, 3), (ShiftR, 0, 1, 4)];
    let circuit = MixedCircuit::parse(&text(5, 2, 3, &list), &io(&[])).expect("parses");
    let inputs: Vec<Vec<u64>> = (0..15).map(|i| vec![1000 * i + 7, i % 9]).collect();
    let attacker = deviation.attacker;
    let (results, sent) = evaluate(&circuit, RingBits::K32, parties, &[0, 1], &inputs, 36, deviation);
    for (p, r) in results.into_iter().enumerate().filter(|&(p, _)| p != attacker) {
        let e = r.expect_err("an honest party returned outputs despite the deviation");
        assert!(matches!(&e, CoralError::CheckFailed { check } if checks.contains(check)), "party {p}: {e}");
        assert!(!sent[p].contains(&(Step::ArithOutput as u8)), "party {p} opened an output");
    }
}

#[test]
fn attacks_on_a_circuits_conversions_are_caught_before_any_output() {
    let bit = (0..42).find(|&b| crate::proto::coral::tests::params().psi(1 << b) != 0).expect("ψ is onto");
    let inconsistent = Deviation::material(1, move |(boolean, _): &mut Materials| {
        let mask = &mut boolean.input_masks[1][3];
        mask.value = mask.value.map(|r| r ^ (1 << bit));
    });
    attack(2, inconsistent, &[Check::DaBitConsistency]);
    // A wrong share of A2B's opening: the receiver's public bits differ from the sender's, so
    // the boolean sharings of the adder disagree too — Coral's MAC check, which runs before
    // Spdz2k's at the output, catches that first.
    for (parties, attacker) in [(2, 1), (3, 2)] {
        let d = Deviation::wire(attacker, on_step(Step::A2bOpen, 0, flip_payload_bit(9)));
        attack(parties, d, &[Check::Mac, Check::ArithMac]);
    }
    attack(2, Deviation::wire(1, on_step(Step::B2aOpen, 0, flip_payload_bit(bit))), &[Check::Mac]);
    attack(2, Deviation::wire(1, on_step(Step::MultOpen, 3, flip_payload_bit(1))), &[Check::Mac]);
}
