//! Test support shared by every protocol's tests: random well-formed circuits to evaluate against
//! the plaintext evaluator.

use crate::circuit::{Circuit, CircuitBuilder, Wire};
use rand_chacha::ChaCha20Rng;
use rand_core::RngCore;

/// A random circuit with `inputs` input values (1–5 bits each), `gates` gates (AND, XOR, NOT,
/// copies and constants, each reading earlier wires) and `outputs` output values (1–6 bits each,
/// taken from the last 40 wires).
pub(crate) fn random_circuit(rng: &mut ChaCha20Rng, inputs: usize, gates: usize, outputs: usize) -> Circuit {
    let mut b = CircuitBuilder::new();
    let mut pool: Vec<Wire> = Vec::new();
    for _ in 0..inputs {
        let width = 1 + (rng.next_u32() % 5) as usize;
        pool.extend(b.input(width));
    }
    for _ in 0..gates {
        let x = pool[rng.next_u32() as usize % pool.len()];
        let y = pool[rng.next_u32() as usize % pool.len()];
        let w = match rng.next_u32() % 10 {
            0..=3 => b.and(x, y),
            4..=6 => b.xor(x, y),
            7 => b.not(x),
            8 => b.copy(x),
            _ => b.constant(rng.next_u32() & 1 == 1),
        };
        pool.push(w);
    }
    let outs: Vec<Vec<Wire>> = (0..outputs)
        .map(|_| {
            let width = 1 + (rng.next_u32() % 6) as usize;
            (0..width).map(|_| pool[pool.len() - 1 - rng.next_u32() as usize % pool.len().min(40)]).collect()
        })
        .collect();
    b.finish(&outs).expect("random circuit is well formed")
}

/// `n` instances of random input values for `circuit`, every value at its width.
pub(crate) fn random_inputs(rng: &mut ChaCha20Rng, circuit: &Circuit, n: usize) -> Vec<Vec<Vec<bool>>> {
    (0..n)
        .map(|_| {
            circuit
                .input_widths()
                .iter()
                .map(|&w| (0..w).map(|_| rng.next_u32() & 1 == 1).collect())
                .collect()
        })
        .collect()
}
