//! `chorus-bench-coral`: Coral (RMFE-packed, maliciously secure) on a Bristol circuit — AES-128
//! (`circuits/aes_128.txt`) by default, or the built-in SHA-256 compression circuit with
//! `--circuit sha256-compression` (Coral's Table 6 pair) — between local parties over a TCP
//! loopback mesh with Noise channels, with **trusted-dealer** (`--prep dealer`, the default) or
//! **two-party OT-based** (`--prep ot`) preprocessing, or both (`--prep both`). One JSON line per
//! batch size and provider:
//!
//! ```text
//! {"protocol":"coral","circuit":"aes_128.txt","preprocessing":"trusted-dealer","transport":"tcp",
//!  "parties":2,"instances":140,"packs":10,"online_ms":…,"us_per_instance":…,"cpu_ms":…,
//!  "cpu_us_per_instance":…,"bytes_per_party":…,"bytes_per_instance":…,"rounds":…,
//!  "dealer_ms":…,"dealer_bytes_per_party":…,"dealer_bytes_per_instance":…,"prep_ms":null,
//!  "prep_ms_per_instance":null,"prep_bytes_per_party":null,"prep_bytes_per_instance":null,
//!  "prep_rounds":null,"reps":3}
//! ```
//!
//! - One online run evaluates all `instances` at once (amortized; 14 instances per pack, the last
//!   pack possibly partial). `online_ms` runs from a barrier after the Noise handshakes until the
//!   slower party returned its outputs, and includes the MAC checks and the output opening;
//!   `us_per_instance` = `online_ms / instances` in µs. `cpu_ms`: CPU time of all party threads
//!   in that region (null where the thread clock is unavailable).
//! - `bytes_per_party`: protocol payload one party sent in the online phase (the maximum over
//!   parties); `rounds` likewise.
//! - `dealer_ms`: the in-process trusted dealer's time to generate every party's material, before
//!   the timed region; `dealer_bytes_per_party`: the material one party receives and stores
//!   (value and MAC shares, 6 bytes each). Null with `--prep ot`.
//! - `prep_ms` (`--prep ot` only): the OT-based provider's run (TinyOT bits and triples, COPE,
//!   checks, Π_rQuintuple) among the party threads over the same TCP mesh (any `--parties`: two
//!   with the two-party TinyOT engine, more with the n-party one), from a barrier until the
//!   slowest party holds its checked material; `prep_bytes_per_party`: what one party sent in it
//!   (the maximum over parties), `prep_rounds` likewise.
//!
//! Inputs: party 0 owns input value 0 (the AES key), party 1 the others (the plaintext blocks);
//! outputs go to everybody and are checked against the plain AES (or, for another circuit,
//! against plaintext evaluation): exit code 1 on a mismatch. With `--reps n` the run with the
//! median `online_ms` is printed.

use chorus_core::aes::Aes;
use chorus_core::circuit::aes_bristol::{output_bytes, value_bits, value_bytes};
use chorus_core::circuit::sha256_gen::sha256_compression_circuit;
use chorus_core::circuit::Circuit;
use chorus_core::proto::coral::{
    circuit_demand, evaluate_circuit, packs, CoralMaterial, CoralParams, OtProvider, Party, Preprocessing,
    TrustedDealer,
};
use chorus_core::rng::{seeded_rng, session_rng};
use chorus_native::bench_harness::{median_run, print_json_line, run_loopback_session, Summary};
use clap::Parser;
use rand_core::RngCore;
use serde::Serialize;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(120);

/// Benchmarks Coral on a Bristol circuit over TCP loopback.
#[derive(Parser, Debug)]
#[command(name = "chorus-bench-coral", version)]
struct Args {
    /// The Bristol Fashion circuit, or `sha256-compression` for the project's own SHA-256
    /// compression circuit (Coral's Table 6; `chorus_core::circuit::sha256_gen`).
    #[arg(long, default_value = "circuits/aes_128.txt")]
    circuit: String,
    /// Batch sizes (instances evaluated at once).
    #[arg(long, value_delimiter = ',', default_value = "14,140,1400")]
    instances: Vec<usize>,
    /// Number of parties.
    #[arg(long, default_value_t = 2)]
    parties: usize,
    /// Runs per batch size (fresh material each); the median `online_ms` is printed.
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Preprocessing: `dealer` (trusted dealer), `ot` (two-party OT-based provider) or `both`.
    #[arg(long, default_value = "dealer")]
    prep: String,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Prep {
    Dealer,
    Ot,
}

#[derive(Serialize, Clone)]
struct Line {
    protocol: &'static str,
    circuit: String,
    preprocessing: &'static str,
    transport: &'static str,
    parties: usize,
    instances: usize,
    packs: usize,
    online_ms: f64,
    us_per_instance: f64,
    cpu_ms: Option<f64>,
    cpu_us_per_instance: Option<f64>,
    bytes_per_party: u64,
    bytes_per_instance: f64,
    rounds: u64,
    dealer_ms: Option<f64>,
    dealer_bytes_per_party: Option<usize>,
    dealer_bytes_per_instance: Option<f64>,
    prep_ms: Option<f64>,
    prep_ms_per_instance: Option<f64>,
    prep_bytes_per_party: Option<u64>,
    prep_bytes_per_instance: Option<f64>,
    prep_rounds: Option<u64>,
    reps: usize,
}

fn main() -> std::process::ExitCode {
    chorus_native::cli::run_main("chorus-bench-coral", |args: Args| run(&args))
}

fn run(args: &Args) -> Result<(), String> {
    if args.reps == 0 || args.instances.contains(&0) || args.parties < 2 {
        return Err("--reps and every batch size must be at least 1, --parties at least 2".into());
    }
    let preps = match args.prep.as_str() {
        "dealer" => vec![Prep::Dealer],
        "ot" => vec![Prep::Ot],
        "both" => vec![Prep::Dealer, Prep::Ot],
        other => return Err(format!("--prep must be dealer, ot or both, not {other}")),
    };
    let (circuit, name) = if args.circuit == SHA256_COMPRESSION {
        (sha256_compression_circuit().map_err(|e| e.to_string())?, SHA256_COMPRESSION.to_string())
    } else {
        let text = std::fs::read_to_string(&args.circuit).map_err(|e| format!("{}: {e}", args.circuit))?;
        let name = std::path::Path::new(&args.circuit)
            .file_name()
            .map_or(args.circuit.clone(), |n| n.to_string_lossy().into());
        (Circuit::parse_bristol(&text).map_err(|e| e.to_string())?, name)
    };
    let circuit = Arc::new(circuit);
    let params = Arc::new(CoralParams::new().map_err(|e| e.to_string())?);
    for &prep in &preps {
        for &instances in &args.instances {
            let mut line = median_run(
                args.reps,
                |line: &Line| line.online_ms,
                || run_once(&circuit, &params, &name, args.parties, instances, prep),
            )?;
            line.reps = args.reps;
            print_json_line(&line);
        }
    }
    Ok(())
}

/// The `--circuit` name of the built-in SHA-256 compression circuit.
const SHA256_COMPRESSION: &str = "sha256-compression";

fn is_aes128(circuit: &Circuit) -> bool {
    circuit.input_widths() == [128, 128] && circuit.output_widths() == [128]
}

fn run_once(
    circuit: &Arc<Circuit>,
    params: &Arc<CoralParams>,
    name: &str,
    parties: usize,
    instances: usize,
    prep: Prep,
) -> Result<Line, String> {
    // Benchmark inputs are not secret: a seeded generator makes them reproducible.
    let mut rng = seeded_rng(instances as u64);
    let inputs: Vec<Vec<Vec<bool>>> = (0..instances)
        .map(|_| {
            circuit
                .input_widths()
                .iter()
                .map(|&w| (0..w).map(|_| rng.next_u32() & 1 == 1).collect())
                .collect()
        })
        .collect();
    let expected: Vec<Vec<Vec<bool>>> = if is_aes128(circuit) {
        inputs
            .iter()
            .map(|inst| {
                let key = value_bytes(&inst[0]).expect("128 bits");
                let mut block: [u8; 16] =
                    value_bytes(&inst[1]).expect("128 bits").try_into().expect("16 bytes");
                Aes::new(&key).map_err(|e| e.to_string())?.encrypt_blocks(std::slice::from_mut(&mut block));
                Ok(vec![value_bits(&block)])
            })
            .collect::<Result<_, String>>()?
    } else {
        inputs
            .iter()
            .map(|inst| circuit.evaluate(inst).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?
    };
    let owners: Vec<usize> = (0..circuit.input_widths().len()).map(|v| usize::from(v > 0)).collect();
    let demand = circuit_demand(circuit, &owners, parties, instances).map_err(|e| e.to_string())?;
    let dealer_started = Instant::now();
    let materials: Vec<Option<CoralMaterial>> = if prep == Prep::Dealer {
        TrustedDealer::new(session_rng().map_err(|e| e.to_string())?)
            .deal(params, parties, &demand)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(Some)
            .collect()
    } else {
        vec![None; parties]
    };
    let dealer = dealer_started.elapsed();
    let dealer_bytes = materials[0].as_ref().map(CoralMaterial::stored_bytes);
    let materials: Arc<Vec<Mutex<Option<_>>>> = Arc::new(materials.into_iter().map(Mutex::new).collect());
    let demand = Arc::new(demand);

    let inputs = Arc::new(inputs);
    let (circuit, params, owners) = (circuit.clone(), params.clone(), Arc::new(owners));
    let outcomes =
        run_loopback_session(parties, b"chorus/bench/coral", TIMEOUT, move |mut local| async move {
            let p = local.party;
            let dealt = materials[p].lock().expect("material").take();
            // The OT-based provider runs first, timed on its own (None with the dealer).
            let prep_start = local.start().await;
            let (material, prep_run) = match dealt {
                Some(m) => (m, None),
                None => {
                    let rng = session_rng().map_err(|e| e.to_string())?;
                    let mut provider = OtProvider::new(params.clone(), rng, b"chorus/bench/coral/ot");
                    let m = provider.material(&mut local.net, &demand).await.map_err(|e| e.to_string())?;
                    (m, Some(prep_start.span(&local.net)))
                }
            };
            let mine: Vec<Vec<Vec<bool>>> = inputs
                .iter()
                .map(|inst| {
                    inst.iter().zip(owners.iter()).filter(|(_, &o)| o == p).map(|(v, _)| v.clone()).collect()
                })
                .collect();
            let rng = session_rng().map_err(|e| e.to_string())?;
            let mut party = Party::new(params, p, parties, material, rng).map_err(|e| e.to_string())?;
            let start = local.start().await;
            let out = evaluate_circuit(&mut party, &mut local.net, &circuit, &owners, instances, &mine)
                .await
                .map_err(|e| e.to_string())?;
            Ok::<_, String>((out, start.span(&local.net), prep_run))
        })?;
    for (p, (out, _, _)) in outcomes.iter().enumerate() {
        if out != &expected {
            let first = out.first().and_then(|o| o.first()).and_then(|bits| output_bytes(bits));
            return Err(format!("{instances} instances: party {p} got wrong outputs (first: {first:?})"));
        }
    }
    let online = Summary::of(outcomes.iter().map(|(_, s, _)| s)).expect("parties");
    let online_ms = online.wall_ms();
    let cpu_ms = online.cpu_ms();
    let bytes = online.max_bytes_sent;
    let prep_run = Summary::of(outcomes.iter().filter_map(|(_, _, s)| s.as_ref()));
    let prep_ms = prep_run.map(|s| s.wall_ms());
    let prep_bytes = prep_run.map(|s| s.max_bytes_sent);
    let is_dealer = prep == Prep::Dealer;
    Ok(Line {
        protocol: "coral",
        circuit: name.to_string(),
        preprocessing: if is_dealer { "trusted-dealer" } else { "ot" },
        transport: "tcp",
        parties,
        instances,
        packs: packs(instances),
        online_ms,
        us_per_instance: online_ms * 1e3 / instances as f64,
        cpu_ms,
        cpu_us_per_instance: cpu_ms.map(|c| c * 1e3 / instances as f64),
        bytes_per_party: bytes,
        bytes_per_instance: bytes as f64 / instances as f64,
        rounds: online.rounds,
        dealer_ms: is_dealer.then_some(dealer.as_secs_f64() * 1e3),
        dealer_bytes_per_party: dealer_bytes,
        dealer_bytes_per_instance: dealer_bytes.map(|b| b as f64 / instances as f64),
        prep_ms,
        prep_ms_per_instance: prep_ms.map(|t| t / instances as f64),
        prep_bytes_per_party: prep_bytes,
        prep_bytes_per_instance: prep_bytes.map(|b| b as f64 / instances as f64),
        prep_rounds: prep_run.map(|s| s.rounds),
        reps: 1,
    })
}
