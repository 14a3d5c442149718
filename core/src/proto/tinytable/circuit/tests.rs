//! Two-party tests over the in-memory network: random circuits against plaintext evaluation,
//! FIPS-197 AES-128 on the shared Bristol circuit and the generated circuit, batches, exact communication and round counts, and typed errors.

use crate::circuit::aes_bristol::{input_bits, output_bytes, value_bits};
use crate::circuit::{aes_gen, Circuit, CircuitBuilder};
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::{NetError, NetStats, Network};
use crate::proto::tinytable::circuit::online::{evaluate, evaluate_batch, Outputs};
use crate::proto::tinytable::circuit::tests_malicious::{dealer, random_circuit};
use crate::proto::tinytable::*;
use ::aes::cipher::{BlockEncrypt, KeyInit};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use std::sync::OnceLock;

use crate::aes::fips197::{CIPHERTEXT as FIPS_CT, KEY as FIPS_KEY, PLAINTEXT as FIPS_PT};

fn shared_aes128() -> &'static Circuit {
    static CIRCUIT: OnceLock<Circuit> = OnceLock::new();
    CIRCUIT.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../circuits/aes_128.txt");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        Circuit::parse_bristol(&text).expect("aes_128.txt parses")
    })
}

fn generated_aes128() -> &'static Circuit {
    static CIRCUIT: OnceLock<Circuit> = OnceLock::new();
    CIRCUIT.get_or_init(|| aes_gen::aes128_circuit().expect("generator"))
}

fn random_bits(rng: &mut ChaCha20Rng, n: usize) -> Vec<bool> {
    (0..n).map(|_| rng.next_u32() & 1 == 1).collect()
}

/// Runs a batch for both parties; `all_inputs[i][v]` is input value `v` of instance `i`.
fn run_binary(
    circuit: &Circuit,
    io: &IoSpec,
    all_inputs: &[Vec<Vec<bool>>],
    seed: u64,
) -> Vec<(Vec<Outputs>, NetStats)> {
    let preps = dealer(seed).binary_batch(circuit, io, all_inputs.len()).expect("dealer");
    run_session(2, |mut net| {
        let party = net.party();
        let preps = preps[party].clone();
        let mine: Vec<Vec<Vec<bool>>> = all_inputs
            .iter()
            .map(|values| {
                values
                    .iter()
                    .zip(&io.input_owners)
                    .filter(|(_, &o)| o == party)
                    .map(|(v, _)| v.clone())
                    .collect()
            })
            .collect();
        async move {
            let out = evaluate_batch(&mut net, circuit, &preps, &mine).await.expect("evaluation");
            (out, net.stats())
        }
    })
}

/// Bytes one party sends for one instance: its masked inputs, then one packed message per layer.
fn expected_bytes(circuit: &Circuit, own_input_wires: usize, instances: usize) -> u64 {
    let layers: usize = circuit.and_layers().map(|ands| (instances * ands.len()).div_ceil(8)).sum();
    ((instances * own_input_wires).div_ceil(8) + layers) as u64
}

#[test]
fn random_circuits_match_plaintext_with_exact_communication() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for trial in 0..40 {
        let circuit = random_circuit(&mut rng, 1 + trial % 4, 20 + 10 * trial, 1 + trial % 3);
        let owners: Vec<usize> =
            (0..circuit.input_widths().len()).map(|_| (rng.next_u32() % 2) as usize).collect();
        let reveal: Vec<Reveal> = (0..circuit.output_widths().len())
            .map(|_| match rng.next_u32() % 3 {
                0 => Reveal::Both,
                p => Reveal::To(p as usize - 1),
            })
            .collect();
        let io = IoSpec { input_owners: owners.clone(), reveal: reveal.clone() };
        let instances = 1 + trial % 3;
        let inputs: Vec<Vec<Vec<bool>>> = (0..instances)
            .map(|_| circuit.input_widths().iter().map(|&w| random_bits(&mut rng, w as usize)).collect())
            .collect();
        let results = run_binary(&circuit, &io, &inputs, trial as u64);
        for (party, (outputs, stats)) in results.iter().enumerate() {
            for (instance, values) in inputs.iter().enumerate() {
                let expected = circuit.evaluate(values).expect("plaintext");
                for (v, want) in expected.iter().enumerate() {
                    let got = &outputs[instance][v];
                    if reveal[v].includes(party) {
                        assert_eq!(
                            got.as_ref(),
                            Some(want),
                            "trial {trial} party {party} instance {instance} value {v}"
                        );
                    } else {
                        assert_eq!(
                            got, &None,
                            "trial {trial}: value {v} must stay hidden from party {party}"
                        );
                    }
                }
            }
            let own_wires = io.owned_input_wires(&circuit, party).len();
            assert_eq!(stats.bytes_sent, expected_bytes(&circuit, own_wires, instances), "trial {trial}");
            assert_eq!(stats.rounds, 1 + circuit.and_depth() as u64, "trial {trial}");
            assert_eq!(stats.messages_sent, 1 + circuit.and_depth() as u64, "trial {trial}");
        }
    }
}

#[test]
fn single_and_gate_tables_are_correct_for_all_inputs() {
    let mut b = CircuitBuilder::new();
    let (x, y) = (b.input(1), b.input(1));
    let z = b.and(x[0], y[0]);
    let circuit = b.finish(&[vec![z]]).unwrap();
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
    for seed in 0..16 {
        for (a, c) in [(false, false), (false, true), (true, false), (true, true)] {
            let results = run_binary(&circuit, &io, &[vec![vec![a], vec![c]]], seed);
            for (out, stats) in results {
                assert_eq!(out[0][0], Some(vec![a & c]));
                assert_eq!((stats.bytes_sent, stats.rounds), (2, 2));
            }
        }
    }
}

fn check_aes_circuit(circuit: &Circuit, name: &str) {
    let counts = circuit.gate_counts();
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
    let [key_bits, pt_bits] = input_bits(&FIPS_KEY, &FIPS_PT);
    let results = run_binary(circuit, &io, &[vec![key_bits, pt_bits]], 99);
    for (party, (out, stats)) in results.iter().enumerate() {
        let bits = out[0][0].as_ref().expect("revealed to both");
        assert_eq!(output_bytes(bits), Some(FIPS_CT), "{name}, party {party}");
        let layer_bytes: usize = circuit.and_layers().map(|ands| ands.len().div_ceil(8)).sum();
        assert_eq!(
            stats.bytes_sent,
            (16 + layer_bytes) as u64,
            "{name}: 128 masked input bits + packed layers"
        );
        assert_eq!(stats.rounds, 1 + circuit.and_depth() as u64, "{name}");
    }
    let prep = &dealer(1).binary(circuit, &io).unwrap()[0];
    assert_eq!(prep.table_bytes(), (4 * counts.and).div_ceil(8), "{name}: 4 bits per AND table");
}

#[test]
fn fips197_on_shared_bristol_circuit() {
    check_aes_circuit(shared_aes128(), "aes_128.txt");
}

#[test]
fn fips197_on_generated_circuit() {
    let circuit = generated_aes128();
    assert_eq!(circuit.gate_counts().and, 6400);
    check_aes_circuit(circuit, "aes_gen");
}

#[test]
fn aes_batch_shares_one_message_per_layer() {
    let circuit = shared_aes128();
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let blocks = 3;
    let cases: Vec<([u8; 16], [u8; 16])> = (0..blocks)
        .map(|_| {
            let (mut k, mut p) = ([0u8; 16], [0u8; 16]);
            rng.fill_bytes(&mut k);
            rng.fill_bytes(&mut p);
            (k, p)
        })
        .collect();
    let inputs: Vec<Vec<Vec<bool>>> = cases.iter().map(|(k, p)| input_bits(k, p).to_vec()).collect();
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::To(1)] };
    let results = run_binary(circuit, &io, &inputs, 3);
    for (i, (k, p)) in cases.iter().enumerate() {
        let mut want = ::aes::cipher::generic_array::GenericArray::clone_from_slice(p);
        ::aes::Aes128::new_from_slice(k).unwrap().encrypt_block(&mut want);
        assert_eq!(results[0].0[i][0], None, "ciphertext hidden from party 0");
        let got = output_bytes(results[1].0[i][0].as_ref().unwrap()).unwrap();
        assert_eq!(got.as_slice(), want.as_slice(), "block {i}");
    }
    for (party, (_, stats)) in results.iter().enumerate() {
        assert_eq!(stats.messages_sent, 1 + circuit.and_depth() as u64, "party {party}");
        assert_eq!(stats.bytes_sent, expected_bytes(circuit, 128, blocks), "party {party}");
    }
}

fn tiny_circuit() -> Circuit {
    let mut b = CircuitBuilder::new();
    let x = b.input(2);
    let y = b.input(2);
    let a = b.and(x[0], y[0]);
    let c = b.and(x[1], y[1]);
    let d = b.and(a, c);
    b.finish(&[vec![d]]).unwrap()
}

#[test]
fn malformed_and_layer_message_is_a_typed_error() {
    let circuit = tiny_circuit();
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
    let preps = dealer(4).binary(&circuit, &io).unwrap();
    let results = run_session(2, |mut net| {
        let (circuit, prep) = (&circuit, preps[net.party()].clone());
        async move {
            if net.party() == 1 {
                // A deviating party 1: a correct input message, then a 3-byte layer-1 message.
                net.send(0, vec![0]).unwrap();
                net.send(0, vec![0, 0, 0]).unwrap();
                // Stay connected until party 0 has sent its layer message.
                for _ in 0..2 {
                    net.recv(0).await.unwrap();
                }
                return None;
            }
            Some(evaluate(&mut net, circuit, &prep, &[vec![true, false]]).await)
        }
    });
    match &results[0] {
        Some(Err(TinyTableError::MalformedMessage {
            party: 0,
            from: 1,
            step: Step::AndLayer(1),
            expected: 1,
            actual: 3,
            ..
        })) => {}
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn vanished_peer_and_bad_setup_are_typed_errors() {
    let circuit = tiny_circuit();
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
    let preps = dealer(4).binary(&circuit, &io).unwrap();
    let mut nets = MemoryNetwork::session(2);
    drop(nets.pop());
    let mut net = nets.pop().unwrap();
    let r = futures::executor::block_on(evaluate(&mut net, &circuit, &preps[0], &[vec![true, true]]));
    assert!(
        matches!(
            r,
            Err(TinyTableError::Network { party: 0, step: Step::Input, source: NetError::PeerLeft(1), .. })
        ),
        "{r:?}"
    );

    let mut nets = MemoryNetwork::session(2);
    let r = futures::executor::block_on(evaluate(&mut nets[0], &circuit, &preps[1], &[vec![true, true]]));
    assert!(matches!(r, Err(TinyTableError::PrepMismatch { party: 0, .. })), "{r:?}");
    let r = futures::executor::block_on(evaluate(&mut nets[0], &circuit, &preps[0], &[vec![true]]));
    assert!(matches!(r, Err(TinyTableError::BadInput { party: 0, instance: 0, .. })), "{r:?}");
    let r =
        futures::executor::block_on(evaluate(&mut nets[0], shared_aes128(), &preps[0], &[vec![true, true]]));
    assert!(matches!(r, Err(TinyTableError::PrepMismatch { .. })), "{r:?}");

    let mut three = MemoryNetwork::session(3);
    let r = futures::executor::block_on(evaluate(&mut three[0], &circuit, &preps[0], &[vec![true, true]]));
    assert_eq!(r, Err(TinyTableError::NotTwoParties(3)));

    let bad = IoSpec { input_owners: vec![0, 2], reveal: vec![Reveal::Both] };
    assert!(matches!(dealer(1).binary(&circuit, &bad), Err(TinyTableError::BadIoSpec(_))));
    let bad = IoSpec { input_owners: vec![0], reveal: vec![Reveal::Both] };
    assert!(matches!(dealer(1).binary(&circuit, &bad), Err(TinyTableError::BadIoSpec(_))));
}

#[test]
fn binary_prep_shares_reconstruct_the_masked_and_tables() {
    // The two table shares of every AND gate XOR to a table of the form r_o ⊕ ((c ⊕ r_u)(d ⊕ r_v)):
    // exactly one or three entries differ from entry (0, 0) in an AND table, never two or zero.
    let circuit = shared_aes128();
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
    let [a, b] = dealer(11).binary(circuit, &io).unwrap();
    let mut shares_differ = 0;
    for g in 0..a.and_gates() {
        let t = a.table(g) ^ b.table(g);
        let ones = (t ^ if t & 1 == 1 { 0xf } else { 0 }).count_ones();
        assert!(ones == 1 || ones == 3, "gate {g}: table {t:04b} is not a masked AND");
        shares_differ += usize::from(a.table(g) != b.table(g));
    }
    assert!(shares_differ > a.and_gates() / 2, "shares look random");
}

#[test]
fn value_bits_cover_the_aes_inputs() {
    // Guards the helper the AES tests depend on: key bits are the key's value order.
    assert_eq!(value_bits(&FIPS_KEY), input_bits(&FIPS_KEY, &FIPS_PT)[0]);
}

#[test]
fn slicing_per_instance_material_matches_the_per_bit_definition() {
    // `SlicedPrep::from_instances` transposes 64×64 blocks; check it against the layout's
    // definition bit by bit, for odd and even AND counts and partial and whole lane words.
    use crate::proto::tinytable::circuit::slice::lane_words;
    let mut rng = ChaCha20Rng::seed_from_u64(12);
    for (seed, &n) in [1usize, 63, 64, 65, 130].iter().enumerate() {
        let circuit = crate::circuit::testing::random_circuit(&mut rng, 3, 20 + 7 * seed, 2);
        let io = IoSpec { input_owners: vec![0, 1, 0], reveal: vec![Reveal::Both, Reveal::To(1)] };
        let [preps, _] = dealer(seed as u64).binary_batch(&circuit, &io, n).unwrap();
        let sliced = SlicedPrep::from_instances(&circuit, &preps).unwrap();
        let (l, ands) = (lane_words(n), preps[0].and_gates());
        assert_eq!(sliced.tables.len(), 4 * ands * l);
        for (i, prep) in preps.iter().enumerate() {
            for g in 0..ands {
                for e in 0..4 {
                    let bit = sliced.tables[(4 * g + e) * l + i / 64] >> (i % 64) & 1;
                    assert_eq!(
                        bit,
                        u64::from(prep.table(g) >> e & 1),
                        "n {n}, instance {i}, gate {g}, entry {e}"
                    );
                }
            }
            for (k, &m) in prep.input_masks.iter().enumerate() {
                assert_eq!(sliced.input_masks[k * l + i / 64] >> (i % 64) & 1 == 1, m);
            }
        }
        // Lanes past the batch stay zero.
        for (w, word) in sliced.tables.iter().enumerate() {
            if w % l == l - 1 && n % 64 != 0 {
                assert_eq!(word >> (n % 64), 0, "n {n}: padding lanes");
            }
        }
    }
}
