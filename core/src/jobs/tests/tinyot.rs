//! Multi-party TinyOT's jobs through the shared job layer, over encrypted channels: circuits among
//! two to four parties against the plaintext, AES among three against FIPS-197 (MAESTRO's roles),
//! a cheating party, and what the protocol does not offer (prepared material) refused before
//! anything is sent.

use super::n_party::run_n;
use super::*;
use crate::jobs::tinyot::chunk_size;
use crate::jobs::{check_prepare_aes, check_prepare_circuit, run_aes_prepared, Prepared, PreparedUse};

const TINYOT: CircuitProtocol = CircuitProtocol::TinyOt;

#[test]
fn circuits_among_two_to_four_parties_match_plaintext() {
    let mut rng = ChaCha20Rng::seed_from_u64(144);
    for n in [2, 3, 4] {
        let circuit = random_circuit(&mut rng, n, 60, 2);
        let io = IoSpec { input_owners: (0..n).collect(), reveal: vec![Reveal::Both, Reveal::To(n - 1)] };
        let instances = 3;
        let values = random_inputs(&mut rng, &circuit, instances);
        let spec = CircuitSpec { protocol: TINYOT, circuit: circuit.clone().into(), io, instances };
        assert_eq!(spec.members(), None, "the session decides");
        for (p, out) in run_n(n, &spec, &values, honest).into_iter().enumerate() {
            let out = out.unwrap_or_else(|e| panic!("party {p} of {n}: {e}"));
            assert_eq!(out.outputs.len(), instances);
            for (i, instance) in out.outputs.iter().enumerate() {
                let plain = circuit.evaluate(&values[i]).unwrap();
                assert_eq!(instance[0].as_ref(), Some(&plain[0]), "party {p} of {n}, instance {i}");
                assert_eq!(instance[1].as_ref(), (p == n - 1).then_some(&plain[1]), "party {p} of {n}");
            }
            assert_eq!(out.online_stats.rounds, 4 + circuit.and_depth() as u64, "party {p} of {n}");
            assert!(out.preprocessing_stats.bytes_sent > out.online_stats.bytes_sent);
        }
    }
}

/// MAESTRO's roles among three members: the FIPS-197 key XOR-shared by parties 0 and 1, the
/// plaintext from party 2, the ciphertext to all three or to party 2 alone.
#[test]
fn aes_among_three_parties_matches_fips197() {
    for reveal in [vec![0, 1, 2], vec![2]] {
        let s = spec(AesProtocol::TinyOt, vec![0, 1], 2, reveal.clone());
        s.validate().unwrap();
        assert_eq!(s.members(), None);
        s.check_members(3).unwrap();
        let outs = run_session(3, |inner| {
            let me = inner.party();
            let (s, input) = (s.clone(), fips_inputs(3, 2)[me].clone());
            async move { run_aes(&mut connect(inner).await?, &s, input, &mut seeded_rng(160 + me as u64)).await }
        });
        for (p, out) in outs.into_iter().enumerate() {
            let out = out.unwrap_or_else(|e| panic!("party {p}: {e}"));
            let expected = reveal.contains(&p).then_some(FIPS_CT.to_vec());
            assert_eq!(out.ciphertext.map(|c| c.to_vec()), expected, "party {p}, reveal {reveal:?}");
        }
    }
}

#[test]
fn a_cheating_party_among_three_fails_every_honest_party_with_a_named_check() {
    // Party 1 flips a bit of one of its messages (the material's OT and checks, the online
    // phase; the first bit after an online frame's header, or of a shorter message's last
    // byte): both honest parties abort with TinyOT's error and get no output.
    fn flip(member: PartyId, index: u64, m: &mut [u8]) {
        if member == 1 && index == FLIPPED.with(|f| f.get()) {
            let at = m.len().min(6).saturating_sub(1);
            if let Some(b) = m.get_mut(at) {
                *b ^= 1;
            }
        }
    }
    thread_local!(static FLIPPED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) });
    let mut rng = ChaCha20Rng::seed_from_u64(146);
    let circuit = random_circuit(&mut rng, 3, 30, 1);
    let io = IoSpec { input_owners: vec![0, 1, 2], reveal: vec![Reveal::Both] };
    let values = random_inputs(&mut rng, &circuit, 2);
    let spec = CircuitSpec { protocol: TINYOT, circuit: circuit.into(), io, instances: 2 };
    let honest_run = run_n(3, &spec, &values, honest);
    let sent = honest_run[1].as_ref().expect("an honest run").stats.messages_sent;
    let online = honest_run[1].as_ref().unwrap().online_stats.messages_sent;
    // Messages spread over the material's OT (the n-party engine's own suite deviates at every
    // step), an AND layer's and the check's.
    for (target, in_online) in
        [(sent / 8, false), (sent / 3, false), (sent / 2, false), (sent - online + 4, true), (sent - 3, true)]
    {
        FLIPPED.with(|f| f.set(target));
        let outs = run_n(3, &spec, &values, |p, i, m| flip(p, i, m));
        for p in [0, 2] {
            match &outs[p] {
                // In the online phase every honest party names the check (its own or a peer's
                // verdict); in the OT phase a party may see the one that caught it leave first.
                Err(e @ JobError::TinyOt(_)) if in_online => {
                    assert!(e.failed_check().is_some(), "message {target}: party {p}: {e:?}")
                }
                Err(JobError::TinyOt(_)) if !in_online => {}
                other => panic!(
                    "message {target}: party {p} expected an abort, got {:?}",
                    other.as_ref().map(|_| ())
                ),
            }
        }
    }
}

#[test]
fn prepared_material_is_refused_before_anything_is_sent() {
    let s = spec(AesProtocol::TinyOt, vec![0, 1], 1, vec![0, 1]);
    assert!(matches!(check_prepare_aes(&s, None), Err(JobError::NotAvailable { .. })));
    let mut rng = ChaCha20Rng::seed_from_u64(147);
    let circuit = random_circuit(&mut rng, 2, 10, 1);
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
    let c = CircuitSpec { protocol: TINYOT, circuit: circuit.into(), io, instances: 1 };
    assert!(matches!(check_prepare_circuit(&c, None), Err(JobError::NotAvailable { .. })));
    let outs = run_session(2, |inner| {
        let me = inner.party();
        let (s, input) = (s.clone(), fips_inputs(2, 1)[me].clone());
        async move {
            let mut net = connect(inner).await?;
            let sent = net.stats().messages_sent;
            let mut store = Prepared::default();
            let out = run_aes_prepared(
                &mut net,
                &s,
                input,
                &mut seeded_rng(1),
                (&mut store, PreparedUse::Require),
                |_| {},
            )
            .await;
            assert_eq!(net.stats().messages_sent, sent, "nothing sent");
            out
        }
    });
    for out in outs {
        assert!(matches!(out, Err(JobError::InvalidSpec { field: "usePrepared", .. })), "{out:?}");
    }
}

#[test]
fn chunks_keep_a_job_within_the_material_budget() {
    let aes = crate::circuit::aes_gen::aes128_circuit().unwrap();
    let three = chunk_size(&aes, 10_000, 3);
    assert!((1..10_000).contains(&three), "{three} AES per chunk among three");
    assert!(chunk_size(&aes, 10_000, 8) < three);
    assert_eq!(chunk_size(&aes, 2, 3), 2);
}
