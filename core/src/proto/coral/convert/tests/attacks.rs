//! A cheating party at every new step of the conversions — its daBit inputs differ between the
//! two sharings (n = 2, 3, 4), an equivocated input, a wrong opening of a check combination, of
//! rB2A's or A2B's masked value, of an AND of A2B's adder, a wrong mask, a truncated or replayed
//! frame: every honest party aborts with a typed error naming the check, and no output is
//! opened.

use super::{deal_both, run, Deviation, Materials};
use crate::circuit::mixed::RingBits;
use crate::proto::coral::arith::AShare;
use crate::proto::coral::convert::a2b::{self, a2b, edabits_of};
use crate::proto::coral::convert::b2a::{self, b2a};
use crate::proto::coral::convert::dabits::dabits;
use crate::proto::coral::convert::{output_arith, ConvertDemand};
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::Step;
use crate::proto::coral::share::LANES;
use crate::proto::coral::tests::{flip_payload_bit, on_step, params};

const K: u32 = 32;
const VALUES: usize = 15;

/// Party 1's 15 values of 32 bits through A2B, their bits back through rB2A, the values
/// recombined and opened; one party deviates. Returns the errors of the honest parties (all
/// must fail) and whether any honest party sent an output frame.
fn pipeline_attack(parties: usize, deviation: Deviation) -> (Vec<CoralError>, bool) {
    let packs = a2b::packs(VALUES);
    let mut demand = ConvertDemand::empty(parties);
    a2b::add_demand(&mut demand, VALUES, K, parties);
    b2a::add_demand(&mut demand, packs * K as usize, parties);
    demand.arith.input_masks[1] += VALUES;
    demand.arith.output_masks += VALUES;
    let attacker = deviation.attacker;
    let (results, sent) =
        run(deal_both(21, RingBits::K32, parties, &demand), deviation, |mut b, mut a, mut net| async move {
            let values: Vec<u64> = (0..VALUES as u64).map(|v| v * 0x0101_0101 + 7).collect();
            let own = if a.party() == 1 { values } else { Vec::new() };
            let xs = a.input(&mut net, &[1; VALUES], &own).await?;
            let d = dabits(&mut b, &mut a, &mut net, packs * K as usize).await?;
            let bits: Vec<_> =
                a2b(&mut b, &mut a, &mut net, &xs, &edabits_of(&d, K)).await?.into_iter().flatten().collect();
            let d = dabits(&mut b, &mut a, &mut net, bits.len()).await?;
            let lanes = b2a(&mut b, &mut a, &mut net, &bits, &d).await?;
            let values: Vec<AShare> = (0..VALUES)
                .map(|v| {
                    (0..K as usize).fold(AShare::default(), |acc, i| {
                        acc + lanes[(v / LANES) * K as usize + i][v % LANES].scale(1 << i)
                    })
                })
                .collect();
            output_arith(&mut b, &mut a, &mut net, &values).await
        });
    let mut errors = Vec::new();
    let mut output_sent = false;
    for (p, result) in results.into_iter().enumerate().filter(|&(p, _)| p != attacker) {
        errors.push(result.expect_err("an honest party returned outputs despite the deviation"));
        output_sent |= sent[p].iter().any(|&t| t == Step::ArithOutput as u8 || t == Step::Output as u8);
    }
    (errors, output_sent)
}

fn assert_check(parties: usize, deviation: Deviation, checks: &[Check]) {
    let (errors, output_sent) = pipeline_attack(parties, deviation);
    for e in &errors {
        assert!(
            matches!(e, CoralError::CheckFailed { check } if checks.contains(check)),
            "expected one of {checks:?}, got {e}"
        );
    }
    assert!(!output_sent, "an honest party opened an output");
}

/// A bit of the attacker's masked boolean daBit input whose flip changes ψ (so its lanes differ
/// from the bits it input arithmetically).
fn lane_changing_bit() -> usize {
    (0..42).find(|&b| params().psi(1 << b) != 0).expect("ψ is onto")
}

/// The attacker believes mask `index` of its own boolean input masks is `r ⊕ e` (e changes the
/// lanes): it inputs lanes ψ(e) away from the bits it inputs arithmetically, consistently
/// towards everybody.
fn boolean_input_off(attacker: usize, index: usize) -> Deviation {
    let e = 1u64 << lane_changing_bit();
    Deviation::material(attacker, move |(boolean, _): &mut Materials| {
        let mask = &mut boolean.input_masks[attacker][index];
        mask.value = mask.value.map(|r| r ^ e);
    })
}

#[test]
fn boolean_dabit_input_different_from_the_arithmetic_one_is_caught() {
    for (parties, attacker) in [(2, 1), (3, 1), (4, 3)] {
        assert_check(parties, boolean_input_off(attacker, 0), &[Check::DaBitConsistency]);
    }
    // In the second batch of daBits (rB2A's): its packs follow the first batch's 64 + 40.
    assert_check(2, boolean_input_off(1, 104 + 60), &[Check::DaBitConsistency]);
}

#[test]
fn arithmetic_dabit_input_off_by_one_is_caught() {
    // The attacker believes its first arithmetic input mask is r + 1: its bit b is input as
    // b − 1, the other bit (the halves differ) or −1 (not a bit).
    for (parties, attacker) in [(2, 1), (3, 2)] {
        let d = Deviation::material(attacker, move |(_, arith): &mut Materials| {
            // Its first masks are spent on the values when it is party 1.
            let mask = &mut arith.input_masks[attacker][if attacker == 1 { VALUES } else { 0 }];
            mask.value = mask.value.map(|r| r + 1);
        });
        assert_check(parties, d, &[Check::DaBitConsistency, Check::ArithBit]);
    }
}

#[test]
fn equivocating_a_dabit_input_is_caught() {
    // The masked input with one bit flipped towards the first peer only (n = 3), or towards the
    // only one (n = 2, where the attacker's own MAC share disagrees).
    let bit = lane_changing_bit();
    for parties in [2, 3] {
        let d = Deviation::wire(1, on_step(Step::DaBitInput, 0, flip_payload_bit(bit)));
        assert_check(parties, d, &[Check::Mac]);
    }
}

#[test]
fn wrong_openings_of_the_dabit_check_are_caught_by_the_mac_checks() {
    assert_check(2, Deviation::wire(1, on_step(Step::DaBitCheck, 0, flip_payload_bit(3))), &[Check::Mac]);
    assert_check(
        3,
        Deviation::wire(2, on_step(Step::DaBitParity, 0, flip_payload_bit(31))),
        &[Check::ArithMac],
    );
}

#[test]
fn wrong_conversion_openings_are_caught_before_any_output() {
    // A2B's masked value (adds to x), an AND of its adder, rB2A's masked lanes.
    assert_check(2, Deviation::wire(1, on_step(Step::A2bOpen, 0, flip_payload_bit(5))), &[Check::ArithMac]);
    assert_check(3, Deviation::wire(1, on_step(Step::MultOpen, 7, flip_payload_bit(2))), &[Check::Mac]);
    assert_check(
        2,
        Deviation::wire(1, on_step(Step::B2aOpen, 0, flip_payload_bit(bit_of_lane()))),
        &[Check::Mac],
    );
}

/// A bit of an opened element whose flip changes its lanes (so rB2A's results change).
fn bit_of_lane() -> usize {
    lane_changing_bit()
}

#[test]
fn a_wrong_mask_in_a_check_opening_among_four_is_caught() {
    let d = Deviation::material(2, |(_, arith): &mut Materials| {
        arith.output_masks[0].mac ^= 1;
    });
    assert_check(4, d, &[Check::ArithMac]);
}

#[test]
fn truncated_and_replayed_conversion_frames_are_typed_errors() {
    let (errors, output_sent) = pipeline_attack(
        2,
        Deviation::wire(
            1,
            on_step(Step::A2bOpen, 0, |m: &mut Vec<u8>| {
                m.pop();
            }),
        ),
    );
    assert!(matches!(errors[0], CoralError::Malformed { peer: 1, .. }), "{}", errors[0]);
    assert!(!output_sent);
    let mut first: Option<Vec<u8>> = None;
    let replay = move |_: u64, m: &mut Vec<u8>| {
        if m.first() == Some(&(Step::B2aOpen as u8)) || m.first() == Some(&(Step::DaBitCheck as u8)) {
            match &first {
                None => first = Some(m.clone()),
                Some(old) => *m = old.clone(),
            }
        }
    };
    let (errors, output_sent) = pipeline_attack(2, Deviation::wire(1, replay));
    assert!(matches!(errors[0], CoralError::UnexpectedFrame { peer: 1, .. }), "{}", errors[0]);
    assert!(!output_sent);
}
