//! The dispatch of the two jobs to the protocols' runners: [`run_aes`] and [`run_circuit`] validate
//! the spec once (the specs' `validate`, which asks the protocol) and hand it to the runner of its
//! protocol. It sits above both the spec types ([`super::aes`], [`super::circuit`]) and the runners,
//! which use those types, so no module imports one that imports it back.
//!
//! The `_prepared` variants take the session's prepared material and whether to use it
//! ([`Prepared`], [`PreparedUse`]); [`prepare_aes`] and [`prepare_circuit`] make such material
//! ahead of time. Only TinyTable with OT preprocessing prepares and consumes material
//! ([`super::tinytable::prepared`]); other protocols refuse a job that requires it.

use super::aes::{AesInput, AesOutput, AesProtocol, AesSpec, JobPhase};
use super::circuit::{CircuitInput, CircuitOutput, CircuitProtocol, CircuitSpec};
use super::coral as coral_job;
use super::error::JobError;
use super::maestro_aes::{self, AesJobSpec};
use super::minimac as minimac_job;
use super::tinytable;
use super::tinytable::aes::TinyTableAesSpec;
use super::tinytable::circuit::CircuitJobSpec;
use super::tinytable::prepared::{check_preparable, refuse_required, PrepareOutput, Prepared, PreparedUse};
use crate::net::Network;
use rand_core::{CryptoRng, RngCore};

impl AesSpec {
    /// Checks the spec, including that its protocol supports the requested options.
    pub fn validate(&self) -> Result<(), JobError> {
        match self.protocol {
            AesProtocol::Maestro { .. } => self.maestro()?.validate(),
            AesProtocol::TinyTable { .. } => self.tinytable()?.validate(),
            AesProtocol::MiniMac { .. } => minimac_job::validate_aes(self),
            AesProtocol::Coral { .. } => coral_job::validate_aes(self),
        }
    }

    fn maestro(&self) -> Result<AesJobSpec, JobError> {
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

    fn tinytable(&self) -> Result<TinyTableAesSpec, JobError> {
        let AesProtocol::TinyTable { path, preprocessing, security, mac_bits } = self.protocol else {
            return Err(JobError::Internal("not a TinyTable spec"));
        };
        self.check_two_party_aes()?;
        Ok(TinyTableAesSpec {
            path,
            preprocessing,
            security,
            mac_bits,
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
        }
    }

    fn tinytable(&self) -> Result<CircuitJobSpec, JobError> {
        let CircuitProtocol::TinyTable { preprocessing, security, mac_bits } = self.protocol else {
            return Err(JobError::Internal("not a TinyTable spec"));
        };
        Ok(CircuitJobSpec {
            preprocessing,
            security,
            mac_bits,
            circuit: self.circuit.clone(),
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
    if !matches!(spec.protocol, AesProtocol::TinyTable { .. }) {
        refuse_required(usage)?;
    }
    match spec.protocol {
        AesProtocol::Maestro { .. } => {
            maestro_aes::run_observed(net, &spec.maestro()?, input, rng, observe).await
        }
        // TinyTable's online phase follows its preprocessing inside one call; it reports no
        // milestone.
        AesProtocol::TinyTable { .. } => {
            tinytable::aes::run_prepared(net, &spec.tinytable()?, input, rng, store, usage).await
        }
        AesProtocol::MiniMac { .. } => minimac_job::run_aes(net, spec, input, rng, observe).await,
        AesProtocol::Coral { .. } => coral_job::run_aes(net, spec, input, rng, observe).await,
    }
}

/// Whether an AES job of `spec` would consume prepared material from `store` under `usage`; an
/// error naming `usePrepared` if `usage` requires it and none fits.
pub fn aes_uses_prepared(spec: &AesSpec, store: &Prepared, usage: PreparedUse) -> Result<bool, JobError> {
    match spec.protocol {
        AesProtocol::TinyTable { .. } => tinytable::aes::uses_prepared(&spec.tinytable()?, store, usage),
        _ => refuse_required(usage),
    }
}

/// Whether a circuit job of `spec` would consume prepared material from `store` under `usage`;
/// an error naming `usePrepared` if `usage` requires it and none fits.
pub fn circuit_uses_prepared(
    spec: &CircuitSpec,
    store: &Prepared,
    usage: PreparedUse,
) -> Result<bool, JobError> {
    match spec.protocol {
        CircuitProtocol::TinyTable { .. } => store.uses(&spec.tinytable()?, usage),
        _ => refuse_required(usage),
    }
}

/// Makes material ahead of time for `spec.blocks` blocks of future AES jobs like `spec` and adds
/// it to `store` (TinyTable with OT preprocessing, either AES path, two members; every member
/// calls it with the same spec).
pub async fn prepare_aes<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &AesSpec,
    rng: &mut R,
    store: &mut Prepared,
) -> Result<PrepareOutput, JobError> {
    check_prepare_aes(spec)?;
    tinytable::aes::prepare(net, &spec.tinytable()?, rng, store).await
}

/// Checks that AES jobs of `spec` can be prepared ahead of time ([`prepare_aes`]), before
/// anything is sent.
pub fn check_prepare_aes(spec: &AesSpec) -> Result<(), JobError> {
    spec.validate()?;
    match spec.protocol {
        AesProtocol::TinyTable { preprocessing, .. } => check_preparable(preprocessing),
        _ => Err(not_preparable()),
    }
}

/// Checks that evaluations of `spec` can be prepared ahead of time ([`prepare_circuit`]).
pub fn check_prepare_circuit(spec: &CircuitSpec) -> Result<(), JobError> {
    spec.validate()?;
    match spec.protocol {
        CircuitProtocol::TinyTable { preprocessing, .. } => check_preparable(preprocessing),
        _ => Err(not_preparable()),
    }
}

/// Makes material ahead of time for `spec.instances` future evaluations of `spec`'s circuit with
/// its inputs, outputs and security, and adds it to `store` (TinyTable with OT preprocessing).
pub async fn prepare_circuit<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitSpec,
    rng: &mut R,
    store: &mut Prepared,
) -> Result<PrepareOutput, JobError> {
    check_prepare_circuit(spec)?;
    tinytable::circuit::prepare(net, &spec.tinytable()?, rng, store).await
}

fn not_preparable() -> JobError {
    JobError::not_available(
        "protocol",
        "preprocessing ahead of time is available for TinyTable with OT preprocessing; other \
         protocols make their material inside each job",
    )
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
            refuse_required(usage)?;
            minimac_job::run_circuit(net, spec, input, rng, observe).await
        }
        CircuitProtocol::Coral { .. } => {
            refuse_required(usage)?;
            coral_job::run_circuit(net, spec, input, rng, observe).await
        }
    }
}
