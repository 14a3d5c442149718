//! Starting a local relay process (`node server/dist/cli.js --port 0`) for tests and the
//! benchmark: the relay prints one JSON line `{"event":"listening","url":…}` on stdout
//! (server/README.md), which gives its address. The process is killed when the handle drops.

use crate::relay::RelayAddress;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// Errors of starting the relay.
#[derive(Debug, thiserror::Error)]
pub enum RelayProcessError {
    /// `server/dist/cli.js` is not built.
    #[error("the relay is not built: {0} is missing (run `npm install && npm run build -w @chorus/server` at the repository root)")]
    NotBuilt(PathBuf),
    /// `node` could not be started.
    #[error("could not start `node` for the relay: {0}")]
    Spawn(std::io::Error),
    /// The relay did not print its listening line.
    #[error("the relay did not report its address: {0}")]
    NoAddress(String),
}

/// A running relay process; killed on drop.
#[derive(Debug)]
pub struct RelayProcess {
    child: Child,
    /// The relay's address.
    pub address: RelayAddress,
}

/// The repository root as seen from this crate's sources (`native/..`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the crate lives in a subdirectory").to_path_buf()
}

impl RelayProcess {
    /// Starts `node <repo_root>/server/dist/cli.js --host 127.0.0.1 --port 0` and waits for its
    /// listening line.
    pub fn start(repo_root: &Path) -> Result<Self, RelayProcessError> {
        Self::start_with(repo_root, &[])
    }

    /// As [`start`](Self::start), with more relay flags (e.g. `--min-protocol 2`).
    pub fn start_with(repo_root: &Path, flags: &[&str]) -> Result<Self, RelayProcessError> {
        let cli = repo_root.join("server/dist/cli.js");
        if !cli.is_file() {
            return Err(RelayProcessError::NotBuilt(cli));
        }
        let mut child = Command::new("node")
            .arg(&cli)
            .args(["--host", "127.0.0.1", "--port", "0"])
            .args(flags)
            .current_dir(repo_root)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(RelayProcessError::Spawn)?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut line = String::new();
        let mut reader = BufReader::new(stdout);
        let read = reader.read_line(&mut line);
        // Keep draining stdout so a later line (the shutdown event) never meets a closed pipe.
        let _drain = std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
        let address = match read {
            Ok(n) if n > 0 => listening_address(&line),
            Ok(_) => Err(RelayProcessError::NoAddress("the relay exited without output".into())),
            Err(e) => Err(RelayProcessError::NoAddress(e.to_string())),
        };
        match address {
            Ok(address) => Ok(RelayProcess { child, address }),
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(e)
            }
        }
    }
}

fn listening_address(line: &str) -> Result<RelayAddress, RelayProcessError> {
    let v: serde_json::Value =
        serde_json::from_str(line).map_err(|e| RelayProcessError::NoAddress(format!("{e} in {line:?}")))?;
    if v["event"] != "listening" {
        return Err(RelayProcessError::NoAddress(format!("first line is not the listening event: {line:?}")));
    }
    let url = v["url"].as_str().ok_or_else(|| RelayProcessError::NoAddress(format!("no url in {line:?}")))?;
    RelayAddress::parse(url).map_err(|e| RelayProcessError::NoAddress(e.to_string()))
}

impl Drop for RelayProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
