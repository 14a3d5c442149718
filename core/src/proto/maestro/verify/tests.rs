//! Three-party tests of the verification building blocks: coins agree, Protocol 2 accepts
//! correct triples of every kind at the exact documented cost and rejects any single wrong
//! product, and the hash comparison catches split views.

use super::coin::toss;
use super::triples::TripleLog;
use super::verify_log;
use super::view::PublicView;
use crate::field::{Field, Gf16, Gf256};
use crate::net::memory::run_session;
use crate::net::{NetStats, Network};
use crate::proto::maestro::error::{MaestroError, Step};
use crate::proto::maestro::gf16_rss::Rss16;
use crate::proto::maestro::online::Party;
use crate::proto::maestro::packed::Packed;
use crate::proto::maestro::rss::RssShare;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

async fn setup<N: Network>(net: &mut N, seed: u64) -> Party {
    let mut rng = ChaCha20Rng::seed_from_u64(seed * 3 + net.party() as u64);
    Party::setup(net, &mut rng).await.expect("PRSS setup")
}

fn deal16(v: Gf16, rng: &mut ChaCha20Rng) -> [Rss16; 3] {
    let a = Gf16::new(rng.next_u32() as u8);
    let b = Gf16::new(rng.next_u32() as u8);
    let c = [a, b, v + a + b];
    core::array::from_fn(|i| Rss16::new(i, c[i], c[(i + 1) % 3]))
}

/// Which recorded value gets an additive error (in all three parties' shares, i.e. in the
/// secret, as a cheating reshare would cause).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    None,
    Gf256Product(usize),
    /// Entry, then which product of the pair: 0 (a·b), 1 (a·c) or 2 (both, the same error).
    SharedProduct(usize, usize),
    Gf16Product(usize),
    TowerProduct(usize, usize),
    OneHotMonomial(usize, u16),
}

/// Per-party logs with `n8` GF(2^8) triples, `ns` shared-factor GF(2^8) pairs, `n4` GF(2^4)
/// triples, `nt` Eq. (3) entries and `no` one-hot vectors (correct unless `fault`).
fn logs(n8: usize, ns: usize, n4: usize, nt: usize, no: usize, fault: Fault, seed: u64) -> [TripleLog; 3] {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut logs: [TripleLog; 3] = Default::default();
    for k in 0..n8 {
        let (x, y) = (Gf256::random(&mut rng), Gf256::random(&mut rng));
        let err = if fault == Fault::Gf256Product(k) { Gf256(0x40) } else { Gf256(0) };
        let (sx, sy, sz) =
            (RssShare::deal(x, &mut rng), RssShare::deal(y, &mut rng), RssShare::deal(x * y + err, &mut rng));
        for p in 0..3 {
            logs[p].record_gf256(&[sx[p]], &[sy[p]], &[sz[p]]);
        }
    }
    for k in 0..ns {
        let [a, b, c] = [(); 3].map(|_| Gf256::random(&mut rng));
        let mut products = [a * b, a * c];
        if let Fault::SharedProduct(at, which) = fault {
            if at == k {
                for (i, product) in products.iter_mut().enumerate() {
                    if which == i || which == 2 {
                        *product += Gf256(0x1b);
                    }
                }
            }
        }
        let shares = [a, b, c, products[0], products[1]].map(|v| RssShare::deal(v, &mut rng));
        for p in 0..3 {
            let packed = |u: usize, v: usize| Packed::from_shares(p, &[shares[u][p], shares[v][p]]);
            logs[p].record_gf256_shared_packed(&packed(0, 0), &packed(1, 2), &packed(3, 4));
        }
    }
    let r4 = |rng: &mut ChaCha20Rng| Gf16::new(rng.next_u32() as u8);
    for k in 0..n4 {
        let (x, y) = (r4(&mut rng), r4(&mut rng));
        let err = Gf16::new(u8::from(fault == Fault::Gf16Product(k)) * 3);
        let (sx, sy, sz) = (deal16(x, &mut rng), deal16(y, &mut rng), deal16(x * y + err, &mut rng));
        for p in 0..3 {
            logs[p].record_gf16(&[sx[p]], &[sy[p]], &[sz[p]]);
        }
    }
    for k in 0..nt {
        let (h, l, w) = (r4(&mut rng), r4(&mut rng), r4(&mut rng));
        let mut products = [h * l, h * w, (h + l) * w];
        if let Fault::TowerProduct(at, which) = fault {
            if at == k {
                products[which] += Gf16::new(9);
            }
        }
        let shares = [h, l, w, products[0], products[1], products[2]].map(|v| deal16(v, &mut rng));
        for p in 0..3 {
            let s = shares.map(|d| d[p]);
            logs[p].record_tower(s[0], s[1], s[2], s[3], s[4], s[5]);
        }
    }
    for k in 0..no {
        let r = (rng.next_u32() & 15) as u16;
        // Monomials m_S = ∏_{i∈S} rᵢ, then e_j = Σ_{S ⊇ j} m_S (Eq. (4)).
        let mut m: u16 = (0..16u16).filter(|s| r & s == *s).fold(0, |acc, s| acc | 1 << s);
        if let Fault::OneHotMonomial(at, flip) = fault {
            if at == k {
                m ^= flip;
            }
        }
        let e: u16 = (0..16u16)
            .map(|j| ((0..16u16).filter(|s| s & j == j).map(|s| (m >> s) & 1).sum::<u16>() & 1) << j)
            .fold(0, |acc, b| acc | b);
        let (a, b) = ((rng.next_u32() & 0xffff) as u16, (rng.next_u32() & 0xffff) as u16);
        let comps = [a, b, e ^ a ^ b];
        let rs = deal16(Gf16::new(r as u8), &mut rng);
        for p in 0..3 {
            let v = crate::proto::maestro::sbox::one_hot16::OneHot16 {
                r: rs[p],
                e: (comps[p], comps[(p + 1) % 3]),
            };
            logs[p].record_one_hot(&v);
        }
    }
    logs
}

fn run_verify(logs: [TripleLog; 3], seed: u64) -> Vec<(Result<(), MaestroError>, NetStats)> {
    run_session(3, |mut net| {
        let log = logs[net.party()].clone();
        async move {
            let mut party = setup(&mut net, seed).await;
            let mut view = PublicView::new();
            let before = net.stats();
            let result = verify_log(&mut party, &mut net, &mut view, &log).await;
            (result, net.stats().since(&before))
        }
    })
}

/// ⌈log₂ n⌉ for n ≥ 1.
fn halvings(n: usize) -> u64 {
    (usize::BITS - (n - 1).leading_zeros()) as u64
}

#[test]
fn correct_triples_of_every_kind_pass_at_the_documented_cost() {
    for (n8, ns, n4, nt, no) in [
        (1, 0, 0, 0, 0),
        (2, 0, 0, 0, 0),
        (0, 1, 0, 0, 0),
        (3, 2, 1, 1, 0),
        (0, 0, 0, 0, 5),
        (37, 19, 11, 9, 13),
        (700, 0, 0, 0, 0),
    ] {
        let log = logs(n8, ns, n4, nt, no, Fault::None, 7);
        let n = log[0].len();
        assert_eq!(n, n8 + ns + n4 + nt + 2 * no);
        for (p, (result, stats)) in run_verify(log, 8).into_iter().enumerate() {
            assert_eq!(result, Ok(()), "party {p}, {n} triples");
            let k = halvings(n);
            assert_eq!((stats.bytes_sent, stats.rounds), (24 * k + 112, 2 * k + 7), "party {p}, {n} triples");
        }
    }
}

#[test]
fn empty_log_only_compares_views() {
    for (result, stats) in run_verify(Default::default(), 9) {
        assert_eq!(result, Ok(()));
        assert_eq!((stats.bytes_sent, stats.rounds), (64, 1));
    }
}

#[test]
fn any_single_wrong_product_fails_verification_for_every_party() {
    let faults = [
        Fault::Gf256Product(0),
        Fault::Gf256Product(36),
        Fault::SharedProduct(0, 0),
        Fault::SharedProduct(7, 1),
        Fault::SharedProduct(18, 2),
        Fault::Gf16Product(4),
        Fault::TowerProduct(0, 0),
        Fault::TowerProduct(3, 1),
        Fault::TowerProduct(8, 2),
        Fault::OneHotMonomial(0, 1 << 0b0011),
        Fault::OneHotMonomial(5, 1 << 0b1100),
        Fault::OneHotMonomial(12, 1 << 0b0111),
        Fault::OneHotMonomial(7, 1 << 0b1111),
    ];
    for (i, fault) in faults.into_iter().enumerate() {
        let results = run_verify(logs(37, 19, 11, 9, 13, fault, 20 + i as u64), 30 + i as u64);
        for (p, (result, _)) in results.into_iter().enumerate() {
            assert_eq!(result, Err(MaestroError::VerificationFailed), "party {p}, {fault:?}");
        }
    }
}

#[test]
fn coins_agree_and_differ_between_tosses() {
    let results = run_session(3, |mut net| async move {
        let mut party = setup(&mut net, 40).await;
        let mut view = PublicView::new();
        let mut coins = Vec::new();
        for _ in 0..4 {
            coins.push(toss(&mut party, &mut net, &mut view).await.unwrap());
        }
        view.compare(&mut net).await.unwrap();
        coins
    });
    assert_eq!(results[0], results[1]);
    assert_eq!(results[1], results[2]);
    let distinct: std::collections::HashSet<u64> = results[0].iter().copied().collect();
    assert_eq!(distinct.len(), 4);
}

#[test]
fn split_views_are_detected_by_both_other_parties() {
    let results = run_session(3, |mut net| async move {
        let mut view = PublicView::new();
        let me = net.party() as u8;
        // Party 2 saw a different value than parties 0 and 1.
        view.absorb(Step::Reveal, &[1, 2, if me == 2 { 4 } else { 3 }]);
        view.compare(&mut net).await
    });
    assert_eq!(results[0], Err(MaestroError::OpeningMismatch { peer: 2 }));
    assert_eq!(results[1], Err(MaestroError::OpeningMismatch { peer: 2 }));
    assert!(matches!(results[2], Err(MaestroError::OpeningMismatch { .. })));
}
