//! Malicious-secure online phase for any binary circuit: Fig. 5 with free XOR (Fig. 6/7, §2.1),
//! for a bit-sliced batch of instances and `k`-bit lookup MACs ([`crate::proto::tinytable::mac::lookup`]).
//!
//! Rounds, per party and direction:
//! 1. input: `e_u = x_u ⊕ r_u` for owned input wires (Fig. 5 step 3);
//! 2. one round per AND layer: the table bits at `(e_u, e_v)` (step 4b–c). No MAC is sent; each
//!    party XORs the string of every bit it opens into `m` and the verification string of every
//!    bit the peer opens (selected by the received bit) into `t` (step 2, 4b–c), lane word by lane
//!    word in `opened_macs` (fast path for seeded verification strings: AES-NI);
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

use crate::circuit::AndGate;
use crate::net::Network;
use crate::proto::tinytable::circuit::engine::{evaluate_masked, EngineInput, Openings, PlannedCircuit};
use crate::proto::tinytable::circuit::malicious_prep::{output_positions, MaliciousPrep};
use crate::proto::tinytable::circuit::online::Outputs;
use crate::proto::tinytable::circuit::opened_macs::{Backend, OpenedMacs};
use crate::proto::tinytable::circuit::slice::{lane_words, pack, slice_inputs, unpack, unslice_outputs};
use crate::proto::tinytable::error::{MacCheck, Step, TinyTableError};
use crate::proto::tinytable::mac::lookup::MacWord;
use crate::proto::tinytable::msg::{check_two_parties, recv, send};

/// Feeds every opened lane word of an AND layer to the accumulators (`opened_macs`).
struct MacAccumulator<'a, M> {
    instances: usize,
    macs: OpenedMacs<'a, M>,
}

impl<M: MacWord> Openings for MacAccumulator<'_, M> {
    fn opened(&mut self, first: usize, gates: &[AndGate], wires: &[u64], theirs: &[u64]) {
        let n = self.instances;
        let l = lane_words(n);
        for (k, g) in gates.iter().enumerate() {
            let (a, b) = (&wires[g.a as usize * l..][..l], &wires[g.b as usize * l..][..l]);
            self.macs.gate((first + k) * n, a, b, &theirs[k * l..][..l], n);
        }
    }
}

/// Evaluates the `prep.instances()` instances of `circuit` with malicious security (see the module
/// docs). `inputs[i]` holds this party's input values of instance `i`, one per owned input value.
/// Returns, per instance and output value, `Some(bits)` if revealed to this party; returns
/// [`TinyTableError::MacCheckFailed`] (and reveals nothing) if the peer deviated.
pub async fn evaluate_malicious<'c, N: Network, M: MacWord>(
    net: &mut N,
    circuit: impl Into<PlannedCircuit<'c>>,
    prep: &MaliciousPrep<M>,
    inputs: &[Vec<Vec<bool>>],
) -> Result<Vec<Outputs>, TinyTableError> {
    check_two_parties(net)?;
    let planned = circuit.into();
    let circuit = planned.circuit();
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
    let macs = OpenedMacs::new(&prep.own_macs, &prep.peer_keys, Backend::detect());
    let mut acc = MacAccumulator { instances: n, macs };
    let wires = evaluate_masked(net, &planned, input, &mut acc).await?;

    let (sent, expected) = acc.macs.finish();
    let mut msg = Vec::with_capacity(M::BYTES);
    sent.put(&mut msg);
    send(net, Step::MacCheck, msg)?;
    let theirs = recv(net, Step::MacCheck, M::BYTES).await?;
    if M::get(&theirs) != expected {
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
