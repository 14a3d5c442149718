//! The TinyTable jobs end to end: two parties and the dealer over encrypted channels on the
//! in-memory network, checked against FIPS-197, the plain cipher and plaintext circuit evaluation.

use super::aes::{self, AesPath, TinyTableAesInput, TinyTableAesSpec};
use super::circuit::{self as circuit_job, CircuitJobInput, CircuitJobSpec};
use super::*;
use crate::aes::{Aes, KeySize};
use crate::circuit::aes_bristol::{output_bytes, value_bits};
use crate::circuit::{aes_gen, CircuitBuilder};
use crate::jobs::keyed_aes::keyed_aes;
use crate::jobs::options::Direction;
use crate::jobs::AesOutput as TinyTableAesOutput;
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::secure::{SecureConfig, SecureNetwork};
use crate::net::NetError;
use crate::proto::tinytable::Reveal;
use crate::rng::seeded_rng;

pub(super) use crate::aes::fips197::{CIPHERTEXT as FIPS_CT, KEY as FIPS_KEY, PLAINTEXT as FIPS_PT};

pub(super) fn aes_spec(
    blocks: usize,
    key_holders: Vec<PartyId>,
    owner: PartyId,
    reveal_to: Vec<PartyId>,
) -> TinyTableAesSpec {
    TinyTableAesSpec {
        path: AesPath::BinaryCircuit,
        preprocessing: Preprocessing::Dealer,
        security: Security::SemiHonest,
        mac_bits: MacBits::K64,
        key_size: KeySize::Aes128,
        direction: Direction::Encrypt,
        blocks,
        key_holders,
        plaintext_owner: owner,
        reveal_to,
    }
}

pub(super) async fn connect(inner: MemoryNetwork) -> Result<SecureNetwork<MemoryNetwork>, JobError> {
    let me = inner.party();
    let config = SecureConfig::session_secret(b"tt-job-test", b"a session secret of 32 bytes....");
    Ok(SecureNetwork::establish_with_rng(inner, config, &mut seeded_rng(200 + me as u64))
        .await
        .map_err(NetError::from)?)
}

fn run_aes(
    specs: [TinyTableAesSpec; 3],
    inputs: [TinyTableAesInput; 3],
) -> Vec<Result<TinyTableAesOutput, JobError>> {
    run_session(MEMBERS, |inner| {
        let me = inner.party();
        let (spec, input) = (specs[me].clone(), inputs[me].clone());
        async move {
            let mut net = connect(inner).await?;
            aes::run(&mut net, &spec, input, &mut seeded_rng(me as u64)).await
        }
    })
}

pub(super) fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

#[test]
fn fips197_with_the_key_split_between_both_parties() {
    let mask = [0xa7; 16];
    let s = aes_spec(1, vec![0, 1], 1, vec![0, 1]);
    let inputs = [
        TinyTableAesInput { key_share: Some(mask.to_vec()), plaintext: None },
        TinyTableAesInput { key_share: Some(xor(&FIPS_KEY, &mask)), plaintext: Some(FIPS_PT.to_vec()) },
        TinyTableAesInput::default(),
    ];
    let outs = run_aes([s.clone(), s.clone(), s], inputs);
    for (p, out) in outs.iter().take(2).enumerate() {
        let out = out.as_ref().unwrap_or_else(|e| panic!("party {p}: {e}"));
        assert_eq!(out.ciphertext.as_ref().expect("revealed")[..], FIPS_CT, "party {p}");
        // Online: 16 masked bytes per owned input value (party 0: its key share; party 1: its key
        // share and the plaintext) plus 820 bytes of AND-layer openings (proto::tinytable::online
        // docs), in 1 + 60 rounds.
        assert_eq!(out.online_stats.bytes_sent, 16 * (p as u64 + 1) + 820, "party {p}");
        assert_eq!(out.online_stats.rounds, 61, "party {p}");
    }
    let dealer = outs[2].as_ref().unwrap();
    assert_eq!(dealer.ciphertext, None);
    assert_eq!(dealer.online_stats, NetStats::default());
}

#[test]
fn batch_with_one_key_owner_revealed_to_one_party() {
    let mut rng = seeded_rng(9);
    let key: [u8; 16] = core::array::from_fn(|_| rng.next_u32() as u8);
    let mut plaintext = vec![0u8; 5 * 16];
    rng.fill_bytes(&mut plaintext);
    let s = aes_spec(5, vec![1], 0, vec![0]);
    let inputs = [
        TinyTableAesInput { key_share: None, plaintext: Some(plaintext.clone()) },
        TinyTableAesInput { key_share: Some(key.to_vec()), plaintext: None },
        TinyTableAesInput::default(),
    ];
    let outs = run_aes([s.clone(), s.clone(), s], inputs);
    let mut expected: Vec<[u8; 16]> = plaintext.chunks_exact(16).map(|c| c.try_into().unwrap()).collect();
    Aes::new(&key).unwrap().encrypt_blocks(&mut expected);
    assert_eq!(outs[0].as_ref().unwrap().ciphertext.as_ref().unwrap(), &expected.concat());
    assert_eq!(outs[1].as_ref().unwrap().ciphertext, None, "party 1 must learn nothing");
}

#[test]
fn keyed_circuit_matches_the_plain_circuit() {
    let circuit = keyed_aes(2, KeySize::Aes128, Direction::Encrypt).unwrap();
    let plain = aes_gen::aes128_circuit().unwrap();
    assert_eq!(circuit.gate_counts().and, plain.gate_counts().and);
    assert_eq!(circuit.and_depth(), plain.and_depth());
    let pt = FIPS_PT.to_vec();
    let mask = [0x11u8; 16];
    let out =
        circuit.evaluate(&[value_bits(&mask), value_bits(&xor(&FIPS_KEY, &mask)), value_bits(&pt)]).unwrap();
    assert_eq!(output_bytes(&out[0]).unwrap()[..], FIPS_CT);
}

#[test]
fn generic_circuit_job_matches_plaintext_evaluation() {
    // 4-bit a (party 0), 4-bit b (party 1): outputs a AND b to both, a XOR NOT b to party 1 only.
    let mut b = CircuitBuilder::new();
    let x = b.input(4);
    let y = b.input(4);
    let ands: Vec<_> = (0..4).map(|i| b.and(x[i], y[i])).collect();
    let mixed: Vec<_> = (0..4)
        .map(|i| {
            let n = b.not(y[i]);
            b.xor(x[i], n)
        })
        .collect();
    let circuit = b.finish(&[ands, mixed]).unwrap();
    let spec = CircuitJobSpec {
        preprocessing: Preprocessing::Dealer,
        security: Security::SemiHonest,
        mac_bits: MacBits::K64,
        circuit: circuit.clone(),
        io: IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both, Reveal::To(1)] },
        instances: 3,
    };
    let a = [vec![true, false, true, true], vec![false; 4], vec![true; 4]];
    let bb = [vec![true, true, false, true], vec![true; 4], vec![false, true, false, true]];
    let inputs = [
        CircuitJobInput { values: a.iter().map(|v| vec![v.clone()]).collect() },
        CircuitJobInput { values: bb.iter().map(|v| vec![v.clone()]).collect() },
        CircuitJobInput::default(),
    ];
    let outs = run_session(MEMBERS, |inner| {
        let me = inner.party();
        let (spec, input) = (spec.clone(), inputs[me].clone());
        async move {
            let mut net = connect(inner).await?;
            circuit_job::run(&mut net, &spec, input, &mut seeded_rng(50 + me as u64)).await
        }
    });
    for i in 0..3 {
        let expected = circuit.evaluate(&[a[i].clone(), bb[i].clone()]).unwrap();
        let p0 = &outs[0].as_ref().unwrap().outputs[i];
        let p1 = &outs[1].as_ref().unwrap().outputs[i];
        assert_eq!(p0[0].as_ref(), Some(&expected[0]), "instance {i}");
        assert_eq!(p0[1], None, "instance {i}: output 1 is party 1's only");
        assert_eq!(p1[0].as_ref(), Some(&expected[0]));
        assert_eq!(p1[1].as_ref(), Some(&expected[1]));
    }
    assert!(outs[2].as_ref().unwrap().outputs.is_empty());
}

#[test]
fn path_and_mac_width_names_round_trip_and_k32_sbox_is_not_available() {
    for name in ["circuit", "sbox-tables"] {
        assert_eq!(AesPath::from_name(name).map(AesPath::name), Some(name));
    }
    for bits in [64, 32] {
        assert_eq!(MacBits::from_bits(bits).map(MacBits::bits), Some(bits));
    }
    assert_eq!(MacBits::from_bits(16), None);
    let k32_tables = TinyTableAesSpec {
        path: AesPath::SboxTables,
        security: Security::Malicious,
        mac_bits: MacBits::K32,
        ..aes_spec(1, vec![0], 1, vec![0])
    };
    assert!(
        matches!(k32_tables.validate(), Err(JobError::NotAvailable { reason: m, .. }) if m.contains("k = 64"))
    );
}

#[test]
fn invalid_specs_name_the_field() {
    let cases = [
        (aes_spec(0, vec![0], 1, vec![0]), "blocks", "at least 1"),
        (aes_spec(1, vec![], 1, vec![0]), "keyHolders", "ascending"),
        (aes_spec(1, vec![1, 0], 1, vec![0]), "keyHolders", "ascending"),
        (aes_spec(1, vec![2], 1, vec![0]), "keyHolders", "party 2"),
        (aes_spec(1, vec![0], 1, vec![3]), "reveal", "party 3"),
        (aes_spec(1, vec![0], 2, vec![0]), "plaintextOwner", "is 2"),
        (
            TinyTableAesSpec { path: AesPath::SboxTables, ..aes_spec(1, vec![1], 1, vec![0]) },
            "plaintextOwner",
            "other party",
        ),
    ];
    for (s, name, needle) in cases {
        match s.validate() {
            Err(JobError::InvalidSpec { field, reason }) => {
                assert_eq!(field, name, "{reason}");
                assert!(reason.contains(needle), "{reason} should mention {needle}")
            }
            other => panic!("{s:?}: {other:?}"),
        }
    }
}

#[test]
fn disagreeing_specs_abort_and_wrong_inputs_make_peers_see_a_party_leave() {
    let a = aes_spec(1, vec![0], 1, vec![0, 1]);
    let b = aes_spec(1, vec![0], 1, vec![0]);
    let inputs = || {
        [
            TinyTableAesInput { key_share: Some(FIPS_KEY.to_vec()), plaintext: None },
            TinyTableAesInput { key_share: None, plaintext: Some(vec![0; 16]) },
            TinyTableAesInput::default(),
        ]
    };
    let outs = run_aes([a.clone(), a.clone(), b], inputs());
    assert_eq!(outs[0].as_ref().unwrap_err(), &JobError::SpecMismatch(2));
    assert!(matches!(outs[2], Err(JobError::SpecMismatch(0))), "{:?}", outs[2]);

    let mut bad = inputs();
    bad[1].plaintext = Some(vec![0; 15]);
    let outs = run_aes([a.clone(), a.clone(), a], bad);
    assert!(
        matches!(&outs[1], Err(JobError::InvalidInput { party: 1, field, reason }) if field == "plaintext" && reason.contains("15 bytes"))
    );
    for p in [0, 2] {
        assert!(
            matches!(outs[p], Err(JobError::Network(NetError::PeerLeft(1)))),
            "member {p}: {:?}",
            outs[p]
        );
    }
}

#[test]
fn prep_codec_round_trips_and_rejects_garbage() {
    let circuit = keyed_aes(1, KeySize::Aes128, Direction::Encrypt).unwrap();
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
    let mut dealer = TrustedDealer::new(seeded_rng(3));
    for prep in dealer.sliced_batch(&circuit, &io, 70).unwrap() {
        let bytes = prep_codec::encode_sliced(&prep);
        assert_eq!(prep_codec::decode_sliced(&bytes).unwrap(), prep);
        assert!(prep_codec::decode_sliced(&bytes[..bytes.len() - 1]).is_err());
    }
    let explicit = dealer.malicious_batch::<u32>(&circuit, &io, 3).unwrap();
    let seeded = dealer.malicious_batch_seeded::<u32>(&circuit, &io, 3).unwrap();
    for prep in explicit.into_iter().chain(seeded) {
        let bytes = prep_codec::encode_malicious(&prep);
        assert_eq!(prep_codec::decode_malicious::<u32>(&bytes).unwrap(), prep);
        assert!(prep_codec::decode_malicious::<u64>(&bytes).unwrap_err().contains("k = 64"));
        assert!(prep_codec::decode_malicious::<u32>(&bytes[..bytes.len() - 3]).is_err());
        if let Some(seed) = prep.verifier_seed() {
            // The kind byte precedes the seed: an unknown kind is a typed error.
            let at = bytes.windows(16).position(|w| w == seed).expect("seed encoded") - 1;
            let mut bad_kind = bytes.clone();
            bad_kind[at] = 7;
            assert!(prep_codec::decode_malicious::<u32>(&bad_kind).unwrap_err().contains("kind 7"));
        }
    }
    let [p0, p1] = dealer.binary_batch(&circuit, &io, 2).unwrap();
    for preps in [p0, p1] {
        let bytes = prep_codec::encode(&preps);
        assert_eq!(prep_codec::decode(&bytes).unwrap(), preps);
        for cut in [0, 10, bytes.len() / 2, bytes.len() - 1] {
            assert!(prep_codec::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(prep_codec::decode(&longer).unwrap_err().contains("trailing"));
    }
    let mut huge = b"chorus/tt-prep/v1".to_vec();
    huge.extend_from_slice(&u32::MAX.to_be_bytes());
    assert!(prep_codec::decode(&huge).unwrap_err().contains("exceeds"));
}

#[test]
fn sessions_without_a_dealer_are_rejected() {
    let outs = run_session(2, |mut net| async move {
        let spec = aes_spec(1, vec![0], 1, vec![0]);
        let input = if net.party() == 0 {
            TinyTableAesInput { key_share: Some(vec![0; 16]), plaintext: None }
        } else {
            TinyTableAesInput { key_share: None, plaintext: Some(vec![0; 16]) }
        };
        aes::run(&mut net, &spec, input, &mut seeded_rng(1)).await
    });
    for out in outs {
        let err = out.unwrap_err();
        assert_eq!(
            err,
            JobError::WrongSessionSize {
                protocol: "TinyTable",
                preprocessing: Preprocessing::Dealer,
                got: 2
            }
        );
        assert!(err.to_string().contains("needs 3 session members"), "{err}");
    }
}
