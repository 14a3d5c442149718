//! The `chorus-bench-tinytable` command with `--preprocessing ot`: the two parties make their own
//! material over OT before the timed online phase (every ciphertext is checked by the command),
//! and its lines say so; an unknown preprocessing exits with a message.

use std::process::Command;

fn bench(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chorus-bench-tinytable")).args(args).output().expect("starts")
}

#[test]
fn ot_preprocessing_lines_carry_the_bytes_the_parties_sent_for_it() {
    let out = bench(&[
        "--preprocessing",
        "ot",
        "--paths",
        "circuit",
        "--security",
        "semi-honest,malicious",
        "--mac-bits",
        "32",
        "--sequential",
        "2",
        "--amortized",
        "3",
        "--reps",
        "1",
    ]);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 4, "two securities × two modes");
    for line in &lines {
        assert_eq!(line["preprocessing"], "ot");
        assert!(line["prep_sent_bytes_per_party"].as_u64().expect("bytes sent for the material") > 100_000);
        assert!(line["prep_ms"].as_f64().expect("prep time") > 0.0);
        let malicious = line["security"] == "malicious";
        assert_eq!(
            line["verifier_keys"],
            if malicious { serde_json::json!("stored") } else { serde_json::Value::Null }
        );
    }
}

#[test]
fn an_unknown_preprocessing_exits_with_a_message() {
    let out = bench(&["--preprocessing", "oracle", "--paths", "circuit", "--reps", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown preprocessing \"oracle\""));
}
