//! The `chorus-bench-coral` command on the built-in SHA-256 compression circuit: the two parties'
//! outputs are checked by the command against plaintext evaluation, and the line carries the
//! circuit's name and the online bytes; an unreadable circuit path exits with a message.

use std::process::Command;

fn bench(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chorus-bench-coral")).args(args).output().expect("starts")
}

#[test]
fn the_sha256_compression_circuit_runs_packed_and_its_line_names_it() {
    let out = bench(&["--circuit", "sha256-compression", "--instances", "15", "--reps", "1"]);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 1);
    let line = &lines[0];
    assert_eq!(line["circuit"], "sha256-compression");
    assert_eq!(line["instances"], 15);
    assert_eq!(line["packs"], 2, "15 instances take a full pack of 14 and a partial one");
    // At least the two opened elements of GF(2^42), packed at 42 bits, per AND gate and pack.
    let and_openings = 2 * 2 * 22_696 * 42 / 8;
    assert!(line["bytes_per_party"].as_u64().expect("bytes") > and_openings);
}

#[test]
fn a_missing_circuit_file_exits_with_a_message() {
    let out = bench(&["--circuit", "no/such/circuit.txt", "--instances", "14", "--reps", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/circuit.txt"));
}
