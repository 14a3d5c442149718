//! Attacks: a deviating party (party 1 unless said otherwise) edits what it sends or uses wrong
//! material; each deviation makes the honest party abort with the check that caught it, and —
//! for deviations before the outputs — before any output frame is sent.

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use super::circuits::{own, random_circuit, random_inputs};
use super::{deal, flip_payload_bit, on_step, params, run, run_recorded, Deviation};
use crate::circuit::Circuit;
use crate::proto::coral::circuit::{demand, evaluate};
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::{Step, HEADER_BYTES};
use crate::proto::coral::online::InputRequest;
use crate::proto::coral::prep::{CoralMaterial, Demand};
use crate::proto::coral::rconv;
use crate::proto::coral::share::LANES;

/// A small random circuit with several AND layers, two owners, a batch of 20 (partial pack).
fn setting() -> (Circuit, Vec<Vec<Vec<bool>>>) {
    let mut rng = ChaCha20Rng::seed_from_u64(31);
    let circuit = random_circuit(&mut rng, 2, 60, 2);
    assert!(circuit.and_depth() >= 2, "the attacks need at least two AND layers");
    let inputs = random_inputs(&mut rng, &circuit, 20);
    (circuit, inputs)
}

/// Runs the setting with `deviation`; returns the honest party's (party 0's) error and whether it
/// sent an output frame. Asserts that no party obtained outputs.
fn attack(deviation: Deviation) -> (CoralError, bool) {
    let (circuit, inputs) = setting();
    let owners = [0usize, 1];
    let d = demand(&circuit, &owners, 2, inputs.len()).unwrap();
    let (results, sent) = run_recorded(deal(77, 2, &d), deviation, |mut party, mut net| {
        let mine = own(&inputs, &owners, party.party());
        let circuit = &circuit;
        async move { evaluate(&mut party, &mut net, circuit, &owners, 20, &mine).await }
    });
    for r in &results {
        assert!(r.is_err(), "a party returned outputs despite the deviation");
    }
    let honest_sent_output = sent[0].contains(&(Step::Output as u8));
    (results.into_iter().next().unwrap().unwrap_err(), honest_sent_output)
}

fn assert_caught_before_output(deviation: Deviation, check: Check) {
    let (err, output_sent) = attack(deviation);
    assert_eq!(err, CoralError::CheckFailed { check }, "{err}");
    assert!(!output_sent, "the honest party opened its outputs before detecting");
}

#[test]
fn honest_baseline_of_the_attack_setting_passes() {
    let (circuit, inputs) = setting();
    let owners = [0usize, 1];
    let d = demand(&circuit, &owners, 2, inputs.len()).unwrap();
    let results = run(deal(77, 2, &d), Deviation::none(), |mut party, mut net| {
        let mine = own(&inputs, &owners, party.party());
        let circuit = &circuit;
        async move { evaluate(&mut party, &mut net, circuit, &owners, 20, &mine).await }
    });
    for r in results {
        let out = r.unwrap();
        for (i, inst) in inputs.iter().enumerate() {
            assert_eq!(out[i], circuit.evaluate(inst).unwrap());
        }
    }
}

#[test]
fn wrong_opened_share_in_a_multiplication() {
    assert_caught_before_output(
        Deviation::wire(1, on_step(Step::MultOpen, 0, flip_payload_bit(3))),
        Check::Mac,
    );
}

#[test]
fn wrong_opened_share_in_a_later_layer() {
    assert_caught_before_output(
        Deviation::wire(1, on_step(Step::MultOpen, 1, flip_payload_bit(50))),
        Check::Mac,
    );
}

#[test]
fn wrong_mac_share_of_a_quintuple() {
    assert_caught_before_output(Deviation::material(1, |m| m.quintuples[0].a.mac ^= 1 << 7), Check::Mac);
}

#[test]
fn wrong_quintuple_product_component() {
    // c of the first AND feeds later layers' openings (or the outputs): caught by a MAC check,
    // before outputs if it reaches a later opening.
    let (err, _) = attack(Deviation::material(1, |m| {
        for q in m.quintuples.iter_mut() {
            q.c.value ^= 1;
        }
    }));
    assert_eq!(err, CoralError::CheckFailed { check: Check::Mac });
}

#[test]
fn wrong_tau_a_component() {
    let (err, _) = attack(Deviation::material(1, |m| {
        for q in m.quintuples.iter_mut() {
            q.tau_a.value ^= 1 << 20;
        }
    }));
    assert_eq!(err, CoralError::CheckFailed { check: Check::Mac });
}

#[test]
fn wrong_opened_output_share() {
    let (err, _) = attack(Deviation::wire(1, on_step(Step::Output, 0, flip_payload_bit(0))));
    assert_eq!(err, CoralError::CheckFailed { check: Check::Mac });
}

#[test]
fn tampered_mac_check_coin_seed() {
    assert_caught_before_output(
        Deviation::wire(1, on_step(Step::CoinOpen, 0, flip_payload_bit(9))),
        Check::CoinCommitment,
    );
}

#[test]
fn tampered_mac_check_sigma_after_commitment() {
    assert_caught_before_output(
        Deviation::wire(1, on_step(Step::MacOpen, 0, flip_payload_bit(2))),
        Check::MacCommitment,
    );
}

#[test]
fn replayed_frame_is_rejected() {
    let mut first: Option<Vec<u8>> = None;
    let replay = move |_: u64, msg: &mut Vec<u8>| {
        if msg.first() == Some(&(Step::MultOpen as u8)) {
            match &first {
                None => first = Some(msg.clone()),
                Some(old) => *msg = old.clone(),
            }
        }
    };
    let (err, output_sent) = attack(Deviation::wire(1, replay));
    assert!(matches!(err, CoralError::UnexpectedFrame { peer: 1, .. }), "{err}");
    assert!(!output_sent);
}

#[test]
fn truncated_frame_is_malformed() {
    let (err, output_sent) = attack(Deviation::wire(
        1,
        on_step(Step::MultOpen, 0, |m: &mut Vec<u8>| {
            m.pop();
        }),
    ));
    assert!(matches!(err, CoralError::Malformed { peer: 1, .. }), "{err}");
    assert!(!output_sent);
}

/// rConv of 2 packs of dealt tBits, then outputs; party 1 deviates.
fn rconv_attack(deviation: Deviation) -> (CoralError, bool) {
    let packs = 2;
    let mut d = rconv::demand(2, packs);
    d.tbits += packs * LANES;
    d.encodings = packs;
    let (results, sent) = run_recorded(deal(5, 2, &d), deviation, |mut party, mut net| async move {
        let bits = party.material_mut().take_tbits(packs * LANES)?;
        let ys = party.rconv(&mut net, &bits).await?;
        party.output(&mut net, &ys).await
    });
    for r in &results {
        assert!(r.is_err(), "a party returned outputs despite the deviation");
    }
    (results.into_iter().next().unwrap().unwrap_err(), sent[0].contains(&(Step::Output as u8)))
}

/// XORs `delta` into the first 42-bit element of a payload.
fn add_to_first_element(delta: u64) -> impl FnMut(&mut Vec<u8>) {
    move |msg| {
        for (i, byte) in delta.to_le_bytes().iter().take(6).enumerate() {
            msg[HEADER_BYTES + i] ^= byte;
        }
    }
}

#[test]
fn rconv_non_normal_input_fails_normality() {
    let p = params();
    // x^41 is not in the image of φ (τ(x^41) ≠ x^41).
    let bad = 1u64 << 41;
    assert_ne!(p.tau(bad), bad);
    let (err, sent) =
        rconv_attack(Deviation::wire(1, on_step(Step::RConvInput, 0, add_to_first_element(bad))));
    assert_eq!(err, CoralError::CheckFailed { check: Check::RConvNormality });
    assert!(!sent);
}

#[test]
fn rconv_normal_but_inconsistent_input_fails_consistency() {
    let p = params();
    let wrong = p.phi(1); // normal: changes lane 0 of the first pack
    assert_eq!(p.tau(wrong), wrong);
    let (err, sent) =
        rconv_attack(Deviation::wire(1, on_step(Step::RConvInput, 0, add_to_first_element(wrong))));
    assert_eq!(err, CoralError::CheckFailed { check: Check::RConvConsistency });
    assert!(!sent);
}

#[test]
fn rconv_flipped_tinyot_bit_fails_the_tinyot_mac() {
    let s = rconv::RCONV_SECURITY;
    let z_first_bit = crate::proto::coral::messages::field_bytes(s) * 8;
    let (err, sent) =
        rconv_attack(Deviation::wire(1, on_step(Step::RConvOpen, 0, flip_payload_bit(z_first_bit))));
    assert_eq!(err, CoralError::CheckFailed { check: Check::TinyMac });
    assert!(!sent);
}

#[test]
fn rconv_wrong_opened_w_share_fails_normality_or_the_mac_check() {
    let (err, sent) = rconv_attack(Deviation::wire(1, on_step(Step::RConvOpen, 0, flip_payload_bit(41))));
    assert!(
        matches!(
            err,
            CoralError::CheckFailed { check: Check::RConvNormality | Check::RConvConsistency | Check::Mac }
        ),
        "{err}"
    );
    assert!(!sent);
}

#[test]
fn rconv_tampered_coin_seed() {
    let (err, sent) = rconv_attack(Deviation::wire(1, on_step(Step::CoinOpen, 0, flip_payload_bit(200))));
    assert_eq!(err, CoralError::CheckFailed { check: Check::CoinCommitment });
    assert!(!sent);
}

fn cmul_attack(deviation: Deviation) -> CoralError {
    let demand = Demand { encodings: 4, input_masks: vec![2, 0], ..Demand::default() };
    let results = run(deal(8, 2, &demand), deviation, |mut party, mut net| async move {
        let me = party.party();
        let req = [
            InputRequest { owner: 0, lanes: (me == 0).then_some(0x2a5b) },
            InputRequest { owner: 0, lanes: (me == 0).then_some(0x1111) },
        ];
        let x = party.input(&mut net, &req).await?;
        let z = party.const_mul(&mut net, &x, &[0x3f0f, 0x0ff0]).await?;
        party.output(&mut net, &z).await
    });
    assert!(results.iter().all(Result::is_err));
    results.into_iter().next().unwrap().unwrap_err()
}

#[test]
fn wrong_constant_multiplication_opening() {
    assert_eq!(
        cmul_attack(Deviation::wire(1, on_step(Step::ConstMulOpen, 0, flip_payload_bit(5)))),
        CoralError::CheckFailed { check: Check::Mac }
    );
}

#[test]
fn wrong_encoding_pair_component() {
    let err =
        cmul_attack(Deviation::material(1, |m: &mut CoralMaterial| m.encodings[0].tau_r.value ^= 1 << 3));
    assert_eq!(err, CoralError::CheckFailed { check: Check::Mac });
}

#[test]
fn three_parties_one_cheater_is_caught_by_both_honest_parties() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let circuit = random_circuit(&mut rng, 3, 40, 2);
    let inputs = random_inputs(&mut rng, &circuit, 9);
    let owners = [0usize, 1, 2];
    let d = demand(&circuit, &owners, 3, 9).unwrap();
    let (results, sent) = run_recorded(
        deal(9, 3, &d),
        Deviation::wire(2, on_step(Step::MultOpen, 0, flip_payload_bit(1))),
        |mut party, mut net| {
            let mine = own(&inputs, &owners, party.party());
            let circuit = &circuit;
            async move { evaluate(&mut party, &mut net, circuit, &owners, 9, &mine).await }
        },
    );
    // The edit hits only the frame to party 0 (the first one sent); party 1 sees the honest one.
    assert_eq!(results[0], Err(CoralError::CheckFailed { check: Check::Mac }));
    assert_eq!(results[1], Err(CoralError::CheckFailed { check: Check::Mac }));
    assert!(results[2].is_err());
    assert!(!sent[0].contains(&(Step::Output as u8)) && !sent[1].contains(&(Step::Output as u8)));
}
