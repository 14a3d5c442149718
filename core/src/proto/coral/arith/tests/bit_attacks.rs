//! Attacks on random bits and comparisons: a contribution that is not a bit, a tampered bit
//! check, wrong openings in the XOR, the masked opening and the carry tree, equivocation between
//! two honest parties. The honest parties abort with the check that caught it and return no
//! output; deviations in the bits are caught before any value is opened under their mask.

use super::{evaluate_round_robin, Deviation, Evaluation};
use crate::circuit::mixed::gen::compare_count;
use crate::circuit::mixed::{MixedCircuit, RingBits};
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::Step;
use crate::proto::coral::tests::{flip_payload_bit, on_step};

const RING: RingBits = RingBits::K32;

fn setting() -> (MixedCircuit, Vec<Vec<u64>>) {
    let circuit = compare_count(3);
    let inputs = vec![vec![9, 4, 1 << 31, 2, 4, 0], vec![0, u64::from(u32::MAX), 7, 0, 8, 7]];
    (circuit, inputs)
}

fn attempt(parties: usize, deviation: Deviation) -> Evaluation {
    let (circuit, inputs) = setting();
    evaluate_round_robin(&circuit, RING, parties, &inputs, 81, deviation)
}

/// Every party fails; party 0's error and the steps party 0 sent.
fn attack(parties: usize, deviation: Deviation) -> (CoralError, Vec<u8>) {
    let (results, sent) = attempt(parties, deviation);
    for (p, r) in results.iter().enumerate() {
        assert!(r.is_err(), "party {p} returned outputs despite the deviation");
    }
    (results.into_iter().next().unwrap().unwrap_err(), sent[0].clone())
}

fn sent(steps: &[u8], step: Step) -> bool {
    steps.contains(&(step as u8))
}

#[test]
fn honest_baseline_of_the_attack_setting_passes() {
    let (circuit, inputs) = setting();
    let (results, steps) = attempt(2, Deviation::none());
    for r in results {
        let want: Vec<Vec<u64>> = inputs.iter().map(|x| circuit.evaluate(x, RING).unwrap()).collect();
        assert_eq!(r.unwrap(), want);
    }
    assert!(sent(&steps[0], Step::ArithMaskedOpen) && sent(&steps[0], Step::ArithOutput));
}

#[test]
fn a_contribution_that_is_not_a_bit_is_caught_before_any_masked_opening() {
    // Bit 1 of party 1's first input difference: its contribution becomes b ± 2.
    for parties in [2, 3] {
        let (err, steps) =
            attack(parties, Deviation::wire(1, on_step(Step::ArithBitInput, 0, flip_payload_bit(1))));
        assert_eq!(err, CoralError::CheckFailed { check: Check::ArithBit }, "{parties} parties");
        assert!(!sent(&steps, Step::ArithMaskedOpen), "a value was opened under a bad mask");
    }
}

#[test]
fn a_contribution_at_the_top_of_the_ring_is_not_a_bit() {
    // b + 2^(k−1): b·(b − 1) picks up 2^(k−1)·(2b − 1) ≠ 0 modulo 2^k.
    let (err, steps) = attack(2, Deviation::wire(1, on_step(Step::ArithBitInput, 0, flip_payload_bit(31))));
    assert_eq!(err, CoralError::CheckFailed { check: Check::ArithBit });
    assert!(!sent(&steps, Step::ArithMaskedOpen));
}

#[test]
fn a_tampered_bit_check_opening() {
    let (err, steps) = attack(2, Deviation::wire(1, on_step(Step::ArithBitCheck, 0, flip_payload_bit(3))));
    assert_eq!(err, CoralError::CheckFailed { check: Check::ArithBit });
    assert!(!sent(&steps, Step::ArithMaskedOpen));
}

#[test]
fn a_wrong_opening_in_the_xor_or_the_square_of_contributions() {
    // The first multiplication round is the random bits' XOR, the second their squares.
    let (err, steps) = attack(2, Deviation::wire(1, on_step(Step::ArithMultOpen, 0, flip_payload_bit(5))));
    assert!(matches!(err, CoralError::CheckFailed { check: Check::ArithMac | Check::ArithBit }), "{err}");
    assert!(!sent(&steps, Step::ArithMaskedOpen));
}

#[test]
fn a_wrong_masked_opening_is_caught_before_any_output() {
    let (err, steps) = attack(2, Deviation::wire(1, on_step(Step::ArithMaskedOpen, 0, flip_payload_bit(2))));
    assert_eq!(err, CoralError::CheckFailed { check: Check::ArithMac });
    assert!(!sent(&steps, Step::ArithOutput));
}

#[test]
fn a_wrong_opening_in_the_carry_tree_is_caught_before_any_output() {
    // Multiplication rounds after the bits': the tree's, the last products', the finishing ones.
    for nth in [2, 4, 7, 9] {
        let (err, steps) =
            attack(2, Deviation::wire(1, on_step(Step::ArithMultOpen, nth, flip_payload_bit(7))));
        assert_eq!(err, CoralError::CheckFailed { check: Check::ArithMac }, "round {nth}");
        assert!(!sent(&steps, Step::ArithOutput), "round {nth}");
    }
}

#[test]
fn wrong_mac_on_a_bit_contribution_mask() {
    let (err, steps) = attack(
        2,
        Deviation::material(1, |m| {
            for q in &mut m.input_masks {
                for mask in q.iter_mut() {
                    mask.share.mac ^= 1 << 4;
                }
            }
        }),
    );
    assert_eq!(err, CoralError::CheckFailed { check: Check::ArithMac });
    assert!(!sent(&steps, Step::ArithMaskedOpen));
}

#[test]
fn a_party_equivocating_its_bit_contribution_between_two_honest_parties() {
    // Party 2's broadcast of its contributions goes to party 0 first, then party 1: the second
    // copy differs in bit 0 (a different but valid bit for party 1's view of b − r).
    let (err, steps) = attack(3, Deviation::wire(2, on_step(Step::ArithBitInput, 1, flip_payload_bit(0))));
    assert!(matches!(err, CoralError::CheckFailed { check: Check::ArithMac | Check::ArithBit }), "{err}");
    assert!(!sent(&steps, Step::ArithMaskedOpen));
}
