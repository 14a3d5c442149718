//! Preprocessing ahead of time, for every protocol that makes its material per instance: a
//! session makes material for `N` future instances while it is idle (a *preparation*), keeps it
//! ([`Prepared`], one store per session, held by the caller between jobs), and later jobs of the
//! same kind consume it, each instance once, so their own run is the online phase alone.
//!
//! Each protocol says what its material depends on and how it is made: TinyTable over OT
//! ([`super::tinytable::prepared`], any number of instances from one preparation), MiniMac
//! ([`super::minimac::prepared`], codeword batches) and Coral ([`super::coral::prepared`],
//! RMFE packs), the last two with OT or dealer preprocessing. This module is the store they share.
//!
//! **What "the same kind" means.** Material depends on the protocol and its options, the circuit
//! (for AES jobs, the key-shared AES circuit the spec derives), the owner of every input value and
//! the recipients of every output value — not on the inputs. A preparation records the SHA-256 of
//! exactly these ([`kind_of`]); a job whose spec has the same digest can use it.
//!
//! **Two shapes of stock** ([`Stock`]). TinyTable's material is per instance: a job takes any
//! number of instances from one preparation. A SIMD protocol's material is per *unit* — a MiniMac
//! codeword batch (up to 960 or 680 instances), a run of Coral packs (14 instances each) — and a
//! unit is evaluated once, whatever number of its lanes a job fills: opening a codeword or pack
//! twice would reveal the masks of its unused lanes. A preparation for jobs of `per_job`
//! instances therefore makes units that cover `per_job` instances each time; a job takes whole
//! units from the front of one preparation until they cover its instances, and the unused lanes
//! of its last unit are dropped with it. Preparing for the size of the jobs to come wastes
//! nothing.
//!
//! **Agreement.** Every member must consume the same units: a job's plan (which preparation, from
//! which position, how much, or none) is appended to the bytes the members agree on
//! ([`super::agreement`]), so members whose stores differ (one prepared, one did not, or they
//! consumed differently) fail with [`JobError::SpecMismatch`] before any prepared material is
//! taken or any input used. Each preparation's id is the digest of its own agreement, so material
//! of different preparations is never mixed up. A dealer (MiniMac or Coral with dealer
//! preprocessing) keeps a record of the units it dealt, without material, so that its plans match
//! the parties'.
//!
//! **Use** ([`PreparedUse`]): `Auto` (default) uses prepared material when one preparation of the
//! job's kind still covers the job, else makes the job's material inline as usual; `Require`
//! fails with [`JobError::InvalidSpec`] on `usePrepared`, saying what was prepared, when none
//! fits; `Never` always makes material inline.
//!
//! **Bound.** A store holds at most [`PREPARED_BUDGET_BYTES`] of material (by each protocol's
//! estimate of its material's size); a preparation that would pass it fails before anything is
//! sent ([`Prepared::check_room`]).
//!
//! **Trust model:** the material is made as the protocol's inline preprocessing makes it (by the
//! two parties over OT with every check, or by the trusted dealer); stored material never leaves
//! the party that holds it, and is dropped with the store (the session).

mod stock;

pub(crate) use stock::{Stock, Unit, UnitMaterial};

use super::agreement::agree_on_spec;
use super::JobError;
use crate::net::{NetStats, Network};
use sha2::{Digest, Sha256};

/// Most bytes of prepared material one session's store holds.
pub const PREPARED_BUDGET_BYTES: usize = 1 << 30;

/// Whether a job consumes prepared material (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PreparedUse {
    /// Use it if a preparation of the job's kind covers the job, else make material inline.
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
    /// Instances (per-instance stock) or units (unit stock) consumed from this preparation.
    taken: usize,
    stock: Stock,
}

/// One session's prepared material (see the module docs); empty at first.
#[derive(Default)]
pub struct Prepared {
    entries: Vec<Entry>,
    consumed: usize,
    /// Preparations added so far (part of each one's id).
    made: u64,
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

/// Which prepared material a job consumes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    id: [u8; 32],
    from: usize,
    /// Instances (per-instance stock) or units (unit stock) taken.
    take: usize,
    /// Instances the job runs.
    instances: usize,
}

/// The bytes a job appends to its agreement: `0`, or `1`, the preparation's id, the position it
/// takes from and how much it takes.
pub(crate) fn plan_bytes(plan: Option<&Plan>) -> Vec<u8> {
    match plan {
        None => vec![0],
        Some(p) => {
            [&[1u8][..], &p.id, &(p.from as u64).to_be_bytes(), &(p.take as u64).to_be_bytes()].concat()
        }
    }
}

/// The kind digest of material described by `encoded` (its job's agreed bytes without the
/// instance count), in the family `family` (a protocol and path, e.g. `tinytable/circuit`).
pub(crate) fn kind_of(family: &[u8], encoded: &[u8]) -> [u8; 32] {
    Sha256::new()
        .chain_update(b"chorus/prepared-kind/v3/")
        .chain_update(family)
        .chain_update(b"/")
        .chain_update(encoded)
        .finalize()
        .into()
}

/// Whether a job that cannot use prepared material may run under `usage`: `Ok(false)`, or an
/// error naming `usePrepared` (saying `why` the job uses none) if `usage` requires it.
pub fn refuse_required(usage: PreparedUse, why: &str) -> Result<bool, JobError> {
    if usage == PreparedUse::Require {
        return Err(JobError::invalid_spec("usePrepared", why));
    }
    Ok(false)
}

/// A preparation's agreement on the job spec bytes `agreed` (under its own tag); its digest is
/// the preparation's id and tags its OT sessions.
pub(crate) async fn agree_to_prepare<N: Network>(net: &mut N, agreed: &[u8]) -> Result<Vec<u8>, JobError> {
    agree_on_spec(net, &[b"chorus/prepare/v2".as_slice(), agreed].concat()).await
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

/// The instance counts of the jobs a preparation of `instances` instances for jobs of `per_job`
/// instances serves: `per_job` each, the last one what is left.
pub(crate) fn job_sizes(instances: usize, per_job: usize) -> Vec<usize> {
    super::stream::chunks(instances, per_job).map(|r| r.len()).collect()
}

impl Prepared {
    /// Instances of prepared material not yet consumed, of every kind (for unit stock, the
    /// instances its units can serve).
    pub fn available(&self) -> usize {
        self.entries.iter().map(|e| e.stock.instances()).sum()
    }

    /// Instances consumed by jobs so far.
    pub fn consumed(&self) -> usize {
        self.consumed
    }

    /// The estimated bytes of material the store holds.
    pub fn held_bytes(&self) -> usize {
        self.entries.iter().map(|e| e.stock.bytes()).sum()
    }

    /// Instances not yet consumed of kind `kind`.
    pub(crate) fn available_of(&self, kind: &[u8; 32]) -> usize {
        self.entries.iter().filter(|e| e.kind == *kind).map(|e| e.stock.instances()).sum()
    }

    /// Checks that `bytes` more of material fit the store's bound, before a preparation sends
    /// anything; the error names `field`, the spec field that sets the preparation's size.
    pub(crate) fn check_room(&self, bytes: usize, field: &'static str) -> Result<(), JobError> {
        let held = self.held_bytes();
        if held.saturating_add(bytes) > PREPARED_BUDGET_BYTES {
            return Err(JobError::invalid_spec(
                field,
                format!(
                    "this preparation's material (about {} MiB) and the {} MiB the session already \
                     holds would pass the {} MiB a session keeps: prepare fewer instances, or run \
                     jobs that consume the prepared ones first",
                    bytes.div_ceil(1 << 20),
                    held.div_ceil(1 << 20),
                    PREPARED_BUDGET_BYTES >> 20
                ),
            ));
        }
        Ok(())
    }

    /// What a job of kind `kind()` running `needs` instances consumes under `usage`: from the
    /// first preparation of its kind that still covers all its instances (a job takes its
    /// material from one preparation). The kind digest hashes the job's whole description (a
    /// circuit's every gate), so it is computed only when the store holds material to match.
    pub(crate) fn plan(
        &self,
        kind: impl FnOnce() -> [u8; 32],
        needs: usize,
        usage: PreparedUse,
    ) -> Result<Option<Plan>, JobError> {
        if usage == PreparedUse::Never {
            return Ok(None);
        }
        let (fit, same) = if self.entries.is_empty() {
            (None, 0)
        } else {
            let kind = kind();
            let fit = self
                .entries
                .iter()
                .filter(|e| e.kind == kind)
                .find_map(|e| e.stock.covering(needs).map(|take| (e, take)));
            (fit, self.available_of(&kind))
        };
        match (fit, usage) {
            (Some((e, take)), _) => Ok(Some(Plan { id: e.id, from: e.taken, take, instances: needs })),
            (None, PreparedUse::Require) => {
                Err(JobError::invalid_spec("usePrepared", self.why_none(same, needs)))
            }
            (None, _) => Ok(None),
        }
    }

    /// Why no preparation covers a job of `needs` instances when `same` of the store's
    /// instances are of its kind.
    fn why_none(&self, same: usize, needs: usize) -> String {
        let all = self.available();
        if all == 0 {
            return format!(
                "no prepared material is left in this session; the job needs {needs} instance(s): \
                 call prepare first, or leave usePrepared unset to make the material inline"
            );
        }
        if same == 0 {
            return format!(
                "the {all} prepared instance(s) of this session were made for other jobs (another \
                 protocol, circuit or AES path, input owners, outputs or security options); prepare \
                 this job's kind first"
            );
        }
        format!(
            "{same} prepared instance(s) fit this job but no preparation of its kind covers all \
             {needs}; a job takes its material from one preparation: prepare more (MiniMac and Coral: \
             with perJob at least the job's instance count), or run fewer"
        )
    }

    /// Removes the material of `plan` from its preparation.
    pub(crate) fn take(&mut self, plan: &Plan) -> Result<Stock, JobError> {
        let at = self.entries.iter().position(|e| e.id == plan.id && e.taken == plan.from);
        let Some(at) = at else {
            return Err(JobError::Internal("the planned preparation vanished"));
        };
        let entry = &mut self.entries[at];
        let taken = entry.stock.take(plan.take)?;
        entry.taken += plan.take;
        self.consumed += plan.instances;
        if entry.stock.is_empty() {
            self.entries.remove(at);
        }
        Ok(taken)
    }

    /// Stores `stock` of kind `kind` made by the preparation agreed as `digest`, with `stats` its
    /// communication. Its id is the digest with the number of preparations before it, so two
    /// preparations of one spec have ids of their own.
    pub(crate) fn add(
        &mut self,
        kind: [u8; 32],
        digest: &[u8],
        stock: Stock,
        stats: NetStats,
    ) -> PrepareOutput {
        let id = Sha256::new().chain_update(digest).chain_update(self.made.to_be_bytes()).finalize().into();
        self.made += 1;
        let instances = stock.instances();
        self.entries.push(Entry { kind, id, taken: 0, stock });
        PrepareOutput { instances, available: self.available_of(&kind), stats }
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_instances;
