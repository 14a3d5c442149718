//! Running a job of `chorus-core` as one party — the joint-AES job ([`chorus_core::jobs::run_aes`])
//! or the circuit job ([`chorus_core::jobs::run_circuit`]), any protocol ([`PartyJob`]) — over any
//! transport, under the secure channel (`NNpsk0` with the session secret), and the
//! conventions shared with the TypeScript SDK so native and SDK parties can join one session:
//!
//! - the session id of the channels in relay room `room` is the UTF-8 bytes of
//!   `"chorus/session/v1\0" + room + "\0job 0"` ([`room_session_id`] with `job = 0`): the SDK's
//!   `Session` opens its channels once, in its first job, under that id and runs every later job
//!   over them, so a native party that joins for one job uses `n = 0`;
//! - the default spec is the SDK's `session.aes` default: AES-128, key shares from parties 0
//!   and 1, plaintext from party 2, ciphertext revealed to all ([`default_spec`]).

use chorus_core::aes::KeySize;
use chorus_core::jobs::maestro_aes::{Direction, DEFAULT_SECURITY, DEFAULT_VARIANT};
use chorus_core::jobs::{
    self, AesInput, AesOutput, AesProtocol, AesSpec, CircuitInput, CircuitOutput, CircuitSpec, JobError,
    JobPhase, Prepared, PreparedUse,
};
use chorus_core::net::secure::{SecureConfig, SecureError, SecureNetwork};
use chorus_core::net::{NetStats, Network};
use chorus_core::rng::{session_rng, RngError};
use rand_core::{CryptoRng, RngCore};
use serde::Serialize;
use std::future::Future;
use std::time::{Duration, Instant};

/// Label opening the session id of a job in a relay room (versioned with the SDK).
pub const ROOM_SESSION_LABEL: &str = "chorus/session/v1";

/// The session id of job number `job` (from 0) in relay room `room`, as the SDK derives it:
/// `"chorus/session/v1\0" + room + "\0job " + job` in UTF-8.
pub fn room_session_id(room: &str, job: u64) -> Vec<u8> {
    format!("{ROOM_SESSION_LABEL}\0{room}\0job {job}").into_bytes()
}

/// The SDK's default AES job for `blocks` blocks under AES-128: MAESTRO with its default S-box
/// and security, key holders 0 and 1, plaintext owner 2, revealed to parties 0, 1 and 2.
pub fn default_spec(blocks: usize) -> AesSpec {
    AesSpec {
        protocol: AesProtocol::Maestro { variant: DEFAULT_VARIANT, security: DEFAULT_SECURITY },
        direction: Direction::Encrypt,
        key_size: KeySize::Aes128,
        blocks,
        key_holders: vec![0, 1],
        plaintext_owner: 2,
        reveal_to: vec![0, 1, 2],
    }
}

/// Errors of running the job as one party.
#[derive(Debug, thiserror::Error)]
pub enum JobRunError {
    /// The secure channel could not be established.
    #[error("secure channel: {0}")]
    Channel(#[from] SecureError),
    /// The operating system gave no randomness.
    #[error(transparent)]
    Rng(#[from] RngError),
    /// The job failed.
    #[error(transparent)]
    Job(#[from] JobError),
}

/// A job one party runs with the core: [`AesJob`] or [`CircuitJob`].
pub trait PartyJob {
    /// What the job gives this party.
    type Output;
    /// Runs the job once on `net` (no prepared material), calling `observe` at each milestone.
    fn run<'a, N: Network, R: RngCore + CryptoRng>(
        &'a self,
        net: &'a mut N,
        rng: &'a mut R,
        observe: impl FnMut(JobPhase) + 'a,
    ) -> impl Future<Output = Result<Self::Output, JobError>> + 'a;
}

/// The joint-AES job of `spec` with this party's `input`.
#[derive(Debug, Clone)]
pub struct AesJob {
    /// The job every member runs.
    pub spec: AesSpec,
    /// This party's key share and plaintext, as its roles say.
    pub input: AesInput,
}

impl PartyJob for AesJob {
    type Output = AesOutput;
    fn run<'a, N: Network, R: RngCore + CryptoRng>(
        &'a self,
        net: &'a mut N,
        rng: &'a mut R,
        observe: impl FnMut(JobPhase) + 'a,
    ) -> impl Future<Output = Result<AesOutput, JobError>> + 'a {
        jobs::run_aes_observed(net, &self.spec, self.input.clone(), rng, observe)
    }
}

/// The circuit job of `spec` (any number of instances) with this party's `input`.
#[derive(Debug, Clone)]
pub struct CircuitJob {
    /// The job every member runs.
    pub spec: CircuitSpec,
    /// This party's input values, per instance.
    pub input: CircuitInput,
}

impl PartyJob for CircuitJob {
    type Output = CircuitOutput;
    async fn run<'a, N: Network, R: RngCore + CryptoRng>(
        &'a self,
        net: &'a mut N,
        rng: &'a mut R,
        observe: impl FnMut(JobPhase) + 'a,
    ) -> Result<CircuitOutput, JobError> {
        let mut nothing_prepared = Prepared::default();
        let prepared = (&mut nothing_prepared, PreparedUse::Never);
        jobs::run_circuit_observed(net, &self.spec, self.input.clone(), rng, prepared, observe).await
    }
}

/// What one party's run produced.
#[derive(Debug, Clone)]
pub struct PartyOutcome<O = AesOutput> {
    /// The job's output (what was revealed to this party, protocol statistics).
    pub output: O,
    /// Time of the secure-channel handshakes.
    pub handshake: Duration,
    /// When the job started (after the handshakes and the `start` future).
    pub job_started: Instant,
    /// When the online phase started (after spec agreement, setup and preprocessing; see
    /// [`JobPhase::OnlineStarts`]; the job's start for protocols that report no milestone).
    pub online_started: Instant,
    /// Time of the job itself.
    pub job: Duration,
    /// Times of the same job run again on the same channels ([`run_aes_party_repeated`]), in
    /// order; empty for a single run.
    pub repeats: Vec<Duration>,
    /// Bytes on the inner network: ciphertext, frame headers and handshake messages.
    pub transport: NetStats,
}

impl<O> PartyOutcome<O> {
    /// The same outcome with its output mapped by `f`.
    pub fn map<P>(self, f: impl FnOnce(O) -> P) -> PartyOutcome<P> {
        let PartyOutcome { output, handshake, job_started, online_started, job, repeats, transport } = self;
        PartyOutcome { output: f(output), handshake, job_started, online_started, job, repeats, transport }
    }
}

/// Establishes the secure channel over `inner` with `secret` for `session_id`, awaits `start`
/// (e.g. a barrier that lines up the parties of a benchmark), then runs the AES job of any
/// protocol ([`jobs::run_aes`]) with a fresh OS-seeded session generator.
pub async fn run_aes_party<N: Network>(
    inner: N,
    session_id: &[u8],
    secret: &[u8],
    spec: &AesSpec,
    input: AesInput,
    start: impl Future<Output = ()>,
) -> Result<PartyOutcome, JobRunError> {
    run_aes_party_repeated(inner, session_id, secret, spec, input, start, 1).await
}

/// [`run_aes_party`], then the same job `runs − 1` more times on the same channels (as an SDK
/// session runs jobs; every party must ask for the same number): the outcome is the first job's,
/// with the later jobs' times in [`PartyOutcome::repeats`].
pub async fn run_aes_party_repeated<N: Network>(
    inner: N,
    session_id: &[u8],
    secret: &[u8],
    spec: &AesSpec,
    input: AesInput,
    start: impl Future<Output = ()>,
    runs: usize,
) -> Result<PartyOutcome, JobRunError> {
    let job = AesJob { spec: spec.clone(), input };
    run_party_repeated(inner, session_id, secret, &job, start, runs).await
}

/// Establishes the secure channel over `inner` with `secret` for `session_id`, awaits `start`
/// (e.g. a barrier that lines up the parties of a benchmark), then runs `job` with a fresh
/// OS-seeded session generator, and `runs − 1` more times on the same channels: the outcome is
/// the first run's, with the later runs' times in [`PartyOutcome::repeats`].
pub async fn run_party_repeated<N: Network, J: PartyJob>(
    inner: N,
    session_id: &[u8],
    secret: &[u8],
    job: &J,
    start: impl Future<Output = ()>,
    runs: usize,
) -> Result<PartyOutcome<J::Output>, JobRunError> {
    let handshake_started = Instant::now();
    let mut net = SecureNetwork::establish(inner, SecureConfig::session_secret(session_id, secret)).await?;
    let handshake = handshake_started.elapsed();
    let mut rng = session_rng()?;
    start.await;
    let job_started = Instant::now();
    let mut online_started = None;
    let output = job
        .run(&mut net, &mut rng, |phase| {
            // The first online phase (a job that streams its instances has one per chunk).
            if phase == JobPhase::OnlineStarts && online_started.is_none() {
                online_started = Some(Instant::now());
            }
        })
        .await?;
    let elapsed = job_started.elapsed();
    let transport = net.transport_stats();
    let mut repeats = Vec::with_capacity(runs.saturating_sub(1));
    for _ in 1..runs {
        let started = Instant::now();
        job.run(&mut net, &mut rng, |_| {}).await?;
        repeats.push(started.elapsed());
    }
    let online_started = online_started.unwrap_or(job_started);
    Ok(PartyOutcome { output, handshake, job_started, online_started, job: elapsed, repeats, transport })
}

/// [`NetStats`] as JSON.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct StatsReport {
    /// Payload bytes sent.
    pub bytes_sent: u64,
    /// Payload bytes received.
    pub bytes_received: u64,
    /// Messages sent.
    pub messages_sent: u64,
    /// Messages received.
    pub messages_received: u64,
    /// Communication rounds.
    pub rounds: u64,
}

impl From<NetStats> for StatsReport {
    fn from(s: NetStats) -> Self {
        StatsReport {
            bytes_sent: s.bytes_sent,
            bytes_received: s.bytes_received,
            messages_sent: s.messages_sent,
            messages_received: s.messages_received,
            rounds: s.rounds,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_session_id_is_the_sdk_job_label() {
        assert_eq!(
            room_session_id("rzSuRZhtQHcKz5XXKk8xpg", 0),
            b"chorus/session/v1\0rzSuRZhtQHcKz5XXKk8xpg\0job 0".to_vec()
        );
        assert_eq!(room_session_id("r", 12), b"chorus/session/v1\x00r\x00job 12".to_vec());
    }

    #[test]
    fn default_spec_is_valid_and_matches_the_sdk_defaults() {
        let s = default_spec(3);
        s.validate().unwrap();
        assert_eq!(s.protocol, AesProtocol::Maestro { variant: DEFAULT_VARIANT, security: DEFAULT_SECURITY });
        assert_eq!(
            (s.key_holders, s.plaintext_owner, s.reveal_to, s.blocks),
            (vec![0, 1], 2, vec![0, 1, 2], 3)
        );
        assert_eq!(s.key_size, KeySize::Aes128);
    }
}
