//! Property tests of the Coral parameter sets (Table 1 and the Figure 2 example): the RMFE and
//! MFE identities of §2.2.3 and §3.3, linearity, the §3.2 field isomorphisms, the compiled maps
//! against the polynomial reference path, and rejection of bad parameters. Seeded, so failures
//! reproduce.

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use super::*;
use crate::field::BinaryField;

const ALL_SETS: [ParamSet; 4] = [CORAL_SET_1, CORAL_SET_2, CORAL_SET_3, FIGURE_2_EXAMPLE];

fn built() -> &'static [CoralEmbedding] {
    static BUILT: OnceLock<Vec<CoralEmbedding>> = OnceLock::new();
    BUILT.get_or_init(|| ALL_SETS.iter().map(|set| set.build().unwrap()).collect())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 64,
        rng_seed: RngSeed::Fixed(0x5eed_c0a1),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn mask(bits: usize) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

/// A random t-bit share from raw words.
fn share(mfe: &Mfe, raw: [u64; 4]) -> Vec<u64> {
    let mut words = raw[..mfe.share_words()].to_vec();
    let last = words.len() - 1;
    words[last] &= mask(mfe.t() - 64 * last);
    words
}

fn and(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| x & y).collect()
}

fn xor(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

#[test]
fn dimensions_match_table_1() {
    let shapes: Vec<(usize, usize, usize)> =
        built().iter().map(|e| (e.rmfe.k(), e.rmfe.m(), e.mfe.t())).collect();
    assert_eq!(shapes, [(14, 42, 195), (12, 48, 225), (16, 48, 225), (2, 6, 15)]);
    let set1 = &built()[0];
    let rmfe_stages: Vec<(usize, usize)> = set1.rmfe.stages().map(|s| (s.k(), s.m())).collect();
    assert_eq!(rmfe_stages, [(2, 3), (7, 14)]);
    let mfe_stages: Vec<(usize, usize)> = set1.mfe.stages().map(|s| (s.t(), s.m())).collect();
    assert_eq!(mfe_stages, [(3, 2), (5, 3), (13, 7)]);
}

#[test]
fn large_binary_moduli_are_primitive() {
    // 2^42 - 1 and 2^48 - 1 with their prime factors (each checked prime by trial division).
    let cases: [(u32, u64, &[u64]); 2] = [
        (42, GF2_42_MODULUS_LOW, &[3, 7, 43, 127, 337, 5419]),
        (48, GF2_48_MODULUS_LOW, &[3, 5, 7, 13, 17, 97, 241, 257, 673]),
    ];
    for (m, low, primes) in cases {
        let field = BinaryField::new(m, low).unwrap();
        let order = (1u64 << m) - 1;
        let mut rest = order;
        for &p in primes {
            assert!((2..p).take_while(|d| d * d <= p).all(|d| p % d != 0), "{p} is not prime");
            assert_eq!(rest % p, 0);
            while rest.is_multiple_of(p) {
                rest /= p;
            }
            assert_ne!(field.pow(2, order / p), 1, "x has order dividing (2^{m}-1)/{p}");
        }
        assert_eq!(rest, 1, "factorization of 2^{m} - 1 is incomplete");
        assert_eq!(field.pow(2, order), 1);
    }
}

#[test]
fn figure_2_example_encodes_as_in_the_paper() {
    let example = &built()[3];
    let stages: Vec<&BasicRmfe> = example.rmfe.stages().collect();
    // (2,3)_2 maps [0, 1] to [0, 1, 0] (f = X), and (1,2)_8 maps that to [[0,1,0],[0,0,0]].
    assert_eq!(stages[0].phi(&[0, 1]).unwrap(), 0b010);
    assert_eq!(stages[1].phi(&[0b010]).unwrap(), 0b000_010);
    // The conversion sends x ∈ F_8 to a root of x^3 + x^2 + 1 in F_64; the paper's matrix gives
    // [0, 0, 0, 1, 1, 0] = x^3 + x^4, which must be one of those roots.
    let f64 = *example.rmfe.field();
    let is_root = |g: u64| f64.mul(f64.mul(g, g), g) ^ f64.mul(g, g) ^ 1 == 0;
    assert!(is_root(0b011_000));
    assert!(is_root(example.rmfe.phi(0b10).unwrap()));
}

#[test]
fn compiled_maps_match_the_reference_on_every_unit_vector_and_both_strategies() {
    for embedding in built() {
        let (rmfe, mfe) = (&embedding.rmfe, &embedding.mfe);
        let units: Vec<Vec<u64>> = (0..mfe.t())
            .map(|i| {
                let mut unit = vec![0u64; mfe.share_words()];
                unit[i / 64] = 1 << (i % 64);
                unit
            })
            .collect();
        let phi: Vec<u64> = (0..rmfe.k()).map(|i| rmfe.phi_reference(1 << i).unwrap()).collect();
        let psi: Vec<u64> = (0..rmfe.m()).map(|i| rmfe.psi_reference(1 << i).unwrap()).collect();
        let sigma: Vec<Vec<u64>> = (0..mfe.m()).map(|i| mfe.sigma_reference(1 << i).unwrap()).collect();
        let rho: Vec<u64> = units.iter().map(|u| mfe.rho_reference(u).unwrap()).collect();
        let mut fast = embedding.clone();
        for evaluation in [Evaluation::ConstantTime, Evaluation::ByteTable] {
            fast.set_evaluation(evaluation);
            let (rmfe, mfe) = (&fast.rmfe, &fast.mfe);
            assert_eq!((0..rmfe.k()).map(|i| rmfe.phi(1 << i).unwrap()).collect::<Vec<_>>(), phi);
            assert_eq!((0..rmfe.m()).map(|i| rmfe.psi(1 << i).unwrap()).collect::<Vec<_>>(), psi);
            assert_eq!((0..mfe.m()).map(|i| mfe.sigma(1 << i).unwrap()).collect::<Vec<_>>(), sigma);
            assert_eq!(units.iter().map(|u| mfe.rho(u).unwrap()).collect::<Vec<_>>(), rho);
        }
    }
}

#[test]
fn decoding_inverts_encoding_on_every_packed_vector() {
    // Exhaustive over F_2^k (at most 2^16 vectors): ψ(φ(x)) = x, τ fixes every φ(x), and φ is
    // injective into normal elements.
    for embedding in built() {
        let rmfe = &embedding.rmfe;
        for x in 0..1u64 << rmfe.k() {
            let encoded = rmfe.phi(x).unwrap();
            assert_eq!(rmfe.psi(encoded).unwrap(), x);
            assert_eq!(rmfe.tau(encoded).unwrap(), encoded);
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn rmfe_identities(set in 0..ALL_SETS.len(), x: u64, y: u64, a: u64, b: u64) {
        let rmfe = &built()[set].rmfe;
        let field = rmfe.field();
        let (x, y) = (x & mask(rmfe.k()), y & mask(rmfe.k()));
        let (a, b) = (a & mask(rmfe.m()), b & mask(rmfe.m()));
        let (px, py) = (rmfe.phi(x).unwrap(), rmfe.phi(y).unwrap());
        prop_assert_eq!(rmfe.psi(field.mul(px, py)).unwrap(), x & y);
        prop_assert_eq!(rmfe.psi(px).unwrap(), x);
        prop_assert_eq!(rmfe.phi(mask(rmfe.k())).unwrap(), 1);
        let ta = rmfe.tau(a).unwrap();
        prop_assert_eq!(rmfe.tau(ta).unwrap(), ta);
        prop_assert_eq!(ta, rmfe.phi(rmfe.psi(a).unwrap()).unwrap());
        prop_assert_eq!(rmfe.psi(a ^ b).unwrap(), rmfe.psi(a).unwrap() ^ rmfe.psi(b).unwrap());
        prop_assert_eq!(rmfe.phi(x ^ y).unwrap(), px ^ py);
        prop_assert_eq!(rmfe.phi_reference(x).unwrap(), px);
        prop_assert_eq!(rmfe.psi_reference(a).unwrap(), rmfe.psi(a).unwrap());
    }

    #[test]
    fn mfe_identities(set in 0..ALL_SETS.len(), x: u64, y: u64, z1: [u64; 4], z2: [u64; 4]) {
        let mfe = &built()[set].mfe;
        let field = mfe.field();
        let (x, y) = (x & mask(mfe.m()), y & mask(mfe.m()));
        let (sx, sy) = (mfe.sigma(x).unwrap(), mfe.sigma(y).unwrap());
        prop_assert_eq!(mfe.rho(&and(&sx, &sy)).unwrap(), field.mul(x, y));
        prop_assert_eq!(mfe.sigma(x ^ y).unwrap(), xor(&sx, &sy));
        let (z1, z2) = (share(mfe, z1), share(mfe, z2));
        let (r1, r2) = (mfe.rho(&z1).unwrap(), mfe.rho(&z2).unwrap());
        prop_assert_eq!(mfe.rho(&xor(&z1, &z2)).unwrap(), r1 ^ r2);
        prop_assert_eq!(mfe.sigma_reference(x).unwrap(), sx);
        prop_assert_eq!(mfe.rho_reference(&z1).unwrap(), mfe.rho(&z1).unwrap());
    }

    #[test]
    fn stage_conversions_are_field_isomorphisms(set in 0..ALL_SETS.len(), a: u64, b: u64) {
        let embedding = &built()[set];
        for iso in embedding.rmfe.conversions().chain(embedding.mfe.conversions()) {
            let (binary, composite) = (iso.binary(), iso.composite());
            let (a, b) = (a & mask(binary.m() as usize), b & mask(binary.m() as usize));
            let (ca, cb) = (iso.to_composite(a).unwrap(), iso.to_composite(b).unwrap());
            prop_assert_eq!(iso.to_binary(ca).unwrap(), a);
            prop_assert_eq!(iso.to_binary(composite.mul(ca, cb)).unwrap(), binary.mul(a, b));
            prop_assert_eq!(iso.to_binary(composite.add(ca, cb)).unwrap(), a ^ b);
        }
    }

    #[test]
    fn batches_match_single_calls(
        set in 0..ALL_SETS.len(),
        raw in proptest::collection::vec(any::<u64>(), 0..12),
    ) {
        let CoralEmbedding { rmfe, mfe } = &built()[set];
        let xs: Vec<u64> = raw.iter().map(|&r| r & mask(rmfe.k())).collect();
        let ys: Vec<u64> = raw.iter().map(|&r| r & mask(rmfe.m())).collect();
        let mut out = vec![0u64; raw.len()];
        rmfe.phi_batch(&xs, &mut out).unwrap();
        prop_assert_eq!(&out, &xs.iter().map(|&x| rmfe.phi(x).unwrap()).collect::<Vec<_>>());
        rmfe.psi_batch(&ys, &mut out).unwrap();
        prop_assert_eq!(&out, &ys.iter().map(|&y| rmfe.psi(y).unwrap()).collect::<Vec<_>>());
        rmfe.tau_batch(&ys, &mut out).unwrap();
        prop_assert_eq!(&out, &ys.iter().map(|&y| rmfe.tau(y).unwrap()).collect::<Vec<_>>());
        let mut shares = vec![0u64; raw.len() * mfe.share_words()];
        mfe.sigma_batch(&ys, &mut shares).unwrap();
        let expected: Vec<u64> = ys.iter().flat_map(|&y| mfe.sigma(y).unwrap()).collect();
        prop_assert_eq!(&shares, &expected);
        mfe.rho_batch(&shares, &mut out).unwrap();
        let round_trip: Vec<u64> = ys.iter().map(|&y| mfe.rho(&mfe.sigma(y).unwrap()).unwrap()).collect();
        prop_assert_eq!(&out, &round_trip);
    }
}

#[test]
fn out_of_range_inputs_are_rejected() {
    let CoralEmbedding { rmfe, mfe } = &built()[0];
    assert!(matches!(rmfe.phi(1 << 14), Err(EmbedError::InputOutOfRange { bits: 14, .. })));
    assert!(matches!(rmfe.psi(1 << 42), Err(EmbedError::InputOutOfRange { bits: 42, .. })));
    assert!(matches!(rmfe.tau(u64::MAX), Err(EmbedError::InputOutOfRange { .. })));
    assert!(matches!(rmfe.phi_batch(&[1, 2], &mut [0]), Err(EmbedError::LengthMismatch { .. })));
    assert!(matches!(
        rmfe.phi_batch(&[1, 1 << 20], &mut [0, 0]),
        Err(EmbedError::InputOutOfRange { value: 0x10_0000, .. })
    ));
    assert!(matches!(mfe.sigma(1 << 42), Err(EmbedError::InputOutOfRange { .. })));
    assert!(matches!(mfe.sigma_into(1, &mut [0; 3]), Err(EmbedError::LengthMismatch { .. })));
    assert!(matches!(mfe.rho(&[0; 3]), Err(EmbedError::LengthMismatch { .. })));
    assert!(matches!(mfe.rho(&[0, 0, 0, 1 << 3]), Err(EmbedError::InputOutOfRange { .. })));
    assert!(matches!(mfe.rho_batch(&[0; 7], &mut [0; 2]), Err(EmbedError::LengthMismatch { .. })));
    assert!(matches!(mfe.sigma_batch(&[0; 2], &mut [0; 7]), Err(EmbedError::LengthMismatch { .. })));
}

#[test]
fn bad_parameter_sets_are_rejected_with_typed_errors() {
    let gf8 = BinaryField::new(3, 0b101).unwrap();
    // k = 9 > q = 8 evaluation points.
    const TOO_MANY_POINTS: [RmfeStageSpec; 2] =
        [CORAL_SET_3.rmfe[0], RmfeStageSpec { k: 9, ..CORAL_SET_3.rmfe[1] }];
    let too_many = ParamSet { rmfe: &TOO_MANY_POINTS, ..CORAL_SET_3 };
    assert!(matches!(too_many.build_rmfe(), Err(EmbedError::TooFewRmfePoints { k: 9, .. })));
    // Y^2 + 1 = (Y + 1)^2 over GF(2).
    let reducible = ParamSet {
        rmfe: &[RmfeStageSpec { k: 1, extension_modulus: &[1, 0, 1], binary_modulus_low: 0b11 }],
        ..CORAL_SET_1
    };
    assert!(matches!(reducible.build_rmfe(), Err(EmbedError::ReducibleModulus { degree: 2, .. })));
    // A reducible binary modulus: x^3 + 1.
    let bad_binary = ParamSet {
        rmfe: &[RmfeStageSpec { k: 2, extension_modulus: &[1, 0, 1, 1], binary_modulus_low: 1 }],
        ..CORAL_SET_1
    };
    assert!(matches!(bad_binary.build_rmfe(), Err(EmbedError::Field(_))));
    // RMFE into GF(2^48) but MFE on GF(2^42).
    let mismatched = ParamSet { rmfe: CORAL_SET_3.rmfe, ..CORAL_SET_1 };
    assert!(matches!(mismatched.build(), Err(EmbedError::FieldMismatch { .. })));
    let empty = ParamSet { mfe: &[], ..CORAL_SET_1 };
    assert_eq!(empty.build().unwrap_err(), EmbedError::EmptyChain { what: "MFE" });
    // Concatenating an outer RMFE over F_16 onto an inner RMFE into F_8.
    let inner = CORAL_SET_1.build_rmfe().unwrap();
    let gf16 = BinaryField::new(4, 0b0011).unwrap();
    let over_gf16 = CompositeField::new(gf16, &[1, 2, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 1]).unwrap();
    let outer = BasicRmfe::new(2, over_gf16).unwrap();
    let target = BinaryField::new(48, GF2_48_MODULUS_LOW).unwrap();
    assert!(matches!(inner.concat(outer, target), Err(EmbedError::FieldMismatch { .. })));
    // A first stage that is not over GF(2).
    let over_gf8 = CompositeField::new(gf8, &[2, 5, 1]).unwrap();
    let not_binary = BasicRmfe::new(1, over_gf8.clone()).unwrap();
    let gf64 = BinaryField::new(6, 0b11).unwrap();
    assert!(matches!(Rmfe::basic(not_binary, gf64), Err(EmbedError::FieldMismatch { .. })));
    assert!(matches!(
        Mfe::basic(BasicMfe::new(over_gf8).unwrap(), gf64),
        Err(EmbedError::FieldMismatch { .. })
    ));
    // Wrong target degree.
    let gf2 = BinaryField::new(1, 0).unwrap();
    let cubic = BasicRmfe::new(2, CompositeField::new(gf2, &[1, 0, 1, 1]).unwrap()).unwrap();
    assert!(matches!(Rmfe::basic(cubic, gf64), Err(EmbedError::DegreeMismatch { .. })));
}
