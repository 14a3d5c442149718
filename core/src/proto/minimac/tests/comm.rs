//! Exact bytes and rounds against the formulas of the module docs (and the paper's §4.4 count).

use super::super::aes::{aes128_circuit, aes_request, KEY_OWNER, PLAINTEXT_OWNER};
use super::super::checks::DIGEST_BYTES;
use super::super::msg::HEADER_BYTES;
use super::super::{CodeChoice, Options, PrepRequest, COMBINATIONS};
use super::{deal, round_robin_owners, run};
use crate::circuit::aes_bristol::value_bits;
use crate::circuit::Circuit;
use crate::proto::tinytable::circuit::tests_malicious::{random_circuit, random_inputs};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

/// Bytes one party sends to one peer: `owned` input wires, `rounds` multiplication rounds.
fn per_peer_bytes(code: CodeChoice, circuit: &Circuit, owned: usize, rounds: usize, parties: usize) -> u64 {
    let (n, k) = (code.code().n(), code.code().k());
    let h = HEADER_BYTES;
    let view = if parties > 2 { DIGEST_BYTES } else { 0 };
    let input = h + 2 * DIGEST_BYTES + k * owned;
    // §4.4: each multiplication opens ε and δ, one n-symbol share each (the paper's 4·n also sends
    // per-share MACs, which the shared-MAC form checks in batch instead).
    let multiplications = rounds * h + 2 * n * circuit.gate_counts().and;
    let check = (h + DIGEST_BYTES) + (h + DIGEST_BYTES) + (h + COMBINATIONS * n + view + DIGEST_BYTES);
    let output = h + n * circuit.num_output_wires();
    (input + multiplications + check + output + check) as u64
}

#[test]
fn one_aes_batch_has_the_expected_bytes_and_rounds() {
    let circuit = aes128_circuit().unwrap();
    let depth = circuit.and_depth();
    for code in CodeChoice::ALL {
        let blocks = code.code().instances();
        let inputs = vec![vec![value_bits(&[7u8; 16]), value_bits(&[9u8; 16])]; blocks];
        let owners = [KEY_OWNER, PLAINTEXT_OWNER];
        let preps = deal(&aes_request(code, 2).unwrap(), 21);
        for (party, (result, stats)) in
            run(circuit, preps, &inputs, &owners, Options::default(), |n| n).into_iter().enumerate()
        {
            result.unwrap();
            let expected = per_peer_bytes(code, circuit, 128, depth, 2);
            assert_eq!(stats.bytes_sent, expected, "{code:?} party {party}");
            assert_eq!(stats.bytes_received, expected, "{code:?} party {party}");
            assert_eq!(stats.rounds, (1 + depth + 3 + 1 + 3) as u64, "{code:?} party {party}");
            assert_eq!(stats.messages_sent, (1 + depth + 3 + 1 + 3) as u64);
        }
    }
}

#[test]
fn per_gate_rounds_and_three_parties_follow_the_formulas() {
    let mut rng = ChaCha20Rng::seed_from_u64(31);
    let circuit = random_circuit(&mut rng, 3, 60, 2);
    let ands = circuit.gate_counts().and;
    for (parties, simultaneous) in [(2usize, false), (3, true), (3, false)] {
        let code = CodeChoice::Rs256_120;
        let owners = round_robin_owners(&circuit, parties);
        let preps = deal(&PrepRequest::for_circuit(code, parties, &circuit, &owners).unwrap(), 32);
        let inputs = random_inputs(&mut rng, &circuit, 9);
        let rounds = if simultaneous { circuit.and_depth() } else { ands };
        for (party, (result, stats)) in
            run(&circuit, preps, &inputs, &owners, Options { simultaneous }, |n| n).into_iter().enumerate()
        {
            result.unwrap();
            let owned: usize = circuit
                .input_widths()
                .iter()
                .zip(&owners)
                .filter(|(_, &o)| o == party)
                .map(|(&w, _)| w as usize)
                .sum();
            let expected = (parties as u64 - 1) * per_peer_bytes(code, &circuit, owned, rounds, parties);
            assert_eq!(
                stats.bytes_sent, expected,
                "{parties} parties, party {party}, simultaneous {simultaneous}"
            );
            assert_eq!(stats.rounds, (rounds + 8) as u64);
        }
    }
}
