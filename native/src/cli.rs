//! The shared `main` of the command-line programs (`chorus-party`, `chorus-bench`,
//! `chorus-bench-tinytable`): allocator tuning, argument parsing, and errors as one line on stderr
//! with exit code 1.

use crate::alloc_tuning::keep_freed_memory;
use std::process::ExitCode;

/// Tunes the allocator ([`keep_freed_memory`]), parses the arguments (`--help` and `--version`
/// print and exit 0; a bad argument prints clap's message and exits 1), runs `run`, and prints
/// its error as `<name>: error: <message>` with exit code 1.
pub fn run_main<A: clap::Parser>(name: &str, run: impl FnOnce(A) -> Result<(), String>) -> ExitCode {
    keep_freed_memory();
    let args = match A::try_parse() {
        Ok(args) => args,
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            eprint!("{e}");
            return ExitCode::FAILURE;
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{name}: error: {message}");
            ExitCode::FAILURE
        }
    }
}
