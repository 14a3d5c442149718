//! The OT-based provider among three and four parties (n-party TinyOT, pairwise COPE, the same
//! checks): material relations reconstructed from every party's shares and MACs, circuits
//! against the plaintext, and deviations by one party — every honest party aborts with a typed
//! error and gets no material.

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use super::circuits::{random_circuit, random_inputs};
use super::ot_provider::{evaluate_with_ot_among, run_ot_among};
use super::{aes_circuit, params};
use crate::circuit::aes_bristol::{output_bytes, value_bits};
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::prep::ot::Cheat;
use crate::proto::coral::prep::{CoralMaterial, Demand, Quintuple};
use crate::proto::coral::share::{RShare, TinyBit};

fn open(shares: impl Iterator<Item = RShare>) -> (u64, u64) {
    shares.fold((0, 0), |(v, m), s| (v ^ s.value, m ^ s.mac))
}

/// Checks every pairwise MAC of one TinyOT-shared bit and returns its value.
fn check_tiny(m: &[CoralMaterial], bits: &[&TinyBit]) -> bool {
    let n = m.len();
    let mut v = false;
    for p in 0..n {
        for q in (0..n).filter(|&q| q != p) {
            let expected = bits[q].keys[p] ^ if bits[p].bit { m[q].delta } else { 0 };
            assert_eq!(bits[p].macs[q], expected, "MAC of party {p}'s share under party {q}'s Δ");
        }
        v ^= bits[p].bit;
    }
    v
}

#[test]
fn ot_material_among_three_and_four_parties_satisfies_every_relation() {
    for n in [3, 4] {
        let demand = Demand { quintuples: 2, encodings: 3, input_masks: vec![2; n], tbits: 5, ttriples: 4 };
        let m: Vec<CoralMaterial> = run_ot_among(n, &demand, None, None, |m, _| async move { Ok(m) })
            .into_iter()
            .map(|r| r.expect("honest provider").0)
            .collect();
        let p = params();
        let alpha = m.iter().fold(0, |a, x| a ^ x.alpha);
        let rel = |(v, mac): (u64, u64), what: &str| {
            assert_eq!(mac, p.mul(alpha, v), "MAC relation of {what} ({n} parties)");
            v
        };
        for j in 0..2 {
            let get = |f: fn(&Quintuple) -> RShare| open(m.iter().map(|x| f(&x.quintuples[j])));
            let (a, b) = (rel(get(|q| q.a), "a"), rel(get(|q| q.b), "b"));
            assert_eq!(rel(get(|q| q.c), "c"), p.phi(p.psi(a) & p.psi(b)));
            assert_eq!(rel(get(|q| q.tau_a), "τ(a)"), p.tau(a));
            assert_eq!(rel(get(|q| q.tau_b), "τ(b)"), p.tau(b));
        }
        for j in 0..3 {
            let r = rel(open(m.iter().map(|x| x.encodings[j].r)), "r");
            assert_eq!(rel(open(m.iter().map(|x| x.encodings[j].tau_r)), "τ(r)"), p.tau(r));
        }
        for owner in 0..n {
            for j in 0..2 {
                let r = rel(open(m.iter().map(|x| x.input_masks[owner][j].share)), "input mask");
                for (i, x) in m.iter().enumerate() {
                    let mask = &x.input_masks[owner][j];
                    assert_eq!(mask.value, (i == owner).then_some(r));
                    assert!(i == owner || mask.share.value == 0);
                }
            }
        }
        for j in 0..5 {
            check_tiny(&m, &m.iter().map(|x| &x.tbits[j]).collect::<Vec<_>>());
        }
        for j in 0..4 {
            let [x, y, z] =
                [0, 1, 2].map(|t| check_tiny(&m, &m.iter().map(|p| &p.ttriples[j][t]).collect::<Vec<_>>()));
            assert_eq!(z, x & y, "tTriple {j}");
        }
    }
}

#[test]
fn aes_128_fips_197_among_three_parties_with_ot_material() {
    let circuit = aes_circuit();
    let key: Vec<u8> = (0..16).collect();
    let plaintext: Vec<u8> = (0..16).map(|i| (i * 0x11) as u8).collect();
    let fips =
        [0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a];
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let mut inputs = random_inputs(&mut rng, circuit, 2);
    inputs[0] = vec![value_bits(&key), value_bits(&plaintext)];
    // The key from party 2, the plaintext from party 1; party 0 only computes.
    let outs = evaluate_with_ot_among(3, circuit, &[2, 1], &inputs);
    assert_eq!(outs.len(), 3);
    for out in outs {
        assert_eq!(output_bytes(&out[0][0]).expect("128 bits"), fips, "FIPS-197 C.1");
        assert_eq!(out[1], circuit.evaluate(&inputs[1]).unwrap());
    }
}

#[test]
fn a_random_circuit_among_four_parties_with_ot_material_matches_plaintext() {
    let mut rng = ChaCha20Rng::seed_from_u64(321);
    let circuit = random_circuit(&mut rng, 4, 60, 2);
    let inputs = random_inputs(&mut rng, &circuit, 15);
    for out in evaluate_with_ot_among(4, &circuit, &[0, 1, 2, 3], &inputs) {
        for (i, inst) in inputs.iter().enumerate() {
            assert_eq!(out[i], circuit.evaluate(inst).unwrap(), "instance {i}");
        }
    }
}

/// Party 1 deviates among `n`; every other party must fail with `expected`.
fn caught(n: usize, demand: &Demand, cheat: Cheat, expected: CoralError) {
    let results = run_ot_among(n, demand, None, Some(cheat), |m, _| async move { Ok(m) });
    for (i, r) in results.into_iter().enumerate() {
        match (i, r) {
            (1, r) => assert!(r.is_err(), "the attacker got material"),
            (_, Err(e)) => assert_eq!(e, expected, "party {i} of {n}, {cheat:?}"),
            (_, Ok(_)) => panic!("party {i} of {n} got material despite {cheat:?}"),
        }
    }
}

#[test]
fn attacks_among_three_and_four_parties_fail_every_honest_party() {
    let small = |n| Demand { encodings: 3, input_masks: vec![1; n], ..Demand::default() };
    for n in [3, 4] {
        let auth = CoralError::CheckFailed { check: Check::Authentication };
        caught(n, &small(n), Cheat::CopeChoice { flip: 5 }, auth);
        let tau = Cheat::EncodingTau { index: 0, offset: params().phi(1) };
        caught(n, &small(n), tau, CoralError::CheckFailed { check: Check::EncodingTau });
    }
    let demand = Demand { quintuples: 1, ..Demand::empty(3) };
    caught(3, &demand, Cheat::TinyMac { index: 2 }, CoralError::CheckFailed { check: Check::TinyMac });
}
