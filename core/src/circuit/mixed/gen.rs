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

/// Sorts `len` values ascending (inputs `x_0..x_{len−1}`, outputs in order): odd–even
/// transposition, `len` phases of compare-and-swap — `s = (x_{j+1} < x_j)`, `m = s·(x_{j+1} − x_j)`,
/// `(x_j, x_{j+1}) ← (x_j + m, x_{j+1} − m)`. `len` ≥ 1.
pub fn sort(len: u32) -> MixedCircuit {
    let len = len.max(1);
    let mut gates = Vec::new();
    let mut next = len;
    let mut gate = |op, a, b| {
        gates.push(MixedGate { op, inputs: [a, b], out: next });
        next += 1;
        next - 1
    };
    let mut wires: Vec<u32> = (0..len).collect();
    for phase in 0..len as usize {
        for j in (phase % 2..wires.len().saturating_sub(1)).step_by(2) {
            let (a, b) = (wires[j], wires[j + 1]);
            let swap = gate(MixedOp::Lt, b, a);
            let diff = gate(MixedOp::Sub, b, a);
            let m = gate(MixedOp::Mul, swap, diff);
            wires[j] = gate(MixedOp::Add, a, m);
            wires[j + 1] = gate(MixedOp::Sub, b, m);
        }
    }
    MixedCircuit { wires: next, inputs: len, outputs: wires, constants: Vec::new(), gates }
}

/// A comparison-heavy program on `len` pairs `(x_i, y_i)` (inputs `x_0..x_{len−1}` then `y_0..`):
/// how many `x_i > y_i`, how many `x_i = y_i`, and the largest `x_i` (a running maximum, one
/// comparison and one selection per step). `len` ≥ 1.
pub fn compare_count(len: u32) -> MixedCircuit {
    let len = len.max(1);
    let mut gates = Vec::new();
    let mut next = 2 * len;
    let mut gate = |op, a, b| {
        gates.push(MixedGate { op, inputs: [a, b], out: next });
        next += 1;
        next - 1
    };
    let (mut greater, mut equal, mut max) = (gate(MixedOp::Gt, 0, len), gate(MixedOp::Eq, 0, len), 0);
    for i in 1..len {
        let g = gate(MixedOp::Gt, i, len + i);
        greater = gate(MixedOp::Add, greater, g);
        let e = gate(MixedOp::Eq, i, len + i);
        equal = gate(MixedOp::Add, equal, e);
        let bigger = gate(MixedOp::Gt, i, max);
        let diff = gate(MixedOp::Sub, i, max);
        let step = gate(MixedOp::Mul, bigger, diff);
        max = gate(MixedOp::Add, max, step);
    }
    MixedCircuit {
        wires: next,
        inputs: 2 * len,
        outputs: vec![greater, equal, max],
        constants: Vec::new(),
        gates,
    }
}

/// `Σ op(x_i, y_i)` over `len` pairs (inputs `x_0..x_{len−1}` then `y_0..`): one gate of any kind
/// per pair, for measuring what one gate costs. `len` ≥ 1.
pub fn pairwise(op: MixedOp, len: u32) -> MixedCircuit {
    let len = len.max(1);
    let mut gates = Vec::new();
    let mut next = 2 * len;
    let mut gate = |op, a, b| {
        gates.push(MixedGate { op, inputs: [a, b], out: next });
        next += 1;
        next - 1
    };
    let mut sum = gate(op, 0, len);
    for i in 1..len {
        let value = gate(op, i, len + i);
        sum = gate(MixedOp::Add, sum, value);
    }
    MixedCircuit { wires: next, inputs: 2 * len, outputs: vec![sum], constants: Vec::new(), gates }
}
