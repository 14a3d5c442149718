//! AES as a boolean circuit for the two-party protocols' AES jobs (TinyTable's circuit path,
//! MiniMac, Coral): the project's AES circuit of the job's key size and direction
//! ([`crate::circuit::aes_gen`], key schedule inside)
//! preceded by free XOR gates that combine the key holders' shares, so that nobody ever holds the
//! key; the per-instance inputs of one member, and the ciphertext from the opened outputs. One
//! circuit instance per block.

use super::aes::{AesInput, AesOutput, AesSpec};
use super::error::JobError;
use super::options::Direction;
use crate::aes::KeySize;
use crate::circuit::aes_bristol::{output_bytes, value_bits};
use crate::circuit::{aes_gen, Circuit, Gate, LinearGate};
use crate::net::{NetStats, PartyId};
use crate::proto::tinytable::circuit::online::Outputs;
use std::sync::OnceLock;

/// An AES spec as a circuit job of a protocol that evaluates circuits (MiniMac, Coral): the
/// key-shared circuit, the owner of each input value, this member's inputs per block, and the
/// bytes the members agree on.
pub(crate) struct AesAsCircuit {
    /// The key-shared AES circuit (the spec's key size and direction).
    pub circuit: Circuit,
    /// Owners of the key shares, then of the plaintext.
    pub owners: Vec<PartyId>,
    /// This member's input values per block (empty at a member without inputs).
    pub inputs: Vec<Vec<Vec<bool>>>,
    /// `tag`, the protocol's option bytes, then the roles (the block count is agreed apart).
    pub agreed: Vec<u8>,
}

impl AesAsCircuit {
    /// The circuit job of `spec` for this member's checked `input`; `options` are the protocol's
    /// option bytes for the agreement.
    pub(crate) fn new(
        spec: &AesSpec,
        input: &AesInput,
        tag: &[u8],
        options: &[u8],
    ) -> Result<Self, JobError> {
        let mut agreed = tag.to_vec();
        agreed.extend_from_slice(options);
        agreed.push(spec.key_size.key_bytes() as u8);
        agreed.push(u8::from(spec.direction == Direction::Decrypt));
        agreed.push(spec.plaintext_owner as u8);
        agreed.push(spec.key_holders.len() as u8);
        agreed.extend(spec.key_holders.iter().map(|&p| p as u8));
        let mut owners = spec.key_holders.clone();
        owners.push(spec.plaintext_owner);
        Ok(AesAsCircuit {
            circuit: cached(spec.key_holders.len(), spec.key_size, spec.direction)?,
            owners,
            inputs: instance_inputs(input, spec.blocks),
            agreed,
        })
    }

    /// The AES output from the circuit's outputs and this member's communication.
    pub(crate) fn output(outputs: &[Outputs], stats: NetStats, online_stats: NetStats) -> AesOutput {
        AesOutput {
            ciphertext: ciphertext(outputs),
            stats,
            online_stats,
            preprocessing_stats: stats.since(&online_stats),
        }
    }
}

/// This member's owned input values per block, in circuit order: its key share (if it holds one),
/// then its plaintext block (if it owns the plaintext). The caller checked the input's shape.
pub(crate) fn instance_inputs(input: &AesInput, blocks: usize) -> Vec<Vec<Vec<bool>>> {
    let key_bits = input.key_share.as_deref().map(value_bits);
    (0..blocks)
        .map(|block| {
            let mut values: Vec<Vec<bool>> = key_bits.iter().cloned().collect();
            if let Some(p) = &input.plaintext {
                values.push(value_bits(&p[16 * block..16 * (block + 1)]));
            }
            values
        })
        .collect()
}

/// The ciphertext from the outputs of every block's instance, if every block's 128-bit output was
/// revealed to this member.
pub(crate) fn ciphertext(outputs: &[Outputs]) -> Option<Vec<u8>> {
    let mut ciphertext = Vec::with_capacity(16 * outputs.len());
    for values in outputs {
        ciphertext.extend(output_bytes(values.first()?.as_ref()?)?);
    }
    (!outputs.is_empty()).then_some(ciphertext)
}

/// [`keyed_aes`] for one or two key holders, each key size and direction, built once per process
/// (building and checking a 31 512-wire circuit costs more than a one-block online phase).
pub fn cached(holders: usize, key_size: KeySize, direction: Direction) -> Result<Circuit, JobError> {
    static CIRCUITS: [OnceLock<Result<Circuit, JobError>>; 12] = [const { OnceLock::new() }; 12];
    let size = match key_size {
        KeySize::Aes128 => 0,
        KeySize::Aes192 => 1,
        KeySize::Aes256 => 2,
    };
    let index = holders.wrapping_sub(1) * 6 + size * 2 + usize::from(direction == Direction::Decrypt);
    match CIRCUITS.get(index).filter(|_| (1..=2).contains(&holders)) {
        Some(cell) => cell.get_or_init(|| keyed_aes(holders, key_size, direction)).clone(),
        None => keyed_aes(holders, key_size, direction),
    }
}

/// AES of `key_size` in `direction` whose key is the XOR of `holders` input values (1 or 2) of the
/// key's width, followed by the input block: the generated circuit
/// ([`aes_gen::aes_circuit`]) with its key wires rewired to free XOR gates.
pub fn keyed_aes(holders: usize, key_size: KeySize, direction: Direction) -> Result<Circuit, JobError> {
    let aes = aes_gen::aes_circuit(key_size, direction == Direction::Decrypt)
        .map_err(|e| JobError::invalid_spec("circuit", e.to_string()))?;
    if holders <= 1 {
        return Ok(aes);
    }
    // New wires: the key shares and the input block, then the XOR chain's outputs, then AES's own
    // non-input wires shifted (AES's outputs stay last, as Bristol requires).
    let k = 8 * key_size.key_bytes() as u32;
    let shares_end = k * holders as u32;
    let xor_outputs = k * (holders as u32 - 1);
    let first_xor = shares_end + 128;
    let shift = first_xor + xor_outputs - (k + 128);
    let key_wire = first_xor + xor_outputs - k;
    let map = |w: u32| {
        if w < k {
            key_wire + w
        } else if w < k + 128 {
            shares_end + (w - k)
        } else {
            w + shift
        }
    };
    let mut gates = Vec::with_capacity(aes.gates().count() + xor_outputs as usize);
    for bit in 0..k {
        gates.push(Gate::Linear(LinearGate::Xor { a: bit, b: k + bit, out: first_xor + bit }));
    }
    for share in 2..holders as u32 {
        for bit in 0..k {
            let previous = first_xor + k * (share - 2) + bit;
            gates.push(Gate::Linear(LinearGate::Xor { a: previous, b: k * share + bit, out: previous + k }));
        }
    }
    gates.extend(aes.gates().map(|gate| match gate {
        Gate::And(g) => Gate::And(crate::circuit::AndGate { a: map(g.a), b: map(g.b), out: map(g.out) }),
        Gate::Linear(g) => Gate::Linear(match g {
            LinearGate::Xor { a, b, out } => LinearGate::Xor { a: map(a), b: map(b), out: map(out) },
            LinearGate::Inv { a, out } => LinearGate::Inv { a: map(a), out: map(out) },
            LinearGate::Copy { a, out } => LinearGate::Copy { a: map(a), out: map(out) },
            LinearGate::Const { value, out } => LinearGate::Const { value, out: map(out) },
        }),
    }));
    let mut input_widths = vec![k; holders];
    input_widths.push(128);
    Circuit::new(aes.num_wires() as u32 + shift, input_widths, vec![128], gates)
        .map_err(|e| JobError::invalid_spec("circuit", e.to_string()))
}
