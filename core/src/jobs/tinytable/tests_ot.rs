//! The TinyTable jobs with [`Preprocessing::Ot`]: two members only, no dealer, over encrypted
//! channels on the in-memory network. FIPS-197 through the AES job's circuit path (semi-honest and
//! malicious, k = 64 and 32), a random circuit job against plaintext evaluation, session sizes,
//! and a party that tampers with a preprocessing message.

use super::aes::{self, TinyTableAesInput, TinyTableAesSpec};
use super::circuit::{self as circuit_job, CircuitJobInput, CircuitJobSpec};
use super::tests::{aes_spec, connect, xor, FIPS_CT, FIPS_KEY, FIPS_PT};
use super::*;
use crate::jobs::AesOutput as TinyTableAesOutput;
use crate::net::memory::run_session;
use crate::net::tamper::Tamper;
use crate::proto::tinytable::circuit::tests_malicious::{random_circuit, random_inputs};
use crate::proto::tinytable::Reveal;
use crate::rng::seeded_rng;

fn ot_spec(security: Security, mac_bits: MacBits) -> TinyTableAesSpec {
    TinyTableAesSpec {
        preprocessing: Preprocessing::Ot,
        security,
        mac_bits,
        ..aes_spec(1, vec![0, 1], 1, vec![0, 1])
    }
}

/// FIPS-197's key XOR-shared between the parties (party 1 also owns the plaintext).
fn shared_key_inputs() -> [TinyTableAesInput; 2] {
    let mask = [0x3c; 16];
    [
        TinyTableAesInput { key_share: Some(mask.to_vec()), plaintext: None },
        TinyTableAesInput { key_share: Some(xor(&FIPS_KEY, &mask)), plaintext: Some(FIPS_PT.to_vec()) },
    ]
}

/// Runs `spec` in a two-member session; `cheat` (if any) edits the messages party 0 sends, under
/// its encrypted channel (party 0 itself deviating).
pub(super) fn run_two(
    spec: &TinyTableAesSpec,
    inputs: [TinyTableAesInput; 2],
    cheat: Option<fn(u64, &mut Vec<u8>)>,
) -> Vec<Result<TinyTableAesOutput, JobError>> {
    run_session(2, |inner| {
        let me = inner.party();
        let (spec, input) = (spec.clone(), inputs[me].clone());
        async move {
            let secure = connect(inner).await?;
            let edit = cheat.filter(|_| me == 0).unwrap_or(|_, _| {});
            let mut net = Tamper::new(secure, edit);
            aes::run(&mut net, &spec, input, &mut seeded_rng(400 + me as u64)).await
        }
    })
}

#[test]
fn fips197_through_the_aes_circuit_path_with_ot_preprocessing() {
    for (security, mac_bits) in [
        (Security::SemiHonest, MacBits::K64),
        (Security::Malicious, MacBits::K64),
        (Security::Malicious, MacBits::K32),
    ] {
        let s = ot_spec(security, mac_bits);
        let outs = run_two(&s, shared_key_inputs(), None);
        for (p, out) in outs.iter().enumerate() {
            let out = out.as_ref().unwrap_or_else(|e| panic!("{security:?} {mac_bits:?} party {p}: {e}"));
            assert_eq!(out.ciphertext.as_ref().expect("revealed")[..], FIPS_CT, "{s:?} party {p}");
            // The preprocessing is the bulk of the job: far more than the online phase.
            assert!(out.stats.bytes_sent > 10 * out.online_stats.bytes_sent, "{s:?} party {p}: {out:?}");
            if security == Security::SemiHonest {
                // The same online phase as with the dealer (see tests.rs).
                assert_eq!(out.online_stats.bytes_sent, 16 * (p as u64 + 1) + 820, "party {p}");
                assert_eq!(out.online_stats.rounds, 61, "party {p}");
            }
        }
    }
}

#[test]
fn random_circuit_job_with_ot_preprocessing_matches_plaintext_evaluation() {
    let mut rng = seeded_rng(17);
    let circuit = random_circuit(&mut rng, 3, 60, 3);
    let io = IoSpec { input_owners: vec![0, 1, 0], reveal: vec![Reveal::Both, Reveal::To(0), Reveal::To(1)] };
    let n = 3;
    let values: Vec<Vec<Vec<bool>>> = random_inputs(&mut rng, &circuit, n);
    let own = |p: PartyId| CircuitJobInput {
        values: values
            .iter()
            .map(|v| {
                v.iter().zip(&io.input_owners).filter(|(_, &o)| o == p).map(|(x, _)| x.clone()).collect()
            })
            .collect(),
    };
    for security in [Security::SemiHonest, Security::Malicious] {
        let spec = CircuitJobSpec {
            preprocessing: Preprocessing::Ot,
            security,
            mac_bits: MacBits::K32,
            circuit: circuit.clone(),
            io: io.clone(),
            instances: n,
        };
        let outs = run_session(2, |inner| {
            let me = inner.party();
            let (spec, input) = (spec.clone(), own(me));
            async move {
                let mut net = connect(inner).await?;
                circuit_job::run(&mut net, &spec, input, &mut seeded_rng(60 + me as u64)).await
            }
        });
        for (p, out) in outs.into_iter().enumerate() {
            let out = out.unwrap_or_else(|e| panic!("{security:?} party {p}: {e}"));
            for (i, v) in values.iter().enumerate() {
                let plain = circuit.evaluate(v).unwrap();
                for (k, bits) in plain.into_iter().enumerate() {
                    let want = io.reveal[k].includes(p).then_some(bits);
                    assert_eq!(out.outputs[i][k], want, "{security:?} party {p} instance {i} value {k}");
                }
            }
        }
    }
}

#[test]
fn ot_jobs_need_exactly_two_members_and_dealer_jobs_three() {
    let inputs = shared_key_inputs();
    let outs = run_session(3, |mut net| {
        let me = net.party();
        let input = inputs.get(me).cloned().unwrap_or_default();
        async move {
            aes::run(&mut net, &ot_spec(Security::SemiHonest, MacBits::K64), input, &mut seeded_rng(1)).await
        }
    });
    for out in outs {
        let err = out.unwrap_err();
        assert_eq!(
            err,
            JobError::WrongSessionSize { protocol: "TinyTable", preprocessing: Preprocessing::Ot, got: 3 }
        );
        assert!(err.to_string().contains("needs 2 session members"), "{err}");
    }
    // Dealer jobs in a two-member session: see tests::sessions_without_a_dealer_are_rejected.
}

#[test]
fn preprocessing_names_and_default() {
    // The S-box path with OT preprocessing: see tests_sbox_ot.rs.
    assert_eq!(Preprocessing::from_name("ot"), Some(Preprocessing::Ot));
    assert_eq!(Preprocessing::from_name("dealer").map(Preprocessing::name), Some("dealer"));
    assert_eq!(Preprocessing::from_name("trusted"), None);
    assert_eq!(Preprocessing::default(), Preprocessing::Ot);
}

#[test]
fn preprocessing_is_part_of_the_agreed_spec() {
    let ot = ot_spec(Security::SemiHonest, MacBits::K64);
    let dealer = TinyTableAesSpec { preprocessing: Preprocessing::Dealer, ..ot.clone() };
    assert_ne!(ot.encode(), dealer.encode());
}

#[test]
fn tampered_preprocessing_message_fails_the_honest_party_with_a_typed_error() {
    let s = ot_spec(Security::Malicious, MacBits::K64);
    // Party 0 flips one bit in the middle of its message 3 (message 0 is the spec digest).
    let flip: fn(u64, &mut Vec<u8>) = |index, msg| {
        if index == 3 && !msg.is_empty() {
            let at = msg.len() / 2;
            msg[at] ^= 0x04;
        }
    };
    let outs = run_two(&s, shared_key_inputs(), Some(flip));
    match &outs[1] {
        Err(e @ JobError::TinyTable(TinyTableError::Preprocessing { party: 1, .. })) => {
            // Message 3 carries OT-extension columns: the receiver's correlation check fails.
            let check = e.failed_check().unwrap_or_else(|| panic!("a named check: {e}"));
            assert!(check.starts_with("OT preprocessing check"), "{check}");
        }
        other => panic!("the honest party must fail in the OT preprocessing: {other:?}"),
    }
    assert!(outs[0].is_err(), "the cheater gets no output either: {:?}", outs[0]);
}
