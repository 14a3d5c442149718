//! `chorus-party`: runs one member of a joint-AES job over the relay or a direct TCP mesh, and
//! prints one JSON line with what it learned and its communication. `--protocol maestro` (default):
//! three-party MAESTRO, S-box `--variant` (lut16 by default, gf256-circuit, gf16-circuit, lut256,
//! lut256-33) at `--security` malicious (default) or semi-honest, as the SDK's defaults.
//! `--protocol tinytable`: two-party TinyTable AES-128, `--path circuit` (default) or
//! `sbox-tables` (one key holder, or `--key-holders 0,1` for an XOR-shared key), `--security semi-honest` (default for TinyTable) or `malicious`
//! (`--mac-bits 64|32` on the circuit path), with `--preprocessing ot` (default: the two parties
//! make the material between themselves over OT, the session has two members and nobody else is
//! trusted; on `sbox-tables` they build the tables with the §4 construction) or `--preprocessing dealer` (member 2 is the **trusted dealer**: it
//! deals the preprocessing, knows every mask and must not collude with either party — a weaker
//! trust model). `--protocol minimac`: MiniMac AES-128 (malicious with abort),
//! `--code rs256-120-matrix` (default) or `rs255-85-fft`, `--preprocessing ot` (default, the
//! parties over OT: two, or every member of a larger session — as many as `--peers` lists, 3 to
//! 8, with MAESTRO's role defaults over all of them; a whole batch's material per job) or `dealer`
//! (member 2 is the trusted dealer). `--protocol coral`: Coral AES-128 (malicious with abort,
//! RMFE-packed), `--preprocessing ot` (default, the parties over OT as for MiniMac) or `dealer`
//! (member 2 is the trusted dealer). `--protocol tinyot`: multi-party TinyOT AES-128 (malicious
//! with abort, one AND triple per gate and block, material over OT among every member as for
//! MiniMac; `--preprocessing ot` only). Two-party role
//! defaults: key holder 0, plaintext owner 1, revealed to 0 and 1. `rounds_stats` is the online
//! phase (the job's `online_stats`) and `preprocessing_stats` the making of the material.
//!
//! ```text
//! {"party":2,"transport":"relay","ciphertext":"69c4…","stats":{…},"rounds_stats":{…},"preprocessing_stats":{…},"transport_stats":{…},"ms":12.3,"steady_ms":12.3,"handshake_ms":1.2}
//! ```
//!
//! `ciphertext` is present only for parties in `--reveal`.
//!
//! `--circuit FILE` runs the circuit job on a Bristol Fashion circuit instead (TinyTable, MiniMac,
//! Coral or TinyOT; the protocol options as above), on any number of instances at once:
//! `--input-owners` gives the owner (0 or 1) of each input value, `--outputs-to` who learns each
//! output value (`both`, `0` or `1`; one entry for all; default both). MiniMac, Coral and TinyOT over OT
//! run the circuit among 2 to 8 members, every one computing with nobody else trusted (as many as
//! `--peers` lists, or the room's slots; owners and `--outputs-to` any of them); `--instances-file` this
//! member's input values, one line per instance, each value in hex in the SDK's byte form
//! ([`chorus_native::circuit_io`]), and `--instances` the count for a member that owns no input
//! (the dealer). With `--ring 32|64` the file is Summon's compiled circuit object (JSON) of a
//! program compiled without boolify, run as a mixed circuit on Coral's arithmetic shares
//! (`--protocol coral`), each value a k-bit integer in the same hex form, among 2 to 8 members
//! (as many as `--peers` lists, or the room's slots; owners and `--outputs-to` any of them).
//! The report then has `outputs`: per instance, per output value, its hex or null
//! where it is not revealed to this member. The defaults match the TypeScript
//! SDK's `session.aes` (AES-128, key shares from parties 0 and 1, plaintext from party 2,
//! revealed to all), and in relay mode the session id is the SDK's id of the first job of room
//! ([`chorus_native::job::room_session_id`] with job 0) and the party sends and awaits the
//! SDK's job end markers before leaving, so a native party can take a slot of a room whose other
//! parties use the SDK (one job per connection). In TCP mode the session id is
//! `--session`, by default `"chorus/tcp/" + the --peers list as given`. The session secret
//! (hex, at least 16 bytes) comes from `--secret-hex` or the environment variable
//! `CHORUS_SECRET`. Any error prints a message on stderr and exits with code 1.

use chorus_core::aes::KeySize;
use chorus_core::circuit::Circuit;
use chorus_core::jobs::maestro_aes::{self, Direction, SboxVariant};
use chorus_core::jobs::tinytable::aes::AesPath;
use chorus_core::jobs::tinytable::MacBits;
use chorus_core::jobs::{
    AesInput, AesOutput, AesProtocol, AesSpec, CircuitInput, CircuitOutput, CircuitProtocol, CircuitSpec,
    JobCircuit, Preprocessing, Security,
};
use chorus_core::net::Network;
use chorus_core::proto::coral::arith::ot::MAX_PARTIES;
use chorus_core::proto::minimac::CodeChoice;
use chorus_core::proto::tinytable::IoSpec;
use chorus_native::circuit_io;
use chorus_native::job::JobRunError;
use chorus_native::job::{
    room_session_id, run_party_repeated, AesJob, CircuitJob, PartyOutcome, StatsReport,
};
use chorus_native::relay::{RelayAddress, RelayNetwork};
use chorus_native::tcp::{TcpConfig, TcpNetwork};
use chorus_native::FlushHandle;
use clap::Parser;
use serde::Serialize;
use std::net::{SocketAddr, ToSocketAddrs};
use std::process::ExitCode;
use std::time::Duration;

/// Runs one party of a joint-AES job (three-party MAESTRO; two-party TinyTable, MiniMac or Coral).
#[derive(Parser, Debug)]
#[command(name = "chorus-party", version)]
struct Args {
    /// Relay URL (http://host:port, ws://host:port/ws, their TLS forms https:// and wss://, under a
    /// path prefix if any; TLS certificates are checked against Mozilla's roots and the PEM file
    /// named by NODE_EXTRA_CA_CERTS) to join a room through.
    #[arg(long, conflicts_with = "tcp", requires_all = ["room", "slot", "token"])]
    relay: Option<String>,
    /// Room id (relay mode). Room ids are base64url and may begin with '-'.
    #[arg(long, allow_hyphen_values = true)]
    room: Option<String>,
    /// Slot = party index (relay mode).
    #[arg(long)]
    slot: Option<usize>,
    /// Join token of the slot (relay mode). Tokens are base64url and may begin with '-'.
    #[arg(long, allow_hyphen_values = true)]
    token: Option<String>,
    /// Use a direct TCP mesh instead of the relay.
    #[arg(long, requires_all = ["party", "peers"])]
    tcp: bool,
    /// This party's index (TCP mode).
    #[arg(long)]
    party: Option<usize>,
    /// Every party's host:port in party order, this party's own listening address included (TCP mode).
    #[arg(long, value_delimiter = ',')]
    peers: Vec<String>,
    /// Session id (TCP mode); default "chorus/tcp/" followed by the --peers argument.
    #[arg(long)]
    session: Option<String>,
    /// Session secret as hex (at least 16 bytes); default: the CHORUS_SECRET environment variable.
    #[arg(long)]
    secret_hex: Option<String>,
    /// This party's XOR share of the key, hex (key holders only).
    #[arg(long)]
    key_share: Option<String>,
    /// The plaintext, hex, 16 bytes per block (plaintext owner only).
    #[arg(long, conflicts_with = "plaintext_file")]
    plaintext: Option<String>,
    /// A file holding the plaintext as raw bytes, 16 per block, for batches too long for a
    /// command line (plaintext owner only).
    #[arg(long)]
    plaintext_file: Option<std::path::PathBuf>,
    /// Number of 16-byte blocks.
    #[arg(long, default_value_t = 1)]
    blocks: usize,
    /// AES key size in bits: 128, 192 or 256.
    #[arg(long, default_value_t = 128)]
    key_bits: u16,
    /// The protocol: maestro (three parties), tinytable (two parties), minimac, coral or tinyot
    /// (two, or every member over OT; see --preprocessing).
    #[arg(long, default_value = "maestro")]
    protocol: String,
    /// MAESTRO's S-box variant: gf256-circuit, gf16-circuit, lut16, lut256 or lut256-33.
    #[arg(long, default_value = maestro_aes::DEFAULT_VARIANT.name())]
    variant: String,
    /// TinyTable's AES path: circuit or sbox-tables.
    #[arg(long, default_value = "circuit")]
    path: String,
    /// Security level: semi-honest or malicious. Default as in the SDK: malicious for MAESTRO,
    /// semi-honest for TinyTable.
    #[arg(long)]
    security: Option<String>,
    /// TinyTable's preprocessing: ot (the two parties over OT, a two-member session) or dealer (a
    /// trusted dealer as member 2, a weaker trust model).
    #[arg(long, default_value = "ot")]
    preprocessing: String,
    /// MiniMac's Reed-Solomon code: rs256-120-matrix (default) or rs255-85-fft.
    #[arg(long, default_value = CodeChoice::DEFAULT.name())]
    code: String,
    /// TinyTable's MAC width under malicious security: 64 or 32 (circuit path).
    #[arg(long, default_value_t = 64)]
    mac_bits: u32,
    /// Parties that each input an XOR share of the key (default 0,1; TinyTable: 0).
    #[arg(long, value_delimiter = ',')]
    key_holders: Option<Vec<usize>>,
    /// The party that inputs the plaintext (default 2; TinyTable: 1).
    #[arg(long)]
    plaintext_owner: Option<usize>,
    /// Parties that learn the ciphertext (default 0,1,2; TinyTable: 0,1).
    #[arg(long, value_delimiter = ',')]
    reveal: Option<Vec<usize>>,
    /// Run the job this many times on the same channels (every party alike), as an SDK session
    /// runs jobs; `ms` is the first run, `steady_ms` the median of the later ones (the upper
    /// middle of an even count; the first run's time when there is none).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    runs: u32,
    /// Leave the first N of the later runs out of `steady_ms` (they still run): a benchmark that
    /// compares runtimes whose engines warm up over many jobs (V8 in Node and browsers) measures
    /// every runtime after the same number of jobs. Must leave at least one later run.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=99))]
    settle: u32,
    /// Seconds to wait for the other parties to connect (and, for the relay, for the room to be ready).
    #[arg(long, default_value_t = 60)]
    connect_timeout: u64,
    /// Run the circuit job on this Bristol Fashion circuit instead of AES (tinytable, minimac or
    /// coral).
    #[arg(long)]
    circuit: Option<std::path::PathBuf>,
    /// Circuit job: `--circuit` is Summon's compiled circuit object (JSON, compiled without
    /// boolify), a mixed circuit on Coral whose values are integers of this many bits (32 or 64).
    #[arg(long, requires = "circuit")]
    ring: Option<u32>,
    /// Circuit job: the owner (0 or 1) of each input value, in circuit order.
    #[arg(long, value_delimiter = ',', requires = "circuit")]
    input_owners: Vec<usize>,
    /// Circuit job: who learns each output value — `both` or a party index; one entry for all
    /// (default both).
    #[arg(long, value_delimiter = ',', requires = "circuit")]
    outputs_to: Vec<String>,
    /// Circuit job: this member's input values, one line per instance, hex values in circuit order.
    #[arg(long, requires = "circuit")]
    instances_file: Option<std::path::PathBuf>,
    /// Circuit job: the number of instances (needed by a member that owns no input).
    #[arg(long, requires = "circuit")]
    instances: Option<usize>,
}

#[derive(Serialize)]
struct Report {
    party: usize,
    transport: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    ciphertext: Option<String>,
    /// Circuit job: per instance, per output value, its hex if revealed to this member.
    #[serde(skip_serializing_if = "Option::is_none")]
    outputs: Option<Vec<Vec<Option<String>>>>,
    stats: StatsReport,
    rounds_stats: StatsReport,
    preprocessing_stats: StatsReport,
    transport_stats: StatsReport,
    ms: f64,
    steady_ms: f64,
    handshake_ms: f64,
}

fn main() -> ExitCode {
    chorus_native::cli::run_main("chorus-party", |args: Args| {
        let report = run(args)?;
        println!("{}", serde_json::to_string(&report).expect("the report serializes"));
        Ok(())
    })
}

/// Where the party connects, with its session id.
enum Transport {
    Relay { address: RelayAddress, room: String, slot: usize, token: String },
    Tcp { party: usize, peers: Vec<SocketAddr> },
}

fn run(args: Args) -> Result<Report, String> {
    let secret_hex = match args.secret_hex.clone() {
        Some(s) => s,
        None => std::env::var("CHORUS_SECRET")
            .map_err(|_| "no session secret: pass --secret-hex or set CHORUS_SECRET".to_string())?,
    };
    let secret = hex::decode(secret_hex.trim()).map_err(|e| format!("the session secret is not hex: {e}"))?;
    let job = job(&args)?;
    let members = job.members();
    let (transport, session_id) = transport(&args, members)?;
    let timeout = Duration::from_secs(args.connect_timeout);
    let runs = args.runs as usize;
    if args.settle > 0 && args.settle + 1 >= args.runs {
        return Err(format!(
            "--settle {} leaves none of the {} later runs for steady_ms",
            args.settle,
            args.runs - 1
        ));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the tokio runtime: {e}"))?;
    let (party, kind, outcome) = runtime.block_on(async {
        match transport {
            Transport::Relay { address, room, slot, token } => {
                let (net, mut handle) = RelayNetwork::join(&address, &room, slot, &token, timeout)
                    .await
                    .map_err(|e| e.to_string())?;
                let outcome = job.run(net, &session_id, &secret, runs).await;
                let linger = if outcome.is_ok() {
                    for _ in 0..runs {
                        handle.job_done();
                    }
                    LINGER
                } else {
                    Duration::ZERO
                };
                handle.close(linger).await;
                Ok::<_, String>((slot, "relay", outcome.map_err(|e| e.to_string())?))
            }
            Transport::Tcp { party, peers } => {
                let listener = tokio::net::TcpListener::bind(peers[party])
                    .await
                    .map_err(|e| format!("listening on {}: {e}", peers[party]))?;
                let config = TcpConfig { connect_timeout: timeout, ..TcpConfig::default() };
                let (net, flush) = TcpNetwork::establish(party, listener, &peers, &config)
                    .await
                    .map_err(|e| e.to_string())?;
                let outcome = finish(job.run(net, &session_id, &secret, runs).await, flush).await;
                Ok((party, "tcp", outcome?))
            }
        }
    })?;
    let (ciphertext, outputs, [stats, online, preprocessing]) = match outcome.output {
        Output::Aes(o) => {
            (o.ciphertext.map(hex::encode), None, [o.stats, o.online_stats, o.preprocessing_stats])
        }
        Output::Circuit(o) => {
            let outputs = o
                .outputs
                .iter()
                .map(|values| values.iter().map(|v| v.as_deref().map(circuit_io::value_hex)).collect())
                .collect();
            (None, Some(outputs), [o.stats, o.online_stats, o.preprocessing_stats])
        }
    };
    Ok(Report {
        party,
        transport: kind,
        ciphertext,
        outputs,
        stats: stats.into(),
        rounds_stats: online.into(),
        preprocessing_stats: preprocessing.into(),
        transport_stats: outcome.transport.into(),
        ms: outcome.job.as_secs_f64() * 1e3,
        steady_ms: median(&outcome.repeats[args.settle as usize..]).unwrap_or(outcome.job).as_secs_f64()
            * 1e3,
        handshake_ms: outcome.handshake.as_secs_f64() * 1e3,
    })
}

/// The job and this member's inputs from the arguments.
/// The median of `times` (the upper middle of an even count), if any.
fn median(times: &[std::time::Duration]) -> Option<std::time::Duration> {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted.get(sorted.len() / 2).copied()
}

/// The job this member runs: AES, or the circuit job with `--circuit`.
enum Job {
    Aes(AesJob),
    Circuit(CircuitJob),
}

/// What it gave this member.
enum Output {
    Aes(AesOutput),
    Circuit(CircuitOutput),
}

impl Job {
    /// The session size the job needs, if it fixes one (MiniMac and Coral over OT — Coral's mixed
    /// circuits too — run among any 2 to 8 members, every one computing; the job checks the owners
    /// and recipients against it).
    fn members(&self) -> Option<usize> {
        match self {
            Job::Aes(j) => j.spec.members(),
            Job::Circuit(j) => j.spec.members(),
        }
    }

    async fn run<N: Network>(
        &self,
        net: N,
        session_id: &[u8],
        secret: &[u8],
        runs: usize,
    ) -> Result<PartyOutcome<Output>, JobRunError> {
        Ok(match self {
            Job::Aes(j) => {
                run_party_repeated(net, session_id, secret, j, async {}, runs).await?.map(Output::Aes)
            }
            Job::Circuit(j) => {
                run_party_repeated(net, session_id, secret, j, async {}, runs).await?.map(Output::Circuit)
            }
        })
    }
}

fn job(args: &Args) -> Result<Job, String> {
    let (spec, input) = aes_job(args)?;
    let Some(path) = &args.circuit else {
        spec.validate().map_err(|e| e.to_string())?;
        return Ok(Job::Aes(AesJob { spec, input }));
    };
    let protocol = match spec.protocol {
        AesProtocol::Maestro { .. } => {
            return Err(
                "circuits run on tinytable, minimac, coral or tinyot; choose one with --protocol".into()
            )
        }
        AesProtocol::TinyTable { path: AesPath::SboxTables, .. } => {
            return Err("--path sbox-tables is an AES path; a circuit job has none".into())
        }
        AesProtocol::TinyTable { preprocessing, security, mac_bits, .. } => {
            CircuitProtocol::TinyTable { preprocessing, security, mac_bits }
        }
        AesProtocol::MiniMac { code, preprocessing } => CircuitProtocol::MiniMac { code, preprocessing },
        AesProtocol::Coral { preprocessing } => CircuitProtocol::Coral { preprocessing },
        AesProtocol::TinyOt => CircuitProtocol::TinyOt,
    };
    let read = |p: &std::path::Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let text = read(path)?;
    let circuit: JobCircuit = match args.ring {
        None => Circuit::parse_bristol(&text).map(JobCircuit::from).map_err(|e| e.to_string()),
        Some(k) => circuit_io::summon_mixed(&text, k),
    }
    .map_err(|e| format!("--circuit {}: {e}", path.display()))?;
    if args.input_owners.len() != circuit.input_widths().len() {
        return Err(format!(
            "--input-owners lists {} owners; the circuit has {} input values",
            args.input_owners.len(),
            circuit.input_widths().len()
        ));
    }
    let reveal = circuit_io::reveal(&args.outputs_to, circuit.output_widths().len())?;
    let me = args.slot.or(args.party).unwrap_or(0);
    let values = match &args.instances_file {
        Some(file) => circuit_io::instances(&read(file)?, circuit.input_widths(), &args.input_owners, me)?,
        None => vec![Vec::new(); args.instances.ok_or("--instances or --instances-file is needed")?],
    };
    if args.instances.is_some_and(|n| n != values.len()) {
        return Err(format!(
            "--instances says {:?}; the instances file has {}",
            args.instances,
            values.len()
        ));
    }
    let io = IoSpec { input_owners: args.input_owners.clone(), reveal };
    let spec = CircuitSpec { protocol, circuit, io, instances: values.len() };
    spec.validate().map_err(|e| e.to_string())?;
    Ok(Job::Circuit(CircuitJob { spec, input: CircuitInput { values } }))
}

/// The AES job of the arguments (its protocol options serve the circuit job too), unvalidated.
fn aes_job(args: &Args) -> Result<(AesSpec, AesInput), String> {
    let security = match (&args.security, args.protocol.as_str()) {
        (Some(name), _) => Security::from_name(name)
            .ok_or_else(|| format!("--security must be semi-honest or malicious, got {name:?}"))?,
        (None, "maestro" | "minimac" | "coral" | "tinyot") => maestro_aes::DEFAULT_SECURITY,
        (None, _) => Security::SemiHonest,
    };
    let decode = |what: &str, v: &Option<String>| -> Result<Option<Vec<u8>>, String> {
        v.as_deref().map(|h| hex::decode(h.trim()).map_err(|e| format!("{what} is not hex: {e}"))).transpose()
    };
    let input = AesInput {
        key_share: decode("--key-share", &args.key_share)?,
        plaintext: match &args.plaintext_file {
            Some(path) => {
                Some(std::fs::read(path).map_err(|e| format!("--plaintext-file {}: {e}", path.display()))?)
            }
            None => decode("--plaintext", &args.plaintext)?,
        },
    };
    let key_size = match args.key_bits {
        128 => KeySize::Aes128,
        192 => KeySize::Aes192,
        256 => KeySize::Aes256,
        other => return Err(format!("--key-bits must be 128, 192 or 256, got {other}")),
    };
    let preprocessing = || {
        Preprocessing::from_name(&args.preprocessing)
            .ok_or_else(|| format!("--preprocessing must be ot or dealer, got {:?}", args.preprocessing))
    };
    let protocol = match args.protocol.as_str() {
        "maestro" => AesProtocol::Maestro {
            variant: SboxVariant::from_name(&args.variant).ok_or_else(|| {
                format!(
                    "--variant must be gf256-circuit, gf16-circuit, lut16, lut256 or lut256-33, got {:?}",
                    args.variant
                )
            })?,
            security,
        },
        "tinytable" => AesProtocol::TinyTable {
            path: AesPath::from_name(&args.path)
                .ok_or_else(|| format!("--path must be circuit or sbox-tables, got {:?}", args.path))?,
            preprocessing: preprocessing()?,
            security,
            mac_bits: MacBits::from_bits(args.mac_bits)
                .ok_or_else(|| format!("--mac-bits must be 64 or 32, got {}", args.mac_bits))?,
        },
        "minimac" => {
            if security != Security::Malicious {
                return Err("MiniMac is malicious with abort only; drop --security semi-honest".into());
            }
            AesProtocol::MiniMac {
                code: CodeChoice::from_name(&args.code).ok_or_else(|| {
                    format!("--code must be rs256-120-matrix or rs255-85-fft, got {:?}", args.code)
                })?,
                preprocessing: preprocessing()?,
            }
        }
        "coral" => {
            if security != Security::Malicious {
                return Err("Coral is malicious with abort only; drop --security semi-honest".into());
            }
            AesProtocol::Coral { preprocessing: preprocessing()? }
        }
        "tinyot" => {
            if security != Security::Malicious {
                return Err("TinyOT is malicious with abort only; drop --security semi-honest".into());
            }
            if preprocessing()? != Preprocessing::Ot {
                return Err(
                    "TinyOT makes its material over OT among the members; drop --preprocessing dealer".into(),
                );
            }
            AesProtocol::TinyOt
        }
        other => {
            return Err(format!(
                "--protocol must be maestro, tinytable, minimac, coral or tinyot, got {other:?}"
            ))
        }
    };
    // MiniMac and Coral over OT compute with every member: with three or more `--peers`,
    // MAESTRO's role layout over all of them (as the SDK does); in relay mode give the roles.
    let computing = if protocol.every_member_computes() && args.peers.len() > 2 {
        args.peers.len()
    } else {
        protocol.computing_parties()
    };
    let shared = computing >= 3;
    let spec = AesSpec {
        protocol,
        direction: Direction::Encrypt,
        key_size,
        blocks: args.blocks,
        key_holders: args.key_holders.clone().unwrap_or_else(|| if shared { vec![0, 1] } else { vec![0] }),
        plaintext_owner: args.plaintext_owner.unwrap_or(computing - 1),
        reveal_to: args.reveal.clone().unwrap_or_else(|| (0..computing).collect()),
    };
    Ok((spec, input))
}

/// How long a relay party waits for its peers' end markers before leaving (the SDK's default).
const LINGER: Duration = Duration::from_secs(2);

/// Lets the writers put the last messages on the wire before the process exits.
async fn finish<O>(
    outcome: Result<PartyOutcome<O>, JobRunError>,
    flush: FlushHandle,
) -> Result<PartyOutcome<O>, String> {
    flush.finish(Duration::from_secs(10)).await;
    outcome.map_err(|e| e.to_string())
}

/// The transport for a session of `members` members (`None`: as many as `--peers` lists, 2 to
/// [`MAX_PARTIES`]).
fn transport(args: &Args, members: Option<usize>) -> Result<(Transport, Vec<u8>), String> {
    if let Some(url) = &args.relay {
        let address = RelayAddress::parse(url).map_err(|e| e.to_string())?;
        let (room, slot, token) = match (&args.room, args.slot, &args.token) {
            (Some(room), Some(slot), Some(token)) => (room.clone(), slot, token.clone()),
            _ => return Err("relay mode needs --room, --slot and --token".into()),
        };
        let session = room_session_id(&room, 0);
        return Ok((Transport::Relay { address, room, slot, token }, session));
    }
    if !args.tcp {
        return Err(
            "choose a transport: --relay <url> --room … --slot … --token …, or --tcp --party … --peers …"
                .into(),
        );
    }
    let party = args.party.ok_or("TCP mode needs --party")?;
    match members {
        Some(members) if args.peers.len() != members => {
            return Err(format!(
                "--peers must list the {members} session members' host:port, got {}",
                args.peers.len()
            ))
        }
        None if !(2..=MAX_PARTIES).contains(&args.peers.len()) => {
            return Err(format!(
                "--peers must list the 2 to {MAX_PARTIES} session members' host:port, got {}",
                args.peers.len()
            ))
        }
        _ => {}
    }
    if party >= args.peers.len() {
        return Err(format!("--party {party} is not an index into --peers (0..{})", args.peers.len()));
    }
    let peers = args
        .peers
        .iter()
        .map(|p| {
            p.to_socket_addrs()
                .map_err(|e| format!("peer address {p:?}: {e}"))?
                .next()
                .ok_or_else(|| format!("peer address {p:?} resolves to nothing"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let session = args.session.clone().unwrap_or_else(|| format!("chorus/tcp/{}", args.peers.join(",")));
    Ok((Transport::Tcp { party, peers }, session.into_bytes()))
}
