//! The `chorus-bench-ot` command's TinyOT lines: each kind runs between two local parties, checks
//! its outputs across them, and prints one JSON line; an unknown kind exits with a message.

use std::process::Command;

fn bench(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chorus-bench-ot")).args(args).output().expect("chorus-bench-ot starts")
}

#[test]
fn tinyot_lines_report_checked_outputs_with_their_bytes() {
    let out = bench(&[
        "--counts",
        "0",
        "--aes-blocks",
        "0",
        "--tinyot-kinds",
        "abits,triples,triples-128",
        "--tinyot-counts",
        "3000",
        "--reps",
        "1",
    ]);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .filter(|l: &serde_json::Value| l["bench"] == "tinyot")
        .collect();
    let kinds: Vec<&str> = lines.iter().map(|l| l["kind"].as_str().expect("a kind")).collect();
    assert_eq!(kinds, ["abits", "triples", "triples-128"]);
    for line in &lines {
        assert_eq!(line["count"], 3000);
        assert!(line["per_s"].as_f64().expect("a rate") > 0.0);
        assert!(line["rounds"].as_u64().expect("rounds") > 0);
    }
    // An authenticated bit is one correlated OT in each direction (SoftSpoken k = 4 sends 4 bytes
    // per OT, plus the checks); a triple takes several leaky ANDs of three bits and a half gate.
    let bytes = |i: usize| lines[i]["bytes_per_item"].as_f64().expect("bytes");
    assert!((8.0..16.0).contains(&bytes(0)), "abit bytes {}", bytes(0));
    assert!(bytes(1) > 10.0 * bytes(0), "triple bytes {}", bytes(1));
    // TinyTable's triples ("triples") run their leaky ANDs at 64 bits: each of the B leaky ANDs
    // of a triple sends an 8-byte half gate in each direction instead of a 16-byte one.
    let b = chorus_core::ot::tinyot::bucket_size(3000);
    let saved = ((bytes(2) - bytes(1)) * 3000.0).round() as usize;
    assert_eq!(saved, 2 * 8 * b * 3000, "64-bit half gates");
}

#[test]
fn an_unknown_tinyot_kind_exits_with_a_message() {
    let out = bench(&["--counts", "0", "--aes-blocks", "0", "--tinyot-kinds", "quads", "--reps", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown --tinyot-kinds value 'quads'"));
}
