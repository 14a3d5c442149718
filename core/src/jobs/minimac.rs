//! MiniMac's runner for the shared AES and circuit jobs ([`crate::proto::minimac`], the
//! Damgård–Lauritsen–Toft implementation study of MiniMac): parties 0 and 1 compute, malicious
//! with abort; outputs go to both parties.
//!
//! # Trust model (read this before using these jobs)
//!
//! MiniMac's online phase is secure against a malicious party (every opened value is checked by
//! the batched codeword and MAC checks before any output is opened). Its triples in `C*` come
//! from [`Preprocessing::Dealer`] only: **member 2 is a TRUSTED DEALER** that makes both parties'
//! material with [`TrustedDealer`] (it knows the MAC key and every triple), sends each party its
//! share over that pair's encrypted channel ([`prep_codec`]), and takes no further part. Privacy
//! and integrity hold only if the dealer follows the protocol and colludes with neither party.
//! [`Preprocessing::Ot`] is [`JobError::NotAvailable`] until MiniMac's OT-based provider exists.
//!
//! # Steps
//! 1. Spec agreement ([`super::agreement`]) on the encoded spec (circuit jobs: including the
//!    SHA-256 of the Bristol text).
//! 2. For each batch of at most `8·k` instances (960 with the (256, 120) code, 680 with
//!    (255, 85)): the dealer deals and sends the batch's material; the parties decode it, confirm
//!    it to the dealer (whose part of the batch ends there) and evaluate the batch ([`evaluate`],
//!    all AND gates of a layer in one round).
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
use crate::proto::minimac::{evaluate, prep_codec, CodeChoice, Options, PrepRequest, TrustedDealer};
use crate::proto::tinytable::circuit::online::Outputs;
use rand_core::{CryptoRng, RngCore};

const PROTOCOL: &str = "MiniMac";
/// A party's confirmation to the dealer that it decoded a batch's material.
const RECEIVED: &[u8] = b"received";

/// MiniMac's material comes from the trusted dealer only (see the module docs).
fn check_preprocessing(preprocessing: Preprocessing) -> Result<(), JobError> {
    if preprocessing == Preprocessing::Ot {
        return Err(JobError::not_available(
            "preprocessing",
            "MiniMac has no OT-based preprocessing yet: use preprocessing 'dealer' (a trusted dealer \
             in slot 2 of a three-member session)",
        ));
    }
    Ok(())
}

/// Checks an AES spec whose protocol is MiniMac.
pub(crate) fn validate_aes(spec: &AesSpec) -> Result<(), JobError> {
    let AesProtocol::MiniMac { preprocessing, .. } = spec.protocol else {
        return Err(JobError::Internal("not a MiniMac spec"));
    };
    check_preprocessing(preprocessing)?;
    spec.check_two_party_roles(PROTOCOL)
}

/// Checks a circuit spec whose protocol is MiniMac.
pub(crate) fn validate_circuit(spec: &CircuitSpec) -> Result<(), JobError> {
    check_preprocessing(spec.protocol.preprocessing())?;
    spec.check_shared_outputs(PROTOCOL)
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
    let job = AesAsCircuit::new(spec, &input, b"chorus/minimac-aes/v2", &[code_index(code)])?;
    let start = net.stats();
    agree_on_spec(net, &job.agreed).await?;
    let (outputs, online) =
        run_batches(net, code, &job.circuit, &job.owners, spec.blocks, &job.inputs, rng, observe).await?;
    Ok(AesAsCircuit::output(&outputs, net.stats().since(&start), online))
}

/// Runs a validated circuit spec whose protocol is MiniMac.
pub(crate) async fn run_circuit<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitSpec,
    input: CircuitInput,
    rng: &mut R,
) -> Result<CircuitOutput, JobError> {
    let preprocessing = spec.protocol.preprocessing();
    check_members(net, preprocessing)?;
    let me = net.party();
    input.check(me, preprocessing.is_dealer(me), &spec.circuit, &spec.io, spec.instances)?;
    let code = code_of(spec.protocol);
    let start = net.stats();
    agree_on_spec(net, &spec.agreement_bytes(b"chorus/minimac-circuit/v1", &[code_index(code)])).await?;
    let (outputs, online_stats) = run_batches(
        net,
        code,
        &spec.circuit,
        &spec.io.input_owners,
        spec.instances,
        &input.values,
        rng,
        |_| {},
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
    circuit: &Circuit,
    owners: &[PartyId],
    instances: usize,
    inputs: &[Vec<Vec<bool>>],
    rng: &mut R,
    mut observe: impl FnMut(JobPhase),
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let me = net.party();
    let request = PrepRequest::for_circuit(code, 2, circuit, owners)?;
    let capacity = code.code().instances();
    let mut outputs = Vec::new();
    let mut online = NetStats::default();
    let mut done = 0;
    while done < instances {
        let batch = capacity.min(instances - done);
        if me == DEALER {
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
            if prep.party() != me || prep.code() != code || prep.and_gates() != request.and_gates {
                return Err(JobError::BadPreprocessing {
                    party: me,
                    reason: format!("material {prep:?} does not fit party {me} of this job"),
                });
            }
            net.send(DEALER, RECEIVED.to_vec())?;
            if done == 0 {
                observe(JobPhase::OnlineStarts);
            }
            let before = net.stats();
            let opened = evaluate(
                &mut TwoPartyView::new(net),
                circuit,
                &prep,
                &inputs[done..done + batch],
                Options::default(),
                rng,
            )
            .await?;
            let spent = net.stats().since(&before);
            online = add(online, spent);
            outputs
                .extend(opened.into_iter().map(|values| values.into_iter().map(Some).collect::<Outputs>()));
        }
        done += batch;
    }
    Ok((outputs, online))
}

fn add(a: NetStats, b: NetStats) -> NetStats {
    NetStats {
        bytes_sent: a.bytes_sent + b.bytes_sent,
        bytes_received: a.bytes_received + b.bytes_received,
        messages_sent: a.messages_sent + b.messages_sent,
        messages_received: a.messages_received + b.messages_received,
        rounds: a.rounds + b.rounds,
    }
}
