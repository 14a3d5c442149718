//! `chorus-ring`: the Rust runner's relay transport alone, no core — the anchor of
//! `scripts/bench-node.mjs --ring`, which runs the same rounds with the SDK's transport in Node
//! (`scripts/bench/ring.mjs`). Joins `--slot` of `--room`, waits until the room is ready, then
//! runs `--rounds` rounds in which it sends a `--frame-bytes` frame to the next slot and receives
//! one from the previous slot (the message pattern of a MAESTRO resharing round), checking each
//! received frame, and prints `{"slot":…,"ms":…,"rounds":…}`.

use chorus_core::net::Network;
use chorus_native::relay::{RelayAddress, RelayNetwork};
use clap::Parser;
use serde::Serialize;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Runs rounds of frames around a relay room's slots, without any protocol.
#[derive(Parser, Debug)]
#[command(name = "chorus-ring", version)]
struct Args {
    /// Relay URL (http://host:port, ws://host:port/ws, or their TLS forms https:// and wss://).
    #[arg(long)]
    relay: String,
    /// Room id (base64url, may begin with '-').
    #[arg(long, allow_hyphen_values = true)]
    room: String,
    /// This party's slot.
    #[arg(long)]
    slot: usize,
    /// Join token of the slot (base64url, may begin with '-').
    #[arg(long, allow_hyphen_values = true)]
    token: String,
    /// Rounds to run.
    #[arg(long, default_value_t = 100)]
    rounds: u32,
    /// Bytes per frame (at least 5: the sender slot and the round number).
    #[arg(long, default_value_t = 64)]
    frame_bytes: usize,
}

/// How long a party stays after its last round, so its peers finish theirs.
const LINGER: Duration = Duration::from_millis(300);

#[derive(Serialize)]
struct Report {
    slot: usize,
    ms: f64,
    rounds: u32,
}

fn main() -> ExitCode {
    chorus_native::cli::run_main("chorus-ring", |args: Args| {
        let report = run(args)?;
        println!("{}", serde_json::to_string(&report).expect("the report serializes"));
        Ok(())
    })
}

fn run(args: Args) -> Result<Report, String> {
    let address = RelayAddress::parse(&args.relay).map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the tokio runtime: {e}"))?;
    runtime.block_on(async {
        let (mut net, handle) =
            RelayNetwork::join(&address, &args.room, args.slot, &args.token, Duration::from_secs(60))
                .await
                .map_err(|e| e.to_string())?;
        let parties = net.parties();
        let (next, previous) = ((args.slot + 1) % parties, (args.slot + parties - 1) % parties);
        let mut frame = vec![0u8; args.frame_bytes.max(5)];
        let start = Instant::now();
        for round in 0..args.rounds {
            frame[0] = args.slot as u8;
            frame[1..5].copy_from_slice(&round.to_be_bytes());
            net.send(next, frame.clone()).map_err(|e| e.to_string())?;
            let got = net.recv(previous).await.map_err(|e| e.to_string())?;
            if got.len() < 5 || usize::from(got[0]) != previous || got[1..5] != round.to_be_bytes() {
                return Err(format!("round {round}: unexpected frame"));
            }
        }
        let ms = start.elapsed().as_secs_f64() * 1e3;
        // Leaving at once could turn a slower peer's last frame into a `peer-left` for it.
        tokio::time::sleep(LINGER).await;
        drop(net);
        handle.close(Duration::ZERO).await;
        Ok(Report { slot: args.slot, ms, rounds: args.rounds })
    })
}
