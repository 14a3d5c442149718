//! Integer programs and random ring circuits on Spdz2k shares against the plaintext evaluator.

use proptest::prelude::*;

use super::{deal, dot_product, own, random_inputs, random_ring_circuit, run, seeded, Deviation};
use crate::circuit::mixed::{MixedCircuit, MixedIo, RingBits};
use crate::proto::coral::arith::circuit::{demand, demand_with_bits, evaluate, evaluate_with_bits};
use crate::proto::coral::arith::prep::ArithDemand;
use crate::proto::coral::arith::AShare;
use crate::proto::coral::error::CoralError;

/// Evaluates `circuit` with `parties` parties on `inputs` (owners as given), honestly; asserts
/// every party got the plaintext evaluator's outputs.
pub(super) fn agree(
    circuit: &MixedCircuit,
    ring: RingBits,
    parties: usize,
    owners: &[usize],
    inputs: &[Vec<u64>],
    seed: u64,
) {
    agree_with_bits(circuit, ring, &[], parties, owners, inputs, seed)
}

/// [`agree`] with the inputs `bits` declared bits.
pub(super) fn agree_with_bits(
    circuit: &MixedCircuit,
    ring: RingBits,
    bits: &[u32],
    parties: usize,
    owners: &[usize],
    inputs: &[Vec<u64>],
    seed: u64,
) {
    let d = demand_with_bits(circuit, ring, bits, owners, parties, inputs.len()).expect("demand");
    let (results, _) = run(deal(seed, ring, parties, &d), Deviation::none(), |mut party, mut net| {
        let mine = own(inputs, owners, party.party());
        async move {
            evaluate_with_bits(&mut party, &mut net, circuit, bits, owners, &mine)
                .await
                .map(|o| (o, party.material().clone()))
        }
    });
    let want: Vec<Vec<u64>> = inputs.iter().map(|x| circuit.evaluate(x, ring).expect("plaintext")).collect();
    for (p, r) in results.into_iter().enumerate() {
        let (got, left) = r.unwrap_or_else(|e| panic!("party {p}: {e}"));
        assert_eq!(got, want, "party {p} of {parties}, k = {}", ring.bits());
        // Exactly the demanded material was consumed.
        assert!(left.triples.is_empty() && left.output_masks.is_empty(), "party {p}: material left over");
        assert!(left.input_masks.iter().all(|q| q.is_empty()), "party {p}: input masks left over");
    }
}

#[test]
fn a_dot_product_matches_plain_arithmetic_in_both_rings() {
    let circuit = dot_product(20);
    let owners: Vec<usize> = (0..40).map(|i| usize::from(i >= 20)).collect();
    for (ring, seed) in [(RingBits::K32, 1), (RingBits::K64, 2)] {
        let mut rng = seeded(seed);
        for instances in [1, 5] {
            let inputs = random_inputs(&mut rng, &circuit, ring, instances);
            agree(&circuit, ring, 2, &owners, &inputs, seed * 10 + instances as u64);
        }
        // Values at the top of the ring wrap around as in Z_{2^k}.
        let top = vec![ring.mask(); 40];
        agree(&circuit, ring, 2, &owners, &[top], seed + 100);
    }
}

#[test]
fn random_ring_circuits_agree_with_plaintext_for_two_three_and_four_parties() {
    let mut rng = seeded(7);
    for (parties, ring, instances) in [
        (2, RingBits::K32, 1),
        (2, RingBits::K64, 13),
        (3, RingBits::K32, 4),
        (3, RingBits::K64, 1),
        (4, RingBits::K64, 3),
    ] {
        let circuit = random_ring_circuit(&mut rng, 6, 60, 4);
        assert!(circuit.counts().multiplications >= 5);
        let owners: Vec<usize> = (0..6).map(|i| i % parties).collect();
        let inputs = random_inputs(&mut rng, &circuit, ring, instances);
        agree(&circuit, ring, parties, &owners, &inputs, 40 + parties as u64);
    }
}

#[test]
fn inputs_all_from_one_party_and_a_circuit_without_multiplications() {
    let mut rng = seeded(8);
    let circuit =
        MixedCircuit::parse("2 5\n2 1 1\n1 1\n\n2 1 0 1 2 ASub\n2 1 2 2 4 AAdd\n", &MixedIo::default())
            .unwrap();
    let inputs = random_inputs(&mut rng, &circuit, RingBits::K32, 3);
    agree(&circuit, RingBits::K32, 3, &[2, 2], &inputs, 9);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// One multiplication layer of random pairs, then sums: the opened products and sums are the
    /// wrapping products and sums of Z_{2^k}.
    #[test]
    fn products_and_sums_are_those_of_the_ring(xs in prop::collection::vec(any::<u64>(), 1..12), k64 in any::<bool>()) {
        let ring = if k64 { RingBits::K64 } else { RingBits::K32 };
        let xs: Vec<u64> = xs.into_iter().map(|x| x & ring.mask()).collect();
        let n = xs.len();
        let d = ArithDemand { triples: n, input_masks: vec![n, n], output_masks: 2 * n };
        let (results, _) = run(deal(5, ring, 2, &d), Deviation::none(), |mut party, mut net| {
            let xs = xs.clone();
            async move {
                let owners: Vec<usize> = (0..2 * n).map(|i| i % 2).collect();
                let mine: Vec<u64> = xs.iter().map(|&x| x.rotate_left(7 * party.party() as u32 + 1) & ring.mask()).collect();
                let shares = party.input(&mut net, &owners, &mine).await?;
                let pairs: Vec<(AShare, AShare)> = shares.chunks_exact(2).map(|c| (c[0], c[1])).collect();
                let products = party.mul(&mut net, &pairs).await?;
                let sums: Vec<AShare> = pairs.iter().map(|(a, b)| *a + *b).collect();
                party.output(&mut net, &[products, sums].concat()).await
            }
        });
        let mask = ring.mask();
        let a: Vec<u64> = xs.iter().map(|&x| x.rotate_left(1) & mask).collect();
        let b: Vec<u64> = xs.iter().map(|&x| x.rotate_left(8) & mask).collect();
        let mut want: Vec<u64> = a.iter().zip(&b).map(|(x, y)| x.wrapping_mul(*y) & mask).collect();
        want.extend(a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y) & mask));
        for r in results {
            prop_assert_eq!(r.expect("honest run"), want.clone());
        }
    }
}

/// A bitwise XOR of shared values beside a product: the XOR runs on the two values' bit
/// decompositions, so it takes random bits, while the product alone would not.
#[test]
fn a_bitwise_gate_of_full_values_runs_beside_ring_gates() {
    let text = "3 6\n2 1 1\n1 1\n\n2 1 0 1 2 AMul\n2 1 0 1 3 AXor\n2 1 2 3 5 AAdd\n";
    let circuit = MixedCircuit::parse(text, &MixedIo::default()).unwrap();
    let d = demand(&circuit, RingBits::K32, &[0, 1], 2, 1).unwrap();
    // The output, the two decompositions' masked openings, and the check of their 2k random bits.
    assert_eq!(d.output_masks, 1 + 2 + 2 * 32);
    let inputs = vec![vec![5, 12], vec![u64::from(u32::MAX), 0x8000_0001]];
    agree(&circuit, RingBits::K32, 2, &[0, 1], &inputs, 3);
}

#[test]
fn inputs_that_do_not_match_are_typed_errors_before_anything_is_sent() {
    let circuit = dot_product(2);
    let owners = [0, 0, 1, 1];
    let d = demand(&circuit, RingBits::K32, &owners, 2, 1).unwrap();
    type Case = (Vec<usize>, Vec<Vec<u64>>, &'static str);
    let cases: Vec<Case> = vec![
        (vec![0, 0, 1], vec![vec![1, 2]], "3 input owners given"),
        (vec![0, 0, 1, 5], vec![vec![1, 2]], "owner 5 is not a party"),
        (owners.to_vec(), vec![vec![1]], "instance 0: 1 own input values given"),
        (owners.to_vec(), vec![vec![1, 2], vec![3]], "instance 1"),
        (owners.to_vec(), vec![], "no instances"),
        (owners.to_vec(), vec![vec![1 << 40, 2]], "does not fit in 32 bits"),
    ];
    for (owners, values, needle) in cases {
        let (results, sent) = run(deal(4, RingBits::K32, 2, &d), Deviation::none(), |mut party, mut net| {
            let (circuit, owners) = (&circuit, owners.clone());
            let values = if party.party() == 0 { values.clone() } else { vec![vec![3, 4]; values.len()] };
            async move { evaluate(&mut party, &mut net, circuit, &owners, &values).await }
        });
        let err = results.into_iter().next().unwrap().unwrap_err();
        assert!(matches!(err, CoralError::BadInput(_)), "{needle}: {err}");
        assert!(err.to_string().contains(needle), "{needle}: {err}");
        assert!(sent[0].is_empty(), "{needle}: party 0 sent before refusing");
    }
    // Too little material: a typed error naming the kind.
    let short = ArithDemand { triples: 1, ..d.clone() };
    let (results, _) = run(deal(4, RingBits::K32, 2, &short), Deviation::none(), |mut party, mut net| {
        let circuit = &circuit;
        let values = vec![vec![1, 2]];
        async move { evaluate(&mut party, &mut net, circuit, &owners, &values).await }
    });
    for r in results {
        assert!(matches!(
            r,
            Err(CoralError::MaterialExhausted { kind: "Spdz2k triple", needed: 2, available: 1 })
        ));
    }
}

/// Gates on public values fold, whatever their kind (here a comparison and a shift of
/// constants); a product with a public value is local; only the product of two shared values
/// takes a triple.
#[test]
fn public_subexpressions_fold_and_products_with_them_are_local() {
    // x (party 0), y (party 1); 3 at wire 2, 5 at wire 3; g = 5 > 3; s = 5 << 3;
    // out = (x·g)·y + s, and s itself.
    let text = "5 9\n2 1 1\n2 1 1\n\n2 1 3 2 4 AGt\n2 1 0 4 5 AMul\n2 1 3 2 6 AShiftL\n2 1 5 1 7 AMul\n2 1 7 6 8 AAdd\n";
    let io = MixedIo { constants: vec![(2, 3), (3, 5)], outputs: Some(vec![8, 6]) };
    let circuit = MixedCircuit::parse(text, &io).unwrap();
    let plan = crate::proto::coral::arith::circuit::Plan::new(&circuit, RingBits::K32).unwrap();
    assert_eq!((plan.triples(), plan.bits(32), plan.depth()), (1, 0, 1));
    let inputs = vec![vec![6, 7], vec![u64::from(u32::MAX), 2]];
    agree(&circuit, RingBits::K32, 2, &[0, 1], &inputs, 11);
}
