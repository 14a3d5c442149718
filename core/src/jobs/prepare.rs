//! Preparations ([`super::prepared`]) behind one spec: [`PrepareSpec`] says which job a
//! preparation is for (AES or a circuit, with the protocol and options of the jobs to come) and
//! the size of those jobs; [`check_prepare`] and [`check_prepare_room`] check it before anything
//! is sent, and [`prepare`] makes the material with the protocol's own preprocessing: TinyTable
//! over OT, MiniMac and Coral over OT or from the dealer. MAESTRO makes its material inside each
//! job.

use super::aes::{AesInput, AesProtocol, AesSpec, JobPhase};
use super::circuit::{CircuitInput, CircuitProtocol, CircuitSpec, JobCircuit};
use super::coral as coral_job;
use super::error::JobError;
use super::minimac as minimac_job;
use super::parties;
use super::prepared::{PrepareOutput, Prepared};
use super::tinytable;
use super::tinytable::prepared::check_preparable;
use crate::net::Network;
use rand_core::{CryptoRng, RngCore};

/// What a preparation makes material for.
#[derive(Debug, Clone)]
pub enum PrepareSpec {
    /// `spec.blocks` blocks of future AES jobs like `spec`, in jobs of `per_job` blocks.
    Aes {
        /// The jobs' spec (its `blocks`: the blocks prepared).
        spec: AesSpec,
        /// Blocks per future job (MiniMac and Coral; default all of them).
        per_job: Option<usize>,
    },
    /// `spec.instances` future evaluations of `spec`'s circuit, in jobs of `per_job`.
    Circuit {
        /// The jobs' spec (its `instances`: the evaluations prepared).
        spec: CircuitSpec,
        /// Evaluations per future job (MiniMac and Coral; default all of them).
        per_job: Option<usize>,
    },
}

/// Checks a preparation's spec (the jobs' spec, that its protocol prepares ahead of time, and
/// `per_job`), before anything is sent.
pub fn check_prepare(spec: &PrepareSpec) -> Result<(), JobError> {
    match spec {
        PrepareSpec::Aes { spec, per_job } => check_prepare_aes(spec, *per_job),
        PrepareSpec::Circuit { spec, per_job } => check_prepare_circuit(spec, *per_job),
    }
}

/// Makes the material of `spec` and adds it to `store`; every member calls it with the same spec.
/// `observe` hears the instances made so far (MiniMac and Coral).
pub async fn prepare<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &PrepareSpec,
    rng: &mut R,
    store: &mut Prepared,
    observe: impl FnMut(JobPhase),
) -> Result<PrepareOutput, JobError> {
    match spec {
        PrepareSpec::Aes { spec, per_job } => prepare_aes(net, spec, *per_job, rng, store, observe).await,
        PrepareSpec::Circuit { spec, per_job } => {
            prepare_circuit(net, spec, *per_job, rng, store, observe).await
        }
    }
}

/// Makes material ahead of time for `spec.blocks` blocks of future AES jobs like `spec` and adds
/// it to `store` ([`super::prepared`]; every member calls it with the same spec). `per_job` is
/// the size of the jobs to come (MiniMac and Coral: material is made in units of that many
/// blocks; default all of them); TinyTable serves any job size and takes none.
pub async fn prepare_aes<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &AesSpec,
    per_job: Option<usize>,
    rng: &mut R,
    store: &mut Prepared,
    observe: impl FnMut(JobPhase),
) -> Result<PrepareOutput, JobError> {
    check_prepare_aes(spec, per_job)?;
    let per_job = per_job.unwrap_or(spec.blocks);
    let input = AesInput::default();
    let at = (store, "blocks");
    match spec.protocol {
        AesProtocol::TinyTable { .. } => tinytable::aes::prepare(net, &spec.tinytable()?, rng, at.0).await,
        AesProtocol::MiniMac { preprocessing, .. } => {
            parties::check_aes_session(spec, minimac_job::PROTOCOL, preprocessing, net.parties())?;
            let job = minimac_job::aes_job(spec, &input)?;
            minimac_job::prepared::prepare(net, &job, per_job, rng, at, observe).await
        }
        AesProtocol::Coral { preprocessing } => {
            parties::check_aes_session(spec, coral_job::PROTOCOL, preprocessing, net.parties())?;
            coral_job::prepared::prepare(net, &coral_job::aes_job(spec, &input)?, per_job, rng, at, observe)
                .await
        }
        AesProtocol::Maestro { .. } | AesProtocol::TinyOt => Err(not_preparable()),
    }
}

/// Checks that AES jobs of `spec` can be prepared ahead of time ([`prepare_aes`]) for jobs of
/// `per_job` blocks, before anything is sent.
pub fn check_prepare_aes(spec: &AesSpec, per_job: Option<usize>) -> Result<(), JobError> {
    spec.validate()?;
    match spec.protocol {
        AesProtocol::TinyTable { preprocessing, .. } => {
            check_preparable(preprocessing)?;
            refuse_per_job(per_job)
        }
        AesProtocol::MiniMac { .. } | AesProtocol::Coral { .. } => check_per_job(per_job),
        AesProtocol::Maestro { .. } | AesProtocol::TinyOt => Err(not_preparable()),
    }
}

/// Checks that evaluations of `spec` can be prepared ahead of time ([`prepare_circuit`]) for
/// jobs of `per_job` evaluations.
pub fn check_prepare_circuit(spec: &CircuitSpec, per_job: Option<usize>) -> Result<(), JobError> {
    spec.validate()?;
    if let JobCircuit::Mixed(_) = spec.circuit {
        return Err(JobError::not_available("circuit", MIXED_MAKES_ITS_OWN));
    }
    match spec.protocol {
        CircuitProtocol::TinyTable { preprocessing, .. } => {
            check_preparable(preprocessing)?;
            refuse_per_job(per_job)
        }
        CircuitProtocol::MiniMac { .. } | CircuitProtocol::Coral { .. } => check_per_job(per_job),
        CircuitProtocol::TinyOt => Err(not_preparable()),
    }
}

/// Why a mixed circuit cannot be prepared for.
pub(crate) const MIXED_MAKES_ITS_OWN: &str =
    "a mixed circuit's Spdz2k material is made inside each job; prepared material is for boolean circuits";

fn refuse_per_job(per_job: Option<usize>) -> Result<(), JobError> {
    match per_job {
        None => Ok(()),
        Some(_) => Err(JobError::invalid_spec(
            "perJob",
            "TinyTable's prepared material serves jobs of any size; perJob is for MiniMac and Coral",
        )),
    }
}

fn check_per_job(per_job: Option<usize>) -> Result<(), JobError> {
    match per_job {
        Some(0) => Err(JobError::invalid_spec("perJob", "perJob must be at least 1")),
        _ => Ok(()),
    }
}

/// Makes material ahead of time for `spec.instances` future evaluations of `spec`'s circuit with
/// its inputs, outputs and protocol options, and adds it to `store` ([`super::prepared`]);
/// `per_job` as for [`prepare_aes`].
pub async fn prepare_circuit<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitSpec,
    per_job: Option<usize>,
    rng: &mut R,
    store: &mut Prepared,
    observe: impl FnMut(JobPhase),
) -> Result<PrepareOutput, JobError> {
    check_prepare_circuit(spec, per_job)?;
    let per_job = per_job.unwrap_or(spec.instances);
    let at = (store, "evaluations");
    let input = CircuitInput::default();
    match spec.protocol {
        CircuitProtocol::TinyTable { .. } => {
            tinytable::circuit::prepare(net, &spec.tinytable()?, rng, at.0).await
        }
        CircuitProtocol::MiniMac { .. } => {
            parties::check_circuit_session(spec, minimac_job::PROTOCOL, net.parties())?;
            let job = minimac_job::circuit_job(spec, input)?;
            minimac_job::prepared::prepare(net, &job, per_job, rng, at, observe).await
        }
        CircuitProtocol::Coral { .. } => {
            parties::check_circuit_session(spec, coral_job::PROTOCOL, net.parties())?;
            coral_job::prepared::prepare(
                net,
                &coral_job::circuit_job(spec, input)?,
                per_job,
                rng,
                at,
                observe,
            )
            .await
        }
        CircuitProtocol::TinyOt => Err(not_preparable()),
    }
}

/// Whether a preparation of `spec` in a session of `parties` members fits `store`'s bound
/// ([`super::prepared::PREPARED_BUDGET_BYTES`]), checked before anything is sent.
pub fn check_prepare_room(spec: &PrepareSpec, parties: usize, store: &Prepared) -> Result<(), JobError> {
    match spec {
        PrepareSpec::Aes { spec, per_job } => {
            let input = AesInput::default();
            let per_job = per_job.unwrap_or(spec.blocks);
            match spec.protocol {
                AesProtocol::TinyTable { .. } => tinytable::aes::check_room(&spec.tinytable()?, store),
                AesProtocol::MiniMac { .. } => minimac_job::prepared::check_room(
                    &minimac_job::aes_job(spec, &input)?,
                    (per_job, parties),
                    store,
                    "blocks",
                ),
                AesProtocol::Coral { .. } => coral_job::prepared::check_room(
                    &coral_job::aes_job(spec, &input)?,
                    (per_job, parties),
                    store,
                    "blocks",
                ),
                AesProtocol::Maestro { .. } | AesProtocol::TinyOt => Err(not_preparable()),
            }
        }
        PrepareSpec::Circuit { spec, per_job } => {
            let per_job = per_job.unwrap_or(spec.instances);
            let input = CircuitInput::default();
            match spec.protocol {
                CircuitProtocol::TinyTable { .. } => {
                    tinytable::prepared::check_room(&spec.tinytable()?, store, "evaluations")
                }
                CircuitProtocol::MiniMac { .. } => minimac_job::prepared::check_room(
                    &minimac_job::circuit_job(spec, input)?,
                    (per_job, parties),
                    store,
                    "evaluations",
                ),
                CircuitProtocol::Coral { .. } => coral_job::prepared::check_room(
                    &coral_job::circuit_job(spec, input)?,
                    (per_job, parties),
                    store,
                    "evaluations",
                ),
                CircuitProtocol::TinyOt => Err(not_preparable()),
            }
        }
    }
}

fn not_preparable() -> JobError {
    JobError::not_available(
        "protocol",
        "MAESTRO and TinyOT make their material inside each job; TinyTable (OT), MiniMac and Coral prepare ahead of time",
    )
}
