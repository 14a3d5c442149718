//! Multi-party TinyOT's runner for the shared AES and circuit jobs ([`crate::proto::tinyot`]):
//! every member of a session of 2 to [`MAX_OT_PARTIES`] computes, malicious with abort against
//! all but one colluding member, material over OT among the members (nobody else trusted); each
//! output value goes to every member or to one. One instance costs one AND triple per AND gate,
//! so this is the protocol for one or a few instances among three or more parties, where MiniMac
//! and Coral pay for a whole codeword batch or RMFE pack.
//!
//! # Steps
//! 1. Spec agreement ([`super::agreement`]) among all members; its digest tags the OT session.
//! 2. Per chunk of instances ([`chunk_size`], within [`stream::MATERIAL_BUDGET_BYTES`] of working
//!    memory): the chunk's triples and input masks over OT ([`OtProvider`], set up once per job),
//!    then its online phase ([`evaluate`]: one round per AND layer, every opened share's MAC
//!    checked before any output opens).
//!
//! AES runs the key-shared AES circuit of [`super::keyed_aes`], one instance per block. Material
//! made ahead of time (`prepare`) is not offered for this protocol: a job that requires prepared
//! material is refused before anything is sent.

use super::aes::{AesInput, AesOutput, AesProtocol, AesSpec, JobPhase};
use super::agreement::agree_on_spec;
use super::circuit::{CircuitInput, CircuitOutput, CircuitSpec};
use super::error::JobError;
use super::keyed_aes::AesAsCircuit;
use super::parties::{self, MAX_OT_PARTIES};
use super::prepared::{refuse_required, PreparedUse};
use super::simd::SimdJob;
use super::stream;
use crate::circuit::Circuit;
use crate::net::{NetStats, Network};
use crate::ot::multi::MAX_PARTIES;
use crate::ot::tinyot::{bucket_size, MIN_BUCKETS};
use crate::proto::tinyot::{evaluate, Demand, OtProvider};
use crate::proto::tinytable::circuit::online::Outputs;
use rand_core::{CryptoRng, RngCore};

pub(crate) const PROTOCOL: &str = "TinyOT";

/// Why a job that requires prepared material is refused.
pub(crate) const NOT_PREPARABLE: &str =
    "TinyOT makes its material inside each job; it takes no prepared material";

/// The protocol's bytes in the agreement (it has no options).
const OPTIONS: [u8; 1] = [0];

// The protocol's material comes from the n-party TinyOT, whose bound every session over OT holds.
const _: () = assert!(MAX_OT_PARTIES == MAX_PARTIES);

/// Checks an AES spec whose protocol is TinyOT: roles among up to [`MAX_OT_PARTIES`] parties (the
/// run checks them against the session).
pub(crate) fn validate_aes(spec: &AesSpec) -> Result<(), JobError> {
    parties::validate_aes_roles(spec, PROTOCOL)
}

/// Checks a circuit spec whose protocol is TinyOT: a boolean circuit, owners and recipients among
/// up to [`MAX_OT_PARTIES`] parties (the run checks them against the session).
pub(crate) fn validate_circuit(spec: &CircuitSpec) -> Result<(), JobError> {
    spec.circuit.boolean(PROTOCOL)?;
    parties::validate_circuit_io(spec)
}

/// Runs a validated AES spec whose protocol is TinyOT.
pub(crate) async fn run_aes<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &AesSpec,
    input: AesInput,
    rng: &mut R,
    usage: PreparedUse,
    observe: impl FnMut(JobPhase),
) -> Result<AesOutput, JobError> {
    if !matches!(spec.protocol, AesProtocol::TinyOt) {
        return Err(JobError::Internal("not a TinyOT spec"));
    }
    refuse_required(usage, NOT_PREPARABLE)?;
    parties::check_aes_parties(spec, PROTOCOL, net.parties())?;
    spec.check_input(net.party(), &input)?;
    let job = SimdJob::aes(spec, &input, b"chorus/tinyot-aes/v1", &OPTIONS)?;
    let start = net.stats();
    let (outputs, online) = run_job(net, &job, rng, observe).await?;
    Ok(AesAsCircuit::output(&outputs, net.stats().since(&start), online))
}

/// Runs a validated circuit spec whose protocol is TinyOT.
pub(crate) async fn run_circuit<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitSpec,
    input: CircuitInput,
    rng: &mut R,
    usage: PreparedUse,
    observe: impl FnMut(JobPhase),
) -> Result<CircuitOutput, JobError> {
    refuse_required(usage, NOT_PREPARABLE)?;
    parties::check_circuit_session(spec, PROTOCOL, net.parties())?;
    let me = net.party();
    input.check(me, false, spec.circuit.input_widths(), &spec.io, spec.instances)?;
    let job = SimdJob::circuit(spec, input, (PROTOCOL, b"chorus/tinyot-circuit/v1"), &OPTIONS)?;
    let start = net.stats();
    let (outputs, online) = run_job(net, &job, rng, observe).await?;
    Ok(CircuitOutput::new(outputs, net.stats().since(&start), online))
}

/// An upper estimate of the working memory per AND gate and instance while the triples are
/// made: `B` leaky triples of three bits per triple, each bit a share and a MAC and a key per
/// party (the n-party engine's own estimate, [`crate::ot::multi::MAX_TRIPLES`]), at the bucket
/// size of the smallest batch.
fn working_bytes_per_and(parties: usize) -> usize {
    3 * bucket_size(MIN_BUCKETS) * (1 + 32 * parties)
}

/// Instances per chunk of a job of `circuit` among `parties` parties: the triples' working memory
/// and the wires' shares (a share, a MAC and a key per party each) within the material budget.
pub(crate) fn chunk_size(circuit: &Circuit, instances: usize, parties: usize) -> usize {
    let wires = circuit.wire_slots().slots() * (1 + 32 * MAX_PARTIES);
    let per_instance = circuit.gate_counts().and * working_bytes_per_and(parties) + wires;
    stream::chunk_size(per_instance, 1, instances).min(crate::proto::tinyot::MAX_INSTANCES)
}

/// Step 1, then step 2 chunk by chunk. Returns the outputs and this member's online
/// communication; `observe` hears when each chunk's online phase starts and when it is done.
async fn run_job<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    job: &SimdJob<'_>,
    rng: &mut R,
    mut observe: impl FnMut(JobPhase),
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let digest = agree_on_spec(net, &job.agreed(None)).await?;
    let session = [b"chorus/tinyot-job/ot-prep/".as_slice(), &digest].concat();
    let mut provider = OtProvider::setup(net, &session, rng).await?;
    let per_chunk = chunk_size(&job.circuit, job.instances, net.parties());
    let mut outputs = Vec::with_capacity(job.instances);
    let mut online = NetStats::default();
    for range in stream::chunks(job.instances, per_chunk) {
        let material = provider.make(net, Demand::of(&job.circuit, range.len()), rng).await?;
        observe(JobPhase::OnlineStarts);
        let before = net.stats();
        let inputs = job.inputs_of(range.clone());
        let mut chunk =
            evaluate(net, &material, &job.circuit, &job.owners, &job.recipients, range.len(), inputs).await?;
        online = online.plus(&net.stats().since(&before));
        outputs.append(&mut chunk);
        observe(JobPhase::Instances { done: range.end, total: job.instances });
    }
    Ok((outputs, online))
}
