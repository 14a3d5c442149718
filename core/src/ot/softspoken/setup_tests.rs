//! Tests of [`setup_with_peers`] over the in-memory network: among 2, 3 and 4 parties every
//! ordered pair's instances are correlated in both directions (primary and bootstrapped
//! secondary), a party's bytes and messages are exact, and a primary receiver that deviates in
//! the bootstrap OTs is caught by the primary sender's correlation check.

use super::super::LEVEL_SUMS_BYTES;
use super::*;
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::tamper::Tamper;
use crate::net::NetStats;
use crate::ot::Extension;
use crate::rng::seeded_rng;
use rand_core::RngCore;

const K: u8 = 4;

fn tag(from: PartyId, to: PartyId) -> Vec<u8> {
    [b"setup-tests/".as_slice(), &[from as u8, to as u8]].concat()
}

/// Party `i`'s `Δ`: every 4-bit block non-zero, so a flipped correction is always seen.
fn delta_of(i: PartyId) -> Block {
    0x1111_1111_1111_1111_1111_1111_1111_1111u128 * (i as u128 + 1)
}

fn choices_of(i: PartyId, j: PartyId, len: usize) -> Vec<bool> {
    let mut rng = seeded_rng((10 * i + j) as u64 + 900);
    (0..len).map(|_| rng.next_u32() & 1 == 1).collect()
}

type Rows = Vec<(Vec<Block>, Vec<Block>)>;

/// Sets up among `n` parties (party `cheater`'s messages through `edit`), then one extension of
/// `len` OTs both ways with every peer; per party its rows by peer and its setup's traffic.
fn session(
    n: usize,
    len: usize,
    cheater: Option<PartyId>,
    edit: fn(u64, &mut [u8]),
) -> Vec<Result<(Rows, NetStats), OtError>> {
    run_session(n, |net: MemoryNetwork| async move {
        let me = net.party();
        let mut rng = seeded_rng(me as u64 + 700);
        let mut net = Tamper::new(net, move |i, m: &mut Vec<u8>| {
            if cheater == Some(me) {
                edit(i, m)
            }
        });
        let mut ends = setup_with_peers(&mut net, tag, K, |_| delta_of(me), &mut rng).await?;
        let setup = net.stats();
        let choices: Vec<Vec<bool>> = (0..n).map(|j| choices_of(me, j, len)).collect();
        let peers = ends
            .iter_mut()
            .enumerate()
            .filter_map(|(j, e)| e.as_mut().map(|(s, r)| (j, s, r)))
            .map(|(peer, s, r)| PeerEnds {
                peer,
                sender: Some((s, len)),
                receiver: Some((r, &choices[peer][..])),
            })
            .collect();
        let mut rows = extend_with_peers(&mut net, peers, &mut rng).await?;
        rows.insert(me, (Vec::new(), Vec::new()));
        Ok((rows, setup))
    })
}

#[test]
fn every_ordered_pair_is_correlated_in_both_directions() {
    for n in [2, 3, 4] {
        let out: Vec<_> = session(n, 1000, None, |_, _| {}).into_iter().map(Result::unwrap).collect();
        for i in 0..n {
            for j in (0..n).filter(|&j| j != i) {
                // i's sender rows towards j against j's receiver rows from i.
                let (q, t, c) = (&out[i].0[j].0, &out[j].0[i].1, choices_of(j, i, 1000));
                assert_eq!((q.len(), t.len()), (1000, 1000), "{n} parties, {i} → {j}");
                for (l, ((&q, &t), &c)) in q.iter().zip(t).zip(&c).enumerate() {
                    assert_eq!(t, q ^ if c { delta_of(i) } else { 0 }, "{n} parties, {i} → {j}, OT {l}");
                }
            }
        }
    }
}

#[test]
fn a_party_sends_one_batch_of_base_ots_per_pair_exactly() {
    let ext = Extension::SoftSpoken { k: K };
    let ([sender, receiver], [opening, bootstrap]) = (ext.setup_bytes(), ext.extension_bytes(KAPPA));
    // Leading a pair: base-OT points and commitment, the bootstrap's coin opening, the
    // secondary's level sums; following: base-OT key and level sums, the bootstrap's
    // corrections, seed and check, the secondary's commitment.
    let lead = sender + opening + LEVEL_SUMS_BYTES;
    let follow = receiver + bootstrap + 32;
    for n in [2, 3, 4] {
        for (me, out) in session(n, 10, None, |_, _| {}).into_iter().enumerate() {
            let stats = out.unwrap().1;
            let leads = (0..n).filter(|&j| j != me && leads(me, j, n)).count();
            let follows = n - 1 - leads;
            assert_eq!(stats.bytes_sent, (leads * lead + follows * follow) as u64, "{n} parties, party {me}");
            assert_eq!(stats.messages_sent, (leads * 4 + follows * 6) as u64, "{n} parties, party {me}");
        }
    }
    // With three parties each leads one pair and follows in the other.
    assert!((0..3).all(|me| (0..3).filter(|&j| j != me && leads(me, j, 3)).count() == 1));
}

#[test]
fn a_wrong_bootstrap_correction_fails_the_primary_senders_check() {
    // Between two parties party 1 follows: its messages are the base-OT key (0), the level
    // sums (1), then the bootstrap's corrections (2).
    fn flip(i: u64, m: &mut [u8]) {
        if i == 2 {
            m[3] ^= 0x10;
        }
    }
    let out = session(2, 10, Some(1), flip);
    assert_eq!(
        out[0].as_ref().map(|_| ()).unwrap_err(),
        &OtError::CheckFailed { check: "softspoken correlation check" }
    );
    assert!(out[1].is_err(), "the cheater gets no rows either");
}
