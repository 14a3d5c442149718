//! Malicious-secure online phase for any binary circuit: Fig. 5 with free XOR (Fig. 6/7, §2.1),
//! for a bit-sliced batch of instances and `k`-bit lookup MACs ([`super::mac`]).
//!
//! Rounds, per party and direction:
//! 1. input: `e_u = x_u ⊕ r_u` for owned input wires (Fig. 5 step 3);
//! 2. one round per AND layer: the table bits at `(e_u, e_v)` (step 4b–c). No MAC is sent; each
//!    party XORs the string of every bit it opens into `m` and the verification string of every
//!    bit the peer opens (selected by the received bit) into `t` (step 2, 4b–c);
//! 3. MAC check: exchange `m` (k bits for the whole batch); each party compares the peer's `m` with
//!    its `t` and aborts with [`TinyTableError::MacCheckFailed`] on a mismatch (step 4, "check");
//! 4. output: only after the check passed, each party opens its shares of the masks of the
//!    output wires revealed to the peer, with one accumulated string; the recipient checks it
//!    and then outputs `e_o ⊕ r_o` (steps 5–7).
//!
//! So rounds = 1 + AND-depth + 2 (the paper: "41 rounds for the passive version and 43 for the
//! active"), and the extra communication is `k` bits for the check, plus `k` bits and one bit per
//! revealed output wire and instance for the output step. A cheater that sends any wrong table bit
//! must guess an independent `k`-bit string: detected except with probability `2^-k` before it sees
//! any output.

use super::engine::{evaluate_masked, EngineInput, Openings};
use super::error::{MacCheck, Step, TinyTableError};
use super::mac::{key_blocks, MacWord, SeededKeys, KEY_CHUNK};
use super::malicious_prep::{output_positions, MaliciousPrep, TableKeys};
use super::msg::{check_two_parties, recv, send};
use super::online::Outputs;
use super::prefetch::prefetch;
use super::slice::{lane_words, pack, slice_inputs, unpack, unslice_outputs};
use crate::circuit::{AndGate, Circuit};
use crate::net::Network;

/// How far ahead (in instance-gate positions) the MAC accumulation prefetches its material. The
/// material of one AND layer is one contiguous stream; an explicit prefetch keeps it flowing across
/// 4 KiB page boundaries, where the hardware stream prefetcher stops.
const PREFETCH_INSTANCES: usize = 32;

/// Accumulates the strings of opened table bits (Fig. 5 variables `m` and `t`).
struct MacAccumulator<'a, M> {
    instances: usize,
    own_macs: &'a [M],
    peer_keys: &'a TableKeys<M>,
    /// XOR of this party's strings of the bits it opened (`m`).
    sent: M,
    /// XOR of the verification strings of the bits the peer opened (`t`).
    expected: M,
}

/// Table index `2c + d` of instance `bit` of a lane word (public masked wire values).
fn entry_index(c: u64, d: u64, bit: usize) -> usize {
    ((c >> bit & 1) << 1 | (d >> bit & 1)) as usize
}

impl<M: MacWord> MacAccumulator<'_, M> {
    /// Stored verification strings: one pass over both streams per gate.
    fn opened_explicit(
        &mut self,
        first: usize,
        gates: &[AndGate],
        wires: &[u64],
        theirs: &[u64],
        keys: &[M],
    ) {
        let n = self.instances;
        let l = lane_words(n);
        let (mut sent, mut expected) = (self.sent, self.expected);
        for (k, g) in gates.iter().enumerate() {
            let base = (first + k) * n;
            let macs = &self.own_macs[4 * base..4 * (base + n)];
            let gate_keys = &keys[8 * base..8 * (base + n)];
            // 64 instances per lane word; fixed-size chunks let the compiler drop bounds checks.
            for (j, (macs, gate_keys)) in macs.chunks(4 * 64).zip(gate_keys.chunks(8 * 64)).enumerate() {
                let (c, d, e) = (wires[g.a as usize * l + j], wires[g.b as usize * l + j], theirs[k * l + j]);
                for (bit, (m4, k8)) in macs.chunks_exact(4).zip(gate_keys.chunks_exact(8)).enumerate() {
                    let ahead = base + 64 * j + bit + PREFETCH_INSTANCES;
                    if let (Some(m), Some(k)) = (self.own_macs.get(4 * ahead), keys.get(8 * ahead)) {
                        prefetch(m);
                        prefetch(k);
                    }
                    let index = entry_index(c, d, bit);
                    sent ^= m4[index & 3];
                    // The received bit `e` selects one of the opened entry's two strings (public
                    // data: the indices and `e` were sent in the clear).
                    expected ^= k8[((2 * index) | (e >> bit & 1) as usize) & 7];
                }
            }
        }
        self.sent = sent;
        self.expected = expected;
    }

    /// Own strings of the opened entries of one lane word (`count` instances from instance-gate
    /// position `at`), XORed into `sent`; the opened entry indices are written to `entries`.
    fn own(&mut self, at: usize, c: u64, d: u64, count: usize, entries: &mut [u64; KEY_CHUNK]) {
        let macs = &self.own_macs[4 * at..4 * (at + count)];
        let mut sent = self.sent;
        for (bit, (m4, entry)) in macs.chunks_exact(4).zip(entries.iter_mut()).enumerate() {
            if let Some(m) = self.own_macs.get(4 * (at + bit + PREFETCH_INSTANCES)) {
                prefetch(m);
            }
            let index = entry_index(c, d, bit);
            sent ^= m4[index & 3];
            *entry = (4 * (at + bit) + index) as u64;
        }
        self.sent = sent;
    }

    /// Seeded verification strings: per lane word, the own strings from the stream and the
    /// verification strings of the 64 opened entries from one batch of AES blocks.
    fn opened_seeded(
        &mut self,
        first: usize,
        gates: &[AndGate],
        wires: &[u64],
        theirs: &[u64],
        keys: &SeededKeys,
    ) {
        let n = self.instances;
        let l = lane_words(n);
        let mut entries = [0u64; KEY_CHUNK];
        let mut blocks = key_blocks();
        for (k, g) in gates.iter().enumerate() {
            let base = (first + k) * n;
            for j in 0..l {
                let (c, d, e) = (wires[g.a as usize * l + j], wires[g.b as usize * l + j], theirs[k * l + j]);
                let (at, count) = (base + 64 * j, 64.min(n - 64 * j));
                self.own(at, c, d, count, &mut entries);
                keys.blocks(&entries[..count], &mut blocks);
                let mut expected = self.expected;
                for (bit, b) in blocks[..count].iter().enumerate() {
                    expected ^= M::from_block(&(*b).into(), e >> bit & 1 == 1);
                }
                self.expected = expected;
            }
        }
    }
}

impl<M: MacWord> Openings for MacAccumulator<'_, M> {
    fn opened(&mut self, first: usize, gates: &[AndGate], wires: &[u64], theirs: &[u64]) {
        match self.peer_keys {
            TableKeys::Explicit(keys) => self.opened_explicit(first, gates, wires, theirs, keys),
            TableKeys::Seeded(keys) => self.opened_seeded(first, gates, wires, theirs, keys),
        }
    }
}

/// Evaluates the `prep.instances()` instances of `circuit` with malicious security (see the module
/// docs). `inputs[i]` holds this party's input values of instance `i`, one per owned input value.
/// Returns, per instance and output value, `Some(bits)` if revealed to this party; returns
/// [`TinyTableError::MacCheckFailed`] (and reveals nothing) if the peer deviated.
pub async fn evaluate_malicious<N: Network, M: MacWord>(
    net: &mut N,
    circuit: &Circuit,
    prep: &MaliciousPrep<M>,
    inputs: &[Vec<Vec<bool>>],
) -> Result<Vec<Outputs>, TinyTableError> {
    check_two_parties(net)?;
    let party = net.party();
    let n = inputs.len();
    prep.check(circuit, party, n)?;
    let bits = slice_inputs(circuit, &prep.io, party, inputs, n)?;
    let input = EngineInput {
        io: &prep.io,
        instances: n,
        tables: &prep.tables,
        input_masks: &prep.input_masks,
        inputs: &bits,
    };
    let mut acc = MacAccumulator {
        instances: n,
        own_macs: &prep.own_macs,
        peer_keys: &prep.peer_keys,
        sent: M::default(),
        expected: M::default(),
    };
    let wires = evaluate_masked(net, circuit, input, &mut acc).await?;

    let mut msg = Vec::with_capacity(M::BYTES);
    acc.sent.put(&mut msg);
    send(net, Step::MacCheck, msg)?;
    let theirs = recv(net, Step::MacCheck, M::BYTES).await?;
    if M::get(&theirs) != acc.expected {
        return Err(TinyTableError::MacCheckFailed { party, check: MacCheck::TableOpenings });
    }

    let l = lane_words(n);
    let to_peer = output_positions(circuit, &prep.io, 1 - party);
    let to_me = output_positions(circuit, &prep.io, party);
    let mut my_shares = Vec::with_capacity(to_peer.len() * l);
    for &p in &to_peer {
        my_shares.extend_from_slice(&prep.out_shares[p * l..(p + 1) * l]);
    }
    let mut msg = pack(&my_shares, to_peer.len(), n);
    prep.out_macs.iter().fold(M::default(), |a, &m| a ^ m).put(&mut msg);
    send(net, Step::OutputOpening, msg)?;
    let share_bytes = (to_me.len() * n).div_ceil(8);
    let msg = recv(net, Step::OutputOpening, share_bytes + M::BYTES).await?;
    let mut their_shares = vec![0u64; to_me.len() * l];
    unpack(&msg[..share_bytes], to_me.len(), n, &mut their_shares);
    let mut expected = M::default();
    for k in 0..to_me.len() {
        for i in 0..n {
            let bit = their_shares[k * l + i / 64] >> (i % 64) & 1;
            expected ^= prep.out_keys[2 * (k * n + i) + bit as usize];
        }
    }
    if M::get(&msg[share_bytes..]) != expected {
        return Err(TinyTableError::MacCheckFailed { party, check: MacCheck::OutputMasks });
    }

    let first_out = circuit.num_wires() - circuit.num_output_wires();
    let mut clear = vec![0u64; to_me.len() * l];
    for (k, &p) in to_me.iter().enumerate() {
        for j in 0..l {
            clear[k * l + j] =
                wires.row(first_out + p)[j] ^ prep.out_shares[p * l + j] ^ their_shares[k * l + j];
        }
    }
    Ok(unslice_outputs(circuit, &prep.io, party, &clear, n))
}
