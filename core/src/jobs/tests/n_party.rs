//! MiniMac's and Coral's jobs among three and four parties over OT (n-party TinyOT, pairwise
//! COPE, no dealer) through the shared job layer: outputs against the plaintext, outputs to one
//! party, sessions and owners that do not fit, and a cheating party.

use super::*;

const CORAL_OT: CircuitProtocol = CircuitProtocol::Coral { preprocessing: Preprocessing::Ot };
const MINIMAC_OT: CircuitProtocol =
    CircuitProtocol::MiniMac { code: CodeChoice::Rs255_85, preprocessing: Preprocessing::Ot };
/// Both protocols whose every member computes over OT.
const EVERY_MEMBER: [CircuitProtocol; 2] = [CORAL_OT, MINIMAC_OT];

/// Runs `spec` at each of `n` parties with party p's share of `values`; `cheat` edits what a party
/// sends.
pub(super) fn run_n(
    n: usize,
    spec: &CircuitSpec,
    values: &[Vec<Vec<bool>>],
    cheat: fn(PartyId, u64, &mut Vec<u8>),
) -> Vec<Result<CircuitOutput, JobError>> {
    run_session(n, |inner| {
        let me = inner.party();
        let spec = spec.clone();
        let owners = spec.io.input_owners.clone();
        let values = values
            .iter()
            .map(|vs| vs.iter().zip(&owners).filter(|(_, &o)| o == me).map(|(v, _)| v.clone()).collect())
            .collect();
        async move {
            let mut net = Tamper::new(connect(inner).await?, move |i, m| cheat(me, i, m));
            run_circuit(&mut net, &spec, CircuitInput { values }, &mut seeded_rng(90 + me as u64)).await
        }
    })
}

#[test]
fn circuits_among_three_and_four_parties_over_ot_match_plaintext() {
    let mut rng = ChaCha20Rng::seed_from_u64(44);
    for (n, protocol) in [3, 4].into_iter().flat_map(|n| EVERY_MEMBER.map(|p| (n, p))) {
        let circuit = random_circuit(&mut rng, n, 50, 2);
        let reveal = vec![Reveal::Both, Reveal::To(n - 1)];
        let io = IoSpec { input_owners: (0..n).collect(), reveal };
        let instances = 15;
        let values = random_inputs(&mut rng, &circuit, instances);
        let spec = CircuitSpec { protocol, circuit: circuit.clone().into(), io, instances };
        for (p, out) in run_n(n, &spec, &values, honest).into_iter().enumerate() {
            let out = out.unwrap_or_else(|e| panic!("{protocol:?}: party {p} of {n}: {e}"));
            for (i, instance) in out.outputs.iter().enumerate() {
                let plain = circuit.evaluate(&values[i]).unwrap();
                assert_eq!(instance[0].as_ref(), Some(&plain[0]), "party {p} of {n}, instance {i}");
                assert_eq!(
                    instance[1].as_ref(),
                    (p == n - 1).then_some(&plain[1]),
                    "party {p}, output to {}",
                    n - 1
                );
            }
            assert!(out.preprocessing_stats.bytes_sent > 0 && out.online_stats.rounds > 0);
        }
    }
}

#[test]
fn sessions_and_owners_that_do_not_fit_are_named_before_anything_is_sent() {
    for protocol in EVERY_MEMBER {
        sessions_and_owners_that_do_not_fit(protocol);
    }
}

fn sessions_and_owners_that_do_not_fit(protocol: CircuitProtocol) {
    let mut rng = ChaCha20Rng::seed_from_u64(45);
    let circuit = random_circuit(&mut rng, 3, 10, 1);
    let spec = |owners: Vec<usize>, reveal: Reveal| CircuitSpec {
        protocol,
        circuit: circuit.clone().into(),
        io: IoSpec { input_owners: owners, reveal: vec![reveal] },
        instances: 1,
    };
    let named = |r: Result<(), JobError>, field: &str| match r {
        Err(JobError::InvalidSpec { field: f, .. }) => assert_eq!(f, field),
        other => panic!("expected an invalid {field}, got {other:?}"),
    };
    let fits = spec(vec![0, 1, 2], Reveal::Both);
    fits.validate().unwrap();
    assert_eq!(fits.members(), None, "{protocol:?}: the session decides");
    fits.check_members(3).unwrap();
    named(fits.check_members(9), "parties");
    named(spec(vec![0, 1, 3], Reveal::Both).check_members(3), "inputOwners");
    named(spec(vec![0, 1, 2], Reveal::To(3)).check_members(3), "reveal");
    named(spec(vec![0, 1, 8], Reveal::Both).validate(), "inputOwners");
    let dealer = match protocol {
        CircuitProtocol::MiniMac { code, .. } => {
            CircuitProtocol::MiniMac { code, preprocessing: Preprocessing::Dealer }
        }
        _ => CircuitProtocol::Coral { preprocessing: Preprocessing::Dealer },
    };
    named(CircuitSpec { protocol: dealer, ..fits }.validate(), "inputOwners");
}

#[test]
fn a_cheating_party_among_three_fails_every_honest_party_before_outputs() {
    for protocol in EVERY_MEMBER {
        a_cheating_party_among_three(protocol);
    }
}

fn a_cheating_party_among_three(protocol: CircuitProtocol) {
    // Party 1 flips a bit in every byte of one of its messages (the material's OT, checks, the
    // evaluation): both honest parties abort with the protocol's error and get no output. A
    // single flipped bit of an OT correction would not do: it has an effect only where the
    // receiver's key bit under it is 1 (COPE, SoftSpoken), and elsewhere it is harmless and
    // rightly unseen (the outputs stay correct).
    fn flip(member: PartyId, index: u64, m: &mut [u8]) {
        if member == 1 && index == FLIPPED.with(|f| f.get()) {
            m.iter_mut().for_each(|b| *b ^= 0x20);
        }
    }
    thread_local!(static FLIPPED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) });
    let mut rng = ChaCha20Rng::seed_from_u64(46);
    let circuit = random_circuit(&mut rng, 3, 30, 1);
    let io = IoSpec { input_owners: vec![0, 1, 2], reveal: vec![Reveal::Both] };
    let values = random_inputs(&mut rng, &circuit, 3);
    let spec = CircuitSpec { protocol, circuit: circuit.into(), io, instances: 3 };
    let sent = run_n(3, &spec, &values, honest)[1].as_ref().expect("an honest run").stats.messages_sent;
    assert!(sent > 100, "party 1 sends {sent} messages");
    for target in [sent / 8, sent / 3, sent / 2, 3 * sent / 4] {
        FLIPPED.with(|f| f.set(target));
        let outs = run_n(3, &spec, &values, |p, i, m| flip(p, i, m));
        for p in [0, 2] {
            match (&outs[p], protocol) {
                (Err(JobError::Coral(_)), CircuitProtocol::Coral { .. })
                | (Err(JobError::MiniMac(_)), CircuitProtocol::MiniMac { .. }) => {}
                (other, _) => panic!(
                    "{protocol:?}, message {target}: party {p} expected an abort, got {:?}",
                    other.as_ref().map(|_| ())
                ),
            }
        }
    }
}

const CORAL_AES_OT: AesProtocol = AesProtocol::Coral { preprocessing: Preprocessing::Ot };

/// MAESTRO's role layout among three members, on Coral over OT: the FIPS-197 key XOR-shared by
/// parties 0 and 1, the plaintext from party 2, the ciphertext to all three — or to party 2 alone.
#[test]
fn coral_aes_among_three_parties_over_ot_matches_fips197() {
    for reveal in [vec![0, 1, 2], vec![2]] {
        let s = spec(CORAL_AES_OT, vec![0, 1], 2, reveal.clone());
        assert_eq!(s.members(), None);
        s.check_members(3).unwrap();
        let outs = run_session(3, |inner| {
            let me = inner.party();
            let (s, input) = (s.clone(), fips_inputs(3, 2)[me].clone());
            async move { run_aes(&mut connect(inner).await?, &s, input, &mut seeded_rng(60 + me as u64)).await }
        });
        for (p, out) in outs.into_iter().enumerate() {
            let out = out.unwrap_or_else(|e| panic!("party {p}: {e}"));
            if reveal.contains(&p) {
                assert_eq!(out.ciphertext.expect("revealed")[..], FIPS_CT, "party {p}, reveal {reveal:?}");
            } else {
                assert_eq!(out.ciphertext, None, "party {p} is not a recipient");
            }
        }
    }
}

#[test]
fn aes_roles_over_ot_are_checked_against_the_session() {
    for ot in
        [CORAL_AES_OT, AesProtocol::MiniMac { code: CodeChoice::Rs255_85, preprocessing: Preprocessing::Ot }]
    {
        aes_roles_are_checked_against_the_session(ot);
    }
}

fn aes_roles_are_checked_against_the_session(ot: AesProtocol) {
    let named = |r: Result<(), JobError>, field: &str| match r {
        Err(JobError::InvalidSpec { field: f, .. }) => assert_eq!(f, field),
        other => panic!("expected an invalid {field}, got {other:?}"),
    };
    let s = |keys: Vec<usize>, owner: usize, reveal: Vec<usize>| spec(ot, keys, owner, reveal);
    assert_eq!(s(vec![0, 1], 2, vec![0, 1, 2]).members(), None, "{ot:?}: the session decides");
    s(vec![0, 1], 2, vec![0, 1, 2]).validate().unwrap();
    named(s(vec![0, 1], 2, vec![0, 1]).check_members(3), "reveal");
    named(s(vec![0, 1], 3, vec![0]).check_members(3), "plaintextOwner");
    named(s(vec![0, 9], 1, vec![0]).validate(), "keyHolders");
    named(s(vec![0, 1], 1, vec![0, 1]).check_members(9), "parties");
    // Beside the dealer, parties 0 and 1 compute as before.
    let dealer = match ot {
        AesProtocol::MiniMac { code, .. } => {
            AesProtocol::MiniMac { code, preprocessing: Preprocessing::Dealer }
        }
        _ => AesProtocol::Coral { preprocessing: Preprocessing::Dealer },
    };
    let dealt = spec(dealer, vec![0, 1], 2, vec![0, 1]);
    named(dealt.validate(), "plaintextOwner");
}

/// Material prepared ahead among three parties over OT serves the later jobs of its kind: each
/// takes whole units, pays only the spec agreement besides its online phase, and the store is
/// empty after the last.
#[test]
fn material_prepared_among_three_parties_serves_later_jobs_of_its_kind() {
    use crate::jobs::{prepare_circuit, run_circuit_prepared, Prepared, PreparedUse};
    let n = 3;
    let mut rng = ChaCha20Rng::seed_from_u64(45);
    for protocol in EVERY_MEMBER {
        let circuit = random_circuit(&mut rng, n, 30, 2);
        let io = IoSpec { input_owners: (0..n).collect(), reveal: vec![Reveal::Both, Reveal::To(2)] };
        let spec =
            |instances| CircuitSpec { protocol, circuit: circuit.clone().into(), io: io.clone(), instances };
        // Three instances prepared for jobs of two: units of 2 and 1, taken by two jobs.
        let jobs = [random_inputs(&mut rng, &circuit, 2), random_inputs(&mut rng, &circuit, 1)];
        let outs = run_session(n, |inner| {
            let me = inner.party();
            let jobs = jobs.clone();
            async move {
                let mut net = connect(inner).await?;
                let mut rng = seeded_rng(450 + me as u64);
                let mut store = Prepared::default();
                let made = prepare_circuit(&mut net, &spec(3), Some(2), &mut rng, &mut store, |_| {}).await?;
                assert_eq!((made.instances, store.available()), (3, 3));
                let mut outs = Vec::new();
                for values in &jobs {
                    let mine = values.iter().map(|vs| vec![vs[me].clone()]).collect();
                    let usage = (&mut store, PreparedUse::Require);
                    let input = CircuitInput { values: mine };
                    outs.push(
                        run_circuit_prepared(&mut net, &spec(values.len()), input, &mut rng, usage).await?,
                    );
                }
                Ok::<_, JobError>((outs, store.available()))
            }
        });
        for (p, out) in outs.into_iter().enumerate() {
            let (outs, left) = out.unwrap_or_else(|e| panic!("{protocol:?}: party {p}: {e}"));
            assert_eq!(left, 0, "{protocol:?}: party {p}");
            for (values, out) in jobs.iter().zip(&outs) {
                for (i, instance) in out.outputs.iter().enumerate() {
                    let plain = circuit.evaluate(&values[i]).unwrap();
                    assert_eq!(
                        instance[0].as_ref(),
                        Some(&plain[0]),
                        "{protocol:?}: party {p}, instance {i}"
                    );
                    assert_eq!(
                        instance[1].as_ref(),
                        (p == 2).then_some(&plain[1]),
                        "{protocol:?}: party {p}"
                    );
                }
                // Besides its online phase, a prepared job sends only its spec digest to each peer.
                assert_eq!(
                    out.stats.since(&out.online_stats).bytes_sent,
                    32 * (n as u64 - 1),
                    "{protocol:?}"
                );
            }
        }
    }
}

/// A party that flips a byte of one of its messages while material is prepared among three is
/// caught by both honest parties with the protocol's error, and no store keeps anything.
#[test]
fn a_cheating_party_while_material_is_prepared_among_three_is_caught_and_nothing_is_kept() {
    use crate::jobs::{prepare_circuit, Prepared};
    #[allow(clippy::ptr_arg)] // the type of `Tamper`'s edit
    fn flip(member: PartyId, index: u64, m: &mut Vec<u8>) {
        if member == 1 && index == 40 {
            if let Some(b) = m.last_mut() {
                *b ^= 0x20;
            }
        }
    }
    let mut rng = ChaCha20Rng::seed_from_u64(47);
    for protocol in EVERY_MEMBER {
        let circuit = random_circuit(&mut rng, 3, 30, 1);
        let io = IoSpec { input_owners: vec![0, 1, 2], reveal: vec![Reveal::Both] };
        let spec = CircuitSpec { protocol, circuit: circuit.into(), io, instances: 4 };
        let outs = run_session(3, |inner| {
            let me = inner.party();
            let spec = spec.clone();
            async move {
                let mut net = Tamper::new(connect(inner).await?, move |i, m| flip(me, i, m));
                let mut store = Prepared::default();
                let made = prepare_circuit(
                    &mut net,
                    &spec,
                    None,
                    &mut seeded_rng(470 + me as u64),
                    &mut store,
                    |_| {},
                )
                .await;
                Ok::<_, JobError>((made.map(|_| ()), store.available()))
            }
        });
        for (p, out) in outs.into_iter().enumerate() {
            let (made, available) = out.expect("connected");
            assert_eq!(available, 0, "{protocol:?}: party {p} keeps nothing");
            if p != 1 {
                match (&made, protocol) {
                    (Err(JobError::Coral(_)), CircuitProtocol::Coral { .. })
                    | (Err(JobError::MiniMac(_)), CircuitProtocol::MiniMac { .. }) => {}
                    (other, _) => panic!("{protocol:?}: party {p} expected an abort, got {other:?}"),
                }
            }
        }
    }
}
