//! Coral with its trusted dealer as session member 2, end to end through the job layer over
//! encrypted channels: FIPS-197 AES with a shared key, a circuit with outputs to party 0, party 1
//! and both, a truncated dealer frame, and a session without the dealer's slot.

use super::*;

const CORAL_DEALER: AesProtocol = AesProtocol::Coral { preprocessing: Preprocessing::Dealer };

/// The FIPS-197 key split between parties 0 and 1, the plaintext at party 1: both parties get the
/// FIPS-197 ciphertext, the dealer none and no online traffic.
#[test]
fn coral_dealer_aes_matches_fips197_and_the_dealer_learns_nothing() {
    let s = spec(CORAL_DEALER, vec![0, 1], 1, vec![0, 1]);
    let outs = run_all(&s, fips_inputs(3, 1), honest);
    assert_eq!(outs.len(), 3);
    for (p, out) in outs.into_iter().enumerate() {
        let out = out.unwrap_or_else(|e| panic!("member {p}: {e}"));
        if p < 2 {
            assert_eq!(out.ciphertext.expect("revealed")[..], FIPS_CT, "party {p}");
            assert!(out.online_stats.bytes_sent > 0 && out.online_stats.rounds > 0);
            assert!(out.preprocessing_stats.bytes_received > 0, "party {p} received its material");
        } else {
            assert_eq!(out.ciphertext, None, "the dealer learns nothing");
            assert_eq!(out.online_stats, crate::net::NetStats::default());
            assert!(out.stats.bytes_sent > 0, "the dealer sent the material");
        }
    }
}

#[test]
fn coral_dealer_circuit_job_with_mixed_reveals_matches_plaintext() {
    super::reveal::mixed_reveals(CircuitProtocol::Coral { preprocessing: Preprocessing::Dealer });
}

#[test]
fn a_truncated_coral_dealer_frame_is_bad_preprocessing_and_reveals_nothing() {
    // The dealer's sends: 0 and 1 are its spec digests, 2 and 3 the material for parties 0 and 1.
    fn truncate_party_1(member: PartyId, index: u64, message: &mut Vec<u8>) {
        if member == DEALER && index == 3 {
            message.truncate(message.len() - 7);
        }
    }
    let s = spec(CORAL_DEALER, vec![0, 1], 1, vec![0, 1]);
    let outs = run_all(&s, fips_inputs(3, 1), truncate_party_1);
    match &outs[1] {
        Err(JobError::BadPreprocessing { party: 1, reason }) => {
            assert!(reason.contains("truncated Coral material"), "{reason}")
        }
        other => panic!("expected bad preprocessing at party 1, got {other:?}"),
    }
    for (p, out) in outs.iter().enumerate() {
        assert!(out.as_ref().map_or(true, |o| o.ciphertext.is_none()), "member {p} learned an output");
    }
}

#[test]
fn coral_dealer_in_a_session_of_two_is_the_wrong_session_size() {
    let outs = run_session(2, |inner| async move {
        let s = spec(CORAL_DEALER, vec![0], 1, vec![0, 1]);
        let mut net = connect(inner).await?;
        run_aes(&mut net, &s, AesInput::default(), &mut seeded_rng(1)).await
    });
    for out in &outs {
        match out {
            Err(JobError::WrongSessionSize {
                protocol: "Coral",
                preprocessing: Preprocessing::Dealer,
                got: 2,
            }) => {}
            other => panic!("expected WrongSessionSize naming the dealer, got {other:?}"),
        }
    }
}
