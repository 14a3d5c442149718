//! Preprocessing ahead of time: a two-member session makes TinyTable material over OT for `N`
//! future instances while it is idle ([`prepare`]), keeps it ([`Prepared`], one store per
//! session, held by the caller between jobs), and later jobs of the same kind consume it, each
//! instance once, so their own run is the online phase alone.
//!
//! **What "the same kind" means.** Fig. 8's material depends on the circuit, the owner of every
//! input value, the recipients of every output value, the security level and the MAC width — not
//! on the inputs. A preparation records the SHA-256 of exactly these ([`kind`]); a job whose
//! circuit spec (for AES jobs, the key-shared AES circuit its spec derives) has the same digest
//! can use it. An AES job's instances are its blocks; a circuit job's its evaluations. The AES
//! S-box-table path's material is its authenticated tables ([`super::sbox_ot`]), a kind of its
//! own: the digest of its AES spec without the block count.
//!
//! **Agreement.** Both parties must consume the same instances: a job's plan (which preparation,
//! from which instance on, or none) is appended to the bytes the members agree on
//! ([`super::super::agreement`]), so parties whose stores differ (one prepared, one did not, or
//! they consumed differently) fail with [`JobError::SpecMismatch`] before any prepared instance
//! is taken or any input used. Each preparation's id is the digest of its own agreement, so
//! material of different preparations is never mixed up.
//!
//! **Use** ([`PreparedUse`]): `Auto` (default) uses prepared material when one preparation of the
//! job's kind still holds enough instances, else makes the job's material inline as usual;
//! `Require` fails with [`JobError::InvalidSpec`] on `usePrepared`, saying what was prepared,
//! when none fits; `Never` always makes material inline.
//!
//! **Trust model:** as for [`super::ot_prep`]: the material is made by the two parties alone with
//! every opening checked; stored material never leaves the party that holds it, and is dropped
//! with the store (the session).

use super::circuit::CircuitJobSpec;
use super::ot_prep::{self, Material};
use super::{check_common, JobError, Preprocessing};
use crate::jobs::agreement::agree_on_spec;
use crate::net::{NetStats, Network};
use rand_core::{CryptoRng, RngCore};
use sha2::{Digest, Sha256};

/// Whether a job consumes prepared material (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PreparedUse {
    /// Use it if a preparation of the job's kind holds enough instances, else make material inline.
    #[default]
    Auto,
    /// Use it; fail if none fits.
    Require,
    /// Make material inline.
    Never,
}

struct Entry {
    kind: [u8; 32],
    id: [u8; 32],
    /// Instances consumed from this preparation so far.
    taken: usize,
    material: Material,
}

/// One session's prepared material (see the module docs); empty at first.
#[derive(Default)]
pub struct Prepared {
    entries: Vec<Entry>,
    consumed: usize,
}

impl core::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The material is secret: only counts.
        f.debug_struct("Prepared")
            .field("preparations", &self.entries.len())
            .field("available", &self.available())
            .field("consumed", &self.consumed)
            .finish()
    }
}

/// Which prepared instances a job consumes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    id: [u8; 32],
    from: usize,
    instances: usize,
}

/// The bytes a job appends to its agreement: `0`, or `1`, the preparation's id and the first
/// instance it takes.
pub(crate) fn plan_bytes(plan: Option<&Plan>) -> Vec<u8> {
    match plan {
        None => vec![0],
        Some(p) => [&[1u8][..], &p.id, &(p.from as u64).to_be_bytes()].concat(),
    }
}

/// The digest of what a job's material depends on (see the module docs).
pub(crate) fn kind(spec: &CircuitJobSpec) -> [u8; 32] {
    let blank = CircuitJobSpec { instances: 0, preprocessing: Preprocessing::Ot, ..spec.clone() };
    kind_of(b"circuit", &blank.encode())
}

/// The kind digest of material described by `encoded` (its spec without the instance count), in
/// the family `family` (`circuit` for Fig. 8 material, `sbox-tables` for the AES S-box tables).
pub(crate) fn kind_of(family: &[u8], encoded: &[u8]) -> [u8; 32] {
    Sha256::new()
        .chain_update(b"chorus/tinytable/prepared-kind/v2/")
        .chain_update(family)
        .chain_update(b"/")
        .chain_update(encoded)
        .finalize()
        .into()
}

impl Prepared {
    /// Instances of prepared material not yet consumed, of every kind.
    pub fn available(&self) -> usize {
        self.entries.iter().map(|e| e.material.instances()).sum()
    }

    /// Instances consumed by jobs so far.
    pub fn consumed(&self) -> usize {
        self.consumed
    }

    /// Instances not yet consumed of kind `kind`.
    pub(crate) fn available_of(&self, kind: &[u8; 32]) -> usize {
        self.entries.iter().filter(|e| e.kind == *kind).map(|e| e.material.instances()).sum()
    }

    /// What a circuit job of `spec` consumes under `usage` ([`Self::plan_kind`]).
    pub(crate) fn plan(&self, spec: &CircuitJobSpec, usage: PreparedUse) -> Result<Option<Plan>, JobError> {
        self.plan_kind(&kind(spec), spec.instances, usage)
    }

    /// What a job of kind `kind` needing `needs` instances consumes under `usage`: the first
    /// preparation of its kind that still holds all its instances (a job takes its instances
    /// from one preparation).
    pub(crate) fn plan_kind(
        &self,
        kind: &[u8; 32],
        needs: usize,
        usage: PreparedUse,
    ) -> Result<Option<Plan>, JobError> {
        if usage == PreparedUse::Never {
            return Ok(None);
        }
        let fit = self.entries.iter().find(|e| e.kind == *kind && e.material.instances() >= needs);
        match (fit, usage) {
            (Some(e), _) => Ok(Some(Plan { id: e.id, from: e.taken, instances: needs })),
            (None, PreparedUse::Require) => {
                Err(JobError::invalid_spec("usePrepared", self.why_none(kind, needs)))
            }
            (None, _) => Ok(None),
        }
    }

    fn why_none(&self, kind: &[u8; 32], needs: usize) -> String {
        let (same, all) = (self.available_of(kind), self.available());
        if all == 0 {
            return format!(
                "no prepared material is left in this session; the job needs {needs} instance(s): \
                 call prepare first, or leave usePrepared unset to make the material inline"
            );
        }
        if same == 0 {
            return format!(
                "the {all} prepared instance(s) of this session were made for other jobs (another \
                 circuit or AES path, input owners, outputs, security or macBits); prepare this \
                 job's kind first"
            );
        }
        format!(
            "{same} prepared instance(s) fit this job but none of its preparations holds all {needs}; \
             a job takes its instances from one preparation: prepare more, or run fewer"
        )
    }
}

/// Whether a job that cannot use prepared material may run under `usage`: `Ok(false)`, or an
/// error naming `usePrepared` if `usage` requires prepared material.
pub fn refuse_required(usage: PreparedUse) -> Result<bool, JobError> {
    if usage == PreparedUse::Require {
        return Err(JobError::invalid_spec(
            "usePrepared",
            "only TinyTable jobs with OT preprocessing use prepared material",
        ));
    }
    Ok(false)
}

impl Prepared {
    /// Whether a circuit job of `spec` consumes prepared material under `usage` (an error naming
    /// `usePrepared` if `usage` requires it and none fits).
    pub fn uses(&self, spec: &CircuitJobSpec, usage: PreparedUse) -> Result<bool, JobError> {
        if spec.preprocessing != Preprocessing::Ot {
            return refuse_required(usage);
        }
        Ok(self.plan(spec, usage)?.is_some())
    }

    /// Removes the instances of `plan` from their preparation.
    pub(crate) fn take(&mut self, plan: &Plan) -> Result<Material, JobError> {
        let at = self.entries.iter().position(|e| e.id == plan.id && e.taken == plan.from);
        let Some(at) = at else {
            return Err(JobError::Internal("the planned preparation vanished"));
        };
        let entry = &mut self.entries[at];
        let taken = entry.material.take(plan.instances)?;
        entry.taken += plan.instances;
        self.consumed += plan.instances;
        if entry.material.instances() == 0 {
            self.entries.remove(at);
        }
        Ok(taken)
    }
}

/// What a preparation made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrepareOutput {
    /// Instances this call prepared.
    pub instances: usize,
    /// Instances of this kind now available in the store.
    pub available: usize,
    /// This member's communication for the preparation.
    pub stats: NetStats,
}

/// Makes material for `spec.instances` future instances of the kind of `spec` (whose
/// preprocessing must be OT, in a two-member session) and adds it to `store`. `agreed` are the
/// bytes of the job spec both members agree on; the preparation agrees on them under its own tag.
pub(crate) async fn prepare<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitJobSpec,
    agreed: &[u8],
    rng: &mut R,
    store: &mut Prepared,
) -> Result<PrepareOutput, JobError> {
    check_preparable(spec.preprocessing)?;
    check_common(net, spec.preprocessing)?;
    spec.validate()?;
    let start = net.stats();
    let digest = agree_to_prepare(net, agreed).await?;
    let material = ot_prep::make(net, spec, &digest, rng).await?;
    Ok(store.add(kind(spec), &digest, material, net.stats().since(&start)))
}

/// A preparation's agreement on the job spec bytes `agreed` (under its own tag); its digest is
/// the preparation's id and its OT session tag.
pub(crate) async fn agree_to_prepare<N: Network>(net: &mut N, agreed: &[u8]) -> Result<Vec<u8>, JobError> {
    agree_on_spec(net, &[b"chorus/tinytable/prepare/v1".as_slice(), agreed].concat()).await
}

impl Prepared {
    /// Stores `material` of kind `kind` made by the preparation agreed as `digest`, with `stats`
    /// its communication.
    pub(crate) fn add(
        &mut self,
        kind: [u8; 32],
        digest: &[u8],
        material: Material,
        stats: NetStats,
    ) -> PrepareOutput {
        let mut id = [0u8; 32];
        id.copy_from_slice(&digest[..32]);
        let instances = material.instances();
        self.entries.push(Entry { kind, id, taken: 0, material });
        PrepareOutput { instances, available: self.available_of(&kind), stats }
    }
}

/// Only OT material is made ahead: a dealer's session has three members and its dealer deals
/// per job.
pub(crate) fn check_preparable(preprocessing: Preprocessing) -> Result<(), JobError> {
    if preprocessing != Preprocessing::Ot {
        return Err(JobError::not_available(
            "preprocessing",
            "only OT preprocessing is prepared ahead of time (a trusted dealer deals per job)",
        ));
    }
    Ok(())
}

/// The online phase of a job on the prepared instances of `plan` (agreed by both members).
pub(crate) async fn evaluate<N: Network>(
    net: &mut N,
    spec: &CircuitJobSpec,
    plan: &Plan,
    store: &mut Prepared,
    inputs: &[Vec<Vec<bool>>],
) -> Result<(Vec<crate::proto::tinytable::circuit::online::Outputs>, NetStats), JobError> {
    let material = store.take(plan)?;
    ot_prep::evaluate(net, spec, material, inputs).await
}
