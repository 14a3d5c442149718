//! The Chorus native runner: [`Network`](chorus_core::net::Network) implementations over
//! sockets, for parties that run as native programs rather than in a browser or Node.
//!
//! - [`tcp`]: a direct TCP mesh between the parties (no relay).
//! - [`relay`]: a client of the Chorus WebSocket relay (`server/PROTOCOL.md`), so native parties
//!   can join the same rooms as SDK (browser / Node) parties.
//! - [`job`]: running the joint-AES job of `chorus-core` over either, under the secure channel,
//!   with the conventions shared with the TypeScript SDK (session id of a relay room).
//! - [`relay_process`]: starting a local relay process (`node server/dist/cli.js`) for tests and
//!   the benchmark.
//! - [`loopback`]: TCP loopback sessions with Noise channels and thread CPU time, for the
//!   benchmark commands.
//! - [`bench_harness`]: the benchmark commands' shared party-thread harness over [`loopback`]
//!   (session runner, timed regions, median of runs, JSON lines).
//! - [`threads`]: one OS thread and current-thread runtime per party, for local sessions.
//! - [`alloc_tuning`]: keeping freed memory for reuse (fewer page faults per protocol round).
//! - [`cli`]: the shared `main` of the command-line programs.
//!
//! Both networks run their socket I/O in tokio tasks (a reader and a writer per connection) and
//! hand messages to the protocol through per-peer queues, so a protocol's `recv` futures need not
//! be `Send`: each party runs on its own current-thread runtime. The binaries `chorus-party` (one
//! party of the AES job) and `chorus-bench` (whole-protocol benchmark) build on these modules.

#![warn(missing_docs)]

pub mod alloc_tuning;
pub mod bench_harness;
pub mod circuit_io;
pub mod cli;
mod inbox;
mod io_thread;
pub mod job;
pub mod loopback;
pub mod relay;
pub mod relay_process;
pub mod tcp;
pub mod threads;

pub use inbox::FlushHandle;
