//! Bristol circuits evaluated packed against the plaintext evaluator: FIPS-197 AES-128 and random
//! circuits, on batches that fill their last pack and batches that do not.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use super::{aes_circuit, deal, run, Deviation};
use crate::circuit::aes_bristol::{output_bytes, value_bits};
pub(super) use crate::circuit::testing::{random_circuit, random_inputs};
use crate::circuit::Circuit;
use crate::net::PartyId;
use crate::proto::coral::circuit::{demand, evaluate};
use crate::proto::coral::error::CoralError;

/// Each party's own input values per instance.
pub(super) fn own(inputs: &[Vec<Vec<bool>>], owners: &[PartyId], party: PartyId) -> Vec<Vec<Vec<bool>>> {
    inputs
        .iter()
        .map(|inst| inst.iter().zip(owners).filter(|(_, &o)| o == party).map(|(v, _)| v.clone()).collect())
        .collect()
}

/// Runs `circuit` on `inputs` at `parties` parties with dealer material.
pub(super) fn run_circuit(
    seed: u64,
    circuit: &Circuit,
    owners: &[PartyId],
    parties: usize,
    inputs: &[Vec<Vec<bool>>],
    deviation: Deviation,
) -> Vec<Result<Vec<Vec<Vec<bool>>>, CoralError>> {
    let batch = inputs.len();
    let d = demand(circuit, owners, parties, batch).expect("demand");
    run(deal(seed, parties, &d), deviation, |mut party, mut net| {
        let mine = own(inputs, owners, party.party());
        async move { evaluate(&mut party, &mut net, circuit, owners, batch, &mine).await }
    })
}

#[test]
fn aes_128_fips_197_and_random_blocks_over_a_partial_last_pack() {
    let circuit = aes_circuit();
    let key: Vec<u8> = (0..16).collect();
    let plaintext: Vec<u8> = (0..16).map(|i| (i * 0x11) as u8).collect();
    let fips =
        [0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a];
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let batch = 17; // one full pack of 14 and a second pack with 3 lanes
    let mut inputs = vec![vec![value_bits(&key), value_bits(&plaintext)]];
    for _ in 1..batch {
        let mut k = [0u8; 16];
        let mut p = [0u8; 16];
        rng.fill_bytes(&mut k);
        rng.fill_bytes(&mut p);
        inputs.push(vec![value_bits(&k), value_bits(&p)]);
    }
    let results = run_circuit(1, circuit, &[0, 1], 2, &inputs, Deviation::none());
    for result in results {
        let out = result.expect("honest AES");
        assert_eq!(out.len(), batch);
        assert_eq!(output_bytes(&out[0][0]).expect("128 bits"), fips, "FIPS-197 C.1");
        for (i, inst) in inputs.iter().enumerate() {
            assert_eq!(out[i], circuit.evaluate(inst).unwrap(), "instance {i}");
        }
    }
}

#[test]
fn random_circuits_match_plaintext_for_2_and_3_parties_and_any_batch() {
    let mut rng = ChaCha20Rng::seed_from_u64(99);
    for (trial, (parties, batch)) in
        [(2usize, 1usize), (2, 14), (2, 15), (3, 5), (3, 29), (2, 41)].into_iter().enumerate()
    {
        let circuit = random_circuit(&mut rng, 3, 80, 3);
        let owners: Vec<PartyId> = (0..3).map(|_| rng.next_u32() as usize % parties).collect();
        let inputs = random_inputs(&mut rng, &circuit, batch);
        let results = run_circuit(100 + trial as u64, &circuit, &owners, parties, &inputs, Deviation::none());
        for result in results {
            let out = result.expect("honest run");
            for (i, inst) in inputs.iter().enumerate() {
                assert_eq!(out[i], circuit.evaluate(inst).unwrap(), "trial {trial} instance {i}");
            }
        }
    }
}

#[test]
fn inputs_that_do_not_fit_are_typed_errors_naming_the_limit() {
    let circuit = aes_circuit();
    assert!(matches!(
        demand(circuit, &[0, 1], 2, 0),
        Err(CoralError::Limit { what, found: 0, .. }) if what.contains("batch")
    ));
    assert!(matches!(
        demand(circuit, &[0, 1], 2, crate::proto::coral::MAX_BATCH + 1),
        Err(CoralError::Limit { what, .. }) if what.contains("batch")
    ));
    assert!(matches!(
        demand(circuit, &[0, 1], 2, 1 << 19),
        Err(CoralError::Limit { what, .. }) if what.contains("wire sharings")
    ));
    assert!(matches!(demand(circuit, &[0], 2, 3), Err(CoralError::BadInput(_))));
    assert!(matches!(demand(circuit, &[0, 2], 2, 3), Err(CoralError::BadInput(_))));
    // Wrong input widths and counts at evaluation time.
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let small = random_circuit(&mut rng, 2, 10, 1);
    let d = demand(&small, &[0, 0], 2, 3).unwrap();
    let results = run(deal(2, 2, &d), Deviation::none(), |mut party, mut net| {
        let small = small.clone();
        async move {
            let mine = if party.party() == 0 { vec![vec![vec![true; 1], vec![false; 1]]; 2] } else { vec![] };
            evaluate(&mut party, &mut net, &small, &[0, 0], 3, &mine).await
        }
    });
    assert!(matches!(results[0], Err(CoralError::BadInput(_))));
    // Material dealt for a smaller batch runs out with a typed error.
    let small_demand = demand(circuit, &[0, 1], 2, 14).unwrap();
    let results = run(deal(4, 2, &small_demand), Deviation::none(), |mut party, mut net| async move {
        let mine = vec![vec![vec![false; 128]]; 15];
        evaluate(&mut party, &mut net, aes_circuit(), &[0, 1], 15, &mine).await
    });
    for r in results {
        assert!(matches!(r, Err(CoralError::MaterialExhausted { kind: "input mask", .. })), "{r:?}");
    }
}
