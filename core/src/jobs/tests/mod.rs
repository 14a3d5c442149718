//! The shared job layer end to end: one [`AesSpec`] / [`CircuitSpec`] per protocol over encrypted
//! channels on the in-memory network, against FIPS-197 and plaintext evaluation; MiniMac, which
//! plugs in only through this layer, with its dealer as session member 2, its limits, a tampered
//! dealer frame and a cheating party.

use super::*;
use crate::aes::fips197::{CIPHERTEXT as FIPS_CT, KEY as FIPS_KEY, PLAINTEXT as FIPS_PT};
use crate::aes::KeySize;
use crate::circuit::testing::{random_circuit, random_inputs};
use crate::jobs::maestro_aes::{Direction, SboxVariant};
use crate::jobs::tinytable::aes::AesPath;
use crate::jobs::tinytable::MacBits;
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::secure::{SecureConfig, SecureNetwork};
use crate::net::tamper::Tamper;
use crate::net::{NetError, Network, PartyId};
use crate::proto::minimac::CodeChoice;
use crate::proto::tinytable::{IoSpec, Reveal};
use crate::rng::seeded_rng;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

mod coral_dealer;
mod key_sizes;
mod minimac_ot;
mod mixed;
mod n_party;
mod prepared_simd;
mod reveal;
mod stream;
mod tinyot;

async fn connect(inner: MemoryNetwork) -> Result<SecureNetwork<MemoryNetwork>, JobError> {
    let me = inner.party();
    let config = SecureConfig::session_secret(b"jobs-test", b"a session secret of 32 bytes....");
    Ok(SecureNetwork::establish_with_rng(inner, config, &mut seeded_rng(300 + me as u64))
        .await
        .map_err(NetError::from)?)
}

fn spec(
    protocol: AesProtocol,
    key_holders: Vec<PartyId>,
    plaintext_owner: PartyId,
    reveal_to: Vec<PartyId>,
) -> AesSpec {
    AesSpec {
        protocol,
        direction: Direction::Encrypt,
        key_size: KeySize::Aes128,
        blocks: 1,
        key_holders,
        plaintext_owner,
        reveal_to,
    }
}

const MINIMAC: AesProtocol =
    AesProtocol::MiniMac { code: CodeChoice::Rs255_85, preprocessing: Preprocessing::Dealer };

/// Runs `spec` at every member; `cheat(member, index, message)` edits what a member sends.
fn run_all(
    spec: &AesSpec,
    inputs: Vec<AesInput>,
    cheat: fn(PartyId, u64, &mut Vec<u8>),
) -> Vec<Result<AesOutput, JobError>> {
    run_session(spec.protocol.members(), |inner| {
        let me = inner.party();
        let (spec, input) = (spec.clone(), inputs[me].clone());
        async move {
            let mut net = Tamper::new(connect(inner).await?, move |i, m| cheat(me, i, m));
            run_aes(&mut net, &spec, input, &mut seeded_rng(me as u64)).await
        }
    })
}

fn honest(_: PartyId, _: u64, _: &mut Vec<u8>) {}

/// FIPS-197 inputs with the key split between parties 0 and 1 and the plaintext at `owner`.
fn fips_inputs(members: usize, owner: PartyId) -> Vec<AesInput> {
    let mask = [0x3c; 16];
    (0..members)
        .map(|p| AesInput {
            key_share: match p {
                0 => Some(mask.to_vec()),
                1 => Some(FIPS_KEY.iter().zip(&mask).map(|(k, m)| k ^ m).collect()),
                _ => None,
            },
            plaintext: (p == owner).then(|| FIPS_PT.to_vec()),
        })
        .collect()
}

#[test]
fn one_aes_spec_runs_fips197_under_every_protocol() {
    let protocols = [
        (AesProtocol::Maestro { variant: SboxVariant::Lut16, security: Security::Malicious }, 2),
        (
            AesProtocol::TinyTable {
                path: AesPath::BinaryCircuit,
                preprocessing: Preprocessing::Ot,
                security: Security::Malicious,
                mac_bits: MacBits::K64,
            },
            1,
        ),
        (MINIMAC, 1),
        (AesProtocol::Coral { preprocessing: Preprocessing::Ot }, 1),
        (AesProtocol::TinyOt, 1),
    ];
    for (protocol, owner) in protocols {
        let computing = protocol.computing_parties();
        let s = spec(protocol, vec![0, 1], owner, (0..computing).collect());
        let outs = run_all(&s, fips_inputs(protocol.members(), owner), honest);
        for (p, out) in outs.into_iter().enumerate() {
            let out = out.unwrap_or_else(|e| panic!("{} member {p}: {e}", protocol.name()));
            if p < computing {
                assert_eq!(out.ciphertext.expect("revealed")[..], FIPS_CT, "{} party {p}", protocol.name());
                assert!(out.online_stats.bytes_sent > 0 && out.online_stats.rounds > 0);
            } else {
                assert_eq!(out.ciphertext, None, "the dealer learns nothing");
                assert_eq!(out.online_stats, crate::net::NetStats::default());
            }
            assert!(out.preprocessing_stats.bytes_sent <= out.stats.bytes_sent);
        }
    }
}

#[test]
fn minimac_aes_batches_match_the_plain_cipher_across_codeword_batches() {
    // 700 blocks: one full batch of 680 (the (255, 85) code) and a second of 20.
    let blocks = 700;
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let mut key = [0u8; 16];
    rng.fill_bytes(&mut key);
    let mut plaintext = vec![0u8; 16 * blocks];
    rng.fill_bytes(&mut plaintext);
    let s = AesSpec { blocks, ..spec(MINIMAC, vec![0], 1, vec![0, 1]) };
    let inputs = vec![
        AesInput { key_share: Some(key.to_vec()), plaintext: None },
        AesInput { key_share: None, plaintext: Some(plaintext.clone()) },
        AesInput::default(),
    ];
    let cipher = crate::aes::Aes::new(&key).unwrap();
    let expected: Vec<u8> =
        plaintext.chunks_exact(16).flat_map(|b| cipher.encrypt_block(b.try_into().unwrap())).collect();
    let outs = run_all(&s, inputs, honest);
    for out in outs.iter().take(2) {
        assert_eq!(out.as_ref().unwrap().ciphertext.as_deref(), Some(&expected[..]));
    }
}

#[test]
fn minimac_circuit_job_matches_plaintext_evaluation() {
    let mut rng = ChaCha20Rng::seed_from_u64(21);
    let circuit = random_circuit(&mut rng, 3, 120, 3);
    let io = IoSpec { input_owners: vec![0, 1, 0], reveal: vec![Reveal::Both; 3] };
    let instances = 5;
    let values = random_inputs(&mut rng, &circuit, instances);
    let spec = CircuitSpec {
        protocol: CircuitProtocol::MiniMac {
            code: CodeChoice::Rs256_120,
            preprocessing: Preprocessing::Dealer,
        },
        circuit: circuit.clone().into(),
        io: io.clone(),
        instances,
    };
    let own = |p: PartyId| CircuitInput {
        values: if p > 1 {
            Vec::new()
        } else {
            values
                .iter()
                .map(|vs| {
                    vs.iter()
                        .enumerate()
                        .filter(|(v, _)| io.input_owners[*v] == p)
                        .map(|(_, b)| b.clone())
                        .collect()
                })
                .collect()
        },
    };
    let outs = run_session(3, |inner| {
        let me = inner.party();
        let (spec, input) = (spec.clone(), own(me));
        async move {
            let mut net = connect(inner).await?;
            run_circuit(&mut net, &spec, input, &mut seeded_rng(50 + me as u64)).await
        }
    });
    for (p, out) in outs.into_iter().enumerate().take(2) {
        let out = out.unwrap_or_else(|e| panic!("party {p}: {e}"));
        for (i, instance) in out.outputs.iter().enumerate() {
            let expected = circuit.evaluate(&values[i]).unwrap();
            let got: Vec<Vec<bool>> = instance.iter().map(|v| v.clone().expect("revealed to both")).collect();
            assert_eq!(got, expected, "party {p} instance {i}");
        }
    }
}

#[test]
fn minimac_limits_are_named_before_any_communication() {
    // OT-based preprocessing is available (its runs are in `minimac_ot`).
    let ot = AesProtocol::MiniMac { code: CodeChoice::DEFAULT, preprocessing: Preprocessing::Ot };
    spec(ot, vec![0], 1, vec![0, 1]).validate().unwrap();
    // Every key size and direction (their runs are in `key_sizes`).
    AesSpec {
        direction: Direction::Decrypt,
        key_size: KeySize::Aes256,
        ..spec(MINIMAC, vec![0], 1, vec![0, 1])
    }
    .validate()
    .unwrap();
    assert!(matches!(
        spec(MINIMAC, vec![0, 2], 1, vec![0, 1]).validate(),
        Err(JobError::InvalidSpec { field: "keyHolders", .. })
    ));
    for reveal_to in [vec![], vec![2], vec![1, 0], vec![0, 0]] {
        let s = spec(MINIMAC, vec![0], 1, reveal_to.clone());
        assert!(
            matches!(s.validate(), Err(JobError::InvalidSpec { field: "reveal", .. })),
            "reveal_to {reveal_to:?}"
        );
    }
    for reveal_to in [vec![0], vec![1]] {
        spec(MINIMAC, vec![0], 1, reveal_to).validate().unwrap();
    }
    // A session of the wrong size is named too.
    let outs = run_session(2, |inner| async move {
        let s = spec(MINIMAC, vec![0], 1, vec![0, 1]);
        let mut net = connect(inner).await?;
        run_aes(&mut net, &s, AesInput::default(), &mut seeded_rng(1)).await
    });
    assert!(outs.iter().all(|o| matches!(o, Err(JobError::WrongSessionSize { protocol: "MiniMac", .. }))));
}

#[test]
fn coral_limits_are_named_before_any_communication() {
    let coral = |preprocessing| AesProtocol::Coral { preprocessing };
    // Both preprocessing kinds are available (the dealer's runs are in `coral_dealer`).
    spec(coral(Preprocessing::Dealer), vec![0], 1, vec![0, 1]).validate().unwrap();
    // Every key size and direction (their runs are in `key_sizes`).
    let decrypt = spec(coral(Preprocessing::Ot), vec![0], 1, vec![0, 1]);
    AesSpec { direction: Direction::Decrypt, key_size: KeySize::Aes192, ..decrypt }.validate().unwrap();
    // Over OT every member computes, so party 3 may exist; party 9 may not.
    for reveal_to in [vec![], vec![9], vec![1, 0], vec![0, 2]] {
        let s = spec(coral(Preprocessing::Ot), vec![0], 1, reveal_to.clone());
        assert!(
            matches!(s.validate(), Err(JobError::InvalidSpec { field: "reveal", .. })),
            "reveal_to {reveal_to:?}"
        );
    }
    spec(coral(Preprocessing::Ot), vec![0], 1, vec![1]).validate().unwrap();
}

/// A Coral circuit job between two parties over OT: the outputs match plaintext evaluation; a
/// party that flips a byte of one of its messages (OT preprocessing, input, AND layer or check)
/// makes the honest party fail with a Coral error before any output.
#[test]
fn coral_circuit_job_matches_plaintext_and_catches_a_cheating_party() {
    let mut rng = ChaCha20Rng::seed_from_u64(33);
    let circuit = random_circuit(&mut rng, 2, 60, 2);
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both; 2] };
    let instances = 17;
    let values = random_inputs(&mut rng, &circuit, instances);
    let spec = CircuitSpec {
        protocol: CircuitProtocol::Coral { preprocessing: Preprocessing::Ot },
        circuit: circuit.clone().into(),
        io,
        instances,
    };
    let run = |target: Option<u64>| {
        run_session(2, |inner| {
            let me = inner.party();
            let spec = spec.clone();
            let input = CircuitInput { values: values.iter().map(|vs| vec![vs[me].clone()]).collect() };
            async move {
                let mut net = Tamper::new(connect(inner).await?, move |i, m: &mut Vec<u8>| {
                    if me == 0 && Some(i) == target {
                        if let Some(b) = m.last_mut() {
                            *b ^= 0x10;
                        }
                    }
                });
                run_circuit(&mut net, &spec, input, &mut seeded_rng(70 + me as u64)).await
            }
        })
    };
    for (p, out) in run(None).into_iter().enumerate() {
        let out = out.unwrap_or_else(|e| panic!("party {p}: {e}"));
        for (i, instance) in out.outputs.iter().enumerate() {
            let got: Vec<Vec<bool>> = instance.iter().map(|v| v.clone().expect("revealed to both")).collect();
            assert_eq!(got, circuit.evaluate(&values[i]).unwrap(), "party {p} instance {i}");
        }
    }
    for target in [3u64, 20, 45] {
        let outs = run(Some(target));
        match &outs[1] {
            Err(JobError::Coral(_)) => {}
            other => panic!("message {target}: expected a Coral abort at party 1, got {other:?}"),
        }
        assert!(outs[0].as_ref().map_or(true, |o| o.outputs.is_empty()));
    }
}

#[test]
fn a_truncated_dealer_frame_is_bad_preprocessing_and_reveals_nothing() {
    // The dealer's sends: 0 and 1 are its spec digests, 2 and 3 the material for parties 0 and 1.
    fn truncate_party_1(member: PartyId, index: u64, message: &mut Vec<u8>) {
        if member == DEALER && index == 3 {
            message.truncate(message.len() - 7);
        }
    }
    let s = spec(MINIMAC, vec![0], 1, vec![0, 1]);
    let mut inputs = fips_inputs(3, 1);
    inputs[1].key_share = None;
    inputs[0].key_share = Some(FIPS_KEY.to_vec());
    let outs = run_all(&s, inputs, truncate_party_1);
    match &outs[1] {
        Err(JobError::BadPreprocessing { party: 1, reason }) => {
            assert!(reason.contains("truncated"), "{reason}")
        }
        other => panic!("expected bad preprocessing, got {other:?}"),
    }
    assert!(outs[0].as_ref().map_or(true, |o| o.ciphertext.is_none()), "party 0 learned an output");
}

#[test]
fn a_minimac_party_that_changes_a_share_is_caught_before_outputs() {
    // Party 0 flips the last byte of one of its protocol messages after the spec digests and its
    // confirmation to the dealer (its sends 0 to 2): its input message, a multiplication round,
    // or a check.
    for target in [3u64, 4, 10, 41] {
        let cheat: fn(PartyId, u64, &mut Vec<u8>) = match target {
            3 => |m, i, msg| flip_last(m, i, msg, 3),
            4 => |m, i, msg| flip_last(m, i, msg, 4),
            10 => |m, i, msg| flip_last(m, i, msg, 10),
            _ => |m, i, msg| flip_last(m, i, msg, 41),
        };
        let s = spec(MINIMAC, vec![0], 1, vec![0, 1]);
        let mut inputs = fips_inputs(3, 1);
        inputs[1].key_share = None;
        inputs[0].key_share = Some(FIPS_KEY.to_vec());
        let outs = run_all(&s, inputs, cheat);
        match &outs[1] {
            Err(e @ JobError::MiniMac(_)) => {
                let named = e.failed_check().is_some() || e.to_string().contains("malformed");
                assert!(named, "message {target}: {e}");
            }
            other => panic!("message {target}: expected a MiniMac abort at party 1, got {other:?}"),
        }
        assert!(outs[0].as_ref().map_or(true, |o| o.ciphertext.is_none()));
    }
}

fn flip_last(member: PartyId, index: u64, message: &mut [u8], target: u64) {
    if member == 0 && index == target {
        if let Some(b) = message.last_mut() {
            *b ^= 1;
        }
    }
}
