//! The bit-sliced online evaluation shared by the passive (Fig. 7) and malicious (Fig. 5 with free
//! XOR) protocols: the input exchange and one table-share exchange per AND layer.
//!
//! Security-specific work is a hook ([`Openings`]): the passive protocol does nothing, the
//! malicious one accumulates the authentication strings of every bit it opens and every bit the
//! peer opens (Fig. 5 steps 2 and 4b–c). Wire values are held as `L` lane words per wire
//! ([`crate::proto::tinytable::circuit::slice`]); the buffers are allocated once per evaluation, never per gate. Table
//! indices are public masked values, so lookups are selects on public data.

use crate::circuit::{AndGate, Circuit, LinearGate};
use crate::net::Network;
use crate::proto::tinytable::circuit::slice::{lane_words, lookup, pack, unpack};
use crate::proto::tinytable::error::{Step, TinyTableError};
use crate::proto::tinytable::msg::{recv, send};
use crate::proto::tinytable::spec::IoSpec;
use std::sync::Arc;

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

/// The circuit's gates with wires renamed to storage slots: a slot is reused once the wire held in
/// it has been read for the last time, so a batch needs `slots · L` words instead of
/// `wires · L` (for AES-128 a few hundred slots instead of 36 663 wires, which keeps the working set
/// in cache and avoids page faults).
struct SlotPlan {
    slots: usize,
    /// Slot of every output wire after evaluation (other wires' entries are stale). Input wire `w`
    /// starts in slot `w`: they are placed first, in order.
    slot_of: Vec<u32>,
    /// AND gates per layer (layer order), renamed.
    and_gates: Vec<AndGate>,
    /// Linear gates (layer order), renamed.
    linear_gates: Vec<LinearGate>,
    /// Per layer: number of AND gates and number of linear gates.
    layer_sizes: Vec<(usize, usize)>,
}

fn rename(gate: LinearGate, map: impl Fn(u32) -> u32, out: u32) -> LinearGate {
    match gate {
        LinearGate::Xor { a, b, .. } => LinearGate::Xor { a: map(a), b: map(b), out },
        LinearGate::Inv { a, .. } => LinearGate::Inv { a: map(a), out },
        LinearGate::Copy { a, .. } => LinearGate::Copy { a: map(a), out },
        LinearGate::Const { value, .. } => LinearGate::Const { value, out },
    }
}

impl SlotPlan {
    fn new(circuit: &Circuit) -> SlotPlan {
        const KEEP: usize = usize::MAX;
        // Evaluation order: per layer, all AND gates read (step `2·layer`), then linear gates in
        // order. `last[w]` is the step of the last read of `w`; outputs are kept to the end.
        let mut last = vec![0usize; circuit.num_wires()];
        let mut step = 0;
        for layer in circuit.layers() {
            step += 1;
            for g in layer.and_gates {
                last[g.a as usize] = step;
                last[g.b as usize] = step;
            }
            for g in layer.linear_gates {
                step += 1;
                for w in g.inputs() {
                    last[w as usize] = step;
                }
            }
        }
        let first_out = circuit.num_wires() - circuit.num_output_wires();
        for w in last.iter_mut().skip(first_out) {
            *w = KEEP;
        }
        let mut slot_of = vec![u32::MAX; circuit.num_wires()];
        let mut free: Vec<u32> = Vec::new();
        let mut slots = 0u32;
        let mut take = |free: &mut Vec<u32>| {
            free.pop().unwrap_or_else(|| {
                slots += 1;
                slots - 1
            })
        };
        for s in slot_of.iter_mut().take(circuit.num_input_wires()) {
            *s = take(&mut free);
        }
        let (mut and_gates, mut linear_gates, mut layer_sizes) = (Vec::new(), Vec::new(), Vec::new());
        let mut step = 0;
        for layer in circuit.layers() {
            step += 1;
            let mapped: Vec<AndGate> = layer
                .and_gates
                .iter()
                .map(|g| AndGate { a: slot_of[g.a as usize], b: slot_of[g.b as usize], out: 0 })
                .collect();
            for g in layer.and_gates {
                for w in [g.a, g.b] {
                    if last[w as usize] == step && slot_of[w as usize] != u32::MAX {
                        free.push(slot_of[w as usize]);
                        slot_of[w as usize] = u32::MAX;
                    }
                }
            }
            for (mut m, g) in mapped.into_iter().zip(layer.and_gates) {
                m.out = take(&mut free);
                slot_of[g.out as usize] = m.out;
                and_gates.push(m);
            }
            for g in layer.linear_gates {
                step += 1;
                // At most two inputs (no allocation per gate: this runs once per evaluation).
                let mut inputs = [(u32::MAX, u32::MAX); 2];
                let mut count = 0;
                for (entry, w) in inputs.iter_mut().zip(g.inputs()) {
                    *entry = (w, slot_of[w as usize]);
                    count += 1;
                }
                let inputs = &inputs[..count];
                let map = |w: u32| inputs.iter().find(|(x, _)| *x == w).map_or(0, |&(_, s)| s);
                for &(w, s) in inputs {
                    if last[w as usize] == step && slot_of[w as usize] == s && s != u32::MAX {
                        free.push(s);
                        slot_of[w as usize] = u32::MAX;
                    }
                }
                let out = take(&mut free);
                slot_of[g.out() as usize] = out;
                linear_gates.push(rename(*g, map, out));
            }
            layer_sizes.push((layer.and_gates.len(), layer.linear_gates.len()));
            // Wires written but never read (and not outputs) give their slots back at once.
            for g in layer.and_gates.iter().map(|g| g.out).chain(layer.linear_gates.iter().map(|g| g.out())) {
                if last[g as usize] == 0 && slot_of[g as usize] != u32::MAX {
                    free.push(slot_of[g as usize]);
                    slot_of[g as usize] = u32::MAX;
                }
            }
        }
        SlotPlan { slots: slots as usize, slot_of, and_gates, linear_gates, layer_sizes }
    }
}

/// A circuit together with its bit-sliced evaluation plan: which storage slot holds each wire
/// when, a function of the public circuit only. Whoever evaluates one circuit many times (a job,
/// a benchmark) plans it once and passes this value to every online phase; a bare `&Circuit`
/// converts into a freshly planned one.
#[derive(Clone)]
pub struct PlannedCircuit<'c> {
    circuit: &'c Circuit,
    plan: Arc<SlotPlan>,
}

impl<'c> PlannedCircuit<'c> {
    /// Plans the evaluation of `circuit` (for AES-128, about a fifth of the online work of a batch
    /// of 1024 instances, hence worth doing once).
    pub fn new(circuit: &'c Circuit) -> Self {
        PlannedCircuit { circuit, plan: Arc::new(SlotPlan::new(circuit)) }
    }

    /// The planned circuit.
    pub fn circuit(&self) -> &'c Circuit {
        self.circuit
    }
}

impl core::fmt::Debug for PlannedCircuit<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PlannedCircuit").field("slots", &self.plan.slots).finish()
    }
}

impl<'c> From<&'c Circuit> for PlannedCircuit<'c> {
    fn from(circuit: &'c Circuit) -> Self {
        PlannedCircuit::new(circuit)
    }
}

impl<'c> From<&PlannedCircuit<'c>> for PlannedCircuit<'c> {
    fn from(planned: &PlannedCircuit<'c>) -> Self {
        planned.clone()
    }
}

/// Masked wire values after evaluation: the slots of the input and output wires.
pub(crate) struct MaskedWires {
    words: Vec<u64>,
    plan: Arc<SlotPlan>,
    lanes: usize,
}

impl MaskedWires {
    /// The `L` words of output wire `wire`.
    pub(crate) fn row(&self, wire: usize) -> &[u64] {
        let s = self.plan.slot_of[wire] as usize;
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
pub(crate) async fn evaluate_masked<N: Network, O: Openings>(
    net: &mut N,
    planned: &PlannedCircuit<'_>,
    input: EngineInput<'_>,
    openings: &mut O,
) -> Result<MaskedWires, TinyTableError> {
    let party = net.party();
    let n = input.instances;
    let l = lane_words(n);
    let (circuit, plan) = (planned.circuit, Arc::clone(&planned.plan));
    let mut wires = vec![0u64; plan.slots * l];

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

    let widest = plan.layer_sizes.iter().map(|&(ands, _)| ands).max().unwrap_or(0);
    let mut my_bits = vec![0u64; widest * l];
    let mut their_bits = vec![0u64; widest * l];
    let (mut first, mut next_linear) = (0, 0);
    for (depth, &(and_count, linear_count)) in plan.layer_sizes.iter().enumerate() {
        let ands = &plan.and_gates[first..first + and_count];
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
        for gate in &plan.linear_gates[next_linear..next_linear + linear_count] {
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
        next_linear += linear_count;
    }
    Ok(MaskedWires { words: wires, plan, lanes: l })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slot reuse shrinks the working set of AES-128 far below one word row per wire; correctness
    /// of the renaming is covered by every evaluation test of the module.
    /// A planned circuit converted again shares its plan; a bare circuit is planned afresh.
    #[test]
    fn planned_circuit_shares_its_plan() {
        let aes = crate::circuit::aes_gen::aes128_circuit().expect("generator");
        let planned = PlannedCircuit::new(&aes);
        let again = PlannedCircuit::from(&planned);
        assert!(Arc::ptr_eq(&planned.plan, &again.plan));
        let fresh = PlannedCircuit::from(&aes);
        assert!(!Arc::ptr_eq(&planned.plan, &fresh.plan));
        assert_eq!(fresh.plan.slot_of, planned.plan.slot_of);
    }

    #[test]
    fn slot_plan_reuses_slots_and_keeps_outputs() {
        let circuit = crate::circuit::aes_gen::aes128_circuit().expect("generator");
        let plan = SlotPlan::new(&circuit);
        assert!(
            plan.slots < circuit.num_wires() / 8,
            "{} slots for {} wires",
            plan.slots,
            circuit.num_wires()
        );
        assert_eq!(plan.and_gates.len(), circuit.gate_counts().and);
        assert_eq!(plan.linear_gates.len(), circuit.gate_counts().linear());
        let first_out = circuit.num_wires() - circuit.num_output_wires();
        let mut out_slots: Vec<u32> = plan.slot_of[first_out..].to_vec();
        assert!(out_slots.iter().all(|&s| (s as usize) < plan.slots));
        out_slots.sort_unstable();
        out_slots.dedup();
        assert_eq!(out_slots.len(), circuit.num_output_wires(), "distinct output slots");
    }
}
