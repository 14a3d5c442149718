//! The bit-sliced online evaluation shared by the passive (Fig. 7) and malicious (Fig. 5 with free
//! XOR) protocols: the input exchange and one table-share exchange per AND layer.
//!
//! Security-specific work is a hook ([`Openings`]): the passive protocol does nothing, the
//! malicious one accumulates the authentication strings of every bit it opens and every bit the
//! peer opens (Fig. 5 steps 2 and 4b–c). Wire values are held as `L` lane words per wire
//! ([`crate::proto::tinytable::circuit::slice`]); the buffers are allocated once per evaluation, never per gate. Table
//! indices are public masked values, so lookups are selects on public data.

use crate::circuit::{AndGate, Circuit, LinearGate, WireId, WireSlots};
use crate::net::Network;
use crate::proto::tinytable::circuit::slice::{lane_words, lookup, pack, unpack};
use crate::proto::tinytable::error::{Step, TinyTableError};
use crate::proto::tinytable::msg::{recv, send};
use crate::proto::tinytable::spec::IoSpec;

/// What a protocol does with the table bits opened in one AND layer.
pub(crate) trait Openings {
    /// Called once both parties' table bits of AND gates `first..first + gates.len()` are known:
    /// the table indices are in `wires`, the peer's bits in `theirs` (word `k·L + l` for gate
    /// `first + k`). This party's own opened entries are the ones at those indices.
    fn opened(&mut self, first: usize, gates: &[AndGate], wires: &[u64], theirs: &[u64]);
}

/// The passive protocol checks nothing.
pub(crate) struct Unchecked;

impl Openings for Unchecked {
    fn opened(&mut self, _: usize, _: &[AndGate], _: &[u64], _: &[u64]) {}
}

/// A circuit with its evaluation on storage slots planned ([`Circuit::wire_slots`]: a slot is
/// reused once the wire held in it has been read for the last time, so a batch needs
/// `slots · L` words instead of `wires · L`; for AES-128 a few hundred slots instead of 36,663
/// wires, which keeps the working set in cache). The plan is a function of the public circuit,
/// made once and kept with the circuit (its clones share it), so jobs that evaluate one circuit
/// again, and the benchmarks, plan it once; a bare `&Circuit` converts into this.
#[derive(Clone, Copy)]
pub struct PlannedCircuit<'c> {
    circuit: &'c Circuit,
    slots: &'c WireSlots,
}

impl<'c> PlannedCircuit<'c> {
    /// Plans the evaluation of `circuit` (for AES-128, about a fifth of the online work of a batch
    /// of 1024 instances), or takes the plan the circuit already holds.
    pub fn new(circuit: &'c Circuit) -> Self {
        PlannedCircuit { circuit, slots: circuit.wire_slots() }
    }

    /// The planned circuit.
    pub fn circuit(&self) -> &'c Circuit {
        self.circuit
    }
}

impl core::fmt::Debug for PlannedCircuit<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PlannedCircuit").field("slots", &self.slots.slots()).finish()
    }
}

impl<'c> From<&'c Circuit> for PlannedCircuit<'c> {
    fn from(circuit: &'c Circuit) -> Self {
        PlannedCircuit::new(circuit)
    }
}

impl<'c> From<&PlannedCircuit<'c>> for PlannedCircuit<'c> {
    fn from(planned: &PlannedCircuit<'c>) -> Self {
        *planned
    }
}

/// Masked wire values after evaluation, of which the output wires' are read.
pub(crate) struct MaskedWires<'c> {
    words: Vec<u64>,
    /// The slot of each output wire, in output order.
    outputs: &'c [WireId],
    first_output: usize,
    lanes: usize,
}

impl MaskedWires<'_> {
    /// The `L` words of output wire `wire`.
    pub(crate) fn row(&self, wire: usize) -> &[u64] {
        let s = self.outputs[wire - self.first_output] as usize;
        &self.words[s * self.lanes..(s + 1) * self.lanes]
    }
}

/// The material the engine reads, in the [`crate::proto::tinytable::circuit::slice`] layout.
pub(crate) struct EngineInput<'a> {
    pub(crate) io: &'a IoSpec,
    pub(crate) instances: usize,
    pub(crate) tables: &'a [u64],
    pub(crate) input_masks: &'a [u64],
    /// This party's input bits, sliced per owned input wire.
    pub(crate) inputs: &'a [u64],
}

/// Runs the input exchange and every AND layer; returns the masked values of the output wires.
pub(crate) async fn evaluate_masked<'c, N: Network, O: Openings>(
    net: &mut N,
    planned: &PlannedCircuit<'c>,
    input: EngineInput<'_>,
    openings: &mut O,
) -> Result<MaskedWires<'c>, TinyTableError> {
    let party = net.party();
    let n = input.instances;
    let l = lane_words(n);
    let (circuit, plan) = (planned.circuit, planned.slots);
    // Input wire w is slot w (see `WireSlots`).
    let mut wires = vec![0u64; plan.slots() * l];

    let mine = input.io.owned_input_wires(circuit, party);
    let theirs = input.io.owned_input_wires(circuit, 1 - party);
    let mut masked = vec![0u64; mine.len() * l];
    for (k, &slot) in mine.iter().enumerate() {
        for j in 0..l {
            let e = input.inputs[k * l + j] ^ input.input_masks[k * l + j];
            masked[k * l + j] = e;
            wires[slot * l + j] = e;
        }
    }
    send(net, Step::Input, pack(&masked, mine.len(), n))?;
    let msg = recv(net, Step::Input, (theirs.len() * n).div_ceil(8)).await?;
    let mut received = vec![0u64; theirs.len() * l];
    unpack(&msg, theirs.len(), n, &mut received);
    for (k, &slot) in theirs.iter().enumerate() {
        wires[slot * l..(slot + 1) * l].copy_from_slice(&received[k * l..(k + 1) * l]);
    }

    let widest = plan.layers().map(|layer| layer.and_gates.len()).max().unwrap_or(0);
    let mut my_bits = vec![0u64; widest * l];
    let mut their_bits = vec![0u64; widest * l];
    // `first`: the index of the layer's first AND gate in the circuit (its table's position).
    let mut first = 0;
    for layer in plan.layers() {
        let (depth, ands) = (layer.depth, layer.and_gates);
        if !ands.is_empty() {
            let step = Step::AndLayer(depth);
            for (k, g) in ands.iter().enumerate() {
                let (a, b) = (g.a as usize * l, g.b as usize * l);
                let table = &input.tables[4 * (first + k) * l..4 * (first + k + 1) * l];
                for j in 0..l {
                    let entries = [table[j], table[l + j], table[2 * l + j], table[3 * l + j]];
                    my_bits[k * l + j] = lookup(&entries, wires[a + j], wires[b + j]);
                }
            }
            send(net, step, pack(&my_bits, ands.len(), n))?;
            let msg = recv(net, step, (ands.len() * n).div_ceil(8)).await?;
            unpack(&msg, ands.len(), n, &mut their_bits);
            openings.opened(first, ands, &wires, &their_bits);
            for (k, g) in ands.iter().enumerate() {
                let out = g.out as usize * l;
                for j in 0..l {
                    wires[out + j] = my_bits[k * l + j] ^ their_bits[k * l + j];
                }
            }
            first += ands.len();
        }
        for gate in layer.linear_gates {
            let out = gate.out() as usize * l;
            match *gate {
                LinearGate::Xor { a, b, .. } => {
                    let (a, b) = (a as usize * l, b as usize * l);
                    for j in 0..l {
                        wires[out + j] = wires[a + j] ^ wires[b + j];
                    }
                }
                LinearGate::Inv { a, .. } => {
                    for j in 0..l {
                        wires[out + j] = !wires[a as usize * l + j];
                    }
                }
                LinearGate::Copy { a, .. } => wires.copy_within(a as usize * l..(a as usize + 1) * l, out),
                LinearGate::Const { value, .. } => {
                    wires[out..out + l].fill(0u64.wrapping_sub(u64::from(value)))
                }
            }
        }
    }
    let first_output = circuit.num_wires() - circuit.num_output_wires();
    Ok(MaskedWires { words: wires, outputs: plan.outputs(), first_output, lanes: l })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plan is the circuit's own (`Circuit::wire_slots`): planning a circuit again, a planned
    /// one converted again, or a clone of the circuit, all share it.
    #[test]
    fn planned_circuits_share_the_circuits_plan() {
        let aes = crate::circuit::aes_gen::aes128_circuit().expect("generator");
        let planned = PlannedCircuit::new(&aes);
        let again = PlannedCircuit::from(&planned);
        assert!(core::ptr::eq(planned.slots, again.slots));
        assert!(core::ptr::eq(PlannedCircuit::from(&aes).slots, planned.slots));
        let copy = aes.clone();
        assert!(core::ptr::eq(PlannedCircuit::new(&copy).slots, planned.slots));
        assert!(planned.slots.slots() < aes.num_wires() / 8, "{} slots", planned.slots.slots());
    }
}
