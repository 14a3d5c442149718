//! A circuit builder: allocate input wires, add gates, name the outputs, get a [`Circuit`].
//!
//! Wires are handed out as [`Wire`] handles in creation order, so every gate only reads wires that
//! exist, and [`CircuitBuilder::finish`] renumbers them to the Bristol Fashion convention (inputs
//! first, outputs last, in the order given). An output that is an input wire or that appears twice
//! gets a copy (`EQW`) gate, since every Bristol output wire is distinct and written by a gate.

use super::error::CircuitError;
use super::repr::{AndGate, Circuit, Gate, LinearGate, WireId};

/// A wire of a circuit under construction. Only meaningful for the builder that created it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wire(u32);

/// Builds a [`Circuit`] gate by gate.
#[derive(Debug, Default, Clone)]
pub struct CircuitBuilder {
    next: u32,
    inputs: Vec<Vec<Wire>>,
    gates: Vec<Gate>,
}

impl CircuitBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    fn fresh(&mut self) -> Wire {
        let wire = Wire(self.next);
        self.next += 1;
        wire
    }

    /// Declares the next input value, `width` bits wide; returns its wires in order.
    pub fn input(&mut self, width: usize) -> Vec<Wire> {
        let wires: Vec<Wire> = (0..width).map(|_| self.fresh()).collect();
        self.inputs.push(wires.clone());
        wires
    }

    fn linear(&mut self, make: impl FnOnce(WireId) -> LinearGate) -> Wire {
        let out = self.fresh();
        self.gates.push(Gate::Linear(make(out.0)));
        out
    }

    /// `a ^ b`.
    pub fn xor(&mut self, a: Wire, b: Wire) -> Wire {
        self.linear(|out| LinearGate::Xor { a: a.0, b: b.0, out })
    }

    /// `!a`.
    pub fn not(&mut self, a: Wire) -> Wire {
        self.linear(|out| LinearGate::Inv { a: a.0, out })
    }

    /// `!(a ^ b)`, as an XOR followed by an INV.
    pub fn xnor(&mut self, a: Wire, b: Wire) -> Wire {
        let x = self.xor(a, b);
        self.not(x)
    }

    /// A copy of `a`.
    pub fn copy(&mut self, a: Wire) -> Wire {
        self.linear(|out| LinearGate::Copy { a: a.0, out })
    }

    /// The constant `value`.
    pub fn constant(&mut self, value: bool) -> Wire {
        self.linear(|out| LinearGate::Const { value, out })
    }

    /// `a & b`.
    pub fn and(&mut self, a: Wire, b: Wire) -> Wire {
        let out = self.fresh();
        self.gates.push(Gate::And(AndGate { a: a.0, b: b.0, out: out.0 }));
        out
    }

    /// Finishes the circuit with the given output values (each a list of wires, in order).
    ///
    /// Fails only if a wire handle did not come from this builder.
    pub fn finish(mut self, outputs: &[Vec<Wire>]) -> Result<Circuit, CircuitError> {
        let mut is_input = vec![false; self.next as usize];
        for wire in self.inputs.iter().flatten() {
            is_input[wire.0 as usize] = true;
        }
        let mut is_output = vec![false; self.next as usize];
        let mut output_wires = Vec::new();
        for wire in outputs.iter().flatten() {
            let needs_copy = is_input.get(wire.0 as usize).is_none_or(|&i| i)
                || is_output.get(wire.0 as usize).is_none_or(|&o| o);
            let wire = if needs_copy { self.copy(*wire) } else { *wire };
            is_output.resize(self.next as usize, false);
            is_output[wire.0 as usize] = true;
            output_wires.push(wire);
        }
        // New numbering: inputs in declaration order, then internal wires, then outputs.
        const UNASSIGNED: WireId = WireId::MAX;
        let mut map = vec![UNASSIGNED; self.next as usize];
        let mut next: WireId = 0;
        for wire in self.inputs.iter().flatten() {
            map[wire.0 as usize] = next;
            next += 1;
        }
        for gate in &self.gates {
            let out = gate.out() as usize;
            if !is_output[out] {
                map[out] = next;
                next += 1;
            }
        }
        for wire in &output_wires {
            map[wire.0 as usize] = next;
            next += 1;
        }
        // A foreign handle maps to UNASSIGNED, which `Circuit::new` rejects as out of range.
        let rename = |w: WireId| map.get(w as usize).copied().unwrap_or(UNASSIGNED);
        let gates = self
            .gates
            .iter()
            .map(|gate| match *gate {
                Gate::And(g) => Gate::And(AndGate { a: rename(g.a), b: rename(g.b), out: rename(g.out) }),
                Gate::Linear(g) => Gate::Linear(match g {
                    LinearGate::Xor { a, b, out } => {
                        LinearGate::Xor { a: rename(a), b: rename(b), out: rename(out) }
                    }
                    LinearGate::Inv { a, out } => LinearGate::Inv { a: rename(a), out: rename(out) },
                    LinearGate::Copy { a, out } => LinearGate::Copy { a: rename(a), out: rename(out) },
                    LinearGate::Const { value, out } => LinearGate::Const { value, out: rename(out) },
                }),
            })
            .collect();
        let input_widths = self.inputs.iter().map(|v| v.len() as u32).collect();
        let output_widths = outputs.iter().map(|v| v.len() as u32).collect();
        Circuit::new(next, input_widths, output_widths, gates)
    }
}
