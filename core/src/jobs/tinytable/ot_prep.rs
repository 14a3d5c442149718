//! [`Preprocessing::Ot`] for the circuit jobs: the two parties make their own TinyTable material,
//! with no dealer (see the [trust model](super)).
//!
//! 1. [`OtTinyOt::setup`]: base OTs and OT extension in both directions between parties 0 and 1,
//!    under a session tag derived from the agreed spec digest ([`session_tag`]); each party's
//!    OT randomness is a fresh ChaCha20 stream seeded from the job's `rng`.
//! 2. Fig. 8 for the instances of one online chunk: [`fig8_binary`] (semi-honest; the
//!    per-instance [`crate::proto::tinytable::BinaryPrep`]s are bit-sliced as soon as they are made,
//!    with [`SlicedPrep::from_instances`], for the same online engine the dealer's material feeds) or
//!    [`fig8_malicious`] (malicious), run on [`making_chunk_size`] instances at a time and gathered
//!    into one batch ([`Gather`]). Making material takes far more memory than holding it (every
//!    wire's authenticated mask, TinyOT's leaky triples and buckets, the authenticated table
//!    entries: [`working_bytes_per_instance`]), so the making chunks are what keep a large
//!    preparation within [`stream::MATERIAL_BUDGET_BYTES`].
//! 3. The online phase of that chunk, exactly as with the dealer: [`evaluate_sliced`] or
//!    [`evaluate_malicious`]; then steps 2 and 3 again for the next online chunk, over the same
//!    OT setup. A job streams its instances in online chunks of whole 64-instance words whose
//!    material, as held ([`bytes_per_instance`]), fits [`stream::MATERIAL_BUDGET_BYTES`]
//!    ([`online_chunk_size`]); a small job is one chunk. A party thus holds at most one online
//!    chunk's material and one making chunk's working memory, each within the budget.
//!
//! Chunks cost rounds (each making chunk runs TinyOT's and Fig. 8's rounds, each online chunk the
//! circuit's AND layers) and, at a million AND gates per making chunk or fewer, one more leaky triple per
//! bucket (TinyOT's bucket size grows as batches shrink); they never change a result: chunks
//! are independent instances of the same agreed job.
//!
//! MAC widths: malicious jobs use the spec's [`MacBits`] for the TinyOT MACs, from which Fig. 8
//! derives the lookup MACs, so one `k` covers both; semi-honest jobs check the openings of their
//! preprocessing with k = 64 (the online phase of a semi-honest job has no MACs).
//!
//! Failures are typed: an OT step or check as [`TinyTableError::Preprocessing`] (naming it), a
//! Fig. 8 opening as [`TinyTableError::MacCheckFailed`]; no material is produced and no input is
//! used then.

use super::circuit::CircuitJobSpec;
use super::{JobError, MacBits, Preprocessing, Security};
use crate::circuit::Circuit;
use crate::jobs::aes::JobPhase;
use crate::jobs::stream;
use crate::net::{NetStats, Network};
use crate::proto::tinytable::circuit::join::Gather;
use crate::proto::tinytable::circuit::online::{evaluate_sliced, Outputs};
use crate::proto::tinytable::sbox::prep::MaliciousAesPrep;
use crate::proto::tinytable::{
    evaluate_malicious, fig8_binary, fig8_malicious, MacWord, MaliciousPrep, OtTinyOt, SlicedPrep,
    TinyTableError,
};
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};
use zeroize::Zeroize;

/// The OT session tag of a job whose agreed spec digest is `digest`: both parties derive the same
/// tag, and jobs of different specs never share one.
pub fn session_tag(digest: &[u8]) -> Vec<u8> {
    [b"chorus/tinytable-job/ot-prep/".as_slice(), digest].concat()
}

/// This party's material for the instances of a batch, made over OT (step 2), in the form the
/// online engine of its security level takes. Material for many instances can be made ahead of
/// time and split by instances later ([`Material::take`], [`super::prepared`]).
pub(crate) enum Material {
    /// Semi-honest: Fig. 8's per-instance [`crate::proto::tinytable::BinaryPrep`]s, bit-sliced
    /// once when made (a job that consumes prepared material then pays no transposition).
    SemiHonest(SlicedPrep),
    /// Malicious with k = 64.
    K64(MaliciousPrep<u64>),
    /// Malicious with k = 32.
    K32(MaliciousPrep<u32>),
    /// The AES S-box-table path's authenticated tables, one instance per block ([`super::sbox_ot`]).
    SboxTables(MaliciousAesPrep),
}

impl Material {
    /// Instances of material held.
    pub(crate) fn instances(&self) -> usize {
        match self {
            Material::SemiHonest(prep) => prep.instances(),
            Material::K64(prep) => prep.instances(),
            Material::K32(prep) => prep.instances(),
            Material::SboxTables(prep) => prep.blocks(),
        }
    }

    /// Moves the whole batch out, leaving an empty one.
    pub(crate) fn take_all(&mut self) -> Material {
        match self {
            Material::SemiHonest(prep) => Material::SemiHonest(prep.take_all()),
            Material::K64(prep) => Material::K64(prep.take_all()),
            Material::K32(prep) => Material::K32(prep.take_all()),
            Material::SboxTables(prep) => Material::SboxTables(prep.take_all()),
        }
    }

    /// A copy of instances `start..start + len` (`len ≥ 1`, within the batch) as a batch of
    /// their own; it costs the range's size, not the batch's.
    pub(crate) fn range(&self, start: usize, len: usize) -> Result<Material, JobError> {
        Ok(match self {
            Material::SemiHonest(prep) => Material::SemiHonest(prep.instances_range(start, len)?),
            Material::K64(prep) => Material::K64(prep.instances_range(start, len)?),
            Material::K32(prep) => Material::K32(prep.instances_range(start, len)?),
            Material::SboxTables(prep) => {
                Material::SboxTables(prep.blocks_range(start, len).map_err(|reason| {
                    JobError::TinyTable(TinyTableError::PrepMismatch { party: prep.party(), reason })
                })?)
            }
        })
    }
}

/// Upper estimate of one instance's material as held, in bytes: the bit-sliced table shares
/// (4 bits per AND gate) and masks; malicious material adds a `k`-bit string of its own and the
/// two `k`-bit verification strings of the peer's, per table entry and output-mask share
/// (Table 1's "Lookup-k" column). The store counts prepared material at this size, and a job
/// holds one online chunk of it at a time ([`online_chunk_size`]).
pub(crate) fn bytes_per_instance(spec: &CircuitJobSpec) -> usize {
    let circuit = &spec.circuit;
    let (ands, inputs, outputs) =
        (circuit.gate_counts().and, circuit.num_input_wires(), circuit.num_output_wires());
    let bits_per_entry = match (spec.security, spec.mac_bits) {
        (Security::SemiHonest, _) => 1,
        (Security::Malicious, MacBits::K64) => 1 + 3 * 64,
        (Security::Malicious, MacBits::K32) => 1 + 3 * 32,
    };
    (4 * ands * bits_per_entry + inputs + outputs * bits_per_entry).div_ceil(8) + 8
}

/// Bytes of working memory per AND gate and instance while Fig. 8 makes material, besides the
/// per-wire masks: TinyOT's leaky triples, bucketing permutation and triples, and Fig. 8's
/// Beaver openings and authenticated table entries (each an [`crate::proto::tinytable::Auth`] of
/// a bit and two strings). Measured peak resident memory, with a margin (`docs/performance.md`,
/// "Preparation's working memory").
const WORKING_BYTES_PER_AND: usize = 260;

/// Upper estimate of the working memory of making one instance's material, in bytes: an
/// authenticated mask per wire and [`WORKING_BYTES_PER_AND`] per AND gate. Far above the held
/// size ([`bytes_per_instance`]), so material is made in chunks of [`making_chunk_size`].
pub(crate) fn working_bytes_per_instance(spec: &CircuitJobSpec) -> usize {
    let circuit = &spec.circuit;
    let auth = core::mem::size_of::<crate::proto::tinytable::Auth<u64>>();
    circuit.num_wires() * auth + circuit.gate_counts().and.max(1) * WORKING_BYTES_PER_AND
}

/// Instances per online chunk of `spec`'s job: whole 64-instance words whose material, as held,
/// fits [`stream::MATERIAL_BUDGET_BYTES`].
pub(crate) fn online_chunk_size(spec: &CircuitJobSpec) -> usize {
    stream::chunk_size(bytes_per_instance(spec), 64, spec.instances)
}

/// How a job streams its instances: `online` at a time through the online phase, each online
/// chunk's material made `making` instances at a time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChunkSizes {
    pub(crate) online: usize,
    pub(crate) making: usize,
}

/// Instances Fig. 8 makes at once, of `n` wanted: as many as the working memory of making them
/// fits [`stream::MATERIAL_BUDGET_BYTES`] (at least one).
pub(crate) fn making_chunk_size(spec: &CircuitJobSpec, n: usize) -> usize {
    stream::chunk_size(working_bytes_per_instance(spec), 1, n)
}

/// Steps 1–3 of the module docs as party 0 or 1 of a two-member session (checked by the caller),
/// calling `observe` after each chunk. Returns the outputs and this party's online communication.
pub(crate) async fn run_instances<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitJobSpec,
    digest: &[u8],
    inputs: &[Vec<Vec<bool>>],
    rng: &mut R,
    observe: &mut impl FnMut(JobPhase),
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let online = online_chunk_size(spec);
    let sizes = ChunkSizes { online, making: making_chunk_size(spec, online) };
    run_chunked(net, spec, digest, inputs, rng, sizes, observe).await
}

/// [`run_instances`] with chunks of `sizes`.
pub(crate) async fn run_chunked<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitJobSpec,
    digest: &[u8],
    inputs: &[Vec<Vec<bool>>],
    rng: &mut R,
    sizes: ChunkSizes,
    observe: &mut impl FnMut(JobPhase),
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    debug_assert_eq!(spec.preprocessing, Preprocessing::Ot);
    let mut source = Source::setup(net, spec, &session_tag(digest), rng).await?;
    let mut outputs = Vec::with_capacity(spec.instances);
    let mut online = NetStats::default();
    for range in stream::chunks(spec.instances, sizes.online) {
        let material = source.material(net, spec, range.len(), sizes.making).await?;
        observe(JobPhase::OnlineStarts);
        let (mut chunk, stats) =
            evaluate_material(net, &spec.circuit, material, &inputs[range.clone()]).await?;
        outputs.append(&mut chunk);
        online = online.plus(&stats);
        observe(JobPhase::Instances { done: range.end, total: spec.instances });
    }
    Ok((outputs, online))
}

/// The OT-based TinyOT engine of step 1, of the MAC width `spec` needs.
enum Source {
    K64(OtTinyOt<u64>),
    K32(OtTinyOt<u32>),
}

impl Source {
    async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        spec: &CircuitJobSpec,
        session: &[u8],
        rng: &mut R,
    ) -> Result<Source, JobError> {
        Ok(match (spec.security, spec.mac_bits) {
            (Security::Malicious, MacBits::K32) => Source::K32(setup(net, session, rng).await?),
            _ => Source::K64(setup(net, session, rng).await?),
        })
    }

    /// Step 2 for `n` instances of `spec`, made `per_chunk` instances at a time and gathered
    /// into one batch.
    async fn material<N: Network>(
        &mut self,
        net: &mut N,
        spec: &CircuitJobSpec,
        n: usize,
        per_chunk: usize,
    ) -> Result<Material, JobError> {
        Ok(match (spec.security, self) {
            (Security::SemiHonest, Source::K64(source)) => {
                let (circuit, io) = (&spec.circuit, &spec.io);
                let mut whole = Gather::new(net.party(), n);
                for range in stream::chunks(n, per_chunk) {
                    let preps = fig8_binary(net, source, circuit, io, range.len()).await?;
                    whole.push(SlicedPrep::from_instances(circuit, &preps)?)?;
                }
                Material::SemiHonest(whole.finish()?)
            }
            (Security::Malicious, Source::K64(source)) => {
                Material::K64(malicious_material(net, source, spec, n, per_chunk).await?)
            }
            (Security::Malicious, Source::K32(source)) => {
                Material::K32(malicious_material(net, source, spec, n, per_chunk).await?)
            }
            (Security::SemiHonest, Source::K32(_)) => {
                return Err(JobError::Internal("semi-honest material from a k = 32 engine"))
            }
        })
    }
}

/// Fig. 8's malicious material for `n` instances of `spec`, `per_chunk` at a time.
async fn malicious_material<N: Network, M: MacWord>(
    net: &mut N,
    source: &mut OtTinyOt<M>,
    spec: &CircuitJobSpec,
    n: usize,
    per_chunk: usize,
) -> Result<MaliciousPrep<M>, JobError> {
    let mut whole = Gather::new(net.party(), n);
    for range in stream::chunks(n, per_chunk) {
        whole.push(fig8_malicious(net, source, &spec.circuit, &spec.io, range.len()).await?)?;
    }
    Ok(whole.finish()?)
}

/// Steps 1 and 2: this party's material for the `spec.instances` instances of `spec`, made with
/// the peer over OT under the session tag of `digest`.
pub(crate) async fn make<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitJobSpec,
    digest: &[u8],
    rng: &mut R,
) -> Result<Material, JobError> {
    debug_assert_eq!(spec.preprocessing, Preprocessing::Ot);
    let mut source = Source::setup(net, spec, &session_tag(digest), rng).await?;
    source.material(net, spec, spec.instances, making_chunk_size(spec, spec.instances)).await
}

/// Step 3: the online phase of `spec` on `material` (which must hold `spec.instances` instances
/// of material made for `spec`'s circuit, inputs, outputs and security).
pub(crate) async fn evaluate<N: Network>(
    net: &mut N,
    spec: &CircuitJobSpec,
    material: Material,
    inputs: &[Vec<Vec<bool>>],
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    if material.instances() != spec.instances {
        return Err(JobError::Internal("prepared material of another batch size"));
    }
    evaluate_material(net, &spec.circuit, material, inputs).await
}

/// Step 3 for the instances `material` was made for (one entry of `inputs` each).
async fn evaluate_material<N: Network>(
    net: &mut N,
    circuit: &Circuit,
    material: Material,
    inputs: &[Vec<Vec<bool>>],
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let before = net.stats();
    let outputs = match material {
        Material::SemiHonest(prep) => evaluate_sliced(net, circuit, &prep, inputs).await?,
        Material::K64(prep) => evaluate_malicious(net, circuit, &prep, inputs).await?,
        Material::K32(prep) => evaluate_malicious(net, circuit, &prep, inputs).await?,
        Material::SboxTables(_) => return Err(JobError::Internal("S-box tables prepared for a circuit job")),
    };
    Ok((outputs, net.stats().since(&before)))
}

/// Step 1, with this party's own OT randomness drawn from `rng`.
pub(super) async fn setup<N: Network, R: RngCore + CryptoRng, M: MacWord>(
    net: &mut N,
    session: &[u8],
    rng: &mut R,
) -> Result<OtTinyOt<M>, TinyTableError> {
    let mut seed = [0u8; 32];
    rng.fill_bytes(&mut seed);
    let own = ChaCha20Rng::from_seed(seed);
    seed.zeroize();
    OtTinyOt::setup(net, session, own).await
}
