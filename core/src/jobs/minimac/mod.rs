//! MiniMac's runner for the shared AES and circuit jobs ([`crate::proto::minimac`], the
//! Damgård–Lauritsen–Toft implementation study of MiniMac): parties 0 and 1 compute, malicious
//! with abort; each output value goes to both parties or to one of them (`reveal_to` / the
//! circuit's `reveal`): a private output is opened masked by a dealt output mask whose data only
//! its recipient knows, and checked with every other opening before anyone returns an output
//! ([`crate::proto::minimac::online`]); the other party's output is `None`.
//!
//! # Trust model (read this before using these jobs)
//!
//! MiniMac's online phase is secure against a malicious party (every opened value is checked by
//! the batched codeword and MAC checks before any output is opened). Its triples in `C*` come from
//! one of two sources:
//!
//! - [`Preprocessing::Ot`] (a session of exactly 2 members): the two parties make their own
//!   material with MiniMac's OT-based provider ([`OtPreprocessing`]: TinyOT triples, COPE over
//!   GF(2^8)^n, codeword, zero-data, consistency and MAC checks before any material is used).
//!   **Nothing is trusted but the two parties**; either may be malicious (security with abort).
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
//!    (255, 85)): with [`Preprocessing::Ot`] both parties run the provider for the batch's
//!    instances ([`PrepRequest::with_instances`]: TinyOT triples only for them; its OT
//!    session tag derived from the agreed spec digest, [`ot_session_tag`], so every job has its
//!    own; one TinyOT setup per batch); with the dealer, the dealer deals and sends the batch's
//!    material and the parties decode it and confirm it to the dealer (whose part of the batch
//!    ends there). Then the parties evaluate the batch ([`evaluate_revealed`], all AND gates of a
//!    layer in one round). The online statistics count only this evaluation; the preprocessing
//!    bytes are in the job's total statistics.
//!
//! AES runs the key-shared AES-128 circuit of [`super::keyed_aes`], one instance per block.

use super::aes::{AesInput, AesOutput, AesProtocol, AesSpec, JobPhase};
use super::agreement::agree_on_spec;
use super::circuit::{CircuitInput, CircuitOutput, CircuitProtocol, CircuitSpec};
use super::error::JobError;
use super::keyed_aes::AesAsCircuit;
use super::preprocessing::{Preprocessing, DEALER};
use super::view::TwoPartyView;
use crate::circuit::Circuit;
use crate::net::{NetStats, Network, PartyId};
use crate::proto::minimac::{
    evaluate_revealed, prep_codec, CodeChoice, MiniMacPreprocessing, Options, OtPreprocessing, PrepRequest,
    TrustedDealer,
};
use crate::proto::tinytable::circuit::online::Outputs;
use crate::proto::tinytable::Reveal;
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};
use zeroize::Zeroize;

const PROTOCOL: &str = "MiniMac";
/// A party's confirmation to the dealer that it decoded a batch's material.
const RECEIVED: &[u8] = b"received";

/// The OT session tag of a job whose agreed spec digest is `digest`: both parties derive the same
/// tag, and jobs of different specs never share one.
pub fn ot_session_tag(digest: &[u8]) -> Vec<u8> {
    [b"chorus/minimac-job/ot-prep/".as_slice(), digest].concat()
}

/// Checks an AES spec whose protocol is MiniMac.
pub(crate) fn validate_aes(spec: &AesSpec) -> Result<(), JobError> {
    let AesProtocol::MiniMac { .. } = spec.protocol else {
        return Err(JobError::Internal("not a MiniMac spec"));
    };
    spec.check_two_party_roles(PROTOCOL)
}

/// Checks a circuit spec whose protocol is MiniMac.
pub(crate) fn validate_circuit(spec: &CircuitSpec) -> Result<(), JobError> {
    spec.check_two_party_io()
}

/// The recipient of every output value: `None` for both parties, `Some(p)` for party `p` only.
pub(crate) fn recipients(reveal: &[Reveal]) -> Vec<Option<PartyId>> {
    reveal
        .iter()
        .map(|r| match *r {
            Reveal::Both => None,
            Reveal::To(p) => Some(p),
        })
        .collect()
}

/// The AES job's one output value's recipient (`reveal_to` is `[0, 1]`, `[0]` or `[1]`).
pub(crate) fn aes_recipients(spec: &AesSpec) -> Vec<Option<PartyId>> {
    vec![match spec.reveal_to[..] {
        [p] => Some(p),
        _ => None,
    }]
}

/// The agreement bytes of the recipients (one byte per output value, `0xff` for both parties),
/// appended to what the members agree on.
pub(crate) fn recipient_bytes(recipients: &[Option<PartyId>]) -> Vec<u8> {
    let mut out = (recipients.len() as u32).to_be_bytes().to_vec();
    out.extend(recipients.iter().map(|r| r.map_or(0xff, |p| p as u8)));
    out
}

fn code_of(protocol: CircuitProtocol) -> CodeChoice {
    match protocol {
        CircuitProtocol::MiniMac { code, .. } => code,
        CircuitProtocol::TinyTable { .. } | CircuitProtocol::Coral { .. } => CodeChoice::DEFAULT,
    }
}

fn code_index(code: CodeChoice) -> u8 {
    CodeChoice::ALL.iter().position(|&c| c == code).unwrap_or(0) as u8
}

/// Runs a validated AES spec whose protocol is MiniMac.
pub(crate) async fn run_aes<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &AesSpec,
    input: AesInput,
    rng: &mut R,
    observe: impl FnMut(JobPhase),
) -> Result<AesOutput, JobError> {
    let AesProtocol::MiniMac { code, preprocessing } = spec.protocol else {
        return Err(JobError::Internal("not a MiniMac spec"));
    };
    check_members(net, preprocessing)?;
    let me = net.party();
    input.check(me, &spec.key_holders, spec.plaintext_owner, 16, spec.blocks)?;
    let job = AesAsCircuit::new(spec, &input, b"chorus/minimac-aes/v3", &[code_index(code)])?;
    let to = aes_recipients(spec);
    let start = net.stats();
    let digest = agree_on_spec(net, &[job.agreed.clone(), recipient_bytes(&to)].concat()).await?;
    let io = (&job.owners[..], &to[..]);
    let source = (preprocessing, &digest[..]);
    let (outputs, online) =
        run_batches(net, code, source, &job.circuit, io, spec.blocks, &job.inputs, rng, observe).await?;
    Ok(AesAsCircuit::output(&outputs, net.stats().since(&start), online))
}

/// Runs a validated circuit spec whose protocol is MiniMac.
pub(crate) async fn run_circuit<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitSpec,
    input: CircuitInput,
    rng: &mut R,
    observe: impl FnMut(JobPhase),
) -> Result<CircuitOutput, JobError> {
    let preprocessing = spec.protocol.preprocessing();
    check_members(net, preprocessing)?;
    let me = net.party();
    input.check(me, preprocessing.is_dealer(me), &spec.circuit, &spec.io, spec.instances)?;
    let code = code_of(spec.protocol);
    let to = recipients(&spec.io.reveal);
    let start = net.stats();
    let agreed = spec.agreement_bytes(b"chorus/minimac-circuit/v2", &[code_index(code)]);
    let digest = agree_on_spec(net, &[agreed, recipient_bytes(&to)].concat()).await?;
    let (outputs, online_stats) = run_batches(
        net,
        code,
        (preprocessing, &digest),
        &spec.circuit,
        (&spec.io.input_owners, &to),
        spec.instances,
        &input.values,
        rng,
        observe,
    )
    .await?;
    Ok(CircuitOutput::new(outputs, net.stats().since(&start), online_stats))
}

fn check_members<N: Network>(net: &N, preprocessing: Preprocessing) -> Result<(), JobError> {
    if net.parties() != preprocessing.members() {
        return Err(JobError::WrongSessionSize { protocol: PROTOCOL, preprocessing, got: net.parties() });
    }
    Ok(())
}

/// Step 2 of the module docs for every batch. Returns the outputs (empty at the dealer) and this
/// member's online communication.
#[allow(clippy::too_many_arguments)]
async fn run_batches<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    code: CodeChoice,
    (preprocessing, digest): (Preprocessing, &[u8]),
    circuit: &Circuit,
    (owners, recipients): (&[PartyId], &[Option<PartyId>]),
    instances: usize,
    inputs: &[Vec<Vec<bool>>],
    rng: &mut R,
    mut observe: impl FnMut(JobPhase),
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let me = net.party();
    let request = PrepRequest::for_circuit(code, 2, circuit, owners)?.with_recipients(circuit, recipients)?;
    let capacity = code.code().instances();
    let mut outputs = Vec::new();
    let mut online = NetStats::default();
    let mut done = 0;
    let mut provider = (preprocessing == Preprocessing::Ot).then(|| {
        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);
        let provider = OtPreprocessing::new(ChaCha20Rng::from_seed(seed), &ot_session_tag(digest));
        seed.zeroize();
        provider
    });
    while done < instances {
        let batch = capacity.min(instances - done);
        if let Some(provider) = &mut provider {
            // TinyOT triples only for this batch's instances (the dealer always deals full batches).
            let prep = provider.material(net, &request.clone().with_instances(batch)?).await?;
            observe(JobPhase::OnlineStarts);
            let before = net.stats();
            let opened =
                evaluate_revealed(net, circuit, &prep, &inputs[done..done + batch], Options::default(), rng)
                    .await?;
            online = online.plus(&net.stats().since(&before));
            outputs.extend(opened);
        } else if me == DEALER {
            let preps = TrustedDealer::new(&mut *rng).deal(&request)?;
            for (party, prep) in preps.iter().enumerate() {
                net.send(party, prep_codec::encode(prep))?;
            }
            // The dealer's part ends only when both parties hold the batch: a dealer that left
            // right after sending (tens of megabytes per batch) could otherwise leave before the
            // transport delivered them. It also bounds the dealer to one batch in flight.
            for party in 0..2 {
                if net.recv(party).await? != RECEIVED {
                    return Err(JobError::BadPreprocessing {
                        party: DEALER,
                        reason: format!("party {party} did not confirm its material"),
                    });
                }
            }
        } else {
            let bytes = net.recv(DEALER).await?;
            let prep = prep_codec::decode(&bytes)
                .map_err(|reason| JobError::BadPreprocessing { party: me, reason })?;
            if prep.party() != me
                || prep.code() != code
                || prep.and_gates() != request.and_gates
                || prep.output_recipients() != request.output_recipients
            {
                return Err(JobError::BadPreprocessing {
                    party: me,
                    reason: format!("material {prep:?} does not fit party {me} of this job"),
                });
            }
            net.send(DEALER, RECEIVED.to_vec())?;
            observe(JobPhase::OnlineStarts);
            let before = net.stats();
            let opened = evaluate_revealed(
                &mut TwoPartyView::new(net),
                circuit,
                &prep,
                &inputs[done..done + batch],
                Options::default(),
                rng,
            )
            .await?;
            let spent = net.stats().since(&before);
            online = online.plus(&spent);
            outputs.extend(opened);
        }
        done += batch;
        observe(JobPhase::Instances { done, total: instances });
    }
    Ok((outputs, online))
}
