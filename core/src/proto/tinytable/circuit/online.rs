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
//!
//! The batch is evaluated bit-sliced ([`crate::proto::tinytable::circuit::slice`], `engine`): 64 instances per word,
//! lookups as bitwise selects, messages packed gate after gate (`n` bits per gate).

use super::prep::BinaryPrep;
use crate::net::Network;
use crate::proto::tinytable::circuit::engine::{evaluate_masked, EngineInput, Unchecked};
use crate::proto::tinytable::circuit::slice::{lane_words, slice_inputs, unslice_outputs, SlicedPrep};
use crate::proto::tinytable::error::TinyTableError;
use crate::proto::tinytable::msg::check_two_parties;

pub use crate::proto::tinytable::circuit::slice::Outputs;

pub use crate::proto::tinytable::circuit::engine::PlannedCircuit;

/// Evaluates one instance of `circuit`; see [`evaluate_batch`].
pub async fn evaluate<'c, N: Network>(
    net: &mut N,
    circuit: impl Into<PlannedCircuit<'c>>,
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
/// value is revealed to this party, else `None`. The material is transposed into the bit-sliced
/// layout first ([`SlicedPrep::from_instances`]); callers that evaluate often should keep material
/// in that layout and call [`evaluate_sliced`].
pub async fn evaluate_batch<'c, N: Network>(
    net: &mut N,
    circuit: impl Into<PlannedCircuit<'c>>,
    preps: &[BinaryPrep],
    inputs: &[Vec<Vec<bool>>],
) -> Result<Vec<Outputs>, TinyTableError> {
    check_two_parties(net)?;
    if preps.is_empty() {
        return Ok(Vec::new());
    }
    let planned = circuit.into();
    let sliced = SlicedPrep::from_instances(planned.circuit(), preps)?;
    evaluate_sliced(net, &planned, &sliced, inputs).await
}

/// Evaluates the `prep.instances()` instances of a bit-sliced batch (see [`evaluate_batch`] for
/// the input and output formats): 64 instances per machine word, table lookups as bitwise selects.
pub async fn evaluate_sliced<'c, N: Network>(
    net: &mut N,
    circuit: impl Into<PlannedCircuit<'c>>,
    prep: &SlicedPrep,
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
    let wires = evaluate_masked(net, &planned, input, &mut Unchecked).await?;
    let l = lane_words(n);
    let revealed = prep.io.revealed_output_wires(circuit, party);
    let mut clear = vec![0u64; revealed.len() * l];
    for (k, &w) in revealed.iter().enumerate() {
        for j in 0..l {
            clear[k * l + j] = wires.row(w)[j] ^ prep.output_masks[k * l + j];
        }
    }
    Ok(unslice_outputs(circuit, &prep.io, party, &clear, n))
}
