//! n-party TinyOT tests: the pairwise MAC relations of authenticated bits and triples among 2, 3
//! and 4 parties, `z = x·y`, MAC-checked openings, bad requests — and deviations at every step
//! (inside the engine and on the wire), each making every honest party fail with a typed error
//! before any material is returned.

use super::*;
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::tamper::Tamper;
use crate::ot::tinyot::{mask, SOFTSPOKEN_K};
use crate::rng::seeded_rng;

const SESSION: &[u8] = b"n-tinyot-tests";
const SOFT: Extension = Extension::SoftSpoken { k: SOFTSPOKEN_K };

#[derive(Clone, Copy)]
enum Op {
    /// Set up only.
    Setup,
    Abits(usize),
    Triples(usize),
    /// Authenticated bits, then their opening.
    Open(usize),
}

/// What a party ends with: its bits (one batch, or a triple's three) and what was opened.
type Out = (Vec<NBits>, Vec<bool>);

/// A party's wire edit (`(index of the sent message, the message)`).
type Edit = fn(u64, &mut Vec<u8>);

/// Runs `op` at each of `n` parties after the setup; `cheats` are the parties that deviate inside
/// the engine, `edit` one that deviates on the wire. Each party returns its result, its `Δ` and
/// the messages it sent in the setup.
fn run(
    n: usize,
    extension: Extension,
    op: Op,
    cheats: &[(PartyId, Cheat)],
    edit: Option<(PartyId, Edit)>,
) -> Vec<Result<(Out, Block, u64), OtError>> {
    run_session(n, |net: MemoryNetwork| async move {
        let me = net.party();
        let mut rng = seeded_rng(70 + me as u64);
        let mut net = match edit {
            Some((p, f)) if p == me => Tamper::new(net, f),
            _ => Tamper::honest(net),
        };
        let mut t = match cheats.iter().find(|c| c.0 == me) {
            Some(&(_, cheat)) => {
                MultiTinyOt::setup_cheating(&mut net, SESSION, extension, &mut rng, cheat).await?
            }
            None => MultiTinyOt::setup(&mut net, SESSION, extension, &mut rng).await?,
        };
        let setup_messages = net.stats().messages_sent;
        let out = match op {
            Op::Setup => (Vec::new(), Vec::new()),
            Op::Abits(count) => (vec![t.abits(&mut net, count, &mut rng).await?], Vec::new()),
            Op::Triples(count) => (t.and_triples(&mut net, count, &mut rng).await?.to_vec(), Vec::new()),
            Op::Open(count) => {
                let bits = t.abits(&mut net, count, &mut rng).await?;
                let opened = t.open(&mut net, &bits).await?;
                (vec![bits], opened)
            }
        };
        Ok((out, t.delta(), setup_messages))
    })
}

/// Checks every pairwise MAC relation of batch `k` of every party's output and returns the bits'
/// values (the XOR of the shares).
fn values(parts: &[(Out, Block, u64)], k: usize) -> Vec<bool> {
    let n = parts.len();
    let len = parts[0].0 .0[k].len();
    (0..len)
        .map(|e| {
            let mut v = false;
            for i in 0..n {
                let x = &parts[i].0 .0[k];
                assert_eq!(x.len(), len);
                for j in (0..n).filter(|&j| j != i) {
                    let (y, delta_j) = (&parts[j].0 .0[k], parts[j].1);
                    assert_eq!(
                        x.mac(e, j),
                        y.key(e, i) ^ (delta_j & mask(x.bit(e))),
                        "M_{j}[x^{i}] of bit {e}"
                    );
                }
                v ^= x.bit(e);
            }
            v
        })
        .collect()
}

fn honest(results: Vec<Result<(Out, Block, u64), OtError>>) -> Vec<(Out, Block, u64)> {
    results.into_iter().map(|r| r.expect("an honest run succeeds")).collect()
}

#[test]
fn authenticated_bits_carry_pairwise_macs_for_two_to_four_parties() {
    for (n, extension) in [(2, SOFT), (3, SOFT), (3, Extension::Kos15), (4, SOFT)] {
        let parts = honest(run(n, extension, Op::Abits(1000), &[], None));
        let ones = values(&parts, 0).iter().filter(|&&b| b).count();
        assert!((400..600).contains(&ones), "{ones} of 1000 random bits are 1 ({n} parties)");
        let deltas: Vec<Block> = parts.iter().map(|p| p.1).collect();
        assert!(deltas.iter().all(|&d| d != 0) && deltas[0] != deltas[1]);
    }
}

#[test]
fn and_triples_multiply_and_carry_valid_macs() {
    for (n, count) in [(3, 1), (3, 1500), (4, 200), (2, 100)] {
        let parts = honest(run(n, SOFT, Op::Triples(count), &[], None));
        let [x, y, z] = [0, 1, 2].map(|k| values(&parts, k));
        assert_eq!(x.len(), count);
        let mut seen = [[0usize; 2]; 2];
        for t in 0..count {
            assert_eq!(z[t], x[t] & y[t], "triple {t} of {count}, {n} parties");
            seen[x[t] as usize][y[t] as usize] += 1;
        }
        if count >= 1500 {
            assert!(seen.iter().flatten().all(|&s| s > 250), "x, y uniform: {seen:?}");
        }
    }
}

#[test]
fn openings_reveal_the_shared_values_to_every_party() {
    let parts = honest(run(4, SOFT, Op::Open(300), &[], None));
    let v = values(&parts, 0);
    for p in &parts {
        assert_eq!(p.0 .1, v);
    }
}

#[test]
fn bad_requests_are_refused() {
    let out = run_session(9, |mut net: MemoryNetwork| async move {
        MultiTinyOt::setup(&mut net, SESSION, SOFT, &mut seeded_rng(1)).await.map(|_| ())
    });
    assert!(out.iter().all(|r| matches!(r, Err(OtError::InvalidRequest(m)) if m.contains("2 to 8"))));
    let out = run(3, SOFT, Op::Triples(MAX_TRIPLES + 1), &[], None);
    assert!(out.iter().all(|r| matches!(r, Err(OtError::InvalidRequest(m)) if m.contains("at most"))));
}

/// Runs `op` among `n` parties with `cheats` and asserts that every honest party fails the check
/// `check` (one of `checks`).
fn caught(n: usize, op: Op, cheats: &[(PartyId, Cheat)], checks: &[&str]) {
    for (i, r) in run(n, SOFT, op, cheats, None).into_iter().enumerate() {
        if cheats.iter().any(|c| c.0 == i) {
            continue;
        }
        match r {
            Err(OtError::CheckFailed { check }) => {
                assert!(checks.contains(&check), "party {i} failed '{check}', expected one of {checks:?}")
            }
            other => panic!(
                "party {i} of {n} with {cheats:?}: expected a failed check, got {:?}",
                other.map(|_| ())
            ),
        }
    }
}

#[test]
fn a_share_used_differently_with_one_peer_fails_the_consistency_check() {
    caught(
        3,
        Op::Abits(500),
        &[(0, Cheat::InconsistentBit { peer: 2, index: 17 })],
        &["n-party abit consistency"],
    );
    caught(
        4,
        Op::Triples(10),
        &[(3, Cheat::InconsistentBit { peer: 1, index: 0 })],
        &["n-party abit consistency"],
    );
}

#[test]
fn another_delta_towards_one_peer_fails_the_consistency_check() {
    caught(3, Op::Abits(200), &[(1, Cheat::InconsistentDelta { peer: 0 })], &["n-party abit consistency"]);
}

#[test]
fn wrong_half_authenticated_products_fail_the_leaky_and_check() {
    caught(3, Op::Triples(50), &[(2, Cheat::HalfAnd { peer: 0 })], &["n-party leaky-AND check"]);
    caught(4, Op::Triples(50), &[(1, Cheat::Product { peer: 3 })], &["n-party leaky-AND check"]);
}

#[test]
fn equivocating_the_broadcast_of_e_fails_the_leaky_and_check() {
    caught(
        3,
        Op::Triples(50),
        &[(0, Cheat::EquivocateE { peer: 1, index: 9 })],
        &["n-party leaky-AND check", "n-party leaky-AND openings"],
    );
}

#[test]
fn a_flipped_bucket_opening_towards_one_peer_fails_every_party() {
    caught(4, Op::Triples(20), &[(2, Cheat::Opening { peer: 1, index: 3 })], &["n-party bucket opening"]);
    caught(3, Op::Open(64), &[(1, Cheat::Opening { peer: 0, index: 63 })], &["n-party TinyOT opening"]);
}

#[test]
fn opening_other_than_committed_fails_the_commitment() {
    caught(3, Op::Abits(10), &[(2, Cheat::Reopen)], &["n-party TinyOT commitment"]);
}

#[test]
fn two_colluding_cheaters_among_four_are_caught() {
    let cheats = [
        (0, Cheat::InconsistentBit { peer: 2, index: 5 }),
        (1, Cheat::InconsistentBit { peer: 3, index: 5 }),
    ];
    caught(4, Op::Triples(30), &cheats, &["n-party abit consistency"]);
    let cheats = [(1, Cheat::HalfAnd { peer: 3 }), (2, Cheat::Product { peer: 0 })];
    caught(4, Op::Triples(30), &cheats, &["n-party leaky-AND check"]);
}

/// The messages party 0 sends in the setup with `n` parties.
fn setup_messages(n: usize) -> u64 {
    honest(run(n, SOFT, Op::Setup, &[], None))[0].2
}

#[test]
fn truncated_and_replayed_frames_are_refused() {
    // Party 0's first frame after the setup (its first OT-extension frame to party 1), and its
    // next frame to party 1 (the pairs run at once: the frame between goes to party 2).
    let first = setup_messages(3);
    fn truncate_first(i: u64, m: &mut Vec<u8>) {
        if i == FIRST.with(|f| f.get()) {
            m.truncate(m.len() / 2);
        }
    }
    fn replay_first(i: u64, m: &mut Vec<u8>) {
        thread_local!(static KEPT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) });
        let f = FIRST.with(|f| f.get());
        if i == f {
            KEPT.with(|k| *k.borrow_mut() = m.clone());
        } else if i == f + 2 {
            KEPT.with(|k| *m = k.borrow().clone());
        }
    }
    thread_local!(static FIRST: std::cell::Cell<u64> = const { std::cell::Cell::new(0) });
    FIRST.with(|f| f.set(first));
    for edit in [truncate_first as Edit, replay_first as Edit] {
        let out = run(3, SOFT, Op::Triples(10), &[], Some((0, edit)));
        for (i, r) in out.iter().enumerate().skip(1) {
            assert!(r.is_err(), "party {i} must not finish after party 0's edited frame");
        }
        assert!(
            matches!(out[1], Err(OtError::Malformed { .. }) | Err(OtError::CheckFailed { .. })),
            "party 1 names the frame or the check: {:?}",
            out[1].as_ref().map(|_| ())
        );
    }
}
