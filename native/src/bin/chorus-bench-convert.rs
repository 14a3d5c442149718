//! `chorus-bench-convert`: two ways to get the k bits of Spdz2k-shared values as Spdz2k-shared
//! bits (what the bit-level gates of Coral's mixed circuits consume), dealer-free, side by side:
//!
//! - `arith`: the bit decomposition within the arithmetic shares
//!   (`chorus_core::proto::coral::arith::decompose`: k checked random bits per value, a masked
//!   opening and a Sklansky borrow scan) — what mixed circuits use;
//! - `convert`: through Coral's RMFE-packed boolean sharings (`chorus_core::proto::coral::convert`:
//!   A2B with edaBits made of packed daBits, a ripple subtraction on the packs, then rB2A of every
//!   bit with another batch of daBits) — the paper's route (§4.3.1, Fig. 19, 20).
//!
//! Party 0 inputs `--values` random values; both paths decompose them, recombine `Σ 2^i·bit_i`
//! and open the values, which must equal the inputs (exit code 1 otherwise). Material comes from
//! the OT-based providers (Spdz2k's for both paths, and Coral's for `convert`), set up in the
//! measured preprocessing. Two (or `--parties`) parties over a TCP loopback mesh with Noise
//! channels. One JSON line per path:
//!
//! ```text
//! {"path":"convert","values":1400,"ring_bits":32,"parties":2,"triples":…,"quintuples":…,
//!  "prep_ms":…,"prep_bytes_per_party":…,"online_ms":…,"bytes_per_party":…,"rounds":…,
//!  "total_ms":…,"us_per_value":…,"reps":3}
//! ```
//!
//! `prep_ms`: from a barrier until the slower party holds all its checked material (provider
//! setups included); `online_ms`: from the next barrier until the slower party holds the opened
//! values; `us_per_value` is `total_ms` (their sum) per value.

use chorus_core::circuit::mixed::RingBits;
use chorus_core::proto::coral::arith::bits::{add_demand, random_bits};
use chorus_core::proto::coral::arith::decompose::{decompose, triples as decomposition_triples};
use chorus_core::proto::coral::arith::{AShare, ArithDemand, ArithOtProvider, ArithParty, ArithRing};
use chorus_core::proto::coral::convert::a2b::{self, a2b, edabits_of};
use chorus_core::proto::coral::convert::b2a::{self, b2a};
use chorus_core::proto::coral::convert::dabits::dabits;
use chorus_core::proto::coral::convert::{output_arith, ConvertDemand};
use chorus_core::proto::coral::{CoralParams, OtProvider, Party, Preprocessing, LANES};
use chorus_core::rng::{seeded_rng, session_rng};
use chorus_native::bench_harness::{median_run, print_json_line, run_loopback_session, Summary};
use clap::Parser;
use rand_core::RngCore;
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(300);

/// Bit decompositions in the arithmetic shares against conversions through Coral's boolean
/// sharings, over TCP loopback.
#[derive(Parser, Debug)]
#[command(name = "chorus-bench-convert", version)]
struct Args {
    /// Values to decompose.
    #[arg(long, default_value_t = 1400)]
    values: usize,
    /// k: 32 or 64.
    #[arg(long, default_value_t = 32)]
    ring: u32,
    /// Paths: `arith`, `convert` or `both` (alternating per repetition).
    #[arg(long, default_value = "both")]
    path: String,
    /// Runs per path; the median total is printed.
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Number of parties (2 to 8).
    #[arg(long, default_value_t = 2)]
    parties: usize,
}

#[derive(Serialize, Clone)]
struct Line {
    path: &'static str,
    values: usize,
    ring_bits: u32,
    parties: usize,
    triples: usize,
    quintuples: usize,
    prep_ms: f64,
    prep_bytes_per_party: u64,
    online_ms: f64,
    bytes_per_party: u64,
    rounds: u64,
    total_ms: f64,
    us_per_value: f64,
    reps: usize,
}

fn main() -> std::process::ExitCode {
    chorus_native::cli::run_main("chorus-bench-convert", |args: Args| run(&args))
}

fn run(args: &Args) -> Result<(), String> {
    if args.reps == 0 || args.values == 0 || !(2..=8).contains(&args.parties) {
        return Err("--reps and --values must be at least 1, --parties 2 to 8".into());
    }
    let ring = match args.ring {
        32 => RingBits::K32,
        64 => RingBits::K64,
        other => return Err(format!("--ring must be 32 or 64, not {other}")),
    };
    let paths: &[bool] = match args.path.as_str() {
        "arith" => &[false],
        "convert" => &[true],
        "both" => &[false, true],
        other => return Err(format!("--path must be arith, convert or both, not {other}")),
    };
    // Alternate the paths within each repetition, so both see the same machine.
    let mut runs: Vec<Vec<Line>> = vec![Vec::new(); paths.len()];
    for rep in 0..args.reps {
        for (i, &convert) in paths.iter().enumerate() {
            runs[i].push(run_once(ring, args.parties, args.values, convert, rep as u64)?);
        }
    }
    for lines in runs {
        let mut lines = lines.into_iter();
        let mut line = median_run(
            args.reps,
            |l: &Line| l.total_ms,
            || Ok::<_, String>(lines.next().expect("one per rep")),
        )?;
        line.reps = args.reps;
        print_json_line(&line);
    }
    Ok(())
}

/// What both paths need at every party: Spdz2k material (and Coral's for conversions).
struct Demands {
    arith: ArithDemand,
    boolean: Option<chorus_core::proto::coral::Demand>,
}

fn demands(ring: RingBits, parties: usize, values: usize, convert: bool) -> Demands {
    let k = ArithRing::new(ring).k();
    let packs = a2b::packs(values);
    let (mut arith, boolean) = if convert {
        let mut d = ConvertDemand::empty(parties);
        a2b::add_demand(&mut d, values, k, parties);
        b2a::add_demand(&mut d, packs * k as usize, parties);
        (d.arith, Some(d.boolean))
    } else {
        let mut d = ArithDemand { input_masks: vec![0; parties], ..ArithDemand::default() };
        add_demand(&mut d, values * k as usize, parties);
        d.triples += values * decomposition_triples(k);
        d.output_masks += values;
        (d, None)
    };
    arith.input_masks[0] += values;
    arith.output_masks += values;
    Demands { arith, boolean }
}

fn run_once(ring: RingBits, parties: usize, values: usize, convert: bool, seed: u64) -> Result<Line, String> {
    // Benchmark inputs are not secret: a seeded generator makes them reproducible.
    let mut rng = seeded_rng(seed);
    let inputs: Vec<u64> = (0..values).map(|_| rng.next_u64() & ring.mask()).collect();
    let demands = Arc::new(demands(ring, parties, values, convert));
    let (triples, quintuples) = (demands.arith.triples, demands.boolean.as_ref().map_or(0, |d| d.quintuples));
    let params = Arc::new(CoralParams::new().map_err(|e| e.to_string())?);
    let shared = Arc::new(inputs.clone());
    let outcomes =
        run_loopback_session(parties, b"chorus/bench/convert", TIMEOUT, move |mut local| async move {
            let p = local.party;
            let err = |e: chorus_core::proto::coral::CoralError| e.to_string();
            let prep_start = local.start().await;
            let net = &mut local.net;
            let mut arith_provider = ArithOtProvider::setup(
                net,
                ArithRing::new(ring),
                b"chorus/bench/convert/arith",
                session_rng().map_err(|e| e.to_string())?,
            )
            .await
            .map_err(err)?;
            let arith_material = arith_provider.material(net, &demands.arith).await.map_err(err)?;
            let boolean_material = match &demands.boolean {
                Some(d) => {
                    let mut provider = OtProvider::new(
                        params.clone(),
                        session_rng().map_err(|e| e.to_string())?,
                        b"chorus/bench/convert/coral",
                    );
                    Some(provider.material(net, d).await.map_err(err)?)
                }
                None => None,
            };
            let prep = prep_start.span(net);
            let mut arith =
                ArithParty::new(p, parties, arith_material, session_rng().map_err(|e| e.to_string())?)
                    .map_err(err)?;
            let start = local.start().await;
            let net = &mut local.net;
            let own = if p == 0 { shared.to_vec() } else { Vec::new() };
            let xs = arith.input(net, &vec![0; shared.len()], &own).await.map_err(err)?;
            let k = arith.ring().k() as usize;
            let out = match boolean_material {
                Some(material) => {
                    let mut boolean = Party::new(
                        params.clone(),
                        p,
                        parties,
                        material,
                        session_rng().map_err(|e| e.to_string())?,
                    )
                    .map_err(err)?;
                    let packs = a2b::packs(xs.len());
                    let d = dabits(&mut boolean, &mut arith, net, packs * k).await.map_err(err)?;
                    let bits: Vec<_> = a2b(&mut boolean, &mut arith, net, &xs, &edabits_of(&d, k as u32))
                        .await
                        .map_err(err)?
                        .into_iter()
                        .flatten()
                        .collect();
                    let d = dabits(&mut boolean, &mut arith, net, bits.len()).await.map_err(err)?;
                    let lanes = b2a(&mut boolean, &mut arith, net, &bits, &d).await.map_err(err)?;
                    let values: Vec<AShare> = (0..xs.len())
                        .map(|v| {
                            (0..k).fold(AShare::default(), |acc, i| {
                                acc + lanes[(v / LANES) * k + i][v % LANES].scale(1 << i)
                            })
                        })
                        .collect();
                    output_arith(&mut boolean, &mut arith, net, &values).await.map_err(err)?
                }
                None => {
                    let r = random_bits(&mut arith, net, xs.len() * k).await.map_err(err)?;
                    let bits = decompose(&mut arith, net, &xs, &r).await.map_err(err)?;
                    let values: Vec<AShare> = bits
                        .iter()
                        .map(|b| {
                            b.iter()
                                .enumerate()
                                .fold(AShare::default(), |acc, (i, &bit)| acc + bit.scale(1 << i))
                        })
                        .collect();
                    arith.output(net, &values).await.map_err(err)?
                }
            };
            Ok::<_, String>((out, prep, start.span(net)))
        })?;
    for (p, (out, _, _)) in outcomes.iter().enumerate() {
        if *out != inputs {
            return Err(format!("party {p}: the recombined bits differ from the inputs"));
        }
    }
    let prep = Summary::of(outcomes.iter().map(|(_, s, _)| s)).expect("parties");
    let online = Summary::of(outcomes.iter().map(|(_, _, s)| s)).expect("parties");
    let total = prep.wall_ms() + online.wall_ms();
    Ok(Line {
        path: if convert { "convert" } else { "arith" },
        values,
        ring_bits: ring.bits(),
        parties,
        triples,
        quintuples,
        prep_ms: prep.wall_ms(),
        prep_bytes_per_party: prep.max_bytes_sent,
        online_ms: online.wall_ms(),
        bytes_per_party: online.max_bytes_sent,
        rounds: online.rounds,
        total_ms: total,
        us_per_value: total * 1e3 / values as f64,
        reps: 1,
    })
}
