//! MiniMac and Coral material made ahead of time ([`crate::jobs::prepared`]) with OT and dealer
//! preprocessing: later jobs consume exactly the prepared units, pay only the spec agreement
//! besides their online phase (whose bytes equal an inline job's), and members whose stores
//! differ fail agreement before anything is taken; a party that cheats while the material is made
//! is caught with a typed error and leaves nothing in the store.

use super::*;
use crate::jobs::{
    prepare_aes, prepare_circuit, run_aes_prepared, run_circuit_prepared, Prepared, PreparedUse,
};
use crate::proto::minimac::{MiniMacError, PrepCheck};

const PROTOCOLS: [CircuitProtocol; 4] = [
    CircuitProtocol::MiniMac { code: CodeChoice::Rs255_85, preprocessing: Preprocessing::Ot },
    CircuitProtocol::MiniMac { code: CodeChoice::Rs255_85, preprocessing: Preprocessing::Dealer },
    CircuitProtocol::Coral { preprocessing: Preprocessing::Ot },
    CircuitProtocol::Coral { preprocessing: Preprocessing::Dealer },
];

fn circuit_spec(
    protocol: CircuitProtocol,
    circuit: &crate::circuit::Circuit,
    instances: usize,
) -> CircuitSpec {
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both, Reveal::To(1)] };
    CircuitSpec { protocol, circuit: circuit.clone().into(), io, instances }
}

/// Member `me`'s inputs of the instances `values` (none at the dealer).
fn mine(values: &[Vec<Vec<bool>>], me: PartyId) -> CircuitInput {
    CircuitInput {
        values: if me >= 2 { Vec::new() } else { values.iter().map(|vs| vec![vs[me].clone()]).collect() },
    }
}

fn check(
    circuit: &crate::circuit::Circuit,
    values: &[Vec<Vec<bool>>],
    out: &CircuitOutput,
    me: PartyId,
    what: &str,
) {
    if me >= 2 {
        assert!(out.outputs.is_empty(), "{what}: the dealer learns nothing");
        return;
    }
    assert_eq!(out.outputs.len(), values.len(), "{what}");
    for (i, instance) in out.outputs.iter().enumerate() {
        let expected = circuit.evaluate(&values[i]).unwrap();
        assert_eq!(instance[0].as_ref(), Some(&expected[0]), "{what} party {me} instance {i}");
        assert_eq!(instance[1].as_ref(), (me == 1).then_some(&expected[1]), "{what} party {me} instance {i}");
    }
}

#[test]
fn prepared_minimac_and_coral_jobs_consume_exactly_the_prepared_units() {
    let mut rng = ChaCha20Rng::seed_from_u64(90);
    let circuit = random_circuit(&mut rng, 2, 30, 2);
    // Five instances prepared for jobs of two: units of 2, 2 and 1 instances.
    let jobs = [
        random_inputs(&mut rng, &circuit, 2),
        random_inputs(&mut rng, &circuit, 1),
        random_inputs(&mut rng, &circuit, 1),
    ];
    for protocol in PROTOCOLS {
        let name = format!("{} {:?}", protocol.name(), protocol.preprocessing());
        let outs = run_session(protocol.preprocessing().members(), |inner| {
            let me = inner.party();
            let (circuit, jobs) = (circuit.clone(), jobs.clone());
            async move {
                let mut net = connect(inner).await?;
                let mut rng = seeded_rng(900 + me as u64);
                let mut store = Prepared::default();
                let made = prepare_circuit(
                    &mut net,
                    &circuit_spec(protocol, &circuit, 5),
                    Some(2),
                    &mut rng,
                    &mut store,
                    |_| {},
                )
                .await?;
                assert_eq!((made.instances, made.available, store.available()), (5, 5, 5));
                let mut outs = Vec::new();
                for values in &jobs {
                    let spec = circuit_spec(protocol, &circuit, values.len());
                    let usage = (&mut store, PreparedUse::Require);
                    outs.push(
                        run_circuit_prepared(&mut net, &spec, mine(values, me), &mut rng, usage).await?,
                    );
                }
                // Three jobs took the three units: 4 instances run, the unit of 2 that served 1
                // dropped its spare one, nothing left.
                let left = (store.available(), store.consumed());
                let spec = circuit_spec(protocol, &circuit, 1);
                let more = run_circuit_prepared(
                    &mut net,
                    &spec,
                    mine(&jobs[2], me),
                    &mut rng,
                    (&mut store, PreparedUse::Require),
                )
                .await;
                let inline = run_circuit_prepared(
                    &mut net,
                    &spec,
                    mine(&jobs[2], me),
                    &mut rng,
                    (&mut store, PreparedUse::Auto),
                )
                .await?;
                Ok::<_, JobError>((outs, left, more.map(|_| ()), inline))
            }
        });
        let members = protocol.preprocessing().members();
        for (me, out) in outs.into_iter().enumerate() {
            let (outs, left, more, inline) = out.unwrap_or_else(|e| panic!("{name} member {me}: {e}"));
            for (values, out) in jobs.iter().zip(&outs) {
                check(&circuit, values, out, me, &name);
                // Besides its online phase, a prepared job sends only its spec digest.
                let agreement = 32 * (members as u64 - 1);
                assert_eq!(out.stats.since(&out.online_stats).bytes_sent, agreement, "{name} member {me}");
            }
            // The last prepared job (one instance) sent exactly what the inline one-instance job's
            // online phase sent (its rounds differ with the dealer: there the inline online phase
            // follows the confirmation sent to the dealer, in the same round).
            let traffic = |s: &crate::net::NetStats| {
                (s.bytes_sent, s.bytes_received, s.messages_sent, s.messages_received)
            };
            assert_eq!(traffic(&outs[2].online_stats), traffic(&inline.online_stats), "{name} member {me}");
            assert!(
                inline.stats.bytes_sent > inline.online_stats.bytes_sent + 32 * (members as u64 - 1),
                "{name}"
            );
            check(&circuit, &jobs[2], &inline, me, &name);
            assert_eq!(left, (0, 4), "{name} member {me}");
            match more {
                Err(JobError::InvalidSpec { field: "usePrepared", reason }) => {
                    assert!(reason.contains("no prepared material is left"), "{reason}")
                }
                other => panic!("{name} member {me}: expected usePrepared, got {other:?}"),
            }
        }
    }
}

#[test]
fn a_minimac_aes_block_after_prepare_is_the_online_phase_alone_and_matches_fips197() {
    let protocol = AesProtocol::MiniMac { code: CodeChoice::Rs255_85, preprocessing: Preprocessing::Dealer };
    let prepared = AesSpec { blocks: 2, ..spec(protocol, vec![0, 1], 1, vec![0, 1]) };
    let outs = run_session(3, |inner| {
        let me = inner.party();
        let (prepared, input) = (prepared.clone(), fips_inputs(3, 1)[me].clone());
        async move {
            let mut net = connect(inner).await?;
            let mut rng = seeded_rng(910 + me as u64);
            let mut store = Prepared::default();
            prepare_aes(&mut net, &prepared, Some(1), &mut rng, &mut store, |_| {}).await?;
            let one = AesSpec { blocks: 1, ..prepared };
            let mut outs = Vec::new();
            for _ in 0..2 {
                let usage = (&mut store, PreparedUse::Require);
                outs.push(run_aes_prepared(&mut net, &one, input.clone(), &mut rng, usage, |_| {}).await?);
            }
            Ok::<_, JobError>((outs, store.available()))
        }
    });
    for (me, out) in outs.into_iter().enumerate() {
        let (outs, left) = out.unwrap_or_else(|e| panic!("member {me}: {e}"));
        assert_eq!(left, 0);
        for out in outs {
            assert_eq!(out.preprocessing_stats.bytes_sent, 64, "member {me}: the spec digests only");
            match me {
                2 => assert_eq!(out.ciphertext, None),
                _ => assert_eq!(out.ciphertext.as_deref(), Some(&FIPS_CT[..])),
            }
        }
    }
}

#[test]
fn members_whose_stores_differ_fail_agreement_before_taking_anything() {
    let mut rng = ChaCha20Rng::seed_from_u64(91);
    let circuit = random_circuit(&mut rng, 2, 20, 2);
    let values = random_inputs(&mut rng, &circuit, 3);
    for protocol in [PROTOCOLS[0], PROTOCOLS[2]] {
        let outs = run_session(2, |inner| {
            let me = inner.party();
            let (circuit, values) = (circuit.clone(), values.clone());
            async move {
                let mut net = connect(inner).await?;
                let mut rng = seeded_rng(920 + me as u64);
                let mut store = Prepared::default();
                prepare_circuit(
                    &mut net,
                    &circuit_spec(protocol, &circuit, 3),
                    None,
                    &mut rng,
                    &mut store,
                    |_| {},
                )
                .await?;
                // Party 1 loses its store (as if it had consumed it differently).
                let mut fresh = Prepared::default();
                let mine_store = if me == 1 { &mut fresh } else { &mut store };
                let spec = circuit_spec(protocol, &circuit, 3);
                let run = run_circuit_prepared(
                    &mut net,
                    &spec,
                    mine(&values, me),
                    &mut rng,
                    (mine_store, PreparedUse::Auto),
                )
                .await;
                Ok::<_, JobError>((run.map(|_| ()), store.available()))
            }
        });
        for (me, out) in outs.into_iter().enumerate() {
            let (run, available) = out.unwrap_or_else(|e| panic!("member {me}: {e}"));
            assert!(
                matches!(run, Err(JobError::SpecMismatch(peer)) if peer == 1 - me),
                "{}: {run:?}",
                protocol.name()
            );
            assert_eq!(available, 3, "{} member {me}: nothing was taken", protocol.name());
        }
    }
}

/// Runs a preparation of `spec` (two members over OT) with `cheat` editing party `cheater`'s
/// sends; returns each party's result and what its store holds after.
fn prepare_with_cheat(
    spec: &CircuitSpec,
    cheat: fn(PartyId, u64, &mut Vec<u8>),
) -> Vec<(Result<(), JobError>, usize)> {
    run_session(2, |inner| {
        let me = inner.party();
        let spec = spec.clone();
        async move {
            let mut net = Tamper::new(connect(inner).await?, move |i, m| cheat(me, i, m));
            let mut store = Prepared::default();
            let made =
                prepare_circuit(&mut net, &spec, None, &mut seeded_rng(930 + me as u64), &mut store, |_| {})
                    .await;
            Ok::<_, JobError>((made.map(|_| ()), store.available()))
        }
    })
    .into_iter()
    .map(|r| r.expect("connected"))
    .collect()
}

#[test]
fn a_party_that_cheats_while_minimac_material_is_prepared_is_caught_and_nothing_is_kept() {
    // The COPE attack of the inline job's suite (`minimac_ot`), during a preparation.
    #[allow(clippy::ptr_arg)] // the type of `Tamper`'s edit
    fn corrupt_cope(member: PartyId, _: u64, m: &mut Vec<u8>) {
        let n = CodeChoice::Rs255_85.code().n();
        let header = crate::proto::minimac::msg::HEADER_BYTES;
        if member == 1 && m.len() > header && m[0] == 8 && (m.len() - header).is_multiple_of(8 * n) {
            let words = (m.len() - header) / (8 * n);
            for c in (0..8 * n).step_by(8) {
                m[header + c * words] ^= 1;
            }
        }
    }
    let mut rng = ChaCha20Rng::seed_from_u64(92);
    let circuit = random_circuit(&mut rng, 2, 20, 2);
    let outs = prepare_with_cheat(&circuit_spec(PROTOCOLS[0], &circuit, 4), corrupt_cope);
    match &outs[0].0 {
        Err(JobError::MiniMac(MiniMacError::PrepCheckFailed { check: PrepCheck::Mac })) => {}
        other => panic!("expected the preprocessing MAC check to fail at party 0, got {other:?}"),
    }
    assert!(outs.iter().all(|(made, available)| made.is_err() && *available == 0));
}

#[test]
fn a_party_that_cheats_while_coral_material_is_prepared_is_caught_and_nothing_is_kept() {
    // Party 0 flips a bit in every 16-byte block of one of its OT preprocessing messages. Some
    // single bits are caught only with probability 1/2 (a flipped TinyOT half gate shows only
    // where the honest party's `a` share is 1), so one flip would make the test depend on the
    // seeded randomness.
    #[allow(clippy::ptr_arg)] // the type of `Tamper`'s edit
    fn flip(member: PartyId, index: u64, m: &mut Vec<u8>) {
        if member == 0 && index == 20 {
            m.iter_mut().skip(15).step_by(16).for_each(|b| *b ^= 0x10);
        }
    }
    let mut rng = ChaCha20Rng::seed_from_u64(93);
    let circuit = random_circuit(&mut rng, 2, 40, 2);
    let outs = prepare_with_cheat(&circuit_spec(PROTOCOLS[2], &circuit, 17), flip);
    match &outs[1].0 {
        Err(JobError::Coral(_)) => {}
        other => panic!("expected a Coral abort at party 1, got {other:?}"),
    }
    assert!(outs.iter().all(|(made, available)| made.is_err() && *available == 0));
}

#[test]
fn preparations_of_other_protocols_and_sizes_are_refused_before_anything_is_sent() {
    let circuit = random_circuit(&mut ChaCha20Rng::seed_from_u64(94), 2, 10, 2);
    let spec = circuit_spec(PROTOCOLS[2], &circuit, 4);
    assert!(matches!(
        crate::jobs::check_prepare_circuit(&spec, Some(0)),
        Err(JobError::InvalidSpec { field: "perJob", .. })
    ));
    let tinytable = CircuitSpec {
        protocol: CircuitProtocol::TinyTable {
            preprocessing: Preprocessing::Ot,
            security: Security::Malicious,
            mac_bits: crate::jobs::tinytable::MacBits::K64,
        },
        ..spec.clone()
    };
    assert!(matches!(
        crate::jobs::check_prepare_circuit(&tinytable, Some(2)),
        Err(JobError::InvalidSpec { field: "perJob", .. })
    ));
    let maestro = AesSpec {
        blocks: 4,
        ..spec_of(AesProtocol::Maestro { variant: SboxVariant::Lut16, security: Security::Malicious })
    };
    assert!(matches!(
        crate::jobs::check_prepare_aes(&maestro, None),
        Err(JobError::NotAvailable { option: "protocol", .. })
    ));
    // Material past the store's bound: a MiniMac AES batch is tens of MB per party.
    let store = Prepared::default();
    let many = crate::jobs::PrepareSpec::Aes {
        spec: AesSpec {
            blocks: 100,
            ..spec_of(AesProtocol::MiniMac { code: CodeChoice::Rs255_85, preprocessing: Preprocessing::Ot })
        },
        per_job: Some(1),
    };
    match crate::jobs::check_prepare_room(&many, 2, &store) {
        Err(JobError::InvalidSpec { field: "blocks", reason }) => {
            assert!(reason.contains("MiB a session keeps"), "{reason}")
        }
        other => panic!("expected the bound, got {other:?}"),
    }
}

fn spec_of(protocol: AesProtocol) -> AesSpec {
    let computing = protocol.computing_parties();
    spec(protocol, vec![0, 1], 1, (0..computing).collect())
}

/// Coral material prepared over OT comes in chunks sized by the working memory of making it (two
/// packs of the AES circuit between two parties), all from one provider, so under the same keys:
/// a prepared job of three packs takes two chunks and evaluates them in one online phase — the
/// rounds of a one-chunk job, not twice them — with the plaintext evaluation's output in every
/// instance.
#[test]
fn a_coral_job_over_several_prepared_ot_chunks_runs_one_online_phase() {
    let circuit = crate::circuit::aes_gen::aes128_circuit().unwrap();
    let per_chunk = crate::jobs::coral::chunk_size(&circuit, 42, Preprocessing::Ot, 2);
    assert_eq!(per_chunk, 28, "two packs per chunk: the job below spans two chunks");
    coral_prepared_chunks_join(Preprocessing::Ot, &circuit, 42);
}

/// The dealer's chunks are sized by their held size (78 packs of the AES circuit) and dealt by one
/// dealer, under its keys: a prepared job one pack past a chunk takes two chunks and runs one
/// online phase, as over OT.
#[test]
fn a_coral_job_over_several_prepared_dealt_chunks_runs_one_online_phase() {
    let circuit = crate::circuit::aes_gen::aes128_circuit().unwrap();
    let per_chunk = crate::jobs::coral::chunk_size(&circuit, 10_000, Preprocessing::Dealer, 2);
    assert!(per_chunk.is_multiple_of(14) && per_chunk < 10_000, "{per_chunk}");
    assert!(crate::jobs::coral::online_size(&circuit, 10_000) > per_chunk + 14);
    coral_prepared_chunks_join(Preprocessing::Dealer, &circuit, per_chunk + 14);
}

/// Prepares and runs a Coral AES job of `instances` (more than one prepared chunk), then one of 14:
/// both give the ciphertext in every instance, and the first runs the rounds of the second (one
/// online phase) with more bytes.
fn coral_prepared_chunks_join(
    preprocessing: Preprocessing,
    circuit: &crate::circuit::Circuit,
    instances: usize,
) {
    let protocol = CircuitProtocol::Coral { preprocessing };
    let spec = |instances| CircuitSpec {
        protocol,
        circuit: circuit.clone().into(),
        io: IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] },
        instances,
    };
    let bits = |bytes: &[u8]| bytes.iter().flat_map(|b| (0..8).map(move |i| (b >> i) & 1 == 1)).collect();
    let key: Vec<bool> = bits(&FIPS_KEY);
    let plaintext: Vec<bool> = bits(&FIPS_PT);
    let members = if preprocessing == Preprocessing::Dealer { 3 } else { 2 };
    let outs = run_session(members, |inner| {
        let me = inner.party();
        let mine = match me {
            0 => vec![key.clone()],
            1 => vec![plaintext.clone()],
            _ => Vec::new(),
        };
        async move {
            let mut net = connect(inner).await?;
            let mut rng = seeded_rng(950 + me as u64);
            let mut store = Prepared::default();
            let mut jobs = Vec::new();
            for instances in [instances, 14] {
                prepare_circuit(&mut net, &spec(instances), None, &mut rng, &mut store, |_| {}).await?;
                let values = if mine.is_empty() { Vec::new() } else { vec![mine.clone(); instances] };
                let usage = (&mut store, PreparedUse::Require);
                jobs.push(
                    run_circuit_prepared(
                        &mut net,
                        &spec(instances),
                        CircuitInput { values },
                        &mut rng,
                        usage,
                    )
                    .await?,
                );
            }
            Ok::<_, JobError>(jobs)
        }
    });
    let ciphertext = circuit.evaluate(&[key.clone(), plaintext.clone()]).unwrap().remove(0);
    for (me, out) in outs.into_iter().enumerate() {
        let jobs = out.unwrap_or_else(|e| panic!("member {me}: {e}"));
        if me == 2 {
            assert!(jobs.iter().all(|job| job.outputs.is_empty()), "the dealer gets no output");
            continue;
        }
        for job in &jobs {
            assert!(
                job.outputs.iter().all(|instance| instance[0].as_ref() == Some(&ciphertext)),
                "party {me}"
            );
        }
        assert_eq!(jobs[0].outputs.len(), instances);
        assert_eq!(
            jobs[0].online_stats.rounds, jobs[1].online_stats.rounds,
            "party {me}: two prepared chunks, one online phase"
        );
        assert!(jobs[0].online_stats.bytes_sent > jobs[1].online_stats.bytes_sent, "party {me}: more packs");
    }
}
