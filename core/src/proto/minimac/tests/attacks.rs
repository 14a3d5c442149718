//! A corrupt party deviates — on the wire (through [`Tamper`]) or with corrupted material — and the
//! honest parties must abort with the error of the check that catches it, before any output.

use super::super::prep::{PartyPrep, PrepRequest, A, A_BITS, C};
use super::super::{CodeChoice, MiniMacError, Options, Step};
use super::{deal, round_robin_owners, run};
use crate::circuit::Circuit;
use crate::net::memory::MemoryNetwork;
use crate::net::tamper::Tamper;
use crate::net::{NetStats, Network};
use crate::proto::tinytable::circuit::tests_malicious::{random_circuit, random_inputs};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use std::cell::RefCell;

use super::super::msg::HEADER_BYTES;

const CORRUPT: usize = 1;
const CODE: CodeChoice = CodeChoice::Rs255_85;

fn circuit() -> Circuit {
    random_circuit(&mut ChaCha20Rng::seed_from_u64(77), 4, 80, 3)
}

/// Messages a party sends to one peer before its output shares: input, AND rounds, gate check.
fn before_output(circuit: &Circuit) -> u64 {
    1 + circuit.and_depth() as u64 + 3
}

/// Runs two parties; party [`CORRUPT`] edits its sent messages with `edit` and its material with
/// `corrupt`. Returns the honest party's (party 0's) result and statistics.
fn attack(
    edit: impl FnMut(u64, &mut Vec<u8>),
    corrupt: impl FnOnce(&mut PartyPrep),
) -> (Result<super::super::BatchOutputs, MiniMacError>, NetStats) {
    let circuit = circuit();
    let owners = round_robin_owners(&circuit, 2);
    let mut preps = deal(&PrepRequest::for_circuit(CODE, 2, &circuit, &owners).unwrap(), 11);
    corrupt(&mut preps[CORRUPT]);
    let inputs = random_inputs(&mut ChaCha20Rng::seed_from_u64(12), &circuit, 100);
    let edit = RefCell::new(Some(edit));
    let mut results = run(&circuit, preps, &inputs, &owners, Options::default(), |net: MemoryNetwork| {
        if net.party() == CORRUPT {
            let mut edit = edit.borrow_mut().take().expect("one corrupt party");
            Tamper::new(net, move |i, m| edit(i, m))
        } else {
            Tamper::honest(net)
        }
    });
    results.swap_remove(0)
}

fn honest_edit(_: u64, _: &mut Vec<u8>) {}
fn honest_material(_: &mut PartyPrep) {}

/// Adds the constant codeword `(1, 1, …, 1)` (in `C` and `C*`) to `n` bytes.
fn add_constant_codeword(bytes: &mut [u8]) {
    bytes.iter_mut().for_each(|b| *b ^= 1);
}

fn n() -> usize {
    CODE.code().n()
}

/// Expects `result` to be `expected` and the honest party not to have sent its output shares.
fn detected_before_output(
    result: Result<super::super::BatchOutputs, MiniMacError>,
    stats: NetStats,
    expected: MiniMacError,
) {
    assert_eq!(result.unwrap_err(), expected);
    assert!(stats.messages_sent <= before_output(&circuit()), "the honest party sent its output shares");
}

#[test]
fn honest_run_of_the_attack_setting_succeeds() {
    let (result, stats) = attack(honest_edit, honest_material);
    assert_eq!(result.unwrap().len(), 100);
    assert_eq!(stats.messages_sent, before_output(&circuit()) + 4);
}

/// In the last multiplication round: in an earlier one, the corrupt party's own (unchanged) view
/// of the opened value makes its later shares inconsistent, and the codeword check catches that
/// first (also an abort before output).
#[test]
fn opened_share_moved_to_another_codeword_fails_the_mac_check() {
    let last_round = circuit().and_depth() as u64;
    let (result, stats) = attack(
        move |i, m| {
            if i == last_round {
                add_constant_codeword(&mut m[HEADER_BYTES..HEADER_BYTES + n()]);
            }
        },
        honest_material,
    );
    detected_before_output(result, stats, MiniMacError::MacCheckFailed { step: Step::GateCheck });
}

#[test]
fn opened_share_with_one_wrong_component_fails_the_codeword_check() {
    let (result, stats) = attack(
        |i, m| {
            if i == 2 {
                m[HEADER_BYTES + n() + 7] ^= 0x40;
            }
        },
        honest_material,
    );
    detected_before_output(result, stats, MiniMacError::CodewordCheckFailed { step: Step::GateCheck });
}

#[test]
fn wrong_mac_share_in_the_material_fails_the_mac_check() {
    let (result, stats) = attack(honest_edit, |p| {
        let n = n();
        p.triple_mut(0)[A * 2 * n + n + 3] ^= 1;
    });
    detected_before_output(result, stats, MiniMacError::MacCheckFailed { step: Step::GateCheck });
}

#[test]
fn wrong_mac_key_share_fails_the_mac_check() {
    let (result, stats) = attack(honest_edit, |p| p.alpha[0] ^= 0x80);
    detected_before_output(result, stats, MiniMacError::MacCheckFailed { step: Step::GateCheck });
}

#[test]
fn wrong_triple_product_is_detected() {
    let (result, _) = attack(honest_edit, |p| {
        let n = n();
        for t in 0..p.and_gates {
            add_constant_codeword(&mut p.triple_mut(t)[C * 2 * n..C * 2 * n + n]);
        }
    });
    assert!(matches!(result, Err(MiniMacError::MacCheckFailed { .. })), "{result:?}");
}

#[test]
fn inconsistent_bit_decomposition_is_detected() {
    let (result, _) = attack(honest_edit, |p| {
        let n = n();
        let w = A_BITS + 3;
        for t in 0..p.and_gates {
            add_constant_codeword(&mut p.triple_mut(t)[w * 2 * n..w * 2 * n + n]);
        }
    });
    assert!(matches!(result, Err(MiniMacError::MacCheckFailed { .. })), "{result:?}");
}

#[test]
fn tampered_coin_seed_is_a_commitment_mismatch() {
    let seed_message = before_output(&circuit()) - 3;
    let (result, stats) = attack(
        move |i, m| {
            if i == seed_message {
                m[HEADER_BYTES] ^= 1;
            }
        },
        honest_material,
    );
    detected_before_output(
        result,
        stats,
        MiniMacError::CommitmentMismatch { from: CORRUPT, step: Step::GateCheck, what: "coin seed" },
    );
}

#[test]
fn tampered_coin_commitment_is_a_commitment_mismatch() {
    let (result, stats) = attack(
        |i, m| {
            if i == 0 {
                m[HEADER_BYTES + 3] ^= 1;
            }
        },
        honest_material,
    );
    detected_before_output(
        result,
        stats,
        MiniMacError::CommitmentMismatch { from: CORRUPT, step: Step::GateCheck, what: "coin seed" },
    );
}

#[test]
fn tampered_mac_check_opening_is_a_commitment_mismatch() {
    let reveal = before_output(&circuit()) - 1;
    let (result, stats) = attack(
        move |i, m| {
            if i == reveal {
                m[HEADER_BYTES + 5] ^= 1;
            }
        },
        honest_material,
    );
    detected_before_output(
        result,
        stats,
        MiniMacError::CommitmentMismatch { from: CORRUPT, step: Step::GateCheck, what: "MAC check value" },
    );
}

#[test]
fn replayed_frame_is_out_of_order() {
    let mut previous = Vec::new();
    let (result, stats) = attack(
        move |i, m| {
            if i == 3 {
                *m = previous.clone();
            }
            previous = m.clone();
        },
        honest_material,
    );
    detected_before_output(
        result,
        stats,
        MiniMacError::FrameOutOfOrder { from: CORRUPT, step: Step::AndRound(3), expected: 3, got: 2 },
    );
}

#[test]
fn truncated_frame_is_malformed() {
    let (result, stats) = attack(
        |i, m| {
            if i == 1 {
                m.pop();
            }
        },
        honest_material,
    );
    assert!(
        matches!(result, Err(MiniMacError::Malformed { from: CORRUPT, step: Step::AndRound(1), .. })),
        "{result:?}"
    );
    assert!(stats.messages_sent <= 2);
}

#[test]
fn output_share_outside_the_code_fails_the_output_check() {
    let output = before_output(&circuit());
    let (result, _) = attack(
        move |i, m| {
            if i == output {
                m[HEADER_BYTES + 1] ^= 0x02;
            }
        },
        honest_material,
    );
    assert_eq!(result.unwrap_err(), MiniMacError::CodewordCheckFailed { step: Step::OutputCheck });
}

#[test]
fn output_share_moved_to_another_codeword_fails_the_output_mac_check() {
    let output = before_output(&circuit());
    let (result, _) = attack(
        move |i, m| {
            if i == output {
                add_constant_codeword(&mut m[HEADER_BYTES..HEADER_BYTES + n()]);
            }
        },
        honest_material,
    );
    assert_eq!(result.unwrap_err(), MiniMacError::MacCheckFailed { step: Step::OutputCheck });
}

/// Three parties: party 2 sends party 0 a different share than party 1 in the last
/// multiplication round (equivocation); both honest parties see the views differ. (The last
/// round, so that the corrupt party's later shares do not leave `C*` first, as in
/// `opened_share_moved_to_another_codeword_fails_the_mac_check`.)
#[test]
fn equivocating_party_is_caught_by_the_view_hash() {
    let circuit = circuit();
    let target = 2 * circuit.and_depth() as u64;
    let owners = round_robin_owners(&circuit, 3);
    let preps = deal(&PrepRequest::for_circuit(CODE, 3, &circuit, &owners).unwrap(), 13);
    let inputs = random_inputs(&mut ChaCha20Rng::seed_from_u64(14), &circuit, 50);
    let results = run(&circuit, preps, &inputs, &owners, Options::default(), |net: MemoryNetwork| {
        if net.party() == 2 {
            // Party 2 sends to 0 then 1 each round: message 2r is round r's message to party 0.
            Tamper::new(net, move |i, m: &mut Vec<u8>| {
                if i == target {
                    add_constant_codeword(&mut m[HEADER_BYTES..HEADER_BYTES + n()]);
                }
            })
        } else {
            Tamper::honest(net)
        }
    });
    for (party, (result, _)) in results.into_iter().take(2).enumerate() {
        assert!(
            matches!(result, Err(MiniMacError::TranscriptMismatch { step: Step::GateCheck, .. })),
            "party {party}: {result:?}"
        );
    }
}
