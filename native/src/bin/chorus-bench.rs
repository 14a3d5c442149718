//! `chorus-bench`: the whole-protocol benchmark. Runs the joint-AES job (MAESTRO) with three local
//! parties for each S-box variant (`--variants`, default all of Table 1: gf256-circuit,
//! gf16-circuit, lut16, lut256, lut256-33) and security level (`--security`, default semi-honest
//! and malicious; combinations no job runs are skipped) over (a) a TCP mesh on loopback and (b) the relay
//! (`node server/dist/cli.js --port 0`, started by this command) — or, with `--transports memory`,
//! (c) in-process channels under the same secure channel, which isolates socket costs — for each
//! batch size, and prints
//! one JSON line per run:
//!
//! ```text
//! {"protocol":"maestro","variant":"lut16","security":"semi-honest","parties":3,"transport":"tcp","batch":1000,
//!  "runtime_ms":…,"blocks_per_s":…,"online_ms":…,"online_blocks_per_s":…,"total_ms":…,"setup_ms":…,
//!  "bytes_per_party":…,"rounds":…,"aes_bytes_per_party":…,"aes_rounds":…,
//!  "preprocessing_bytes_per_party":…,"preprocessing_rounds":…,"transport_bytes_per_party":…,"reps":…}
//! ```
//!
//! The three parties run in this one process, each on its own OS thread with its own
//! current-thread tokio runtime (so on a machine with fewer than three cores they share cores).
//! Each run connects the parties (TCP mesh, or room creation and joins), runs the Noise
//! handshakes, then lines the parties up at a barrier; `runtime_ms` is the timed region from the
//! barrier until the last party finished the job (spec agreement, PRSS setup, inputs, key
//! schedule, AES rounds and opening to all — and, for the lookup-table variants, the
//! preprocessing of every S-box), `blocks_per_s` is `batch / runtime` (total throughput,
//! preprocessing included). `online_ms` runs from the moment the last party finished its
//! preprocessing (and PRSS setup) to the end of the last party's job, and `online_blocks_per_s` is
//! `batch / online`. `setup_ms` is
//! the longest time a party spent from its first connection attempt to the barrier (connection,
//! handshakes, waiting for the others); `total_ms` runs from the first party's first connection
//! attempt to the end of the last party's job (room creation excluded). Bytes and rounds are the largest over the parties: `bytes_per_party` and
//! `rounds` for the whole job (protocol payload), `aes_*` for the AES rounds alone (MAESTRO
//! Table 1 counts 5120 bits = 640 bytes per block), `transport_*` for what the channel put on
//! the transport (ciphertext, frame headers, handshakes). With `--reps n` each configuration runs
//! n times and the run with the median `runtime_ms` is printed. Every run checks every party's
//! ciphertext against the plain AES; a mismatch aborts with exit code 1.
//!
//! `cpu_ms` is the CPU time (user + system, all threads) this process spent while the parties
//! ran — connection, handshakes and job of all three parties — read from `/proc/self/stat`
//! (Linux; `null` elsewhere). On a shared machine wall-clock figures include time other
//! processes held the cores; `cpu_ms` does not, so `batch / cpu_ms` bounds what the job needs.
//!
//! Skipped relay runs print a message on stderr (and are an error with `--require-relay`).

use chorus_core::aes::Aes;
use chorus_core::jobs::maestro_aes::{AesJobInput, SboxVariant, Security};
use chorus_core::jobs::{AesProtocol, AesSpec};
use chorus_core::net::memory::MemoryNetwork;
use chorus_core::rng::{seeded_rng, session_rng};
use chorus_native::job::{default_spec, room_session_id, run_aes_party, JobRunError, PartyOutcome};
use chorus_native::relay::{create_room, RelayAddress, RelayNetwork};
use chorus_native::relay_process::{repo_root, RelayProcess};
use chorus_native::tcp::{TcpConfig, TcpNetwork};
use chorus_native::threads::run_party_threads;
use clap::Parser;
use rand_core::RngCore;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(60);

/// Benchmarks the three-party joint-AES job over TCP and the relay.
#[derive(Parser, Debug)]
#[command(name = "chorus-bench", version)]
struct Args {
    /// Batch sizes (AES blocks per job).
    #[arg(long, value_delimiter = ',', default_value = "1,1000,100000")]
    batches: Vec<usize>,
    /// S-box variants to measure: gf256-circuit, gf16-circuit, lut16, lut256, lut256-33.
    #[arg(long, value_delimiter = ',', default_value = "gf256-circuit,gf16-circuit,lut16,lut256,lut256-33")]
    variants: Vec<String>,
    /// Security levels to measure: semi-honest, malicious.
    #[arg(long, value_delimiter = ',', default_value = "semi-honest,malicious")]
    security: Vec<String>,
    /// Transports to measure: tcp, relay, memory (in-process channels under the same secure
    /// channel: the protocol and encryption without sockets, for comparison).
    #[arg(long, value_delimiter = ',', default_value = "tcp,relay")]
    transports: Vec<String>,
    /// Runs per configuration; the median run is reported.
    #[arg(long, default_value_t = 1)]
    reps: usize,
    /// Fail instead of skipping the relay runs when the relay cannot be started.
    #[arg(long)]
    require_relay: bool,
    /// Repository root holding server/dist/cli.js (default: the one this binary was built from).
    #[arg(long)]
    repo_root: Option<PathBuf>,
}

#[derive(Serialize)]
struct Line {
    protocol: &'static str,
    variant: &'static str,
    security: &'static str,
    parties: usize,
    transport: &'static str,
    batch: usize,
    runtime_ms: f64,
    blocks_per_s: f64,
    online_ms: f64,
    online_blocks_per_s: f64,
    total_ms: f64,
    setup_ms: f64,
    cpu_ms: Option<f64>,
    bytes_per_party: u64,
    rounds: u64,
    aes_bytes_per_party: u64,
    aes_rounds: u64,
    preprocessing_bytes_per_party: u64,
    preprocessing_rounds: u64,
    transport_bytes_per_party: u64,
    reps: usize,
}

/// How the parties of one run connect.
#[derive(Clone)]
enum Connect {
    Tcp(Arc<Mutex<Vec<Option<std::net::TcpListener>>>>, Vec<std::net::SocketAddr>),
    Relay(RelayAddress, chorus_native::relay::Room),
    Memory(Arc<Mutex<Vec<Option<MemoryNetwork>>>>),
}

/// One party's result: its outcome and when it started connecting.
type PartyResult = Result<(PartyOutcome, Instant), String>;

fn main() -> ExitCode {
    chorus_native::cli::run_main("chorus-bench", |args: Args| run(&args))
}

fn run(args: &Args) -> Result<(), String> {
    if args.reps == 0 || args.batches.contains(&0) {
        return Err("--reps and every batch must be at least 1".into());
    }
    let variants = args
        .variants
        .iter()
        .map(|name| {
            SboxVariant::from_name(name).ok_or_else(|| {
                format!("unknown variant {name:?}: use gf256-circuit, gf16-circuit, lut16, lut256 and/or lut256-33")
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let levels = args
        .security
        .iter()
        .map(|name| {
            Security::from_name(name)
                .ok_or_else(|| format!("unknown security level {name:?}: use semi-honest and/or malicious"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    for t in &args.transports {
        if !["tcp", "relay", "memory"].contains(&t.as_str()) {
            return Err(format!("unknown transport {t:?}: use tcp, relay and/or memory"));
        }
    }
    let relay = if args.transports.iter().any(|t| t == "relay") {
        match RelayProcess::start(&args.repo_root.clone().unwrap_or_else(repo_root)) {
            Ok(relay) => Some(relay),
            Err(e) if args.require_relay => return Err(e.to_string()),
            Err(e) => {
                eprintln!("chorus-bench: skipping the relay runs: {e}");
                None
            }
        }
    } else {
        None
    };
    let configurations = variants.iter().flat_map(|&v| levels.iter().map(move |&s| (v, s)));
    for (variant, security) in configurations {
        for transport in &args.transports {
            for &batch in &args.batches {
                let run = Run { variant, security, transport: "tcp", batch };
                let line = match (transport.as_str(), &relay) {
                    ("tcp", _) => measure(run, args.reps, || tcp_connect(3))?,
                    ("memory", _) => measure(Run { transport: "memory", ..run }, args.reps, || {
                        Ok(Connect::Memory(Arc::new(Mutex::new(
                            MemoryNetwork::session(3).into_iter().map(Some).collect(),
                        ))))
                    })?,
                    (_, Some(relay)) => measure(Run { transport: "relay", ..run }, args.reps, || {
                        relay_connect(&relay.address)
                    })?,
                    _ => continue,
                };
                println!("{}", serde_json::to_string(&line).expect("a bench line serializes"));
            }
        }
    }
    Ok(())
}

fn tcp_connect(n: usize) -> Result<Connect, String> {
    let mut listeners = Vec::new();
    let mut addrs = Vec::new();
    for _ in 0..n {
        let l = std::net::TcpListener::bind("127.0.0.1:0")
            .map_err(|e| format!("binding a loopback port: {e}"))?;
        l.set_nonblocking(true).map_err(|e| e.to_string())?;
        addrs.push(l.local_addr().map_err(|e| e.to_string())?);
        listeners.push(Some(l));
    }
    Ok(Connect::Tcp(Arc::new(Mutex::new(listeners)), addrs))
}

fn relay_connect(address: &RelayAddress) -> Result<Connect, String> {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
    let room = runtime.block_on(create_room(address, 3, TIMEOUT)).map_err(|e| e.to_string())?;
    Ok(Connect::Relay(address.clone(), room))
}

/// One configuration: variant, transport and batch size.
#[derive(Clone, Copy)]
struct Run {
    variant: SboxVariant,
    security: Security,
    transport: &'static str,
    batch: usize,
}

/// Runs one configuration `reps` times and returns the line of the median run.
fn measure(run: Run, reps: usize, connect: impl Fn() -> Result<Connect, String>) -> Result<Line, String> {
    let mut lines = Vec::new();
    for rep in 0..reps {
        lines.push(run_once(run, connect()?, rep as u64)?);
    }
    lines.sort_by(|a, b| a.runtime_ms.total_cmp(&b.runtime_ms));
    let mut line = lines.swap_remove(reps / 2);
    line.reps = reps;
    Ok(line)
}

fn run_once(run: Run, connect: Connect, rep: u64) -> Result<Line, String> {
    let Run { variant, security, transport, batch } = run;
    // Benchmark inputs are not secret: a seeded generator makes them reproducible.
    let mut inputs_rng = seeded_rng(batch as u64 ^ (rep << 40));
    let mut key = [0u8; 16];
    let mut mask = [0u8; 16];
    let mut plaintext = vec![0u8; 16 * batch];
    inputs_rng.fill_bytes(&mut key);
    inputs_rng.fill_bytes(&mut mask);
    inputs_rng.fill_bytes(&mut plaintext);
    let mut expected: Vec<[u8; 16]> =
        plaintext.chunks_exact(16).map(|c| c.try_into().expect("16-byte chunks")).collect();
    Aes::new(&key).map_err(|e| e.to_string())?.encrypt_blocks(&mut expected);
    let inputs = Arc::new([
        AesJobInput { key_share: Some(mask.to_vec()), plaintext: None },
        AesJobInput { key_share: Some(key.iter().zip(mask).map(|(k, m)| k ^ m).collect()), plaintext: None },
        AesJobInput { key_share: None, plaintext: Some(plaintext) },
    ]);
    let mut secret = [0u8; 32];
    session_rng().map_err(|e| e.to_string())?.fill_bytes(&mut secret);
    let barrier = Arc::new(tokio::sync::Barrier::new(3));

    let cpu_before = process_cpu_ms();
    let results: Vec<PartyResult> = run_party_threads(3, move |p| {
        let (connect, inputs, barrier) = (connect.clone(), inputs.clone(), barrier.clone());
        async move {
            let started = Instant::now();
            let spec =
                AesSpec { protocol: AesProtocol::Maestro { variant, security }, ..default_spec(batch) };
            let input = inputs[p].clone();
            let lined_up = async move {
                barrier.wait().await;
            };
            let outcome = match connect {
                Connect::Tcp(listeners, addrs) => {
                    let std_listener =
                        listeners.lock().expect("listener list").get_mut(p).and_then(Option::take);
                    let listener = tokio::net::TcpListener::from_std(std_listener.ok_or("listener missing")?)
                        .map_err(|e| e.to_string())?;
                    let config = TcpConfig { connect_timeout: TIMEOUT, ..TcpConfig::default() };
                    let (net, flush) = TcpNetwork::establish(p, listener, &addrs, &config)
                        .await
                        .map_err(|e| e.to_string())?;
                    let session = b"chorus/bench/tcp".to_vec();
                    let outcome = run_aes_party(net, &session, &secret, &spec, input, lined_up).await;
                    flush.finish(Duration::from_secs(10)).await;
                    outcome
                }
                Connect::Memory(nets) => {
                    let net = nets.lock().expect("network list").get_mut(p).and_then(Option::take);
                    let session = b"chorus/bench/memory".to_vec();
                    run_aes_party(net.ok_or("network missing")?, &session, &secret, &spec, input, lined_up)
                        .await
                }
                Connect::Relay(address, room) => {
                    let (net, mut handle) =
                        RelayNetwork::join(&address, &room.room, p, &room.tokens[p], TIMEOUT)
                            .await
                            .map_err(|e| e.to_string())?;
                    let session = room_session_id(&room.room, 0);
                    let outcome = run_aes_party(net, &session, &secret, &spec, input, lined_up).await;
                    if outcome.is_ok() {
                        handle.job_done();
                    }
                    handle.close(Duration::from_secs(10)).await;
                    outcome
                }
            };
            outcome.map(|o| (o, started)).map_err(|e: JobRunError| format!("party {p}: {e}"))
        }
    });
    let cpu_ms = process_cpu_ms().zip(cpu_before).map(|(after, before)| after - before);
    let outcomes = results.into_iter().collect::<Result<Vec<_>, _>>()?;

    for (p, (o, _)) in outcomes.iter().enumerate() {
        if o.output.ciphertext.as_deref() != Some(expected.as_flattened()) {
            return Err(format!(
                "{}, {transport}, batch {batch}: party {p} got a wrong ciphertext",
                variant.name()
            ));
        }
    }
    let first_start = outcomes.iter().map(|(o, _)| o.job_started).min().expect("three parties");
    let last_end = outcomes.iter().map(|(o, _)| o.job_started + o.job).max().expect("three parties");
    let runtime = last_end - first_start;
    let online_start = outcomes.iter().map(|(o, _)| o.online_started).max().expect("three parties");
    let online = last_end - online_start;
    let max =
        |f: &dyn Fn(&PartyOutcome) -> u64| outcomes.iter().map(|(o, _)| f(o)).max().expect("three parties");
    let total = last_end - outcomes.iter().map(|(_, started)| *started).min().expect("three parties");
    let setup = outcomes.iter().map(|(o, started)| o.job_started - *started).max().expect("three parties");
    Ok(Line {
        protocol: "maestro",
        variant: variant.name(),
        security: security.name(),
        parties: 3,
        transport,
        batch,
        runtime_ms: runtime.as_secs_f64() * 1e3,
        blocks_per_s: batch as f64 / runtime.as_secs_f64(),
        online_ms: online.as_secs_f64() * 1e3,
        online_blocks_per_s: batch as f64 / online.as_secs_f64(),
        total_ms: total.as_secs_f64() * 1e3,
        setup_ms: setup.as_secs_f64() * 1e3,
        cpu_ms,
        bytes_per_party: max(&|o| o.output.stats.bytes_sent),
        rounds: max(&|o| o.output.stats.rounds),
        aes_bytes_per_party: max(&|o| o.output.online_stats.bytes_sent),
        aes_rounds: max(&|o| o.output.online_stats.rounds),
        preprocessing_bytes_per_party: max(&|o| o.output.preprocessing_stats.bytes_sent),
        preprocessing_rounds: max(&|o| o.output.preprocessing_stats.rounds),
        transport_bytes_per_party: max(&|o| o.transport.bytes_sent),
        reps: 1,
    })
}

/// CPU time (user + system) of this process so far, from `/proc/self/stat` (Linux only; clock
/// ticks of 1/100 s, the kernel's `USER_HZ` on every Linux platform in use).
fn process_cpu_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesized command name; utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks = |i: usize| fields.get(i - 3)?.parse::<u64>().ok();
    Some((ticks(14)? + ticks(15)?) as f64 * 10.0)
}
