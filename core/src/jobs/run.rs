//! The dispatch of the two jobs to the protocols' runners: [`run_aes`] and [`run_circuit`] validate
//! the spec once (the specs' `validate`, which asks the protocol) and hand it to the runner of its
//! protocol. It sits above both the spec types ([`super::aes`], [`super::circuit`]) and the runners,
//! which use those types, so no module imports one that imports it back.
//!
//! The `_prepared` variants take the session's prepared material and whether to use it
//! ([`Prepared`], [`PreparedUse`]); [`prepare_aes`] and [`prepare_circuit`] make such material
//! ahead of time ([`super::prepared`]): TinyTable with OT preprocessing, MiniMac and Coral with
//! either preprocessing. MAESTRO makes its material inside each job and refuses a job that
//! requires prepared material, and so does a Coral job on a mixed circuit
//! ([`super::coral::mixed`], the runner of [`super::JobCircuit::Mixed`] circuits).

use super::aes::{AesInput, AesOutput, AesProtocol, AesSpec, JobPhase};
use super::circuit::{CircuitInput, CircuitOutput, CircuitProtocol, CircuitSpec, JobCircuit};
use super::coral as coral_job;
use super::error::JobError;
use super::maestro_aes::{self, AesJobSpec};
use super::minimac as minimac_job;
use super::parties;
use super::prepare::MIXED_MAKES_ITS_OWN;
use super::prepared::{refuse_required, Prepared, PreparedUse};
use super::simd::SimdJob;
use super::tinyot as tinyot_job;
use super::tinytable;
use super::tinytable::aes::TinyTableAesSpec;
use super::tinytable::circuit::CircuitJobSpec;
use crate::net::Network;
use rand_core::{CryptoRng, RngCore};

/// The protocol's name in messages (MiniMac, Coral or TinyOT, the protocols where every member
/// may compute).
fn title(name: &str) -> &'static str {
    match name {
        "minimac" => minimac_job::PROTOCOL,
        "tinyot" => tinyot_job::PROTOCOL,
        _ => coral_job::PROTOCOL,
    }
}

impl AesSpec {
    /// Checks the spec, including that its protocol supports the requested options.
    pub fn validate(&self) -> Result<(), JobError> {
        match self.protocol {
            AesProtocol::Maestro { .. } => self.maestro()?.validate(),
            AesProtocol::TinyTable { .. } => self.tinytable()?.validate(),
            AesProtocol::MiniMac { .. } => minimac_job::validate_aes(self),
            AesProtocol::Coral { .. } => coral_job::validate_aes(self),
            AesProtocol::TinyOt => tinyot_job::validate_aes(self),
        }
    }

    /// The session size the spec fixes: the protocol's member count, or `None` where every
    /// member computes and the session decides how many (MiniMac and Coral over OT;
    /// [`check_members`](Self::check_members) bounds it).
    pub fn members(&self) -> Option<usize> {
        (!self.protocol.every_member_computes()).then(|| self.protocol.members())
    }

    /// Checks that a session of `parties` members can run the spec: the protocol's member count,
    /// or — where the session decides ([`members`](Self::members) is `None`) — 2 to
    /// [`parties::MAX_OT_PARTIES`] members with the roles among them.
    pub fn check_members(&self, parties: usize) -> Result<(), JobError> {
        match self.members() {
            None => parties::check_aes_parties(self, title(self.protocol.name()), parties),
            Some(members) if members == parties => Ok(()),
            Some(_) => match self.protocol {
                AesProtocol::TinyTable { preprocessing, .. }
                | AesProtocol::MiniMac { preprocessing, .. }
                | AesProtocol::Coral { preprocessing } => Err(JobError::WrongSessionSize {
                    protocol: self.protocol.name(),
                    preprocessing,
                    got: parties,
                }),
                AesProtocol::TinyOt => Err(JobError::Internal("TinyOT fixes no session size")),
                AesProtocol::Maestro { .. } => Err(JobError::invalid_spec(
                    "parties",
                    format!("MAESTRO runs in a session of 3, this one has {parties}"),
                )),
            },
        }
    }

    pub(crate) fn maestro(&self) -> Result<AesJobSpec, JobError> {
        let AesProtocol::Maestro { variant, security } = self.protocol else {
            return Err(JobError::Internal("not a MAESTRO spec"));
        };
        Ok(AesJobSpec {
            variant,
            security,
            direction: self.direction,
            key_size: self.key_size,
            blocks: self.blocks,
            key_holders: self.key_holders.clone(),
            plaintext_owner: self.plaintext_owner,
            reveal_to: self.reveal_to.clone(),
        })
    }

    pub(crate) fn tinytable(&self) -> Result<TinyTableAesSpec, JobError> {
        let AesProtocol::TinyTable { path, preprocessing, security, mac_bits } = self.protocol else {
            return Err(JobError::Internal("not a TinyTable spec"));
        };
        Ok(TinyTableAesSpec {
            path,
            preprocessing,
            security,
            mac_bits,
            key_size: self.key_size,
            direction: self.direction,
            blocks: self.blocks,
            key_holders: self.key_holders.clone(),
            plaintext_owner: self.plaintext_owner,
            reveal_to: self.reveal_to.clone(),
        })
    }
}

impl CircuitSpec {
    /// Checks the spec: instance count, owners and recipients against the circuit, and what the
    /// protocol supports.
    pub fn validate(&self) -> Result<(), JobError> {
        match self.protocol {
            CircuitProtocol::TinyTable { .. } => self.tinytable()?.validate(),
            CircuitProtocol::MiniMac { .. } => minimac_job::validate_circuit(self),
            CircuitProtocol::Coral { .. } => coral_job::validate_circuit(self),
            CircuitProtocol::TinyOt => tinyot_job::validate_circuit(self),
        }
    }

    /// Checks that a session of `parties` members can run the spec: the preprocessing's member
    /// count, or — for MiniMac and Coral over OT (Coral's mixed circuits included), where every
    /// member computes — 2 to [`parties::MAX_OT_PARTIES`] members, enough for the input owners
    /// and recipients.
    pub fn check_members(&self, parties: usize) -> Result<(), JobError> {
        if self.members().is_none() {
            let protocol = title(self.protocol.name());
            return parties::check_parties(protocol, parties, &self.io.input_owners, &self.io.reveal);
        }
        let preprocessing = self.protocol.preprocessing();
        if parties != preprocessing.members() {
            return Err(JobError::WrongSessionSize {
                protocol: self.protocol.name(),
                preprocessing,
                got: parties,
            });
        }
        Ok(())
    }

    /// The session size the spec fixes: the preprocessing's member count, or `None` where every
    /// member computes and the session decides how many (MiniMac and Coral over OT, Coral's
    /// mixed circuits; [`check_members`](Self::check_members) bounds it).
    pub fn members(&self) -> Option<usize> {
        if self.protocol.every_member_computes() || matches!(self.circuit, JobCircuit::Mixed(_)) {
            None
        } else {
            Some(self.protocol.preprocessing().members())
        }
    }

    pub(crate) fn tinytable(&self) -> Result<CircuitJobSpec, JobError> {
        let CircuitProtocol::TinyTable { preprocessing, security, mac_bits } = self.protocol else {
            return Err(JobError::Internal("not a TinyTable spec"));
        };
        Ok(CircuitJobSpec {
            preprocessing,
            security,
            mac_bits,
            circuit: self.circuit.boolean("TinyTable")?.clone(),
            io: self.io.clone(),
            instances: self.instances,
        })
    }
}

/// Runs the AES job as this member; every member calls it with the same spec. `rng` supplies this
/// member's protocol randomness (PRSS seeds, OT, MAC-check coins, or a dealer's material).
pub async fn run_aes<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &AesSpec,
    input: AesInput,
    rng: &mut R,
) -> Result<AesOutput, JobError> {
    run_aes_observed(net, spec, input, rng, |_| {}).await
}

/// [`run_aes`], calling `observe` at each [`JobPhase`] milestone.
pub async fn run_aes_observed<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &AesSpec,
    input: AesInput,
    rng: &mut R,
    observe: impl FnMut(JobPhase),
) -> Result<AesOutput, JobError> {
    run_aes_prepared(net, spec, input, rng, (&mut Prepared::default(), PreparedUse::Never), observe).await
}

/// [`run_aes_observed`] with the session's prepared material `store`, consumed as `usage` says
/// ([`super::tinytable::prepared`]; TinyTable with OT preprocessing only).
pub async fn run_aes_prepared<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &AesSpec,
    input: AesInput,
    rng: &mut R,
    (store, usage): (&mut Prepared, PreparedUse),
    observe: impl FnMut(JobPhase),
) -> Result<AesOutput, JobError> {
    spec.validate()?;
    match spec.protocol {
        AesProtocol::Maestro { .. } => {
            refuse_required(usage, MAESTRO_MAKES_NONE)?;
            maestro_aes::run_observed(net, &spec.maestro()?, input, rng, observe).await
        }
        // TinyTable's online phase follows its preprocessing inside one call; it reports no
        // milestone.
        AesProtocol::TinyTable { .. } => {
            tinytable::aes::run_prepared(net, &spec.tinytable()?, input, rng, store, usage).await
        }
        AesProtocol::MiniMac { .. } => {
            minimac_job::run_aes(net, spec, input, rng, (store, usage), observe).await
        }
        AesProtocol::Coral { .. } => coral_job::run_aes(net, spec, input, rng, (store, usage), observe).await,
        AesProtocol::TinyOt => tinyot_job::run_aes(net, spec, input, rng, usage, observe).await,
    }
}

/// Why a MAESTRO job uses no prepared material.
const MAESTRO_MAKES_NONE: &str =
    "MAESTRO makes its material inside each job; prepared material is for TinyTable (OT), MiniMac and Coral";

/// Whether an AES job of `spec` would consume prepared material from `store` under `usage`; an
/// error naming `usePrepared` if `usage` requires it and none fits.
pub fn aes_uses_prepared(spec: &AesSpec, store: &Prepared, usage: PreparedUse) -> Result<bool, JobError> {
    let input = AesInput::default();
    match spec.protocol {
        AesProtocol::TinyTable { .. } => tinytable::aes::uses_prepared(&spec.tinytable()?, store, usage),
        AesProtocol::MiniMac { .. } => {
            simd_uses(&minimac_job::aes_job(spec, &input)?.0, minimac_job::prepared::FAMILY, store, usage)
        }
        AesProtocol::Coral { .. } => {
            simd_uses(&coral_job::aes_job(spec, &input)?.0, coral_job::prepared::FAMILY, store, usage)
        }
        AesProtocol::Maestro { .. } => refuse_required(usage, MAESTRO_MAKES_NONE),
        AesProtocol::TinyOt => refuse_required(usage, tinyot_job::NOT_PREPARABLE),
    }
}

/// Whether a MiniMac or Coral job consumes prepared material of `family` under `usage`.
fn simd_uses(
    job: &SimdJob<'_>,
    family: &[u8],
    store: &Prepared,
    usage: PreparedUse,
) -> Result<bool, JobError> {
    Ok(store.plan(|| job.kind(family), job.instances, usage)?.is_some())
}

/// Whether a circuit job of `spec` would consume prepared material from `store` under `usage`;
/// an error naming `usePrepared` if `usage` requires it and none fits.
pub fn circuit_uses_prepared(
    spec: &CircuitSpec,
    store: &Prepared,
    usage: PreparedUse,
) -> Result<bool, JobError> {
    let input = CircuitInput::default();
    match spec.protocol {
        CircuitProtocol::TinyTable { .. } => tinytable::prepared::uses(&spec.tinytable()?, store, usage),
        CircuitProtocol::MiniMac { .. } => {
            simd_uses(&minimac_job::circuit_job(spec, input)?.0, minimac_job::prepared::FAMILY, store, usage)
        }
        CircuitProtocol::Coral { .. } if spec.circuit.is_mixed() => {
            refuse_required(usage, MIXED_MAKES_ITS_OWN)
        }
        CircuitProtocol::Coral { .. } => {
            simd_uses(&coral_job::circuit_job(spec, input)?.0, coral_job::prepared::FAMILY, store, usage)
        }
        CircuitProtocol::TinyOt => refuse_required(usage, tinyot_job::NOT_PREPARABLE),
    }
}

/// Runs the circuit job as this member; every member calls it with the same spec.
pub async fn run_circuit<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitSpec,
    input: CircuitInput,
    rng: &mut R,
) -> Result<CircuitOutput, JobError> {
    run_circuit_prepared(net, spec, input, rng, (&mut Prepared::default(), PreparedUse::Never)).await
}

/// [`run_circuit`] with the session's prepared material `store`, consumed as `usage` says.
pub async fn run_circuit_prepared<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitSpec,
    input: CircuitInput,
    rng: &mut R,
    prepared: (&mut Prepared, PreparedUse),
) -> Result<CircuitOutput, JobError> {
    run_circuit_observed(net, spec, input, rng, prepared, |_| {}).await
}

/// [`run_circuit_prepared`], calling `observe` at each [`JobPhase`] milestone: when the online
/// phase starts, and after each chunk of instances ([`super::stream`]).
pub async fn run_circuit_observed<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitSpec,
    input: CircuitInput,
    rng: &mut R,
    (store, usage): (&mut Prepared, PreparedUse),
    mut observe: impl FnMut(JobPhase),
) -> Result<CircuitOutput, JobError> {
    spec.validate()?;
    match spec.protocol {
        CircuitProtocol::TinyTable { .. } => {
            tinytable::circuit::run_prepared(net, &spec.tinytable()?, input, rng, store, usage, &mut observe)
                .await
        }
        CircuitProtocol::MiniMac { .. } => {
            minimac_job::run_circuit(net, spec, input, rng, (store, usage), observe).await
        }
        CircuitProtocol::Coral { .. } => match &spec.circuit {
            JobCircuit::Mixed(circuit) => {
                refuse_required(usage, MIXED_MAKES_ITS_OWN)?;
                coral_job::mixed::run(net, spec, circuit, input, rng, observe).await
            }
            JobCircuit::Boolean(_) => {
                coral_job::run_circuit(net, spec, input, rng, (store, usage), observe).await
            }
        },
        CircuitProtocol::TinyOt => tinyot_job::run_circuit(net, spec, input, rng, usage, observe).await,
    }
}
