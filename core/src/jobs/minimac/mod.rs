//! MiniMac's runner for the shared AES and circuit jobs ([`crate::proto::minimac`], the
//! Damgård–Lauritsen–Toft implementation study of MiniMac): over OT every member of a session of
//! 2 to [`parties::MAX_OT_PARTIES`] computes, beside a dealer parties 0 and 1; malicious with
//! abort; each output value goes to every computing party or to one of them (`reveal_to` / the
//! circuit's `reveal`): a private output is opened masked by an output mask whose data only its
//! recipient knows, and checked with every other opening before anyone returns an output
//! ([`crate::proto::minimac::online`]); the other parties' output is `None`.
//!
//! # Trust model (read this before using these jobs)
//!
//! MiniMac's online phase is secure against a malicious party (every opened value is checked by
//! the batched codeword and MAC checks before any output is opened). Its triples in `C*` come from
//! one of two sources:
//!
//! - [`Preprocessing::Ot`] (AES and circuits among every member of a session of 2 to
//!   [`parties::MAX_OT_PARTIES`], material prepared ahead too): the parties make their
//!   own material with MiniMac's OT-based provider ([`OtPreprocessing`]: TinyOT triples — two-party
//!   or n-party — COPE over GF(2^8)^n between every pair, codeword, zero-data, consistency and MAC
//!   checks before any material is used). **Nothing is trusted but the parties**; all but one may
//!   be malicious and collude (security with abort).
//! - [`Preprocessing::Dealer`] (a session of 3) — a **weaker trust model**: **member 2 is a
//!   TRUSTED DEALER** that makes both parties' material with [`TrustedDealer`] (it knows the MAC
//!   key and every triple), sends each party its share over that pair's encrypted channel
//!   ([`prep_codec`]), and takes no further part. Privacy and integrity hold only if the dealer
//!   follows the protocol and colludes with neither party.
//!
//! # Steps
//! 1. Spec agreement ([`super::agreement`]) on the encoded spec (circuit jobs: including the
//!    SHA-256 of the Bristol text).
//! 2. For each batch of at most `8·k` instances (960 with the (256, 120) code, 680 with
//!    (255, 85)): with [`Preprocessing::Ot`] every party runs the provider for the batch's
//!    instances ([`PrepRequest::with_instances`]: TinyOT triples only for them; its OT
//!    session tag derived from the agreed spec digest, [`ot_session_tag`], so every job has its
//!    own; one TinyOT setup per batch); with the dealer, the dealer deals and sends the batch's
//!    material and the parties decode it and confirm it to the dealer (whose part of the batch
//!    ends there). Then the parties evaluate the batch ([`evaluate_revealed`], all AND gates of a
//!    layer in one round). The online statistics count only this evaluation; the preprocessing
//!    bytes are in the job's total statistics.
//!
//! AES runs the key-shared AES-128 circuit of [`super::keyed_aes`], one instance per block.
//!
//! Material can also be made ahead of time ([`prepared`]): a job that takes prepared batches
//! runs step 2's evaluations on them alone.

use super::aes::{AesInput, AesOutput, AesProtocol, AesSpec, JobPhase};
use super::agreement::agree_on_spec;
use super::circuit::{CircuitInput, CircuitOutput, CircuitProtocol, CircuitSpec};
use super::error::JobError;
use super::keyed_aes::AesAsCircuit;
use super::parties;
use super::prepared::{Prepared, PreparedUse, UnitMaterial};
use super::preprocessing::{Preprocessing, DEALER};
use super::simd::SimdJob;
use super::view::TwoPartyView;
use crate::net::{NetStats, Network};
use crate::proto::minimac::{
    evaluate_revealed, prep_codec, CodeChoice, MiniMacPreprocessing, Options, OtPreprocessing, PartyPrep,
    PrepRequest, TrustedDealer,
};
use crate::proto::tinytable::circuit::online::Outputs;
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};
use zeroize::Zeroize;

pub mod prepared;

pub(crate) const PROTOCOL: &str = "MiniMac";
/// A party's confirmation to the dealer that it decoded a batch's material.
const RECEIVED: &[u8] = b"received";

/// The OT session tag of a job whose agreed spec digest is `digest`: both parties derive the same
/// tag, and jobs of different specs never share one.
pub fn ot_session_tag(digest: &[u8]) -> Vec<u8> {
    [b"chorus/minimac-job/ot-prep/".as_slice(), digest].concat()
}

/// Checks an AES spec whose protocol is MiniMac: over OT, roles among up to
/// [`parties::MAX_OT_PARTIES`] parties (the run checks them against the session); beside the
/// dealer, among parties 0 and 1.
pub(crate) fn validate_aes(spec: &AesSpec) -> Result<(), JobError> {
    match spec.protocol {
        AesProtocol::MiniMac { preprocessing: Preprocessing::Ot, .. } => {
            parties::validate_aes_roles(spec, PROTOCOL)
        }
        AesProtocol::MiniMac { .. } => spec.check_two_party_roles(PROTOCOL),
        _ => Err(JobError::Internal("not a MiniMac spec")),
    }
}

/// Checks a circuit spec whose protocol is MiniMac: over OT owners and recipients up to
/// [`parties::MAX_OT_PARTIES`] (the run checks them against the session), beside the dealer
/// parties 0 and 1.
pub(crate) fn validate_circuit(spec: &CircuitSpec) -> Result<(), JobError> {
    spec.circuit.boolean(PROTOCOL)?;
    match spec.protocol.preprocessing() {
        Preprocessing::Ot => parties::validate_circuit_io(spec),
        Preprocessing::Dealer => spec.check_two_party_io(),
    }
}

// The OT provider holds the bound of every session over OT.
const _: () = assert!(parties::MAX_OT_PARTIES == crate::ot::multi::MAX_PARTIES);

fn code_of(protocol: CircuitProtocol) -> CodeChoice {
    match protocol {
        CircuitProtocol::MiniMac { code, .. } => code,
        CircuitProtocol::TinyTable { .. } | CircuitProtocol::Coral { .. } | CircuitProtocol::TinyOt => {
            CodeChoice::DEFAULT
        }
    }
}

fn code_index(code: CodeChoice) -> u8 {
    CodeChoice::ALL.iter().position(|&c| c == code).unwrap_or(0) as u8
}

/// The MiniMac job of a validated AES spec, for this member's checked `input`.
pub(crate) fn aes_job(
    spec: &AesSpec,
    input: &AesInput,
) -> Result<(SimdJob<'static>, CodeChoice, Preprocessing), JobError> {
    let AesProtocol::MiniMac { code, preprocessing } = spec.protocol else {
        return Err(JobError::Internal("not a MiniMac spec"));
    };
    let options = [code_index(code), u8::from(preprocessing == Preprocessing::Dealer)];
    Ok((SimdJob::aes(spec, input, b"chorus/minimac-aes/v4", &options)?, code, preprocessing))
}

/// The MiniMac job of a validated circuit spec, with this member's checked `input`.
pub(crate) fn circuit_job(
    spec: &CircuitSpec,
    input: CircuitInput,
) -> Result<(SimdJob<'_>, CodeChoice, Preprocessing), JobError> {
    let (code, preprocessing) = (code_of(spec.protocol), spec.protocol.preprocessing());
    let options = [code_index(code), u8::from(preprocessing == Preprocessing::Dealer)];
    let tag = (PROTOCOL, b"chorus/minimac-circuit/v3".as_slice());
    Ok((SimdJob::circuit(spec, input, tag, &options)?, code, preprocessing))
}

/// Runs a validated AES spec whose protocol is MiniMac, on prepared batches if `prepared` says so.
pub(crate) async fn run_aes<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &AesSpec,
    input: AesInput,
    rng: &mut R,
    prepared: (&mut Prepared, PreparedUse),
    observe: impl FnMut(JobPhase),
) -> Result<AesOutput, JobError> {
    let AesProtocol::MiniMac { preprocessing, .. } = spec.protocol else {
        return Err(JobError::Internal("not a MiniMac spec"));
    };
    parties::check_aes_session(spec, PROTOCOL, preprocessing, net.parties())?;
    spec.check_input(net.party(), &input)?;
    let job = aes_job(spec, &input)?;
    let start = net.stats();
    let (outputs, online) = run_job(net, &job, rng, prepared, observe).await?;
    Ok(AesAsCircuit::output(&outputs, net.stats().since(&start), online))
}

/// Runs a validated circuit spec whose protocol is MiniMac, on prepared batches if `prepared`
/// says so.
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

/// Step 1 of the module docs with the plan for prepared material, then step 2 on prepared batches
/// or on batches made here. Returns the outputs (empty at the dealer) and this member's online
/// communication.
async fn run_job<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    (job, code, preprocessing): &(SimdJob<'_>, CodeChoice, Preprocessing),
    rng: &mut R,
    (store, usage): (&mut Prepared, PreparedUse),
    observe: impl FnMut(JobPhase),
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let plan = store.plan(|| job.kind(prepared::FAMILY), job.instances, usage)?;
    let digest = agree_on_spec(net, &job.agreed(plan.as_ref())).await?;
    match plan {
        Some(plan) => {
            prepared::evaluate(net, job, *preprocessing, store.take(&plan)?.into_units()?, rng, observe).await
        }
        None => {
            let computing = parties::computing(net.parties(), *preprocessing);
            run_batches(net, (*code, computing), (*preprocessing, &digest), job, rng, observe).await
        }
    }
}

/// The request for the material of `job`'s batches among `parties` computing parties.
pub(crate) fn request(code: CodeChoice, parties: usize, job: &SimdJob<'_>) -> Result<PrepRequest, JobError> {
    Ok(PrepRequest::for_circuit(code, parties, &job.circuit, &job.owners)?
        .with_recipients(&job.circuit, &job.recipients)?)
}

/// Where a job's batches come from: the parties' OT provider, or the dealer.
pub(crate) enum Source {
    Ot(Box<OtPreprocessing>),
    Dealer,
}

impl Source {
    /// The source of `preprocessing` for the job or preparation agreed as `digest`.
    pub(crate) fn new<R: RngCore + CryptoRng>(
        preprocessing: Preprocessing,
        digest: &[u8],
        rng: &mut R,
    ) -> Self {
        match preprocessing {
            Preprocessing::Ot => {
                let mut seed = [0u8; 32];
                rng.fill_bytes(&mut seed);
                let provider = OtPreprocessing::new(ChaCha20Rng::from_seed(seed), &ot_session_tag(digest));
                seed.zeroize();
                Source::Ot(Box::new(provider))
            }
            Preprocessing::Dealer => Source::Dealer,
        }
    }

    /// This member's material for one batch of `request` (`None` at the dealer, whose part of the
    /// batch ends once both parties confirmed theirs).
    pub(crate) async fn batch<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        request: &PrepRequest,
        rng: &mut R,
    ) -> Result<Option<PartyPrep>, JobError> {
        let me = net.party();
        match self {
            Source::Ot(provider) => Ok(Some(provider.material(net, request).await?)),
            Source::Dealer if me == DEALER => {
                let preps = TrustedDealer::new(&mut *rng).deal(request)?;
                for (party, prep) in preps.iter().enumerate() {
                    net.send(party, prep_codec::encode(prep))?;
                }
                // The dealer's part ends only when both parties hold the batch: a dealer that left
                // right after sending (tens of megabytes per batch) could otherwise leave before
                // the transport delivered them. It also bounds the dealer to one batch in flight.
                for party in 0..2 {
                    if net.recv(party).await? != RECEIVED {
                        return Err(JobError::BadPreprocessing {
                            party: DEALER,
                            reason: format!("party {party} did not confirm its material"),
                        });
                    }
                }
                Ok(None)
            }
            Source::Dealer => {
                let bytes = net.recv(DEALER).await?;
                let prep = prep_codec::decode(&bytes)
                    .map_err(|reason| JobError::BadPreprocessing { party: me, reason })?;
                if prep.party() != me
                    || prep.code() != request.code
                    || prep.and_gates() != request.and_gates
                    || prep.output_recipients() != request.output_recipients
                {
                    return Err(JobError::BadPreprocessing {
                        party: me,
                        reason: format!("material {prep:?} does not fit party {me} of this job"),
                    });
                }
                net.send(DEALER, RECEIVED.to_vec())?;
                Ok(Some(prep))
            }
        }
    }
}

/// The online phase of one batch (`inputs`, one entry per instance) on `prep`; with the dealer,
/// among the two parties alone. Returns the outputs and this party's communication.
pub(crate) async fn evaluate_batch<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    preprocessing: Preprocessing,
    job: &SimdJob<'_>,
    prep: &PartyPrep,
    inputs: &[Vec<Vec<bool>>],
    rng: &mut R,
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let before = net.stats();
    let outputs = match preprocessing {
        Preprocessing::Ot => {
            evaluate_revealed(net, &job.circuit, prep, inputs, Options::default(), rng).await?
        }
        Preprocessing::Dealer => {
            evaluate_revealed(
                &mut TwoPartyView::new(net),
                &job.circuit,
                prep,
                inputs,
                Options::default(),
                rng,
            )
            .await?
        }
    };
    Ok((outputs, net.stats().since(&before)))
}

/// Step 2 of the module docs for every batch. Returns the outputs (empty at the dealer) and this
/// member's online communication.
async fn run_batches<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    (code, computing): (CodeChoice, usize),
    (preprocessing, digest): (Preprocessing, &[u8]),
    job: &SimdJob<'_>,
    rng: &mut R,
    mut observe: impl FnMut(JobPhase),
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let request = request(code, computing, job)?;
    let capacity = code.code().instances();
    let mut source = Source::new(preprocessing, digest, rng);
    let mut outputs = Vec::new();
    let mut online = NetStats::default();
    for range in super::stream::chunks(job.instances, capacity) {
        // With OT, TinyOT triples only for this batch's instances (the dealer always deals full
        // batches).
        let batch_request = request.clone().with_instances(range.len())?;
        if let Some(prep) = source.batch(net, &batch_request, rng).await? {
            observe(JobPhase::OnlineStarts);
            let (mut opened, spent) =
                evaluate_batch(net, preprocessing, job, &prep, job.inputs_of(range.clone()), rng).await?;
            online = online.plus(&spent);
            outputs.append(&mut opened);
        }
        observe(JobPhase::Instances { done: range.end, total: job.instances });
    }
    Ok((outputs, online))
}

/// The unit of prepared material a batch is at this member.
pub(crate) fn unit_material(prep: Option<PartyPrep>) -> UnitMaterial {
    match prep {
        Some(prep) => UnitMaterial::MiniMac(Box::new(prep)),
        None => UnitMaterial::Dealt,
    }
}
