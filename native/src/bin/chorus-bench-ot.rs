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
//! - `tinyot`: TinyOT over SoftSpoken OT extension (TinyTable's `prep::tinyot::EXTENSION`),
//!   after its setup (`--tinyot-counts`, `--tinyot-kinds`): `abits` makes `count` random
//!   authenticated bits, `triples` `count` AND triples as TinyTable takes them (kept and checked
//!   at 64 bits, `TinyOt::and_triples_low64_as`), `triples-128` the same with 128-bit MACs (as
//!   MiniMac and Coral take them). `per_s` is `count` over the wall time, `bytes_per_item` both
//!   parties' payload bytes over `count`. Every output's MACs (and every triple's product) are
//!   checked across the two parties.
//!
//! ```text
//! {"bench":"tinyot","kind":"abits"|"triples"|"triples-128","count":…,"ms":…,"per_s":…,
//!  "cpu_ms":…,"bytes_per_item":…,"rounds":…}
//! ```
//!
//! - `tinytable-aes-ot`: **whole two-party malicious AES-128 with no dealer**: the OT setup
//!   (256 base OTs), TinyOT triples and bits over SoftSpoken OT extension (TinyTable's
//!   `prep::tinyot::EXTENSION`), Fig. 8 tables with k = 64 lookup
//!   MACs, and the malicious online phase, all timed (`--aes-blocks`; party 0 holds the key,
//!   party 1 the plaintexts; the project's AES-128 circuit). `mode: "amortized"` makes one batch
//!   of `blocks`, `"sequential"` preprocesses and encrypts one block after another after one
//!   setup. `ms_per_aes` is the whole wall time over `blocks`, `mb_per_aes` both parties' payload
//!   bytes over `blocks`; `setup_ms`, `prep_ms` and `online_ms` split the wall time.
//!
//!   With `--aes-paths sbox-tables` the same on TinyTable's S-box-table path: the §4 construction
//!   of the 160 authenticated S-box tables per block over TinyOT bits and triples
//!   (`chorus_core::jobs::tinytable::sbox_ot`), then the §3 malicious online phase.
//!
//! ```text
//! {"bench":"tinytable-aes-ot","path":"circuit"|"sbox-tables","mode":…,"blocks":…,"ms_per_aes":…,
//!  "mb_per_aes":…,"setup_ms":…,"prep_ms":…,"online_ms":…,"cpu_ms":…,"rounds":…}
//! ```
//!
//! Every run checks its outputs (the receiver's blocks against the sender's) and exits with 1 on
//! a mismatch. With `--reps n` (default 3) each configuration runs n times and the median wall time
//! is printed.

use chorus_core::aes::{Aes, Direction};
use chorus_core::circuit::aes_bristol::{output_bytes, value_bits};
use chorus_core::circuit::{aes_gen, Circuit};
use chorus_core::jobs::tinytable::sbox_ot;
use chorus_core::net::Network;
use chorus_core::ot::{ABit, Block, OtExtReceiver, OtExtSender, TinyOt};
use chorus_core::proto::tinytable::{
    evaluate_malicious, fig8_malicious, prep::tinyot::EXTENSION as TINYTABLE_EXTENSION,
    sbox::malicious as sbox_malicious, IoSpec, OtTinyOt, PlannedCircuit, Reveal,
};
use chorus_core::rng::session_rng;
use chorus_native::bench_harness::{
    median_run, ms, print_json_line, random_blocks, run_loopback_session, LoopbackParty, Mark, Span, Summary,
};
use clap::Parser;
use rand_core::RngCore;
use serde::Serialize;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(60);
const SESSION: &[u8] = b"chorus/bench/ot";
/// The S-box path's §3.3 hash key (public; the jobs derive theirs from the spec digest).
const HASH_KEY: [u8; 16] = *b"chorus/bench/ot.";

/// Benchmarks base OT, KOS15 OT extension, TinyOT and whole two-party AES between two local
/// parties.
#[derive(Parser, Debug)]
#[command(name = "chorus-bench-ot", version)]
struct Args {
    /// Numbers of OTs per extension.
    #[arg(long, value_delimiter = ',', default_value = "1000000,10000000")]
    counts: Vec<usize>,
    /// Kinds of extension output: correlated, random.
    #[arg(long, value_delimiter = ',', default_value = "correlated,random")]
    kinds: Vec<String>,
    /// Numbers of TinyOT outputs per run (0 or an empty list skips them).
    #[arg(long, value_delimiter = ',', default_value = "1000000")]
    tinyot_counts: Vec<usize>,
    /// Kinds of TinyOT output: abits, triples, triples-128.
    #[arg(long, value_delimiter = ',', default_value = "abits,triples")]
    tinyot_kinds: Vec<String>,
    /// Blocks of the whole-AES runs (0 or an empty list skips them).
    #[arg(long, value_delimiter = ',', default_value = "1,256")]
    aes_blocks: Vec<usize>,
    /// TinyTable AES paths of the whole-AES runs: circuit, sbox-tables.
    #[arg(long, value_delimiter = ',', default_value = "circuit")]
    aes_paths: Vec<String>,
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
    setup: Span,
    ext: Span,
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

/// One party's marks: start, setup done, extension done.
struct Marks {
    start: Mark,
    setup: Option<Mark>,
    ext: Option<Mark>,
}

impl Marks {
    fn new(start: Mark) -> Self {
        Marks { start, setup: None, ext: None }
    }
    fn setup_done(&mut self, net: &impl Network) {
        self.setup = Some(Mark::now(net));
    }
    fn ext_done(&mut self, net: &impl Network) {
        self.ext = Some(Mark::now(net));
    }
    fn into_run(self, outputs: Vec<Block>) -> PartyRun {
        let setup = self.setup.expect("setup marked");
        let ext = self.ext.expect("extension marked");
        PartyRun { setup: self.start.to(&setup), ext: setup.to(&ext), outputs }
    }
}

fn run(kind: &str, count: usize) -> Result<[PartyRun; 2], String> {
    let mut rng = session_rng().map_err(|e| e.to_string())?;
    // The receiver's choice bits; the sender's thread reads them too, only to cross-check.
    let choices: Arc<Vec<bool>> = Arc::new((0..count).map(|_| rng.next_u32() & 1 == 1).collect());
    let shared_kind = kind.to_string();
    let runs = run_loopback_session(2, SESSION, TIMEOUT, move |mut local| async move {
        let mut marks = Marks::new(local.start().await);
        let outputs = if local.party == 0 {
            sender(&mut local.net, &shared_kind, &choices, &mut marks).await?
        } else {
            receiver(&mut local.net, &shared_kind, &choices, &mut marks).await?
        };
        Ok::<_, String>(marks.into_run(outputs))
    })?;
    let [a, b]: [PartyRun; 2] = runs.try_into().map_err(|_| "two parties".to_string())?;
    if a.outputs != b.outputs {
        return Err(format!("{kind}, {count} OTs: the receiver's outputs do not match the sender's"));
    }
    Ok([a, b])
}

fn median_run_ot(kind: &str, count: usize, reps: usize) -> Result<[PartyRun; 2], String> {
    median_run(reps, |r: &[PartyRun; 2]| ms(r[0].ext.wall.max(r[1].ext.wall)), || run(kind, count))
}

#[derive(Serialize)]
struct TinyOtLine {
    bench: &'static str,
    kind: String,
    count: usize,
    ms: f64,
    per_s: f64,
    cpu_ms: Option<f64>,
    bytes_per_item: f64,
    rounds: u64,
}

/// One party's TinyOT run: the span after setup, its `Δ` and its outputs (an authenticated bit
/// fills all three entries of its item).
struct TinyOtRun {
    span: Span,
    delta: Block,
    items: Vec<[ABit; 3]>,
}

async fn tinyot_party(local: &mut LoopbackParty, kind: &str, count: usize) -> Result<TinyOtRun, String> {
    let net = &mut local.net;
    let mut rng = session_rng().map_err(|e| e.to_string())?;
    let mut t =
        TinyOt::setup_with(net, SESSION, TINYTABLE_EXTENSION, &mut rng).await.map_err(|e| e.to_string())?;
    let start = local.start().await;
    let net = &mut local.net;
    let items = match kind {
        "abits" => t.abits(net, count, &mut rng).await.map(|v| v.into_iter().map(|a| [a; 3]).collect()),
        "triples" => t.and_triples_low64_as(net, count, &mut rng, |t| t).await,
        _ => t.and_triples(net, count, &mut rng).await,
    };
    let items = items.map_err(|e| e.to_string())?;
    Ok(TinyOtRun { span: start.span(net), delta: t.delta(), items })
}

/// Checks the two parties' outputs: every MAC under the peer's `Δ` (its low 64 bits for
/// `triples`), and `z = x·y` for triples.
fn check_tinyot(kind: &str, a: &TinyOtRun, b: &TinyOtRun) -> Result<(), String> {
    let width = if kind == "triples" { u64::MAX as Block } else { Block::MAX };
    let (da, db) = (a.delta & width, b.delta & width);
    let open = |x: &ABit, y: &ABit| {
        let ok = x.mac == y.key ^ if x.bit { db } else { 0 } && y.mac == x.key ^ if y.bit { da } else { 0 };
        ok.then_some(x.bit ^ y.bit)
    };
    for (i, (ta, tb)) in a.items.iter().zip(&b.items).enumerate() {
        let bits: Option<Vec<bool>> = ta.iter().zip(tb).map(|(x, y)| open(x, y)).collect();
        let Some(bits) = bits else {
            return Err(format!("tinyot {kind}: output {i} carries a wrong MAC"));
        };
        if kind != "abits" && bits[2] != bits[0] & bits[1] {
            return Err(format!("tinyot {kind}: triple {i} does not multiply"));
        }
    }
    Ok(())
}

fn run_tinyot(kind: &str, count: usize) -> Result<[TinyOtRun; 2], String> {
    let shared_kind = kind.to_string();
    let runs = run_loopback_session(2, SESSION, TIMEOUT, move |mut local| async move {
        tinyot_party(&mut local, &shared_kind, count).await
    })?;
    let [a, b]: [TinyOtRun; 2] = runs.try_into().map_err(|_| "two parties".to_string())?;
    if a.items.len() != count || b.items.len() != count {
        return Err(format!(
            "tinyot {kind}: {count} outputs asked, {} and {} made",
            a.items.len(),
            b.items.len()
        ));
    }
    check_tinyot(kind, &a, &b)?;
    Ok([a, b])
}

fn print_tinyot(args: &Args) -> Result<(), String> {
    for kind in &args.tinyot_kinds {
        if !["abits", "triples", "triples-128"].contains(&kind.as_str()) {
            return Err(format!("unknown --tinyot-kinds value '{kind}' (abits, triples, triples-128)"));
        }
        for &count in args.tinyot_counts.iter().filter(|&&c| c > 0) {
            let [a, b] = median_run(
                args.reps,
                |r: &[TinyOtRun; 2]| ms(r[0].span.wall.max(r[1].span.wall)),
                || run_tinyot(kind, count),
            )?;
            let span = Summary::of([&a.span, &b.span]).expect("two parties");
            print_json_line(&TinyOtLine {
                bench: "tinyot",
                kind: kind.clone(),
                count,
                ms: span.wall_ms(),
                per_s: count as f64 / span.wall.as_secs_f64(),
                cpu_ms: span.cpu_ms(),
                bytes_per_item: span.total_bytes_sent as f64 / count as f64,
                rounds: span.rounds,
            });
        }
    }
    Ok(())
}

#[derive(Serialize)]
struct AesLine {
    bench: &'static str,
    path: String,
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

/// One party's whole-AES run: wall times of setup, preprocessing and online, the whole run's
/// span (CPU, bytes, rounds) and the ciphertexts.
struct AesRun {
    setup: Duration,
    prep: Duration,
    online: Duration,
    whole: Span,
    ciphertexts: Vec<[u8; 16]>,
}

async fn aes_party<N: Network>(
    net: &mut N,
    circuit: Option<&Circuit>,
    batches: &[usize],
    key: &[u8; 16],
    plaintexts: &[[u8; 16]],
) -> Result<AesRun, String> {
    // The evaluation plan depends on the public circuit only: made once, outside the timed parts.
    let planned = circuit.map(PlannedCircuit::new);
    let party = net.party();
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
    let start = Mark::now(net);
    let mut source = OtTinyOt::<u64>::setup(net, SESSION, session_rng().map_err(|e| e.to_string())?)
        .await
        .map_err(|e| e.to_string())?;
    let setup = start.elapsed();
    let (mut prep, mut online) = (Duration::ZERO, Duration::ZERO);
    let mut ciphertexts = Vec::with_capacity(plaintexts.len());
    let mut next = 0;
    for &n in batches {
        let (Some(circuit), Some(planned)) = (circuit, planned.as_ref()) else {
            // The S-box-table path: key owner party 0, ciphertexts to both.
            let t = Instant::now();
            let material = sbox_ot::build_tables(
                net,
                &mut source,
                Direction::Encrypt,
                (0, false),
                Reveal::Both,
                n,
                HASH_KEY,
                sbox_ot::CHUNK_BLOCKS,
            )
            .await
            .map_err(|e| e.to_string())?;
            prep += t.elapsed();
            let t = Instant::now();
            let inputs: Vec<[u8; 16]> =
                if party == 0 { vec![*key; n] } else { plaintexts[next..next + n].to_vec() };
            let out =
                sbox_malicious::encrypt_batch(net, &material, &inputs).await.map_err(|e| e.to_string())?;
            online += t.elapsed();
            ciphertexts.extend(out.into_iter().map(Option::unwrap_or_default));
            next += n;
            continue;
        };
        let t = Instant::now();
        let material = fig8_malicious(net, &mut source, circuit, &io, n).await.map_err(|e| e.to_string())?;
        prep += t.elapsed();
        let t = Instant::now();
        let inputs: Vec<Vec<Vec<bool>>> = plaintexts[next..next + n]
            .iter()
            .map(|b| vec![value_bits(if party == 0 { key } else { b })])
            .collect();
        let out = evaluate_malicious(net, planned, &material, &inputs).await.map_err(|e| e.to_string())?;
        online += t.elapsed();
        for instance in out {
            let bits = instance.into_iter().next().flatten().unwrap_or_default();
            ciphertexts.push(output_bytes(&bits).unwrap_or_default());
        }
        next += n;
    }
    Ok(AesRun { setup, prep, online, whole: start.span(net), ciphertexts })
}

fn run_aes(circuit: Option<&Arc<Circuit>>, mode: &str, blocks: usize) -> Result<[AesRun; 2], String> {
    let mut rng = session_rng().map_err(|e| e.to_string())?;
    let key = random_blocks(&mut rng, 1)[0];
    let plaintexts = random_blocks(&mut rng, blocks);
    let mut expected = plaintexts.clone();
    Aes::new(&key).map_err(|e| e.to_string())?.encrypt_blocks(&mut expected);
    let batches: Arc<Vec<usize>> =
        Arc::new(if mode == "sequential" { vec![1; blocks] } else { vec![blocks] });
    let plaintexts = Arc::new(plaintexts);
    let circuit = circuit.cloned();
    let runs = run_loopback_session(2, SESSION, TIMEOUT, move |mut local| async move {
        local.sync().await;
        aes_party(&mut local.net, circuit.as_deref(), &batches, &key, &plaintexts).await
    })?;
    let [a, b]: [AesRun; 2] = runs.try_into().map_err(|_| "two parties".to_string())?;
    for (p, run) in [&a, &b].into_iter().enumerate() {
        if run.ciphertexts != expected {
            return Err(format!("{mode}, {blocks} blocks: party {p} got a wrong ciphertext"));
        }
    }
    Ok([a, b])
}

fn print_aes(args: &Args) -> Result<(), String> {
    let circuit = Arc::new(aes_gen::aes128_circuit().map_err(|e| e.to_string())?);
    for path in &args.aes_paths {
        let circuit = match path.as_str() {
            "circuit" => Some(&circuit),
            "sbox-tables" => None,
            other => return Err(format!("unknown --aes-paths value '{other}' (circuit, sbox-tables)")),
        };
        print_aes_path(args, circuit)?;
    }
    Ok(())
}

fn print_aes_path(args: &Args, circuit: Option<&Arc<Circuit>>) -> Result<(), String> {
    let path = if circuit.is_some() { "circuit" } else { "sbox-tables" };
    for mode in &args.aes_modes {
        if mode != "amortized" && mode != "sequential" {
            return Err(format!("unknown --aes-modes value '{mode}' (amortized, sequential)"));
        }
        for &blocks in args.aes_blocks.iter().filter(|&&b| b > 0) {
            let total = |x: &AesRun| x.setup + x.prep + x.online;
            let [a, b] = median_run(
                args.reps,
                |r: &[AesRun; 2]| ms(r.iter().map(total).max().unwrap_or_default()),
                || run_aes(circuit, mode, blocks),
            )?;
            let wall = total(&a).max(total(&b));
            let whole = Summary::of([&a.whole, &b.whole]).expect("two parties");
            let line = AesLine {
                bench: "tinytable-aes-ot",
                path: path.to_string(),
                mode: mode.clone(),
                blocks,
                ms_per_aes: ms(wall) / blocks as f64,
                mb_per_aes: whole.total_bytes_sent as f64 / 1e6 / blocks as f64,
                setup_ms: ms(a.setup.max(b.setup)),
                prep_ms: ms(a.prep.max(b.prep)),
                online_ms: ms(a.online.max(b.online)),
                cpu_ms: whole.cpu_ms(),
                rounds: whole.rounds,
            };
            print_json_line(&line);
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    chorus_native::alloc_tuning::keep_freed_memory();
    let args = Args::parse();
    let mut base_printed = false;
    for kind in &args.kinds {
        if kind != "correlated" && kind != "random" {
            eprintln!("unknown --kinds value '{kind}' (correlated, random)");
            return ExitCode::from(2);
        }
        for &count in &args.counts {
            let [s, r] = match median_run_ot(kind, count, args.reps) {
                Ok(runs) => runs,
                Err(e) => {
                    eprintln!("chorus-bench-ot: {e}");
                    return ExitCode::from(1);
                }
            };
            if !base_printed {
                base_printed = true;
                let setup = Summary::of([&s.setup, &r.setup]).expect("two parties");
                let line = BaseLine {
                    bench: "base-ot",
                    count: 128,
                    ms: setup.wall_ms(),
                    cpu_ms: setup.cpu_ms(),
                    bytes_sender: s.setup.stats.bytes_sent,
                    bytes_receiver: r.setup.stats.bytes_sent,
                    rounds: setup.rounds,
                };
                print_json_line(&line);
            }
            let ext = Summary::of([&s.ext, &r.ext]).expect("two parties");
            let line = ExtLine {
                bench: "ot-extension",
                kind: kind.clone(),
                count,
                ms: ext.wall_ms(),
                ots_per_s: count as f64 / ext.wall.as_secs_f64(),
                cpu_ms: ext.cpu_ms(),
                bytes_per_ot: ext.total_bytes_sent as f64 / count as f64,
                rounds: ext.rounds,
            };
            print_json_line(&line);
        }
    }
    if let Err(e) = print_tinyot(&args).and_then(|()| print_aes(&args)) {
        eprintln!("chorus-bench-ot: {e}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
