//! Coral's material made ahead of time ([`crate::jobs::prepared`]): chunks of RMFE packs for `N`
//! future instances, made with the job's own preprocessing (the parties over OT, or the trusted
//! dealer; see the [trust model](super)).
//!
//! **Units.** A pack (14 instances) is opened once, whatever number of its instances a job fills,
//! so a preparation for jobs of `per_job` instances makes, per future job, the chunks step 2 of
//! the [module docs](super) would make for a job of that size (whole packs within the material
//! budget). A job takes whole chunks from the front of one preparation of its kind and runs step 3
//! on them: one source makes every chunk of a preparation (the OT provider, or one dealer:
//! [`super::ChunkSource`]), so all are under the same MAC keys and consecutive chunks join one
//! online phase, as many as its working memory allows ([`super::online_size`]). The dealer keeps
//! a record of the chunks it dealt, so its plans match the parties'.
//!
//! **Kind:** the job's description ([`SimdJob::kind`]): preprocessing, circuit (or AES roles),
//! input owners and output recipients.

use super::{
    chunk_bytes, chunk_material, chunk_size, chunk_tag, evaluate_chunk, online_size, unit_material,
    ChunkSource,
};
use crate::jobs::aes::JobPhase;
use crate::jobs::parties::computing;
use crate::jobs::prepared::{
    agree_to_prepare, job_sizes, PrepareOutput, Prepared, Stock, Unit, UnitMaterial,
};
use crate::jobs::simd::SimdJob;
use crate::jobs::stream::chunks;
use crate::jobs::{JobError, Preprocessing};
use crate::net::{NetStats, Network};
use crate::proto::coral::CoralMaterial;
use crate::proto::tinytable::circuit::online::Outputs;
use rand_core::{CryptoRng, RngCore};
use std::collections::VecDeque;

/// The family of Coral's prepared material.
pub(crate) const FAMILY: &[u8] = b"coral";

/// The chunk sizes a preparation of `job.instances` instances for jobs of `per_job` makes in a
/// session of `members`.
fn chunk_sizes(
    job: &SimdJob<'_>,
    preprocessing: Preprocessing,
    per_job: usize,
    members: usize,
) -> Vec<usize> {
    let parties = computing(members, preprocessing);
    job_sizes(job.instances, per_job)
        .into_iter()
        .flat_map(|size| {
            chunks(size, chunk_size(&job.circuit, size, preprocessing, parties)).map(|r| r.len())
        })
        .collect()
}

/// Checks that a preparation of `job` for jobs of `per_job` instances, in a session of `members`,
/// fits `store`'s bound (`field` sets its size).
pub(crate) fn check_room(
    (job, preprocessing): &(SimdJob<'_>, Preprocessing),
    (per_job, members): (usize, usize),
    store: &Prepared,
    field: &'static str,
) -> Result<(), JobError> {
    let parties = computing(members, *preprocessing);
    let sizes = chunk_sizes(job, *preprocessing, per_job, members);
    store.check_room(sizes.into_iter().map(|n| chunk_bytes(&job.circuit, n, parties)).sum(), field)
}

/// Makes the chunks of `job.instances` future instances of `job`'s kind, for jobs of `per_job`
/// instances each, and adds them to `store`; `field` names the spec field of the count.
pub(crate) async fn prepare<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    simd: &(SimdJob<'_>, Preprocessing),
    per_job: usize,
    rng: &mut R,
    (store, field): (&mut Prepared, &'static str),
    mut observe: impl FnMut(JobPhase),
) -> Result<PrepareOutput, JobError> {
    check_room(simd, (per_job, net.parties()), store, field)?;
    let (job, preprocessing) = simd;
    let parties = computing(net.parties(), *preprocessing);
    let start = net.stats();
    let digest = agree_to_prepare(net, &[FAMILY, &job.prepare_agreed(per_job)].concat()).await?;
    let mut units = VecDeque::new();
    let mut done = 0;
    let mut source = ChunkSource::default();
    for (index, lanes) in chunk_sizes(job, *preprocessing, per_job, net.parties()).into_iter().enumerate() {
        let tag = chunk_tag(&digest, index);
        let material = chunk_material(net, *preprocessing, &mut source, &tag, job, lanes, rng).await?;
        let bytes = chunk_bytes(&job.circuit, lanes, parties);
        units.push_back(Unit { lanes, bytes, material: unit_material(material) });
        done += lanes;
        observe(JobPhase::Instances { done, total: job.instances });
    }
    Ok(store.add(job.kind(FAMILY), &digest, Stock::Units(units), net.stats().since(&start)))
}

/// Step 3 of the [module docs](super) on prepared chunks `units` (taken for this job by its
/// agreed plan). A preparation's chunks are under one source's keys, so consecutive chunks join
/// one online phase, up to [`online_size`] instances (its working memory: the material itself is
/// already held). Both parties group alike: the grouping depends only on the public chunk sizes
/// and the circuit. Returns the outputs (none at the dealer) and this member's online
/// communication.
pub(crate) async fn evaluate<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    job: &SimdJob<'_>,
    mut units: VecDeque<Unit>,
    rng: &mut R,
    mut observe: impl FnMut(JobPhase),
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let mut outputs = Vec::with_capacity(job.instances);
    let mut online = NetStats::default();
    let mut done = 0;
    let limit = online_size(&job.circuit, job.instances);
    while let Some(unit) = units.pop_front() {
        let mut lanes = unit.lanes;
        match unit.material {
            UnitMaterial::Coral(material) => {
                let mut group = vec![*material];
                while units.front().is_some_and(|next| lanes + next.lanes <= limit) {
                    let next = units.pop_front().expect("a unit is next");
                    let UnitMaterial::Coral(more) = next.material else {
                        return Err(JobError::Internal("other material among Coral's prepared chunks"));
                    };
                    group.push(*more);
                    lanes += next.lanes;
                }
                let material = CoralMaterial::join(group)
                    .ok_or(JobError::Internal("a preparation's chunks under different keys"))?;
                let range = done..(done + lanes).min(job.instances);
                observe(JobPhase::OnlineStarts);
                let (mut opened, spent) = evaluate_chunk(net, job, material, range, rng).await?;
                online = online.plus(&spent);
                outputs.append(&mut opened);
            }
            UnitMaterial::Dealt => {}
            UnitMaterial::MiniMac(_) => {
                return Err(JobError::Internal("MiniMac material prepared for Coral"))
            }
        }
        done = (done + lanes).min(job.instances);
        observe(JobPhase::Instances { done, total: job.instances });
    }
    Ok((outputs, online))
}
