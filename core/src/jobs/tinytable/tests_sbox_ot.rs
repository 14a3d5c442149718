//! The S-box-table AES path with [`Preprocessing::Ot`]: two members, no dealer, the §4
//! construction over TinyOT, over encrypted channels on the in-memory network. FIPS-197 at both
//! security levels with the malicious online phase exactly as with the dealer's tables, material
//! built in chunks, a batch with one recipient, a party that tampers with a construction round or
//! an online S-box round or truncates a construction message, and tables prepared ahead of time,
//! consumed by later jobs.

use super::aes::{self, AesPath, TinyTableAesInput, TinyTableAesSpec};
use super::sbox_ot::{build_tables, CHUNK_BLOCKS};
use super::tests::{aes_spec, connect, FIPS_CT, FIPS_KEY, FIPS_PT};
use super::tests_malicious::{fips_inputs, run as malicious_run};
use super::tests_ot::run_two;
use super::*;
use crate::aes::{Block, Direction};
use crate::jobs::prepared::{Prepared, PreparedUse};
use crate::net::memory::run_session;
use crate::ot::tinyot::bucket_size;
use crate::proto::tinytable::sbox::construct::{TRIPLES_PER_BLOCK, TRIPLES_PER_TABLE};
use crate::proto::tinytable::sbox::malicious::encrypt_batch;
use crate::proto::tinytable::{OtTinyOt, Reveal, Step};
use crate::rng::seeded_rng;
use core::sync::atomic::{AtomicU64, Ordering};

fn sbox_spec(
    preprocessing: Preprocessing,
    security: Security,
    blocks: usize,
    reveal: Vec<PartyId>,
) -> TinyTableAesSpec {
    TinyTableAesSpec {
        path: AesPath::SboxTables,
        preprocessing,
        security,
        mac_bits: MacBits::K64,
        ..aes_spec(blocks, vec![0], 1, reveal)
    }
}

/// The key at party 0, `plaintext` at party 1.
fn inputs(plaintext: Vec<u8>) -> [TinyTableAesInput; 2] {
    [
        TinyTableAesInput { key_share: Some(FIPS_KEY.to_vec()), plaintext: None },
        TinyTableAesInput { key_share: None, plaintext: Some(plaintext) },
    ]
}

#[test]
fn fips197_through_the_sbox_tables_built_over_ot_at_both_security_levels() {
    // The dealer's malicious run is the reference for the online phase.
    let dealer = malicious_run(
        &sbox_spec(Preprocessing::Dealer, Security::Malicious, 1, vec![0, 1]),
        fips_inputs(),
        None,
    );
    for security in [Security::SemiHonest, Security::Malicious] {
        let s = sbox_spec(Preprocessing::Ot, security, 1, vec![0, 1]);
        assert_eq!(s.validate(), Ok(()));
        let outs = run_two(&s, inputs(FIPS_PT.to_vec()), None);
        assert_eq!(outs.len(), 2, "two members, no dealer");
        for (p, out) in outs.iter().enumerate() {
            let out = out.as_ref().unwrap_or_else(|e| panic!("{security:?} party {p}: {e}"));
            assert_eq!(out.ciphertext.as_ref().expect("revealed")[..], FIPS_CT, "{security:?} party {p}");
            // Both levels run the malicious online phase on OT-built tables: the same bytes and
            // rounds as the dealer's malicious run.
            let reference = dealer[p].as_ref().expect("dealer run").online_stats;
            assert_eq!(out.online_stats.bytes_sent, reference.bytes_sent, "{security:?} party {p}");
            assert_eq!(out.online_stats.rounds, reference.rounds, "{security:?} party {p}");
            // 1 input round, 10 lookup rounds, 1 output opening (sbox::malicious).
            assert_eq!(out.online_stats.rounds, 12, "{security:?} party {p}");
            // The construction opens, per table, two bits per triple: at least that much was sent.
            let opened_bytes = (160 * 2 * TRIPLES_PER_TABLE / 8) as u64;
            assert!(out.preprocessing_stats.bytes_sent > opened_bytes, "{security:?} party {p}: {out:?}");
        }
    }
}

/// `direction: Decrypt` on the S-box path: FIPS-197's ciphertext decrypts over OT-built tables
/// at both security levels and with the dealer's tables at both levels, at the online cost of
/// encryption; a spec that differs only in its direction disagrees.
#[test]
fn the_sbox_path_decrypts_fips197_with_every_source_of_tables() {
    let decrypt = |preprocessing, security| TinyTableAesSpec {
        direction: Direction::Decrypt,
        ..sbox_spec(preprocessing, security, 1, vec![0, 1])
    };
    let encrypted = run_two(
        &sbox_spec(Preprocessing::Ot, Security::Malicious, 1, vec![0, 1]),
        inputs(FIPS_PT.to_vec()),
        None,
    );
    let reference = encrypted[0].as_ref().expect("encryption").online_stats;
    for security in [Security::SemiHonest, Security::Malicious] {
        let s = decrypt(Preprocessing::Ot, security);
        assert_eq!(s.validate(), Ok(()));
        for (p, out) in run_two(&s, inputs(FIPS_CT.to_vec()), None).iter().enumerate() {
            let out = out.as_ref().unwrap_or_else(|e| panic!("{security:?} party {p}: {e}"));
            assert_eq!(out.ciphertext.as_ref().expect("revealed")[..], FIPS_PT, "{security:?} party {p}");
            if p == 0 {
                assert_eq!(out.online_stats.bytes_sent, reference.bytes_sent);
                assert_eq!(out.online_stats.rounds, reference.rounds);
            }
        }
        let dealt = [
            TinyTableAesInput { key_share: Some(FIPS_KEY.to_vec()), plaintext: None },
            TinyTableAesInput { key_share: None, plaintext: Some(FIPS_CT.to_vec()) },
            TinyTableAesInput::default(),
        ];
        for (p, out) in
            malicious_run(&decrypt(Preprocessing::Dealer, security), dealt, None).iter().take(2).enumerate()
        {
            let out = out.as_ref().unwrap_or_else(|e| panic!("dealer {security:?} party {p}: {e}"));
            assert_eq!(
                out.ciphertext.as_ref().expect("revealed")[..],
                FIPS_PT,
                "dealer {security:?} party {p}"
            );
        }
    }
    let encrypt = sbox_spec(Preprocessing::Ot, Security::Malicious, 1, vec![0, 1]);
    let specs = [encrypt.clone(), TinyTableAesSpec { direction: Direction::Decrypt, ..encrypt }];
    assert_ne!(specs[0].encode(), specs[1].encode());
}

#[test]
fn material_built_in_chunks_encrypts() {
    // Buckets of 4 leaky triples per chunk; 3 only from 27 blocks (2^20 triples) on.
    assert_eq!(bucket_size(CHUNK_BLOCKS * TRIPLES_PER_BLOCK), 4);
    assert_eq!(bucket_size(26 * TRIPLES_PER_BLOCK), 4);
    assert_eq!(bucket_size(27 * TRIPLES_PER_BLOCK), 3);
    // Three blocks built one per chunk and appended, then the malicious online phase.
    let pts: Vec<Block> = (0..3u8).map(|b| core::array::from_fn(|i| b ^ (i as u8 * 3))).collect();
    let outs = run_session(2, |mut net| {
        let pts = pts.clone();
        async move {
            let me = net.party();
            let mut source = OtTinyOt::<u64>::setup(&mut net, b"chunks", seeded_rng(40 + me as u64)).await?;
            let prep = build_tables(
                &mut net,
                &mut source,
                Direction::Encrypt,
                (0, false),
                Reveal::To(1),
                3,
                [9; 16],
                1,
            )
            .await?;
            let inputs = if me == 0 { vec![FIPS_KEY; 3] } else { pts };
            encrypt_batch(&mut net, &prep, &inputs).await
        }
    });
    let mut expected = pts.clone();
    crate::aes::Aes::new(&FIPS_KEY).unwrap().encrypt_blocks(&mut expected);
    assert_eq!(outs[0].as_ref().expect("party 0"), &vec![None; 3]);
    let got: Vec<Block> = outs[1].as_ref().expect("party 1").iter().map(|c| c.expect("revealed")).collect();
    assert_eq!(got, expected);
}

#[test]
fn a_batch_with_one_recipient() {
    let blocks = 3;
    let pt: Vec<u8> = (0..16 * blocks).map(|i| (i * 7) as u8).collect();
    let outs = run_two(
        &sbox_spec(Preprocessing::Ot, Security::Malicious, blocks, vec![1]),
        inputs(pt.clone()),
        None,
    );
    let mut expected: Vec<[u8; 16]> = pt.chunks_exact(16).map(|c| c.try_into().unwrap()).collect();
    crate::aes::Aes::new(&FIPS_KEY).unwrap().encrypt_blocks(&mut expected);
    assert_eq!(outs[0].as_ref().expect("party 0").ciphertext, None);
    assert_eq!(outs[1].as_ref().expect("party 1").ciphertext.as_ref().expect("revealed"), &expected.concat());
}

/// Length of party 0's message of construction round 3 for one block: the packed `x ⊕ a`,
/// `y ⊕ b` bits of 160 tables' 225 products, and the 16-byte batched hash.
const ROUND3_BYTES: usize = 160 * 2 * 225 / 8 + 16;

#[test]
fn a_tampered_construction_round_aborts_the_honest_party_before_any_input_is_used() {
    for security in [Security::SemiHonest, Security::Malicious] {
        let s = sbox_spec(Preprocessing::Ot, security, 1, vec![0, 1]);
        let flip: fn(u64, &mut Vec<u8>) = |_, msg| {
            if msg.len() == ROUND3_BYTES {
                msg[100] ^= 0x08;
            }
        };
        let outs = run_two(&s, inputs(FIPS_PT.to_vec()), Some(flip));
        match &outs[1] {
            Err(e @ JobError::TinyTable(TinyTableError::AuthenticationFailed { party: 1, step })) => {
                assert_eq!(*step, Step::TableConstruction(3), "{security:?}");
                assert!(e.failed_check().is_some(), "{security:?}: a named check: {e}");
            }
            other => panic!("{security:?}: the honest party must abort in round 3: {other:?}"),
        }
        assert!(outs[0].is_err(), "{security:?}: the cheater gets no output either: {:?}", outs[0]);
    }
}

#[test]
fn a_truncated_construction_round_is_a_typed_error_naming_the_round() {
    let s = sbox_spec(Preprocessing::Ot, Security::Malicious, 1, vec![0, 1]);
    let cut: fn(u64, &mut Vec<u8>) = |_, msg| {
        if msg.len() == ROUND3_BYTES {
            msg.truncate(ROUND3_BYTES - 16);
        }
    };
    let outs = run_two(&s, inputs(FIPS_PT.to_vec()), Some(cut));
    match &outs[1] {
        Err(JobError::TinyTable(TinyTableError::MalformedMessage {
            party: 1,
            from: 0,
            step,
            expected,
            actual,
            ..
        })) => {
            assert_eq!(*step, Step::TableConstruction(3));
            assert_eq!((*expected, *actual), (ROUND3_BYTES, ROUND3_BYTES - 16));
        }
        other => panic!("the honest party must reject the short message: {other:?}"),
    }
    assert!(outs[0].is_err(), "the cheater gets no output either: {:?}", outs[0]);
}

/// Index of party 0's construction round-3 message in the current run of
/// [`a_flipped_online_table_entry_is_caught_at_both_security_levels`].
static ROUND3_AT: AtomicU64 = AtomicU64::new(u64::MAX);

#[test]
fn a_flipped_online_table_entry_is_caught_at_both_security_levels() {
    // With OT-built tables the online phase is the malicious one at both levels. Party 0 flips a
    // bit of its first 16-byte message after construction round 3: the entries of lookup round 1.
    for security in [Security::SemiHonest, Security::Malicious] {
        ROUND3_AT.store(u64::MAX, Ordering::SeqCst);
        let s = sbox_spec(Preprocessing::Ot, security, 1, vec![0, 1]);
        let flip: fn(u64, &mut Vec<u8>) = |index, msg| {
            if msg.len() == ROUND3_BYTES {
                ROUND3_AT.store(index, Ordering::SeqCst);
            } else if msg.len() == 16 && index > ROUND3_AT.load(Ordering::SeqCst) {
                ROUND3_AT.store(u64::MAX - 1, Ordering::SeqCst);
                msg[0] ^= 1;
            }
        };
        let outs = run_two(&s, inputs(FIPS_PT.to_vec()), Some(flip));
        assert_eq!(
            ROUND3_AT.load(Ordering::SeqCst),
            u64::MAX - 1,
            "{security:?}: a lookup message was flipped"
        );
        let err = outs[1].as_ref().expect_err("the honest party must abort");
        let check = err.failed_check().unwrap_or_else(|| panic!("{security:?}: {err}"));
        assert!(check.contains("S-box MAC check"), "{security:?}: {check}");
        assert!(outs[0].is_err(), "{security:?}: the cheater got {:?}", outs[0]);
    }
}

#[test]
fn prepared_sbox_tables_are_consumed_by_later_jobs_with_the_online_phase_alone() {
    let spec = |blocks| sbox_spec(Preprocessing::Ot, Security::Malicious, blocks, vec![0, 1]);
    let input = |me: PartyId, blocks: usize| inputs(FIPS_PT.repeat(blocks))[me].clone();
    let outs = run_session(2, |inner| {
        let me = inner.party();
        async move {
            let mut net = connect(inner).await?;
            let mut rng = seeded_rng(900 + me as u64);
            let mut store = Prepared::default();
            let made = aes::prepare(&mut net, &spec(3), &mut rng, &mut store).await?;
            let uses = aes::uses_prepared(&spec(2), &store, PreparedUse::Auto)?;
            let first =
                aes::run_prepared(&mut net, &spec(2), input(me, 2), &mut rng, &mut store, PreparedUse::Auto)
                    .await?;
            // The block left is S-box material: a circuit-path job that requires prepared material
            // is refused, before anything is sent.
            let circuit = TinyTableAesSpec { path: AesPath::BinaryCircuit, ..spec(1) };
            let other_kind = aes::uses_prepared(&circuit, &store, PreparedUse::Require);
            let second = aes::run_prepared(
                &mut net,
                &spec(1),
                input(me, 1),
                &mut rng,
                &mut store,
                PreparedUse::Require,
            )
            .await?;
            Ok::<_, JobError>((made, uses, first, other_kind, second, store.available(), store.consumed()))
        }
    });
    for (p, out) in outs.into_iter().enumerate() {
        let (made, uses, first, other_kind, second, available, consumed) =
            out.unwrap_or_else(|e| panic!("party {p}: {e}"));
        assert_eq!((made.instances, made.available), (3, 3), "party {p}");
        // The preparation is the OT work: at least one 16-byte half gate per triple.
        assert!(made.stats.bytes_sent > 3 * TRIPLES_PER_BLOCK as u64 * 16, "party {p}: {made:?}");
        assert!(uses, "party {p}");
        assert_eq!(first.ciphertext.as_deref(), Some(&FIPS_CT.repeat(2)[..]), "party {p}");
        assert_eq!(second.ciphertext.as_deref(), Some(&FIPS_CT[..]), "party {p}");
        // A prepared job sends its spec digest and the online phase: nothing else.
        for job in [&first, &second] {
            assert_eq!(job.stats.bytes_sent, job.online_stats.bytes_sent + 32, "party {p}: {job:?}");
        }
        match other_kind {
            Err(JobError::InvalidSpec { field: "usePrepared", reason }) => {
                assert!(reason.contains("made for other jobs"), "{reason}")
            }
            other => panic!("party {p}: {other:?}"),
        }
        assert_eq!((available, consumed), (0, 3), "party {p}");
    }
}
