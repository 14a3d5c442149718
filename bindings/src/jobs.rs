//! The two jobs behind every binding — joint AES and circuit evaluation, for every protocol
//! ([`chorus_core::jobs`]), as one [`Job`] over a [`JobKind`]. A job is read and validated
//! first, on the caller's thread ([`Job::read`]: spec, this member's inputs against its roles,
//! session credentials, and the session size against the protocol), then run over the session's
//! Noise channels with a fresh OS-seeded generator ([`Job::run`]). This is the only validation of
//! a job's options: the SDK passes its users' options through and calls [`Job::check`] before a
//! job starts, which also says which defaults were chosen ([`JobLabels`]). A protocol added to the
//! core's job layer needs nothing here beyond its options in [`crate::spec`].
//!
//! One handshake per session: the first job opens the channels over the binding's
//! [`BridgeNetwork`] under its credentials; the binding keeps them ([`Channels`]) and every later
//! job of the session runs over the same channels (their ordered, authenticated frames keep the
//! jobs apart), with the credentials it passes unused. A failed job closes the channels: the
//! session is over.
//!
//! [`BridgeNetwork`]: crate::network::BridgeNetwork

use crate::error::BridgeError;
use crate::network::{InstanceProgress, Progress, ProgressNetwork};
use crate::spec::{self, Fields};
use chorus_core::jobs::{
    self, AesInput, AesOutput, AesProtocol, AesSpec, CircuitInput, CircuitOutput, CircuitSpec, JobError,
    JobPhase, Prepared, PreparedUse,
};
use chorus_core::net::secure::{SecureConfig, SecureNetwork};
use chorus_core::net::{NetError, NetStats, Network};
use chorus_core::rng::session_rng;

/// A session's secure channels between its jobs: none before the first job or after a failed one.
pub type Channels<N> = Option<SecureNetwork<N>>;

/// A job's output with the statistics of its encrypted transport (frames and handshakes).
#[derive(Debug)]
pub struct Finished<O> {
    /// What the job returned.
    pub output: O,
    /// Bytes and messages of the job's encrypted frames, with the handshakes if it opened the
    /// session's channels.
    pub transport: NetStats,
}

/// What a checked job runs, in the SDK's names, with the defaults filled in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobLabels {
    /// `maestro`, `tinytable`, `minimac` or `coral`.
    pub protocol: &'static str,
    /// AES only: MAESTRO's S-box variant, TinyTable's path, MiniMac's code or Coral's packing.
    pub variant: Option<&'static str>,
    /// `semi-honest` or `malicious`.
    pub security: &'static str,
    /// A two-party protocol's preprocessing: `ot` or `dealer`.
    pub preprocessing: Option<&'static str>,
    /// Whether the job consumes the session's prepared material (made ahead by a prepare job).
    pub prepared: bool,
}

/// Coral's one packing: the RMFE of GF(2)^14 into GF(2^42).
const CORAL_PACKING: &str = "rmfe-14-42";

impl JobLabels {
    fn aes(spec: &AesSpec) -> Self {
        let protocol = &spec.protocol;
        let variant = match *protocol {
            AesProtocol::Maestro { variant, .. } => variant.name(),
            AesProtocol::TinyTable { path, .. } => path.name(),
            AesProtocol::MiniMac { code, .. } => code.name(),
            AesProtocol::Coral { .. } => CORAL_PACKING,
            AesProtocol::TinyOt => jobs::options::AesPath::BinaryCircuit.name(),
        };
        JobLabels {
            protocol: protocol.name(),
            variant: Some(variant),
            security: protocol.security().name(),
            preprocessing: aes_preprocessing(protocol).map(jobs::Preprocessing::name),
            prepared: false,
        }
    }

    fn circuit(spec: &CircuitSpec) -> Self {
        JobLabels {
            protocol: spec.protocol.name(),
            variant: None,
            security: spec.protocol.security().name(),
            preprocessing: Some(spec.protocol.preprocessing().name()),
            prepared: false,
        }
    }
}

/// A job of kind `K` ([`Aes`] or [`Circuit`]), read and validated, ready to run.
#[derive(Debug)]
pub struct Job<K: JobKind> {
    config: SecureConfig,
    /// The session's size.
    parties: usize,
    spec: K::Spec,
    input: K::Input,
    usage: PreparedUse,
}

/// A joint-AES job.
pub type AesJob = Job<Aes>;
/// A circuit job.
pub type CircuitJob = Job<Circuit>;
/// A prepare job ([`crate::prepare`]).
pub type PrepareJob = Job<crate::prepare::Prepare>;

/// What differs between the two jobs: how spec and input are read and checked, what the labels
/// say, and which core job runs.
pub trait JobKind {
    /// The core's spec.
    type Spec: core::fmt::Debug;
    /// The core's input for one member.
    type Input: core::fmt::Debug;
    /// The core's output.
    type Output;

    /// Reads spec and member `party`'s input and checks them and the session size.
    fn parse(
        party: usize,
        parties: usize,
        spec: &impl Fields,
        input: &impl Fields,
    ) -> Result<(Self::Spec, Self::Input), BridgeError>;

    /// What the spec runs.
    fn labels(spec: &Self::Spec) -> JobLabels;

    /// Whether the job consumes prepared material from `store` under `usage` (an error naming
    /// `usePrepared` if `usage` requires it and none fits), in a session of `parties`.
    fn uses_prepared(
        spec: &Self::Spec,
        parties: usize,
        store: &Prepared,
        usage: PreparedUse,
    ) -> Result<bool, JobError>;

    /// Runs the core job with the session's prepared material, telling `observe` its milestones.
    fn run<N: Network, R: rand_core::RngCore + rand_core::CryptoRng>(
        net: &mut N,
        spec: &Self::Spec,
        input: Self::Input,
        rng: &mut R,
        prepared: (&mut Prepared, PreparedUse),
        observe: impl FnMut(JobPhase),
    ) -> impl core::future::Future<Output = Result<Self::Output, JobError>>;
}

/// Joint AES ([`jobs::run_aes`]).
#[derive(Debug)]
pub enum Aes {}

/// Circuit evaluation ([`jobs::run_circuit`]).
#[derive(Debug)]
pub enum Circuit {}

impl JobKind for Aes {
    type Spec = AesSpec;
    type Input = AesInput;
    type Output = AesOutput;

    /// [`spec::aes_spec`] and [`spec::aes_input`], then the spec, the input against the party's
    /// roles and the session size.
    fn parse(
        party: usize,
        parties: usize,
        spec: &impl Fields,
        input: &impl Fields,
    ) -> Result<(AesSpec, AesInput), BridgeError> {
        let spec = aes_spec(parties, spec)?;
        let input = spec::aes_input(input)?;
        spec.check_input(party, &input)?;
        Ok((spec, input))
    }

    fn labels(spec: &AesSpec) -> JobLabels {
        JobLabels::aes(spec)
    }

    fn uses_prepared(
        spec: &AesSpec,
        _parties: usize,
        store: &Prepared,
        usage: PreparedUse,
    ) -> Result<bool, JobError> {
        jobs::aes_uses_prepared(spec, store, usage)
    }

    async fn run<N: Network, R: rand_core::RngCore + rand_core::CryptoRng>(
        net: &mut N,
        spec: &AesSpec,
        input: AesInput,
        rng: &mut R,
        prepared: (&mut Prepared, PreparedUse),
        observe: impl FnMut(JobPhase),
    ) -> Result<AesOutput, JobError> {
        jobs::run_aes_prepared(net, spec, input, rng, prepared, observe).await
    }
}

impl JobKind for Circuit {
    type Spec = CircuitSpec;
    type Input = CircuitInput;
    type Output = CircuitOutput;

    /// [`spec::circuit_spec`], the spec and the session size, then [`spec::circuit_input`] and
    /// the input against the circuit and its owners.
    fn parse(
        party: usize,
        parties: usize,
        spec: &impl Fields,
        input: &impl Fields,
    ) -> Result<(CircuitSpec, CircuitInput), BridgeError> {
        let spec = circuit_spec(parties, spec)?;
        let input = spec::circuit_input(input, &spec, party)?;
        spec.check_input(party, &input)?;
        Ok((spec, input))
    }

    fn labels(spec: &CircuitSpec) -> JobLabels {
        JobLabels::circuit(spec)
    }

    fn uses_prepared(
        spec: &CircuitSpec,
        _parties: usize,
        store: &Prepared,
        usage: PreparedUse,
    ) -> Result<bool, JobError> {
        jobs::circuit_uses_prepared(spec, store, usage)
    }

    async fn run<N: Network, R: rand_core::RngCore + rand_core::CryptoRng>(
        net: &mut N,
        spec: &CircuitSpec,
        input: CircuitInput,
        rng: &mut R,
        prepared: (&mut Prepared, PreparedUse),
        observe: impl FnMut(JobPhase),
    ) -> Result<CircuitOutput, JobError> {
        jobs::run_circuit_observed(net, spec, input, rng, prepared, observe).await
    }
}

/// An AES job's spec ([`spec::aes_spec_among`]), validated, in a session of `parties`.
pub(crate) fn aes_spec(parties: usize, spec: &impl Fields) -> Result<AesSpec, BridgeError> {
    let spec = spec::aes_spec_among(spec, parties)?;
    // Where every member computes, the session's size first: the roles depend on it.
    if spec.members().is_none() {
        check_aes_session(&spec, parties)?;
        spec.validate()?;
    } else {
        spec.validate()?;
        check_aes_session(&spec, parties)?;
    }
    Ok(spec)
}

/// Checks that a session of `parties` members can run the AES spec: the protocol's fixed size, or
/// the range where every member computes.
pub(crate) fn check_aes_session(spec: &AesSpec, parties: usize) -> Result<(), BridgeError> {
    match spec.members() {
        None => Ok(spec.check_members(parties)?),
        Some(members) => {
            check_members(parties, spec.protocol.name(), members, aes_preprocessing(&spec.protocol))
        }
    }
}

/// A circuit job's spec ([`spec::circuit_spec`]), validated, in a session of `parties`.
pub(crate) fn circuit_spec(parties: usize, spec: &impl Fields) -> Result<CircuitSpec, BridgeError> {
    let spec = spec::circuit_spec(spec)?;
    spec.validate()?;
    spec.check_members(parties)?;
    Ok(spec)
}

/// The session size a job needs, checked before the handshake (the job checks it again).
pub(crate) fn check_members(
    parties: usize,
    protocol: &'static str,
    members: usize,
    preprocessing: Option<jobs::Preprocessing>,
) -> Result<(), BridgeError> {
    if parties == members {
        return Ok(());
    }
    Err(match preprocessing {
        Some(preprocessing) => JobError::WrongSessionSize { protocol, preprocessing, got: parties }.into(),
        None => BridgeError::config(
            "parties",
            format!("{protocol} runs in a session of {members}, this one has {parties}"),
        ),
    })
}

pub(crate) fn aes_preprocessing(protocol: &AesProtocol) -> Option<jobs::Preprocessing> {
    match *protocol {
        AesProtocol::Maestro { .. } => None,
        AesProtocol::TinyTable { preprocessing, .. }
        | AesProtocol::MiniMac { preprocessing, .. }
        | AesProtocol::Coral { preprocessing } => Some(preprocessing),
        AesProtocol::TinyOt => Some(jobs::Preprocessing::Ot),
    }
}

/// The session's channels for a job, opened first (over `network`, under `config`) if this is
/// its first job, with the transport statistics before the job (zero if it opens them, so that the
/// job's transport counts the handshakes).
async fn open<N: Network>(
    channels: &mut Channels<N>,
    network: N,
    config: SecureConfig,
) -> Result<(&mut SecureNetwork<N>, NetStats), BridgeError> {
    let before = channels.as_ref().map(SecureNetwork::transport_stats).unwrap_or_default();
    let secure = match channels.take() {
        Some(secure) => secure,
        None => SecureNetwork::establish(network, config).await?,
    };
    Ok((channels.insert(secure), before))
}

/// A job's result with its transport statistics since `before`; a failure closes the channels.
fn finish<N: Network, O>(
    channels: &mut Channels<N>,
    result: Result<O, JobError>,
    before: NetStats,
) -> Result<Finished<O>, BridgeError> {
    match (result, channels.as_ref()) {
        (Ok(output), Some(secure)) => {
            Ok(Finished { output, transport: secure.transport_stats().since(&before) })
        }
        (Ok(_), None) => Err(JobError::Internal("the channels vanished during the job").into()),
        (Err(e), _) => {
            *channels = None;
            Err(e.into())
        }
    }
}

/// A fresh OS-seeded random generator for one job.
pub(crate) fn job_rng() -> Result<impl rand_core::RngCore + rand_core::CryptoRng, BridgeError> {
    session_rng().map_err(|e| BridgeError::from(NetError::Transport(e.to_string())))
}

impl<K: JobKind> Job<K> {
    /// Checks a job as [`Job::read`] and [`Job::run`] do, without session credentials, against
    /// the session's prepared material `prepared`, and says what it runs.
    pub fn check(
        party: usize,
        parties: usize,
        spec: &impl Fields,
        input: &impl Fields,
        prepared: &Prepared,
    ) -> Result<JobLabels, BridgeError> {
        let usage = spec::prepared_use(spec)?;
        let (spec, _) = K::parse(party, parties, spec, input)?;
        let uses = K::uses_prepared(&spec, parties, prepared, usage)?;
        Ok(JobLabels { prepared: uses, ..K::labels(&spec) })
    }

    /// A job of a warm-up ([`crate::warm`]): its spec and input already checked and made.
    pub(crate) fn warm_up(config: SecureConfig, parties: usize, spec: K::Spec, input: K::Input) -> Self {
        Job { config, parties, spec, input, usage: PreparedUse::Never }
    }

    /// The job's spec.
    #[cfg(test)]
    pub(crate) fn spec(&self) -> &K::Spec {
        &self.spec
    }

    /// Reads the session credentials ([`spec::secure_config`]), then spec and member `party`'s
    /// input, checked as by [`Job::check`].
    pub fn read(
        party: usize,
        parties: usize,
        session: &impl Fields,
        spec: &impl Fields,
        input: &impl Fields,
    ) -> Result<Self, BridgeError> {
        let config = spec::secure_config(session)?;
        let usage = spec::prepared_use(spec)?;
        let (spec, input) = K::parse(party, parties, spec, input)?;
        Ok(Job { config, parties, spec, input, usage })
    }

    /// Runs the job over the session's channels, opening them over `network` if this is its
    /// first job (else `network` is dropped: the channels own theirs), with the session's
    /// `prepared` material, and reports this job's [`Progress`] after every received protocol
    /// message. A job that requires prepared material none of which fits fails before anything is
    /// sent, leaving the channels open.
    pub async fn run<N: Network>(
        self,
        channels: &mut Channels<N>,
        prepared: &mut Prepared,
        network: N,
        on_progress: impl FnMut(&Progress),
    ) -> Result<Finished<K::Output>, BridgeError> {
        K::uses_prepared(&self.spec, self.parties, prepared, self.usage)?;
        let mut rng = job_rng()?;
        let (secure, before) = open(channels, network, self.config).await?;
        let instances = InstanceProgress::default();
        let mut net = ProgressNetwork::new(secure, on_progress, instances.clone());
        let result =
            K::run(&mut net, &self.spec, self.input, &mut rng, (prepared, self.usage), observer(&instances))
                .await;
        finish(channels, result, before)
    }
}

/// The milestones' observer of a job reporting to `instances`. A free function, not a closure in
/// [`Job::run`], so that its type does not depend on the caller's: every protocol function it is
/// passed to is one copy per observer type, and a warm-up ([`crate::warm`]) must run the copy a
/// session's jobs run.
fn observer(instances: &InstanceProgress) -> impl FnMut(JobPhase) + '_ {
    |phase| instances.observe(phase)
}

/// A circuit job's outputs as the JS side takes them in one piece: the indices of the output
/// values this party learns (the same in every instance), and their bits (one byte, 0 or 1, per
/// bit), instance after instance, each instance's revealed values in index order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputBatch {
    /// Instances evaluated (0 at a dealer).
    pub instances: usize,
    /// The output values revealed to this party.
    pub revealed: Vec<usize>,
    /// Their bits, instance-major.
    pub bits: Vec<u8>,
}

/// The [`OutputBatch`] of `output`.
pub fn output_batch(output: &CircuitOutput) -> OutputBatch {
    let revealed: Vec<usize> = output
        .outputs
        .first()
        .map(|values| values.iter().enumerate().filter(|(_, v)| v.is_some()).map(|(i, _)| i).collect())
        .unwrap_or_default();
    let mut bits = Vec::new();
    for instance in &output.outputs {
        for &v in &revealed {
            if let Some(value) = &instance[v] {
                bits.extend(value.iter().map(|&b| u8::from(b)));
            }
        }
    }
    OutputBatch { instances: output.outputs.len(), revealed, bits }
}
