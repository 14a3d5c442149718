//! Coral's runner for the shared AES and circuit jobs ([`crate::proto::coral`], RMFE-packed
//! boolean circuits, Coral paper §3–§4): over OT every member of a session of 2 to
//! [`MAX_OT_PARTIES`] computes, beside a dealer parties 0 and 1; malicious with abort, 14
//! instances per packed field element; each output value goes to every computing party or to one
//! of them (`reveal_to` / the circuit's `reveal`): a private output is opened masked by one of its
//! recipient's input masks and checked with every other opening before anyone returns an output
//! ([`crate::proto::coral::online`]); the other parties' output is `None`.
//!
//! # Trust model (read this before choosing the preprocessing)
//!
//! - [`Preprocessing::Ot`] (the default; AES and circuits among every member of a session of 2
//!   to [`MAX_OT_PARTIES`], material prepared ahead too): the parties make every
//!   quintuple, encoding pair and input mask among themselves with [`OtProvider`] (TinyOT bits and triples from OT extension —
//!   two-party or n-party — COPE over GF(2^42) between every pair with MASCOT's authentication
//!   check, Fig. 7 quintuples), so **nobody but the parties is trusted**, and security holds
//!   against all of them but one colluding.
//! - [`Preprocessing::Dealer`] (a session of 3): **member 2 is a TRUSTED DEALER** that plays
//!   𝓕_prep (Coral paper §4, Fig. 4; the input masks of §4.3.3) with [`TrustedDealer`]: it knows
//!   α, every Δ_i and every quintuple, encoding pair and input mask, sends each party its shares
//!   over that pair's encrypted channel ([`codec`]), and takes no part in the evaluation. This is
//!   a weaker trust model: privacy and integrity hold only if the dealer follows the protocol and
//!   colludes with neither party (a dealer that shares its material with one party lets that
//!   party read the other's inputs and forge MACs).
//!
//! Either way the online phase is malicious with abort relative to the material: a party that
//! deviates makes the honest party's job fail with [`JobError::Coral`] naming the check, before
//! any output is opened; a dealt frame that does not decode or does not fit the job is
//! [`JobError::BadPreprocessing`] at the party that received it.
//!
//! # Steps
//! 1. Spec agreement ([`super::agreement`]) among all members, the preprocessing kind included;
//!    the digest tags the OT session.
//! 2. One chunk's material at once ([`circuit_demand_revealed`] for its instances): by OT
//!    between the parties, or dealt by the dealer, decoded by each party and confirmed to the
//!    dealer with a short message (the dealer's part of the chunk ends there, once both hold
//!    their material). One source makes all the chunks of a job or preparation
//!    ([`ChunkSource`]: the OT provider's TinyOT engine, α and COPE set up once, or one dealer
//!    with its keys), so every chunk's material is under the same keys.
//! 3. One evaluation of every instance of the chunk (`⌈instances / 14⌉` packs per wire, all AND
//!    gates of a layer in one round), MAC checks before the outputs open; then steps 2 and 3 for
//!    the next chunk. Chunks are whole packs sized to [`stream::MATERIAL_BUDGET_BYTES`]
//!    ([`chunk_size`]), so a job of any instance count holds one chunk's material at a time; a
//!    job that fits is one chunk, with exactly the messages of an unchunked run.
//!
//! AES runs the key-shared AES-128 circuit of [`super::keyed_aes`], one instance per block.
//!
//! Material can also be made ahead of time ([`prepared`]): a job that takes prepared chunks runs
//! step 3 on them alone, consecutive chunks joined into one online phase as far as its working
//! memory allows ([`online_size`]) — the material is already held, so the online phase need not
//! pay each chunk's rounds again.

use super::aes::{AesInput, AesOutput, AesProtocol, AesSpec, JobPhase};
use super::agreement::agree_on_spec;
use super::circuit::{CircuitInput, CircuitOutput, CircuitSpec, JobCircuit};
use super::error::JobError;
use super::keyed_aes::AesAsCircuit;
use super::parties::{self, computing, MAX_OT_PARTIES};
use super::prepared::{Prepared, PreparedUse, UnitMaterial};
use super::preprocessing::{Preprocessing, DEALER};
use super::simd::SimdJob;
use super::stream;
use super::view::TwoPartyView;
use crate::circuit::Circuit;
use crate::net::{NetStats, Network};
use crate::proto::coral::circuit::MAX_WIRE_SHARINGS;
use crate::proto::coral::prep::codec;
use crate::proto::coral::{
    circuit_demand_revealed, evaluate_circuit_revealed, CoralMaterial, CoralParams, DealtMaterial, Demand,
    OtProvider, Party, Preprocessing as _, TrustedDealer,
};
use crate::proto::tinytable::circuit::online::Outputs;
use crate::proto::tinytable::Reveal;
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};
use std::sync::{Arc, OnceLock};

pub(crate) mod mixed;
pub mod prepared;

pub(crate) const PROTOCOL: &str = "Coral";

/// A party's confirmation to the dealer that it decoded its material.
const RECEIVED: &[u8] = b"received";

/// The agreement byte of the preprocessing kind (both kinds run the same online phase, so the
/// members must agree on which one they are in).
fn preprocessing_byte(preprocessing: Preprocessing) -> u8 {
    match preprocessing {
        Preprocessing::Ot => 0,
        Preprocessing::Dealer => 1,
    }
}

/// Checks an AES spec whose protocol is Coral: over OT, roles among up to [`MAX_OT_PARTIES`]
/// parties (the run checks them against the session: [`parties::check_aes_parties`]); beside the
/// dealer, among parties 0 and 1.
pub(crate) fn validate_aes(spec: &AesSpec) -> Result<(), JobError> {
    match spec.protocol {
        AesProtocol::Coral { preprocessing: Preprocessing::Ot } => {
            parties::validate_aes_roles(spec, PROTOCOL)
        }
        AesProtocol::Coral { .. } => spec.check_two_party_roles(PROTOCOL),
        _ => Err(JobError::Internal("not a Coral spec")),
    }
}

/// Checks a circuit spec whose protocol is Coral. Over OT every member computes, so owners and
/// recipients may name any party up to [`MAX_OT_PARTIES`] (the run checks them against the
/// session); beside the dealer, parties 0 and 1 compute.
pub(crate) fn validate_circuit(spec: &CircuitSpec) -> Result<(), JobError> {
    match &spec.circuit {
        JobCircuit::Mixed(circuit) => mixed::validate(spec, circuit),
        JobCircuit::Boolean(_) if spec.protocol.preprocessing() == Preprocessing::Ot => {
            parties::validate_circuit_io(spec)
        }
        JobCircuit::Boolean(_) => spec.check_two_party_io(),
    }
}

// Coral's n-party TinyOT and both of its COPEs hold the bound of every session over OT.
const _: () = assert!(MAX_OT_PARTIES == crate::proto::coral::arith::ot::MAX_PARTIES);
const _: () = assert!(MAX_OT_PARTIES == crate::proto::coral::prep::ot::MAX_PARTIES);

/// Checks a session of `parties` members for a Coral job over OT (see [`parties::check_parties`]).
pub(crate) fn check_parties(parties: usize, owners: &[usize], reveal: &[Reveal]) -> Result<(), JobError> {
    parties::check_parties(PROTOCOL, parties, owners, reveal)
}

/// Coral's parameters (the (14, 42)-RMFE of its Table 1), built once per process.
fn params() -> Result<Arc<CoralParams>, JobError> {
    static PARAMS: OnceLock<Result<Arc<CoralParams>, String>> = OnceLock::new();
    PARAMS
        .get_or_init(|| CoralParams::new().map(Arc::new).map_err(|e| e.to_string()))
        .clone()
        .map_err(|_| JobError::Internal("Coral's RMFE parameters failed to build"))
}

/// The Coral job of a validated AES spec, for this member's checked `input`.
pub(crate) fn aes_job(
    spec: &AesSpec,
    input: &AesInput,
) -> Result<(SimdJob<'static>, Preprocessing), JobError> {
    let AesProtocol::Coral { preprocessing } = spec.protocol else {
        return Err(JobError::Internal("not a Coral spec"));
    };
    let options = [preprocessing_byte(preprocessing)];
    Ok((SimdJob::aes(spec, input, b"chorus/coral-aes/v7", &options)?, preprocessing))
}

/// The Coral job of a validated circuit spec, with this member's checked `input`.
pub(crate) fn circuit_job(
    spec: &CircuitSpec,
    input: CircuitInput,
) -> Result<(SimdJob<'_>, Preprocessing), JobError> {
    let preprocessing = spec.protocol.preprocessing();
    let options = [preprocessing_byte(preprocessing)];
    let tag = (PROTOCOL, b"chorus/coral-circuit/v6".as_slice());
    Ok((SimdJob::circuit(spec, input, tag, &options)?, preprocessing))
}

/// Runs a validated AES spec whose protocol is Coral, on prepared chunks if `prepared` says so.
pub(crate) async fn run_aes<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &AesSpec,
    input: AesInput,
    rng: &mut R,
    prepared: (&mut Prepared, PreparedUse),
    observe: impl FnMut(JobPhase),
) -> Result<AesOutput, JobError> {
    let AesProtocol::Coral { preprocessing } = spec.protocol else {
        return Err(JobError::Internal("not a Coral spec"));
    };
    parties::check_aes_session(spec, PROTOCOL, preprocessing, net.parties())?;
    spec.check_input(net.party(), &input)?;
    let job = aes_job(spec, &input)?;
    let start = net.stats();
    let (outputs, online) = run_job(net, &job, rng, prepared, observe).await?;
    Ok(AesAsCircuit::output(&outputs, net.stats().since(&start), online))
}

/// Runs a validated circuit spec whose protocol is Coral, on prepared chunks if `prepared` says
/// so.
pub(crate) async fn run_circuit<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitSpec,
    input: CircuitInput,
    rng: &mut R,
    prepared: (&mut Prepared, PreparedUse),
    observe: impl FnMut(JobPhase),
) -> Result<CircuitOutput, JobError> {
    let preprocessing = spec.protocol.preprocessing();
    parties::check_circuit_session(spec, PROTOCOL, net.parties())?;
    let me = net.party();
    input.check(me, preprocessing.is_dealer(me), spec.circuit.input_widths(), &spec.io, spec.instances)?;
    let job = circuit_job(spec, input)?;
    let start = net.stats();
    let (outputs, online_stats) = run_job(net, &job, rng, prepared, observe).await?;
    Ok(CircuitOutput::new(outputs, net.stats().since(&start), online_stats))
}

/// Step 1 of the module docs with the plan for prepared material, then steps 2 and 3 per chunk,
/// or step 3 on prepared chunks. Returns the outputs (empty at the dealer) and this member's
/// online communication.
async fn run_job<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    (job, preprocessing): &(SimdJob<'_>, Preprocessing),
    rng: &mut R,
    (store, usage): (&mut Prepared, PreparedUse),
    observe: impl FnMut(JobPhase),
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let plan = store.plan(|| job.kind(prepared::FAMILY), job.instances, usage)?;
    let digest = agree_on_spec(net, &job.agreed(plan.as_ref())).await?;
    match plan {
        Some(plan) => {
            let units = store.take(&plan)?.into_units()?;
            prepared::evaluate(net, job, units, rng, observe).await
        }
        None => {
            let parties = computing(net.parties(), *preprocessing);
            let per_chunk = chunk_size(&job.circuit, job.instances, *preprocessing, parties);
            run_chunked(net, *preprocessing, &digest, job, per_chunk, rng, observe).await
        }
    }
}

/// An upper estimate of one pack's material (14 instances) per AND gate: a quintuple of
/// authenticated GF(2^42) elements, its share of encoding pairs, TinyOT bits and triples.
const BYTES_PER_PACK_AND: usize = 256;

/// The estimated bytes one of `parties` computing parties holds for a chunk of `instances`
/// instances of `circuit` (an upper estimate past two: a TinyOT bit carries a MAC and a key per
/// peer, the GF(2^42) shares do not grow).
pub(crate) fn chunk_bytes(circuit: &Circuit, instances: usize, parties: usize) -> usize {
    instances.div_ceil(14)
        * circuit.gate_counts().and.max(1)
        * BYTES_PER_PACK_AND
        * parties.saturating_sub(1).max(1)
}

/// An upper estimate of the working memory one party needs, per AND gate and computing party,
/// while it makes one pack's material over OT: Fig. 7 turns TinyOT triples into each quintuple,
/// and every TinyOT bit carries a MAC and a key per party (measured with `chorus-bench-coral
/// --prep ot`: about 130 MB per party and pack of the AES circuit with two parties, 190 MB with
/// three). Chunks are sized by it, so a job's peak stays near the material budget whatever its
/// instance count.
const WORKING_BYTES_PER_PACK_AND_AND_PARTY: usize = 10 << 10;

/// Instances per chunk of a job of `circuit` among `parties` computing parties (whole packs
/// within the material budget): over OT counted at the working memory of making them; from the
/// dealer at their held size for both parties, which the dealer makes and the parties receive.
pub(crate) fn chunk_size(
    circuit: &Circuit,
    instances: usize,
    preprocessing: Preprocessing,
    parties: usize,
) -> usize {
    let per_pack_and = match preprocessing {
        Preprocessing::Ot => WORKING_BYTES_PER_PACK_AND_AND_PARTY * parties,
        Preprocessing::Dealer => BYTES_PER_PACK_AND * 2,
    };
    let per_pack = circuit.gate_counts().and.max(1) * per_pack_and;
    stream::chunk_size(per_pack.div_ceil(14), 14, instances)
}

/// An upper estimate of the bytes an online phase holds per AND gate and pack beyond its
/// material: the opened log (two elements and their MAC shares per packed AND until the MAC
/// check) and the round's messages.
const ONLINE_BYTES_PER_PACK_AND: usize = 64;

/// The most instances one online phase on prepared material takes (whole packs): its working
/// memory ([`ONLINE_BYTES_PER_PACK_AND`]) within the material budget, and its wire sharings
/// within the evaluation's bound ([`crate::proto::coral::circuit::MAX_WIRE_SHARINGS`]).
pub(crate) fn online_size(circuit: &Circuit, instances: usize) -> usize {
    let per_pack = circuit.gate_counts().and.max(1) * ONLINE_BYTES_PER_PACK_AND;
    let by_memory = stream::chunk_size(per_pack.div_ceil(14), 14, instances);
    let by_wires = (MAX_WIRE_SHARINGS / circuit.num_wires().max(1)).max(1) * 14;
    by_memory.min(by_wires)
}

/// The OT session tag of chunk `index` of the job or preparation agreed as `digest`: every
/// chunk's OT runs under a session of its own.
fn chunk_tag(digest: &[u8], index: usize) -> Vec<u8> {
    if index == 0 {
        digest.to_vec()
    } else {
        [digest, &(index as u64).to_be_bytes()].concat()
    }
}

/// Steps 2 and 3 of the module docs, chunk by chunk (`per_chunk` instances each). Returns the
/// outputs (empty at the dealer) and this member's online communication (none at the dealer);
/// `observe` hears when each chunk's online phase starts and when it is done.
pub(crate) async fn run_chunked<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    preprocessing: Preprocessing,
    digest: &[u8],
    job: &SimdJob<'_>,
    per_chunk: usize,
    rng: &mut R,
    mut observe: impl FnMut(JobPhase),
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let mut outputs = Vec::new();
    let mut online = NetStats::default();
    let mut source = ChunkSource::default();
    for (index, range) in stream::chunks(job.instances, per_chunk).enumerate() {
        let tag = chunk_tag(digest, index);
        let material = chunk_material(net, preprocessing, &mut source, &tag, job, range.len(), rng).await?;
        if let Some(material) = material {
            observe(JobPhase::OnlineStarts);
            let (mut chunk, stats) = evaluate_chunk(net, job, material, range.clone(), rng).await?;
            outputs.append(&mut chunk);
            online = online.plus(&stats);
        }
        observe(JobPhase::Instances { done: range.end, total: job.instances });
    }
    Ok((outputs, online))
}

/// What makes the chunks of one job or preparation at this member, made on its first chunk and
/// kept for the others, so every chunk's material is under the same MAC keys and consecutive
/// chunks can join one online phase ([`prepared`]): the computing parties' OT provider (its
/// TinyOT engine, α and COPE set up once), or the dealer member's [`TrustedDealer`] (its keys
/// drawn at its first deal).
#[derive(Default)]
pub(crate) struct ChunkSource {
    ot: Option<OtProvider>,
    dealer: Option<TrustedDealer<ChaCha20Rng>>,
}

/// Step 2 for one chunk of `instances` instances: this member's material (`None` at the dealer,
/// whose part of the chunk ends once both parties confirmed theirs), from `source` (the same for
/// every chunk of a job or preparation; the OT provider runs under the first chunk's `tag`).
pub(crate) async fn chunk_material<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    preprocessing: Preprocessing,
    source: &mut ChunkSource,
    tag: &[u8],
    job: &SimdJob<'_>,
    instances: usize,
    rng: &mut R,
) -> Result<Option<CoralMaterial>, JobError> {
    let me = net.party();
    let params = params()?;
    let n = computing(net.parties(), preprocessing);
    let demand = circuit_demand_revealed(&job.circuit, &job.owners, &job.recipients, n, instances)?;
    if preprocessing.is_dealer(me) {
        let dealer =
            source.dealer.get_or_insert_with(|| TrustedDealer::new(ChaCha20Rng::from_seed(seed(rng))));
        deal(net, dealer, &params, &demand).await?;
        return Ok(None);
    }
    let dealt = match preprocessing {
        Preprocessing::Dealer => Some(receive(net, &demand).await?),
        Preprocessing::Ot => None,
    };
    // The computing parties compute among themselves; the dealer (if any) is hidden from here on.
    let mut view = TwoPartyView::first(net, n);
    Ok(Some(match dealt {
        Some(material) => DealtMaterial::new(material).material(&mut view, &demand).await?,
        None => {
            let provider = source.ot.get_or_insert_with(|| {
                let session = [b"chorus/coral-job/ot-prep/".as_slice(), tag].concat();
                OtProvider::new(params, ChaCha20Rng::from_seed(seed(rng)), &session)
            });
            provider.material(&mut view, &demand).await?
        }
    }))
}

/// Step 3 for the instances `range` of `job` on `material`, among the computing parties (as many
/// as the material was made for). Returns the outputs and this party's communication.
pub(crate) async fn evaluate_chunk<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    job: &SimdJob<'_>,
    material: CoralMaterial,
    range: core::ops::Range<usize>,
    rng: &mut R,
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let (me, n) = (net.party(), material.parties);
    let mut view = TwoPartyView::first(net, n);
    let before = view.stats();
    let mut party = Party::new(params()?, me, n, material, ChaCha20Rng::from_seed(seed(rng)))?;
    let (instances, inputs) = (range.len(), job.inputs_of(range));
    let outputs = evaluate_circuit_revealed(
        &mut party,
        &mut view,
        &job.circuit,
        &job.owners,
        &job.recipients,
        instances,
        inputs,
    )
    .await?;
    Ok((outputs, view.stats().since(&before)))
}

/// The unit of prepared material a chunk is at this member.
pub(crate) fn unit_material(material: Option<CoralMaterial>) -> UnitMaterial {
    match material {
        Some(material) => UnitMaterial::Coral(Box::new(material)),
        None => UnitMaterial::Dealt,
    }
}

/// The dealer's step 2: deals `demand` to parties 0 and 1 with `dealer` (the job's or
/// preparation's, so under its keys), sends each its encoded material and waits until both
/// confirm it. Its part ends only when both parties hold their material, so a dealer that left
/// right after sending cannot leave before the transport delivered it.
async fn deal<N: Network>(
    net: &mut N,
    dealer: &mut TrustedDealer<ChaCha20Rng>,
    params: &CoralParams,
    demand: &Demand,
) -> Result<(), JobError> {
    let dealt = dealer.deal(params, 2, demand)?;
    for (party, material) in dealt.iter().enumerate() {
        net.send(party, codec::encode(material))?;
    }
    drop(dealt);
    for party in 0..2 {
        if net.recv(party).await? != RECEIVED {
            return Err(JobError::BadPreprocessing {
                party: DEALER,
                reason: format!("party {party} did not confirm its material"),
            });
        }
    }
    Ok(())
}

/// A party's step 2 with the dealer: receives and decodes its material, checks that it is this
/// party's and covers `demand`, and confirms it to the dealer.
async fn receive<N: Network>(net: &mut N, demand: &Demand) -> Result<CoralMaterial, JobError> {
    let me = net.party();
    let bytes = net.recv(DEALER).await?;
    let material =
        codec::decode(&bytes).map_err(|reason| JobError::BadPreprocessing { party: me, reason })?;
    if material.party() != me || material.parties() != 2 {
        let reason = format!(
            "material for party {} of {} does not fit party {me} of 2",
            material.party(),
            material.parties()
        );
        return Err(JobError::BadPreprocessing { party: me, reason });
    }
    material.covers(demand).map_err(|e| JobError::BadPreprocessing {
        party: me,
        reason: format!("material does not cover the job: {e}"),
    })?;
    net.send(DEALER, RECEIVED.to_vec())?;
    Ok(material)
}

fn seed<R: RngCore>(rng: &mut R) -> [u8; 32] {
    let mut seed = [0u8; 32];
    rng.fill_bytes(&mut seed);
    seed
}
