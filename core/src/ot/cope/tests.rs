//! COPE tests: `q_j = t_j + Δ·x_j` for random inputs (property test), exact bytes, and deviations
//! by either party, each caught with a typed error naming the check or step.

use super::*;
use crate::net::memory::run_session;
use crate::net::tamper::Tamper;
use crate::rng::seeded_rng;
use proptest::prelude::*;

type Outcome = (Result<(Gf128, Vec<Gf128>), OtError>, Result<Vec<Gf128>, OtError>);

/// Party 0 is the sender, party 1 the receiver with inputs `xs`; `edit` applies to `cheater`'s
/// sent messages.
fn run(xs: &[Gf128], cheater: Option<usize>, edit: impl FnMut(u64, &mut Vec<u8>) + Clone) -> Outcome {
    let out = run_session(2, |net| {
        let edit = edit.clone();
        async move {
            let party = net.party();
            let mut rng = seeded_rng(60 + party as u64);
            let mut net = if cheater == Some(party) { Tamper::new(net, edit) } else { Tamper::honest(net) };
            if party == 0 {
                let s = async {
                    let mut s = CopeSender::setup(&mut net, 1, b"cope-tests", &mut rng).await?;
                    let q = s.authenticate(&mut net, xs.len(), &mut rng).await?;
                    Ok((s.delta(), q))
                }
                .await;
                (Some(s), None)
            } else {
                let r = async {
                    let mut r = CopeReceiver::setup(&mut net, 0, b"cope-tests", &mut rng).await?;
                    r.authenticate(&mut net, xs, &mut rng).await
                }
                .await;
                (None, Some(r))
            }
        }
    });
    let mut it = out.into_iter();
    let (s, r) = (it.next().unwrap().0.unwrap(), it.next().unwrap().1.unwrap());
    (s, r)
}

fn honest(_: u64, _: &mut Vec<u8>) {}

fn elements(seed: u64, n: usize) -> Vec<Gf128> {
    let mut rng = seeded_rng(seed);
    let mut word = || rand_core::RngCore::next_u64(&mut rng) as u128;
    (0..n).map(|_| Gf128::new(word() | word() << 64)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]
    #[test]
    fn cope_outputs_share_delta_times_x(n in 1usize..40, seed in any::<u64>()) {
        let xs = elements(seed, n);
        let (s, r) = run(&xs, None, honest);
        let ((delta, q), t) = (s.unwrap(), r.unwrap());
        for j in 0..n {
            prop_assert_eq!(q[j], t[j] + delta * xs[j]);
        }
    }
}

#[test]
fn combine_is_the_sum_of_x_powers() {
    let v: Vec<Block> =
        (0..128u128).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)).collect();
    let mut want = Gf128::new(0);
    let mut x_i = Gf128::new(1);
    for &vi in &v {
        want += x_i * Gf128::new(vi);
        x_i *= Gf128::new(2);
    }
    assert_eq!(combine(v.into_iter()), want);
}

// Message indices: the receiver sends the base-OT key (0), its columns (1), its coin (2) and the
// check (3); the sender the base-OT points (0), its commitment (1) and the coin opening (2).

fn at(target: u64, edit: impl Fn(&mut Vec<u8>) + Clone) -> impl FnMut(u64, &mut Vec<u8>) + Clone {
    move |i, m| {
        if i == target {
            edit(m)
        }
    }
}

const CHECK: OtError = OtError::CheckFailed { check: "cope random-combination check" };

#[test]
fn a_receiver_using_different_inputs_in_different_columns_is_caught() {
    // Element 0 takes another value in columns 0..64 only (a wrong COPE correlation).
    let xs = elements(1, 5);
    let m = xs.len() + 1;
    let edit = at(1, move |msg: &mut Vec<u8>| {
        for col in 0..64 {
            msg[16 * (col * m)] ^= 1;
        }
    });
    assert_eq!(run(&xs, Some(1), edit).0.unwrap_err(), CHECK);
}

#[test]
fn a_wrong_check_message_is_caught() {
    for byte in [0, 20] {
        assert_eq!(
            run(&elements(2, 3), Some(1), at(3, move |m: &mut Vec<u8>| m[byte] ^= 8)).0.unwrap_err(),
            CHECK
        );
    }
}

#[test]
fn a_sender_opening_another_coin_is_caught() {
    let (_, r) = run(&elements(3, 3), Some(0), at(2, |m: &mut Vec<u8>| m[0] ^= 1));
    assert_eq!(r.unwrap_err(), OtError::CheckFailed { check: "cope sender coin commitment" });
}

#[test]
fn exact_bytes_and_malformed_messages() {
    let xs = elements(4, 10);
    let out = run_session(2, |mut net| {
        let xs = &xs;
        async move {
            let mut rng = seeded_rng(net.party() as u64);
            if net.party() == 0 {
                let mut s = CopeSender::setup(&mut net, 1, b"b", &mut rng).await.unwrap();
                let before = net.stats().bytes_sent;
                s.authenticate(&mut net, xs.len(), &mut rng).await.unwrap();
                net.stats().bytes_sent - before
            } else {
                let mut r = CopeReceiver::setup(&mut net, 0, b"b", &mut rng).await.unwrap();
                let before = net.stats().bytes_sent;
                r.authenticate(&mut net, xs, &mut rng).await.unwrap();
                net.stats().bytes_sent - before
            }
        }
    });
    assert_eq!(out, vec![64, 2048 * 11 + 32 + 32]);
    let cut = |m: &mut Vec<u8>| {
        m.pop();
    };
    let step = |e: OtError| match e {
        OtError::Malformed { step, .. } => step,
        other => panic!("expected a malformed-message error, got {other:?}"),
    };
    assert_eq!(step(run(&xs, Some(1), at(1, cut)).0.unwrap_err()), "cope columns");
    assert_eq!(step(run(&xs, Some(1), at(2, cut)).0.unwrap_err()), "cope receiver coin");
    assert_eq!(step(run(&xs, Some(1), at(3, cut)).0.unwrap_err()), "cope check");
    assert_eq!(step(run(&xs, Some(0), at(1, cut)).1.unwrap_err()), "cope coin commitment");
    assert_eq!(step(run(&xs, Some(0), at(2, cut)).1.unwrap_err()), "cope coin opening");
}
