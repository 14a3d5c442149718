//! The AES and circuit jobs as MiniMac and Coral run them: one circuit, the owner of every input
//! value, the recipient of every output value, this member's inputs per instance, and the bytes
//! the members agree on. Both runners and their preparations ([`super::prepared`]) start from a
//! [`SimdJob`], so a job and the material prepared for it describe themselves the same way: the
//! kind of prepared material a job takes is the digest of its description without the instance
//! count ([`SimdJob::kind`]).

use super::aes::{AesInput, AesSpec};
use super::circuit::{CircuitInput, CircuitSpec};
use super::error::JobError;
use super::keyed_aes::AesAsCircuit;
use super::prepared::{kind_of, plan_bytes, Plan};
use crate::circuit::Circuit;
use crate::net::PartyId;
use crate::proto::tinytable::Reveal;
use std::borrow::Cow;

/// A job of MiniMac or Coral as a circuit job (see the module docs).
pub(crate) struct SimdJob<'a> {
    /// The circuit (for AES, the key-shared AES-128 circuit).
    pub circuit: Cow<'a, Circuit>,
    /// The owner of every input value.
    pub owners: Vec<PartyId>,
    /// The recipient of every output value: `None` for both parties, `Some(p)` for party `p`.
    pub recipients: Vec<Option<PartyId>>,
    /// Instances the job runs (AES blocks or evaluations).
    pub instances: usize,
    /// This member's owned input values per instance (empty, or one empty list per instance, at a
    /// member without inputs).
    pub inputs: Vec<Vec<Vec<bool>>>,
    /// What the members agree on but the instance count: a tag, the protocol's option bytes, the
    /// circuit (or the AES roles), the input owners and the output recipients.
    described: Vec<u8>,
}

impl<'a> SimdJob<'a> {
    /// An AES job of `spec` for this member's checked `input`; `tag` and `options` are the
    /// protocol's.
    pub(crate) fn aes(
        spec: &AesSpec,
        input: &AesInput,
        tag: &[u8],
        options: &[u8],
    ) -> Result<Self, JobError> {
        let job = AesAsCircuit::new(spec, input, tag, options)?;
        let recipients = vec![match spec.reveal_to[..] {
            [p] => Some(p),
            _ => None,
        }];
        let described = [job.agreed, recipient_bytes(&recipients)].concat();
        Ok(SimdJob {
            circuit: Cow::Owned(job.circuit),
            owners: job.owners,
            recipients,
            instances: spec.blocks,
            inputs: job.inputs,
            described,
        })
    }

    /// A circuit job of `spec` with this member's checked `input` (`protocol` names the protocol,
    /// which takes boolean circuits only).
    pub(crate) fn circuit(
        spec: &'a CircuitSpec,
        input: CircuitInput,
        (protocol, tag): (&str, &[u8]),
        options: &[u8],
    ) -> Result<Self, JobError> {
        let circuit = spec.circuit.boolean(protocol)?;
        let recipients: Vec<Option<PartyId>> = spec
            .io
            .reveal
            .iter()
            .map(|r| match *r {
                Reveal::Both => None,
                Reveal::To(p) => Some(p),
            })
            .collect();
        let mut described = tag.to_vec();
        described.extend_from_slice(options);
        described.extend_from_slice(&circuit.digest());
        described.extend_from_slice(&(spec.io.input_owners.len() as u32).to_be_bytes());
        described.extend(spec.io.input_owners.iter().map(|&p| p as u8));
        described.extend(recipient_bytes(&recipients));
        Ok(SimdJob {
            circuit: Cow::Borrowed(circuit),
            owners: spec.io.input_owners.clone(),
            recipients,
            instances: spec.instances,
            inputs: input.values,
            described,
        })
    }

    /// The kind of prepared material this job takes, in `family` (the protocol's).
    pub(crate) fn kind(&self, family: &[u8]) -> [u8; 32] {
        kind_of(family, &self.described)
    }

    /// The bytes the members agree on for the job: its description, its instance count and its
    /// plan for prepared material.
    pub(crate) fn agreed(&self, plan: Option<&Plan>) -> Vec<u8> {
        [&self.described[..], &(self.instances as u64).to_be_bytes(), &plan_bytes(plan)].concat()
    }

    /// The bytes the members agree on for a preparation of this job's kind: its description, the
    /// instances prepared and the instances per future job.
    pub(crate) fn prepare_agreed(&self, per_job: usize) -> Vec<u8> {
        [&self.described[..], &(self.instances as u64).to_be_bytes(), &(per_job as u64).to_be_bytes()]
            .concat()
    }

    /// This member's inputs of the instances `range` (nothing at a member without inputs).
    pub(crate) fn inputs_of(&self, range: core::ops::Range<usize>) -> &[Vec<Vec<bool>>] {
        if self.inputs.is_empty() {
            &self.inputs
        } else {
            &self.inputs[range]
        }
    }
}

/// The agreement bytes of the recipients (one byte per output value, `0xff` for both parties).
fn recipient_bytes(recipients: &[Option<PartyId>]) -> Vec<u8> {
    let mut out = (recipients.len() as u32).to_be_bytes().to_vec();
    out.extend(recipients.iter().map(|r| r.map_or(0xff, |p| p as u8)));
    out
}
