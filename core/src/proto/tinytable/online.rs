//! Semi-honest online phase for any binary circuit: Fig. 7 (Fig. 2 with free XOR, §2.1) with NOT
//! gates handled locally (§2.2).
//!
//! Both parties hold the masked value `e_w = x_w ⊕ r_w` of every wire. Input owners send
//! `e_u = x_u ⊕ r_u` (they know `r_u`); XOR, NOT, copy and constant gates are local
//! (`e_o = e_u ⊕ e_v`, `e_o = 1 − e_u`, `e_o = e_u`, constants have mask 0); for an AND gate each
//! party sends its table share's entry at `(e_u, e_v)` and both XOR the two bits to get `e_o`.
//! Outputs are `e_o ⊕ r_o` for the parties the dealer gave `r_o` to (Fig. 6 step 3): no output
//! round.
//!
//! Communication of a batch of `n` instances, per party and direction:
//! - round 1 (input): one message of `ceil(n · owned input wires / 8)` bytes (sent even if empty);
//! - one round per AND layer `k`: one message of `ceil(n · ANDs_k / 8)` bytes.
//!
//! So rounds = 1 + AND-depth and, for `n = 1`, bytes = `ceil(inputs/8) + Σ_k ceil(ANDs_k / 8)`.
//! For AES-128 (both the shared `aes_128.txt` and [`crate::circuit::aes_gen`]: 6400 ANDs, AND-depth
//! 60, Σ_k ceil(ANDs_k / 8) = 820) each party sends 16 + 820 = 836 bytes in 61 rounds per block,
//! and holds 3200 bytes of table shares (the paper's §5 circuit has 5440 ANDs, depth 40: 2.7 KiB).
//! Table indices `(e_u, e_v)` are public masked values, so the lookups do not branch on secrets.

use super::error::{Step, TinyTableError};
use super::msg::{bit, check_two_parties, pack_bits, recv, send};
use super::prep::BinaryPrep;
use crate::circuit::{Circuit, LinearGate};
use crate::net::Network;

/// The outputs of one instance for one party: per output value, its bits if revealed to the party.
pub type Outputs = Vec<Option<Vec<bool>>>;

/// Evaluates one instance of `circuit`; see [`evaluate_batch`].
pub async fn evaluate<N: Network>(
    net: &mut N,
    circuit: &Circuit,
    prep: &BinaryPrep,
    inputs: &[Vec<bool>],
) -> Result<Outputs, TinyTableError> {
    let mut out = evaluate_batch(net, circuit, core::slice::from_ref(prep), &[inputs.to_vec()]).await?;
    Ok(out.pop().unwrap_or_default())
}

/// Evaluates `preps.len()` independent instances of `circuit` at once: one message per direction
/// for the inputs and one per AND layer, shared by all instances.
///
/// `inputs[i]` holds this party's input values of instance `i`, one per input value it owns (in
/// circuit order). The result has, per instance, one entry per output value: `Some(bits)` if the
/// value is revealed to this party, else `None`.
pub async fn evaluate_batch<N: Network>(
    net: &mut N,
    circuit: &Circuit,
    preps: &[BinaryPrep],
    inputs: &[Vec<Vec<bool>>],
) -> Result<Vec<Outputs>, TinyTableError> {
    check_two_parties(net)?;
    let party = net.party();
    let Some(first) = preps.first() else { return Ok(Vec::new()) };
    for prep in preps {
        prep.check(circuit, party)?;
        if prep.io != first.io {
            return Err(TinyTableError::PrepMismatch {
                party,
                reason: "instances differ in their IoSpec".into(),
            });
        }
    }
    if inputs.len() != preps.len() {
        return Err(TinyTableError::BadInput {
            party,
            instance: inputs.len().min(preps.len()),
            reason: format!("{} input sets for {} instances", inputs.len(), preps.len()),
        });
    }
    let io = &first.io;
    let mine = io.owned_input_wires(circuit, party);
    let theirs = io.owned_input_wires(circuit, 1 - party);
    let n = preps.len();
    let mut wires: Vec<Vec<bool>> = vec![vec![false; circuit.num_wires()]; n];

    let mut masked_inputs = Vec::with_capacity(n * mine.len());
    for (instance, (prep, values)) in preps.iter().zip(inputs).enumerate() {
        let bits = own_input_bits(circuit, io, party, instance, values)?;
        for ((&wire, &x), &r) in mine.iter().zip(&bits).zip(&prep.input_masks) {
            wires[instance][wire] = x ^ r;
            masked_inputs.push(x ^ r);
        }
    }
    send(net, Step::Input, pack_bits(masked_inputs))?;
    let msg = recv(net, Step::Input, (n * theirs.len()).div_ceil(8)).await?;
    for (instance, values) in wires.iter_mut().enumerate() {
        for (k, &wire) in theirs.iter().enumerate() {
            values[wire] = bit(&msg, instance * theirs.len() + k);
        }
    }

    let mut gate_offset = 0;
    for layer in circuit.layers() {
        let ands = layer.and_gates;
        if !ands.is_empty() {
            let step = Step::AndLayer(layer.depth);
            let my_bits = wires.iter().zip(preps).flat_map(|(values, prep)| {
                ands.iter().enumerate().map(move |(k, g)| {
                    let index = 2 * usize::from(values[g.a as usize]) + usize::from(values[g.b as usize]);
                    prep.table(gate_offset + k) >> index & 1 == 1
                })
            });
            let my_msg = pack_bits(my_bits);
            send(net, step, my_msg.clone())?;
            let their_msg = recv(net, step, (n * ands.len()).div_ceil(8)).await?;
            for (instance, values) in wires.iter_mut().enumerate() {
                for (k, g) in ands.iter().enumerate() {
                    let i = instance * ands.len() + k;
                    values[g.out as usize] = bit(&my_msg, i) ^ bit(&their_msg, i);
                }
            }
            gate_offset += ands.len();
        }
        for values in wires.iter_mut() {
            for gate in layer.linear_gates {
                values[gate.out() as usize] = match *gate {
                    LinearGate::Xor { a, b, .. } => values[a as usize] ^ values[b as usize],
                    LinearGate::Inv { a, .. } => !values[a as usize],
                    LinearGate::Copy { a, .. } => values[a as usize],
                    LinearGate::Const { value, .. } => value,
                };
            }
        }
    }

    let revealed = io.revealed_output_wires(circuit, party);
    let mut results = Vec::with_capacity(n);
    for (values, prep) in wires.iter().zip(preps) {
        let mut clear = revealed.iter().zip(&prep.output_masks).map(|(&w, &r)| values[w] ^ r);
        let per_value = (0..circuit.output_widths().len())
            .map(|value| {
                let width = circuit.output_widths()[value] as usize;
                io.reveal[value].includes(party).then(|| clear.by_ref().take(width).collect())
            })
            .collect();
        results.push(per_value);
    }
    Ok(results)
}

/// This party's input bits of one instance, in owned-wire order, checked against the value widths.
fn own_input_bits(
    circuit: &Circuit,
    io: &super::prep::IoSpec,
    party: usize,
    instance: usize,
    values: &[Vec<bool>],
) -> Result<Vec<bool>, TinyTableError> {
    let owned: Vec<usize> = (0..io.input_owners.len()).filter(|&v| io.input_owners[v] == party).collect();
    if values.len() != owned.len() {
        return Err(TinyTableError::BadInput {
            party,
            instance,
            reason: format!("{} input values supplied, party owns {}", values.len(), owned.len()),
        });
    }
    let mut bits = Vec::new();
    for (&value, supplied) in owned.iter().zip(values) {
        let width = circuit.input_widths()[value] as usize;
        if supplied.len() != width {
            return Err(TinyTableError::BadInput {
                party,
                instance,
                reason: format!("input value {value} has {} bits, expected {width}", supplied.len()),
            });
        }
        bits.extend_from_slice(supplied);
    }
    Ok(bits)
}
