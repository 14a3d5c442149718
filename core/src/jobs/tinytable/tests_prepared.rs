//! Preprocessing ahead of time ([`super::prepared`]): material prepared in one step of a
//! two-member session and consumed by later AES and circuit jobs of the same session, each
//! instance once, with the online phase alone left in the jobs; plans agreed by both members;
//! `usePrepared` honoured and explained.

use super::aes::{self, TinyTableAesInput, TinyTableAesSpec};
use super::circuit::{self as circuit_job, CircuitJobInput, CircuitJobSpec};
use super::tests::{aes_spec, connect, xor, FIPS_CT, FIPS_KEY, FIPS_PT};
use super::*;
use crate::jobs::prepared::{Prepared, PreparedUse};
use crate::jobs::AesOutput;
use crate::net::memory::run_session;
use crate::proto::tinytable::circuit::tests_malicious::{random_circuit, random_inputs};
use crate::proto::tinytable::Reveal;
use crate::rng::seeded_rng;

fn ot_spec(security: Security, blocks: usize) -> TinyTableAesSpec {
    TinyTableAesSpec {
        preprocessing: Preprocessing::Ot,
        security,
        mac_bits: MacBits::K64,
        ..aes_spec(blocks, vec![0, 1], 1, vec![0, 1])
    }
}

/// FIPS-197's key XOR-shared between the parties, party 1 owning `blocks` copies of the plaintext.
fn inputs(blocks: usize) -> [TinyTableAesInput; 2] {
    let mask = [0x5a; 16];
    [
        TinyTableAesInput { key_share: Some(mask.to_vec()), plaintext: None },
        TinyTableAesInput { key_share: Some(xor(&FIPS_KEY, &mask)), plaintext: Some(FIPS_PT.repeat(blocks)) },
    ]
}

fn assert_fips(out: &AesOutput, blocks: usize, what: &str) {
    assert_eq!(out.ciphertext.as_deref(), Some(&FIPS_CT.repeat(blocks)[..]), "{what}");
}

#[test]
fn prepared_aes_blocks_are_consumed_by_later_jobs_once_each() {
    let outs = run_session(2, |inner| {
        let me = inner.party();
        async move {
            let mut net = connect(inner).await?;
            let mut rng = seeded_rng(800 + me as u64);
            let mut store = Prepared::default();
            let made = aes::prepare(&mut net, &ot_spec(Security::Malicious, 3), &mut rng, &mut store).await?;
            let auto = PreparedUse::Auto;
            let first = aes::run_prepared(
                &mut net,
                &ot_spec(Security::Malicious, 1),
                inputs(1)[me].clone(),
                &mut rng,
                &mut store,
                auto,
            )
            .await?;
            let after_first = (store.available(), store.consumed());
            let second = aes::run_prepared(
                &mut net,
                &ot_spec(Security::Malicious, 2),
                inputs(2)[me].clone(),
                &mut rng,
                &mut store,
                auto,
            )
            .await?;
            let after_second = (store.available(), store.consumed());
            // Nothing left: `Require` refuses before anything is sent, `Auto` makes material inline.
            let required = aes::run_prepared(
                &mut net,
                &ot_spec(Security::Malicious, 1),
                inputs(1)[me].clone(),
                &mut rng,
                &mut store,
                PreparedUse::Require,
            )
            .await;
            let inline = aes::run_prepared(
                &mut net,
                &ot_spec(Security::Malicious, 1),
                inputs(1)[me].clone(),
                &mut rng,
                &mut store,
                auto,
            )
            .await?;
            Ok::<_, JobError>((made, first, after_first, second, after_second, required, inline))
        }
    });
    for (p, out) in outs.into_iter().enumerate() {
        let (made, first, after_first, second, after_second, required, inline) =
            out.unwrap_or_else(|e| panic!("party {p}: {e}"));
        assert_eq!((made.instances, made.available), (3, 3), "party {p}");
        assert!(made.stats.bytes_sent > 1_000_000, "party {p}: the preparation is the OT work: {made:?}");
        assert_fips(&first, 1, "first job");
        assert_fips(&second, 2, "second job");
        assert_fips(&inline, 1, "inline job");
        assert_eq!(after_first, (2, 1), "party {p}");
        assert_eq!(after_second, (0, 3), "party {p}");
        // A prepared job sends its spec digest, one plan, and the online phase: nothing else.
        for job in [&first, &second] {
            assert_eq!(job.stats.bytes_sent, job.online_stats.bytes_sent + 32, "party {p}: {job:?}");
        }
        assert!(inline.stats.bytes_sent > 100 * inline.online_stats.bytes_sent, "party {p}: {inline:?}");
        match required {
            Err(JobError::InvalidSpec { field: "usePrepared", reason }) => {
                assert!(reason.contains("no prepared material is left"), "{reason}")
            }
            other => panic!("party {p}: {other:?}"),
        }
    }
}

#[test]
fn prepared_circuit_instances_split_across_lane_words_match_plaintext_evaluation() {
    let mut rng = seeded_rng(21);
    let circuit = random_circuit(&mut rng, 2, 20, 2);
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both, Reveal::To(1)] };
    // 70 instances: the first job takes 65, so the rest starts inside a 64-bit lane word.
    let (total, split) = (70, 65);
    let values = random_inputs(&mut rng, &circuit, total);
    let own = |p: PartyId, range: core::ops::Range<usize>| CircuitJobInput {
        values: values[range].iter().map(|v| vec![v[p].clone()]).collect(),
    };
    for security in [Security::SemiHonest, Security::Malicious] {
        let spec = |instances| CircuitJobSpec {
            preprocessing: Preprocessing::Ot,
            security,
            mac_bits: MacBits::K32,
            circuit: circuit.clone(),
            io: io.clone(),
            instances,
        };
        let outs = run_session(2, |inner| {
            let me = inner.party();
            let (all, first, rest) = (spec(total), spec(split), spec(total - split));
            let (a, b) = (own(me, 0..split), own(me, split..total));
            async move {
                let mut net = connect(inner).await?;
                let mut rng = seeded_rng(90 + me as u64);
                let mut store = Prepared::default();
                circuit_job::prepare(&mut net, &all, &mut rng, &mut store).await?;
                let use_it = PreparedUse::Require;
                let x =
                    circuit_job::run_prepared(&mut net, &first, a, &mut rng, &mut store, use_it, &mut |_| {})
                        .await?;
                let y =
                    circuit_job::run_prepared(&mut net, &rest, b, &mut rng, &mut store, use_it, &mut |_| {})
                        .await?;
                Ok::<_, JobError>([x, y].map(|o| o.outputs).concat())
            }
        });
        for (p, out) in outs.into_iter().enumerate() {
            let out = out.unwrap_or_else(|e| panic!("{security:?} party {p}: {e}"));
            assert_eq!(out.len(), total);
            for (i, v) in values.iter().enumerate() {
                for (k, bits) in circuit.evaluate(v).unwrap().into_iter().enumerate() {
                    let want = io.reveal[k].includes(p).then_some(bits);
                    assert_eq!(out[i][k], want, "{security:?} party {p} instance {i} value {k}");
                }
            }
        }
    }
}

#[test]
fn members_that_plan_differently_fail_the_agreement_before_using_material() {
    // Party 0 prepared and will use its material; party 1 runs the job inline.
    let outs = run_session(2, |inner| {
        let me = inner.party();
        async move {
            let mut net = connect(inner).await?;
            let mut rng = seeded_rng(70 + me as u64);
            let mut store = Prepared::default();
            aes::prepare(&mut net, &ot_spec(Security::SemiHonest, 1), &mut rng, &mut store).await?;
            let usage = if me == 0 { PreparedUse::Auto } else { PreparedUse::Never };
            let spec = ot_spec(Security::SemiHonest, 1);
            let out =
                aes::run_prepared(&mut net, &spec, inputs(1)[me].clone(), &mut rng, &mut store, usage).await;
            Ok::<_, JobError>((out, store.available()))
        }
    });
    for (p, out) in outs.into_iter().enumerate() {
        let (job, left) = out.unwrap_or_else(|e| panic!("party {p}: {e}"));
        assert_eq!(job.unwrap_err(), JobError::SpecMismatch(1 - p), "party {p}");
        assert_eq!(left, 1, "party {p}: a failed agreement takes nothing");
    }
}

#[test]
fn material_of_another_kind_is_not_used_and_require_says_why() {
    let outs = run_session(2, |inner| {
        let me = inner.party();
        async move {
            let mut net = connect(inner).await?;
            let mut rng = seeded_rng(50 + me as u64);
            let mut store = Prepared::default();
            aes::prepare(&mut net, &ot_spec(Security::SemiHonest, 2), &mut rng, &mut store).await?;
            Ok::<_, JobError>(store)
        }
    });
    for (p, store) in outs.into_iter().enumerate() {
        let store = store.unwrap_or_else(|e| panic!("party {p}: {e}"));
        let malicious = ot_spec(Security::Malicious, 1);
        assert_eq!(aes::uses_prepared(&malicious, &store, PreparedUse::Auto), Ok(false));
        let err = aes::uses_prepared(&malicious, &store, PreparedUse::Require).unwrap_err();
        assert!(err.to_string().contains("made for other jobs"), "{err}");
        let too_many = ot_spec(Security::SemiHonest, 3);
        let err = aes::uses_prepared(&too_many, &store, PreparedUse::Require).unwrap_err();
        assert!(err.to_string().contains("2 prepared instance(s) fit this job"), "{err}");
        let fits = ot_spec(Security::SemiHonest, 2);
        assert_eq!(aes::uses_prepared(&fits, &store, PreparedUse::Auto), Ok(true));
        assert_eq!(aes::uses_prepared(&fits, &store, PreparedUse::Never), Ok(false));
        let dealer = TinyTableAesSpec { preprocessing: Preprocessing::Dealer, ..fits };
        assert_eq!(aes::uses_prepared(&dealer, &store, PreparedUse::Auto), Ok(false));
        assert!(aes::uses_prepared(&dealer, &store, PreparedUse::Require).is_err());
    }
}

#[test]
fn only_ot_material_is_prepared() {
    let spec = TinyTableAesSpec { preprocessing: Preprocessing::Dealer, ..ot_spec(Security::SemiHonest, 1) };
    let outs = run_session(3, |mut net| {
        let spec = spec.clone();
        async move { aes::prepare(&mut net, &spec, &mut seeded_rng(1), &mut Prepared::default()).await }
    });
    for out in outs {
        assert!(matches!(out, Err(JobError::NotAvailable { option: "preprocessing", .. })), "{out:?}");
    }
}
