//! `chorus-bench-tinytable`: two-party TinyTable AES-128 (preprocessing by a **trusted dealer**,
//! or with `--preprocessing ot` by the two parties over OT) between two local parties over a TCP loopback mesh with Noise channels, for both paths:
//! `sbox-tables` (§2.3, 160 S-box tables of 256 bytes per block; malicious: §3 linear MACs with
//! k = 64 and the §3.3 batched check) and `circuit` (the project's AES-128 circuit, 6400 AND
//! tables per block, bit-sliced material; malicious: Fig. 3/5 lookup MACs with k = 64 and/or 32,
//! `--mac-bits`), at `--security semi-honest` and/or `malicious`. One JSON line per measurement
//! (`mac_bits` is null where no MAC is used; `verifier_keys` is `"seeded"`, the default as in the
//! jobs (`chorus_core::jobs::tinytable::SEEDED_VERIFIER_KEYS`), or, with
//! `--stored-verifier-keys`, `"stored"` for the malicious circuit path and null elsewhere):
//!
//! ```text
//! {"protocol":"tinytable","path":"sbox-tables","security":"semi-honest","mac_bits":null,"verifier_keys":null,"preprocessing":"trusted-dealer",
//!  "transport":"tcp","mode":"sequential","blocks":100,"online_ms":…,"ms_per_aes":…,"cpu_ms":…,
//!  "cpu_us_per_aes":…,"aes_per_s":…,
//!  "prep_ms":…,"prep_bytes_per_party":…,"prep_sent_bytes_per_party":…,"bytes_per_party":…,"rounds":…}
//! ```
//!
//! - `mode: "sequential"`: latency. The parties encrypt `blocks` blocks one after another (one
//!   online run per block, each waiting for the previous); `ms_per_aes` = `online_ms / blocks`.
//! - `mode: "amortized"`: throughput. One online run encrypts all `blocks` blocks at once (one
//!   message per round for all of them); `ms_per_aes` = `online_ms / blocks`. The default batch
//!   sizes are 1 and 1024: the circuit path is bit-sliced 64 instances per word, so a batch of
//!   about a hundred leaves most of each word's lanes and each round's fixed cost unamortized.
//! - `cpu_ms`: the CPU time both party threads spent in the timed region (each party thread runs
//!   its protocol and its transport tasks), `cpu_us_per_aes` = `cpu_ms / blocks` in µs; `null`
//!   where the thread CPU clock is not available. On a shared machine, wall time includes waiting
//!   for a core; CPU time does not.
//!
//! Preprocessing is made **before** the timed region and each block's material is consumed by
//! exactly one encryption, never reused:
//! - `"preprocessing":"trusted-dealer"` (default): by an in-process [`TrustedDealer`] (`prep_ms`:
//!   the dealer's time for both parties' material);
//! - `"preprocessing":"ot"` (`--preprocessing ot`): by the two parties in the session, with no
//!   dealer: TinyOT over OT extension, then Fig. 8 (circuit path; its malicious material has
//!   stored verification strings) or the §4 S-box tables (S-box path, malicious only), as the
//!   jobs make it (`prep_ms`: the slower party's wall time from one OT setup to its last batch's
//!   material; `prep_sent_bytes_per_party`: what the busier party sent for it).
//!
//! `prep_bytes_per_party` is the table shares one party holds per block. The timed region runs from a barrier after the Noise handshakes until the slower party
//! finished. The circuit path's evaluation plan (which storage slot holds each wire, a function of
//! the public circuit only) is made before the timed region too ([`PlannedCircuit::new`]). With
//! `--reps n` (default 3) each configuration runs n times, each with fresh preprocessing, and the
//! run with the median `online_ms` is printed. Key owner: party 0 (`sbox-tables` needs one),
//! plaintext: party 1, ciphertext to both; every ciphertext is checked against the plain AES (exit
//! code 1 on a mismatch).

use chorus_core::aes::{Aes, Block, Direction};
use chorus_core::circuit::aes_bristol::{output_bytes, value_bits};
use chorus_core::circuit::{aes_gen, Circuit};
use chorus_core::jobs::tinytable::sbox_ot;
use chorus_core::net::Network;
use chorus_core::proto::tinytable::circuit::online::evaluate_sliced;
use chorus_core::proto::tinytable::sbox::malicious as sbox_malicious;
use chorus_core::proto::tinytable::sbox::tables::{self as aes_tables, AesTablePrep};
use chorus_core::proto::tinytable::{
    evaluate_malicious, fig8_binary, fig8_malicious, IoSpec, MacWord, MaliciousAesPrep, MaliciousPrep,
    OtTinyOt, PlannedCircuit, Reveal, SlicedPrep, TinyTableError, TrustedDealer,
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

const TIMEOUT: Duration = Duration::from_secs(60);
const SESSION: &[u8] = b"chorus/bench/tinytable";
/// The S-box path's §3.3 hash key with OT material (public; the jobs derive theirs from the spec
/// digest).
const HASH_KEY: [u8; 16] = *b"chorus/bench/tt.";

/// Benchmarks two-party TinyTable AES-128 over TCP loopback.
#[derive(Parser, Debug)]
#[command(name = "chorus-bench-tinytable", version)]
struct Args {
    /// Block counts of the sequential (latency) runs.
    #[arg(long, value_delimiter = ',', default_value = "100")]
    sequential: Vec<usize>,
    /// Block counts of the amortized (one batch) runs.
    #[arg(long, value_delimiter = ',', default_value = "1,1024")]
    amortized: Vec<usize>,
    /// Paths to measure: sbox-tables, circuit.
    #[arg(long, value_delimiter = ',', default_value = "sbox-tables,circuit")]
    paths: Vec<String>,
    /// Security levels to measure: semi-honest, malicious.
    #[arg(long, value_delimiter = ',', default_value = "semi-honest,malicious")]
    security: Vec<String>,
    /// MAC widths of the malicious circuit path: 64, 32 (the S-box path uses 64).
    #[arg(long, value_delimiter = ',', default_value = "64,32")]
    mac_bits: Vec<u32>,
    /// Circuit path, malicious: the dealer gives each verifier its stored verification strings
    /// (`verifier_keys: "stored"`, the form Fig. 8 produces) instead of a 16-byte seed it derives
    /// them from (`"seeded"`, the default).
    #[arg(long, conflicts_with = "seeded_verifier_keys")]
    stored_verifier_keys: bool,
    /// Circuit path, malicious: seeded verification strings (the default; kept so existing
    /// command lines still parse).
    #[arg(long)]
    seeded_verifier_keys: bool,
    /// Preprocessing: trusted-dealer, ot (the two parties over OT; the S-box-table path is
    /// malicious only there).
    #[arg(long, value_delimiter = ',', default_value = "trusted-dealer")]
    preprocessing: Vec<String>,
    /// Runs per configuration (fresh preprocessing each); the run with the median `online_ms` is
    /// printed.
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// S-box-table path, malicious: the key XOR-shared between both parties (the key schedule on
    /// 40 more tables per block) instead of expanded by party 0.
    #[arg(long)]
    shared_key: bool,
}

#[derive(Serialize)]
struct Line {
    protocol: &'static str,
    path: &'static str,
    /// S-box-table path: `"owner"` (party 0 expands the key) or `"shared"` (XOR-shared key).
    key: Option<&'static str>,
    security: &'static str,
    mac_bits: Option<u32>,
    verifier_keys: Option<&'static str>,
    preprocessing: &'static str,
    transport: &'static str,
    mode: &'static str,
    blocks: usize,
    online_ms: f64,
    ms_per_aes: f64,
    cpu_ms: Option<f64>,
    cpu_us_per_aes: Option<f64>,
    aes_per_s: f64,
    prep_ms: f64,
    prep_bytes_per_party: usize,
    prep_sent_bytes_per_party: Option<u64>,
    bytes_per_party: u64,
    rounds: u64,
    reps: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Path {
    SboxTables,
    Circuit,
}

/// What a run measures: path, and the MAC width for malicious security (`None`: semi-honest).
#[derive(Clone, Copy)]
struct Config {
    path: Path,
    mac_bits: Option<u32>,
    /// Circuit path, malicious: seeded verification strings.
    seeded_keys: bool,
    /// Made by the two parties over OT (else by the trusted dealer).
    ot: bool,
    /// S-box-table path: the key XOR-shared (party 1 owns the plaintexts).
    shared_key: bool,
}

/// One party's material for a run: one entry per online call (one block when sequential, all
/// blocks when amortized), except the semi-honest S-box tables, which are per block.
enum Material {
    Tables(Vec<AesTablePrep>),
    MaliciousTables(Vec<MaliciousAesPrep>),
    Sliced(Vec<SlicedPrep>),
    Malicious64(Vec<MaliciousPrep<u64>>),
    Malicious32(Vec<MaliciousPrep<u32>>),
}

fn main() -> ExitCode {
    chorus_native::cli::run_main("chorus-bench-tinytable", |args: Args| run(&args))
}

fn run(args: &Args) -> Result<(), String> {
    if args.reps == 0 || args.sequential.iter().chain(&args.amortized).any(|&b| b == 0) {
        return Err("--reps and every block count must be at least 1".into());
    }
    let circuit = Arc::new(aes_gen::aes128_circuit().map_err(|e| e.to_string())?);
    for name in &args.paths {
        let path = match name.as_str() {
            "sbox-tables" => Path::SboxTables,
            "circuit" => Path::Circuit,
            other => return Err(format!("unknown path {other:?}: use sbox-tables and/or circuit")),
        };
        let mut configs = Vec::new();
        for preprocessing in &args.preprocessing {
            let ot = match preprocessing.as_str() {
                "trusted-dealer" => false,
                "ot" => true,
                other => return Err(format!("unknown preprocessing {other:?}: trusted-dealer and/or ot")),
            };
            for security in &args.security {
                match (security.as_str(), path) {
                    ("semi-honest", Path::SboxTables) if ot => eprintln!(
                        "chorus-bench-tinytable: skipped sbox-tables semi-honest with OT preprocessing \
                         (the OT construction makes authenticated tables; measure --security malicious)"
                    ),
                    ("semi-honest", Path::SboxTables) if args.shared_key => eprintln!(
                        "chorus-bench-tinytable: skipped sbox-tables semi-honest with --shared-key \
                         (a shared key runs on authenticated tables; measure --security malicious)"
                    ),
                    ("semi-honest", _) => configs.push(Config {
                        path,
                        mac_bits: None,
                        seeded_keys: false,
                        ot,
                        shared_key: false,
                    }),
                    ("malicious", Path::SboxTables) => configs.push(Config {
                        path,
                        mac_bits: Some(64),
                        seeded_keys: false,
                        ot,
                        shared_key: args.shared_key,
                    }),
                    ("malicious", Path::Circuit) => {
                        for &bits in &args.mac_bits {
                            if bits != 64 && bits != 32 {
                                return Err(format!("--mac-bits must be 64 and/or 32, got {bits}"));
                            }
                            let seeded_keys = !ot && !args.stored_verifier_keys;
                            configs.push(Config {
                                path,
                                mac_bits: Some(bits),
                                seeded_keys,
                                ot,
                                shared_key: false,
                            });
                        }
                    }
                    (other, _) => {
                        return Err(format!("unknown security {other:?}: semi-honest and/or malicious"))
                    }
                }
            }
        }
        for config in configs {
            for (mode, counts) in [("sequential", &args.sequential), ("amortized", &args.amortized)] {
                for &blocks in counts {
                    let mut line = median_run(
                        args.reps,
                        |line: &Line| line.online_ms,
                        || run_once(config, mode, blocks, &circuit),
                    )?;
                    line.reps = args.reps;
                    print_json_line(&line);
                }
            }
        }
    }
    Ok(())
}

/// One party's table bytes per block in `material` (whose first online call covers `first`
/// blocks).
fn table_bytes(material: &Material, first: usize) -> usize {
    match material {
        Material::Tables(preps) => preps[0].table_bytes(),
        Material::MaliciousTables(preps) => preps[0].table_and_mac_bytes() / first,
        Material::Sliced(preps) => preps[0].table_bits_per_instance() / 8,
        Material::Malicious64(preps) => preps[0].table_bits_per_instance() / 8,
        Material::Malicious32(preps) => preps[0].table_bits_per_instance() / 8,
    }
}

/// Both parties' material for `batches` online calls, from the trusted dealer.
fn deal(config: Config, batches: &[usize], circuit: &Circuit, io: &IoSpec) -> Result<[Material; 2], String> {
    let mut dealer = TrustedDealer::new(session_rng().map_err(|e| e.to_string())?);
    let err = |e: chorus_core::proto::tinytable::TinyTableError| e.to_string();
    let blocks: usize = batches.iter().sum();
    Ok(match (config.path, config.mac_bits) {
        (Path::SboxTables, None) => {
            let [a, b] = dealer.aes_tables_batch(Direction::Encrypt, 0, Reveal::Both, blocks).map_err(err)?;
            [Material::Tables(a), Material::Tables(b)]
        }
        (Path::SboxTables, Some(_)) => {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for &n in batches {
                let [x, y] = if config.shared_key {
                    dealer.malicious_aes_tables_shared_key(Direction::Encrypt, 1, Reveal::Both, n)
                } else {
                    dealer.malicious_aes_tables(Direction::Encrypt, 0, Reveal::Both, n)
                }
                .map_err(err)?;
                a.push(x);
                b.push(y);
            }
            [Material::MaliciousTables(a), Material::MaliciousTables(b)]
        }
        (Path::Circuit, None) => {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for &n in batches {
                let [x, y] = dealer.sliced_batch(circuit, io, n).map_err(err)?;
                a.push(x);
                b.push(y);
            }
            [Material::Sliced(a), Material::Sliced(b)]
        }
        (Path::Circuit, Some(bits)) => {
            fn batch<M: MacWord>(
                dealer: &mut TrustedDealer<impl rand_core::RngCore + rand_core::CryptoRng>,
                circuit: &Circuit,
                io: &IoSpec,
                batches: &[usize],
                seeded: bool,
            ) -> Result<[Vec<MaliciousPrep<M>>; 2], String> {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                for &n in batches {
                    let material = if seeded {
                        dealer.malicious_batch_seeded::<M>(circuit, io, n)
                    } else {
                        dealer.malicious_batch::<M>(circuit, io, n)
                    };
                    let [x, y] = material.map_err(|e| e.to_string())?;
                    a.push(x);
                    b.push(y);
                }
                Ok([a, b])
            }
            if bits == 32 {
                let [a, b] = batch::<u32>(&mut dealer, circuit, io, batches, config.seeded_keys)?;
                [Material::Malicious32(a), Material::Malicious32(b)]
            } else {
                let [a, b] = batch::<u64>(&mut dealer, circuit, io, batches, config.seeded_keys)?;
                [Material::Malicious64(a), Material::Malicious64(b)]
            }
        }
    })
}

/// This party's material for `batches` online calls, made with the peer over OT (one TinyOT
/// setup, then one Fig. 8 or §4 construction per batch), as the jobs make it.
async fn ot_material<N: Network>(
    net: &mut N,
    config: Config,
    batches: &[usize],
    circuit: &Circuit,
    io: &IoSpec,
) -> Result<Material, String> {
    let err = |e: TinyTableError| e.to_string();
    let rng = session_rng().map_err(|e| e.to_string())?;
    Ok(match (config.path, config.mac_bits) {
        (Path::Circuit, None) => {
            let mut source = OtTinyOt::<u64>::setup(net, SESSION, rng).await.map_err(err)?;
            let mut preps = Vec::with_capacity(batches.len());
            for &n in batches {
                let binary = fig8_binary(net, &mut source, circuit, io, n).await.map_err(err)?;
                preps.push(SlicedPrep::from_instances(circuit, &binary).map_err(err)?);
            }
            Material::Sliced(preps)
        }
        (Path::Circuit, Some(32)) => Material::Malicious32(fig8_batches(net, circuit, io, batches).await?),
        (Path::Circuit, Some(_)) => Material::Malicious64(fig8_batches(net, circuit, io, batches).await?),
        (Path::SboxTables, Some(_)) => {
            let mut source = OtTinyOt::<u64>::setup(net, SESSION, rng).await.map_err(err)?;
            let mut preps = Vec::with_capacity(batches.len());
            for &n in batches {
                let prep = sbox_ot::build_tables(
                    net,
                    &mut source,
                    Direction::Encrypt,
                    (0, config.shared_key),
                    Reveal::Both,
                    n,
                    HASH_KEY,
                    sbox_ot::CHUNK_BLOCKS,
                )
                .await
                .map_err(err)?;
                preps.push(prep);
            }
            Material::MaliciousTables(preps)
        }
        (Path::SboxTables, None) => return Err("the S-box-table path has no semi-honest OT material".into()),
    })
}

/// Malicious Fig. 8 material with k-bit MACs for each batch, after one TinyOT setup.
async fn fig8_batches<N: Network, M: MacWord>(
    net: &mut N,
    circuit: &Circuit,
    io: &IoSpec,
    batches: &[usize],
) -> Result<Vec<MaliciousPrep<M>>, String> {
    let err = |e: TinyTableError| e.to_string();
    let rng = session_rng().map_err(|e| e.to_string())?;
    let mut source = OtTinyOt::<M>::setup(net, SESSION, rng).await.map_err(err)?;
    let mut preps = Vec::with_capacity(batches.len());
    for &n in batches {
        preps.push(fig8_malicious(net, &mut source, circuit, io, n).await.map_err(err)?);
    }
    Ok(preps)
}

fn run_once(
    config: Config,
    mode: &'static str,
    blocks: usize,
    circuit: &Arc<Circuit>,
) -> Result<Line, String> {
    // Benchmark inputs are not secret: a seeded generator makes them reproducible.
    let mut inputs_rng = seeded_rng(blocks as u64);
    let key = random_blocks(&mut inputs_rng, 1)[0];
    let plaintext = random_blocks(&mut inputs_rng, blocks);
    let mut expected = plaintext.clone();
    Aes::new(&key).map_err(|e| e.to_string())?.encrypt_blocks(&mut expected);

    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
    let batches = if mode == "amortized" { vec![blocks] } else { vec![1; blocks] };
    let prep_started = Instant::now();
    let dealt = if config.ot { None } else { Some(deal(config, &batches, circuit, &io)?) };
    let dealer_prep = prep_started.elapsed();
    let material: Arc<[Mutex<Option<Material>>; 2]> =
        Arc::new(dealt.map_or([None, None], |m| m.map(Some)).map(Mutex::new));

    let plaintext = Arc::new(plaintext);
    let circuit = circuit.clone();
    let outcomes = run_loopback_session(2, SESSION, TIMEOUT, move |mut local| async move {
        let p = local.party;
        let dealt = material[p].lock().expect("material").take();
        let (material, prep) = match dealt {
            Some(material) => (material, None),
            None => {
                let start = local.start().await;
                let material = ot_material(&mut local.net, config, &batches, &circuit, &io).await?;
                (material, Some(start.span(&local.net)))
            }
        };
        // The circuit path's evaluation plan depends on the public circuit only: made once,
        // outside the timed region, as a service evaluating one circuit repeatedly does.
        let circuit = PlannedCircuit::new(&circuit);
        let start = local.start().await;
        let ciphertexts = online(&mut local.net, p, mode, &material, &key, &plaintext, &circuit).await?;
        // Freeing the consumed material (up to hundreds of MB) is not online work, neither in
        // wall time nor in CPU time: the span ends before it (and the network) are dropped.
        let bytes = table_bytes(&material, batches[0]);
        Ok::<_, String>((ciphertexts, start.span(&local.net), prep, bytes))
    })?;
    let prep_spans: Vec<_> = outcomes.iter().filter_map(|o| o.2).collect();
    let ot_prep = Summary::of(&prep_spans);
    let prep_bytes = outcomes[0].3;
    for (p, (ciphertexts, ..)) in outcomes.iter().enumerate() {
        if ciphertexts != &expected {
            return Err(format!("{mode}, {blocks} blocks: party {p} got a wrong ciphertext"));
        }
    }
    let online_run = Summary::of(outcomes.iter().map(|o| &o.1)).expect("two parties");
    let online_ms = online_run.wall_ms();
    let cpu_ms = online_run.cpu_ms();
    Ok(Line {
        protocol: "tinytable",
        path: if config.path == Path::SboxTables { "sbox-tables" } else { "circuit" },
        key: (config.path == Path::SboxTables).then_some(if config.shared_key { "shared" } else { "owner" }),
        security: if config.mac_bits.is_some() { "malicious" } else { "semi-honest" },
        mac_bits: config.mac_bits,
        verifier_keys: match (config.path, config.mac_bits) {
            (Path::Circuit, Some(_)) => Some(if config.seeded_keys { "seeded" } else { "stored" }),
            _ => None,
        },
        preprocessing: if config.ot { "ot" } else { "trusted-dealer" },
        transport: "tcp",
        mode,
        blocks,
        online_ms,
        ms_per_aes: online_ms / blocks as f64,
        cpu_ms,
        cpu_us_per_aes: cpu_ms.map(|c| c * 1e3 / blocks as f64),
        aes_per_s: blocks as f64 / online_run.wall.as_secs_f64(),
        prep_ms: ot_prep.as_ref().map_or(dealer_prep.as_secs_f64() * 1e3, |s| s.wall_ms()),
        prep_bytes_per_party: prep_bytes,
        prep_sent_bytes_per_party: ot_prep.as_ref().map(|s| s.max_bytes_sent),
        bytes_per_party: online_run.max_bytes_sent,
        rounds: online_run.rounds,
        reps: 1,
    })
}

/// The timed online phase of one party: all blocks in one batch, or one block after another.
async fn online<N: Network>(
    net: &mut N,
    party: usize,
    mode: &str,
    material: &Material,
    key: &Block,
    plaintext: &[Block],
    circuit: &PlannedCircuit<'_>,
) -> Result<Vec<Block>, String> {
    let batch = if mode == "amortized" { plaintext.len() } else { 1 };
    let mut out = Vec::with_capacity(plaintext.len());
    match material {
        Material::Tables(preps) => {
            for (preps, blocks) in preps.chunks(batch).zip(plaintext.chunks(batch)) {
                let inputs: Vec<Block> = if party == 0 { vec![*key; blocks.len()] } else { blocks.to_vec() };
                let result =
                    aes_tables::encrypt_batch(net, preps, &inputs).await.map_err(|e| e.to_string())?;
                out.extend(result.into_iter().map(|c| c.unwrap_or_default()));
            }
        }
        Material::MaliciousTables(preps) => {
            for (prep, blocks) in preps.iter().zip(plaintext.chunks(batch)) {
                let result = if prep.shared_key() {
                    // Party 0's share is a fixed block, party 1's the rest of the key.
                    let share: Block =
                        if party == 0 { [0x5a; 16] } else { core::array::from_fn(|j| key[j] ^ 0x5a) };
                    let shares = vec![share; blocks.len()];
                    let pts: &[Block] = if party == 1 { blocks } else { &[] };
                    sbox_malicious::encrypt_batch_shared_key(net, prep, &shares, pts).await
                } else {
                    let inputs: Vec<Block> =
                        if party == 0 { vec![*key; blocks.len()] } else { blocks.to_vec() };
                    sbox_malicious::encrypt_batch(net, prep, &inputs).await
                }
                .map_err(|e| e.to_string())?;
                out.extend(result.into_iter().map(|c| c.unwrap_or_default()));
            }
        }
        Material::Sliced(preps) => {
            for (prep, blocks) in preps.iter().zip(plaintext.chunks(batch)) {
                let result = evaluate_sliced(net, circuit, prep, &circuit_inputs(party, key, blocks))
                    .await
                    .map_err(|e| e.to_string())?;
                out.extend(ciphertexts(result));
            }
        }
        Material::Malicious64(preps) => {
            for (prep, blocks) in preps.iter().zip(plaintext.chunks(batch)) {
                let result = evaluate_malicious(net, circuit, prep, &circuit_inputs(party, key, blocks))
                    .await
                    .map_err(|e| e.to_string())?;
                out.extend(ciphertexts(result));
            }
        }
        Material::Malicious32(preps) => {
            for (prep, blocks) in preps.iter().zip(plaintext.chunks(batch)) {
                let result = evaluate_malicious(net, circuit, prep, &circuit_inputs(party, key, blocks))
                    .await
                    .map_err(|e| e.to_string())?;
                out.extend(ciphertexts(result));
            }
        }
    }
    Ok(out)
}

/// Party 0 inputs the key, party 1 the plaintext blocks, as circuit input values.
fn circuit_inputs(party: usize, key: &Block, blocks: &[Block]) -> Vec<Vec<Vec<bool>>> {
    blocks.iter().map(|b| vec![value_bits(if party == 0 { key } else { b })]).collect()
}

/// The ciphertext of every instance (zeros where not revealed, which the caller's check rejects).
fn ciphertexts(result: Vec<Vec<Option<Vec<bool>>>>) -> impl Iterator<Item = Block> {
    result.into_iter().map(|outputs| {
        let bits = outputs.into_iter().next().flatten().unwrap_or_default();
        output_bytes(&bits).unwrap_or_default()
    })
}
