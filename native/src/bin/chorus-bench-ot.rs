//! `chorus-bench-ot`: the OT engine of `chorus-core` (`chorus_core::ot`) between two local parties
//! over a TCP loopback mesh with Noise channels, as in a real session. One JSON line per
//! measurement:
//!
//! ```text
//! {"bench":"base-ot","count":128,"ms":…,"cpu_ms":…,"bytes_sender":…,"bytes_receiver":…,"rounds":…}
//! {"bench":"ot-extension","kind":"correlated"|"random","count":…,"ms":…,"ots_per_s":…,
//!  "cpu_ms":…,"bytes_per_ot":…,"rounds":…}
//! ```
//!
//! - `base-ot`: the extension's setup — 128 maliciously secure base OTs (Masny–Rindal over
//!   Ristretto255) and the sender's first coin commitment.
//! - `ot-extension`: one KOS15 extension of `count` OTs after the setup, its consistency check
//!   included; `correlated` returns `q_j` / `t_j = q_j ⊕ r_j·Δ`, `random` hashes them into
//!   independent message pairs. `ots_per_s` is `count` over the wall time (both parties take part
//!   in every OT, so it is also the rate per party), `bytes_per_ot` both directions' payload bytes
//!   over `count`, `cpu_ms` both party threads' CPU time.
//!
//! - `tinytable-aes-ot`: **whole two-party malicious AES-128 with no dealer**: the OT setup
//!   (256 base OTs), TinyOT triples and bits over OT extension, Fig. 8 tables with k = 64 lookup
//!   MACs, and the malicious online phase, all timed (`--aes-blocks`; party 0 holds the key,
//!   party 1 the plaintexts; the project's AES-128 circuit). `mode: "amortized"` makes one batch
//!   of `blocks`, `"sequential"` preprocesses and encrypts one block after another after one
//!   setup. `ms_per_aes` is the whole wall time over `blocks`, `mb_per_aes` both parties' payload
//!   bytes over `blocks`; `setup_ms`, `prep_ms` and `online_ms` split the wall time.
//!
//! ```text
//! {"bench":"tinytable-aes-ot","mode":…,"blocks":…,"ms_per_aes":…,"mb_per_aes":…,"setup_ms":…,
//!  "prep_ms":…,"online_ms":…,"cpu_ms":…,"rounds":…}
//! ```
//!
//! Every run checks its outputs (the receiver's blocks against the sender's) and exits with 1 on
//! a mismatch. With `--reps n` (default 3) each configuration runs n times and the median wall time
//! is printed.

use chorus_core::aes::Aes;
use chorus_core::circuit::aes_bristol::{output_bytes, value_bits};
use chorus_core::circuit::{aes_gen, Circuit};
use chorus_core::net::{NetStats, Network};
use chorus_core::ot::{Block, OtExtReceiver, OtExtSender};
use chorus_core::proto::tinytable::{
    evaluate_malicious, fig8_malicious, IoSpec, OtTinyOt, PlannedCircuit, Reveal,
};
use chorus_core::rng::session_rng;
use chorus_native::loopback::{thread_cpu_time, LoopbackMesh};
use chorus_native::threads::run_party_threads;
use clap::Parser;
use rand_core::RngCore;
use serde::Serialize;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(60);
const SESSION: &[u8] = b"chorus/bench/ot";

/// Benchmarks base OT and KOS15 OT extension between two local parties.
#[derive(Parser, Debug)]
#[command(name = "chorus-bench-ot", version)]
struct Args {
    /// Numbers of OTs per extension.
    #[arg(long, value_delimiter = ',', default_value = "1000000,10000000")]
    counts: Vec<usize>,
    /// Kinds of extension output: correlated, random.
    #[arg(long, value_delimiter = ',', default_value = "correlated,random")]
    kinds: Vec<String>,
    /// Blocks of the whole-AES runs (0 or an empty list skips them).
    #[arg(long, value_delimiter = ',', default_value = "1,256")]
    aes_blocks: Vec<usize>,
    /// Modes of the whole-AES runs: amortized, sequential.
    #[arg(long, value_delimiter = ',', default_value = "amortized,sequential")]
    aes_modes: Vec<String>,
    /// Runs per configuration (the median is printed).
    #[arg(long, default_value_t = 3)]
    reps: usize,
}

#[derive(Serialize)]
struct BaseLine {
    bench: &'static str,
    count: usize,
    ms: f64,
    cpu_ms: Option<f64>,
    bytes_sender: u64,
    bytes_receiver: u64,
    rounds: u64,
}

#[derive(Serialize)]
struct ExtLine {
    bench: &'static str,
    kind: String,
    count: usize,
    ms: f64,
    ots_per_s: f64,
    cpu_ms: Option<f64>,
    bytes_per_ot: f64,
    rounds: u64,
}

/// One party's measurement, and its outputs for the cross-check (the sender's: the block the
/// receiver must hold for each OT; the receiver's: the blocks it holds).
struct PartyRun {
    setup: Duration,
    setup_cpu: Option<Duration>,
    setup_bytes: u64,
    setup_rounds: u64,
    ext: Duration,
    ext_cpu: Option<Duration>,
    ext_bytes: u64,
    ext_rounds: u64,
    outputs: Vec<Block>,
}

/// The sender's part: setup, one extension, the blocks the receiver must hold.
async fn sender<N: Network>(
    net: &mut N,
    kind: &str,
    choices: &[bool],
    marks: &mut Marks,
) -> Result<Vec<Block>, String> {
    let mut rng = session_rng().map_err(|e| e.to_string())?;
    let mut s = OtExtSender::setup(net, 1, SESSION, &mut rng).await.map_err(|e| e.to_string())?;
    marks.setup_done(net);
    if kind == "random" {
        let pairs = s.extend_random(net, choices.len(), &mut rng).await.map_err(|e| e.to_string())?;
        marks.ext_done(net);
        Ok(pairs.iter().zip(choices).map(|(m, &c)| m[c as usize]).collect())
    } else {
        let q = s.extend_correlated(net, choices.len(), &mut rng).await.map_err(|e| e.to_string())?;
        marks.ext_done(net);
        let delta = s.delta();
        Ok(q.iter().zip(choices).map(|(&q, &c)| q ^ if c { delta } else { 0 }).collect())
    }
}

/// The receiver's part: setup, one extension, its blocks.
async fn receiver<N: Network>(
    net: &mut N,
    kind: &str,
    choices: &[bool],
    marks: &mut Marks,
) -> Result<Vec<Block>, String> {
    let mut rng = session_rng().map_err(|e| e.to_string())?;
    let mut r = OtExtReceiver::setup(net, 0, SESSION, &mut rng).await.map_err(|e| e.to_string())?;
    marks.setup_done(net);
    let out = if kind == "random" {
        r.extend_random(net, choices, &mut rng).await
    } else {
        r.extend_correlated(net, choices, &mut rng).await
    };
    let out = out.map_err(|e| e.to_string())?;
    marks.ext_done(net);
    Ok(out)
}

/// A point in one party's run: wall clock, thread CPU time, network counters.
type Mark = (Instant, Option<Duration>, NetStats);

fn mark(net: &impl Network) -> Mark {
    (Instant::now(), thread_cpu_time(), net.stats())
}

/// One party's marks: start, setup done, extension done.
struct Marks {
    start: Mark,
    setup: Option<Mark>,
    ext: Option<Mark>,
}

impl Marks {
    fn new(net: &impl Network) -> Self {
        Marks { start: mark(net), setup: None, ext: None }
    }
    fn setup_done(&mut self, net: &impl Network) {
        self.setup = Some(mark(net));
    }
    fn ext_done(&mut self, net: &impl Network) {
        self.ext = Some(mark(net));
    }
    fn into_run(self, outputs: Vec<Block>) -> PartyRun {
        let (t0, c0, s0) = self.start;
        let (t1, c1, s1) = self.setup.expect("setup marked");
        let (t2, c2, s2) = self.ext.expect("extension marked");
        let cpu = |a: Option<Duration>, b: Option<Duration>| a.zip(b).map(|(a, b)| a.saturating_sub(b));
        PartyRun {
            setup: t1 - t0,
            setup_cpu: cpu(c1, c0),
            setup_bytes: s1.bytes_sent - s0.bytes_sent,
            setup_rounds: s1.rounds - s0.rounds,
            ext: t2 - t1,
            ext_cpu: cpu(c2, c1),
            ext_bytes: s2.bytes_sent - s1.bytes_sent,
            ext_rounds: s2.rounds - s1.rounds,
            outputs,
        }
    }
}

fn run(kind: &str, count: usize) -> Result<[PartyRun; 2], String> {
    let mesh = LoopbackMesh::new(2)?;
    let mut rng = session_rng().map_err(|e| e.to_string())?;
    let mut secret = [0u8; 32];
    rng.fill_bytes(&mut secret);
    // The receiver's choice bits; the sender's thread reads them too, only to cross-check.
    let choices: Arc<Vec<bool>> = Arc::new((0..count).map(|_| rng.next_u32() & 1 == 1).collect());
    let barrier = Arc::new(tokio::sync::Barrier::new(2));
    let shared_kind = kind.to_string();
    let results = run_party_threads(2, move |p| {
        let (mesh, barrier, kind, choices) =
            (mesh.clone(), barrier.clone(), shared_kind.clone(), choices.clone());
        async move {
            let (mut net, flush) = mesh.connect(p, SESSION, &secret, TIMEOUT).await?;
            barrier.wait().await;
            let mut marks = Marks::new(&net);
            let outputs = if p == 0 {
                sender(&mut net, &kind, &choices, &mut marks).await?
            } else {
                receiver(&mut net, &kind, &choices, &mut marks).await?
            };
            let run = marks.into_run(outputs);
            drop(net);
            flush.finish(Duration::from_secs(10)).await;
            Ok::<_, String>(run)
        }
    });
    let [a, b]: [Result<PartyRun, String>; 2] = results.try_into().map_err(|_| "two parties".to_string())?;
    let (a, b) = (a?, b?);
    if a.outputs != b.outputs {
        return Err(format!("{kind}, {count} OTs: the receiver's outputs do not match the sender's"));
    }
    Ok([a, b])
}

fn median_run(kind: &str, count: usize, reps: usize) -> Result<[PartyRun; 2], String> {
    let mut runs = (0..reps.max(1)).map(|_| run(kind, count)).collect::<Result<Vec<_>, _>>()?;
    runs.sort_by_key(|r| r[0].ext.max(r[1].ext));
    let mid = runs.len() / 2;
    Ok(runs.swap_remove(mid))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn sum_cpu(a: Option<Duration>, b: Option<Duration>) -> Option<f64> {
    a.zip(b).map(|(a, b)| ms(a + b))
}

#[derive(Serialize)]
struct AesLine {
    bench: &'static str,
    mode: String,
    blocks: usize,
    ms_per_aes: f64,
    mb_per_aes: f64,
    setup_ms: f64,
    prep_ms: f64,
    online_ms: f64,
    cpu_ms: Option<f64>,
    rounds: u64,
}

/// One party's whole-AES run: wall times of setup, preprocessing and online, CPU, bytes, rounds
/// and the ciphertexts.
struct AesRun {
    setup: Duration,
    prep: Duration,
    online: Duration,
    cpu: Option<Duration>,
    bytes: u64,
    rounds: u64,
    ciphertexts: Vec<[u8; 16]>,
}

async fn aes_party<N: Network>(
    net: &mut N,
    circuit: &Circuit,
    batches: &[usize],
    key: &[u8; 16],
    plaintexts: &[[u8; 16]],
) -> Result<AesRun, String> {
    // The evaluation plan depends on the public circuit only: made once, outside the timed parts.
    let planned = PlannedCircuit::new(circuit);
    let party = net.party();
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
    let (start, cpu0, s0) = mark(net);
    let mut source = OtTinyOt::<u64>::setup(net, SESSION, session_rng().map_err(|e| e.to_string())?)
        .await
        .map_err(|e| e.to_string())?;
    let setup = start.elapsed();
    let (mut prep, mut online) = (Duration::ZERO, Duration::ZERO);
    let mut ciphertexts = Vec::with_capacity(plaintexts.len());
    let mut next = 0;
    for &n in batches {
        let t = Instant::now();
        let material = fig8_malicious(net, &mut source, circuit, &io, n).await.map_err(|e| e.to_string())?;
        prep += t.elapsed();
        let t = Instant::now();
        let inputs: Vec<Vec<Vec<bool>>> = plaintexts[next..next + n]
            .iter()
            .map(|b| vec![value_bits(if party == 0 { key } else { b })])
            .collect();
        let out = evaluate_malicious(net, &planned, &material, &inputs).await.map_err(|e| e.to_string())?;
        online += t.elapsed();
        for instance in out {
            let bits = instance.into_iter().next().flatten().unwrap_or_default();
            ciphertexts.push(output_bytes(&bits).unwrap_or_default());
        }
        next += n;
    }
    let (_, cpu1, s1) = mark(net);
    Ok(AesRun {
        setup,
        prep,
        online,
        cpu: cpu1.zip(cpu0).map(|(a, b)| a.saturating_sub(b)),
        bytes: s1.bytes_sent - s0.bytes_sent,
        rounds: s1.rounds - s0.rounds,
        ciphertexts,
    })
}

fn run_aes(circuit: &Arc<Circuit>, mode: &str, blocks: usize) -> Result<[AesRun; 2], String> {
    let mesh = LoopbackMesh::new(2)?;
    let mut rng = session_rng().map_err(|e| e.to_string())?;
    let mut secret = [0u8; 32];
    rng.fill_bytes(&mut secret);
    let mut key = [0u8; 16];
    rng.fill_bytes(&mut key);
    let plaintexts: Vec<[u8; 16]> = (0..blocks)
        .map(|_| {
            let mut b = [0u8; 16];
            rng.fill_bytes(&mut b);
            b
        })
        .collect();
    let mut expected = plaintexts.clone();
    Aes::new(&key).map_err(|e| e.to_string())?.encrypt_blocks(&mut expected);
    let batches: Arc<Vec<usize>> =
        Arc::new(if mode == "sequential" { vec![1; blocks] } else { vec![blocks] });
    let barrier = Arc::new(tokio::sync::Barrier::new(2));
    let plaintexts = Arc::new(plaintexts);
    let circuit = circuit.clone();
    let results = run_party_threads(2, move |p| {
        let (mesh, barrier, batches, plaintexts, circuit) =
            (mesh.clone(), barrier.clone(), batches.clone(), plaintexts.clone(), circuit.clone());
        async move {
            let (mut net, flush) = mesh.connect(p, SESSION, &secret, TIMEOUT).await?;
            barrier.wait().await;
            let run = aes_party(&mut net, &circuit, &batches, &key, &plaintexts).await?;
            drop(net);
            flush.finish(Duration::from_secs(10)).await;
            Ok::<_, String>(run)
        }
    });
    let [a, b]: [Result<AesRun, String>; 2] = results.try_into().map_err(|_| "two parties".to_string())?;
    let (a, b) = (a?, b?);
    for (p, run) in [&a, &b].into_iter().enumerate() {
        if run.ciphertexts != expected {
            return Err(format!("{mode}, {blocks} blocks: party {p} got a wrong ciphertext"));
        }
    }
    Ok([a, b])
}

fn print_aes(args: &Args) -> Result<(), String> {
    let circuit = Arc::new(aes_gen::aes128_circuit().map_err(|e| e.to_string())?);
    for mode in &args.aes_modes {
        if mode != "amortized" && mode != "sequential" {
            return Err(format!("unknown --aes-modes value '{mode}' (amortized, sequential)"));
        }
        for &blocks in args.aes_blocks.iter().filter(|&&b| b > 0) {
            let mut runs = (0..args.reps.max(1))
                .map(|_| run_aes(&circuit, mode, blocks))
                .collect::<Result<Vec<_>, _>>()?;
            let total =
                |r: &[AesRun; 2]| r.iter().map(|x| x.setup + x.prep + x.online).max().unwrap_or_default();
            runs.sort_by_key(total);
            let mid = runs.len() / 2;
            let [a, b] = runs.swap_remove(mid);
            let wall = (a.setup + a.prep + a.online).max(b.setup + b.prep + b.online);
            let line = AesLine {
                bench: "tinytable-aes-ot",
                mode: mode.clone(),
                blocks,
                ms_per_aes: ms(wall) / blocks as f64,
                mb_per_aes: (a.bytes + b.bytes) as f64 / 1e6 / blocks as f64,
                setup_ms: ms(a.setup.max(b.setup)),
                prep_ms: ms(a.prep.max(b.prep)),
                online_ms: ms(a.online.max(b.online)),
                cpu_ms: sum_cpu(a.cpu, b.cpu),
                rounds: a.rounds.max(b.rounds),
            };
            println!("{}", serde_json::to_string(&line).expect("serializable"));
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut base_printed = false;
    for kind in &args.kinds {
        if kind != "correlated" && kind != "random" {
            eprintln!("unknown --kinds value '{kind}' (correlated, random)");
            return ExitCode::from(2);
        }
        for &count in &args.counts {
            let [s, r] = match median_run(kind, count, args.reps) {
                Ok(runs) => runs,
                Err(e) => {
                    eprintln!("chorus-bench-ot: {e}");
                    return ExitCode::from(1);
                }
            };
            if !base_printed {
                base_printed = true;
                let line = BaseLine {
                    bench: "base-ot",
                    count: 128,
                    ms: ms(s.setup.max(r.setup)),
                    cpu_ms: sum_cpu(s.setup_cpu, r.setup_cpu),
                    bytes_sender: s.setup_bytes,
                    bytes_receiver: r.setup_bytes,
                    rounds: s.setup_rounds.max(r.setup_rounds),
                };
                println!("{}", serde_json::to_string(&line).expect("serializable"));
            }
            let wall = s.ext.max(r.ext);
            let line = ExtLine {
                bench: "ot-extension",
                kind: kind.clone(),
                count,
                ms: ms(wall),
                ots_per_s: count as f64 / wall.as_secs_f64(),
                cpu_ms: sum_cpu(s.ext_cpu, r.ext_cpu),
                bytes_per_ot: (s.ext_bytes + r.ext_bytes) as f64 / count as f64,
                rounds: s.ext_rounds.max(r.ext_rounds),
            };
            println!("{}", serde_json::to_string(&line).expect("serializable"));
        }
    }
    if let Err(e) = print_aes(&args) {
        eprintln!("chorus-bench-ot: {e}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
