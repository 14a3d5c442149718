//! Tests of the verification kernels: every available backend's fused lift, combination and folds
//! against a plain reference at every level.

use super::kernels::Element;
use super::*;
use crate::field::Gf16;
use crate::proto::maestro::gf16_rss::Rss16;
use crate::proto::maestro::packed::Packed;
use crate::proto::maestro::rss::RssShare;
use crate::proto::maestro::sbox::one_hot16::OneHot16;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

/// A log of random (not necessarily correct) entries of every kind.
fn random_log(n8: usize, ns: usize, n4: usize, nt: usize, no: usize, rng: &mut ChaCha20Rng) -> TripleLog {
    let mut log = TripleLog::new();
    let mut byte = || rng.next_u32() as u8;
    let b = |v: u8| crate::field::Gf256(v);
    let n = |v: u8| Gf16::new(v & 15);
    for _ in 0..n8 {
        let mut s = || RssShare::new(1, b(byte()), b(byte()));
        log.record_gf256(&[s()], &[s()], &[s()]);
    }
    for _ in 0..ns {
        let mut s = || {
            Packed::from_shares(
                1,
                &[RssShare::new(1, b(byte()), b(byte())), RssShare::new(1, b(byte()), b(byte()))],
            )
        };
        log.record_gf256_shared_packed(&s(), &s(), &s());
    }
    for _ in 0..n4 {
        let mut s = || Rss16::new(1, n(byte()), n(byte()));
        log.record_gf16(&[s()], &[s()], &[s()]);
    }
    for _ in 0..nt {
        let mut s = || Rss16::new(1, n(byte()), n(byte()));
        log.record_tower(s(), s(), s(), s(), s(), s());
    }
    for _ in 0..no {
        let e = (u16::from(byte()) << 8 | u16::from(byte()), u16::from(byte()) << 8 | u16::from(byte()));
        log.record_one_hot(&OneHot16 { r: Rss16::new(1, n(0), n(0)), e });
    }
    log
}

/// Protocol 2's local steps written plainly (one triple, one product at a time, portable
/// arithmetic): the combination, then per coin the padded evaluations and the fold.
fn reference(log: &TripleLog, r: u64, coins: &[u64]) -> Vec<(Vec<Element>, [u64; 2])> {
    let gf = |a: u64, b: u64| Gf64::mul_with(Backend::Portable, Gf64(a), Gf64(b)).0;
    let mut v = Vec::new();
    let mut power = 1;
    log.lift_chunks(7, |chunk| {
        for t in chunk {
            let x = Rss64 { first: gf(t.x.first, power), second: gf(t.x.second, power) };
            v.push(Element { x, y: t.y });
            power = gf(power, r);
        }
    });
    let mut levels = Vec::new();
    for &c in coins {
        if v.len() % 2 == 1 && v.len() > 1 {
            v.push(Element::default());
        }
        let local = |a: Rss64, b: Rss64| gf(a.first, b.first ^ b.second) ^ gf(a.second, b.first);
        let (mut at_one, mut leading) = (0, 0);
        for p in v.chunks_exact(2) {
            at_one ^= local(p[1].x, p[1].y);
            leading ^= local(p[0].x + p[1].x, p[0].y + p[1].y);
        }
        levels.push((v.clone(), [at_one, leading]));
        let scale = |a: Rss64| Rss64 { first: gf(a.first, c), second: gf(a.second, c) };
        v = v
            .chunks_exact(2)
            .map(|p| Element { x: p[0].x + scale(p[0].x + p[1].x), y: p[0].y + scale(p[0].y + p[1].y) })
            .collect();
    }
    levels.push((v, [0, 0]));
    levels
}

/// z = Σ r^k z_k of the reference lift.
fn reference_z(log: &TripleLog, r: u64) -> Rss64 {
    let gf = |a: u64, b: u64| Gf64::mul_with(Backend::Portable, Gf64(a), Gf64(b)).0;
    let (mut z, mut power) = (Rss64::default(), 1);
    log.lift_chunks(5, |chunk| {
        for t in chunk {
            z = z + Rss64 { first: gf(t.z.first, power), second: gf(t.z.second, power) };
            power = gf(power, r);
        }
    });
    z
}

/// Every backend's fused kernels (bulk lift, combination with the first evaluations, folds
/// with the next evaluations) agree with the plain reference at every level, for logs of
/// odd and even lengths that mix all kinds and cross block boundaries.
#[test]
fn fused_kernels_agree_with_the_plain_reference_on_every_backend() {
    let mut rng = ChaCha20Rng::seed_from_u64(90);
    for (n8, ns, n4, nt, no) in [
        (1, 0, 0, 0, 0),
        (3, 0, 0, 0, 0),
        (0, 1, 0, 0, 0),
        (0, 0, 0, 0, 1),
        (301, 133, 129, 77, 70),
        (256, 128, 0, 0, 64),
    ] {
        let log = random_log(n8, ns, n4, nt, no, &mut rng);
        let r = rng.next_u64();
        let levels = (log.len() as f64).log2().ceil() as usize;
        let coins: Vec<u64> = (0..levels).map(|_| rng.next_u64()).collect();
        let expected = reference(&log, r, &coins);
        for kernels in Kernels::available() {
            let (mut v, z, mut local) = kernels.combine_log(&log, r);
            assert_eq!(z, reference_z(&log, r), "{kernels:?}");
            for (level, &c) in coins.iter().enumerate() {
                assert_eq!((&v, local), (&expected[level].0, expected[level].1), "{kernels:?} {level}");
                local = kernels.fold(&mut v, c);
            }
            assert_eq!(v, expected[levels].0, "{kernels:?}");
            assert_eq!(v.len(), 1);
        }
    }
}

/// The self-check the WASM module runs (detected kernels and bulk lifts against the portable
/// ones) passes natively too.
#[test]
fn self_check_passes() {
    assert_eq!(self_check(40), Ok(()));
}
