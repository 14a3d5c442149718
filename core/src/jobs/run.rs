//! The dispatch of the two jobs to the protocols' runners: [`run_aes`] and [`run_circuit`] validate
//! the spec once (the specs' `validate`, which asks the protocol) and hand it to the runner of its
//! protocol. It sits above both the spec types ([`super::aes`], [`super::circuit`]) and the runners,
//! which use those types, so no module imports one that imports it back.

use super::aes::{AesInput, AesOutput, AesProtocol, AesSpec, JobPhase};
use super::circuit::{CircuitInput, CircuitOutput, CircuitProtocol, CircuitSpec};
use super::coral as coral_job;
use super::error::JobError;
use super::maestro_aes::{self, AesJobSpec};
use super::minimac as minimac_job;
use super::tinytable;
use super::tinytable::aes::TinyTableAesSpec;
use super::tinytable::circuit::CircuitJobSpec;
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
    spec.validate()?;
    match spec.protocol {
        AesProtocol::Maestro { .. } => {
            maestro_aes::run_observed(net, &spec.maestro()?, input, rng, observe).await
        }
        // TinyTable's online phase follows its preprocessing inside one call; it reports no
        // milestone.
        AesProtocol::TinyTable { .. } => tinytable::aes::run(net, &spec.tinytable()?, input, rng).await,
        AesProtocol::MiniMac { .. } => minimac_job::run_aes(net, spec, input, rng, observe).await,
        AesProtocol::Coral { .. } => coral_job::run_aes(net, spec, input, rng, observe).await,
    }
}

/// Runs the circuit job as this member; every member calls it with the same spec.
pub async fn run_circuit<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitSpec,
    input: CircuitInput,
    rng: &mut R,
) -> Result<CircuitOutput, JobError> {
    spec.validate()?;
    match spec.protocol {
        CircuitProtocol::TinyTable { .. } => {
            tinytable::circuit::run(net, &spec.tinytable()?, input, rng).await
        }
        CircuitProtocol::MiniMac { .. } => minimac_job::run_circuit(net, spec, input, rng).await,
        CircuitProtocol::Coral { .. } => coral_job::run_circuit(net, spec, input, rng).await,
    }
}
