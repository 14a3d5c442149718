//! `chorus-bench-minimac`: two-party MiniMac AES-128 (**trusted-dealer** or OT-based preprocessing) between
//! two local parties over a TCP loopback mesh with Noise channels, for both codes ((255, 85) with
//! FFT encoding, (256, 120) with matrix encoding) and with simultaneous multiplications (§4.4) on
//! and off, followed in the same run by TinyTable's binary-circuit AES (the same 6400-AND circuit,
//! trusted-dealer material, semi-honest and malicious with 64-bit MACs) for comparison. One JSON
//! line per measurement:
//!
//! ```text
//! {"protocol":"minimac","variant":"rs255-85-fft","simultaneous":true,"security":"malicious",
//!  "preprocessing":"trusted-dealer","transport":"tcp","mode":"amortized","parties":2,"blocks":680,
//!  "online_ms":…,"us_per_aes":…,"cpu_ms":…,"cpu_us_per_aes":…,"aes_per_s":…,"bytes_per_party":…,
//!  "bytes_per_aes":…,"rounds":…,"prep_ms":…,"prep_bytes_per_party":…,"prep_bytes_per_aes":…,"reps":3}
//! ```
//!
//! - `mode: "amortized"`: one batch of `blocks` AES encryptions (a full batch, `8·k` blocks, by
//!   default); `us_per_aes = online_ms·1000 / blocks`, `bytes_per_aes = bytes_per_party / blocks`.
//! - `mode: "latency"`: one batch holding a single block: the time until one ciphertext is known.
//! - `online_ms`: from a barrier after the Noise handshakes until the slower party has its
//!   ciphertexts (all MiniMac checks included); `cpu_ms`: CPU time of both party threads in that
//!   region; `bytes_per_party`: payload bytes one party sent (the larger of the two).
//! - `prep_ms`: the dealer's time for both parties' material (outside the timed region);
//!   `prep_bytes_per_party`: the material one party stores. With `--prep ot` (`"preprocessing":
//!   "ot"`) the two parties make the material themselves with MiniMac's OT-based provider inside
//!   the run, before the online phase: `prep_ms` is the slower party's wall time of that, and
//!   `prep_bytes_per_party` the bytes the busier party sent for it (TinyOT triples for the `blocks`
//!   positions used; COPE for the whole codeword width whatever `blocks` is).
//!
//! With `--reps n` (default 3) each configuration runs n times with fresh material and the run
//! with the median `online_ms` is printed. Key owner: party 0, plaintext: party 1, ciphertext to
//! both; every ciphertext is checked against the plain AES (exit code 1 on a mismatch).

use chorus_core::aes::{Aes, Block};
use chorus_core::circuit::aes_bristol::{output_bytes, value_bits};
use chorus_core::circuit::Circuit;
use chorus_core::proto::minimac::aes::{aes128_circuit, aes_request, encrypt_batch};
use chorus_core::proto::minimac::{
    self, CodeChoice, MiniMacPreprocessing, Options, OtPreprocessing, PartyPrep, PrepRequest,
};
use chorus_core::proto::tinytable::circuit::online::evaluate_sliced;
use chorus_core::proto::tinytable::{
    evaluate_malicious, IoSpec, MaliciousPrep, PlannedCircuit, Reveal, SlicedPrep, TrustedDealer,
};
use chorus_core::rng::{seeded_rng, session_rng};
use chorus_native::bench_harness::{
    median_run, print_json_line, random_blocks, run_loopback_session, Summary,
};
use clap::Parser;
use serde::Serialize;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Long enough for a whole batch of OT-based material on two shared vCPUs.
const TIMEOUT: Duration = Duration::from_secs(900);

/// Benchmarks two-party MiniMac AES-128 over TCP loopback, and TinyTable's circuit AES beside it.
#[derive(Parser, Debug)]
#[command(name = "chorus-bench-minimac", version)]
struct Args {
    /// Codes: rs255-85-fft, rs256-120-matrix.
    #[arg(long, value_delimiter = ',', default_value = "rs255-85-fft,rs256-120-matrix")]
    codes: Vec<String>,
    /// Simultaneous multiplications (§4.4): on, off.
    #[arg(long, value_delimiter = ',', default_value = "on,off")]
    simultaneous: Vec<String>,
    /// Blocks of the amortized batch (default: a full batch of the code, 8·k).
    #[arg(long)]
    blocks: Option<usize>,
    /// Also measure the latency of a one-block batch.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    latency: bool,
    /// Block counts of the TinyTable comparison (amortized, one batch each).
    #[arg(long, value_delimiter = ',', default_value = "680,960")]
    tinytable: Vec<usize>,
    /// Skip the TinyTable comparison.
    #[arg(long)]
    no_tinytable: bool,
    /// Runs per configuration; the run with the median `online_ms` is printed.
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// MiniMac's material: dealer (the trusted dealer, before the timed region) and/or ot (the two
    /// parties' OT-based provider, timed as `prep_ms` with its bytes, then the online phase).
    #[arg(long, value_delimiter = ',', default_value = "dealer")]
    prep: Vec<String>,
}

#[derive(Serialize, Clone)]
struct Line {
    protocol: &'static str,
    variant: String,
    simultaneous: Option<bool>,
    security: &'static str,
    preprocessing: &'static str,
    transport: &'static str,
    mode: &'static str,
    parties: usize,
    blocks: usize,
    online_ms: f64,
    us_per_aes: f64,
    cpu_ms: Option<f64>,
    cpu_us_per_aes: Option<f64>,
    aes_per_s: f64,
    bytes_per_party: u64,
    bytes_per_aes: f64,
    rounds: u64,
    prep_ms: f64,
    prep_bytes_per_party: usize,
    prep_bytes_per_aes: f64,
    reps: usize,
}

/// One party's material for a run.
enum Material {
    MiniMac(PartyPrep, Options),
    /// Made by the two parties over OT inside the run, before the online phase.
    MiniMacOt(PrepRequest, Options),
    Sliced(SlicedPrep),
    Malicious(MaliciousPrep<u64>),
}

fn main() -> ExitCode {
    chorus_native::cli::run_main("chorus-bench-minimac", |args: Args| run(&args))
}

fn run(args: &Args) -> Result<(), String> {
    if args.reps == 0 || args.blocks == Some(0) || args.tinytable.contains(&0) {
        return Err("--reps and every block count must be at least 1".into());
    }
    let mut codes = Vec::new();
    for name in &args.codes {
        let code = CodeChoice::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| format!("unknown code {name:?}: use rs255-85-fft and/or rs256-120-matrix"))?;
        codes.push(code);
    }
    let mut modes = Vec::new();
    for s in &args.simultaneous {
        modes.push(match s.as_str() {
            "on" => true,
            "off" => false,
            other => return Err(format!("--simultaneous takes on and/or off, got {other:?}")),
        });
    }
    let circuit = aes128_circuit().map_err(|e| e.to_string())?;
    for &code in &codes {
        for &simultaneous in &modes {
            let options = Options { simultaneous };
            let full = args.blocks.unwrap_or(code.code().instances());
            if full > code.code().instances() {
                return Err(format!(
                    "--blocks {full} exceeds one batch of {} for {}",
                    code.code().instances(),
                    code.name()
                ));
            }
            let mut runs = vec![("amortized", full)];
            if args.latency {
                runs.push(("latency", 1));
            }
            for (mode, blocks) in runs {
                for prep in &args.prep {
                    let line = match prep.as_str() {
                        "dealer" => median(args.reps, || dealer_run(code, options, blocks, circuit))?,
                        "ot" => median(args.reps, || {
                            // OT material for exactly the blocks run (TinyOT triples for those
                            // positions only).
                            let request = aes_request(code, 2)
                                .and_then(|r| r.with_instances(blocks))
                                .map_err(|e| e.to_string())?;
                            let material = [0, 1].map(|_| Material::MiniMacOt(request.clone(), options));
                            run_once(material, blocks, circuit)
                        })?,
                        other => return Err(format!("--prep takes dealer and/or ot, got {other:?}")),
                    };
                    let line = Line {
                        protocol: "minimac",
                        variant: code.name().into(),
                        simultaneous: Some(simultaneous),
                        security: "malicious",
                        mode,
                        ..line
                    };
                    print_json_line(&line);
                }
            }
        }
    }
    let tinytable: &[usize] = if args.no_tinytable { &[] } else { &args.tinytable };
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
    for &blocks in tinytable {
        for malicious in [false, true] {
            let line = median(args.reps, || {
                let mut dealer = TrustedDealer::new(session_rng().map_err(|e| e.to_string())?);
                let started = Instant::now();
                let (material, stored) = if malicious {
                    let [a, b] = dealer
                        .malicious_batch_seeded::<u64>(circuit, &io, blocks)
                        .map_err(|e| e.to_string())?;
                    let stored = a.table_bits_per_instance() / 8 * blocks;
                    ([Material::Malicious(a), Material::Malicious(b)], stored)
                } else {
                    let [a, b] = dealer.sliced_batch(circuit, &io, blocks).map_err(|e| e.to_string())?;
                    let stored = a.table_bits_per_instance() / 8 * blocks;
                    ([Material::Sliced(a), Material::Sliced(b)], stored)
                };
                let prep_ms = started.elapsed().as_secs_f64() * 1e3;
                let mut line = run_once(material, blocks, circuit)?;
                line.protocol = "tinytable";
                line.variant = if malicious { "circuit-mac64".into() } else { "circuit".into() };
                line.security = if malicious { "malicious" } else { "semi-honest" };
                line.mode = "amortized";
                line.prep_ms = prep_ms;
                line.prep_bytes_per_party = stored;
                line.prep_bytes_per_aes = stored as f64 / blocks as f64;
                Ok(line)
            })?;
            print_json_line(&line);
        }
    }
    Ok(())
}

/// One online run on the trusted dealer's material (dealt before the timed region).
fn dealer_run(
    code: CodeChoice,
    options: Options,
    blocks: usize,
    circuit: &'static Circuit,
) -> Result<Line, String> {
    let started = Instant::now();
    let preps = minimac::TrustedDealer::new(session_rng().map_err(|e| e.to_string())?)
        .deal(&aes_request(code, 2).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let prep_ms = started.elapsed().as_secs_f64() * 1e3;
    let stored = preps[0].stored_bytes();
    let [a, b]: [PartyPrep; 2] = preps.try_into().map_err(|_| "two parties")?;
    let material = [Material::MiniMac(a, options), Material::MiniMac(b, options)];
    let line = run_once(material, blocks, circuit)?;
    Ok(Line {
        prep_ms,
        prep_bytes_per_party: stored,
        prep_bytes_per_aes: stored as f64 / blocks as f64,
        ..line
    })
}

/// Runs `once` `reps` times and returns the run with the median online time.
fn median(reps: usize, once: impl FnMut() -> Result<Line, String>) -> Result<Line, String> {
    let mut line = median_run(reps, |line: &Line| line.online_ms, once)?;
    line.reps = reps;
    Ok(line)
}

/// One timed online run of `blocks` encryptions with the given material.
fn run_once(material: [Material; 2], blocks: usize, circuit: &'static Circuit) -> Result<Line, String> {
    // Benchmark inputs are not secret: a seeded generator makes them reproducible.
    let mut inputs_rng = seeded_rng(blocks as u64);
    let keys = random_blocks(&mut inputs_rng, blocks);
    let plaintexts = random_blocks(&mut inputs_rng, blocks);
    let expected: Vec<Block> = keys
        .iter()
        .zip(&plaintexts)
        .map(|(k, p)| {
            let mut b = [*p];
            Aes::new(k).map(|aes| aes.encrypt_blocks(&mut b)).map(|()| b[0]).map_err(|e| e.to_string())
        })
        .collect::<Result<_, _>>()?;

    let material: Arc<[Mutex<Option<Material>>; 2]> = Arc::new(material.map(|m| Mutex::new(Some(m))));
    let inputs = Arc::new([keys, plaintexts]);
    let outcomes = run_loopback_session(2, b"chorus/bench/minimac", TIMEOUT, move |mut local| async move {
        let p = local.party;
        let material = material[p].lock().expect("material").take().ok_or("material missing")?;
        let mut rng = session_rng().map_err(|e| e.to_string())?;
        // TinyTable's evaluation plan depends on the public circuit only: made before timing.
        let circuit = PlannedCircuit::new(circuit);
        // The OT provider's run, timed on its own before the online phase.
        let (material, prep_span) = match material {
            Material::MiniMacOt(request, options) => {
                let start = local.start().await;
                let own_rng = session_rng().map_err(|e| e.to_string())?;
                let mut provider = OtPreprocessing::new(own_rng, b"chorus/bench/minimac-ot");
                let prep = provider.material(&mut local.net, &request).await.map_err(|e| e.to_string())?;
                (Material::MiniMac(prep, options), Some(start.span(&local.net)))
            }
            other => (other, None),
        };
        let start = local.start().await;
        let net = &mut local.net;
        let own = &inputs[p];
        let ciphertexts = match &material {
            Material::MiniMac(prep, options) => {
                encrypt_batch(net, prep, own, blocks, *options, &mut rng).await.map_err(|e| e.to_string())?
            }
            Material::MiniMacOt(..) => return Err("the OT material was made above".into()),
            Material::Sliced(prep) => {
                let result = evaluate_sliced(net, &circuit, prep, &circuit_inputs(own))
                    .await
                    .map_err(|e| e.to_string())?;
                ciphertexts(result)
            }
            Material::Malicious(prep) => {
                let result = evaluate_malicious(net, &circuit, prep, &circuit_inputs(own))
                    .await
                    .map_err(|e| e.to_string())?;
                ciphertexts(result)
            }
        };
        Ok::<_, String>((ciphertexts, start.span(&local.net), prep_span))
    })?;
    for (p, (ciphertexts, _, _)) in outcomes.iter().enumerate() {
        if ciphertexts != &expected {
            return Err(format!("{blocks} blocks: party {p} got a wrong ciphertext"));
        }
    }
    let online = Summary::of(outcomes.iter().map(|(_, s, _)| s)).expect("two parties");
    let prep = Summary::of(outcomes.iter().filter_map(|(_, _, p)| p.as_ref()));
    let online_ms = online.wall_ms();
    let cpu_ms = online.cpu_ms();
    let bytes = online.max_bytes_sent;
    Ok(Line {
        protocol: "",
        variant: String::new(),
        simultaneous: None,
        security: "",
        preprocessing: if prep.is_some() { "ot" } else { "trusted-dealer" },
        transport: "tcp",
        mode: "",
        parties: 2,
        blocks,
        online_ms,
        us_per_aes: online_ms * 1e3 / blocks as f64,
        cpu_ms,
        cpu_us_per_aes: cpu_ms.map(|c| c * 1e3 / blocks as f64),
        aes_per_s: blocks as f64 / online.wall.as_secs_f64(),
        bytes_per_party: bytes,
        bytes_per_aes: bytes as f64 / blocks as f64,
        rounds: online.rounds,
        prep_ms: prep.as_ref().map_or(0.0, Summary::wall_ms),
        prep_bytes_per_party: prep.as_ref().map_or(0, |s| s.max_bytes_sent as usize),
        prep_bytes_per_aes: prep.as_ref().map_or(0.0, |s| s.max_bytes_sent as f64 / blocks as f64),
        reps: 1,
    })
}

/// This party's circuit inputs (key for party 0, plaintext for party 1), one value per block.
fn circuit_inputs(own: &[Block]) -> Vec<Vec<Vec<bool>>> {
    own.iter().map(|b| vec![value_bits(b)]).collect()
}

/// The ciphertext of every instance (zeros where not revealed, which the caller's check rejects).
fn ciphertexts(result: Vec<Vec<Option<Vec<bool>>>>) -> Vec<Block> {
    result
        .into_iter()
        .map(|outputs| {
            let bits = outputs.into_iter().next().flatten().unwrap_or_default();
            output_bytes(&bits).unwrap_or_default()
        })
        .collect()
}
