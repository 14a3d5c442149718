//! The party-thread harness the benchmark commands (`chorus-bench-coral`, `-minimac`,
//! `-tinytable`, `-ot`) share, so that every command sets up, measures and reports a local
//! session the same way:
//!
//! - [`run_loopback_session`]: one thread and current-thread runtime per party, each connecting
//!   its secure network over a [`LoopbackMesh`] with a fresh session secret, running the
//!   command's job, and flushing its writers once the job (and with it the network) is done.
//! - [`Mark`] / [`Span`]: what one party did in a region — wall time, the thread's CPU time and
//!   the network counters — and [`Summary`], the parties' spans of one region together.
//! - [`median_run`]: repeat a measurement and keep the median run; [`print_json_line`]: the
//!   commands' output format; [`random_blocks`]: the 16-byte blocks (AES keys and plaintexts)
//!   the commands feed in.

use crate::loopback::{thread_cpu_time, LoopbackMesh};
use crate::tcp::TcpNetwork;
use crate::threads::run_party_threads;
use chorus_core::net::secure::SecureNetwork;
use chorus_core::net::{NetStats, Network};
use chorus_core::rng::session_rng;
use rand_core::RngCore;
use serde::Serialize;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a party waits for its writers to deliver the last messages after its job ended.
const FLUSH_TIMEOUT: Duration = Duration::from_secs(10);

/// One party of a local session, as the job given to [`run_loopback_session`] sees it.
pub struct LoopbackParty {
    /// This party's index.
    pub party: usize,
    /// Its secure network (TCP mesh and Noise channels, as in a real session).
    pub net: SecureNetwork<TcpNetwork>,
    barrier: Arc<tokio::sync::Barrier>,
}

impl LoopbackParty {
    /// Waits until every party has reached this point.
    pub async fn sync(&self) {
        self.barrier.wait().await;
    }

    /// Waits for every party, then marks the start of a timed region.
    pub async fn start(&self) -> Mark {
        self.sync().await;
        Mark::now(&self.net)
    }
}

/// Runs an `n`-party session over TCP loopback: each party on its own thread connects its secure
/// network (Noise channels keyed by a fresh secret under `prologue`, `timeout` to connect), then
/// runs `job`. The network is the job's to drop: once the job returns, its writers are flushed
/// (they end when their queues close). Returns the jobs' results in party order, or the first
/// error.
pub fn run_loopback_session<T, F, Fut>(
    parties: usize,
    prologue: &'static [u8],
    timeout: Duration,
    job: F,
) -> Result<Vec<T>, String>
where
    T: Send + 'static,
    F: FnOnce(LoopbackParty) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Result<T, String>>,
{
    let mesh = LoopbackMesh::new(parties)?;
    let mut secret = [0u8; 32];
    session_rng().map_err(|e| e.to_string())?.fill_bytes(&mut secret);
    let barrier = Arc::new(tokio::sync::Barrier::new(parties));
    let results = run_party_threads(parties, move |party| {
        let (mesh, barrier, job) = (mesh.clone(), barrier.clone(), job.clone());
        async move {
            let (net, flush) = mesh.connect(party, prologue, &secret, timeout).await?;
            let result = job(LoopbackParty { party, net, barrier }).await;
            flush.finish(FLUSH_TIMEOUT).await;
            result
        }
    });
    results.into_iter().collect()
}

/// A point in one party's run: the wall clock, the thread's CPU time and the network counters.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    at: Instant,
    cpu: Option<Duration>,
    stats: NetStats,
}

impl Mark {
    /// Now, on `net`.
    pub fn now(net: &impl Network) -> Mark {
        Mark { at: Instant::now(), cpu: thread_cpu_time(), stats: net.stats() }
    }

    /// Wall time since this mark.
    pub fn elapsed(&self) -> Duration {
        self.at.elapsed()
    }

    /// What happened from this mark to `later`.
    pub fn to(&self, later: &Mark) -> Span {
        Span {
            wall: later.at - self.at,
            cpu: later.cpu.zip(self.cpu).map(|(after, before)| after.saturating_sub(before)),
            stats: later.stats.since(&self.stats),
        }
    }

    /// What happened from this mark until now, on `net`.
    pub fn span(&self, net: &impl Network) -> Span {
        self.to(&Mark::now(net))
    }
}

/// What one party did in a region of its run.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    /// Wall time.
    pub wall: Duration,
    /// CPU time of the party's thread (its protocol and transport tasks); `None` where the thread
    /// clock is unavailable.
    pub cpu: Option<Duration>,
    /// Traffic and rounds.
    pub stats: NetStats,
}

/// The parties' spans of one region together.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    /// The slowest party's wall time.
    pub wall: Duration,
    /// All parties' CPU time (`None` if any party's is unknown).
    pub cpu: Option<Duration>,
    /// The most payload bytes one party sent.
    pub max_bytes_sent: u64,
    /// The payload bytes all parties sent.
    pub total_bytes_sent: u64,
    /// The most rounds of one party.
    pub rounds: u64,
}

impl Summary {
    /// The summary of `spans`, or `None` where there are none.
    pub fn of<'a>(spans: impl IntoIterator<Item = &'a Span>) -> Option<Summary> {
        spans.into_iter().fold(None, |acc, s| {
            Some(match acc {
                None => Summary {
                    wall: s.wall,
                    cpu: s.cpu,
                    max_bytes_sent: s.stats.bytes_sent,
                    total_bytes_sent: s.stats.bytes_sent,
                    rounds: s.stats.rounds,
                },
                Some(a) => Summary {
                    wall: a.wall.max(s.wall),
                    cpu: a.cpu.zip(s.cpu).map(|(a, b)| a + b),
                    max_bytes_sent: a.max_bytes_sent.max(s.stats.bytes_sent),
                    total_bytes_sent: a.total_bytes_sent + s.stats.bytes_sent,
                    rounds: a.rounds.max(s.stats.rounds),
                },
            })
        })
    }

    /// The slowest party's wall time in milliseconds.
    pub fn wall_ms(&self) -> f64 {
        ms(self.wall)
    }

    /// All parties' CPU time in milliseconds.
    pub fn cpu_ms(&self) -> Option<f64> {
        self.cpu.map(ms)
    }
}

/// `d` in milliseconds.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Runs `once` `reps` times (at least once) and returns the run with the median `key` (of an even
/// count, the upper one).
pub fn median_run<T>(
    reps: usize,
    key: impl Fn(&T) -> f64,
    mut once: impl FnMut() -> Result<T, String>,
) -> Result<T, String> {
    let mut runs = (0..reps.max(1)).map(|_| once()).collect::<Result<Vec<_>, _>>()?;
    runs.sort_by(|a, b| key(a).total_cmp(&key(b)));
    let mid = runs.len() / 2;
    Ok(runs.swap_remove(mid))
}

/// `n` blocks of 16 bytes from `rng`, one after another.
pub fn random_blocks(rng: &mut impl RngCore, n: usize) -> Vec<[u8; 16]> {
    (0..n)
        .map(|_| {
            let mut block = [0u8; 16];
            rng.fill_bytes(&mut block);
            block
        })
        .collect()
}

/// Prints `line` as one line of JSON on stdout.
pub fn print_json_line(line: &impl Serialize) {
    println!("{}", serde_json::to_string(line).expect("a bench line serializes"));
}
