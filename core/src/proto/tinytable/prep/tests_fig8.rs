//! Fig. 8 two-party preprocessing from the ideal TinyOT functionality: material consistent with
//! the lookup MAC scheme, online evaluation (passive and malicious, k = 64 and 32) correct on
//! FIPS-197 AES-128 and random circuits, and deviations in the preprocessing messages detected.

use crate::circuit::aes_bristol::{input_bits, output_bytes};
use crate::circuit::Circuit;
use crate::net::memory::run_session;
use crate::net::{Network, PartyId};
use crate::proto::tinytable::circuit::malicious::evaluate_malicious;
use crate::proto::tinytable::circuit::online::{evaluate_batch, Outputs};
use crate::proto::tinytable::circuit::tests_malicious::{
    own_values, random_circuit, random_inputs, shared_aes128, Attack, Tamper,
};
use crate::proto::tinytable::prep::fig8::{fig8_binary, fig8_malicious};
use crate::proto::tinytable::prep::tinyot::{IdealTinyOt, OtTinyOt};
use crate::proto::tinytable::*;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use crate::aes::fips197::{CIPHERTEXT as FIPS_CT, KEY as FIPS_KEY, PLAINTEXT as FIPS_PT};

/// Fig. 8 material for both parties, computed in one two-party session.
fn fig8_pair<M: MacWord>(circuit: &Circuit, io: &IoSpec, n: usize, seed: u8) -> [MaliciousPrep<M>; 2] {
    let sources = IdealTinyOt::<M>::pair([seed; 32]).map(|s| std::cell::RefCell::new(Some(s)));
    let out = run_session(2, |mut net| {
        let mut source = sources[net.party()].take().expect("once");
        async move { fig8_malicious(&mut net, &mut source, circuit, io, n).await.expect("fig8") }
    });
    let mut it = out.into_iter();
    let (a, b) = (it.next().expect("party 0"), it.next().expect("party 1"));
    [a, b]
}

/// Runs Fig. 8 and then the malicious online phase in one session per party.
fn fig8_then_online<M: MacWord>(
    circuit: &Circuit,
    io: &IoSpec,
    inputs: &[Vec<Vec<bool>>],
    seed: u8,
) -> Vec<Vec<Outputs>> {
    let sources = IdealTinyOt::<M>::pair([seed; 32]).map(|s| std::cell::RefCell::new(Some(s)));
    run_session(2, |mut net| {
        let party = net.party();
        let mut source = sources[party].take().expect("once");
        let mine: Vec<Vec<Vec<bool>>> = inputs.iter().map(|v| own_values(io, v, party)).collect();
        async move {
            let prep = fig8_malicious(&mut net, &mut source, circuit, io, mine.len()).await.expect("fig8");
            evaluate_malicious(&mut net, circuit, &prep, &mine).await.expect("online")
        }
    })
}

fn aes_io() -> IoSpec {
    IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] }
}

fn fips197_fig8<M: MacWord>() {
    let [k, p] = input_bits(&FIPS_KEY, &FIPS_PT);
    for out in fig8_then_online::<M>(shared_aes128(), &aes_io(), &[vec![k, p]], 1) {
        assert_eq!(output_bytes(out[0][0].as_ref().expect("revealed")), Some(FIPS_CT));
    }
}

#[test]
fn fips197_with_fig8_material_k64() {
    fips197_fig8::<u64>();
}

#[test]
fn fips197_with_fig8_material_k32() {
    fips197_fig8::<u32>();
}

#[test]
fn fips197_passive_with_fig8_material() {
    let circuit = shared_aes128();
    let io = aes_io();
    let [k, p] = input_bits(&FIPS_KEY, &FIPS_PT);
    let sources = IdealTinyOt::<u64>::pair([4; 32]).map(|s| std::cell::RefCell::new(Some(s)));
    let results = run_session(2, |mut net| {
        let party = net.party();
        let mut source = sources[party].take().expect("once");
        let mine = if party == 0 { vec![vec![k.clone()]; 2] } else { vec![vec![p.clone()]; 2] };
        let io = &io;
        async move {
            let preps = fig8_binary(&mut net, &mut source, circuit, io, 2).await.expect("fig8");
            let table_bytes = preps[0].table_bytes();
            (evaluate_batch(&mut net, circuit, &preps, &mine).await.expect("online"), table_bytes)
        }
    });
    for (out, table_bytes) in results {
        assert_eq!(table_bytes, 6400 * 4 / 8, "4 bits per AND gate");
        for instance in out {
            assert_eq!(output_bytes(instance[0].as_ref().expect("revealed")), Some(FIPS_CT));
        }
    }
}

fn random_circuits_fig8<M: MacWord>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for (trial, &n) in [1usize, 5, 66].iter().enumerate() {
        let circuit = random_circuit(&mut rng, 3, 50, 3);
        let io = IoSpec {
            input_owners: (0..3).map(|_| (rng.next_u32() % 2) as usize).collect(),
            reveal: vec![Reveal::Both, Reveal::To(0), Reveal::To(1)],
        };
        let inputs: Vec<Vec<Vec<bool>>> = random_inputs(&mut rng, &circuit, n);
        let results = fig8_then_online::<M>(&circuit, &io, &inputs, trial as u8 + 10);
        for (party, out) in results.into_iter().enumerate() {
            for (i, values) in inputs.iter().enumerate() {
                let plain = circuit.evaluate(values).expect("plaintext");
                for (v, bits) in plain.iter().enumerate() {
                    let want = io.reveal[v].includes(party).then(|| bits.clone());
                    assert_eq!(out[i][v], want, "trial {trial} party {party} instance {i} value {v}");
                }
            }
        }
    }
}

#[test]
fn random_circuits_with_fig8_material_k64() {
    random_circuits_fig8::<u64>(1);
}

#[test]
fn random_circuits_with_fig8_material_k32() {
    random_circuits_fig8::<u32>(2);
}

/// Each party's own string for an entry is the peer's verification string for the bit it holds,
/// and the other verification string differs (so a flipped bit needs a guess).
#[test]
fn fig8_strings_follow_the_lookup_mac_scheme() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let circuit = random_circuit(&mut rng, 2, 40, 2);
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both, Reveal::To(1)] };
    let n = 3;
    let preps = fig8_pair::<u64>(&circuit, &io, n, 7);
    let l = crate::proto::tinytable::circuit::slice::lane_words(n);
    for prover in 0..2 {
        let (p, v) = (&preps[prover], &preps[1 - prover]);
        for j in 0..p.own_macs.len() {
            let (g, i, e) = (j / (4 * n), j / 4 % n, j % 4);
            let b = p.tables[(4 * g + e) * l + i / 64] >> (i % 64) & 1;
            assert_eq!(p.own_macs[j], v.peer_keys.key(j, b == 1), "prover {prover} entry {j}");
            assert_ne!(p.own_macs[j], v.peer_keys.key(j, b == 0));
        }
        assert!(!p.has_seeded_keys(), "Fig. 8 strings are stored");
        assert_eq!(p.table_bits_per_instance(), 4 * circuit.gate_counts().and * (1 + 3 * 64));
    }
}

/// A party deviating in the Fig. 8 messages: the honest party aborts with a typed error (k = 64
/// and k = 32).
fn fig8_deviation(attack: Attack, cheater: PartyId, want: MacCheck) {
    fig8_deviation_k::<u64>(attack, cheater, want);
    fig8_deviation_k::<u32>(attack, cheater, want);
}

fn fig8_deviation_k<M: MacWord>(attack: Attack, cheater: PartyId, want: MacCheck) {
    let circuit = shared_aes128();
    let io = aes_io();
    let sources = IdealTinyOt::<M>::pair([9; 32]).map(|s| std::cell::RefCell::new(Some(s)));
    let results = run_session(2, |net| {
        let party = net.party();
        let mut source = sources[party].take().expect("once");
        let attack = if party == cheater { attack } else { Attack::None };
        let io = &io;
        async move {
            let mut net = Tamper { inner: net, attack, sent: 0 };
            fig8_malicious(&mut net, &mut source, circuit, io, 1).await.map(|_| ())
        }
    });
    let honest = 1 - cheater;
    assert_eq!(
        results[honest],
        Err(TinyTableError::MacCheckFailed { party: honest, check: want }),
        "{attack:?}"
    );
}

#[test]
fn fig8_wrong_beaver_opening_is_detected() {
    fig8_deviation(Attack::Flip { message: 0, byte: 3, mask: 0x10 }, 0, MacCheck::PrepBeaver);
    fig8_deviation(Attack::Flip { message: 0, byte: 100, mask: 0x03 }, 1, MacCheck::PrepBeaver);
}

#[test]
fn fig8_wrong_mac_digest_is_detected() {
    let digest_byte = (2 * 6400usize).div_ceil(8) + 5;
    fig8_deviation(Attack::Flip { message: 0, byte: digest_byte, mask: 0x01 }, 1, MacCheck::PrepBeaver);
}

#[test]
fn fig8_wrong_input_mask_bit_is_detected() {
    // Message 1 opens the masks of the peer's 128 input wires.
    fig8_deviation(Attack::Flip { message: 1, byte: 0, mask: 0x01 }, 0, MacCheck::PrepMasks);
    fig8_deviation(Attack::Flip { message: 1, byte: 15, mask: 0x80 }, 1, MacCheck::PrepMasks);
}

/// Fig. 8 material from the OT-based TinyOT source ([`OtTinyOt`]) — no ideal functionality, no
/// dealer: the two parties set up OT extension, build the tables, then evaluate.
fn fig8_over_ot_then_online<M: MacWord>(
    circuit: &Circuit,
    io: &IoSpec,
    inputs: &[Vec<Vec<bool>>],
) -> Vec<Vec<Outputs>> {
    run_session(2, |mut net| {
        let party = net.party();
        let mine: Vec<Vec<Vec<bool>>> = inputs.iter().map(|v| own_values(io, v, party)).collect();
        async move {
            let rng = ChaCha20Rng::seed_from_u64(70 + party as u64);
            let mut source = OtTinyOt::<M>::setup(&mut net, b"fig8-over-ot", rng).await.expect("OT setup");
            let prep = fig8_malicious(&mut net, &mut source, circuit, io, mine.len()).await.expect("fig8");
            evaluate_malicious(&mut net, circuit, &prep, &mine).await.expect("online")
        }
    })
}

#[test]
fn fips197_with_fig8_material_from_ot_k64_and_k32() {
    let [k, p] = input_bits(&FIPS_KEY, &FIPS_PT);
    for out in fig8_over_ot_then_online::<u64>(shared_aes128(), &aes_io(), &[vec![k.clone(), p.clone()]]) {
        assert_eq!(output_bytes(out[0][0].as_ref().expect("revealed")), Some(FIPS_CT));
    }
    for out in fig8_over_ot_then_online::<u32>(shared_aes128(), &aes_io(), &[vec![k, p]]) {
        assert_eq!(output_bytes(out[0][0].as_ref().expect("revealed")), Some(FIPS_CT));
    }
}

#[test]
fn random_circuit_with_fig8_material_from_ot() {
    let mut rng = ChaCha20Rng::seed_from_u64(71);
    let circuit = random_circuit(&mut rng, 3, 60, 3);
    let io = IoSpec { input_owners: vec![0, 1, 0], reveal: vec![Reveal::Both, Reveal::To(0), Reveal::To(1)] };
    let inputs: Vec<Vec<Vec<bool>>> = random_inputs(&mut rng, &circuit, 4);
    for (party, out) in fig8_over_ot_then_online::<u64>(&circuit, &io, &inputs).into_iter().enumerate() {
        for (i, values) in inputs.iter().enumerate() {
            for (v, bits) in circuit.evaluate(values).expect("plaintext").iter().enumerate() {
                assert_eq!(
                    out[i][v],
                    io.reveal[v].includes(party).then(|| bits.clone()),
                    "party {party} instance {i}"
                );
            }
        }
    }
}

#[test]
fn a_party_cheating_in_the_ot_preprocessing_makes_the_other_abort_before_any_table_exists() {
    // Party 1 flips bits of its half gates in the triple generation (its 11th message: after the
    // base OTs, the extensions' setup of both directions at once and the authenticated bits):
    // party 0's equality check fails.
    let circuit = shared_aes128();
    let io = aes_io();
    let results = run_session(2, |net| {
        let party = net.party();
        let io = &io;
        async move {
            let edit = move |i: u64, m: &mut Vec<u8>| {
                if party == 1 && i == 10 {
                    m.iter_mut().step_by(16).for_each(|b| *b ^= 1);
                }
            };
            let mut net = crate::net::tamper::Tamper::new(net, edit);
            let rng = ChaCha20Rng::seed_from_u64(72 + party as u64);
            let mut source = OtTinyOt::<u64>::setup(&mut net, b"fig8-over-ot", rng).await?;
            fig8_malicious(&mut net, &mut source, circuit, io, 1).await.map(|_| ())
        }
    });
    assert_eq!(
        results[0],
        Err(TinyTableError::Preprocessing {
            party: 0,
            source: crate::ot::OtError::CheckFailed { check: "tinyot leaky-and equality" }
        })
    );
}
