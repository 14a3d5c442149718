//! The bit-sliced online evaluation shared by the passive (Fig. 7) and malicious (Fig. 5 with free
//! XOR) protocols: the input exchange and one table-share exchange per AND layer.
//!
//! Security-specific work is a hook ([`Openings`]): the passive protocol does nothing, the
//! malicious one accumulates the authentication strings of every bit it opens and every bit the
//! peer opens (Fig. 5 steps 2 and 4b–c). Wire values are held as `L` lane words per wire
//! ([`super::slice`]); the buffers are allocated once per evaluation, never per gate. Table
//! indices are public masked values, so lookups are selects on public data.

use super::error::{Step, TinyTableError};
use super::msg::{recv, send};
use super::prep::IoSpec;
use super::slice::{lane_words, lookup, pack, unpack};
use crate::circuit::{AndGate, Circuit, LinearGate};
use crate::net::Network;

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

/// The material the engine reads, in the [`super::slice`] layout.
pub(crate) struct EngineInput<'a> {
    pub(crate) io: &'a IoSpec,
    pub(crate) instances: usize,
    pub(crate) tables: &'a [u64],
    pub(crate) input_masks: &'a [u64],
    /// This party's input bits, sliced per owned input wire.
    pub(crate) inputs: &'a [u64],
}

/// Runs the input exchange and every AND layer; returns the masked value of every wire
/// (word `w·L + l`).
pub(crate) async fn evaluate_masked<N: Network, O: Openings>(
    net: &mut N,
    circuit: &Circuit,
    input: EngineInput<'_>,
    openings: &mut O,
) -> Result<Vec<u64>, TinyTableError> {
    let party = net.party();
    let n = input.instances;
    let l = lane_words(n);
    let mut wires = vec![0u64; circuit.num_wires() * l];

    let mine = input.io.owned_input_wires(circuit, party);
    let theirs = input.io.owned_input_wires(circuit, 1 - party);
    let mut masked = vec![0u64; mine.len() * l];
    for (k, &wire) in mine.iter().enumerate() {
        for j in 0..l {
            let e = input.inputs[k * l + j] ^ input.input_masks[k * l + j];
            masked[k * l + j] = e;
            wires[wire * l + j] = e;
        }
    }
    send(net, Step::Input, pack(&masked, mine.len(), n))?;
    let msg = recv(net, Step::Input, (theirs.len() * n).div_ceil(8)).await?;
    let mut received = vec![0u64; theirs.len() * l];
    unpack(&msg, theirs.len(), n, &mut received);
    for (k, &wire) in theirs.iter().enumerate() {
        wires[wire * l..(wire + 1) * l].copy_from_slice(&received[k * l..(k + 1) * l]);
    }

    let widest = circuit.and_layers().map(<[AndGate]>::len).max().unwrap_or(0);
    let mut my_bits = vec![0u64; widest * l];
    let mut their_bits = vec![0u64; widest * l];
    let mut first = 0;
    for layer in circuit.layers() {
        let ands = layer.and_gates;
        if !ands.is_empty() {
            let step = Step::AndLayer(layer.depth);
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
                LinearGate::Const { value, .. } => wires[out..out + l].fill(0u64.wrapping_sub(u64::from(value))),
            }
        }
    }
    Ok(wires)
}
