//! `chorus-bench-mixed`: the arithmetic half of Coral's mixed circuits (Spdz2k over
//! Z_{2^(k+s)}, `chorus_core::proto::coral::arith`) on one of three programs (`--program`):
//! `dot`, a dot product of two private vectors — party 0 owns x, party 1 owns y, every party
//! learns `Σ x_i·y_i`; `sort`, a sort of `--length` numbers owned alternately by parties 0 and 1
//! (odd–even transposition: comparisons and selections); `compare`, a comparison-heavy program on
//! `--length` pairs (count of x_i > y_i, of x_i = y_i, the largest x_i); `pairwise:<gate>`, the sum of
//! one gate of that kind (`AXor`, `ADiv`, …) per pair `(x_i, y_i)` — between two or more parties
//! (`--parties`; those after the first two have no inputs) over a TCP loopback mesh with Noise
//! channels, with **trusted-dealer** (`--prep dealer`) or **dealer-free
//! OT-based** (`--prep ot`) material, or both (the default). `--decompose` says how bit-level
//! gates decompose values: `arith` (within the Spdz2k shares, the default), `convert` (through
//! Coral's RMFE-packed boolean sharings, `chorus_core::proto::coral::convert`; its material from
//! Coral's OT-based provider too, set up within `prep_ms`), `auto` (the circuit job's choice) or
//! `both` (arith and convert alternating per repetition; the median of `prep_ms + online_ms`).
//! One JSON line per batch size, provider and decomposition:
//!
//! ```text
//! {"protocol":"coral-spdz2k","circuit":"dot-product-1000","ring_bits":32,"preprocessing":"ot",
//!  "transport":"tcp","parties":2,"instances":1,"triples":1000,"decompose":"arith",
//!  "quintuples":0,"online_ms":…,
//!  "us_per_instance":…,"cpu_ms":…,"bytes_per_party":…,"rounds":…,"dealer_ms":null,
//!  "prep_ms":…,"prep_us_per_triple":…,"prep_cpu_ms":…,"prep_bytes_per_party":…,
//!  "prep_bytes_per_triple":…,"prep_rounds":…,"reps":3}
//! ```
//!
//! `online_ms` runs from a barrier after the handshakes until the slower party holds its outputs
//! (inputs, the Beaver rounds, the random bits and comparisons if any, both MAC checks, the
//! output opening); `triples` counts all the run consumes; `prep_ms` from a barrier until
//! the slower party holds its checked material (OT-extension and COPE setups included; null with
//! the dealer, whose in-process time is `dealer_ms`). Bytes and rounds: the most one party sent.
//! Outputs are checked against plaintext evaluation (exit code 1 on a mismatch).

use chorus_core::circuit::mixed::gen::{compare_count, dot_product, pairwise, sort};
use chorus_core::circuit::mixed::{MixedCircuit, MixedOp, RingBits};
use chorus_core::proto::coral::arith::circuit::{
    demand, demand_converting, evaluate, evaluate_converting, Plan,
};
use chorus_core::proto::coral::arith::{ArithDealer, ArithMaterial, ArithOtProvider, ArithParty, ArithRing};
use chorus_core::proto::coral::{CoralParams, OtProvider, Party, Preprocessing as _};
use chorus_core::rng::{seeded_rng, session_rng};
use chorus_native::bench_harness::{median_run, ms, print_json_line, run_loopback_session, Summary};
use clap::Parser;
use rand_core::RngCore;
use serde::Serialize;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(120);

/// Benchmarks Spdz2k on a dot product over TCP loopback.
#[derive(Parser, Debug)]
#[command(name = "chorus-bench-mixed", version)]
struct Args {
    /// The program: `dot`, `sort` or `compare`.
    #[arg(long, default_value = "dot")]
    program: String,
    /// Length of the vectors (numbers to sort, pairs to compare).
    #[arg(long, default_value_t = 1000)]
    length: u32,
    /// k: 32 or 64.
    #[arg(long, default_value_t = 32)]
    ring: u32,
    /// Batch sizes (dot products evaluated at once).
    #[arg(long, value_delimiter = ',', default_value = "1,10")]
    instances: Vec<usize>,
    /// Runs per batch size; the median `online_ms` is printed.
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Number of parties (2 to 8).
    #[arg(long, default_value_t = 2)]
    parties: usize,
    /// Preprocessing: `dealer`, `ot` or `both`.
    #[arg(long, default_value = "both")]
    prep: String,
    /// How bit-level gates decompose values: `arith` (within the Spdz2k shares), `convert`
    /// (through Coral's boolean sharings; OT material only), `auto` (the job's choice) or `both`
    /// (arith and convert alternating, OT material only).
    #[arg(long, default_value = "arith")]
    decompose: String,
}

#[derive(Serialize, Clone)]
struct Line {
    protocol: &'static str,
    circuit: String,
    ring_bits: u32,
    preprocessing: &'static str,
    transport: &'static str,
    parties: usize,
    instances: usize,
    triples: usize,
    decompose: &'static str,
    quintuples: usize,
    online_ms: f64,
    us_per_instance: f64,
    cpu_ms: Option<f64>,
    bytes_per_party: u64,
    rounds: u64,
    dealer_ms: Option<f64>,
    prep_ms: Option<f64>,
    prep_us_per_triple: Option<f64>,
    prep_cpu_ms: Option<f64>,
    prep_bytes_per_party: Option<u64>,
    prep_bytes_per_triple: Option<f64>,
    prep_rounds: Option<u64>,
    reps: usize,
}

fn main() -> std::process::ExitCode {
    chorus_native::cli::run_main("chorus-bench-mixed", |args: Args| run(&args))
}

fn run(args: &Args) -> Result<(), String> {
    if args.reps == 0 || args.instances.contains(&0) || args.length == 0 || !(2..=8).contains(&args.parties) {
        return Err("--reps, --length and every batch size must be at least 1, --parties 2 to 8".into());
    }
    let ring = match args.ring {
        32 => RingBits::K32,
        64 => RingBits::K64,
        other => return Err(format!("--ring must be 32 or 64, not {other}")),
    };
    let preps: &[bool] = match args.prep.as_str() {
        "dealer" => &[false],
        "ot" => &[true],
        "both" => &[false, true],
        other => return Err(format!("--prep must be dealer, ot or both, not {other}")),
    };
    let (circuit, name, alternate) = match args.program.as_str() {
        "dot" => (dot_product(args.length), "dot-product", false),
        "sort" => (sort(args.length), "sort", true),
        "compare" => (compare_count(args.length), "compare-count", false),
        other => match other.strip_prefix("pairwise:").and_then(MixedOp::from_name) {
            Some(op) => (pairwise(op, args.length), op.name(), false),
            None => {
                return Err(format!(
                "--program must be dot, sort, compare or pairwise:<gate> (e.g. pairwise:ADiv), not {other}"
            ))
            }
        },
    };
    let decompositions: &[Option<bool>] = match args.decompose.as_str() {
        "arith" => &[Some(false)],
        "convert" => &[Some(true)],
        "auto" => &[None],
        "both" => &[Some(false), Some(true)],
        other => return Err(format!("--decompose must be arith, convert, auto or both, not {other}")),
    };
    if decompositions != [Some(false)] && args.prep != "ot" {
        return Err(
            "--decompose convert, auto or both needs --prep ot (conversions run on OT material)".into()
        );
    }
    let circuit = Arc::new(circuit);
    for &ot in preps {
        for &instances in &args.instances {
            // Repetitions alternate the decompositions, so each sees the same machine.
            let mut runs: Vec<Vec<Line>> = vec![Vec::new(); decompositions.len()];
            for _ in 0..args.reps {
                for (i, &convert) in decompositions.iter().enumerate() {
                    let plan = Plan::new(&circuit, ring).map_err(|e| e.to_string())?;
                    let convert =
                        convert.unwrap_or_else(|| plan.converts(ring.bits(), args.parties, instances));
                    runs[i].push(run_once(&circuit, ring, args.parties, instances, ot, alternate, convert)?);
                }
            }
            for lines in runs {
                let mut lines = lines.into_iter();
                // The median online time, or with conversions in play the median of preprocessing
                // and online together (where the two decompositions differ most).
                let arith_only = decompositions == [Some(false)];
                let key = move |l: &Line| {
                    if arith_only {
                        l.online_ms
                    } else {
                        l.online_ms + l.prep_ms.unwrap_or(0.0)
                    }
                };
                let mut line = median_run(args.reps, key, || {
                    Ok::<_, String>(lines.next().expect("one per repetition"))
                })?;
                line.reps = args.reps;
                line.circuit = format!("{name}-{}", args.length);
                print_json_line(&line);
            }
        }
    }
    Ok(())
}

fn run_once(
    circuit: &Arc<MixedCircuit>,
    ring: RingBits,
    parties: usize,
    instances: usize,
    ot: bool,
    alternate: bool,
    convert: bool,
) -> Result<Line, String> {
    // Benchmark inputs are not secret: a seeded generator makes them reproducible.
    let mut rng = seeded_rng(instances as u64);
    let inputs: Vec<Vec<u64>> =
        (0..instances).map(|_| (0..circuit.inputs).map(|_| rng.next_u64() & ring.mask()).collect()).collect();
    let expected: Vec<Vec<u64>> = inputs
        .iter()
        .map(|x| circuit.evaluate(x, ring).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let len = circuit.inputs as usize / 2;
    let owners: Vec<usize> =
        (0..circuit.inputs as usize).map(|i| if alternate { i % 2 } else { usize::from(i >= len) }).collect();
    let (d, boolean) = if convert {
        let both = demand_converting(circuit, ring, &[], &owners, &[], parties, instances)
            .map_err(|e| e.to_string())?;
        (both.arith, Some(both.boolean))
    } else {
        (demand(circuit, ring, &owners, parties, instances).map_err(|e| e.to_string())?, None)
    };
    let (triples, quintuples) = (d.triples, boolean.as_ref().map_or(0, |b| b.quintuples));
    let params = Arc::new(CoralParams::new().map_err(|e| e.to_string())?);
    let dealer_started = Instant::now();
    let dealt: Vec<Option<ArithMaterial>> = if ot {
        vec![None; parties]
    } else {
        let rng = session_rng().map_err(|e| e.to_string())?;
        ArithDealer::new(rng)
            .deal(ArithRing::new(ring), parties, &d)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(Some)
            .collect()
    };
    let dealer_ms = (!ot).then(|| ms(dealer_started.elapsed()));
    let dealt: Arc<Vec<Mutex<Option<ArithMaterial>>>> = Arc::new(dealt.into_iter().map(Mutex::new).collect());
    let (circuit, inputs, owners, d) = (circuit.clone(), Arc::new(inputs), Arc::new(owners), Arc::new(d));
    let outcomes =
        run_loopback_session(parties, b"chorus/bench/mixed", TIMEOUT, move |mut local| async move {
            let p = local.party;
            let prep_start = local.start().await;
            let taken = dealt[p].lock().expect("material").take();
            let (material, prep) = match taken {
                Some(m) => ((m, None), None),
                None => {
                    let rng = session_rng().map_err(|e| e.to_string())?;
                    let mut provider = ArithOtProvider::setup(
                        &mut local.net,
                        ArithRing::new(ring),
                        b"chorus/bench/mixed/ot",
                        rng,
                    )
                    .await
                    .map_err(|e| e.to_string())?;
                    let m = provider.material(&mut local.net, &d).await.map_err(|e| e.to_string())?;
                    let b = match &boolean {
                        Some(demand) => {
                            let rng = session_rng().map_err(|e| e.to_string())?;
                            let mut coral = OtProvider::new(params.clone(), rng, b"chorus/bench/mixed/coral");
                            Some(coral.material(&mut local.net, demand).await.map_err(|e| e.to_string())?)
                        }
                        None => None,
                    };
                    ((m, b), Some(prep_start.span(&local.net)))
                }
            };
            let (material, boolean_material) = material;
            let mine: Vec<Vec<u64>> = inputs
                .iter()
                .map(|x| x.iter().zip(owners.iter()).filter(|(_, &o)| o == p).map(|(&v, _)| v).collect())
                .collect();
            let rng = session_rng().map_err(|e| e.to_string())?;
            let mut party = ArithParty::new(p, parties, material, rng).map_err(|e| e.to_string())?;
            let start = local.start().await;
            let out = match boolean_material {
                Some(material) => {
                    let rng = session_rng().map_err(|e| e.to_string())?;
                    let mut boolean =
                        Party::new(params.clone(), p, parties, material, rng).map_err(|e| e.to_string())?;
                    let out = evaluate_converting(
                        &mut party,
                        &mut boolean,
                        &mut local.net,
                        &circuit,
                        &[],
                        &owners,
                        &[],
                        &mine,
                    )
                    .await
                    .map_err(|e| e.to_string())?;
                    out.into_iter().map(|o| o.into_iter().map(|v| v.unwrap_or_default()).collect()).collect()
                }
                None => evaluate(&mut party, &mut local.net, &circuit, &owners, &mine)
                    .await
                    .map_err(|e| e.to_string())?,
            };
            Ok::<_, String>((out, start.span(&local.net), prep))
        })?;
    for (p, (out, _, _)) in outcomes.iter().enumerate() {
        if out != &expected {
            return Err(format!("{instances} instances: party {p} got wrong outputs"));
        }
    }
    let online = Summary::of(outcomes.iter().map(|(_, s, _)| s)).expect("parties");
    let prep = Summary::of(outcomes.iter().filter_map(|(_, _, s)| s.as_ref()));
    let prep_ms = prep.map(|s| s.wall_ms());
    Ok(Line {
        protocol: "coral-spdz2k",
        circuit: String::new(),
        ring_bits: ring.bits(),
        preprocessing: if ot { "ot" } else { "trusted-dealer" },
        transport: "tcp",
        parties,
        instances,
        triples,
        decompose: if convert { "convert" } else { "arith" },
        quintuples,
        online_ms: online.wall_ms(),
        us_per_instance: online.wall_ms() * 1e3 / instances as f64,
        cpu_ms: online.cpu_ms(),
        bytes_per_party: online.max_bytes_sent,
        rounds: online.rounds,
        dealer_ms,
        prep_ms,
        prep_us_per_triple: prep_ms.map(|t| t * 1e3 / triples.max(1) as f64),
        prep_cpu_ms: prep.and_then(|s| s.cpu_ms()),
        prep_bytes_per_party: prep.map(|s| s.max_bytes_sent),
        prep_bytes_per_triple: prep.map(|s| s.max_bytes_sent as f64 / triples.max(1) as f64),
        prep_rounds: prep.map(|s| s.rounds),
        reps: 1,
    })
}
