//! The prepare job behind every binding's `prepare`: preprocessing made ahead of time for future
//! jobs of the session ([`chorus_core::jobs::prepare_aes`], [`chorus_core::jobs::prepare_circuit`]),
//! kept in the session's [`Prepared`] store that later AES and circuit jobs consume. It is one
//! more [`JobKind`], so it is read, checked, run over the session's channels and reported like the
//! two jobs.
//!
//! Spec: `{ job: 'aes' | 'evaluate', ... }` with the options of the job it prepares for, without
//! inputs — for `'aes'` those of [`spec::aes_spec`] (`blocks` is the number of blocks prepared),
//! for `'evaluate'` those of [`spec::circuit_spec`] and `evaluations?` (default 1), the number of
//! future evaluations prepared.

use crate::error::BridgeError;
use crate::jobs::{aes_preprocessing, check_members, JobKind, JobLabels};
use crate::spec::{self, Fields, Value};
use chorus_core::jobs::{
    self, AesSpec, CircuitSpec, JobError, JobPhase, PrepareOutput, Prepared, PreparedUse,
};
use chorus_core::net::Network;

/// Preparing material ahead of time ([`chorus_core::jobs::Prepared`]).
#[derive(Debug)]
pub enum Prepare {}

/// What a prepare job prepares for.
#[derive(Debug)]
pub enum PrepareSpec {
    /// Future AES jobs like this one (its `blocks` blocks).
    Aes(AesSpec),
    /// Future evaluations of this circuit job (its `instances`).
    Circuit(CircuitSpec),
}

/// Most evaluations one prepare job makes material for (the material is held in memory).
const MAX_EVALUATIONS: usize = 1 << 16;

fn evaluations(spec: &impl Fields) -> Result<usize, BridgeError> {
    match spec.field("evaluations")? {
        None => Ok(1),
        Some(Value::Num(n)) if n >= 1.0 && n.fract() == 0.0 && n <= MAX_EVALUATIONS as f64 => Ok(n as usize),
        Some(_) => Err(BridgeError::config(
            "evaluations",
            format!("evaluations must be an integer from 1 to {MAX_EVALUATIONS}"),
        )),
    }
}

impl JobKind for Prepare {
    type Spec = PrepareSpec;
    type Input = ();
    type Output = PrepareOutput;

    fn parse(
        _party: usize,
        parties: usize,
        spec: &impl Fields,
        _input: &impl Fields,
    ) -> Result<(PrepareSpec, ()), BridgeError> {
        let job = match spec.field("job")? {
            Some(Value::Str(job)) => job,
            _ => return Err(BridgeError::config("job", "job must be 'aes' or 'evaluate'")),
        };
        let prepared = match job.as_str() {
            "aes" => {
                let aes = spec::aes_spec(spec)?;
                jobs::check_prepare_aes(&aes)?;
                let protocol = &aes.protocol;
                check_members(parties, protocol.name(), protocol.members(), aes_preprocessing(protocol))?;
                PrepareSpec::Aes(aes)
            }
            "evaluate" => {
                let mut circuit = spec::circuit_spec(spec)?;
                circuit.instances = evaluations(spec)?;
                jobs::check_prepare_circuit(&circuit)?;
                let preprocessing = circuit.protocol.preprocessing();
                check_members(
                    parties,
                    circuit.protocol.name(),
                    preprocessing.members(),
                    Some(preprocessing),
                )?;
                PrepareSpec::Circuit(circuit)
            }
            other => {
                return Err(BridgeError::config("job", format!("unknown job {other:?}: 'aes' or 'evaluate'")))
            }
        };
        Ok((prepared, ()))
    }

    fn labels(spec: &PrepareSpec) -> JobLabels {
        match spec {
            PrepareSpec::Aes(aes) => crate::jobs::Aes::labels(aes),
            PrepareSpec::Circuit(circuit) => crate::jobs::Circuit::labels(circuit),
        }
    }

    /// A preparation makes material; it consumes none.
    fn uses_prepared(_: &PrepareSpec, _: &Prepared, usage: PreparedUse) -> Result<bool, JobError> {
        if usage == PreparedUse::Require {
            return Err(JobError::invalid_spec("usePrepared", "a preparation makes material; it uses none"));
        }
        Ok(false)
    }

    async fn run<N: Network, R: rand_core::RngCore + rand_core::CryptoRng>(
        net: &mut N,
        spec: &PrepareSpec,
        _input: (),
        rng: &mut R,
        (store, _): (&mut Prepared, PreparedUse),
        _observe: impl FnMut(JobPhase),
    ) -> Result<PrepareOutput, JobError> {
        match spec {
            PrepareSpec::Aes(aes) => jobs::prepare_aes(net, aes, rng, store).await,
            PrepareSpec::Circuit(circuit) => jobs::prepare_circuit(net, circuit, rng, store).await,
        }
    }
}
