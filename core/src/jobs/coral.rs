//! Coral's runner for the shared AES and circuit jobs ([`crate::proto::coral`], RMFE-packed
//! boolean circuits, Coral paper §3–§4): parties 0 and 1 compute, malicious with abort, 14
//! instances per packed field element; each output value goes to both parties or to one of them
//! (`reveal_to` / the circuit's `reveal`): a private output is opened masked by one of its
//! recipient's input masks and checked with every other opening before anyone returns an output
//! ([`crate::proto::coral::online`]); the other party's output is `None`.
//!
//! # Trust model
//!
//! [`Preprocessing::Ot`] only: the two parties make every quintuple, encoding pair and input mask
//! between themselves with [`OtProvider`] (TinyOT bits and triples from OT extension, COPE over
//! GF(2^42) with MASCOT's authentication check, Fig. 7 quintuples), so **nobody but the two
//! parties is trusted**; a party that deviates in the preprocessing or online makes the honest
//! party's job fail with [`JobError::Coral`] naming the check, before any output is opened.
//! Coral's trusted dealer exists for tests and benchmarks in one process; a dealer member over
//! the network is [`JobError::NotAvailable`] (its material has no wire encoding yet).
//!
//! # Steps
//! 1. Spec agreement ([`super::agreement`]); the digest tags the OT session.
//! 2. The whole job's material at once ([`circuit_demand_revealed`] for all instances), by OT.
//! 3. One evaluation of every instance (`⌈instances / 14⌉` packs per wire, all AND gates of a
//!    layer in one round), MAC checks before the outputs open.
//!
//! AES runs the key-shared AES-128 circuit of [`super::keyed_aes`], one instance per block.

use super::aes::{AesInput, AesOutput, AesProtocol, AesSpec, JobPhase};
use super::agreement::agree_on_spec;
use super::circuit::{CircuitInput, CircuitOutput, CircuitSpec};
use super::error::JobError;
use super::keyed_aes::AesAsCircuit;
use super::minimac::{aes_recipients, recipient_bytes, recipients};
use super::preprocessing::Preprocessing;
use crate::circuit::Circuit;
use crate::net::{NetStats, Network, PartyId};
use crate::proto::coral::{
    circuit_demand_revealed, evaluate_circuit_revealed, CoralParams, OtProvider, Party, Preprocessing as _,
};
use crate::proto::tinytable::circuit::online::Outputs;
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};
use std::sync::{Arc, OnceLock};

const PROTOCOL: &str = "Coral";

fn check_preprocessing(preprocessing: Preprocessing) -> Result<(), JobError> {
    if preprocessing == Preprocessing::Dealer {
        return Err(JobError::not_available(
            "preprocessing",
            "Coral jobs make their material over OT between the two parties: drop preprocessing \
             (or pass 'ot') in a session of two; a networked Coral dealer is not implemented",
        ));
    }
    Ok(())
}

/// Checks an AES spec whose protocol is Coral.
pub(crate) fn validate_aes(spec: &AesSpec) -> Result<(), JobError> {
    let AesProtocol::Coral { preprocessing } = spec.protocol else {
        return Err(JobError::Internal("not a Coral spec"));
    };
    check_preprocessing(preprocessing)?;
    spec.check_two_party_roles(PROTOCOL)
}

/// Checks a circuit spec whose protocol is Coral.
pub(crate) fn validate_circuit(spec: &CircuitSpec) -> Result<(), JobError> {
    check_preprocessing(spec.protocol.preprocessing())?;
    spec.check_two_party_io()
}

/// Coral's parameters (the (14, 42)-RMFE of its Table 1), built once per process.
fn params() -> Result<Arc<CoralParams>, JobError> {
    static PARAMS: OnceLock<Result<Arc<CoralParams>, String>> = OnceLock::new();
    PARAMS
        .get_or_init(|| CoralParams::new().map(Arc::new).map_err(|e| e.to_string()))
        .clone()
        .map_err(|_| JobError::Internal("Coral's RMFE parameters failed to build"))
}

/// Runs a validated AES spec whose protocol is Coral.
pub(crate) async fn run_aes<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &AesSpec,
    input: AesInput,
    rng: &mut R,
    observe: impl FnMut(JobPhase),
) -> Result<AesOutput, JobError> {
    check_members(net)?;
    let me = net.party();
    input.check(me, &spec.key_holders, spec.plaintext_owner, 16, spec.blocks)?;
    let job = AesAsCircuit::new(spec, &input, b"chorus/coral-aes/v3", &[])?;
    let to = aes_recipients(spec);
    let start = net.stats();
    let digest = agree_on_spec(net, &[job.agreed.clone(), recipient_bytes(&to)].concat()).await?;
    let io = (&job.owners[..], &to[..]);
    let (outputs, online) =
        run_instances(net, &digest, &job.circuit, io, spec.blocks, &job.inputs, rng, observe).await?;
    Ok(AesAsCircuit::output(&outputs, net.stats().since(&start), online))
}

/// Runs a validated circuit spec whose protocol is Coral.
pub(crate) async fn run_circuit<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitSpec,
    input: CircuitInput,
    rng: &mut R,
) -> Result<CircuitOutput, JobError> {
    check_members(net)?;
    let me = net.party();
    input.check(me, false, &spec.circuit, &spec.io, spec.instances)?;
    let to = recipients(&spec.io.reveal);
    let agreed = [spec.agreement_bytes(b"chorus/coral-circuit/v2", &[]), recipient_bytes(&to)].concat();
    let start = net.stats();
    let digest = agree_on_spec(net, &agreed).await?;
    let (outputs, online_stats) = run_instances(
        net,
        &digest,
        &spec.circuit,
        (&spec.io.input_owners, &to),
        spec.instances,
        &input.values,
        rng,
        |_| {},
    )
    .await?;
    Ok(CircuitOutput::new(outputs, net.stats().since(&start), online_stats))
}

fn check_members<N: Network>(net: &N) -> Result<(), JobError> {
    if net.parties() != 2 {
        return Err(JobError::WrongSessionSize {
            protocol: PROTOCOL,
            preprocessing: Preprocessing::Ot,
            got: net.parties(),
        });
    }
    Ok(())
}

/// Steps 2 and 3 of the module docs. Returns the outputs and this party's online communication.
#[allow(clippy::too_many_arguments)]
async fn run_instances<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    digest: &[u8],
    circuit: &Circuit,
    (owners, recipients): (&[PartyId], &[Option<PartyId>]),
    instances: usize,
    inputs: &[Vec<Vec<bool>>],
    rng: &mut R,
    mut observe: impl FnMut(JobPhase),
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let me = net.party();
    let params = params()?;
    let demand = circuit_demand_revealed(circuit, owners, recipients, 2, instances)?;
    let session = [b"chorus/coral-job/ot-prep/".as_slice(), digest].concat();
    let mut provider = OtProvider::new(params.clone(), ChaCha20Rng::from_seed(seed(rng)), &session);
    let material = provider.material(net, &demand).await?;
    drop(provider);
    observe(JobPhase::OnlineStarts);
    let before = net.stats();
    let mut party = Party::new(params, me, 2, material, ChaCha20Rng::from_seed(seed(rng)))?;
    let outputs =
        evaluate_circuit_revealed(&mut party, net, circuit, owners, recipients, instances, inputs).await?;
    let online = net.stats().since(&before);
    Ok((outputs, online))
}

fn seed<R: RngCore>(rng: &mut R) -> [u8; 32] {
    let mut seed = [0u8; 32];
    rng.fill_bytes(&mut seed);
    seed
}
