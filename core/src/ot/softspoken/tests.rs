//! SoftSpoken tests over the in-memory network: the correlation `t_j = q_j ⊕ r_j·Δ` for every
//! `k`, sizes and chunk boundaries, pinned `Δ`, exact bytes against [`Extension`]'s formulas,
//! the folding against its definition, and deviations by either party — each detected with a
//! typed error naming the step, after which the instance refuses further use.

use super::*;
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::tamper::Tamper;
use crate::net::{NetStats, Network};
use crate::ot::Extension;
use crate::rng::seeded_rng;
use rand_core::RngCore;

const SESSION: &[u8] = b"softspoken-tests";
const SENDER: usize = 0;
const RECEIVER: usize = 1;
const CHECK: OtError = OtError::CheckFailed { check: "softspoken correlation check" };

// Message indices. Receiver: base-OT key (0), GGM level sums (1), then per extension its
// correction chunks, its coin and its check. Sender: base-OT points (0), commitment (1), then one
// coin opening per extension.
const LEVEL_SUMS: u64 = 1;
const FIRST_CHUNK: u64 = 2;

fn random_bits(seed: u64, n: usize) -> Vec<bool> {
    let mut rng = seeded_rng(seed);
    (0..n).map(|_| rng.next_u32() & 1 == 1).collect()
}

type SenderOut = Result<(Block, Vec<Vec<Block>>), OtError>;
type ReceiverOut = Result<Vec<Vec<Block>>, OtError>;

enum Out {
    Sender(SenderOut, NetStats),
    Receiver(ReceiverOut, NetStats),
}

/// Setup with block size `k` (and `Δ` if given), then one correlated extension per entry of
/// `batches`, each party through a [`Tamper`] with its own edit.
fn session(
    k: u8,
    delta: Option<Block>,
    batches: &[Vec<bool>],
    sender_edit: impl FnMut(u64, &mut Vec<u8>) + Clone,
    receiver_edit: impl FnMut(u64, &mut Vec<u8>) + Clone,
) -> (SenderOut, ReceiverOut, [NetStats; 2]) {
    let outs = run_session(2, |net: MemoryNetwork| {
        let (se, re) = (sender_edit.clone(), receiver_edit.clone());
        async move {
            let mut rng = seeded_rng(net.party() as u64 + 200);
            if net.party() == SENDER {
                let mut net = Tamper::new(net, se);
                let out = async {
                    let mut s = match delta {
                        Some(d) => {
                            SoftSpokenSender::setup_with_delta(&mut net, RECEIVER, SESSION, k, d, &mut rng)
                                .await?
                        }
                        None => SoftSpokenSender::setup(&mut net, RECEIVER, SESSION, k, &mut rng).await?,
                    };
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
                    let mut r = SoftSpokenReceiver::setup(&mut net, SENDER, SESSION, k, &mut rng).await?;
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

fn at(target: u64, mut edit: impl FnMut(&mut Vec<u8>) + Clone) -> impl FnMut(u64, &mut Vec<u8>) + Clone {
    move |i, m| {
        if i == target {
            edit(m)
        }
    }
}

fn assert_correlated(delta: Block, q: &[Block], t: &[Block], choices: &[bool]) {
    assert_eq!(q.len(), choices.len());
    assert_eq!(t.len(), choices.len());
    for (j, ((&q, &t), &c)) in q.iter().zip(t).zip(choices).enumerate() {
        assert_eq!(t, q ^ if c { delta } else { 0 }, "OT {j}");
    }
}

/// Runs honestly and checks every batch's correlation; returns `Δ`.
fn assert_session_correlated(k: u8, delta: Option<Block>, batches: &[Vec<bool>]) -> Block {
    let (s, r, _) = session(k, delta, batches, honest, honest);
    let (d, q) = s.unwrap();
    let t = r.unwrap();
    for (b, choices) in batches.iter().enumerate() {
        assert_correlated(d, &q[b], &t[b], choices);
    }
    d
}

#[test]
fn correlation_holds_for_every_k_size_and_consecutive_extensions() {
    for k in SUPPORTED_K {
        for (i, n) in [1usize, 127, 128, 700, 1000, 4096 + 3].into_iter().enumerate() {
            let batches = [random_bits(i as u64, n), random_bits(50 + i as u64, 300)];
            let d = assert_session_correlated(k, None, &batches);
            assert_ne!(d, 0);
        }
    }
}

#[test]
fn correlation_holds_across_chunk_boundaries() {
    for k in [2u8, 8] {
        let batches = vec![random_bits(1, CHUNK_OTS + 1000), random_bits(2, 5)];
        assert_session_correlated(k, None, &batches);
    }
}

#[test]
fn correlation_holds_with_pinned_delta_bits() {
    // All-zero and all-one blocks, the top bit pinned either way (as TinyOT does), and Δ = 0/1.
    let pinned = [
        0x8000_0000_0000_0000_0000_0000_0000_00ffu128,
        0x7fff_ffff_0000_0000_1234_5678_9abc_def0,
        (1u128 << 127) | 0x0f0f,
        0,
        !0,
    ];
    for k in SUPPORTED_K {
        for (i, &d) in pinned.iter().enumerate() {
            let got = assert_session_correlated(k, Some(d), &[random_bits(10 + i as u64, 500)]);
            assert_eq!(got, d);
        }
    }
}

#[test]
fn later_batches_continue_the_leaf_streams() {
    let batches = [random_bits(3, 64), random_bits(3, 64)];
    let (s, _, _) = session(4, None, &batches, honest, honest);
    let (_, q) = s.unwrap();
    assert_ne!(q[0], q[1]);
}

#[test]
fn fold_matches_its_definition() {
    for k in [1usize, 2, 3, 4, 8] {
        let seeds: Vec<Block> = (0..1u128 << k).map(|x| x * 0x9e37_79b9 + 11).collect();
        for punctured in [false, true] {
            let n = 5;
            let mut streams: Vec<Prg> = seeds[punctured as usize..].iter().map(|&s| Prg::new(s)).collect();
            let mut fold = Fold::new(k);
            fold.run(&mut streams, punctured, n);
            let leaf = |x: usize| if punctured && x == 0 { vec![0; n] } else { Prg::new(seeds[x]).blocks(n) };
            let mut total = vec![0; n];
            let mut columns = vec![vec![0; n]; k];
            for x in 0..1 << k {
                let r = leaf(x);
                for m in 0..n {
                    total[m] ^= r[m];
                    for (c, col) in columns.iter_mut().enumerate() {
                        if (x >> c) & 1 == 1 {
                            col[m] ^= r[m];
                        }
                    }
                }
            }
            assert_eq!(&fold.total[..n], &total[..], "k {k} punctured {punctured}");
            for (c, want) in columns.iter().enumerate() {
                assert_eq!(&fold.columns[c][..n], &want[..], "k {k} column {c}");
            }
        }
    }
}

#[test]
fn exact_bytes_of_setup_and_one_extension_match_the_formulas() {
    for k in SUPPORTED_K {
        let n = 1000;
        let (s, r, [ss, rs]) = session(k, None, &[random_bits(4, n)], honest, honest);
        s.unwrap();
        r.unwrap();
        let ext = Extension::SoftSpoken { k };
        let (setup, one) = (ext.setup_bytes(), ext.extension_bytes(n));
        assert_eq!(ss.bytes_sent, (setup[0] + one[0]) as u64, "k {k} sender");
        assert_eq!(rs.bytes_sent, (setup[1] + one[1]) as u64, "k {k} receiver");
        // By hand: 1280 padded OTs, 128/k corrections of 160 bytes.
        assert_eq!(ext.column_bytes(n), 128 / k as usize * 160);
        assert_eq!(rs.bytes_sent, (32 + 4096 + 128 / k as u64 * 160 + 32 + 48), "k {k}");
        assert_eq!(ss.bytes_sent, 64 * 128 + 32 + 64);
        // Base-OT key, level sums, one chunk, coin, check.
        assert_eq!(rs.messages_sent, 5);
    }
    // k = 1 costs what KOS15 costs per OT.
    assert_eq!(Extension::SoftSpoken { k: 1 }.column_bytes(5000), Extension::Kos15.column_bytes(5000));
    assert_eq!(Extension::SoftSpoken { k: 8 }.column_bytes(CHUNK_OTS), padded_len(CHUNK_OTS) * 2);
}

#[test]
fn unsupported_k_is_an_invalid_request() {
    for k in [0u8, 3, 16, 128] {
        assert!(matches!(Extension::SoftSpoken { k }.validate(), Err(OtError::InvalidRequest(_))));
        let (s, r, _) = session(k, None, &[], honest, honest);
        assert!(matches!(s, Err(OtError::InvalidRequest(_))), "k {k}");
        assert!(matches!(r, Err(OtError::InvalidRequest(_))), "k {k}");
    }
}

// ---- Deviations.

/// `Δ` with block `i` (of `k` bits) equal to `values[i]` for the listed blocks and random bits
/// elsewhere.
fn delta_with_blocks(k: usize, values: &[(usize, u128)]) -> Block {
    let mut d = 0x3c5a_96e1_0f2d_4b78_a1b2_c3d4_e5f6_0718u128;
    for &(i, v) in values {
        let mask = ((1u128 << k) - 1) << (i * k);
        d = (d & !mask) | (v << (i * k));
    }
    d
}

#[test]
fn a_flipped_correction_bit_is_caught_exactly_when_its_block_of_delta_is_nonzero() {
    // Flipping bit j of c_i changes the sender's row j by Δ restricted to block i: harmless iff
    // Δ_i = 0 (the sender then ignores c_i), otherwise seen by the check.
    let (k, n) = (8usize, 300);
    let choices = random_bits(20, n);
    let delta = delta_with_blocks(k, &[(2, 0), (5, 0x80)]);
    let chunk = correction_bytes(k, n) / (KAPPA / k);
    for (block, caught) in [(2usize, false), (5, true)] {
        let edit = at(FIRST_CHUNK, move |m: &mut Vec<u8>| m[block * chunk + 7] ^= 0x10);
        let (s, r, _) = session(k as u8, Some(delta), core::slice::from_ref(&choices), honest, edit);
        if caught {
            assert_eq!(s.unwrap_err(), CHECK, "block {block}");
        } else {
            let (d, q) = s.expect("Δ_i = 0: the sender never reads c_i");
            assert_correlated(d, &q[0], &r.unwrap()[0], &choices);
        }
    }
    // With a random Δ, a flip in every block is caught.
    let edit = at(FIRST_CHUNK, move |m: &mut Vec<u8>| (0..16).for_each(|i| m[i * chunk] ^= 1));
    let (s, _, _) = session(8, None, &[choices], honest, edit);
    assert_eq!(s.unwrap_err(), CHECK);
}

#[test]
fn inconsistent_ggm_level_sums_are_caught() {
    // Both sums of level 1 of block 3 changed: the sender's off-path half of the tree is wrong
    // whatever Δ_3 is, so half of its leaves — and its rows — are wrong.
    for k in [2u8, 4, 8] {
        let ku = k as usize;
        let edit = at(LEVEL_SUMS, move |m: &mut Vec<u8>| {
            let level = 3 * ku;
            m[32 * level] ^= 1;
            m[32 * level + 16] ^= 1;
        });
        let (s, _, _) = session(k, None, &[random_bits(21, 200)], honest, edit);
        assert_eq!(s.unwrap_err(), CHECK, "k {k}");
    }
}

#[test]
fn a_wrong_level_sum_matters_exactly_on_the_off_path_side_which_fixes_the_bit_order() {
    // Changing side b of level l of block i reaches the sender iff its off-path side there is b,
    // i.e. iff its path bit α_l = bit (ik + k − l) of Δ is 1 − b (level 1 = most significant).
    let k = 4usize;
    let i = 6;
    let choices = random_bits(22, 200);
    for (point, level, side) in [(0b1000u128, 1usize, 0usize), (0b1000, 1, 1), (0b0010, 3, 0), (0b0010, 3, 1)]
    {
        let delta = delta_with_blocks(k, &[(i, point)]);
        let alpha = (point >> (k - level)) & 1;
        let edit = at(LEVEL_SUMS, move |m: &mut Vec<u8>| m[32 * (i * k + level - 1) + 16 * side + 5] ^= 4);
        let (s, r, _) = session(k as u8, Some(delta), core::slice::from_ref(&choices), honest, edit);
        if alpha as usize == 1 - side {
            assert_eq!(s.unwrap_err(), CHECK, "point {point:#b} level {level} side {side}");
        } else {
            let (d, q) = s.expect("the on-path side is never read");
            assert_correlated(d, &q[0], &r.unwrap()[0], &choices);
        }
    }
}

#[test]
fn a_tampered_check_message_is_caught() {
    let check_msg = FIRST_CHUNK + 2;
    for byte in [0, 15, 16, 47] {
        let edit = at(check_msg, move |m: &mut Vec<u8>| m[byte] ^= 1);
        let (s, _, _) = session(4, None, &[random_bits(23, 64)], honest, edit);
        assert_eq!(s.unwrap_err(), CHECK, "byte {byte}");
    }
}

#[test]
fn a_sender_opening_another_coin_is_caught() {
    let (_, r, _) = session(8, None, &[random_bits(24, 64)], at(2, |m: &mut Vec<u8>| m[3] ^= 1), honest);
    assert_eq!(r.unwrap_err(), OtError::CheckFailed { check: "softspoken sender coin commitment" });
}

#[test]
fn truncated_or_oversized_frames_give_typed_errors_naming_the_step() {
    let cut = |m: &mut Vec<u8>| {
        m.pop();
    };
    let grow = |m: &mut Vec<u8>| m.push(0);
    let step = |e: OtError| match e {
        OtError::Malformed { step, .. } => step,
        other => panic!("expected a malformed-message error, got {other:?}"),
    };
    let bits = [random_bits(25, 64)];
    for (target, name) in [
        (LEVEL_SUMS, "softspoken ggm level sums"),
        (FIRST_CHUNK, "softspoken corrections"),
        (FIRST_CHUNK + 1, "softspoken receiver coin"),
        (FIRST_CHUNK + 2, "softspoken check"),
    ] {
        for edit in [cut, grow] {
            let (s, _, _) = session(8, None, &bits, honest, at(target, edit));
            assert_eq!(step(s.unwrap_err()), name);
        }
    }
    for (target, name) in [(1, "softspoken coin commitment"), (2, "softspoken coin opening")] {
        for edit in [cut, grow] {
            let (_, r, _) = session(8, None, &bits, at(target, edit), honest);
            assert_eq!(step(r.unwrap_err()), name);
        }
    }
}

#[test]
fn an_instance_that_failed_refuses_further_use() {
    let outs = run_session(2, |net| async move {
        let mut rng = seeded_rng(net.party() as u64);
        if net.party() == SENDER {
            let mut net = Tamper::honest(net);
            let mut s = SoftSpokenSender::setup(&mut net, RECEIVER, SESSION, 8, &mut rng).await.unwrap();
            let first = s.extend_correlated(&mut net, 64, &mut rng).await.map(|_| ());
            let again = s.extend_correlated(&mut net, 64, &mut rng).await.map(|_| ());
            (first, again)
        } else {
            let mut net = Tamper::new(net, at(FIRST_CHUNK, |m: &mut Vec<u8>| m[0] ^= 0xff));
            let mut r = SoftSpokenReceiver::setup(&mut net, SENDER, SESSION, 8, &mut rng).await.unwrap();
            let first = r.extend_correlated(&mut net, &random_bits(26, 64), &mut rng).await.map(|_| ());
            (first, Ok(()))
        }
    });
    assert_eq!(outs[0].0, Err(CHECK));
    assert!(matches!(outs[0].1, Err(OtError::InvalidRequest(_))));
}

/// Both directions between two parties with [`extend_both`]: each party sets up a sender (with
/// `deltas[party]`) and a receiver, then runs one interleaved extension per entry of `batches`
/// (party `p` with choice bits `batches[b][p]`). Party `cheater` sends through `edit`. Returns
/// per party `Δ` and per batch `(q, t)`.
type BothOut = Result<(Block, Vec<(Vec<Block>, Vec<Block>)>), OtError>;
fn both_session(
    k: u8,
    deltas: [Block; 2],
    batches: &[[Vec<bool>; 2]],
    cheater: Option<usize>,
    edit: impl FnMut(u64, &mut Vec<u8>) + Clone,
) -> [BothOut; 2] {
    let outs = run_session(2, |net: MemoryNetwork| {
        let edit = edit.clone();
        async move {
            let me = net.party();
            let mut rng = seeded_rng(me as u64 + 300);
            let mut net = Tamper::new(net, move |i, m: &mut Vec<u8>| {
                let mut edit = edit.clone();
                if cheater == Some(me) {
                    edit(i, m)
                }
            });
            let peer = 1 - me;
            let tag = |from: usize| [SESSION, &[from as u8]].concat();
            let (mut s, mut r) = if me == 0 {
                let s = SoftSpokenSender::setup_with_delta(&mut net, peer, &tag(me), k, deltas[me], &mut rng)
                    .await?;
                (s, SoftSpokenReceiver::setup(&mut net, peer, &tag(peer), k, &mut rng).await?)
            } else {
                let r = SoftSpokenReceiver::setup(&mut net, peer, &tag(peer), k, &mut rng).await?;
                (
                    SoftSpokenSender::setup_with_delta(&mut net, peer, &tag(me), k, deltas[me], &mut rng)
                        .await?,
                    r,
                )
            };
            let mut all = Vec::new();
            for b in batches {
                all.push(extend_both(&mut s, &mut r, &mut net, &b[me], &mut rng).await?);
            }
            Ok((s.delta(), all))
        }
    });
    let mut it = outs.into_iter();
    [it.next().expect("party 0"), it.next().expect("party 1")]
}

#[test]
fn both_directions_at_once_give_correlated_ots_each_way() {
    let deltas = [delta_with_blocks(4, &[]), delta_with_blocks(4, &[(3, 9)]) ^ 0xff];
    // Two batches: the second continues every instance's streams and coins; the first spans
    // a chunk boundary.
    let batches = [
        [random_bits(30, CHUNK_OTS + 700), random_bits(31, CHUNK_OTS + 700)],
        [random_bits(32, 500), random_bits(33, 500)],
    ];
    let [a, b] = both_session(4, deltas, &batches, None, honest);
    let ((da, a), (db, b)) = (a.unwrap(), b.unwrap());
    assert_eq!((da, db), (deltas[0], deltas[1]));
    for (i, batch) in batches.iter().enumerate() {
        // Party 0's sender rows pair with party 1's receiver rows, and the other way round.
        assert_correlated(da, &a[i].0, &b[i].1, &batch[1]);
        assert_correlated(db, &b[i].0, &a[i].1, &batch[0]);
    }
}

#[test]
fn both_directions_at_once_catch_a_flipped_correction_and_a_truncated_chunk() {
    // Every 4-bit block of both Δ is nonzero, so a flip in any block of corrections is seen.
    let deltas = [0x1111_1111_1111_1111_1111_1111_1111_1111u128, 0x2222_2222_2222_2222_2222_2222_2222_2222];
    let batches = [[random_bits(40, 900), random_bits(41, 900)]];
    // Either party's messages: its sender's setup (base-OT points, commitment) and its
    // receiver's (base-OT key, level sums), in one order or the other, then the first chunk of
    // its corrections (4).
    let first_chunk = 4;
    for cheater in [0, 1] {
        let flip = at(first_chunk, |m: &mut Vec<u8>| m[9] ^= 0x04);
        let out = both_session(4, deltas, &batches, Some(cheater), flip);
        assert_eq!(out[1 - cheater].as_ref().unwrap_err(), &CHECK, "cheater {cheater}");
        let cut = at(first_chunk, |m: &mut Vec<u8>| m.truncate(m.len() - 8));
        let out = both_session(4, deltas, &batches, Some(cheater), cut);
        assert!(
            matches!(out[1 - cheater], Err(OtError::Malformed { step: "softspoken corrections", .. })),
            "cheater {cheater}: {:?}",
            out[1 - cheater]
        );
    }
}
