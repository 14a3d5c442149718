//! OT-extension tests: the OT relations for random choices (property tests), exact bytes and
//! rounds, batches across chunk boundaries, and deviations by either party — each detected with a
//! typed error naming the step.

use super::*;
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::tamper::Tamper;
use crate::net::{NetStats, Network};
use crate::ot::{OtError, OtExtReceiver};
use crate::rng::seeded_rng;
use proptest::prelude::*;
use rand_core::RngCore;

const SESSION: &[u8] = b"ot-extension-tests";
const SENDER: usize = 0;
const RECEIVER: usize = 1;

fn random_bits(seed: u64, n: usize) -> Vec<bool> {
    let mut rng = seeded_rng(seed);
    (0..n).map(|_| rng.next_u32() & 1 == 1).collect()
}

/// The sender's `Δ` and its rows per batch.
type SenderOut = Result<(Block, Vec<Vec<Block>>), OtError>;
/// The receiver's rows per batch.
type ReceiverOut = Result<Vec<Vec<Block>>, OtError>;

/// What each side of one test session returns.
enum Out {
    Sender(SenderOut, NetStats),
    Receiver(ReceiverOut, NetStats),
}

/// Runs setup and one correlated extension per entry of `batches` (choice bits), each party
/// through a [`Tamper`] with its own edit.
fn correlated_session(
    batches: &[Vec<bool>],
    sender_edit: impl FnMut(u64, &mut Vec<u8>) + Clone,
    receiver_edit: impl FnMut(u64, &mut Vec<u8>) + Clone,
) -> (SenderOut, ReceiverOut, [NetStats; 2]) {
    let outs = run_session(2, |net: MemoryNetwork| {
        let (se, re) = (sender_edit.clone(), receiver_edit.clone());
        async move {
            let mut rng = seeded_rng(net.party() as u64 + 100);
            if net.party() == SENDER {
                let mut net = Tamper::new(net, se);
                let out = async {
                    let mut s = OtExtSender::setup(&mut net, RECEIVER, SESSION, &mut rng).await?;
                    let mut all = Vec::new();
                    for b in batches {
                        all.push(s.extend_correlated(&mut net, b.len(), &mut rng).await?);
                    }
                    Ok((s.delta(), all))
                }
                .await;
                Out::Sender(out, net.stats())
            } else {
                let mut net = Tamper::new(net, re);
                let out = async {
                    let mut r = OtExtReceiver::setup(&mut net, SENDER, SESSION, &mut rng).await?;
                    let mut all = Vec::new();
                    for b in batches {
                        all.push(r.extend_correlated(&mut net, b, &mut rng).await?);
                    }
                    Ok(all)
                }
                .await;
                Out::Receiver(out, net.stats())
            }
        }
    });
    let mut it = outs.into_iter();
    match (it.next(), it.next()) {
        (Some(Out::Sender(s, ss)), Some(Out::Receiver(r, rs))) => (s, r, [ss, rs]),
        _ => unreachable!("party 0 is the sender, party 1 the receiver"),
    }
}

fn honest(_: u64, _: &mut Vec<u8>) {}

fn assert_correlated(delta: Block, q: &[Block], t: &[Block], choices: &[bool]) {
    assert_eq!(q.len(), choices.len());
    assert_eq!(t.len(), choices.len());
    for (j, ((&q, &t), &c)) in q.iter().zip(t).zip(choices).enumerate() {
        assert_eq!(t, q ^ if c { delta } else { 0 }, "OT {j}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn correlated_ot_satisfies_t_eq_q_xor_r_delta(n in 1usize..700, seed in any::<u64>()) {
        let choices = random_bits(seed, n);
        let (s, r, _) = correlated_session(core::slice::from_ref(&choices), honest, honest);
        let (delta, q) = s.unwrap();
        assert_correlated(delta, &q[0], &r.unwrap()[0], &choices);
    }
}

#[test]
fn batches_across_chunk_boundaries_and_consecutive_extensions_stay_correlated() {
    let batches = vec![random_bits(1, CHUNK_OTS + 1000), random_bits(2, 5), random_bits(3, 300)];
    let (s, r, _) = correlated_session(&batches, honest, honest);
    let (delta, q) = s.unwrap();
    let t = r.unwrap();
    assert_ne!(delta, 0);
    for (b, choices) in batches.iter().enumerate() {
        assert_correlated(delta, &q[b], &t[b], choices);
    }
    assert_ne!(q[1][0], q[2][0], "later batches continue the PRG streams");
}

#[test]
fn exact_bytes_and_rounds_of_setup_and_one_extension() {
    let n = 1000;
    let (s, r, [ss, rs]) = correlated_session(&[random_bits(4, n)], honest, honest);
    s.unwrap();
    r.unwrap();
    let padded = padded_len(n) as u64;
    assert_eq!(padded, 1280);
    // Sender: 128 base-OT receiver points (64 bytes each), the commitment, the coin opening.
    assert_eq!(ss.bytes_sent, 64 * 128 + 32 + 64);
    // Receiver: the base-OT key, 16 bytes of columns per padded OT, its coin, the check.
    assert_eq!(rs.bytes_sent, 32 + 16 * padded + 32 + 48);
    assert_eq!(rs.messages_sent, 1 + 1 + 1 + 1);
    // Columns and coin go out in one flight, the check in a second.
    assert!(rs.rounds <= 3, "receiver rounds {}", rs.rounds);
}

#[test]
fn random_and_chosen_ot_deliver_the_chosen_messages_only() {
    let choices = random_bits(5, 777);
    let messages: Vec<[Block; 2]> = (0..777u128).map(|i| [i * 3 + 1, i * 5 + 2]).collect();
    let outs = run_session(2, |mut net| {
        let (choices, messages) = (choices.clone(), messages.clone());
        async move {
            let mut rng = seeded_rng(net.party() as u64);
            if net.party() == SENDER {
                let mut s = OtExtSender::setup(&mut net, RECEIVER, SESSION, &mut rng).await.unwrap();
                let pairs = s.extend_random(&mut net, choices.len(), &mut rng).await.unwrap();
                s.send_chosen(&mut net, &messages, &mut rng).await.unwrap();
                (pairs.iter().flat_map(|p| [p[0], p[1]]).collect::<Vec<_>>(), vec![])
            } else {
                let mut r = OtExtReceiver::setup(&mut net, SENDER, SESSION, &mut rng).await.unwrap();
                let got = r.extend_random(&mut net, &choices, &mut rng).await.unwrap();
                let chosen = r.receive_chosen(&mut net, &choices, &mut rng).await.unwrap();
                (got, chosen)
            }
        }
    });
    let (pairs, got, chosen) = (&outs[0].0, &outs[1].0, &outs[1].1);
    for (j, &c) in choices.iter().enumerate() {
        let (m0, m1) = (pairs[2 * j], pairs[2 * j + 1]);
        assert_ne!(m0, m1);
        assert_eq!(got[j], if c { m1 } else { m0 }, "random OT {j}");
        assert_eq!(chosen[j], messages[j][c as usize], "chosen OT {j}");
    }
}

// ---- Deviations. Message indices: the receiver sends the base-OT key (0), columns (1), its coin
// (2) and the check (3); the sender sends the base-OT points (0), its commitment (1) and the coin
// opening (2). Every deviation must give the honest side a typed error naming the step.

fn flip(byte: usize, bit: u8) -> impl FnMut(&mut Vec<u8>) + Clone {
    move |m: &mut Vec<u8>| m[byte] ^= 1 << bit
}

fn at(target: u64, mut edit: impl FnMut(&mut Vec<u8>) + Clone) -> impl FnMut(u64, &mut Vec<u8>) + Clone {
    move |i, m| {
        if i == target {
            edit(m)
        }
    }
}

fn sender_error(s: SenderOut) -> OtError {
    s.expect_err("the honest sender must reject")
}

#[test]
fn receiver_using_inconsistent_choice_bits_across_columns_is_caught() {
    // Flip choice bit 7 in columns 0..64 only (one byte per column): the sender's rows then differ
    // by Δ restricted to those columns, which the check sees unless all 64 bits of Δ are 0.
    let n = 200;
    let col_bytes = padded_len(n) / 8;
    let edit = at(1, move |m: &mut Vec<u8>| {
        for col in 0..64 {
            m[col * col_bytes] ^= 1 << 7;
        }
    });
    let (s, _, _) = correlated_session(&[random_bits(6, n)], honest, edit);
    assert_eq!(sender_error(s), OtError::CheckFailed { check: "kos15 correlation check" });
}

#[test]
fn a_flip_in_one_column_is_caught_exactly_when_that_bit_of_delta_is_one() {
    // KOS15's selective failure: a one-column deviation in column i passes iff Δ_i = 0, and then
    // the sender ignored that column, so the outputs are still correct. A receiver learns Δ_i at
    // the risk of an abort — the leakage the construction's analysis accounts for.
    let n = 100;
    let choices = random_bits(7, n);
    let col_bytes = padded_len(n) / 8;
    let (s, _, _) = correlated_session(core::slice::from_ref(&choices), honest, honest);
    let delta = s.unwrap().0;
    for col in [0usize, 1, 2, 3, 64, 127] {
        let edit = at(1, flip(col * col_bytes + 3, 2));
        let (s, r, _) = correlated_session(core::slice::from_ref(&choices), honest, edit);
        if (delta >> col) & 1 == 1 {
            assert_eq!(
                sender_error(s),
                OtError::CheckFailed { check: "kos15 correlation check" },
                "column {col}"
            );
        } else {
            let (d, q) = s.expect("Δ_i = 0: the sender never reads column i");
            assert_correlated(d, &q[0], &r.unwrap()[0], &choices);
        }
    }
}

#[test]
fn receiver_sending_a_wrong_check_value_is_caught() {
    for byte in [0, 15, 16, 40, 47] {
        let (s, _, _) = correlated_session(&[random_bits(8, 64)], honest, at(3, flip(byte, 0)));
        assert_eq!(
            sender_error(s),
            OtError::CheckFailed { check: "kos15 correlation check" },
            "check byte {byte}"
        );
    }
}

#[test]
fn sender_opening_another_coin_than_it_committed_to_is_caught() {
    let (_, r, _) = correlated_session(&[random_bits(9, 64)], at(2, flip(5, 1)), honest);
    assert_eq!(r.unwrap_err(), OtError::CheckFailed { check: "kos15 sender coin commitment" });
}

#[test]
fn replayed_columns_from_an_earlier_batch_are_caught() {
    // The receiver sends batch 1's columns again in batch 2 (same length): they no longer match
    // the PRG streams, whatever it answers in the check. (On a real session the channel's
    // sequence numbers already reject a replayed frame; this is the OT layer's own defence.)
    let batches = [random_bits(10, 64), random_bits(11, 64)];
    let mut first = Vec::new();
    let edit = move |i: u64, m: &mut Vec<u8>| match i {
        1 => first = m.clone(),
        4 => *m = first.clone(),
        _ => {}
    };
    let (s, _, _) = correlated_session(&batches, honest, edit);
    assert_eq!(sender_error(s), OtError::CheckFailed { check: "kos15 correlation check" });
}

#[test]
fn malformed_messages_give_typed_errors_naming_the_step() {
    let truncate = |m: &mut Vec<u8>| {
        m.pop();
    };
    let (s, _, _) = correlated_session(&[random_bits(12, 64)], honest, at(1, truncate));
    assert!(matches!(sender_error(s), OtError::Malformed { step: "kos15 columns", .. }));
    let (s, _, _) = correlated_session(&[random_bits(12, 64)], honest, at(2, truncate));
    assert!(matches!(sender_error(s), OtError::Malformed { step: "kos15 receiver coin", .. }));
    let (s, _, _) = correlated_session(&[random_bits(12, 64)], honest, at(3, |m: &mut Vec<u8>| m.push(0)));
    assert!(matches!(sender_error(s), OtError::Malformed { step: "kos15 check", .. }));
    let (_, r, _) = correlated_session(&[random_bits(12, 64)], at(1, truncate), honest);
    assert!(matches!(r.unwrap_err(), OtError::Malformed { step: "kos15 coin commitment", .. }));
    let (_, r, _) = correlated_session(&[random_bits(12, 64)], at(2, truncate), honest);
    assert!(matches!(r.unwrap_err(), OtError::Malformed { step: "kos15 coin opening", .. }));
}

#[test]
fn an_instance_that_failed_refuses_further_use() {
    let outs = run_session(2, |net| async move {
        let mut rng = seeded_rng(net.party() as u64);
        if net.party() == SENDER {
            let mut net = Tamper::honest(net);
            let mut s = OtExtSender::setup(&mut net, RECEIVER, SESSION, &mut rng).await.unwrap();
            let first = s.extend_correlated(&mut net, 64, &mut rng).await.map(|_| ());
            let again = s.extend_correlated(&mut net, 64, &mut rng).await.map(|_| ());
            (first, again)
        } else {
            let mut net = Tamper::new(net, at(3, flip(0, 0)));
            let mut r = OtExtReceiver::setup(&mut net, SENDER, SESSION, &mut rng).await.unwrap();
            let choices = random_bits(13, 64);
            let first = r.extend_correlated(&mut net, &choices, &mut rng).await.map(|_| ());
            (first, Ok(()))
        }
    });
    assert_eq!(outs[0].0, Err(OtError::CheckFailed { check: "kos15 correlation check" }));
    assert!(matches!(outs[0].1, Err(OtError::InvalidRequest(_))));
}

#[test]
fn check_sums_drawn_in_coin_chunks_equal_the_sums_over_all_coefficients() {
    let n = 2 * COIN_CHUNK + 100;
    let mut rng = seeded_rng(41);
    let rows: Vec<Block> =
        (0..n).map(|_| u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())).collect();
    let r = pack_bits(random_bits(42, n).into_iter(), n.div_ceil(64));
    let seed = 0x5eed_u128;
    let chis = crate::ot::prg::Prg::new(seed).blocks(n);
    let backend = Backend::detect();
    let want_sum = backend.xor_sum_of_products128(&chis, &rows);
    let want_x = (0..n).filter(|&j| (r[j / 64] >> (j % 64)) & 1 == 1).fold(0u128, |x, j| x ^ chis[j]);
    let (x, sum) = coin_sum(backend, &mut crate::ot::prg::Prg::new(seed), Some(&r), &rows);
    assert_eq!((x, sum), (want_x, want_sum));
    let (_, sum) = coin_sum(backend, &mut crate::ot::prg::Prg::new(seed), None, &rows);
    assert_eq!(sum, want_sum);
}
