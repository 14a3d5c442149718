//! Replicated-sharing building blocks: inputs, batched multiplication, GF(2^8) inversion, and a
//! property test of products and linear combinations.

use super::*;

#[test]
fn input_from_each_owner_costs_two_elements_per_value_from_the_owner_only() {
    let values = gf(&(0..=255u8).collect::<Vec<_>>());
    for owner in 0..3 {
        let results = run_session(3, |mut net| {
            let values = &values;
            async move {
                let mut party = setup(&mut net, 1).await;
                let before = net.stats();
                let mine = (net.party() == owner).then_some(&values[..]);
                let shares = party.input(&mut net, owner, mine, values.len()).await.unwrap();
                (shares, net.stats().since(&before))
            }
        });
        let shares: Vec<Vec<RssShare>> = results.iter().map(|r| r.0.clone()).collect();
        assert_eq!(reconstruct_all(&shares), values, "owner {owner}");
        for (p, (_, stats)) in results.iter().enumerate() {
            let expected_bytes = if p == owner { 2 * 256 } else { 0 };
            assert_eq!(stats.bytes_sent, expected_bytes, "owner {owner}, party {p}");
        }
        // Non-owners' shares of different inputs are not the input itself (masked by PRSS).
        assert_ne!(shares[(owner + 1) % 3].iter().map(|s| s.second()).collect::<Vec<_>>(), values);
    }
}

#[test]
fn input_errors_are_typed() {
    let results = run_session(3, |mut net| async move {
        let mut party = setup(&mut net, 2).await;
        let me = net.party();
        let wrong_len = party.input(&mut net, me, Some(&[Gf256(1)]), 2).await;
        let missing = party.input(&mut net, me, None, 1).await;
        let unknown = party.input(&mut net, 3, None, 1).await;
        (me, wrong_len, missing, unknown)
    });
    for (p, wrong_len, missing, unknown) in results {
        assert_eq!(wrong_len, Err(MaestroError::BadInput { owner: p, expected: 2, supplied: Some(1) }));
        assert_eq!(missing, Err(MaestroError::BadInput { owner: p, expected: 1, supplied: None }));
        assert_eq!(unknown, Err(MaestroError::UnknownParty(3)));
    }
}

#[test]
fn batched_multiplication_is_correct_with_one_message_per_party() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let n = 500;
    let x: Vec<Gf256> = (0..n).map(|_| Gf256::random(&mut rng)).collect();
    let y: Vec<Gf256> = (0..n).map(|_| Gf256::random(&mut rng)).collect();
    let dealt: Vec<[Vec<RssShare>; 2]> = {
        let mut per_party: Vec<[Vec<RssShare>; 2]> = (0..3).map(|_| [Vec::new(), Vec::new()]).collect();
        for (a, b) in x.iter().zip(&y) {
            let (sa, sb) = (RssShare::deal(*a, &mut rng), RssShare::deal(*b, &mut rng));
            for p in 0..3 {
                per_party[p][0].push(sa[p]);
                per_party[p][1].push(sb[p]);
            }
        }
        per_party
    };
    let results = run_session(3, |mut net| {
        let dealt = &dealt;
        async move {
            let mut party = setup(&mut net, 3).await;
            let before = net.stats();
            let [a, b] = &dealt[net.party()];
            let z = party.mul(&mut net, a, b).await.unwrap();
            (z, net.stats().since(&before))
        }
    });
    let z: Vec<Vec<RssShare>> = results.iter().map(|r| r.0.clone()).collect();
    let expected: Vec<Gf256> = x.iter().zip(&y).map(|(a, b)| *a * *b).collect();
    assert_eq!(reconstruct_all(&z), expected);
    for (_, stats) in &results {
        assert_eq!((stats.bytes_sent, stats.messages_sent, stats.rounds), (n as u64, 1, 1));
    }
}

#[test]
fn mismatched_operands_are_an_error() {
    let results = run_session(3, |mut net| async move {
        let mut party = setup(&mut net, 4).await;
        let a = vec![RssShare::zero(net.party()); 3];
        party.mul(&mut net, &a, &a[..2]).await.map(|_| ())
    });
    for r in results {
        assert_eq!(r, Err(MaestroError::OperandLengthMismatch { left: 3, right: 2 }));
    }
}

#[test]
fn gf256_inversion_is_exhaustively_correct_in_three_rounds() {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let dealt: Vec<[RssShare; 3]> = (0..=255u8).map(|v| RssShare::deal(Gf256(v), &mut rng)).collect();
    let results = run_session(3, |mut net| {
        let x: Vec<RssShare> = dealt.iter().map(|d| d[net.party()]).collect();
        async move {
            let mut party = setup(&mut net, 5).await;
            let before = net.stats();
            let inv = gf256_circuit::inverse(&mut party, &mut net, &x).await.unwrap();
            (inv, net.stats().since(&before))
        }
    });
    let inv = reconstruct_all(&results.iter().map(|r| r.0.clone()).collect::<Vec<_>>());
    for (v, inv) in inv.iter().enumerate() {
        assert_eq!(*inv, Gf256(v as u8).inverse(), "inverse of {v:#04x}");
    }
    for r in &results {
        // 4 multiplications per S-box, one byte each, in three rounds.
        assert_eq!((r.1.bytes_sent, r.1.rounds), (4 * 256, 3));
    }
}

#[test]
fn property_multiplication_and_linear_combinations_open_correctly() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    // Deterministic runner: a failing case reproduces on every run.
    let mut runner = TestRunner::new_with_rng(
        Config { cases: 48, ..Config::default() },
        proptest::test_runner::TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
    );
    let strategy = (proptest::collection::vec((any::<u8>(), any::<u8>()), 0..24), any::<u8>(), any::<u64>());
    runner
        .run(&strategy, |(pairs, c, seed)| {
            let mut rng = ChaCha20Rng::seed_from_u64(seed);
            let dealt: Vec<([RssShare; 3], [RssShare; 3])> = pairs
                .iter()
                .map(|&(x, y)| (RssShare::deal(Gf256(x), &mut rng), RssShare::deal(Gf256(y), &mut rng)))
                .collect();
            let results = run_session(3, |mut net| {
                let p = net.party();
                let x: Vec<RssShare> = dealt.iter().map(|d| d.0[p]).collect();
                let y: Vec<RssShare> = dealt.iter().map(|d| d.1[p]).collect();
                async move {
                    let mut party = setup(&mut net, seed).await;
                    let xy = party.mul(&mut net, &x, &y).await.unwrap();
                    // x·y + c·x + y + c, all local after the product.
                    let combined: Vec<RssShare> = xy
                        .iter()
                        .zip(&x)
                        .zip(&y)
                        .map(|((&xy, &x), &y)| xy + x.mul_public(c) + y.add_public(c))
                        .collect();
                    party.open(&mut net, &combined).await.unwrap()
                }
            });
            let expected: Vec<Gf256> = pairs
                .iter()
                .map(|&(x, y)| Gf256(x) * Gf256(y) + Gf256(x) * Gf256(c) + Gf256(y) + Gf256(c))
                .collect();
            for opened in results {
                prop_assert_eq!(&opened, &expected);
            }
            Ok(())
        })
        .unwrap();
}
