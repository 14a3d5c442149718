//! Tests of the triple log and its checks: packed recorders against element-wise recording, the
//! exactness and soundness of the merged checks (shared factor, Eq. (3), Eq. (5)/(6)) over all
//! inputs, and the multiplicativity of the Table 2 lift.

use super::*;
use crate::field::embedding::embed_gf16;
use crate::field::{Field, Gf256};

fn lift_gf256(a: Gf256) -> u64 {
    embed_gf256(a).0
}

fn lift_k(a: Gf16, b: Gf16, c: Gf16) -> u64 {
    embed_k(a, b, c)
}

/// Eq. (3) is sound iff 1, α, α² are independent over ψ(GF(2^4)): ψ(α) must have degree ≥ 3
/// over that subfield. Exhaustively, it has degree 4: exactly one monic quartic over
/// ψ(GF(2^4)) vanishes at it (a lower degree would give 16 or more). That quartic is
/// α⁴ + α² + {5}α + {2}; Table 2's text prints {2}α⁴ + {2}α² + {4}α + {8}, which does not
/// vanish at the printed ψ(α) in this representation — only the degree matters here.
#[test]
fn alpha_image_has_degree_four_over_the_gf16_subfield() {
    let a = Gf64(ALPHA_IMAGE);
    let (a2, a3) = (a * a, a * a * a);
    let a4 = a2 * a2;
    let c = |v: u16| embed_gf16(Gf16::new(v as u8));
    let roots: Vec<[u16; 4]> = (0..1u32 << 16)
        .map(|k| core::array::from_fn(|i| ((k >> (4 * i)) & 15) as u16))
        .filter(|q: &[u16; 4]| a4 + c(q[3]) * a3 + c(q[2]) * a2 + c(q[1]) * a + c(q[0]) == Gf64::ZERO)
        .collect();
    assert_eq!(roots, vec![[2, 5, 1, 0]]);
    assert_eq!(PSI16[0].map(Gf64), [0, 1, 2, 3].map(|i| embed_gf16(Gf16::new(1 << i))));
}

fn lifted(log: &TripleLog) -> Vec<Triple64> {
    let mut all = Vec::new();
    log.lift_chunks(5, |chunk| all.extend_from_slice(chunk));
    all
}

/// The packed recorders (nibble unpacking, the halves of Eq. (1)'s batch, the halves of a
/// shared-factor batch) store what the element-wise recorders store, for odd and even n.
#[test]
fn packed_recording_matches_element_wise_recording() {
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    for n in [1usize, 6, 7, 33] {
        let mut nibbles = |len: usize| {
            let mut component = || {
                let mut bytes = vec![0u8; len.div_ceil(2)];
                rng.fill_bytes(&mut bytes);
                if len % 2 == 1 {
                    bytes[len / 2] &= 15;
                }
                bytes
            };
            Packed16 { party: 1, len, first: component(), second: component() }
        };
        let (h, l, inv, hl, out) = (nibbles(n), nibbles(n), nibbles(n), nibbles(n), nibbles(2 * n));
        let mut packed = TripleLog::new();
        packed.record_tower_packed(&h, &l, &inv, &hl, &out);
        packed.record_gf16_packed(&h, &l, &inv);
        let mut plain = TripleLog::new();
        let [hs, ls, is, hls, os] = [&h, &l, &inv, &hl, &out].map(|p| p.to_shares());
        for k in 0..n {
            plain.record_tower(hs[k], ls[k], is[k], hls[k], os[k], os[n + k]);
        }
        plain.record_gf16(&hs, &ls, &is);
        assert_eq!(lifted(&packed), lifted(&plain), "n = {n}");
        assert_eq!(packed.len(), 2 * n);

        let mut bytes = |len: usize| {
            let shares: Vec<RssShare> = (0..len)
                .map(|_| RssShare::new(1, Gf256(rng.next_u32() as u8), Gf256(rng.next_u32() as u8)))
                .collect();
            (Packed::from_shares(1, &shares), shares)
        };
        let ((a, a_shares), (bc, bc_shares), (z, z_shares)) = (bytes(n), bytes(2 * n), bytes(2 * n));
        let mut shared = TripleLog::new();
        shared.record_gf256_shared_packed(&a.concat(&a), &bc, &z);
        let lift = |v: Gf256| Gf64(lift_gf256(v));
        let pa = Gf64(PAIR_IMAGE);
        for (k, t) in lifted(&shared).into_iter().enumerate() {
            let pick = |s: RssShare, c: usize| if c == 0 { s.first() } else { s.second() };
            for (c, (x, y, zz)) in [(t.x.first, t.y.first, t.z.first), (t.x.second, t.y.second, t.z.second)]
                .into_iter()
                .enumerate()
            {
                assert_eq!(Gf64(x), lift(pick(a_shares[k], c)));
                assert_eq!(Gf64(y), lift(pick(bc_shares[k], c)) + pa * lift(pick(bc_shares[n + k], c)));
                assert_eq!(Gf64(zz), lift(pick(z_shares[k], c)) + pa * lift(pick(z_shares[n + k], c)));
            }
        }
        assert_eq!(shared.len(), n);
    }
}

/// 1 and A are independent over ψ(GF(2^8)) iff A is not in that subfield; and the shared
/// check catches every pair of errors (d₁, d₂) ≠ (0, 0) for a sample of operands.
#[test]
fn shared_factor_check_is_exact_and_catches_every_error_pair() {
    let image: Vec<u64> = (0..=255u8).map(|c| lift_gf256(Gf256(c))).collect();
    assert!(!image.contains(&PAIR_IMAGE));
    let a = Gf64(PAIR_IMAGE);
    let lift = |v: Gf256| Gf64(lift_gf256(v));
    for (p, q, s) in [(0x53u8, 0xcau8, 0x01u8), (0, 0x11, 0xfe), (0xff, 0x80, 0x7f)] {
        let (p, q, s) = (Gf256(p), Gf256(q), Gf256(s));
        let (x, y) = (lift(p), lift(q) + a * lift(s));
        assert_eq!(x * y, lift(p * q) + a * lift(p * s));
        for d1 in 0..=255u8 {
            for d2 in 0..=255u8 {
                let z = lift(p * q + Gf256(d1)) + a * lift(p * s + Gf256(d2));
                assert_eq!(x * y == z, d1 == 0 && d2 == 0, "{d1:#04x} {d2:#04x}");
            }
        }
    }
}

#[test]
fn eq3_holds_exactly_for_correct_products_over_all_inputs() {
    let n = |v: u8| Gf16::new(v);
    let zero = n(0);
    for h in 0..16u8 {
        for l in 0..16u8 {
            for w in [0u8, 1, 7, 13] {
                let (h, l, w) = (n(h), n(l), n(w));
                let x = Gf64(lift_k(h, l, zero));
                let y = Gf64(lift_k(l, w, zero));
                let z = Gf64(lift_k(h * l, h * w + l * l, h * w + (h + l) * w));
                assert_eq!(x * y, z);
                // Any single error in one of the three products breaks the relation.
                for d in 1..16u8 {
                    assert_ne!(x * y, Gf64(lift_k(h * l + n(d), h * w + l * l, h * w + (h + l) * w)));
                    assert_ne!(x * y, Gf64(lift_k(h * l, h * w + n(d) + l * l, h * w + n(d) + (h + l) * w)));
                    assert_ne!(x * y, Gf64(lift_k(h * l, h * w + l * l, h * w + (h + l) * w + n(d))));
                }
            }
        }
    }
}

/// Monomials of a plain r with optional errors in the products (bit S of `errors` flips m_S).
fn plain_monomials(r: u16, errors: u16) -> u16 {
    let mut m = 0u16;
    for s in 0..16u16 {
        m |= u16::from(r & s == s) << s;
    }
    m ^ errors
}

#[test]
fn eq5_eq6_hold_for_one_hot_vectors_and_catch_every_product_error() {
    let products: Vec<u16> = (0..16u16).filter(|s| s.count_ones() >= 2).collect();
    assert_eq!(products.len(), 11);
    for r in 0..16u16 {
        let m = plain_monomials(r, 0);
        assert_eq!(monomials(monomials(m)), m);
        for [x, y, z] in one_hot_triples(m) {
            assert_eq!(Gf64(x) * Gf64(y), Gf64(z), "r = {r}");
        }
        for errors in 1..(1u32 << 11) {
            let flip = products
                .iter()
                .enumerate()
                .fold(0u16, |acc, (k, &s)| acc | (u16::from((errors >> k) & 1 == 1) << s));
            let ok = one_hot_triples(plain_monomials(r, flip))
                .iter()
                .all(|&[x, y, z]| Gf64(x) * Gf64(y) == Gf64(z));
            assert!(!ok, "errors {flip:#06x} at r = {r} went undetected");
        }
    }
}

#[test]
fn gf256_lift_is_multiplicative() {
    for a in (0..=255u8).step_by(7) {
        for b in 0..=255u8 {
            let (a, b) = (Gf256(a), Gf256(b));
            assert_eq!(Gf64(lift_gf256(a)) * Gf64(lift_gf256(b)), Gf64(lift_gf256(a * b)));
        }
    }
}

/// The common-bit check: a · B = C in GF(2^64) holds exactly when every cᵢ = a·bᵢ, for a = 0
/// and 1, any count up to 64, and every single or paired error among the recorded products;
/// bits at and above the count are not recorded. The bulk lift equals the reference lift.
#[test]
fn bit_product_check_is_exact_and_catches_every_product_error() {
    let b = 0x9e37_79b9_7f4a_7c15u64;
    for count in [1usize, 3, 7, 63, 64] {
        let mask = if count == 64 { u64::MAX } else { (1 << count) - 1 };
        for a in [0u8, 1] {
            let c = if a == 1 { b } else { 0 };
            let check = |d: u64| {
                let mut log = TripleLog::new();
                // One party's components: (a, B, C + errors) as the first, zero as the second.
                log.record_bit_products((a, 0), (b, 0), (c ^ d, 0), count);
                let t = lifted(&log)[0];
                assert_eq!((t.y.first, t.z.first & !mask), (b & mask, 0), "bits above the count");
                Gf64(t.x.first) * Gf64(t.y.first) == Gf64(t.z.first)
            };
            assert!(check(0), "a = {a}, count {count}");
            assert!(check(!mask), "errors above the count are not recorded");
            for i in 0..count {
                assert!(!check(1 << i), "error in product {i}, a = {a}, count {count}");
                assert!(!check((1 << i) | (1 << (count - 1 - i))), "paired errors, a = {a}");
            }
        }
    }
    let mut log = TripleLog::new();
    for k in 0..300u64 {
        log.record_bit_products(
            ((k & 1) as u8, (k >> 1 & 1) as u8),
            (k * b, !k),
            (k ^ b, k << 3),
            (k % 64 + 1) as usize,
        );
    }
    let mut bulk = Vec::new();
    let (mut cursor, mut block) = (LiftCursor::default(), LiftedBlock::default());
    while log.lift_next(&mut cursor, &mut block) {
        for k in 0..block.len {
            let pair = |v: &[[u64; BLOCK]; 2]| Rss64 { first: v[0][k], second: v[1][k] };
            bulk.push(Triple64 { x: pair(&block.x), y: pair(&block.y), z: pair(&block.z) });
        }
    }
    assert_eq!(bulk, lifted(&log));
    assert_eq!(log.len(), 300);
}
