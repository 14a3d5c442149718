//! Packed evaluation of any Bristol circuit over a batch of instances (§2.2.4, §5.3).
//!
//! Packing is across instances: instance `14·p + l` of the batch lives in lane l of pack p, so
//! every wire of the circuit is one sharing per pack and every gate lines up across the lanes
//! (only live wires are stored: [`crate::circuit::WireSlots`] reuses the storage of dead ones) —
//! any Bristol circuit is evaluated packed, whatever its layer shapes, and a batch that does not
//! fill its last pack leaves that pack's upper lanes at zero (their outputs are dropped). Per AND
//! layer: one round, one quintuple per AND gate and pack. The paper's §5.3 runs 140 instances
//! (10 full packs) this way.
//!
//! Inputs: each input value of the circuit has an owner (a party); the owner gives that value
//! for every instance. Outputs go to every party ([`evaluate`]) or, value by value, to every
//! party or to one party only ([`evaluate_revealed`], by [`Party::output_to`]: a private output
//! value consumes one of its recipient's input masks per wire and pack instead of an encoding
//! pair).

use core::ops::Range;

use crate::circuit::{Circuit, LinearGate, WireId};
use crate::net::{Network, PartyId};

use super::error::CoralError;
use super::online::{InputRequest, Lanes, Party, ALL_LANES};

/// One instance's outputs from [`evaluate_revealed`]: per output value its bits, or `None` if it
/// went to another party.
pub type RevealedOutputs = Vec<Option<Vec<bool>>>;
use super::prep::Demand;
use super::share::{RShare, LANES};

/// Largest batch (instances) of one evaluation.
pub const MAX_BATCH: usize = 1 << 20;
/// Largest number of wire sharings (wires × packs) one evaluation holds.
pub const MAX_WIRE_SHARINGS: usize = 1 << 26;

/// Number of packs for `batch` instances.
pub fn packs(batch: usize) -> usize {
    batch.div_ceil(LANES)
}

fn check_shape(
    circuit: &Circuit,
    owners: &[PartyId],
    parties: usize,
    batch: usize,
) -> Result<usize, CoralError> {
    if batch == 0 || batch > MAX_BATCH {
        return Err(CoralError::Limit {
            what: "batch size (instances, at least 1)",
            found: batch,
            limit: MAX_BATCH,
        });
    }
    if owners.len() != circuit.input_widths().len() {
        return Err(CoralError::BadInput(format!(
            "{} input owners for a circuit with {} input values",
            owners.len(),
            circuit.input_widths().len()
        )));
    }
    if let Some(&o) = owners.iter().find(|&&o| o >= parties) {
        return Err(CoralError::BadInput(format!("input owner {o} is not one of {parties} parties")));
    }
    let p = packs(batch);
    let sharings = circuit.num_wires().saturating_mul(p);
    if sharings > MAX_WIRE_SHARINGS {
        return Err(CoralError::Limit {
            what: "wire sharings (wires × packs)",
            found: sharings,
            limit: MAX_WIRE_SHARINGS,
        });
    }
    Ok(p)
}

/// The material one evaluation of `circuit` on `batch` instances consumes, every output to
/// every party.
///
/// # Errors
/// [`CoralError::Limit`] / [`CoralError::BadInput`] as [`evaluate`].
pub fn demand(
    circuit: &Circuit,
    owners: &[PartyId],
    parties: usize,
    batch: usize,
) -> Result<Demand, CoralError> {
    demand_revealed(circuit, owners, &vec![None; circuit.output_widths().len()], parties, batch)
}

/// The material of [`evaluate_revealed`]: output value v to `recipients[v]` only (`None`: to
/// every party).
///
/// # Errors
/// [`CoralError::Limit`] / [`CoralError::BadInput`] as [`evaluate_revealed`].
pub fn demand_revealed(
    circuit: &Circuit,
    owners: &[PartyId],
    recipients: &[Option<PartyId>],
    parties: usize,
    batch: usize,
) -> Result<Demand, CoralError> {
    let p = check_shape(circuit, owners, parties, batch)?;
    check_recipients(circuit, recipients, parties)?;
    let mut d = Demand::empty(parties);
    d.quintuples = circuit.gate_counts().and * p;
    for (&owner, &width) in owners.iter().zip(circuit.input_widths()) {
        d.input_masks[owner] += width as usize * p;
    }
    for (&to, &width) in recipients.iter().zip(circuit.output_widths()) {
        match to {
            None => d.encodings += width as usize * p,
            Some(r) => d.input_masks[r] += width as usize * p,
        }
    }
    Ok(d)
}

fn check_recipients(
    circuit: &Circuit,
    recipients: &[Option<PartyId>],
    parties: usize,
) -> Result<(), CoralError> {
    if recipients.len() != circuit.output_widths().len() {
        return Err(CoralError::BadInput(format!(
            "{} output recipients for a circuit with {} output values",
            recipients.len(),
            circuit.output_widths().len()
        )));
    }
    if let Some(r) = recipients.iter().flatten().find(|&&r| r >= parties) {
        return Err(CoralError::BadInput(format!("output recipient {r} is not one of {parties} parties")));
    }
    Ok(())
}

/// Evaluates `circuit` on `batch` instances. `owners[v]` owns input value v; `my_inputs[i][j]`
/// is instance i's j-th input value among those this party owns (in circuit order). Returns
/// `[instance][output value][bit]` at every party.
///
/// # Errors
/// [`CoralError::Limit`] if the batch is empty or above [`MAX_BATCH`] or the wires × packs
/// exceed [`MAX_WIRE_SHARINGS`]; [`CoralError::BadInput`] if owners or inputs do not match the
/// circuit; [`CoralError::CheckFailed`] if a party deviated; material or network errors.
pub async fn evaluate<N: Network>(
    party: &mut Party,
    net: &mut N,
    circuit: &Circuit,
    owners: &[PartyId],
    batch: usize,
    my_inputs: &[Vec<Vec<bool>>],
) -> Result<Vec<Vec<Vec<bool>>>, CoralError> {
    let everybody = vec![None; circuit.output_widths().len()];
    let outputs = evaluate_revealed(party, net, circuit, owners, &everybody, batch, my_inputs).await?;
    outputs
        .into_iter()
        .map(|values| values.into_iter().collect::<Option<Vec<_>>>())
        .collect::<Option<Vec<_>>>()
        .ok_or(CoralError::BadInput("an output was withheld".into()))
}

/// `wires[out] = wires[a] + wires[b]` for slots of `out.len()` shares, `out` disjoint from both
/// inputs (they may be equal). Splitting around `out` first leaves the loop without bounds checks.
fn xor_slots(wires: &mut [RShare], out: Range<usize>, a: usize, b: usize) {
    let p = out.len();
    let (before, rest) = wires.split_at_mut(out.start);
    let (dst, after) = rest.split_at_mut(p);
    let slot = |s: usize| if s < out.start { &before[s..s + p] } else { &after[s - out.end..][..p] };
    for ((d, &x), &y) in dst.iter_mut().zip(slot(a)).zip(slot(b)) {
        *d = x + y;
    }
}

/// [`evaluate`] with output value v revealed to `recipients[v]` only (`None`: to every party);
/// returns `[instance][output value]` with `None` for the values of other parties. The material
/// must cover [`demand_revealed`].
///
/// # Errors
/// As [`evaluate`], and [`CoralError::BadInput`] if the recipients do not fit the circuit.
pub async fn evaluate_revealed<N: Network>(
    party: &mut Party,
    net: &mut N,
    circuit: &Circuit,
    owners: &[PartyId],
    recipients: &[Option<PartyId>],
    batch: usize,
    my_inputs: &[Vec<Vec<bool>>],
) -> Result<Vec<RevealedOutputs>, CoralError> {
    let me = party.party();
    let p = check_shape(circuit, owners, party.parties, batch)?;
    check_recipients(circuit, recipients, party.parties)?;
    let mine: Vec<usize> = (0..owners.len()).filter(|&v| owners[v] == me).collect();
    if !mine.is_empty() && my_inputs.len() != batch {
        return Err(CoralError::BadInput(format!(
            "{} input instances for a batch of {batch}",
            my_inputs.len()
        )));
    }
    for (i, instance) in my_inputs.iter().enumerate() {
        if instance.len() != mine.len() {
            return Err(CoralError::BadInput(format!(
                "instance {i}: {} input values, party {me} owns {}",
                instance.len(),
                mine.len()
            )));
        }
        for (value, &v) in instance.iter().zip(&mine) {
            let width = circuit.input_widths()[v] as usize;
            if value.len() != width {
                return Err(CoralError::BadInput(format!(
                    "instance {i}, input value {v}: {} bits, expected {width}",
                    value.len()
                )));
            }
        }
    }
    // Every AND gate opens two elements per pack, and every output one: make room for them in
    // the MAC check's log at once rather than growing it layer by layer.
    let and_gates: usize = circuit.wire_slots().layers().map(|l| l.and_gates.len()).sum();
    party.opened.reserve((2 * and_gates + circuit.num_output_wires()) * p);
    // Input requests, wire-major then pack.
    let mut requests = Vec::with_capacity(circuit.num_input_wires() * p);
    for (v, &owner) in owners.iter().enumerate() {
        let own_index = mine.iter().position(|&m| m == v);
        for bit in 0..circuit.input_widths()[v] as usize {
            for pack in 0..p {
                let lanes = own_index.map(|j| {
                    (0..LANES)
                        .filter(|l| my_inputs.get(pack * LANES + l).is_some_and(|inst| inst[j][bit]))
                        .fold(0 as Lanes, |acc, l| acc | 1 << l)
                });
                requests.push(InputRequest { owner, lanes });
            }
        }
    }
    let inputs = party.input(net, &requests).await?;
    // Live wires only (input wire i is slot i), `p` packs per slot.
    let slots = circuit.wire_slots();
    let mut wires = vec![RShare::default(); slots.slots() * p];
    wires[..inputs.len()].copy_from_slice(&inputs);
    let at = |w: WireId| w as usize * p..(w as usize + 1) * p;
    for layer in slots.layers() {
        if !layer.and_gates.is_empty() {
            let mut pairs = Vec::with_capacity(layer.and_gates.len() * p);
            for g in layer.and_gates {
                pairs.extend(wires[at(g.a)].iter().copied().zip(wires[at(g.b)].iter().copied()));
            }
            let products = party.mul(net, &pairs).await?;
            for (g, chunk) in layer.and_gates.iter().zip(products.chunks_exact(p)) {
                wires[at(g.out)].copy_from_slice(chunk);
            }
        }
        for g in layer.linear_gates {
            // A linear gate's output slot is never one of its input slots (see `WireSlots`).
            let out = at(g.out());
            match *g {
                LinearGate::Xor { a, b, .. } => xor_slots(&mut wires, out, at(a).start, at(b).start),
                LinearGate::Inv { a, .. } => {
                    let a = at(a).start;
                    for k in 0..p {
                        wires[out.start + k] = party.not(wires[a + k]);
                    }
                }
                LinearGate::Copy { a, .. } => wires.copy_within(at(a), out.start),
                LinearGate::Const { value, .. } => {
                    let c = if value { party.constant(ALL_LANES) } else { RShare::default() };
                    wires[out].fill(c);
                }
            }
        }
    }
    let outputs: Vec<RShare> = slots.outputs().iter().flat_map(|&o| wires[at(o)].iter().copied()).collect();
    let wire_recipients: Vec<Option<PartyId>> = recipients
        .iter()
        .zip(circuit.output_widths())
        .flat_map(|(&to, &width)| std::iter::repeat_n(to, width as usize * p))
        .collect();
    let lanes = party.output_to(net, &outputs, &wire_recipients).await?;
    let mut result: Vec<RevealedOutputs> = (0..batch)
        .map(|_| {
            recipients
                .iter()
                .zip(circuit.output_widths())
                .map(|(to, &w)| to.is_none_or(|r| r == me).then(|| Vec::with_capacity(w as usize)))
                .collect()
        })
        .collect();
    let mut wire = 0usize;
    for (value, &width) in circuit.output_widths().iter().enumerate() {
        for _ in 0..width {
            for (i, inst) in result.iter_mut().enumerate() {
                if let (Some(bits), Some(l)) = (&mut inst[value], lanes[wire * p + i / LANES]) {
                    bits.push(l >> (i % LANES) & 1 == 1);
                }
            }
            wire += 1;
        }
    }
    Ok(result)
}
