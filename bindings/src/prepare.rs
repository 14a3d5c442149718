//! The prepare job behind every binding's `prepare`: preprocessing made ahead of time for future
//! jobs of the session ([`chorus_core::jobs::prepare_aes`], [`chorus_core::jobs::prepare_circuit`]),
//! kept in the session's [`Prepared`] store that later AES and circuit jobs consume. It is one
//! more [`JobKind`], so it is read, checked, run over the session's channels and reported like the
//! two jobs.
//!
//! Spec: `{ job: 'aes' | 'evaluate', perJob?, ... }` with the options of the job it prepares for,
//! without inputs — for `'aes'` those of [`spec::aes_spec`] (`blocks` is the number of blocks
//! prepared), for `'evaluate'` those of [`spec::circuit_spec`] and `evaluations?` (default 1), the
//! number of future evaluations prepared. `perJob` (MiniMac and Coral) is the instance count of
//! the jobs to come (default: all prepared instances in one job); see
//! [`chorus_core::jobs::prepared`].

use crate::error::BridgeError;
use crate::jobs::{check_aes_session, JobKind, JobLabels};
use crate::spec::{self, Fields, Value};
use chorus_core::jobs::{self, JobError, JobPhase, PrepareOutput, PrepareSpec, Prepared, PreparedUse};
use chorus_core::net::Network;

/// Preparing material ahead of time ([`chorus_core::jobs::Prepared`]).
#[derive(Debug)]
pub enum Prepare {}

/// Most evaluations one prepare job makes material for (the material is held in memory, within
/// [`chorus_core::jobs::PREPARED_BUDGET_BYTES`]).
const MAX_EVALUATIONS: usize = 1 << 16;

/// An optional count field from 1 to `max` (`default` when absent).
fn count(spec: &impl Fields, field: &'static str, max: usize) -> Result<Option<usize>, BridgeError> {
    match spec.field(field)? {
        None => Ok(None),
        Some(Value::Num(n)) if n >= 1.0 && n.fract() == 0.0 && n <= max as f64 => Ok(Some(n as usize)),
        Some(_) => Err(BridgeError::config(field, format!("{field} must be an integer from 1 to {max}"))),
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
        let per_job = count(spec, "perJob", MAX_EVALUATIONS)?;
        let prepared = match job.as_str() {
            "aes" => {
                // The roles' defaults and checks depend on the session where every member computes.
                let aes = spec::aes_spec_among(spec, parties)?;
                // What cannot be prepared is named before the session's size.
                jobs::check_prepare_aes(&aes, per_job)?;
                check_aes_session(&aes, parties)?;
                PrepareSpec::Aes { spec: aes, per_job }
            }
            "evaluate" => {
                let mut circuit = spec::circuit_spec(spec)?;
                circuit.instances = count(spec, "evaluations", MAX_EVALUATIONS)?.unwrap_or(1);
                jobs::check_prepare_circuit(&circuit, per_job)?;
                circuit.check_members(parties)?;
                PrepareSpec::Circuit { spec: circuit, per_job }
            }
            other => {
                return Err(BridgeError::config("job", format!("unknown job {other:?}: 'aes' or 'evaluate'")))
            }
        };
        Ok((prepared, ()))
    }

    fn labels(spec: &PrepareSpec) -> JobLabels {
        match spec {
            PrepareSpec::Aes { spec, .. } => crate::jobs::Aes::labels(spec),
            PrepareSpec::Circuit { spec, .. } => crate::jobs::Circuit::labels(spec),
        }
    }

    /// A preparation makes material; it consumes none, and its material must fit the store's
    /// bound.
    fn uses_prepared(
        spec: &PrepareSpec,
        parties: usize,
        store: &Prepared,
        usage: PreparedUse,
    ) -> Result<bool, JobError> {
        if usage == PreparedUse::Require {
            return Err(JobError::invalid_spec("usePrepared", "a preparation makes material; it uses none"));
        }
        jobs::check_prepare_room(spec, parties, store)?;
        Ok(false)
    }

    async fn run<N: Network, R: rand_core::RngCore + rand_core::CryptoRng>(
        net: &mut N,
        spec: &PrepareSpec,
        _input: (),
        rng: &mut R,
        (store, _): (&mut Prepared, PreparedUse),
        observe: impl FnMut(JobPhase),
    ) -> Result<PrepareOutput, JobError> {
        jobs::prepare(net, spec, rng, store, observe).await
    }
}
