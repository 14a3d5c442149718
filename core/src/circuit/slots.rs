//! Wire slots: the circuit's layers with wire ids replaced by reusable storage slots, so that a
//! protocol that stores a large value per wire (a packed sharing per pack, a codeword per batch)
//! keeps only the live wires in memory.
//!
//! Why: a Bristol circuit names every wire once (AES-128: some 36,000 wires), but only a few
//! thousand are live at any point of the layered evaluation. Storing every wire makes the
//! working set of a batched evaluation megabytes large and every gate a cache miss; storing the
//! live ones keeps it in the core's caches. The result is the same circuit, evaluated in the same
//! order ([`Circuit::layers`]), on fewer and reused storage locations.
//!
//! **Evaluation contract** (what makes reuse safe, and what every user must follow):
//! - input wire `i` is slot `i` (the first [`Circuit::num_input_wires`] slots), as in the circuit;
//! - per layer, the AND gates run first, in any order or all at once: no AND gate's output slot is
//!   a slot any AND gate of the same layer reads; then the linear gates run in order, and a linear
//!   gate's output slot is never one of its own input slots;
//! - output value bits are read after the last layer from [`WireSlots::outputs`].
//!
//! A slot is freed after the last read of its wire and handed out again last-in first-out (so
//! recently used storage is reused first). Output wires are never freed; a wire nobody reads is
//! freed right after it is written. The plan is computed in time linear in the circuit size.

use super::repr::{AndGate, Circuit, Layer, LinearGate, WireId};

/// A circuit's layers on reusable slots (see the [module docs](self)).
#[derive(Debug, Clone)]
pub struct WireSlots {
    slots: usize,
    and_gates: Vec<AndGate>,
    linear_gates: Vec<LinearGate>,
    /// Per layer, the end (exclusive) of its AND and linear gates.
    layer_ends: Vec<(usize, usize)>,
    outputs: Vec<WireId>,
}

/// "Read until the end": the last use of an output wire.
const FOREVER: u32 = u32::MAX;

impl WireSlots {
    /// Plans the slots of `circuit`.
    pub fn new(circuit: &Circuit) -> Self {
        let n_wires = circuit.num_wires();
        let n_in = circuit.num_input_wires();
        // Time of each read: one tick per layer's AND phase, one per linear gate.
        let mut last_use = vec![0u32; n_wires];
        let mut tick = 0u32;
        for layer in circuit.layers() {
            tick += 1;
            for g in layer.and_gates {
                for w in [g.a, g.b] {
                    last_use[w as usize] = tick;
                }
            }
            for g in layer.linear_gates {
                tick += 1;
                for w in g.inputs() {
                    last_use[w as usize] = tick;
                }
            }
        }
        let first_output = n_wires - circuit.num_output_wires();
        last_use[first_output..].fill(FOREVER);

        let mut plan =
            Planner { slot_of: vec![WireId::MAX; n_wires], free: Vec::new(), slots: n_in, last_use };
        for w in 0..n_in {
            plan.slot_of[w] = w as WireId;
        }
        // Inputs nobody reads.
        for w in (0..n_in).rev() {
            if plan.last_use[w] == 0 {
                plan.free.push(w as WireId);
            }
        }
        // The gates again, in the same ticks: assign output slots, free slots after last reads.
        let mut and_gates = Vec::with_capacity(circuit.gate_counts().and);
        let mut linear_gates = Vec::with_capacity(circuit.gate_counts().linear());
        let mut layer_ends = Vec::with_capacity(circuit.and_depth() + 1);
        let mut tick = 0u32;
        for layer in circuit.layers() {
            tick += 1;
            // AND phase: outputs get their slots before this phase's inputs are freed, so no AND
            // gate writes a slot another AND gate of the layer reads, in whatever order a
            // protocol handles them.
            for g in layer.and_gates {
                let (a, b) = (plan.slot_of[g.a as usize], plan.slot_of[g.b as usize]);
                let out = plan.assign(g.out);
                and_gates.push(AndGate { a, b, out });
            }
            for g in layer.and_gates {
                plan.release_if_last(g.a, tick);
                plan.release_if_last(g.b, tick);
            }
            // Linear gates, one tick each: the output gets its slot before the inputs are freed.
            for g in layer.linear_gates {
                tick += 1;
                let s = |w: WireId| plan.slot_of[w as usize];
                let mapped = match *g {
                    LinearGate::Xor { a, b, out } => LinearGate::Xor { a: s(a), b: s(b), out },
                    LinearGate::Inv { a, out } => LinearGate::Inv { a: s(a), out },
                    LinearGate::Copy { a, out } => LinearGate::Copy { a: s(a), out },
                    LinearGate::Const { value, out } => LinearGate::Const { value, out },
                };
                let out = plan.assign(g.out());
                linear_gates.push(with_out(mapped, out));
                for w in g.inputs() {
                    plan.release_if_last(w, tick);
                }
            }
            layer_ends.push((and_gates.len(), linear_gates.len()));
        }
        let outputs = (first_output..n_wires).map(|w| plan.slot_of[w]).collect();
        WireSlots { slots: plan.slots, and_gates, linear_gates, layer_ends, outputs }
    }

    /// Number of slots (at least the number of input wires).
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The slot of each output wire, in output order.
    pub fn outputs(&self) -> &[WireId] {
        &self.outputs
    }

    /// The layers of the circuit, in order, with slots in place of wires (`Layer::depth` as in
    /// the circuit).
    pub fn layers(&self) -> impl ExactSizeIterator<Item = Layer<'_>> + '_ {
        (0..self.layer_ends.len())
            .map(move |depth| Layer::slice(&self.and_gates, &self.linear_gates, &self.layer_ends, depth))
    }
}

fn with_out(gate: LinearGate, slot: WireId) -> LinearGate {
    match gate {
        LinearGate::Xor { a, b, .. } => LinearGate::Xor { a, b, out: slot },
        LinearGate::Inv { a, .. } => LinearGate::Inv { a, out: slot },
        LinearGate::Copy { a, .. } => LinearGate::Copy { a, out: slot },
        LinearGate::Const { value, .. } => LinearGate::Const { value, out: slot },
    }
}

struct Planner {
    slot_of: Vec<WireId>,
    free: Vec<WireId>,
    slots: usize,
    /// The tick of each wire's last read: 0 for a wire nobody reads (or whose slot is already
    /// free again), [`FOREVER`] for an output wire.
    last_use: Vec<u32>,
}

impl Planner {
    /// A slot for the new wire `w`; freed again at once if nobody reads `w`.
    fn assign(&mut self, w: WireId) -> WireId {
        let slot = self.free.pop().unwrap_or_else(|| {
            self.slots += 1;
            (self.slots - 1) as WireId
        });
        self.slot_of[w as usize] = slot;
        if self.last_use[w as usize] == 0 {
            self.free.push(slot);
        }
        slot
    }

    /// Frees `w`'s slot if `tick` is its last read (once, even if a gate reads it twice).
    fn release_if_last(&mut self, w: WireId, tick: u32) {
        if self.last_use[w as usize] == tick {
            self.free.push(self.slot_of[w as usize]);
            self.last_use[w as usize] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::testing::{random_circuit, random_inputs};
    use crate::circuit::Circuit;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    /// Plaintext evaluation on the slots, following the evaluation contract; AND gates one at a
    /// time (reads and write per gate, the strictest order the contract allows).
    fn evaluate_on_slots(slots: &WireSlots, circuit: &Circuit, inputs: &[Vec<bool>]) -> Vec<Vec<bool>> {
        let mut s = vec![false; slots.slots()];
        let flat: Vec<bool> = inputs.iter().flatten().copied().collect();
        s[..flat.len()].copy_from_slice(&flat);
        for layer in slots.layers() {
            for g in layer.and_gates {
                s[g.out as usize] = s[g.a as usize] & s[g.b as usize];
            }
            for g in layer.linear_gates {
                let v = match *g {
                    LinearGate::Xor { a, b, .. } => s[a as usize] ^ s[b as usize],
                    LinearGate::Inv { a, .. } => !s[a as usize],
                    LinearGate::Copy { a, .. } => s[a as usize],
                    LinearGate::Const { value, .. } => value,
                };
                s[g.out() as usize] = v;
            }
        }
        let mut outs = slots.outputs().iter().map(|&o| s[o as usize]);
        circuit.output_widths().iter().map(|&w| (&mut outs).take(w as usize).collect()).collect()
    }

    #[test]
    fn random_circuits_evaluate_as_on_wires() {
        let mut rng = ChaCha20Rng::seed_from_u64(11);
        for round in 0..200 {
            let circuit = random_circuit(&mut rng, 1 + round % 4, 5 + round * 3, 1 + round % 5);
            let slots = WireSlots::new(&circuit);
            assert!(slots.slots() <= circuit.num_wires(), "round {round}");
            assert_eq!(slots.layers().len(), circuit.layers().len());
            for inputs in random_inputs(&mut rng, &circuit, 4) {
                let expected = circuit.evaluate(&inputs).expect("evaluates");
                assert_eq!(evaluate_on_slots(&slots, &circuit, &inputs), expected, "round {round}");
            }
        }
    }

    #[test]
    fn aes_needs_far_fewer_slots_than_wires() {
        let circuit = crate::circuit::aes_gen::aes128_circuit().expect("generated");
        let slots = WireSlots::new(&circuit);
        assert!(
            slots.slots() * 4 < circuit.num_wires(),
            "{} slots for {} wires",
            slots.slots(),
            circuit.num_wires()
        );
        let key = [
            0x2bu8, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c,
        ];
        let pt = [
            0x32u8, 0x43, 0xf6, 0xa8, 0x88, 0x5a, 0x30, 0x8d, 0x31, 0x31, 0x98, 0xa2, 0xe0, 0x37, 0x07, 0x34,
        ];
        let inputs = crate::circuit::aes_bristol::input_bits(&key, &pt);
        let out = evaluate_on_slots(&slots, &circuit, &inputs);
        let ct = crate::circuit::aes_bristol::output_bytes(&out[0]).expect("128 bits");
        assert_eq!(
            ct,
            [0x39, 0x25, 0x84, 0x1d, 0x02, 0xdc, 0x09, 0xfb, 0xdc, 0x11, 0x85, 0x97, 0x19, 0x6a, 0x0b, 0x32]
        );
    }
}
