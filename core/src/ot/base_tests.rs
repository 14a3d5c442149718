//! Tests of the base OT: the OT relation, communication, and typed errors against hand-written
//! malicious peers.

use super::*;
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::{NetError, NetStats};
use crate::rng::seeded_rng;
use futures::executor::block_on;
use proptest::prelude::*;
use rand_core::RngCore;
use std::collections::HashSet;

const SENDER: PartyId = 0;
const RECEIVER: PartyId = 1;

/// What one party of a two-party run returns.
enum Out {
    Sender(Result<Vec<[Block; 2]>, OtError>, NetStats),
    Receiver(Result<Vec<Block>, OtError>, NetStats),
}

/// Runs an honest sender (party 0) and an honest receiver (party 1).
fn run_honest(
    choices: &[bool],
    sender_session: &[u8],
    receiver_session: &[u8],
    seed: u64,
) -> (Vec<[Block; 2]>, NetStats, Vec<Block>, NetStats) {
    let outs = run_session(2, |mut net| async move {
        if net.party() == SENDER {
            let mut rng = seeded_rng(seed);
            let r = send_random(&mut net, RECEIVER, choices.len(), sender_session, &mut rng).await;
            Out::Sender(r, net.stats())
        } else {
            let mut rng = seeded_rng(seed ^ 0x5eed);
            let r = receive_random(&mut net, SENDER, choices, receiver_session, &mut rng).await;
            Out::Receiver(r, net.stats())
        }
    });
    let mut outs = outs.into_iter();
    let (Some(Out::Sender(s, s_stats)), Some(Out::Receiver(r, r_stats))) = (outs.next(), outs.next()) else {
        panic!("parties returned in the wrong order");
    };
    (s.expect("honest sender"), s_stats, r.expect("honest receiver"), r_stats)
}

fn random_choices(n: usize, seed: u64) -> Vec<bool> {
    let mut rng = seeded_rng(seed);
    (0..n).map(|_| rng.next_u32() & 1 == 1).collect()
}

fn assert_ot_relation(pairs: &[[Block; 2]], received: &[Block], choices: &[bool]) {
    assert_eq!(pairs.len(), choices.len());
    assert_eq!(received.len(), choices.len());
    for (i, ((pair, &got), &c)) in pairs.iter().zip(received).zip(choices).enumerate() {
        assert_eq!(got, pair[c as usize], "OT {i}: receiver's block is not m_c");
        assert_ne!(got, pair[1 - c as usize], "OT {i}: receiver's block equals m_(1-c)");
    }
}

#[test]
fn receiver_gets_chosen_message_for_128_random_choices() {
    let choices = random_choices(128, 1);
    assert!(choices.iter().any(|&c| c) && choices.iter().any(|&c| !c));
    let (pairs, _, received, _) = run_honest(&choices, b"session-1", b"session-1", 7);
    assert_ot_relation(&pairs, &received, &choices);
    let all: HashSet<Block> = pairs.iter().flatten().copied().collect();
    assert_eq!(all.len(), 256, "the sender's 256 messages are not all distinct");
}

#[test]
fn single_ot_both_choices() {
    for c in [false, true] {
        let (pairs, _, received, _) = run_honest(&[c], b"one", b"one", 3);
        assert_ot_relation(&pairs, &received, &[c]);
    }
}

#[test]
fn session_tags_separate_outputs() {
    let choices = random_choices(64, 2);
    // Same seeds and session: the run is reproducible.
    let (p1, _, r1, _) = run_honest(&choices, b"batch-a", b"batch-a", 11);
    let (p1b, _, r1b, _) = run_honest(&choices, b"batch-a", b"batch-a", 11);
    assert_eq!((&p1, &r1), (&p1b, &r1b));
    // Same seeds, another session tag: unrelated outputs.
    let (p2, _, r2, _) = run_honest(&choices, b"batch-b", b"batch-b", 11);
    assert_ot_relation(&p2, &r2, &choices);
    let first: HashSet<Block> = p1.iter().flatten().copied().collect();
    assert!(p2.iter().flatten().all(|m| !first.contains(m)), "two sessions share a sender message");
    // Mismatched tags: the receiver's blocks match neither message.
    let (p3, _, r3, _) = run_honest(&choices, b"batch-a", b"batch-c", 11);
    for (i, (pair, got)) in p3.iter().zip(&r3).enumerate() {
        assert!(!pair.contains(got), "OT {i}: mismatched session tags still agree");
    }
}

#[test]
fn large_batch_uses_table_path_and_agrees() {
    // At and above RECEIVER_TABLE_MIN the receiver multiplies through a table of A.
    for n in [RECEIVER_TABLE_MIN - 1, RECEIVER_TABLE_MIN, 200] {
        let choices = random_choices(n, n as u64);
        let (pairs, _, received, _) = run_honest(&choices, b"table", b"table", n as u64);
        assert_ot_relation(&pairs, &received, &choices);
    }
}

#[test]
fn exact_bytes_and_one_round() {
    for n in [1usize, 5, 128] {
        let choices = random_choices(n, 40 + n as u64);
        let (_, s, _, r) = run_honest(&choices, b"stats", b"stats", 5);
        let pairs = 64 * n as u64;
        assert_eq!(
            s,
            NetStats {
                bytes_sent: 32,
                bytes_received: pairs,
                messages_sent: 1,
                messages_received: 1,
                rounds: 1
            },
            "sender, n = {n}"
        );
        assert_eq!(
            r,
            NetStats {
                bytes_sent: pairs,
                bytes_received: 32,
                messages_sent: 1,
                messages_received: 1,
                rounds: 1
            },
            "receiver, n = {n}"
        );
    }
}

/// An honest sender of `count` OTs against a fake receiver that sends `fake` and then reads `A`.
fn sender_against(count: usize, fake: Vec<u8>) -> Result<Vec<[Block; 2]>, OtError> {
    let fake = &fake;
    let mut outs = run_session(2, |mut net: MemoryNetwork| async move {
        if net.party() == SENDER {
            Some(send_random(&mut net, RECEIVER, count, b"fake", &mut seeded_rng(1)).await)
        } else {
            net.send(SENDER, fake.clone()).unwrap();
            assert_eq!(net.recv(SENDER).await.unwrap().len(), 32);
            None
        }
    });
    outs.swap_remove(0).unwrap()
}

/// An honest receiver against a fake sender that sends `fake` and then reads the pairs.
fn receiver_against(choices: &[bool], fake: Vec<u8>) -> Result<Vec<Block>, OtError> {
    let fake = &fake;
    let mut outs = run_session(2, |mut net: MemoryNetwork| async move {
        if net.party() == RECEIVER {
            Some(receive_random(&mut net, SENDER, choices, b"fake", &mut seeded_rng(2)).await)
        } else {
            net.send(RECEIVER, fake.clone()).unwrap();
            assert_eq!(net.recv(RECEIVER).await.unwrap().len(), 64 * choices.len());
            None
        }
    });
    outs.swap_remove(1).unwrap()
}

/// The canonical encoding of a random point (never the identity in practice).
fn random_point_bytes(seed: u64) -> [u8; 32] {
    RistrettoPoint::random(&mut seeded_rng(seed)).compress().to_bytes()
}

/// An honest-looking receiver message: `count` pairs of random points.
fn random_pairs(count: usize) -> Vec<u8> {
    (0..2 * count).flat_map(|k| random_point_bytes(100 + k as u64)).collect()
}

fn assert_malformed<T: core::fmt::Debug>(r: Result<T, OtError>, step: &str, mentions: &[&str]) {
    match r {
        Err(OtError::Malformed { step: s, reason }) => {
            assert_eq!(s, step);
            for m in mentions {
                assert!(reason.contains(m), "reason {reason:?} does not mention {m:?}");
            }
        }
        other => panic!("expected Malformed in {step}, got {other:?}"),
    }
}

fn assert_identity_rejected<T: core::fmt::Debug>(r: Result<T, OtError>) {
    assert_eq!(r.unwrap_err(), OtError::CheckFailed { check: "base-ot: identity point" });
}

/// Non-canonical or invalid 32-byte encodings: all 0xFF (not reduced), s = 1 (a "negative"
/// field element), s = p (the modulus itself), and a reduced non-negative s that is not on the
/// curve's Ristretto image.
fn bad_encodings() -> Vec<[u8; 32]> {
    let mut one = [0u8; 32];
    one[0] = 1;
    let mut p = [0xffu8; 32];
    p[0] = 0xed;
    p[31] = 0x7f;
    let mut invalid = None;
    for v in (2u8..=254).step_by(2) {
        let mut e = [0u8; 32];
        e[0] = v;
        if CompressedRistretto(e).decompress().is_none() {
            invalid = Some(e);
            break;
        }
    }
    vec![[0xff; 32], one, p, invalid.expect("some small even s does not decode")]
}

#[test]
fn truncated_or_padded_receiver_message_is_malformed() {
    let mut short = random_pairs(4);
    short.pop();
    assert_malformed(sender_against(4, short), "base-ot receiver points", &["256", "255"]);
    let mut long = random_pairs(4);
    long.extend_from_slice(&[0; 64]);
    assert_malformed(sender_against(4, long), "base-ot receiver points", &["256", "320"]);
    assert_malformed(sender_against(4, Vec::new()), "base-ot receiver points", &["got 0"]);
}

#[test]
fn invalid_receiver_point_is_malformed_naming_the_index() {
    for bad in bad_encodings() {
        for b in 0..2 {
            let mut msg = random_pairs(5);
            msg[3 * 64 + 32 * b..3 * 64 + 32 * (b + 1)].copy_from_slice(&bad);
            assert_malformed(
                sender_against(5, msg),
                "base-ot receiver points",
                &[&format!("r_{b} of OT 3"), "canonical"],
            );
        }
    }
}

#[test]
fn identity_receiver_point_is_rejected() {
    for b in 0..2 {
        let mut msg = random_pairs(3);
        msg[64 + 32 * b..64 + 32 * (b + 1)].fill(0);
        assert_identity_rejected(sender_against(3, msg));
    }
}

#[test]
fn identity_derived_key_is_rejected() {
    // r_0 = −H(i, r_1) makes pk_0 = r_0 + H(i, r_1) the identity.
    let oracles = Oracles::new(b"fake");
    let r1 = random_point_bytes(9);
    let r0 = (-oracles.h2g(0, &r1)).compress().to_bytes();
    let mut msg = r0.to_vec();
    msg.extend_from_slice(&r1);
    assert_identity_rejected(sender_against(1, msg));
}

#[test]
fn bad_sender_key_is_rejected() {
    let choices = [true, false, true];
    assert_malformed(receiver_against(&choices, vec![1; 31]), "base-ot sender key", &["32", "31"]);
    assert_malformed(receiver_against(&choices, vec![1; 33]), "base-ot sender key", &["32", "33"]);
    for bad in bad_encodings() {
        assert_malformed(receiver_against(&choices, bad.to_vec()), "base-ot sender key", &["canonical"]);
    }
    assert_identity_rejected(receiver_against(&choices, vec![0; 32]));
}

#[test]
fn invalid_requests_and_peers_are_typed_errors() {
    let mut nets = MemoryNetwork::session(2);
    let mut rng = seeded_rng(0);
    let net = &mut nets[0];
    assert!(matches!(block_on(send_random(net, 1, 0, b"", &mut rng)), Err(OtError::InvalidRequest(_))));
    assert!(matches!(block_on(receive_random(net, 1, &[], b"", &mut rng)), Err(OtError::InvalidRequest(_))));
    assert!(matches!(
        block_on(send_random(net, 1, usize::MAX, b"", &mut rng)),
        Err(OtError::InvalidRequest(_))
    ));
    assert_eq!(
        block_on(send_random(net, 0, 1, b"", &mut rng)),
        Err(OtError::Net(NetError::SelfAddressed(0)))
    );
    assert_eq!(
        block_on(receive_random(net, 2, &[true], b"", &mut rng)),
        Err(OtError::Net(NetError::UnknownParty { party: 2, parties: 2 }))
    );
    assert_eq!(net.stats(), NetStats::default(), "a rejected request sent something");
}

#[test]
fn peer_leaving_is_a_network_error() {
    let mut outs = run_session(2, |mut net: MemoryNetwork| async move {
        if net.party() == SENDER {
            Some(send_random(&mut net, RECEIVER, 2, b"left", &mut seeded_rng(1)).await)
        } else {
            None
        }
    });
    assert_eq!(outs.swap_remove(0).unwrap(), Err(OtError::Net(NetError::PeerLeft(RECEIVER))));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn ot_relation_holds(choices in proptest::collection::vec(any::<bool>(), 1..64), seed in any::<u64>()) {
        let (pairs, _, received, _) = run_honest(&choices, b"prop", b"prop", seed);
        for (i, ((pair, &got), &c)) in pairs.iter().zip(&received).zip(&choices).enumerate() {
            prop_assert_eq!(got, pair[c as usize], "OT {}", i);
            prop_assert_ne!(got, pair[1 - c as usize], "OT {}", i);
        }
    }
}
