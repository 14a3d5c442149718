//! Plaintext evaluation, written once over a "wire word" and used with two word types:
//! - `bool`: one evaluation ([`Circuit::evaluate`]);
//! - `u64`: 64 independent evaluations at once, bit-sliced, lane `i` of every word belonging to
//!   evaluation `i` ([`Circuit::evaluate_bitsliced`]; pack and unpack with [`pack_lanes`] and
//!   [`unpack_lanes`]).
//!
//! Evaluation walks the AND-depth layers of [`Circuit`] in order, so it also exercises the layering
//! every protocol relies on. It takes no secret-dependent branches or table indices (gates are public),
//! which keeps the bit-sliced evaluator usable on secret data.

use super::error::EvalError;
use super::repr::{Circuit, LinearGate};
use std::ops::{BitAnd, BitXor, Not};

/// A value on a wire: one bit (`bool`) or a bundle of independent bits (`u64`, one per lane).
pub trait WireWord: Copy + BitXor<Output = Self> + BitAnd<Output = Self> + Not<Output = Self> {
    /// All lanes 0.
    const ZERO: Self;
    /// All lanes 1.
    const ONES: Self;
}

impl WireWord for bool {
    const ZERO: Self = false;
    const ONES: Self = true;
}

impl WireWord for u64 {
    const ZERO: Self = 0;
    const ONES: Self = u64::MAX;
}

impl Circuit {
    /// Evaluates the circuit on words of any [`WireWord`] type: `inputs[i]` holds the bits of input
    /// value `i` in wire order; returns the output values in wire order.
    pub fn evaluate_words<W: WireWord, I: AsRef<[W]>>(&self, inputs: &[I]) -> Result<Vec<Vec<W>>, EvalError> {
        let widths = self.input_widths();
        if inputs.len() != widths.len() {
            return Err(EvalError::InputCount { expected: widths.len(), found: inputs.len() });
        }
        let mut wires = Vec::with_capacity(self.num_wires());
        for (index, (value, &width)) in inputs.iter().zip(widths).enumerate() {
            let value = value.as_ref();
            if value.len() != width as usize {
                return Err(EvalError::InputWidth { index, expected: width as usize, found: value.len() });
            }
            wires.extend_from_slice(value);
        }
        wires.resize(self.num_wires(), W::ZERO);
        for layer in self.layers() {
            for gate in layer.and_gates {
                wires[gate.out as usize] = wires[gate.a as usize] & wires[gate.b as usize];
            }
            for gate in layer.linear_gates {
                let (out, value) = match *gate {
                    LinearGate::Xor { a, b, out } => (out, wires[a as usize] ^ wires[b as usize]),
                    LinearGate::Inv { a, out } => (out, !wires[a as usize]),
                    LinearGate::Copy { a, out } => (out, wires[a as usize]),
                    LinearGate::Const { value, out } => (out, if value { W::ONES } else { W::ZERO }),
                };
                wires[out as usize] = value;
            }
        }
        let outputs = (0..self.output_widths().len())
            .filter_map(|i| self.output_wires(i))
            .map(|range| wires[range].to_vec())
            .collect();
        Ok(outputs)
    }

    /// Evaluates the circuit once on bits: `inputs[i]` holds input value `i` in wire order.
    pub fn evaluate<I: AsRef<[bool]>>(&self, inputs: &[I]) -> Result<Vec<Vec<bool>>, EvalError> {
        self.evaluate_words(inputs)
    }

    /// Evaluates the circuit 64 times at once: bit `j` of every word is evaluation `j`.
    pub fn evaluate_bitsliced<I: AsRef<[u64]>>(&self, inputs: &[I]) -> Result<Vec<Vec<u64>>, EvalError> {
        self.evaluate_words(inputs)
    }
}

/// Packs up to 64 bit strings of equal length into words: bit `j` of word `k` is `lanes[j][k]`.
/// Returns `None` if there are more than 64 lanes or the lengths differ.
pub fn pack_lanes<L: AsRef<[bool]>>(lanes: &[L]) -> Option<Vec<u64>> {
    let len = lanes.first().map_or(0, |l| l.as_ref().len());
    if lanes.len() > 64 || lanes.iter().any(|l| l.as_ref().len() != len) {
        return None;
    }
    let mut words = vec![0u64; len];
    for (lane, bits) in lanes.iter().enumerate() {
        for (word, &bit) in words.iter_mut().zip(bits.as_ref()) {
            *word |= u64::from(bit) << lane;
        }
    }
    Some(words)
}

/// Unpacks the first `lanes` lanes (at most 64) of bit-sliced words: the inverse of [`pack_lanes`].
pub fn unpack_lanes(words: &[u64], lanes: usize) -> Vec<Vec<bool>> {
    (0..lanes.min(64)).map(|lane| words.iter().map(|w| w >> lane & 1 == 1).collect()).collect()
}
