//! Honest runs against plaintext evaluation.

use super::super::aes::{aes128_circuit, aes_request, encrypt_batch, KEY_OWNER, PLAINTEXT_OWNER};
use super::super::{CodeChoice, MiniMacError, Options, PrepRequest};
use super::super::{DealtMaterial, MiniMacPreprocessing};
use super::{deal, round_robin_owners, run};
use crate::aes::Aes;
use crate::circuit::aes_bristol::{output_bytes, value_bits};
use crate::circuit::Circuit;
use crate::net::memory::run_session;
use crate::net::Network;
use crate::proto::tinytable::circuit::tests_malicious::{random_circuit, random_inputs};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

const FIPS_KEY: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
const FIPS_PLAINTEXT: [u8; 16] =
    [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff];
const FIPS_CIPHERTEXT: [u8; 16] =
    [0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a];

fn random_blocks(rng: &mut ChaCha20Rng, count: usize) -> Vec<[u8; 16]> {
    (0..count)
        .map(|_| {
            let mut b = [0u8; 16];
            rng.fill_bytes(&mut b);
            b
        })
        .collect()
}

/// A full batch of AES-128 through `encrypt_batch`: FIPS-197 appendix C.1 in instance 0 and in the
/// last instance, random keys and blocks elsewhere, all checked against the plain AES.
fn full_aes_batch(code: CodeChoice) {
    let blocks = code.code().instances();
    let mut rng = ChaCha20Rng::seed_from_u64(197);
    let mut keys = random_blocks(&mut rng, blocks);
    let mut plaintexts = random_blocks(&mut rng, blocks);
    for i in [0, blocks - 1] {
        keys[i] = FIPS_KEY;
        plaintexts[i] = FIPS_PLAINTEXT;
    }
    let preps = deal(&aes_request(code, 2).unwrap(), 5);
    let preps = std::cell::RefCell::new(preps.into_iter().map(Some).collect::<Vec<_>>());
    let (keys, plaintexts) = (&keys, &plaintexts);
    let results = run_session(2, |mut net| {
        let prep = preps.borrow_mut()[net.party()].take().unwrap();
        async move {
            let own = if net.party() == KEY_OWNER { keys } else { plaintexts };
            let mut rng = ChaCha20Rng::seed_from_u64(net.party() as u64);
            encrypt_batch(&mut net, &prep, own, blocks, Options::default(), &mut rng).await
        }
    });
    for (party, result) in results.into_iter().enumerate() {
        let ciphertexts = result.unwrap_or_else(|e| panic!("party {party}: {e}"));
        assert_eq!(ciphertexts.len(), blocks);
        assert_eq!(ciphertexts[0], FIPS_CIPHERTEXT, "{code:?}, party {party}");
        assert_eq!(ciphertexts[blocks - 1], FIPS_CIPHERTEXT, "{code:?}, party {party}");
        for (i, c) in ciphertexts.iter().enumerate() {
            let mut expected = [plaintexts[i]];
            Aes::new(&keys[i]).unwrap().encrypt_blocks(&mut expected);
            assert_eq!(*c, expected[0], "{code:?}, party {party}, block {i}");
        }
    }
}

#[test]
fn fips197_full_batch_through_rs255_85() {
    full_aes_batch(CodeChoice::Rs255_85);
}

#[test]
fn fips197_full_batch_through_rs256_120() {
    full_aes_batch(CodeChoice::Rs256_120);
}

#[test]
fn reference_bristol_aes_circuit_gives_fips197() {
    let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../circuits/aes_128.txt"));
    let circuit = Circuit::parse_bristol(text).unwrap();
    for code in CodeChoice::ALL {
        let owners = [KEY_OWNER, PLAINTEXT_OWNER];
        let inputs = vec![vec![value_bits(&FIPS_KEY), value_bits(&FIPS_PLAINTEXT)]; 3];
        let preps = deal(&PrepRequest::for_circuit(code, 2, &circuit, &owners).unwrap(), 6);
        for (party, (result, _)) in
            run(&circuit, preps, &inputs, &owners, Options::default(), |n| n).into_iter().enumerate()
        {
            let outputs = result.unwrap_or_else(|e| panic!("{code:?} party {party}: {e}"));
            for instance in outputs {
                assert_eq!(output_bytes(&instance[0]).unwrap(), FIPS_CIPHERTEXT, "{code:?} party {party}");
            }
        }
    }
}

/// Random circuits (all gate kinds, AND-heavy) on random inputs against the plaintext evaluator,
/// for both codes, 2 and 3 parties, batches from 1 instance to a full batch, both round modes.
#[test]
fn random_circuits_match_plaintext() {
    let mut rng = ChaCha20Rng::seed_from_u64(18);
    for (case, (code, parties, simultaneous)) in [
        (CodeChoice::Rs255_85, 2, true),
        (CodeChoice::Rs256_120, 2, true),
        (CodeChoice::Rs255_85, 3, true),
        (CodeChoice::Rs256_120, 2, false),
        (CodeChoice::Rs255_85, 4, false),
    ]
    .into_iter()
    .enumerate()
    {
        for size in [1usize, 7, 200] {
            let circuit = random_circuit(&mut rng, 4, size, 3);
            let instances = match size {
                1 => 1,
                7 => 1 + (rng.next_u32() as usize % 100),
                _ => code.code().instances(),
            };
            let inputs = random_inputs(&mut rng, &circuit, instances);
            let owners = round_robin_owners(&circuit, parties);
            let preps =
                deal(&PrepRequest::for_circuit(code, parties, &circuit, &owners).unwrap(), case as u64);
            let results = run(&circuit, preps, &inputs, &owners, Options { simultaneous }, |n| n);
            for (party, (result, _)) in results.into_iter().enumerate() {
                let outputs = result.unwrap_or_else(|e| panic!("case {case}, party {party}: {e}"));
                assert_eq!(outputs.len(), instances);
                for (i, got) in outputs.iter().enumerate() {
                    let expected = circuit.evaluate(&inputs[i]).unwrap();
                    assert_eq!(got, &expected, "case {case}, size {size}, party {party}, instance {i}");
                }
            }
        }
    }
}

#[test]
fn bad_requests_and_inputs_are_typed_errors() {
    let circuit = aes128_circuit().unwrap();
    assert_eq!(
        PrepRequest::for_circuit(CodeChoice::DEFAULT, 1, circuit, &[0, 0]),
        Err(MiniMacError::TooFewParties(1))
    );
    assert!(matches!(
        PrepRequest::for_circuit(CodeChoice::DEFAULT, 2, circuit, &[0]),
        Err(MiniMacError::BadInput(_))
    ));
    assert!(matches!(
        PrepRequest::for_circuit(CodeChoice::DEFAULT, 2, circuit, &[0, 2]),
        Err(MiniMacError::BadInput(_))
    ));

    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let small = random_circuit(&mut rng, 2, 20, 2);
    let owners = [0, 1];
    let request = PrepRequest::for_circuit(CodeChoice::Rs255_85, 2, &small, &owners).unwrap();
    let too_many = random_inputs(&mut rng, &small, CodeChoice::Rs255_85.code().instances() + 1);
    let results = run(&small, deal(&request, 1), &too_many, &owners, Options::default(), |n| n);
    for (result, _) in results {
        assert_eq!(result.unwrap_err(), MiniMacError::BatchTooLarge { instances: 681, max: 680 });
    }
    // Material for the other code, for too few gates, or for another party.
    let other = PrepRequest::for_circuit(CodeChoice::Rs256_120, 2, &small, &owners).unwrap();
    let mut preps = deal(&other, 2);
    preps.swap(0, 1);
    let inputs = random_inputs(&mut rng, &small, 4);
    for (result, _) in run(&small, preps, &inputs, &owners, Options::default(), |n| n) {
        assert!(matches!(result, Err(MiniMacError::MaterialMismatch(_))), "{result:?}");
    }
    let fewer = PrepRequest { and_gates: request.and_gates - 1, ..request.clone() };
    for (result, _) in run(&small, deal(&fewer, 3), &inputs, &owners, Options::default(), |n| n) {
        assert!(
            matches!(result, Err(MiniMacError::NotEnoughMaterial { what: "AND gates", .. })),
            "{result:?}"
        );
    }
    // Wrong widths of an input value.
    let mut bad = inputs.clone();
    bad[2][0].push(true);
    let results = run(&small, deal(&request, 4), &bad, &owners, Options::default(), |n| n);
    assert!(matches!(results[0].0, Err(MiniMacError::BadInput(_))), "{:?}", results[0].0);
}

#[test]
fn providers_behind_the_trait() {
    let circuit = aes128_circuit().unwrap();
    let request = aes_request(CodeChoice::DEFAULT, 2).unwrap();
    let preps = deal(&request, 8);
    let preps = std::cell::RefCell::new(preps.into_iter().map(Some).collect::<Vec<_>>());
    let results = run_session(2, |mut net| {
        let prep = preps.borrow_mut()[net.party()].take().unwrap();
        let request = request.clone();
        async move {
            let mut dealt = DealtMaterial::new(prep);
            let got = dealt.material(&mut net, &request).await;
            let again = dealt.material(&mut net, &request).await;
            (got.map(|p| (p.party(), p.and_gates())), again.is_err())
        }
    });
    for (party, (got, again_failed)) in results.into_iter().enumerate() {
        assert_eq!(got.unwrap(), (party, circuit.gate_counts().and));
        assert!(again_failed, "dealt material is handed out once");
    }
}
