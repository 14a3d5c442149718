//! The one circuit job of every protocol but MAESTRO: [`CircuitSpec`] (the protocol and its options
//! as one tagged field [`CircuitProtocol`], then the circuit, who owns each input value, who learns
//! each output value, and how many instances run at once), [`CircuitInput`], [`CircuitOutput`] and
//! [`super::run_circuit`], which validates the spec and this member's inputs once and hands them to the
//! protocol's runner (the dispatch, in [`super::run`], sits above the runners, which use these
//! types). Statistics mean what they mean for the AES job ([`super::AesOutput`]).
//!
//! The circuit is a [`JobCircuit`]: a boolean Bristol Fashion circuit (every protocol), or a mixed
//! circuit of arithmetic gates on Z_{2^k} ([`crate::circuit::mixed`], Coral only,
//! [`super::coral::mixed`]). Both have input and output *values* of known widths — a mixed
//! circuit's are all k bits wide — so inputs and outputs are the same bit lists either way
//! (least significant bit first).

use super::error::JobError;
use super::options::MacBits;
use super::preprocessing::Preprocessing;
use super::security::Security;
use crate::circuit::mixed::{MixedCircuit, RingBits};
use crate::circuit::Circuit;
use crate::net::{NetStats, PartyId};
use crate::proto::minimac::CodeChoice;
use crate::proto::tinytable::circuit::online::Outputs;
use crate::proto::tinytable::{IoSpec, Reveal};

/// The protocol of a circuit job and its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CircuitProtocol {
    /// Two-party TinyTable.
    TinyTable {
        /// Over OT between the two parties, or a trusted dealer as member 2.
        preprocessing: Preprocessing,
        /// Semi-honest, or malicious with abort.
        security: Security,
        /// MAC width under malicious security.
        mac_bits: MacBits,
    },
    /// MiniMac (malicious with abort) among every member over OT, or parties 0 and 1 beside a
    /// dealer; each output to every computing party or to one.
    MiniMac {
        /// The Reed-Solomon code.
        code: CodeChoice,
        /// Where the triples come from: OT among the parties, or a trusted dealer.
        preprocessing: Preprocessing,
    },
    /// Coral (malicious with abort, RMFE-packed) among every member over OT, or parties 0 and 1
    /// beside a dealer; each output to every computing party or to one.
    Coral {
        /// Where the material comes from: OT among the parties, or a trusted dealer.
        preprocessing: Preprocessing,
    },
    /// Multi-party TinyOT (malicious with abort) among every member over OT, one AND triple per
    /// AND gate and instance; each output to every party or to one.
    TinyOt,
}

impl CircuitProtocol {
    /// `tinytable` or `minimac` (the SDK's names).
    pub fn name(&self) -> &'static str {
        match self {
            CircuitProtocol::TinyTable { .. } => "tinytable",
            CircuitProtocol::MiniMac { .. } => "minimac",
            CircuitProtocol::Coral { .. } => "coral",
            CircuitProtocol::TinyOt => "tinyot",
        }
    }

    /// Where the material comes from (it decides the session size).
    pub fn preprocessing(&self) -> Preprocessing {
        match *self {
            CircuitProtocol::TinyTable { preprocessing, .. }
            | CircuitProtocol::MiniMac { preprocessing, .. }
            | CircuitProtocol::Coral { preprocessing } => preprocessing,
            CircuitProtocol::TinyOt => Preprocessing::Ot,
        }
    }

    /// Whether every member of a session computes, however many there are (MiniMac and Coral
    /// over OT, TinyOT; [`super::parties`]).
    pub fn every_member_computes(&self) -> bool {
        matches!(
            self,
            CircuitProtocol::MiniMac { .. } | CircuitProtocol::Coral { .. } | CircuitProtocol::TinyOt
        ) && self.preprocessing() == Preprocessing::Ot
    }

    /// The security level the protocol runs at.
    pub fn security(&self) -> Security {
        match *self {
            CircuitProtocol::TinyTable { security, .. } => security,
            CircuitProtocol::MiniMac { .. } | CircuitProtocol::Coral { .. } | CircuitProtocol::TinyOt => {
                Security::Malicious
            }
        }
    }
}

/// The circuit of a circuit job (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobCircuit {
    /// A Bristol Fashion circuit of AND, XOR and INV gates (every protocol).
    Boolean(Circuit),
    /// A mixed circuit on Z_{2^k} (Coral only).
    Mixed(MixedJobCircuit),
}

/// A mixed circuit, the ring it is evaluated in, and which inputs are bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MixedJobCircuit {
    circuit: MixedCircuit,
    ring: RingBits,
    /// Inputs declared to hold 0 or 1 (Summon's `bool` inputs), checked by the protocol.
    bit_inputs: Vec<u32>,
    /// k for every input value.
    input_widths: Vec<u32>,
    /// k for every output value.
    output_widths: Vec<u32>,
}

impl MixedJobCircuit {
    /// `circuit` evaluated in Z_{2^k}, k = `ring`.
    pub fn new(circuit: MixedCircuit, ring: RingBits) -> Self {
        let k = ring.bits();
        let input_widths = vec![k; circuit.inputs as usize];
        let output_widths = vec![k; circuit.outputs.len()];
        MixedJobCircuit { circuit, ring, bit_inputs: Vec::new(), input_widths, output_widths }
    }

    /// The same circuit with the inputs `bit_inputs` declared bits (each input's owner must give
    /// 0 or 1; the protocol checks it, and the circuit's selects may then depend on it).
    ///
    /// # Errors
    /// [`JobError::InvalidSpec`] on `bitInputs` for an entry that is not an input or is listed
    /// twice.
    pub fn with_bit_inputs(self, bit_inputs: Vec<u32>) -> Result<Self, JobError> {
        let mut seen = vec![false; self.circuit.inputs as usize];
        for (i, &w) in bit_inputs.iter().enumerate() {
            if seen.get(w as usize).is_none_or(|&s| s) {
                return Err(JobError::invalid_spec(
                    "bitInputs",
                    format!("bitInputs[{i}] must name one of the circuit's {} inputs, once", seen.len()),
                ));
            }
            seen[w as usize] = true;
        }
        Ok(MixedJobCircuit { bit_inputs, ..self })
    }

    /// The inputs declared bits.
    pub fn bit_inputs(&self) -> &[u32] {
        &self.bit_inputs
    }

    /// The circuit.
    pub fn circuit(&self) -> &MixedCircuit {
        &self.circuit
    }

    /// The ring.
    pub fn ring(&self) -> RingBits {
        self.ring
    }
}

impl From<Circuit> for JobCircuit {
    fn from(circuit: Circuit) -> Self {
        JobCircuit::Boolean(circuit)
    }
}

impl JobCircuit {
    /// Width in bits of each input value.
    pub fn input_widths(&self) -> &[u32] {
        match self {
            JobCircuit::Boolean(c) => c.input_widths(),
            JobCircuit::Mixed(m) => &m.input_widths,
        }
    }

    /// Width in bits of each output value.
    pub fn output_widths(&self) -> &[u32] {
        match self {
            JobCircuit::Boolean(c) => c.output_widths(),
            JobCircuit::Mixed(m) => &m.output_widths,
        }
    }

    /// The SHA-256 the members agree on (a boolean circuit's of its Bristol text).
    pub fn digest(&self) -> [u8; 32] {
        match self {
            JobCircuit::Boolean(c) => c.digest(),
            JobCircuit::Mixed(m) => m.circuit.digest(),
        }
    }

    /// Whether it is a mixed circuit.
    pub fn is_mixed(&self) -> bool {
        matches!(self, JobCircuit::Mixed(_))
    }

    /// The boolean circuit, or an error naming `protocol`, which runs boolean circuits only.
    pub fn boolean(&self, protocol: &str) -> Result<&Circuit, JobError> {
        match self {
            JobCircuit::Boolean(c) => Ok(c),
            JobCircuit::Mixed(_) => Err(JobError::not_available(
                "protocol",
                format!(
                    "{protocol} evaluates boolean circuits; a mixed circuit (arithmetic gates on Z_2^k) runs on protocol 'coral'"
                ),
            )),
        }
    }
}

/// What the session members agree to compute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CircuitSpec {
    /// The protocol and its options.
    pub protocol: CircuitProtocol,
    /// The circuit (agreement compares its digest, [`JobCircuit::digest`]).
    pub circuit: JobCircuit,
    /// Owner (0 or 1) of each input value and recipients of each output value.
    pub io: IoSpec,
    /// Number of independent evaluations.
    pub instances: usize,
}

/// This member's private inputs: per instance, the values it owns in circuit order, each as its
/// bits (wire order, as in the Bristol file). Empty at a dealer.
#[derive(Clone, Default)]
pub struct CircuitInput {
    /// `values[i][k]` is the `k`-th owned input value of instance `i`.
    pub values: Vec<Vec<Vec<bool>>>,
}

impl core::fmt::Debug for CircuitInput {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Inputs are secrets: show only their shape.
        f.debug_struct("CircuitInput").field("instances", &self.values.len()).finish()
    }
}

/// What one member learns from a job over a batch of instances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CircuitOutput {
    /// Per instance, per output value: its bits if revealed to this member (a dealer gets an empty
    /// list).
    pub outputs: Vec<Outputs>,
    /// This member's communication for the whole job.
    pub stats: NetStats,
    /// The online phase alone (zero at a dealer).
    pub online_stats: NetStats,
    /// Agreement and preprocessing: `stats` minus the online phase.
    pub preprocessing_stats: NetStats,
}

impl CircuitOutput {
    /// The output of a job whose whole communication was `stats`, `online_stats` of it online.
    pub(crate) fn new(outputs: Vec<Outputs>, stats: NetStats, online_stats: NetStats) -> Self {
        CircuitOutput { outputs, stats, online_stats, preprocessing_stats: stats.since(&online_stats) }
    }
}

impl CircuitInput {
    /// Checks the inputs of member `me` (`dealer`: a member without inputs) against the widths
    /// of the circuit's input values and their owners.
    pub(crate) fn check(
        &self,
        me: PartyId,
        dealer: bool,
        input_widths: &[u32],
        io: &IoSpec,
        instances: usize,
    ) -> Result<(), JobError> {
        let bad = |field: String, reason: String| Err(JobError::InvalidInput { party: me, field, reason });
        if dealer {
            let extra = self.values.iter().flatten().count() > 0;
            return if extra {
                bad("inputs".into(), "the trusted dealer has no inputs".into())
            } else {
                Ok(())
            };
        }
        if self.values.len() != instances {
            return bad(
                "inputs".into(),
                format!("{} input sets for {instances} instances", self.values.len()),
            );
        }
        let owned: Vec<usize> = (0..io.input_owners.len()).filter(|&v| io.input_owners[v] == me).collect();
        for (instance, values) in self.values.iter().enumerate() {
            if values.len() != owned.len() {
                return bad(
                    "inputs".into(),
                    format!(
                        "instance {instance}: {} input values supplied, party {me} owns {}",
                        values.len(),
                        owned.len()
                    ),
                );
            }
            for (&value, bits) in owned.iter().zip(values) {
                let width = input_widths[value] as usize;
                if bits.len() != width {
                    return bad(
                        format!("inputs[{value}]"),
                        format!(
                        "instance {instance}: input value {value} has {} bits, the circuit expects {width}",
                        bits.len()
                    ),
                    );
                }
            }
        }
        Ok(())
    }
}

impl CircuitSpec {
    /// Checks member `me`'s inputs against the circuit and the input owners of this (validated)
    /// spec, as the job does before any communication; with dealer preprocessing member 2 is the
    /// dealer, without inputs (a mixed circuit's members all compute).
    pub fn check_input(&self, me: PartyId, input: &CircuitInput) -> Result<(), JobError> {
        input.check(
            me,
            self.protocol.preprocessing().is_dealer(me),
            self.circuit.input_widths(),
            &self.io,
            self.instances,
        )
    }

    /// The limits of a two-party circuit protocol with per-value recipients (MiniMac, Coral): at
    /// least one instance, owners and recipients (party 0, party 1 or both) that fit the circuit.
    pub(crate) fn check_two_party_io(&self) -> Result<(), JobError> {
        if self.instances == 0 {
            return Err(JobError::invalid_spec("instances", "instances must be at least 1"));
        }
        check_io(&self.io, self.circuit.input_widths().len(), self.circuit.output_widths().len(), 2)
    }
}

/// Checks input owners and output recipients against a circuit of `inputs` input and `outputs`
/// output values computed by parties `0..parties`, naming the spec field at fault: one owner per
/// input value, one recipient (all parties, or one) per output value.
pub(crate) fn check_io(io: &IoSpec, inputs: usize, outputs: usize, parties: usize) -> Result<(), JobError> {
    let names = if parties == 2 { "party 0 or 1".to_string() } else { format!("a party below {parties}") };
    if io.input_owners.len() != inputs || io.input_owners.iter().any(|&p| p >= parties) {
        return Err(JobError::invalid_spec(
            "inputOwners",
            format!(
                "inputOwners must name {names} for each of the circuit's {inputs} input values, got {:?}",
                io.input_owners
            ),
        ));
    }
    if io.reveal.len() != outputs {
        return Err(JobError::invalid_spec(
            "reveal",
            format!("reveal has {} entries, the circuit has {outputs} output values", io.reveal.len()),
        ));
    }
    if let Some(r) = io.reveal.iter().find(|r| matches!(r, Reveal::To(p) if *p >= parties)) {
        return Err(JobError::invalid_spec("reveal", format!("{r:?} names a party other than {names}")));
    }
    Ok(())
}
