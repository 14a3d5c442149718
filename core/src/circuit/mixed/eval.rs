//! The plaintext evaluator of mixed circuits over Z_{2^k} (semantics: the [module docs](super));
//! the reference the secure evaluation is tested against.

use super::{MixedCircuit, MixedCircuitError, MixedOp, RingBits};

/// `op(a, b)` in Z_{2^k} (`mask` = 2^k − 1; `a`, `b` already reduced).
pub(crate) fn apply(op: MixedOp, a: u64, b: u64, ring: RingBits) -> u64 {
    let (k, mask) = (ring.bits(), ring.mask());
    let bit = |c: bool| u64::from(c);
    let shift = |b: u64| (b < u64::from(k)).then_some(b as u32);
    let value = match op {
        MixedOp::Add => a.wrapping_add(b),
        MixedOp::Sub => a.wrapping_sub(b),
        MixedOp::Mul => a.wrapping_mul(b),
        MixedOp::UnaryAdd => a,
        MixedOp::UnarySub => a.wrapping_neg(),
        MixedOp::Div => a.checked_div(b).unwrap_or(mask),
        MixedOp::Mod => a.checked_rem(b).unwrap_or(a),
        MixedOp::Exp => {
            // Square and multiply over the public exponent's bits (this is the reference
            // evaluator, not secret-handling code).
            let (mut base, mut e, mut acc) = (a, b, 1u64);
            while e > 0 {
                if e & 1 == 1 {
                    acc = acc.wrapping_mul(base) & mask;
                }
                base = base.wrapping_mul(base) & mask;
                e >>= 1;
            }
            acc
        }
        MixedOp::Eq => bit(a == b),
        MixedOp::Neq => bit(a != b),
        MixedOp::Lt => bit(a < b),
        MixedOp::LEq => bit(a <= b),
        MixedOp::Gt => bit(a > b),
        MixedOp::GEq => bit(a >= b),
        MixedOp::BoolAnd => bit(a != 0 && b != 0),
        MixedOp::BoolOr => bit(a != 0 || b != 0),
        MixedOp::Not => bit(a == 0),
        MixedOp::BitAnd => a & b,
        MixedOp::BitOr => a | b,
        MixedOp::Xor => a ^ b,
        MixedOp::BitNot => !a,
        MixedOp::ShiftL => shift(b).map_or(0, |s| a << s),
        MixedOp::ShiftR => shift(b).map_or(0, |s| a >> s),
    };
    value & mask
}

impl MixedCircuit {
    /// Evaluates the circuit on `inputs` (one value per input, each below 2^k) in Z_{2^k} and
    /// returns the outputs in order.
    pub fn evaluate(&self, inputs: &[u64], ring: RingBits) -> Result<Vec<u64>, MixedCircuitError> {
        if inputs.len() != self.inputs as usize {
            let reason = format!("{} values given, the circuit has {} inputs", inputs.len(), self.inputs);
            return Err(MixedCircuitError::Input { index: inputs.len(), reason });
        }
        if let Some((index, &v)) = inputs.iter().enumerate().find(|(_, &v)| v & !ring.mask() != 0) {
            let reason = format!("{v} does not fit in {} bits", ring.bits());
            return Err(MixedCircuitError::Input { index, reason });
        }
        let mut wires = vec![0u64; self.wires as usize];
        wires[..inputs.len()].copy_from_slice(inputs);
        for &(wire, value) in &self.constants {
            wires[wire as usize] = value & ring.mask();
        }
        for gate in &self.gates {
            let [a, b] = gate.inputs.map(|w| wires[w as usize]);
            wires[gate.out as usize] = apply(gate.op, a, b, ring);
        }
        Ok(self.outputs.iter().map(|&w| wires[w as usize]).collect())
    }
}
