//! The OT-based Spdz2k provider: material that runs the online phase correctly, triples that
//! are products, exact bytes of a material call, and attacks on its checks caught with typed
//! errors and no material.

use std::cell::RefCell;

use super::{dot_product, own, random_inputs, seeded};
use crate::circuit::mixed::{MixedCircuit, RingBits};
use crate::net::memory::MemoryNetwork;
use crate::net::tamper::Tamper;
use crate::net::Network;
use crate::ot::Extension;
use crate::proto::coral::arith::circuit::{demand, evaluate};
use crate::proto::coral::arith::ot::cope::column_bytes;
use crate::proto::coral::arith::ot::triples::{tau, CHUNK, EXTENSION};
use crate::proto::coral::arith::ot::ArithOtProvider;
use crate::proto::coral::arith::prep::{ArithDemand, ArithMaterial};
use crate::proto::coral::arith::ArithRing;
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::{Step, HEADER_BYTES};
use crate::rng::seeded_rng;

type Edit = Box<dyn FnMut(u64, &mut Vec<u8>)>;

/// Every party of an `n`-party session sets up the provider and makes material for `demand`;
/// party `attacker`'s messages go through `edit`. Returns each party's material (or error) and
/// its bytes sent by the material call alone.
fn provide_n(
    parties: usize,
    ring: RingBits,
    demand: &ArithDemand,
    attacker: usize,
    edit: Edit,
) -> Vec<Result<(ArithMaterial, u64), CoralError>> {
    let edit = RefCell::new(Some(edit));
    let futures: Vec<_> = MemoryNetwork::session(parties)
        .into_iter()
        .map(|net| {
            let me = net.party();
            let mut net = if me == attacker {
                let mut e = edit.borrow_mut().take().expect("one editor");
                Tamper::new(net, move |i, m| e(i, m))
            } else {
                Tamper::honest(net)
            };
            let demand = demand.clone();
            async move {
                let mut provider = ArithOtProvider::setup(
                    &mut net,
                    ArithRing::new(ring),
                    b"test session",
                    seeded_rng(300 + me as u64),
                )
                .await?;
                let before = net.stats().bytes_sent;
                let material = provider.material(&mut net, &demand).await?;
                Ok((material, net.stats().bytes_sent - before))
            }
        })
        .collect();
    futures::executor::block_on(futures::future::join_all(futures))
}

/// Two parties, party 1's messages through `edit`.
fn provide(
    ring: RingBits,
    demand: &ArithDemand,
    edit: Edit,
) -> Vec<Result<(ArithMaterial, u64), CoralError>> {
    provide_n(2, ring, demand, 1, edit)
}

fn honest(ring: RingBits, demand: &ArithDemand) -> Vec<(ArithMaterial, u64)> {
    provide(ring, demand, Box::new(|_, _| {})).into_iter().map(|r| r.expect("honest provider")).collect()
}

#[test]
fn material_from_ot_evaluates_a_dot_product_in_both_rings() {
    let circuit = dot_product(12);
    let owners: Vec<usize> = (0..24).map(|i| usize::from(i >= 12)).collect();
    for (ring, instances) in [(RingBits::K32, 3), (RingBits::K64, 1)] {
        let d = demand(&circuit, ring, &owners, 2, instances).unwrap();
        let materials: Vec<ArithMaterial> = honest(ring, &d).into_iter().map(|(m, _)| m).collect();
        let inputs = random_inputs(&mut seeded(5), &circuit, ring, instances);
        let (results, _) = super::run(materials, super::Deviation::none(), |mut party, mut net| {
            let mine = own(&inputs, &owners, party.party());
            let (circuit, owners) = (&circuit, owners.clone());
            async move { evaluate(&mut party, &mut net, circuit, &owners, &mine).await }
        });
        let want: Vec<Vec<u64>> = inputs.iter().map(|x| circuit.evaluate(x, ring).unwrap()).collect();
        for r in results {
            assert_eq!(r.unwrap(), want, "k = {}", ring.bits());
        }
    }
}

#[test]
fn material_from_ot_runs_comparisons_a_sort_with_two_and_a_comparison_program_with_three_parties() {
    use crate::circuit::mixed::gen::{compare_count, sort};
    evaluates_on_ot_material(&sort(4), 2, RingBits::K32, 10);
    evaluates_on_ot_material(&compare_count(2), 3, RingBits::K64, 10);
}

/// `parties` parties make OT material for two instances of `circuit` (inputs owned round-robin)
/// and evaluate it; every party gets the plaintext outputs.
fn evaluates_on_ot_material(circuit: &MixedCircuit, parties: usize, ring: RingBits, seed: u64) {
    let owners: Vec<usize> = (0..circuit.inputs as usize).map(|i| i % parties).collect();
    let d = demand(circuit, ring, &owners, parties, 2).unwrap();
    let materials: Vec<ArithMaterial> = provide_n(parties, ring, &d, usize::MAX, Box::new(|_, _| {}))
        .into_iter()
        .map(|r| r.expect("honest provider").0)
        .collect();
    let inputs = random_inputs(&mut seeded(seed), circuit, ring, 2);
    let (results, _) = super::run(materials, super::Deviation::none(), |mut party, mut net| {
        let mine = own(&inputs, &owners, party.party());
        let owners = owners.clone();
        async move { evaluate(&mut party, &mut net, circuit, &owners, &mine).await }
    });
    let want: Vec<Vec<u64>> = inputs.iter().map(|x| circuit.evaluate(x, ring).unwrap()).collect();
    for (p, r) in results.into_iter().enumerate() {
        assert_eq!(r.unwrap(), want, "party {p} of {parties}");
    }
}

#[test]
fn triples_are_products_and_masks_are_known_to_their_owner_only() {
    let d = ArithDemand { triples: CHUNK + 3, input_masks: vec![2, 3], output_masks: 2 };
    let ring = ArithRing::new(RingBits::K64);
    let m = honest(RingBits::K64, &d);
    let (m0, m1) = (&m[0].0, &m[1].0);
    let sum = |x: u128, y: u128| ring.reduce(x.wrapping_add(y));
    let alpha = m0.alpha.wrapping_add(m1.alpha);
    for (t0, t1) in m0.triples.iter().zip(&m1.triples) {
        let (a, b, c) =
            (sum(t0.a.value, t1.a.value), sum(t0.b.value, t1.b.value), sum(t0.c.value, t1.c.value));
        assert_eq!(c, ring.reduce(a.wrapping_mul(b)), "c = a·b modulo 2^(k+s)");
        for (s0, s1) in [(t0.a, t1.a), (t0.b, t1.b), (t0.c, t1.c)] {
            assert_eq!(sum(s0.mac, s1.mac), ring.reduce(alpha.wrapping_mul(sum(s0.value, s1.value))), "MAC");
        }
    }
    for owner in 0..2 {
        assert_eq!(m0.input_masks[owner].len(), d.input_masks[owner]);
        for (x0, x1) in m0.input_masks[owner].iter().zip(&m1.input_masks[owner]) {
            let r = sum(x0.share.value, x1.share.value);
            let (mine, other) = if owner == 0 { (x0, x1) } else { (x1, x0) };
            assert_eq!(mine.value, Some(r));
            assert_eq!(other.value, None);
            assert_eq!(sum(x0.share.mac, x1.share.mac), ring.reduce(alpha.wrapping_mul(r)));
        }
    }
    assert_eq!(m0.output_masks.len(), 2);
}

/// The bytes party 0 sends in one material call, from the formula of the module docs.
#[test]
fn bytes_of_a_material_call_are_exact() {
    let d = ArithDemand { triples: CHUNK + 5, input_masks: vec![4, 1], output_masks: 3 };
    for ring in [RingBits::K32, RingBits::K64] {
        let r = ArithRing::new(ring);
        let e = r.element_bytes();
        let tau = tau(r);
        let chunks = [CHUNK, 5];
        let h = HEADER_BYTES;
        let coin = 2 * (32 + h);
        let ot: usize = chunks
            .iter()
            .map(|&n| {
                let [s, rc] = EXTENSION.extension_bytes(n * tau);
                s + rc + n * tau * e + h + coin
            })
            .sum();
        let elements = 5 * d.triples + 3 + 4 + 1 + 1;
        let cope = column_bytes(r, elements) + h;
        let auth = coin + 2 * e + h + 1 + h;
        let sacrifice = coin + 2 * (d.triples * e + h);
        let mac = coin + 32 + h + e + 32 + h;
        let m = honest(ring, &d);
        assert_eq!(m[0].1 as usize, ot + cope + auth + sacrifice + mac, "k = {}", ring.bits());
        assert!(matches!(EXTENSION, Extension::SoftSpoken { .. }));
    }
}

/// Payload bytes of each step's frames in the attack setting (20 triples, k = 32), so the OT
/// engine's own messages (no Coral header) are never taken for one.
fn payload(step: Step) -> usize {
    let ring = ArithRing::new(RingBits::K32);
    let e = ring.element_bytes();
    match step {
        Step::ArithCopeColumns => column_bytes(ring, 5 * 20 + 2 + 2 + 2 + 1),
        Step::ArithAuthOpen => 2 * e,
        Step::ArithOtMultiply => 20 * tau(ring) * e,
        Step::ArithSacrifice => 20 * e,
        _ => 32,
    }
}

/// Runs the provider (20 triples, k = 32) with party 1 editing the `nth` frame of `step`;
/// party 0's error.
fn attack(step: Step, nth: usize, mut f: impl FnMut(&mut Vec<u8>) + 'static) -> CoralError {
    let d = ArithDemand { triples: 20, input_masks: vec![2, 2], output_masks: 2 };
    let mut seen = 0usize;
    let len = HEADER_BYTES + payload(step);
    let edit: Edit = Box::new(move |_, msg| {
        if msg.first() == Some(&(step as u8)) && msg.len() == len {
            if seen == nth {
                f(msg);
            }
            seen += 1;
        }
    });
    let results = provide(RingBits::K32, &d, edit);
    results.into_iter().next().unwrap().expect_err("the honest party refuses the material")
}

/// Where each COPE column starts in a frame of `elements` elements (k = 32).
fn column_starts(elements: usize) -> Vec<usize> {
    let ring = ArithRing::new(RingBits::K32);
    (0..48u32)
        .scan(0usize, |at, l| {
            let start = *at;
            *at += (ring.share_bits() - l).div_ceil(8) as usize * elements;
            Some(start)
        })
        .collect()
}

fn flip(bit: usize) -> impl FnMut(&mut Vec<u8>) {
    move |m| m[HEADER_BYTES + bit / 8] ^= 1 << (bit % 8)
}

#[test]
fn inconsistent_cope_columns_fail_the_authentication_check() {
    // Party 1 changes the first element by ±1 in every column (bit 0 of its entry in each
    // column): the honest key holder's MAC share of it is off by Σ_l ±2^l·α_l, non-zero for any
    // non-zero key, and the check's random combination exposes it. (A change in one column only
    // is caught only if the key bit of that column is 1: the selective failure of cope.rs.)
    let starts = column_starts(5 * 20 + 2 + 2 + 2 + 1);
    let err = attack(Step::ArithCopeColumns, 0, move |m| {
        for &at in &starts {
            m[HEADER_BYTES + at] ^= 1;
        }
    });
    assert_eq!(err, CoralError::CheckFailed { check: Check::ArithAuthentication });
}

#[test]
fn a_wrong_authentication_combination_is_caught() {
    assert_eq!(
        attack(Step::ArithAuthOpen, 0, flip(0)),
        CoralError::CheckFailed { check: Check::ArithAuthentication }
    );
    assert_eq!(
        attack(Step::ArithAuthOpen, 0, flip(90)),
        CoralError::CheckFailed { check: Check::ArithAuthentication }
    );
}

#[test]
fn wrong_ot_multiplication_corrections_fail_the_sacrifice() {
    // Every correction d off by one: c_l is wrong wherever the honest bit a_l is 1, so the
    // combined c and ĉ are wrong and t·c − ĉ − ρ·b ≠ 0.
    let err = attack(Step::ArithOtMultiply, 0, |m| {
        for b in m[HEADER_BYTES..].chunks_mut(10) {
            b[0] = b[0].wrapping_add(1);
        }
    });
    assert_eq!(err, CoralError::CheckFailed { check: Check::ArithSacrifice });
}

#[test]
fn a_wrong_sacrifice_opening_is_caught() {
    let err = attack(Step::ArithSacrifice, 0, flip(1));
    assert!(
        matches!(err, CoralError::CheckFailed { check: Check::ArithSacrifice | Check::ArithMac }),
        "{err}"
    );
    assert_eq!(
        attack(Step::ArithSacrifice, 1, flip(1)),
        CoralError::CheckFailed { check: Check::ArithSacrifice }
    );
}

#[test]
fn a_tampered_combine_coin_and_truncated_columns_are_typed() {
    assert_eq!(attack(Step::CoinOpen, 0, flip(5)), CoralError::CheckFailed { check: Check::CoinCommitment });
    let err = attack(Step::ArithCopeColumns, 0, |m| m.truncate(m.len() - 1));
    assert!(matches!(err, CoralError::Malformed { peer: 1, step: "Spdz2k COPE columns", .. }), "{err}");
}

#[test]
fn three_and_four_parties_make_material_that_evaluates_a_ring_circuit() {
    for (parties, ring) in [(3, RingBits::K32), (4, RingBits::K64)] {
        let circuit = super::random_ring_circuit(&mut seeded(parties as u64), 6, 40, 3);
        evaluates_on_ot_material(&circuit, parties, ring, 9);
    }
}

#[test]
fn a_cheater_towards_one_of_two_honest_parties_makes_both_abort() {
    // Three parties; party 2 changes its COPE columns to party 0 only (its first columns frame
    // goes to party 0). Party 0's check fails, and party 1 learns it from the verdicts: both
    // honest parties abort naming the check.
    let d = ArithDemand { triples: 20, input_masks: vec![2, 2], output_masks: 2 };
    let mut seen = 0;
    let len = HEADER_BYTES + payload(Step::ArithCopeColumns);
    let starts = column_starts(5 * 20 + 2 + 2 + 2 + 1);
    let edit: Edit = Box::new(move |_, m| {
        if m.first() == Some(&(Step::ArithCopeColumns as u8)) && m.len() == len {
            if seen == 0 {
                for &at in &starts {
                    m[HEADER_BYTES + at] ^= 1;
                }
            }
            seen += 1;
        }
    });
    let results = provide_n(3, RingBits::K32, &d, 2, edit);
    for (p, result) in results.iter().enumerate().take(2) {
        let err = result.as_ref().map(|_| ()).expect_err("honest parties abort");
        assert_eq!(*err, CoralError::CheckFailed { check: Check::ArithAuthentication }, "party {p}");
    }
}

#[test]
fn nine_parties_are_refused() {
    let futures: Vec<_> = MemoryNetwork::session(9)
        .into_iter()
        .map(|mut net| async move {
            ArithOtProvider::setup(&mut net, ArithRing::new(RingBits::K32), b"s", seeded_rng(1))
                .await
                .map(|_| ())
        })
        .collect();
    for r in futures::executor::block_on(futures::future::join_all(futures)) {
        assert!(matches!(r, Err(CoralError::Limit { found: 9, limit: 8, .. })));
    }
}
