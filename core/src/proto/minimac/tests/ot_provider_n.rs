//! The OT-based provider among three and four parties (n-party TinyOT, COPE between every pair):
//! honest material satisfies every relation of the format and evaluates circuits like plaintext;
//! a cheat by one of three parties — on its contributions, its COPE columns, its openings, its
//! frames, or towards one honest party only — and cheats by two colluding parties of four make
//! every honest party fail with a typed error and no material.

use super::super::msg::HEADER_BYTES;
use super::super::prep::ot::{Cheat, CODEWORD_REPS, CONSISTENCY_REPS, N_CHUNK_TRIPLES};
use super::super::prep::PrepRequest;
use super::super::{CodeChoice, MiniMacError, MiniMacPreprocessing, OtPreprocessing, PrepCheck, Step};
use super::ot_provider::{check_material, evaluate_with_ot, provide_among, Cheater, Edit};
use super::round_robin_owners;
use crate::circuit::Circuit;
use crate::field::Gf256;
use crate::net::PartyId;
use crate::proto::tinytable::circuit::tests_malicious::{random_circuit, random_inputs};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

const CODE: CodeChoice = CodeChoice::Rs255_85;

/// The message kinds of the provider's frames (the first header byte).
const COPE_COLUMNS: u8 = 8;
const PREP_OPEN: u8 = 9;

fn request(parties: usize, circuit: &Circuit, recipients: &[Option<PartyId>]) -> PrepRequest {
    let owners = round_robin_owners(circuit, parties);
    PrepRequest::for_circuit(CODE, parties, circuit, &owners)
        .unwrap()
        .with_recipients(circuit, recipients)
        .unwrap()
}

/// A small circuit's request among `parties`, with outputs to the last party, to everyone and to
/// party 0.
fn small(parties: usize) -> PrepRequest {
    let circuit = random_circuit(&mut ChaCha20Rng::seed_from_u64(5), 3, 24, 3);
    request(parties, &circuit, &[Some(parties - 1), None, Some(0)])
}

fn cheater(party: PartyId, cheat: Option<Cheat>, edit: Option<Edit>) -> Cheater {
    Cheater { party, cheat, edit, towards: None }
}

/// Party 1 editing only what it sends to `peer`.
fn equivocator(peer: PartyId, edit: Edit) -> Vec<Cheater> {
    vec![Cheater { party: 1, cheat: None, edit: Some(edit), towards: Some(peer) }]
}

/// The errors of the honest parties (every party not in `cheaters`); panics if one accepted.
fn honest_errors(request: &PrepRequest, cheaters: Vec<Cheater>) -> Vec<(PartyId, MiniMacError)> {
    let corrupt: Vec<PartyId> = cheaters.iter().map(|c| c.party).collect();
    let results = provide_among(request, cheaters);
    results
        .into_iter()
        .enumerate()
        .filter(|(p, _)| !corrupt.contains(p))
        .map(|(p, (r, _))| match r {
            Err(e) => (p, e),
            Ok(_) => panic!("honest party {p} accepted material"),
        })
        .collect()
}

/// Every honest party of three fails with `expected` when party 1 cheats with `cheat`.
fn caught_among_three(cheat: Cheat, expected: MiniMacError) {
    let errors = honest_errors(&small(3), vec![cheater(1, Some(cheat), None)]);
    assert_eq!(errors.len(), 2);
    for (p, e) in errors {
        assert_eq!(e, expected, "honest party {p}, {cheat:?}");
    }
}

fn failed(check: PrepCheck) -> MiniMacError {
    MiniMacError::PrepCheckFailed { check }
}

#[test]
fn three_party_material_satisfies_every_relation() {
    let request = small(3);
    assert!(request.and_gates > 0);
    let preps: Vec<_> =
        provide_among(&request, Vec::new()).into_iter().map(|(r, _)| r.expect("honest material")).collect();
    assert!(preps.iter().enumerate().all(|(p, prep)| prep.party == p && prep.parties == 3));
    check_material(&request, &preps);
}

/// Four parties, material for five instances (zero data elsewhere), then the online phase: every
/// output against plaintext, private outputs to their recipient only.
#[test]
fn four_party_material_for_five_instances_evaluates_like_plaintext() {
    let mut rng = ChaCha20Rng::seed_from_u64(12);
    let circuit = random_circuit(&mut rng, 4, 60, 3);
    let request = request(4, &circuit, &[Some(3), None, Some(1)]).with_instances(5).unwrap();
    let preps: Vec<_> =
        provide_among(&request, Vec::new()).into_iter().map(|(r, _)| r.expect("honest material")).collect();
    check_material(&request, &preps);
    let inputs = random_inputs(&mut rng, &circuit, 5);
    evaluate_with_ot(&circuit, &request, &inputs, &round_robin_owners(&circuit, 4));
}

/// More MiniMac triples than one n-party chunk holds at one instance: two chunks, each with its
/// own TinyOT call, coins and checks.
#[test]
fn three_party_material_in_two_chunks_evaluates_like_plaintext() {
    let mut rng = ChaCha20Rng::seed_from_u64(13);
    let circuit = random_circuit(&mut rng, 3, 3 * N_CHUNK_TRIPLES, 2);
    let request = request(3, &circuit, &[None, Some(2)]).with_instances(1).unwrap();
    assert!(request.and_gates > N_CHUNK_TRIPLES, "{} AND gates", request.and_gates);
    let inputs = random_inputs(&mut rng, &circuit, 1);
    evaluate_with_ot(&circuit, &request, &inputs, &round_robin_owners(&circuit, 3));
}

#[test]
fn attack_non_codeword_plane_among_three_fails_the_codeword_check() {
    caught_among_three(Cheat::NonCodewordPlane, failed(PrepCheck::CodewordC));
}

#[test]
fn attack_nonzero_data_in_an_r_word_among_three_fails_the_zero_data_check() {
    caught_among_three(Cheat::RData, failed(PrepCheck::ZeroDataCStar));
}

#[test]
fn attack_plane_or_c_data_off_the_tinyot_bits_among_three_fails_the_consistency_check() {
    caught_among_three(Cheat::PlaneData, failed(PrepCheck::TinyOtConsistency));
    caught_among_three(Cheat::CData, failed(PrepCheck::TinyOtConsistency));
}

#[test]
fn attack_inconsistent_cope_columns_among_three_fails_the_mac_check() {
    caught_among_three(Cheat::CopeColumn, failed(PrepCheck::Mac));
}

#[test]
fn attack_tampered_opening_among_three_fails_the_mac_check() {
    caught_among_three(Cheat::OpenedValue, failed(PrepCheck::Mac));
    caught_among_three(Cheat::OpenedMac, failed(PrepCheck::Mac));
}

#[test]
fn attack_replayed_cope_frame_among_three_is_out_of_order() {
    for (p, e) in honest_errors(&small(3), vec![cheater(1, Some(Cheat::ReplayCopeFrame), None)]) {
        match e {
            MiniMacError::FrameOutOfOrder { from: 1, step: Step::PrepCope, expected, got } => {
                assert_eq!(expected, got + 1, "party {p}")
            }
            other => panic!("party {p}: expected a replayed frame, got {other:?}"),
        }
    }
}

/// Flipped TinyOT share bits in the opening to party 2 alone: party 2's MAC digest check fails;
/// party 0, whose view is right, fails as soon as party 2 aborts.
#[test]
fn attack_flipped_tinyot_bits_towards_one_party_fail_its_mac_digest() {
    let values = (2 * CODEWORD_REPS + CONSISTENCY_REPS) * CODE.code().n();
    let edit: Edit = Box::new(move |_, m: &mut Vec<u8>| {
        if m[0] == PREP_OPEN {
            m[HEADER_BYTES + values] ^= 1;
        }
    });
    let errors = honest_errors(&small(3), equivocator(2, edit));
    assert_eq!(errors[1], (2, failed(PrepCheck::TinyOtMac)));
    assert!(matches!(errors[0], (0, MiniMacError::Network { .. })), "{:?}", errors[0]);
}

/// Equivocation: party 1 opens a value shifted by a codeword of `C` to party 2 alone (so the
/// codeword checks pass at both honest parties). Their transcripts differ, and the MAC check's
/// view comparison makes both abort.
#[test]
fn attack_equivocated_opening_fails_the_view_comparison_at_every_honest_party() {
    let (n, k) = (CODE.code().n(), CODE.code().k());
    let shift = CODE.code().c.encode_bit_plane(&vec![Gf256(1); k], 0).unwrap();
    let shift = Gf256::as_bytes(&shift).to_vec();
    let edit: Edit = Box::new(move |_, m: &mut Vec<u8>| {
        if m[0] == PREP_OPEN {
            m[HEADER_BYTES..HEADER_BYTES + n].iter_mut().zip(&shift).for_each(|(b, s)| *b ^= s);
        }
    });
    let errors = honest_errors(&small(3), equivocator(2, edit));
    for (p, e) in errors {
        assert!(
            matches!(e, MiniMacError::TranscriptMismatch { step: Step::PrepCheck, .. }),
            "party {p}: {e:?}"
        );
    }
}

/// A COPE frame truncated towards party 0 alone: a malformed frame there; party 2 fails too.
#[test]
fn attack_truncated_cope_frame_towards_one_party_is_malformed() {
    let n = CODE.code().n();
    let edit: Edit = Box::new(move |_, m: &mut Vec<u8>| {
        if m.len() > HEADER_BYTES && m[0] == COPE_COLUMNS && (m.len() - HEADER_BYTES).is_multiple_of(8 * n) {
            m.truncate(m.len() - 1);
        }
    });
    let errors = honest_errors(&small(3), equivocator(0, edit));
    assert!(
        matches!(errors[0], (0, MiniMacError::Malformed { from: 1, step: Step::PrepCope, .. })),
        "{:?}",
        errors[0]
    );
    assert!(errors[1].0 == 2, "party 2 aborts too: {:?}", errors[1]);
}

/// Two colluding parties of four, each with its own cheat: both honest parties abort with the
/// check that catches the first of them.
#[test]
fn attack_by_two_colluding_parties_of_four_is_caught_by_both_honest_parties() {
    for (first, second, expected) in [
        (Cheat::CopeColumn, Cheat::OpenedMac, failed(PrepCheck::Mac)),
        (Cheat::PlaneData, Cheat::CData, failed(PrepCheck::TinyOtConsistency)),
        (Cheat::RData, Cheat::NonCodewordPlane, failed(PrepCheck::CodewordC)),
    ] {
        let cheaters = vec![cheater(1, Some(first), None), cheater(2, Some(second), None)];
        let errors = honest_errors(&small(4), cheaters);
        assert_eq!(errors.iter().map(|e| e.0).collect::<Vec<_>>(), [0, 3]);
        for (p, e) in errors {
            assert_eq!(e, expected, "honest party {p}, {first:?} and {second:?}");
        }
    }
}

/// The provider refuses a request whose party count differs from the session's, and a session
/// larger than the n-party engine's bound, with typed errors.
#[test]
fn the_provider_refuses_a_request_for_another_session_size() {
    let request = small(2);
    let results = crate::net::memory::run_session(3, |mut net| {
        let request = request.clone();
        async move { OtPreprocessing::new(ChaCha20Rng::seed_from_u64(1), b"x").material(&mut net, &request).await }
    });
    for r in results {
        assert!(matches!(&r, Err(MiniMacError::BadInput(m)) if m.contains("the request 2")), "{r:?}");
    }
}
