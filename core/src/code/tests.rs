//! Tests of the Reed-Solomon layer: structure, distances, both encoders, membership, bit encoding,
//! error handling and algebraic properties.

use super::*;
use crate::field::Field;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use std::sync::OnceLock;

fn rs256() -> &'static ReedSolomon {
    static CODE: OnceLock<ReedSolomon> = OnceLock::new();
    CODE.get_or_init(ReedSolomon::rs256_120)
}
fn rs256_star() -> &'static ReedSolomon {
    static CODE: OnceLock<ReedSolomon> = OnceLock::new();
    CODE.get_or_init(|| rs256().schur_square())
}
fn rs255() -> &'static ReedSolomon {
    static CODE: OnceLock<ReedSolomon> = OnceLock::new();
    CODE.get_or_init(ReedSolomon::rs255_85)
}
fn rs255_star() -> &'static ReedSolomon {
    static CODE: OnceLock<ReedSolomon> = OnceLock::new();
    CODE.get_or_init(|| rs255().schur_square())
}
fn all_codes() -> [&'static ReedSolomon; 4] {
    [rs256(), rs256_star(), rs255(), rs255_star()]
}

fn random_vec(rng: &mut ChaCha20Rng, len: usize) -> Vec<Gf256> {
    (0..len).map(|_| Gf256::random(rng)).collect()
}

fn weight(word: &[Gf256]) -> usize {
    word.iter().filter(|s| s.0 != 0).count()
}

/// Evaluates the polynomial with `coefficients` (degree 0 first) at `x` by Horner's rule.
fn evaluate(coefficients: &[Gf256], x: Gf256) -> Gf256 {
    coefficients.iter().rev().fold(Gf256::ZERO, |acc, &c| acc * x + c)
}

fn evaluations(code: &ReedSolomon, coefficients: &[Gf256]) -> Vec<Gf256> {
    code.points().iter().map(|&v| evaluate(coefficients, v)).collect()
}

/// Coefficients of `Π_{s ∈ roots} (X - s)`.
fn poly_from_roots(roots: &[Gf256]) -> Vec<Gf256> {
    let mut poly = vec![Gf256::ONE];
    for &s in roots {
        let mut next = vec![Gf256::ZERO; poly.len() + 1];
        for (i, &c) in poly.iter().enumerate() {
            next[i + 1] += c;
            next[i] += c * s;
        }
        poly = next;
    }
    poly
}

#[test]
fn parameters_and_distances() {
    assert_eq!((rs256().n(), rs256().k(), rs256().min_distance()), (256, 120, 137));
    assert_eq!((rs256_star().n(), rs256_star().k(), rs256_star().min_distance()), (256, 239, 18));
    assert_eq!((rs255().n(), rs255().k(), rs255().min_distance()), (255, 85, 171));
    assert_eq!((rs255_star().n(), rs255_star().k(), rs255_star().min_distance()), (255, 169, 87));
    assert_eq!(rs256_star().mac_forgery_bits(), 144);
    assert!(rs256_star().mac_forgery_bits() >= 128 && rs255_star().mac_forgery_bits() >= 128);
}

#[test]
fn omega_generates_the_multiplicative_group() {
    let mut seen = [false; 256];
    let mut x = Gf256::ONE;
    for e in 0..255 {
        assert!(!seen[x.0 as usize], "ω^{e} repeats an earlier power");
        seen[x.0 as usize] = true;
        x *= OMEGA;
    }
    assert_eq!(x, Gf256::ONE);
    let mut points: Vec<u8> = (0..255).map(|p| group_point(p).0).collect();
    points.sort_unstable();
    assert_eq!(points, (1..=255).collect::<Vec<u8>>());
    assert_eq!(rs255().points(), (0..255).map(group_point).collect::<Vec<_>>().as_slice());
}

/// Every code is exactly the evaluation code of polynomials of degree < k at its points: random
/// such evaluations are accepted and re-encode from their first k symbols to themselves (the two
/// spaces have the same dimension k, so they coincide), while degree k is rejected.
#[test]
fn codes_are_evaluation_codes() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for code in all_codes() {
        for _ in 0..4 {
            let word = evaluations(code, &random_vec(&mut rng, code.k()));
            assert_eq!(code.check_with(Encoder::Matrix, &word), Ok(()));
            assert_eq!(code.check(&word), Ok(()));
            assert_eq!(code.encode(&word[..code.k()]).unwrap(), word);
            if code.k() < code.n() {
                let mut high = vec![Gf256::ZERO; code.k() + 1];
                high[code.k()] = Gf256::ONE;
                let word = evaluations(code, &high);
                assert!(matches!(code.check(&word), Err(CodeError::NotACodeword { .. })));
                assert!(matches!(
                    code.check_with(Encoder::Matrix, &word),
                    Err(CodeError::NotACodeword { .. })
                ));
            }
        }
    }
}

#[test]
fn random_codewords_reach_the_minimum_distance() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    for code in all_codes() {
        for _ in 0..16 {
            let mut message = random_vec(&mut rng, code.k());
            if message.iter().all(|m| m.0 == 0) {
                message[0] = Gf256::ONE;
            }
            let codeword = code.encode(&message).unwrap();
            assert!(weight(&codeword) >= code.min_distance());
        }
        for i in [0, code.k() - 1] {
            assert!(weight(&code.generator_row(i).unwrap()) >= code.min_distance());
        }
    }
}

/// The distance bound is attained: the polynomial vanishing on k-1 chosen points is a codeword of
/// weight exactly n - k + 1.
#[test]
fn minimum_distance_is_attained() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    for code in all_codes() {
        for _ in 0..3 {
            let mut positions: Vec<usize> = (0..code.n()).collect();
            positions.shuffle(&mut rng);
            let zeros = &positions[..code.k() - 1];
            let roots: Vec<Gf256> = zeros.iter().map(|&p| code.points()[p]).collect();
            let word = evaluations(code, &poly_from_roots(&roots));
            assert_eq!(code.check(&word), Ok(()));
            assert_eq!(weight(&word), code.min_distance());
            for &p in zeros {
                assert_eq!(word[p], Gf256::ZERO);
            }
        }
    }
}

#[test]
fn fft_and_matrix_encoders_agree() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let code = rs255();
    assert!(code.has_fft_encoder());
    let mut by_matrix = vec![Gf256::ZERO; 255];
    let mut by_fft = vec![Gf256::ZERO; 255];
    for _ in 0..32 {
        let message = random_vec(&mut rng, 85);
        code.encode_with(Encoder::Matrix, &message, &mut by_matrix).unwrap();
        code.encode_with(Encoder::Fft, &message, &mut by_fft).unwrap();
        assert_eq!(by_matrix, by_fft);
    }
    for i in 0..85 {
        let mut unit = vec![Gf256::ZERO; 85];
        unit[i] = Gf256::ONE;
        code.encode_with(Encoder::Fft, &unit, &mut by_fft).unwrap();
        assert_eq!(by_fft, code.generator_row(i).unwrap(), "generator row {i}");
    }
}

#[test]
fn fft_and_matrix_membership_agree() {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    for code in [rs255(), rs255_star()] {
        for trial in 0..24 {
            let mut word = code.encode(&random_vec(&mut rng, code.k())).unwrap();
            if trial % 2 == 1 {
                let p = rng.gen_range(0..code.n());
                word[p] += Gf256(rng.gen_range(1..=255));
            }
            assert_eq!(code.check_with(Encoder::Fft, &word), code.check_with(Encoder::Matrix, &word));
            assert_eq!(code.check_with(Encoder::Fft, &word).is_ok(), trial % 2 == 0);
        }
        let random_word = random_vec(&mut rng, code.n());
        assert_eq!(
            code.check_with(Encoder::Fft, &random_word),
            code.check_with(Encoder::Matrix, &random_word)
        );
    }
}

#[test]
fn bit_encoding_matches_encoding() {
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    for code in all_codes() {
        let bits: Vec<Gf256> = (0..code.k()).map(|_| Gf256(rng.gen_range(0..=1))).collect();
        assert_eq!(code.encode_bits(&bits).unwrap(), code.encode(&bits).unwrap());
        let message = random_vec(&mut rng, code.k());
        for bit in 0..8 {
            let plane: Vec<Gf256> = message.iter().map(|m| Gf256((m.0 >> bit) & 1)).collect();
            assert_eq!(code.encode_bit_plane(&message, bit).unwrap(), code.encode(&plane).unwrap());
        }
    }
}

#[test]
fn transpose8_matches_the_definition() {
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    for _ in 0..200 {
        let x: u64 = rng.gen();
        let y = super::bit_encode::transpose8(x);
        for r in 0..8 {
            for c in 0..8 {
                assert_eq!((y >> (8 * c + r)) & 1, (x >> (8 * r + c)) & 1, "row {r} column {c}");
            }
        }
    }
}

#[test]
fn public_plane_encoding_rejects_bad_lengths() {
    let code = rs255();
    let mut out = vec![Gf256::ZERO; 8 * code.n()];
    assert!(matches!(
        code.encode_public_planes(&[Gf256::ZERO; 3], &mut out),
        Err(CodeError::WrongLength { what: "message", .. })
    ));
    let message = vec![Gf256::ZERO; code.k()];
    assert!(matches!(
        code.encode_public_planes(&message, &mut out[1..]),
        Err(CodeError::WrongLength { what: "output", .. })
    ));
}

#[test]
fn bad_input_gives_typed_errors() {
    let code = rs256();
    assert_eq!(
        code.encode(&[Gf256::ZERO; 3]),
        Err(CodeError::WrongLength { what: "message", expected: 120, actual: 3 })
    );
    assert_eq!(
        code.check(&[Gf256::ZERO; 255]),
        Err(CodeError::WrongLength { what: "codeword", expected: 256, actual: 255 })
    );
    assert!(matches!(code.decode(&[]), Err(CodeError::WrongLength { .. })));
    let mut out = vec![Gf256::ZERO; 256];
    assert_eq!(
        code.encode_with(Encoder::Fft, &[Gf256::ZERO; 120], &mut out),
        Err(CodeError::EncoderUnavailable { encoder: "fft", n: 256, k: 120 })
    );
    assert!(matches!(
        rs255_star().encode_with(Encoder::Fft, &[Gf256::ZERO; 169], &mut out[..255]),
        Err(CodeError::EncoderUnavailable { .. })
    ));
    let mut bits = vec![Gf256::ZERO; 120];
    bits[7] = Gf256(2);
    assert_eq!(code.encode_bits(&bits), Err(CodeError::NotABit { position: 7, value: 2 }));
    assert!(matches!(code.encode_bit_plane(&bits, 8), Err(CodeError::InvalidParameters { .. })));
    assert!(matches!(
        code.multiply_by_public(&[Gf256::ONE; 256], &[Gf256::ONE; 3]),
        Err(CodeError::WrongLength { .. })
    ));
    assert!(matches!(
        code.multiply_by_public(&[Gf256::ONE; 3], &[Gf256::ONE; 120]),
        Err(CodeError::WrongLength { .. })
    ));
    assert!(matches!(code.generator_row(120), Err(CodeError::InvalidParameters { .. })));
    assert!(matches!(schur_product(&[Gf256::ONE; 2], &[Gf256::ONE; 3]), Err(CodeError::WrongLength { .. })));
    assert!(matches!(
        ReedSolomon::new(vec![Gf256(1), Gf256(1)], 1),
        Err(CodeError::InvalidParameters { .. })
    ));
    assert!(matches!(ReedSolomon::new(vec![Gf256(1)], 2), Err(CodeError::InvalidParameters { .. })));
    assert!(matches!(ReedSolomon::new(Vec::new(), 0), Err(CodeError::InvalidParameters { .. })));
}

#[test]
fn new_recognises_the_fft_point_order() {
    let code = ReedSolomon::new((0..255).map(group_point).collect(), 85).unwrap();
    assert!(code.has_fft_encoder());
    let natural = ReedSolomon::new((1..=255u8).map(Gf256).collect(), 85).unwrap();
    assert!(!natural.has_fft_encoder());
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 24,
        rng_seed: RngSeed::Fixed(0x5eed_c0de),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The codes under property test, by index into [`all_codes`] (the base codes are 0 and 2).
fn code_index() -> impl Strategy<Value = usize> {
    0usize..4
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn encoding_is_linear(index in code_index(), seed in any::<u64>(), c in any::<u8>()) {
        let code = all_codes()[index];
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let a = random_vec(&mut rng, code.k());
        let b = random_vec(&mut rng, code.k());
        let combined: Vec<Gf256> = a.iter().zip(&b).map(|(&x, &y)| x * Gf256(c) + y).collect();
        let expected: Vec<Gf256> = code.encode(&a).unwrap().iter().zip(code.encode(&b).unwrap())
            .map(|(&x, y)| x * Gf256(c) + y).collect();
        prop_assert_eq!(code.encode(&combined).unwrap(), expected);
    }

    #[test]
    fn decode_inverts_encode(index in code_index(), seed in any::<u64>()) {
        let code = all_codes()[index];
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let message = random_vec(&mut rng, code.k());
        prop_assert_eq!(code.decode(&code.encode(&message).unwrap()).unwrap(), message);
    }

    #[test]
    fn products_land_in_the_schur_square(base in prop::sample::select(vec![0usize, 2]), seed in any::<u64>()) {
        let (code, star) = (all_codes()[base], all_codes()[base + 1]);
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let x = random_vec(&mut rng, code.k());
        let u = random_vec(&mut rng, code.k());
        let product = schur_product(&code.encode(&u).unwrap(), &code.encode(&x).unwrap()).unwrap();
        prop_assert_eq!(code.multiply_by_public(&code.encode(&x).unwrap(), &u).unwrap(), product.clone());
        let decoded = star.decode(&product).unwrap();
        let expected: Vec<Gf256> = u.iter().zip(&x).map(|(&a, &b)| a * b).collect();
        prop_assert_eq!(&decoded[..code.k()], expected.as_slice());
        prop_assert_eq!(star.check_with(Encoder::Matrix, &product), Ok(()));
    }

    #[test]
    fn membership_names_the_corrupted_position(
        index in code_index(), seed in any::<u64>(), position in any::<prop::sample::Index>(), delta in 1u8..=255
    ) {
        let code = all_codes()[index];
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut word = code.encode(&random_vec(&mut rng, code.k())).unwrap();
        let p = position.index(code.n());
        word[p] += Gf256(delta);
        let reported = if p >= code.k() { p } else { code.k() };
        prop_assert_eq!(code.check(&word), Err(CodeError::NotACodeword { position: reported }));
        prop_assert_eq!(code.check_with(Encoder::Matrix, &word), Err(CodeError::NotACodeword { position: reported }));
    }

    #[test]
    fn public_plane_encoding_matches_the_masked_one(index in code_index(), seed in any::<u64>()) {
        let code = all_codes()[index];
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let message = random_vec(&mut rng, code.k());
        let mut planes = vec![Gf256::ZERO; 8 * code.n()];
        code.encode_public_planes(&message, &mut planes).unwrap();
        for (bit, plane) in planes.chunks_exact(code.n()).enumerate() {
            let expected = code.encode_bit_plane(&message, bit as u32).unwrap();
            prop_assert_eq!(plane, expected.as_slice());
        }
        let mut full = vec![Gf256::ZERO; code.n()];
        code.encode_public_into(&message, &mut full, &mut planes).unwrap();
        prop_assert_eq!(full, code.encode(&message).unwrap());
    }
}
