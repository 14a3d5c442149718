//! MiniMac's material made ahead of time ([`crate::jobs::prepared`]): codeword batches for `N`
//! future instances, made with the job's own preprocessing (the parties over OT, or the trusted
//! dealer; see the [trust model](super)), each batch for at most `8·k` instances of a future job.
//!
//! **Units.** A batch is opened once, whatever number of its instances a job fills (its unused
//! positions carry zero data or dealt randomness that the opening reveals), so a preparation for
//! jobs of `per_job` instances makes, per future job, batches of `8·k` instances and one for the
//! rest. A job takes whole batches from the front of one preparation of its kind and evaluates
//! each as step 2 of the [module docs](super) would, without making material. The dealer keeps a
//! record of the batches it dealt, so its plans match the parties'.
//!
//! **Kind:** the job's description ([`SimdJob::kind`]): code, preprocessing, circuit (or AES
//! roles), input owners and output recipients.

use super::{evaluate_batch, request, unit_material, Source};
use crate::jobs::aes::JobPhase;
use crate::jobs::parties::computing;
use crate::jobs::prepared::{
    agree_to_prepare, job_sizes, PrepareOutput, Prepared, Stock, Unit, UnitMaterial,
};
use crate::jobs::simd::SimdJob;
use crate::jobs::stream::chunks;
use crate::jobs::{JobError, Preprocessing};
use crate::net::{NetStats, Network};
use crate::proto::minimac::CodeChoice;
use crate::proto::tinytable::circuit::online::Outputs;
use rand_core::{CryptoRng, RngCore};
use std::collections::VecDeque;

/// The family of MiniMac's prepared material.
pub(crate) const FAMILY: &[u8] = b"minimac";

/// The batch sizes a preparation of `job.instances` instances for jobs of `per_job` makes.
fn batches(code: CodeChoice, instances: usize, per_job: usize) -> Vec<usize> {
    let capacity = code.code().instances();
    job_sizes(instances, per_job)
        .into_iter()
        .flat_map(|size| chunks(size, capacity).map(|r| r.len()))
        .collect()
}

/// Checks that a preparation of `job` for jobs of `per_job` instances, in a session of `members`,
/// fits `store`'s bound (`field` sets its size).
pub(crate) fn check_room(
    (job, code, preprocessing): &(SimdJob<'_>, CodeChoice, Preprocessing),
    (per_job, members): (usize, usize),
    store: &Prepared,
    field: &'static str,
) -> Result<(), JobError> {
    let per_batch = request(*code, computing(members, *preprocessing), job)?.party_bytes();
    store.check_room(batches(*code, job.instances, per_job).len().saturating_mul(per_batch), field)
}

/// Makes the batches of `job.instances` future instances of `job`'s kind, for jobs of `per_job`
/// instances each, and adds them to `store`; `field` names the spec field of the count.
pub(crate) async fn prepare<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    described: &(SimdJob<'_>, CodeChoice, Preprocessing),
    per_job: usize,
    rng: &mut R,
    (store, field): (&mut Prepared, &'static str),
    mut observe: impl FnMut(JobPhase),
) -> Result<PrepareOutput, JobError> {
    check_room(described, (per_job, net.parties()), store, field)?;
    let (job, code, preprocessing) = described;
    let request = request(*code, computing(net.parties(), *preprocessing), job)?;
    let per_batch = request.party_bytes();
    let start = net.stats();
    let digest = agree_to_prepare(net, &[FAMILY, &job.prepare_agreed(per_job)].concat()).await?;
    let mut source = Source::new(*preprocessing, &digest, rng);
    let mut units = VecDeque::new();
    let mut done = 0;
    for lanes in batches(*code, job.instances, per_job) {
        let prep = source.batch(net, &request.clone().with_instances(lanes)?, rng).await?;
        units.push_back(Unit { lanes, bytes: per_batch, material: unit_material(prep) });
        done += lanes;
        observe(JobPhase::Instances { done, total: job.instances });
    }
    Ok(store.add(job.kind(FAMILY), &digest, Stock::Units(units), net.stats().since(&start)))
}

/// Step 2 of the [module docs](super) on prepared batches `units` (taken for this job by its
/// agreed plan): each evaluates the next instances. Returns the outputs (none at the dealer) and
/// this member's online communication.
pub(crate) async fn evaluate<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    job: &SimdJob<'_>,
    preprocessing: Preprocessing,
    units: VecDeque<Unit>,
    rng: &mut R,
    mut observe: impl FnMut(JobPhase),
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let mut outputs = Vec::with_capacity(job.instances);
    let mut online = NetStats::default();
    let mut done = 0;
    for unit in units {
        let range = done..(done + unit.lanes).min(job.instances);
        match unit.material {
            UnitMaterial::MiniMac(prep) => {
                observe(JobPhase::OnlineStarts);
                let (mut opened, spent) =
                    evaluate_batch(net, preprocessing, job, &prep, job.inputs_of(range.clone()), rng).await?;
                online = online.plus(&spent);
                outputs.append(&mut opened);
            }
            UnitMaterial::Dealt => {}
            UnitMaterial::Coral(_) => return Err(JobError::Internal("Coral material prepared for MiniMac")),
        }
        done = range.end;
        observe(JobPhase::Instances { done, total: job.instances });
    }
    Ok((outputs, online))
}
