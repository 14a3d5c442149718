use super::byte_linear::simd_available;
use super::*;
use crate::field::Gf16Squared;
use crate::field::{Gf16, Gf256};
use crate::proto::maestro::gf16_rss::{from_tower, pack_nibbles, to_tower, Rss16};
use crate::proto::maestro::sbox::frobenius::SQUARE;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

fn random_shares(rng: &mut ChaCha20Rng, party: PartyId, n: usize) -> Vec<RssShare> {
    (0..n).map(|_| RssShare::new(party, Gf256(rng.next_u32() as u8), Gf256(rng.next_u32() as u8))).collect()
}

#[test]
fn byte_linear_matches_the_bit_matrix_exhaustively() {
    let square = ByteLinear::new(|b| SQUARE.apply(b));
    let all: Vec<u8> = (0..=255).collect();
    let expected: Vec<u8> = all.iter().map(|&b| SQUARE.apply(b)).collect();
    assert_eq!(square.apply(&all), expected);
    for len in [0, 1, 7, 9, 33] {
        assert_eq!(square.apply(&all[..len]), &expected[..len], "len {len}");
    }
}

#[test]
fn byte_linear_simd_path_matches_the_portable_path() {
    let mut rng = ChaCha20Rng::seed_from_u64(72);
    let maps = [
        ByteLinear::new(|b| SQUARE.apply(b)),
        ByteLinear::new(crate::aes::sbox::affine_linear),
        nibble_linear(|v| v * v * Gf16Squared::E),
    ];
    for map in &maps {
        for len in [0, 1, 31, 32, 33, 100, CHUNK + 45] {
            let mut src = vec![0u8; len];
            rng.fill_bytes(&mut src);
            let mut expected = vec![0u8; len];
            map.apply_portable(&mut expected, &src);
            let mut out = vec![0u8; len];
            let done = map.apply_simd(&mut out, &src);
            map.apply_portable(&mut out[done..], &src[done..]);
            assert_eq!(out, expected, "len {len}");
            assert_eq!(map.apply(&src), expected, "len {len}");
            let mut in_place = src.clone();
            map.apply_in_place(&mut in_place);
            assert_eq!(in_place, expected, "len {len}");
            if simd_available() {
                assert_eq!(done, len / 32 * 32);
            }
        }
    }
}

#[test]
fn packed_round_linear_matches_the_share_round() {
    let mut rng = ChaCha20Rng::seed_from_u64(73);
    for blocks in [1, 3, 40] {
        let shares = random_shares(&mut rng, 2, 16 * blocks);
        let key: [RssShare; 16] = random_shares(&mut rng, 2, 16).try_into().expect("16 shares");
        for last in [false, true] {
            let mut out = vec![RssShare::zero(2); shares.len()];
            Packed::from_shares(2, &shares).write_round_linear(&key, last, &mut out);
            let mut expected: Vec<[RssShare; 16]> =
                shares.chunks_exact(16).map(|c| c.try_into().expect("16 shares")).collect();
            for block in expected.iter_mut() {
                crate::aes::linear::shift_rows(block);
                if !last {
                    crate::aes::linear::mix_columns(block);
                }
                crate::aes::linear::add_round_key(block, &key);
            }
            assert_eq!(out, expected.as_flattened(), "blocks {blocks}, last {last}");
        }
    }
}

#[test]
fn cross_terms_match_the_scalar_formula() {
    let mut rng = ChaCha20Rng::seed_from_u64(70);
    for n in [0, 1, 31, 1000, CHUNK + 3] {
        let x = random_shares(&mut rng, 1, n);
        let y = random_shares(&mut rng, 1, n);
        let mut z = vec![0u8; n];
        add_cross_terms(&mut z, &Packed::from_shares(1, &x), &Packed::from_shares(1, &y));
        let expected: Vec<u8> = x
            .iter()
            .zip(&y)
            .map(|(x, y)| (x.first() * (y.first() + y.second()) + x.second() * y.first()).0)
            .collect();
        assert_eq!(z, expected, "n {n}");
    }
}

#[test]
fn tower_maps_and_nibble_ops_match_the_per_element_forms() {
    let mut rng = ChaCha20Rng::seed_from_u64(71);
    for n in [1, 2, 5, 16, 33, 2 * CHUNK + 37] {
        let x = random_shares(&mut rng, 2, n);
        let packed = Packed::from_shares(2, &x);
        let (high, low) = to_tower_packed(&packed);
        let (h, l): (Vec<Rss16>, Vec<Rss16>) = x.iter().map(|&s| to_tower(s)).unzip();
        let pack = |v: &[Rss16], first: bool| {
            pack_nibbles(&v.iter().map(|s| if first { s.first() } else { s.second() }).collect::<Vec<_>>())
        };
        assert_eq!((&high.first, &high.second), (&pack(&h, true), &pack(&h, false)), "n {n}");
        assert_eq!((&low.first, &low.second), (&pack(&l, true), &pack(&l, false)), "n {n}");
        let back: Vec<RssShare> = h.iter().zip(&l).map(|(&h, &l)| from_tower(h, l)).collect();
        assert_eq!(from_tower_packed(&high, &low).to_shares(), back);

        let scale = nibble_linear(|v| v * v * Gf16Squared::E);
        let mapped = high.map_linear(&scale);
        let expected: Vec<Rss16> = h.iter().map(|s| s.square().scale(Gf16Squared::E)).collect();
        assert_eq!(mapped.first, pack(&expected, true));

        let mut z = vec![0u8; n.div_ceil(2)];
        add_cross_terms16(&mut z, &high, &low);
        let cross: Vec<Gf16> = h
            .iter()
            .zip(&l)
            .map(|(x, y)| x.first() * (y.first() + y.second()) + x.second() * y.first())
            .collect();
        assert_eq!(z, pack_nibbles(&cross));

        for at in 0..=n {
            let (a, b) = high.split_at(at);
            assert_eq!((a.len, b.len), (at, n - at));
            assert_eq!(a.concat(&b), high, "n {n}, split at {at}");
        }
    }
}
