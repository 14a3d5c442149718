//! The preprocessed material MiniMac's online phase consumes, the [`MiniMacPreprocessing`] trait,
//! and its providers: the OT-based provider among 2 to 8 parties ([`OtPreprocessing`], module
//! [`ot`]: nothing trusted but the parties) and the **trusted dealer** ([`TrustedDealer`], [`DealtMaterial`],
//! module [`dealer`]: a weaker trust model, see below).
//!
//! Per AND gate one "triple" of §4.3: `[[a]]*, [[b]]*, [[a ∧ b]]*` (uniformly random codewords of
//! `C*` with the given data in the first `k` positions) and the bit decompositions `[[a^i]]`,
//! `[[b^i]]`, `i = 0..7` (codewords of `C`; `a^i` keeps bit `i` of every byte of `a` in place).
//! Per input wire a random `[[r]]` in `C` whose data `r` its owner knows (Fig. 2 "Input"). Per
//! output wire revealed to one party `p` only, an output mask `[[s]]*`: a uniformly random codeword
//! of `C*` whose data `s` (first `k` symbols) only `p` is given — the private opening of Fig. 2
//! "Output" step 1 ("opened privately to each player"), done as a masked opening, see
//! [`super::online`]. Per party a share `α_p` of the MAC key `α ∈ GF(2^8)^n`.
//!
//! Representation (the original MiniMac/SPDZ form, which works for any number of parties): a value
//! with codeword `c` is held as additive shares `c = Σ_p c_p` and MAC shares `γ = Σ_p γ_p` with
//! `γ = α ∗ c` (coordinate-wise). Shares are uniformly random vectors in `GF(2^8)^n`; only their
//! sum is a codeword. (The paper's §2 uses per-share MACs for two parties; the shared MAC lets the
//! checks be batched and makes n ≥ 2 parties work without change.)
//!
//! **Trust model of [`TrustedDealer`]:** a third party that sees every value, the whole MAC key and
//! both parties' shares generates the material. Security holds only if the dealer is honest and
//! colludes with nobody; it is for tests, demos and benchmarks of the online phase.
//! **Trust model of [`OtPreprocessing`]:** all parties but one may be malicious (security with
//! abort); see [`ot`].

pub mod dealer;
pub mod ot;

pub use dealer::{DealtMaterial, TrustedDealer};
pub use ot::OtPreprocessing;

use super::error::MiniMacError;
use super::params::CodeChoice;
use crate::circuit::Circuit;
use crate::net::{Network, PartyId};
use core::future::Future;

/// Codewords per triple: `a, b, c` and the eight `a^i` and eight `b^i`.
pub(crate) const TRIPLE_WORDS: usize = 19;
/// Index of `[[a]]*` in a triple.
pub(crate) const A: usize = 0;
/// Index of `[[b]]*`.
pub(crate) const B: usize = 1;
/// Index of `[[a ∧ b]]*`.
pub(crate) const C: usize = 2;
/// Index of `[[a^0]]` (then `a^1 .. a^7`).
pub(crate) const A_BITS: usize = 3;
/// Index of `[[b^0]]` (then `b^1 .. b^7`).
pub(crate) const B_BITS: usize = 11;

/// What material a run needs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PrepRequest {
    /// The code.
    pub code: CodeChoice,
    /// Number of parties (≥ 2).
    pub parties: usize,
    /// Number of AND gates (triples).
    pub and_gates: usize,
    /// Number of SIMD instances the material is for, `1..=8·k` ([`PrepRequest::for_circuit`]
    /// asks for a full batch, [`PrepRequest::with_instances`] for fewer). The OT provider makes
    /// TinyOT triples only for the bit positions of these instances and gives every other
    /// position public zero data (see [`ot`]); the trusted dealer ignores it (its material is for
    /// a full batch, which also serves fewer instances).
    pub instances: usize,
    /// Owner of every input wire, in wire order.
    pub input_owners: Vec<PartyId>,
    /// Recipient of every output wire, in wire order: `None` for every party, `Some(p)` for party
    /// `p` only (one output mask each).
    pub output_recipients: Vec<Option<PartyId>>,
}

impl PrepRequest {
    /// The request for one full batch (`8·k` instances) of `circuit`, input value `v` supplied by
    /// `value_owners[v]`.
    pub fn for_circuit(
        code: CodeChoice,
        parties: usize,
        circuit: &Circuit,
        value_owners: &[PartyId],
    ) -> Result<Self, MiniMacError> {
        if parties < 2 {
            return Err(MiniMacError::TooFewParties(parties));
        }
        if value_owners.len() != circuit.input_widths().len() {
            return Err(MiniMacError::BadInput(format!(
                "{} input owners for {} input values",
                value_owners.len(),
                circuit.input_widths().len()
            )));
        }
        if let Some(p) = value_owners.iter().find(|&&p| p >= parties) {
            return Err(MiniMacError::BadInput(format!(
                "input owner {p} is not one of the {parties} parties"
            )));
        }
        let input_owners = value_owners
            .iter()
            .zip(circuit.input_widths())
            .flat_map(|(&owner, &width)| std::iter::repeat_n(owner, width as usize))
            .collect();
        let output_recipients = vec![None; circuit.num_output_wires()];
        Ok(PrepRequest {
            code,
            parties,
            and_gates: circuit.gate_counts().and,
            instances: code.code().instances(),
            input_owners,
            output_recipients,
        })
    }

    /// This request for `instances` SIMD instances (`1..=8·k`; instance `i` sits in bit `i mod 8`
    /// of data symbol `⌊i/8⌋`). Material for fewer instances is valid only for batches of at most
    /// that many ([`super::evaluate_revealed`] refuses larger ones).
    pub fn with_instances(mut self, instances: usize) -> Result<Self, MiniMacError> {
        let max = self.code.code().instances();
        if instances == 0 {
            return Err(MiniMacError::BadInput("material for 0 instances".into()));
        }
        if instances > max {
            return Err(MiniMacError::BatchTooLarge { instances, max });
        }
        self.instances = instances;
        Ok(self)
    }

    /// This request with output value `v` of `circuit` revealed to `recipients[v]` only (`None`:
    /// to every party).
    pub fn with_recipients(
        mut self,
        circuit: &Circuit,
        recipients: &[Option<PartyId>],
    ) -> Result<Self, MiniMacError> {
        if recipients.len() != circuit.output_widths().len() {
            return Err(MiniMacError::BadInput(format!(
                "{} output recipients for {} output values",
                recipients.len(),
                circuit.output_widths().len()
            )));
        }
        if let Some(p) = recipients.iter().flatten().find(|&&p| p >= self.parties) {
            return Err(MiniMacError::BadInput(format!(
                "output recipient {p} is not one of the {} parties",
                self.parties
            )));
        }
        self.output_recipients = recipients
            .iter()
            .zip(circuit.output_widths())
            .flat_map(|(&to, &width)| std::iter::repeat_n(to, width as usize))
            .collect();
        Ok(self)
    }

    /// The bytes one party stores of the material for this request ([`PartyPrep::stored_bytes`]
    /// at most): its triples and a share of every input and output mask, `2n` bytes each, and its
    /// own masks.
    pub fn party_bytes(&self) -> usize {
        let n = self.code.code().n();
        let shares =
            self.and_gates * TRIPLE_WORDS + 2 * self.input_owners.len() + 2 * self.output_recipients.len();
        n + shares * 2 * n
    }
}

/// One party's material for one batch (see the module docs for its contents).
#[derive(Clone, PartialEq, Eq)]
pub struct PartyPrep {
    pub(crate) party: PartyId,
    pub(crate) parties: usize,
    pub(crate) code: CodeChoice,
    /// `α_p`, `n` symbols.
    pub(crate) alpha: Vec<u8>,
    pub(crate) and_gates: usize,
    /// Number of instances the material is for (at most `8·k`): positions `p ≥ instances` of its
    /// triples may carry zero data only.
    pub(crate) instances: usize,
    /// `and_gates · TRIPLE_WORDS` shares of `2n` bytes (value share, then MAC share).
    pub(crate) triples: Vec<u8>,
    pub(crate) input_owners: Vec<PartyId>,
    /// One share (`2n` bytes) of `[[r]]` per input wire.
    pub(crate) input_masks: Vec<u8>,
    /// `r` (`k` bytes) of every input wire this party owns, in wire order.
    pub(crate) own_masks: Vec<u8>,
    /// Recipient of every output wire (`None`: every party).
    pub(crate) output_recipients: Vec<Option<PartyId>>,
    /// One share (`2n` bytes) of `[[s]]*` per output wire with a single recipient, in wire order.
    pub(crate) output_masks: Vec<u8>,
    /// `s` (`k` bytes) of every output wire revealed to this party only, in wire order.
    pub(crate) own_output_masks: Vec<u8>,
}

impl core::fmt::Debug for PartyPrep {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Shares and keys are secret: never print them.
        f.debug_struct("PartyPrep")
            .field("party", &self.party)
            .field("parties", &self.parties)
            .field("code", &self.code)
            .field("and_gates", &self.and_gates)
            .field("instances", &self.instances)
            .field("input_wires", &self.input_owners.len())
            .field("output_recipients", &self.output_recipients)
            .finish()
    }
}

impl PartyPrep {
    /// The party this material belongs to.
    pub fn party(&self) -> PartyId {
        self.party
    }

    /// The code it was made for.
    pub fn code(&self) -> CodeChoice {
        self.code
    }

    /// Number of triples.
    pub fn and_gates(&self) -> usize {
        self.and_gates
    }

    /// Number of instances the material is for (at most `8·k`).
    pub fn instances(&self) -> usize {
        self.instances
    }

    /// Recipient of every output wire (`None`: every party).
    pub fn output_recipients(&self) -> &[Option<PartyId>] {
        &self.output_recipients
    }

    /// Bytes of material this party stores (key, triples, input and output masks).
    pub fn stored_bytes(&self) -> usize {
        self.alpha.len()
            + self.triples.len()
            + self.input_masks.len()
            + self.own_masks.len()
            + self.output_masks.len()
            + self.own_output_masks.len()
    }

    /// Share `w` of triple `t` (`2n` bytes).
    pub(crate) fn triple(&self, t: usize) -> &[u8] {
        let n = self.alpha.len();
        &self.triples[t * TRIPLE_WORDS * 2 * n..(t + 1) * TRIPLE_WORDS * 2 * n]
    }

    /// Mutable access for tests that corrupt a party's material.
    #[cfg(test)]
    pub(crate) fn triple_mut(&mut self, t: usize) -> &mut [u8] {
        let n = self.alpha.len();
        &mut self.triples[t * TRIPLE_WORDS * 2 * n..(t + 1) * TRIPLE_WORDS * 2 * n]
    }
}

/// A source of one party's MiniMac material. Online code takes a [`PartyPrep`] and never knows
/// which provider made it.
pub trait MiniMacPreprocessing {
    /// This party's material for `request`, generated with the peers over `net` where the provider
    /// is interactive.
    fn material<N: Network>(
        &mut self,
        net: &mut N,
        request: &PrepRequest,
    ) -> impl Future<Output = Result<PartyPrep, MiniMacError>>;
}

/// `dst ^= src`.
pub(crate) fn xor_into(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= s;
    }
}
