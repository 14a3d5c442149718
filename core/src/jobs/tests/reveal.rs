//! Outputs revealed to one party under MiniMac and Coral, end to end through the job layer: AES
//! with `reveal_to = [0]` and `[1]`, a circuit with one output for each party and one for both,
//! and a non-recipient that changes what it sends for a private output.

use super::*;

const CORAL: AesProtocol = AesProtocol::Coral { preprocessing: Preprocessing::Ot };

/// AES with the ciphertext for one party: the plain cipher there, `None` at the other party (and
/// at MiniMac's dealer).
fn aes_to_one_party(protocol: AesProtocol) {
    for recipient in [0, 1] {
        let s = spec(protocol, vec![0, 1], 1, vec![recipient]);
        let outs = run_all(&s, fips_inputs(protocol.members(), 1), honest);
        for (p, out) in outs.into_iter().enumerate() {
            let out = out.unwrap_or_else(|e| panic!("{} member {p}: {e}", protocol.name()));
            if p == recipient {
                assert_eq!(out.ciphertext.expect("revealed")[..], FIPS_CT, "{} party {p}", protocol.name());
            } else {
                assert_eq!(out.ciphertext, None, "{} member {p} learned the output", protocol.name());
            }
        }
    }
}

#[test]
fn minimac_aes_to_one_party_matches_the_cipher_there_only() {
    aes_to_one_party(MINIMAC);
}

#[test]
fn coral_aes_to_one_party_matches_the_cipher_there_only() {
    aes_to_one_party(CORAL);
}

/// A circuit job with output 0 for party 0, output 1 for party 1 and output 2 for both.
pub(super) fn mixed_reveals(protocol: CircuitProtocol) {
    let mut rng = ChaCha20Rng::seed_from_u64(81);
    let circuit = random_circuit(&mut rng, 2, 100, 3);
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::To(0), Reveal::To(1), Reveal::Both] };
    let instances = 20;
    let values = random_inputs(&mut rng, &circuit, instances);
    let spec = CircuitSpec { protocol, circuit: circuit.clone().into(), io: io.clone(), instances };
    let members = protocol.preprocessing().members();
    let outs = run_session(members, |inner| {
        let me = inner.party();
        let spec = spec.clone();
        let values = if me < 2 { values.iter().map(|vs| vec![vs[me].clone()]).collect() } else { Vec::new() };
        async move {
            let mut net = connect(inner).await?;
            run_circuit(&mut net, &spec, CircuitInput { values }, &mut seeded_rng(90 + me as u64)).await
        }
    });
    for (p, out) in outs.into_iter().enumerate().take(2) {
        let out = out.unwrap_or_else(|e| panic!("{} party {p}: {e}", protocol.name()));
        assert_eq!(out.outputs.len(), instances);
        for (i, instance) in out.outputs.iter().enumerate() {
            let expected = circuit.evaluate(&values[i]).unwrap();
            for (v, got) in instance.iter().enumerate() {
                let want = io.reveal[v].includes(p).then(|| expected[v].clone());
                assert_eq!(got, &want, "{} party {p} instance {i} value {v}", protocol.name());
            }
        }
    }
}

#[test]
fn minimac_circuit_job_with_mixed_reveals_matches_plaintext() {
    mixed_reveals(CircuitProtocol::MiniMac {
        code: CodeChoice::Rs255_85,
        preprocessing: Preprocessing::Dealer,
    });
}

#[test]
fn coral_circuit_job_with_mixed_reveals_matches_plaintext() {
    mixed_reveals(CircuitProtocol::Coral { preprocessing: Preprocessing::Ot });
}

/// MiniMac AES for party 0 only: party 1 flips the last byte of its output opening (its share of
/// `y + s` for the last ciphertext bit), which leaves `C*`; party 0 aborts at the output check and
/// learns nothing.
#[test]
fn minimac_non_recipient_changing_its_private_output_share_is_caught() {
    // Party 1's sends: two spec digests, its confirmation to the dealer, its input message, one
    // per AND layer, the three messages of the gate check, then the output opening.
    let cheat: fn(PartyId, u64, &mut Vec<u8>) = |member, index, message| {
        let depth = crate::jobs::keyed_aes::cached(2, crate::aes::KeySize::Aes128, Direction::Encrypt)
            .expect("circuit")
            .and_depth() as u64;
        if member == 1 && index == 3 + 1 + depth + 3 {
            if let Some(b) = message.last_mut() {
                *b ^= 1;
            }
        }
    };
    let s = spec(MINIMAC, vec![0, 1], 1, vec![0]);
    let outs = run_all(&s, fips_inputs(3, 1), cheat);
    match &outs[0] {
        Err(JobError::MiniMac(e)) => assert_eq!(
            *e,
            crate::proto::minimac::MiniMacError::CodewordCheckFailed {
                step: crate::proto::minimac::Step::OutputCheck
            }
        ),
        other => panic!("expected party 0 to abort at the output check, got {other:?}"),
    }
}

/// Coral AES for party 1 only: party 0 flips a bit of its output opening (its share of `y + r`,
/// `r` one of party 1's input masks); party 1 aborts at the MAC check and learns nothing. The
/// opening is found from the end of an honest run: after it come the four rounds of the check.
#[test]
fn coral_non_recipient_changing_its_private_output_share_is_caught() {
    use crate::proto::coral::messages::{Step, HEADER_BYTES};
    use crate::proto::coral::{Check, CoralError};
    use std::sync::atomic::{AtomicU64, Ordering};
    static SENT: AtomicU64 = AtomicU64::new(0);
    static TARGET: AtomicU64 = AtomicU64::new(u64::MAX);
    let cheat: fn(PartyId, u64, &mut Vec<u8>) = |member, index, message| {
        if member == 0 {
            SENT.fetch_max(index + 1, Ordering::SeqCst);
            if index == TARGET.load(Ordering::SeqCst) {
                assert_eq!(message[0], Step::Output as u8, "the output opening");
                message[HEADER_BYTES] ^= 1;
            }
        }
    };
    let s = spec(CORAL, vec![0, 1], 1, vec![1]);
    let honest_run = run_all(&s, fips_inputs(2, 1), cheat);
    assert_eq!(honest_run[1].as_ref().unwrap().ciphertext.as_deref(), Some(&FIPS_CT[..]));
    TARGET.store(SENT.load(Ordering::SeqCst) - 5, Ordering::SeqCst);
    let outs = run_all(&s, fips_inputs(2, 1), cheat);
    match &outs[1] {
        Err(JobError::Coral(e)) => assert_eq!(*e, CoralError::CheckFailed { check: Check::Mac }),
        other => panic!("expected party 1 to abort at the MAC check, got {other:?}"),
    }
    assert!(outs[0].as_ref().map_or(true, |o| o.ciphertext.is_none()));
}
