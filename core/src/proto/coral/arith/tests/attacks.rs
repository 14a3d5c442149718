//! Attacks on the Spdz2k half: a deviating party edits what it sends or uses wrong material; the
//! honest parties abort with the check that caught it and return no output — and for deviations
//! before the outputs, abort before any output frame is sent.

use super::{evaluate_round_robin, random_inputs, random_ring_circuit, seeded, Deviation};
use crate::circuit::mixed::{MixedCircuit, RingBits};
use crate::proto::coral::arith::ring::S;
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::Step;
use crate::proto::coral::tests::{flip_payload_bit, on_step};

const RING: RingBits = RingBits::K64;
const K: usize = 64;

/// A random ring circuit with at least two multiplicative layers, 3 instances.
fn setting() -> (MixedCircuit, Vec<Vec<u64>>) {
    let mut rng = seeded(31);
    let circuit = random_ring_circuit(&mut rng, 4, 40, 3);
    assert!(circuit.counts().multiplications >= 4);
    let inputs = random_inputs(&mut rng, &circuit, RING, 3);
    (circuit, inputs)
}

/// Every party's result, whether party 0 sent an output frame, and the right outputs.
type Attempt = (Vec<Result<Vec<Vec<u64>>, CoralError>>, bool, Vec<Vec<u64>>);

/// Runs the setting with `parties` parties and `deviation`; returns every party's result and
/// whether party 0 (honest) sent an output frame.
fn attempt(parties: usize, deviation: Deviation) -> Attempt {
    let (circuit, inputs) = setting();
    let (results, sent) = evaluate_round_robin(&circuit, RING, parties, &inputs, 77, deviation);
    let want = inputs.iter().map(|x| circuit.evaluate(x, RING).unwrap()).collect();
    (results, sent[0].contains(&(Step::ArithOutput as u8)), want)
}

/// Every party fails; party 0's error, and whether it sent an output frame.
fn attack(parties: usize, deviation: Deviation) -> (CoralError, bool) {
    let (results, output_sent, _) = attempt(parties, deviation);
    for r in &results {
        assert!(r.is_err(), "a party returned outputs despite the deviation");
    }
    (results.into_iter().next().unwrap().unwrap_err(), output_sent)
}

fn caught_before_output(deviation: Deviation, check: Check) {
    let (err, output_sent) = attack(2, deviation);
    assert_eq!(err, CoralError::CheckFailed { check }, "{err}");
    assert!(!output_sent, "the honest party opened its outputs before detecting");
}

#[test]
fn honest_baseline_of_the_attack_setting_passes() {
    let (results, output_sent, want) = attempt(2, Deviation::none());
    for r in results {
        assert_eq!(r.unwrap(), want);
    }
    assert!(output_sent);
}

#[test]
fn wrong_low_bit_of_a_multiplication_opening() {
    caught_before_output(
        Deviation::wire(1, on_step(Step::ArithMultOpen, 0, flip_payload_bit(0))),
        Check::ArithMac,
    );
}

#[test]
fn wrong_top_value_bit_in_a_later_layer() {
    // Bit k − 1 of the second element's share in the second layer: the most significant bit of
    // the value, the hardest error for a check modulo 2^k (it survives only if α·χ is even at
    // every such position — which the s extra bits rule out).
    caught_before_output(
        Deviation::wire(1, on_step(Step::ArithMultOpen, 1, flip_payload_bit((K + S as usize) + K - 1))),
        Check::ArithMac,
    );
}

#[test]
fn an_error_in_the_upper_s_bits_never_yields_a_wrong_output() {
    // Adding 2^(k+s−1) to an opened difference changes only bits ≥ k of the product: the outputs
    // modulo 2^k stay right, and the check passes or fails depending on the parity of α·χ. Either
    // way no party returns a wrong output.
    for nth in 0..2 {
        let (results, _, want) = attempt(
            2,
            Deviation::wire(1, on_step(Step::ArithMultOpen, nth, flip_payload_bit(K + S as usize - 1))),
        );
        for r in results {
            match r {
                Ok(outputs) => assert_eq!(outputs, want),
                Err(e) => assert_eq!(e, CoralError::CheckFailed { check: Check::ArithMac }),
            }
        }
    }
}

#[test]
fn wrong_mac_share_of_a_triple() {
    caught_before_output(Deviation::material(1, |m| m.triples[0].a.mac ^= 1 << 3), Check::ArithMac);
}

#[test]
fn wrong_mac_key_share() {
    caught_before_output(Deviation::material(1, |m| m.alpha ^= 1 << 5), Check::ArithMac);
}

#[test]
fn wrong_mac_share_of_an_input_mask() {
    // Party 1's share of party 0's first input mask; that input feeds a multiplication in the
    // setting, so its error reaches an opening before any output.
    let (circuit, _) = setting();
    assert!(circuit.gates.iter().any(|g| g.op == crate::circuit::mixed::MixedOp::Mul));
    let (err, _) = attack(
        2,
        Deviation::material(1, |m| {
            for q in &mut m.input_masks {
                for mask in q.iter_mut() {
                    mask.share.mac ^= 1 << 9;
                }
            }
        }),
    );
    assert_eq!(err, CoralError::CheckFailed { check: Check::ArithMac });
}

#[test]
fn wrong_product_share_of_a_triple_is_caught_at_the_output_check() {
    // c is never opened on its own: its error reaches the outputs, whose opening's MAC check
    // fails — after the masked opening, before any party returns an output.
    let (err, _) = attack(
        2,
        Deviation::material(1, |m| {
            for t in &mut m.triples {
                t.c.value ^= 1;
            }
        }),
    );
    assert_eq!(err, CoralError::CheckFailed { check: Check::ArithMac });
}

#[test]
fn wrong_share_of_an_output_opening() {
    let (err, output_sent) =
        attack(2, Deviation::wire(1, on_step(Step::ArithOutput, 0, flip_payload_bit(2))));
    assert_eq!(err, CoralError::CheckFailed { check: Check::ArithMac });
    assert!(output_sent);
}

#[test]
fn tampered_coin_seed() {
    caught_before_output(
        Deviation::wire(1, on_step(Step::CoinOpen, 0, flip_payload_bit(9))),
        Check::CoinCommitment,
    );
}

#[test]
fn mac_check_value_changed_after_its_commitment() {
    caught_before_output(
        Deviation::wire(1, on_step(Step::MacOpen, 0, flip_payload_bit(2))),
        Check::MacCommitment,
    );
}

#[test]
fn an_input_owner_equivocating_between_two_honest_parties_is_caught() {
    // Three parties; party 2 sends one input difference to party 0 and another to party 1 (its
    // broadcast goes to party 0 first, then party 1). The honest parties' MAC shares then disagree
    // with the value, and the first check fails.
    let (err, output_sent) = attack(3, Deviation::wire(2, on_step(Step::ArithInput, 1, flip_payload_bit(4))));
    assert_eq!(err, CoralError::CheckFailed { check: Check::ArithMac });
    assert!(!output_sent);
}

#[test]
fn replayed_frame_is_rejected() {
    let mut first = None;
    let replay = move |_: u64, msg: &mut Vec<u8>| match &first {
        None => first = Some(msg.clone()),
        Some(f) => *msg = f.clone(),
    };
    let (err, output_sent) = attack(2, Deviation::wire(1, replay));
    assert!(matches!(err, CoralError::UnexpectedFrame { peer: 1, .. }), "{err}");
    assert!(!output_sent);
}

#[test]
fn truncated_frame_is_malformed() {
    let (err, output_sent) =
        attack(2, Deviation::wire(1, on_step(Step::ArithMultOpen, 0, |m| m.truncate(m.len() - 3))));
    assert!(
        matches!(err, CoralError::Malformed { peer: 1, step: "Spdz2k multiplication opening", .. }),
        "{err}"
    );
    assert!(!output_sent);
}
