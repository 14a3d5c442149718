//! Malicious security and the S-box-table path through the jobs: FIPS-197 on both paths at both
//! security levels, and a party that flips a bit of one of its messages (a tampering network
//! under its encrypted channel's plaintext, i.e. the party itself cheating) is caught by the
//! honest party's MAC check before any output, while semi-honest runs give a wrong answer.

use super::aes::{self, AesPath, TinyTableAesInput, TinyTableAesSpec};
use super::tests::{aes_spec, connect, xor, FIPS_CT, FIPS_KEY, FIPS_PT};
use super::*;
use crate::aes::Direction;
use crate::jobs::AesOutput as TinyTableAesOutput;
use crate::net::memory::run_session;
use crate::net::NetError;
use crate::proto::tinytable::sbox::tables::AesTablePrep;
use crate::proto::tinytable::Reveal;
use crate::rng::seeded_rng;
use core::future::Future;

/// A party that flips bit 0 of the first byte of the `nth` message (from 0) it sends to `peer`.
struct Cheater<N> {
    inner: N,
    peer: PartyId,
    nth: usize,
    sent: usize,
}

impl<N: Network> Network for Cheater<N> {
    fn party(&self) -> PartyId {
        self.inner.party()
    }
    fn parties(&self) -> usize {
        self.inner.parties()
    }
    fn send(&mut self, to: PartyId, mut msg: Vec<u8>) -> Result<(), NetError> {
        if to == self.peer {
            if self.sent == self.nth && !msg.is_empty() {
                msg[0] ^= 1;
            }
            self.sent += 1;
        }
        self.inner.send(to, msg)
    }
    fn recv(&mut self, from: PartyId) -> impl Future<Output = Result<Vec<u8>, NetError>> {
        self.inner.recv(from)
    }
    fn stats(&self) -> NetStats {
        self.inner.stats()
    }
}

fn spec(path: AesPath, security: Security, mac_bits: MacBits) -> TinyTableAesSpec {
    // Party 0 holds the key, party 1 the plaintext (the S-box path's only key layout).
    TinyTableAesSpec { path, security, mac_bits, ..aes_spec(1, vec![0], 1, vec![0, 1]) }
}

pub(super) fn fips_inputs() -> [TinyTableAesInput; 3] {
    [
        TinyTableAesInput { key_share: Some(FIPS_KEY.to_vec()), plaintext: None },
        TinyTableAesInput { key_share: None, plaintext: Some(FIPS_PT.to_vec()) },
        TinyTableAesInput::default(),
    ]
}

/// Runs `spec` with the FIPS-197 inputs; party 0 cheats in its `cheat_at`-th message to party 1.
pub(super) fn run(
    spec: &TinyTableAesSpec,
    inputs: [TinyTableAesInput; 3],
    cheat_at: Option<usize>,
) -> Vec<Result<TinyTableAesOutput, JobError>> {
    run_session(MEMBERS, |inner| {
        let me = inner.party();
        let (spec, input) = (spec.clone(), inputs[me].clone());
        async move {
            let secure = connect(inner).await?;
            let mut rng = seeded_rng(300 + me as u64);
            match cheat_at.filter(|_| me == 0) {
                Some(nth) => {
                    let mut net = Cheater { inner: secure, peer: 1, nth, sent: 0 };
                    aes::run(&mut net, &spec, input, &mut rng).await
                }
                None => aes::run(&mut { secure }, &spec, input, &mut rng).await,
            }
        }
    })
}

const ALL: [(AesPath, Security, MacBits); 5] = [
    (AesPath::BinaryCircuit, Security::SemiHonest, MacBits::K64),
    (AesPath::BinaryCircuit, Security::Malicious, MacBits::K64),
    (AesPath::BinaryCircuit, Security::Malicious, MacBits::K32),
    (AesPath::SboxTables, Security::SemiHonest, MacBits::K64),
    (AesPath::SboxTables, Security::Malicious, MacBits::K64),
];

#[test]
fn fips197_on_both_paths_at_both_security_levels() {
    for (path, security, mac_bits) in ALL {
        let s = spec(path, security, mac_bits);
        let outs = run(&s, fips_inputs(), None);
        for (p, out) in outs.iter().take(2).enumerate() {
            let out = out.as_ref().unwrap_or_else(|e| panic!("{s:?} party {p}: {e}"));
            assert_eq!(out.ciphertext.as_ref().expect("revealed")[..], FIPS_CT, "{s:?} party {p}");
            assert!(out.online_stats.bytes_sent > 0);
        }
        assert_eq!(outs[2].as_ref().unwrap().ciphertext, None);
    }
}

/// The dealer of a malicious circuit job ships the verifier strings in the form
/// [`SEEDED_VERIFIER_KEYS`] names. For one instance each party gets, per table entry, a lane word
/// of table share (8 bytes) and its own string (k / 8 bytes), plus, if stored, two verification
/// strings (2k / 8 bytes): the threshold is halfway between the two forms' totals.
#[test]
fn dealer_ships_the_verifier_strings_in_the_default_form() {
    let ands = crate::circuit::aes_gen::aes128_circuit().unwrap().gate_counts().and;
    for mac_bits in [MacBits::K64, MacBits::K32] {
        let s = spec(AesPath::BinaryCircuit, Security::Malicious, mac_bits);
        let outs = run(&s, fips_inputs(), None);
        let dealt = outs[2].as_ref().expect("dealer").stats.bytes_sent;
        let halfway = 2 * 4 * ands * (8 + 2 * mac_bits.bits() as usize / 8);
        assert_eq!((dealt as usize) < halfway, SEEDED_VERIFIER_KEYS, "{mac_bits:?}: {dealt} bytes dealt");
    }
}

#[test]
fn malicious_circuit_job_with_shared_key_and_one_recipient() {
    let mask = [0x5c; 16];
    let s = TinyTableAesSpec {
        security: Security::Malicious,
        mac_bits: MacBits::K32,
        ..aes_spec(3, vec![0, 1], 0, vec![1])
    };
    let pt: Vec<u8> = (0..48).map(|i| i as u8).collect();
    let inputs = [
        TinyTableAesInput { key_share: Some(mask.to_vec()), plaintext: Some(pt.clone()) },
        TinyTableAesInput { key_share: Some(xor(&FIPS_KEY, &mask)), plaintext: None },
        TinyTableAesInput::default(),
    ];
    let outs = run(&s, inputs, None);
    let mut expected: Vec<[u8; 16]> = pt.chunks_exact(16).map(|c| c.try_into().unwrap()).collect();
    crate::aes::Aes::new(&FIPS_KEY).unwrap().encrypt_blocks(&mut expected);
    assert_eq!(outs[0].as_ref().unwrap().ciphertext, None);
    assert_eq!(outs[1].as_ref().unwrap().ciphertext.as_ref().unwrap(), &expected.concat());
}

#[test]
fn a_flipped_table_entry_is_caught_before_any_output_under_malicious_security() {
    // Party 0's messages to party 1: 0 spec digest, 1 masked inputs, 2 the first AND layer / S-box
    // round, 4 a later one.
    for nth in [2, 4] {
        for (path, security, mac_bits) in ALL {
            let s = spec(path, security, mac_bits);
            let outs = run(&s, fips_inputs(), Some(nth));
            match security {
                Security::SemiHonest => {
                    // Undetected: the honest party outputs a wrong ciphertext.
                    let ct = outs[1].as_ref().unwrap().ciphertext.as_ref().unwrap();
                    assert_ne!(ct[..], FIPS_CT, "{s:?}");
                }
                Security::Malicious => {
                    let err = outs[1].as_ref().expect_err("the honest party must abort");
                    let check = err.failed_check().unwrap_or_else(|| panic!("{s:?}: {err}"));
                    let expected =
                        if path == AesPath::SboxTables { "S-box MAC check" } else { "opened table bits" };
                    assert!(check.contains(expected), "{s:?}: {check}");
                    // The cheater learns nothing either: the honest party never opened its share.
                    assert!(outs[0].is_err(), "{s:?}: the cheater got {:?}", outs[0]);
                }
            }
        }
    }
}

#[test]
fn forged_dealer_material_is_detected() {
    // A corrupt output-mask share in party 0's malicious circuit material (as if the material or
    // party 0 were forged): party 1 rejects the output opening.
    let circuit = crate::jobs::keyed_aes::keyed_aes(
        1,
        crate::aes::KeySize::Aes128,
        crate::jobs::options::Direction::Encrypt,
    )
    .unwrap();
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
    let [mut p0, p1] = TrustedDealer::new(seeded_rng(5)).malicious_batch::<u64>(&circuit, &io, 1).unwrap();
    p0.out_shares[0] ^= 1;
    let key = crate::circuit::aes_bristol::value_bits(&FIPS_KEY);
    let pt = crate::circuit::aes_bristol::value_bits(&FIPS_PT);
    let preps = [p0, p1];
    let outs = run_session(2, |mut net| {
        let me = net.party();
        let prep = preps[me].clone();
        let input = vec![vec![if me == 0 { key.clone() } else { pt.clone() }]];
        let circuit = circuit.clone();
        async move { crate::proto::tinytable::evaluate_malicious(&mut net, &circuit, &prep, &input).await }
    });
    let err = JobError::TinyTable(outs[1].clone().unwrap_err());
    assert_eq!(err.failed_check().as_deref(), Some("MAC check on output mask shares"));
}

#[test]
fn aes_codecs_round_trip_and_reject_garbage() {
    let mut dealer = TrustedDealer::new(seeded_rng(8));
    for direction in [Direction::Encrypt, Direction::Decrypt] {
        let [a, b] = dealer.aes_tables_batch(direction, 1, Reveal::To(0), 2).unwrap();
        for preps in [a, b] {
            let bytes = aes_prep_codec::encode_tables(&preps);
            let back: Vec<AesTablePrep> = aes_prep_codec::decode_tables(&bytes).unwrap();
            assert_eq!(back, preps);
            assert!(back.iter().all(|p| p.direction() == direction));
            assert!(aes_prep_codec::decode_tables(&bytes[..bytes.len() - 1]).is_err());
            let mut bad_flag = bytes.clone();
            let flag_at = 23 + 4 + 4 + 40_960;
            bad_flag[flag_at] = 7;
            assert!(aes_prep_codec::decode_tables(&bad_flag).unwrap_err().contains("flag 7"));
            // The direction byte follows the party byte.
            let mut bad_direction = bytes.clone();
            bad_direction[23 + 4 + 1] = 2;
            assert!(aes_prep_codec::decode_tables(&bad_direction).unwrap_err().contains("direction 2"));
        }
        for prep in dealer.malicious_aes_tables(direction, 0, Reveal::Both, 1).unwrap() {
            let bytes = aes_prep_codec::encode_malicious(&prep);
            let back = aes_prep_codec::decode_malicious(&bytes).unwrap();
            assert_eq!(back.direction(), direction);
            // Re-encoding the decoded material gives the same bytes (the PRF seed survives).
            assert_eq!(aes_prep_codec::encode_malicious(&back), bytes);
            assert!(aes_prep_codec::decode_malicious(&bytes[..bytes.len() - 16]).is_err());
            assert!(aes_prep_codec::decode_malicious(&bytes[..100]).is_err());
            let mut bad_direction = bytes.clone();
            bad_direction[33 + 1] = 9;
            assert!(aes_prep_codec::decode_malicious(&bad_direction).unwrap_err().contains("direction 9"));
        }
    }
}
