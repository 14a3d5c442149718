//! Generated mixed circuits for tests and benchmarks.

use super::{MixedCircuit, MixedGate, MixedOp};

/// The dot product `Σ x_i·y_i` of two vectors of length `len` (inputs `x_0..x_{len−1}` then
/// `y_0..y_{len−1}`), and `dot + 7·x_0` as a second output (a product with a constant). `len` ≥ 1.
pub fn dot_product(len: u32) -> MixedCircuit {
    let len = len.max(1);
    let constant = 2 * len;
    let mut gates = Vec::with_capacity(2 * len as usize + 1);
    let mut next = constant + 1;
    let mut gate = |op, a, b| {
        gates.push(MixedGate { op, inputs: [a, b], out: next });
        next += 1;
        next - 1
    };
    let mut dot = gate(MixedOp::Mul, 0, len);
    for i in 1..len {
        let product = gate(MixedOp::Mul, i, len + i);
        dot = gate(MixedOp::Add, dot, product);
    }
    let scaled = gate(MixedOp::Mul, constant, 0);
    let second = gate(MixedOp::Add, dot, scaled);
    MixedCircuit {
        wires: next,
        inputs: 2 * len,
        outputs: vec![dot, second],
        constants: vec![(constant, 7)],
        gates,
    }
}
