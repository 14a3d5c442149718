//! Any Bristol circuit between two parties under TinyTable, with preprocessing over OT between
//! the two parties (default) or from the trusted dealer as member 2 (see the
//! [trust model](super)). Each input value belongs to party 0 or 1, each output value is revealed
//! to one or both parties; several instances of the circuit run in one batch (one message per AND
//! layer for all of them).

use super::prepared;
use super::{agree_on_spec, check_common, run_instances, JobError, MacBits, Preprocessing, Security};
use crate::circuit::Circuit;
use crate::jobs::aes::JobPhase;
use crate::jobs::circuit::CircuitOutput;
use crate::jobs::prepared::{plan_bytes, PrepareOutput, Prepared, PreparedUse};
use crate::net::Network;
use crate::proto::tinytable::{IoSpec, Reveal};
use rand_core::{CryptoRng, RngCore};

/// What the session members agree to compute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CircuitJobSpec {
    /// Where the material comes from; decides the session size (2 for OT, 3 with the dealer).
    pub preprocessing: Preprocessing,
    /// The security level.
    pub security: Security,
    /// Width of the authentication strings under [`Security::Malicious`] (ignored, but agreed
    /// on, for semi-honest).
    pub mac_bits: MacBits,
    /// The circuit (agreement compares the SHA-256 of its Bristol text).
    pub circuit: Circuit,
    /// Owner (0 or 1) of each input value and recipients of each output value.
    pub io: IoSpec,
    /// Number of independent evaluations.
    pub instances: usize,
}

/// This member's private inputs: the shared circuit job's.
pub type CircuitJobInput = crate::jobs::circuit::CircuitInput;

impl CircuitJobSpec {
    /// Checks the spec: instance count and the owners and recipients against the circuit.
    pub fn validate(&self) -> Result<(), JobError> {
        if self.instances == 0 {
            return Err(JobError::invalid_spec("instances", "instances must be at least 1"));
        }
        crate::jobs::circuit::check_io(
            &self.io,
            self.circuit.input_widths().len(),
            self.circuit.output_widths().len(),
            2,
        )
    }

    pub(super) fn encode(&self) -> Vec<u8> {
        let mut out = b"chorus/tinytable-circuit/v3".to_vec();
        out.push(u8::from(self.preprocessing == Preprocessing::Dealer));
        out.push(u8::from(self.security == Security::Malicious));
        out.push(self.mac_bits.bits() as u8);
        out.extend_from_slice(&self.circuit.digest());
        out.extend_from_slice(&(self.instances as u64).to_be_bytes());
        out.extend_from_slice(&(self.io.input_owners.len() as u32).to_be_bytes());
        out.extend(self.io.input_owners.iter().map(|&p| p as u8));
        out.extend_from_slice(&(self.io.reveal.len() as u32).to_be_bytes());
        out.extend(self.io.reveal.iter().map(|r| match r {
            Reveal::Both => 0xff,
            Reveal::To(p) => *p as u8,
        }));
        out
    }
}

/// Runs the job as this member (party 0, party 1, or the dealer under
/// [`Preprocessing::Dealer`]). Every member calls it with the same spec; `rng` supplies the OT
/// preprocessing's randomness at the parties, or the dealer's.
pub async fn run<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitJobSpec,
    input: CircuitJobInput,
    rng: &mut R,
) -> Result<CircuitOutput, JobError> {
    let mut ignore = |_: JobPhase| {};
    run_agreed(
        net,
        spec,
        &spec.encode(),
        input,
        rng,
        (&mut Prepared::default(), PreparedUse::Never),
        &mut ignore,
    )
    .await
}

/// [`run`] with the session's prepared material: the job consumes some of `store` if `usage` and
/// the store say so ([`super::prepared`]).
pub async fn run_prepared<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitJobSpec,
    input: CircuitJobInput,
    rng: &mut R,
    store: &mut Prepared,
    usage: PreparedUse,
    observe: &mut impl FnMut(JobPhase),
) -> Result<CircuitOutput, JobError> {
    run_agreed(net, spec, &spec.encode(), input, rng, (store, usage), observe).await
}

/// Makes material for `spec.instances` future evaluations of `spec`'s kind into `store`
/// ([`super::prepared`]).
pub async fn prepare<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitJobSpec,
    rng: &mut R,
    store: &mut Prepared,
) -> Result<PrepareOutput, JobError> {
    prepared::prepare(net, spec, &spec.encode(), rng, (store, "evaluations")).await
}

/// [`run`] with the bytes the members agree on given by the caller: a job that derives the
/// circuit from its own spec (as [`super::aes`] does) agrees on that spec instead of hashing the
/// circuit's Bristol text. The plan for `store` (which prepared instances the job consumes, if
/// any) is agreed on too. `observe` hears of each chunk of instances evaluated.
pub(crate) async fn run_agreed<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitJobSpec,
    agreed: &[u8],
    input: CircuitJobInput,
    rng: &mut R,
    (store, usage): (&mut Prepared, PreparedUse),
    observe: &mut impl FnMut(JobPhase),
) -> Result<CircuitOutput, JobError> {
    check_common(net, spec.preprocessing)?;
    spec.validate()?;
    input.check(
        net.party(),
        spec.preprocessing.is_dealer(net.party()),
        spec.circuit.input_widths(),
        &spec.io,
        spec.instances,
    )?;
    let plan = prepared::plan(spec, store, usage)?;
    let start = net.stats();
    let digest = agree_on_spec(net, &[agreed, &plan_bytes(plan.as_ref())].concat()).await?;
    let (outputs, online_stats) = match &plan {
        Some(plan) => prepared::evaluate(net, spec, plan, store, &input.values).await?,
        None => run_instances(net, spec, &digest, &input.values, rng, observe).await?,
    };
    Ok(CircuitOutput::new(outputs, net.stats().since(&start), online_stats))
}
