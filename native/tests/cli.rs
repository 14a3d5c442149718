//! The `chorus-party` binary: three processes run the FIPS-197 job over TCP and over a relay
//! process, two run TinyTable with OT preprocessing (no dealer) over TCP, circuit jobs run a batch
//! of instances (TinyTable over OT, Coral with its dealer across a pack boundary), and bad
//! arguments exit with code 1 and a message.

mod common;

use chorus_native::relay::create_room;
use chorus_native::relay_process::{repo_root, RelayProcess};
use common::{check_fips_report, fips_input, FIPS_CT, FIPS_KEY, FIPS_PT, SECRET};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

fn party<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_chorus-party"))
        .args(args)
        .env("CHORUS_SECRET", hex::encode(SECRET))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chorus-party starts")
}

/// Waits for a child, killing it after `limit` so a hung party fails the test instead of hanging it.
fn wait_bounded(mut child: Child, limit: Duration) -> Output {
    let deadline = std::time::Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The role arguments of party `p` in the FIPS job with default roles.
fn role(p: usize) -> Vec<String> {
    let input = fips_input(p);
    match (input.key_share, input.plaintext) {
        (Some(share), _) => vec!["--key-share".into(), hex::encode(share)],
        (None, Some(plaintext)) => vec!["--plaintext".into(), hex::encode(plaintext)],
        (None, None) => vec![],
    }
}

fn check_reports(children: Vec<Child>, transport: &str) {
    let outputs: Vec<Output> =
        children.into_iter().map(|c| wait_bounded(c, Duration::from_secs(30))).collect();
    let stderrs: Vec<_> = outputs.iter().map(|o| String::from_utf8_lossy(&o.stderr).into_owned()).collect();
    for (p, out) in outputs.into_iter().enumerate() {
        assert!(out.status.success(), "party {p} failed; the parties' stderr: {stderrs:#?}");
        let line: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
        assert_eq!(line["party"], p);
        assert_eq!(line["transport"], transport);
        let ciphertext = line["ciphertext"].as_str().map(|c| hex::decode(c).expect("hex ciphertext"));
        let aes = |field: &str| line["rounds_stats"][field].as_u64().expect("a count");
        check_fips_report(p, ciphertext.as_deref(), aes("bytes_sent"), aes("bytes_received"), aes("rounds"));
        assert!(line["ms"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn three_processes_over_tcp() {
    // Free ports: bind, read, release (a small race with other programs on loopback).
    let ports: Vec<u16> = (0..3)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port())
        .collect();
    let peers = ports.iter().map(|p| format!("127.0.0.1:{p}")).collect::<Vec<_>>().join(",");
    let children = (0..3)
        .map(|p| {
            let index = p.to_string();
            let mut args = vec!["--tcp", "--party", &index, "--peers", &peers, "--connect-timeout", "20"];
            let role = role(p);
            args.extend(role.iter().map(String::as_str));
            party(&args)
        })
        .collect();
    check_reports(children, "tcp");
}

fn free_ports(n: usize) -> String {
    // Free ports: bind, read, release (a small race with other programs on loopback).
    let ports: Vec<u16> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port())
        .collect();
    ports.iter().map(|p| format!("127.0.0.1:{p}")).collect::<Vec<_>>().join(",")
}

#[test]
fn two_tinytable_processes_over_tcp_with_ot_preprocessing() {
    let peers = free_ports(2);
    let mask = [0x6bu8; 16];
    let share1: Vec<u8> = FIPS_KEY.iter().zip(mask).map(|(k, m)| k ^ m).collect();
    let roles = [
        vec!["--key-share".to_string(), hex::encode(mask)],
        vec!["--key-share".to_string(), hex::encode(share1), "--plaintext".into(), FIPS_PT.into()],
    ];
    let children: Vec<Child> = (0..2)
        .map(|p| {
            let index = p.to_string();
            let mut args = vec!["--tcp", "--party", &index, "--peers", &peers, "--connect-timeout", "20"];
            args.extend(["--protocol", "tinytable", "--preprocessing", "ot", "--security", "malicious"]);
            args.extend(["--key-holders", "0,1"]);
            args.extend(roles[p].iter().map(String::as_str));
            party(&args)
        })
        .collect();
    for (p, child) in children.into_iter().enumerate() {
        let out = wait_bounded(child, Duration::from_secs(60));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "party {p} failed: {stderr}");
        let line: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
        assert_eq!(line["ciphertext"], FIPS_CT, "party {p}");
        let bytes = |field: &str| line[field]["bytes_sent"].as_u64().expect("a count");
        // The OT preprocessing dominates: at least a 16-byte half gate for each of the 6,400 AND
        // gates (in fact close to a megabyte) against about a kilobyte online.
        assert!(bytes("preprocessing_stats") > 6_400 * 16, "party {p}: {line}");
        assert!(bytes("rounds_stats") < 2_000, "party {p}: {line}");
    }
}

/// `out = a AND b`: one bit from party 0, one from party 1.
const AND_CIRCUIT: &str = "1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n";

/// Runs the AND circuit on `instances` instances as `members` processes over TCP with `protocol`
/// arguments, and checks every instance's output at both parties (the dealer learns nothing).
fn and_circuit_over_tcp(protocol: &[&str], members: usize, instances: usize) {
    let dir = std::env::temp_dir().join(format!(
        "chorus-cli-circuit-{}-{}",
        std::process::id(),
        protocol.join("-")
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let circuit = dir.join("and.txt");
    std::fs::write(&circuit, AND_CIRCUIT).unwrap();
    let bit = |p: usize, i: usize| if p == 0 { i % 2 } else { (i / 2) % 2 };
    let files: Vec<_> = (0..2)
        .map(|p| {
            let file = dir.join(format!("party{p}.txt"));
            let lines: String = (0..instances).map(|i| format!("0{}\n", bit(p, i))).collect();
            std::fs::write(&file, lines).unwrap();
            file
        })
        .collect();
    let peers = free_ports(members);
    let count = instances.to_string();
    let children: Vec<Child> = (0..members)
        .map(|p| {
            let index = p.to_string();
            let mut args = vec!["--tcp", "--party", &index, "--peers", &peers, "--connect-timeout", "20"];
            args.extend(protocol);
            args.extend(["--circuit", circuit.to_str().unwrap(), "--input-owners", "0,1"]);
            match files.get(p) {
                Some(file) => args.extend(["--instances-file", file.to_str().unwrap()]),
                None => args.extend(["--instances", &count]),
            }
            party(&args)
        })
        .collect();
    let expected: Vec<Vec<Option<String>>> =
        (0..instances).map(|i| vec![Some(format!("0{}", bit(0, i) & bit(1, i)))]).collect();
    for (p, child) in children.into_iter().enumerate() {
        let out = wait_bounded(child, Duration::from_secs(60));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "party {p} failed: {stderr}");
        let line: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
        let outputs: Vec<Vec<Option<String>>> = serde_json::from_value(line["outputs"].clone()).unwrap();
        if p < 2 {
            assert_eq!(outputs, expected, "party {p}");
        } else {
            assert!(outputs.iter().all(|values| values.iter().all(Option::is_none)), "the dealer: {line}");
        }
        assert!(line.get("ciphertext").is_none());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn circuit_jobs_run_a_batch_of_instances_over_tcp() {
    and_circuit_over_tcp(&["--protocol", "tinytable", "--preprocessing", "ot"], 2, 5);
    // Coral packs 14 instances: 15 fill one pack and start another.
    and_circuit_over_tcp(&["--protocol", "coral", "--preprocessing", "dealer"], 3, 15);
}

#[test]
fn three_processes_through_the_relay() {
    let relay =
        RelayProcess::start(&repo_root()).unwrap_or_else(|e| panic!("cannot run the relay CLI test: {e}"));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let room = runtime.block_on(create_room(&relay.address, 3, Duration::from_secs(10))).unwrap();
    let url = format!("http://{}", relay.address.authority());
    let children = (0..3)
        .map(|p| {
            let slot = p.to_string();
            let mut args = vec![
                "--relay",
                &url,
                "--room",
                &room.room,
                "--slot",
                &slot,
                "--token",
                &room.tokens[p],
                "--connect-timeout",
                "20",
            ];
            let role = role(p);
            args.extend(role.iter().map(String::as_str));
            party(&args)
        })
        .collect();
    check_reports(children, "relay");
}

#[test]
fn bad_arguments_exit_with_code_1_and_a_message() {
    let two = "127.0.0.1:1,127.0.0.1:2";
    let three = "127.0.0.1:1,127.0.0.1:2,127.0.0.1:3";
    let cases: [(&[&str], &str); 11] = [
        (&[], "choose a transport"),
        (&["--tcp", "--party", "0"], "--peers"),
        (&["--tcp", "--party", "4", "--peers", "a:1,b:2,c:3"], "--party 4"),
        (
            &["--tcp", "--party", "0", "--peers", "127.0.0.1:1,127.0.0.1:2,127.0.0.1:3", "--key-bits", "100"],
            "--key-bits",
        ),
        (&["--relay", "ftp://relay:1", "--room", "r", "--slot", "0", "--token", "t"], "scheme"),
        // Room ids and tokens are base64url: one that begins with '-' is a value, not a flag.
        (&["--relay", "ftp://relay:1", "--room", "-r", "--slot", "0", "--token", "-it"], "scheme"),
        (
            &["--tcp", "--party", "0", "--peers", two, "--protocol", "tinytable", "--preprocessing", "x"],
            "ot or dealer",
        ),
        // OT preprocessing: two members; the dealer: three.
        (&["--tcp", "--party", "0", "--peers", three, "--protocol", "tinytable"], "the 2 session members"),
        (
            &[
                "--tcp",
                "--party",
                "0",
                "--peers",
                two,
                "--protocol",
                "tinytable",
                "--preprocessing",
                "dealer",
            ],
            "the 3 session members",
        ),
        (
            &["--tcp", "--party", "0", "--peers", three, "--circuit", "circuits/aes_128.txt"],
            "circuits run on",
        ),
        (
            &[
                "--tcp",
                "--party",
                "0",
                "--peers",
                two,
                "--protocol",
                "coral",
                "--circuit",
                "/nonexistent.txt",
            ],
            "/nonexistent.txt",
        ),
    ];
    for (args, needle) in cases {
        let out = wait_bounded(party(args), Duration::from_secs(10));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr:?} should mention {needle}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_chorus-party"))
        .args(["--tcp", "--party", "0", "--peers", "127.0.0.1:1,127.0.0.1:2,127.0.0.1:3"])
        .env_remove("CHORUS_SECRET")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("CHORUS_SECRET"));
}

#[test]
fn a_summon_program_without_boolify_runs_among_three_processes_with_a_private_output() {
    // Summon's three-bidder auction on Coral's arithmetic shares: the winner to party 2 alone,
    // the price to everybody; two instances, one bid per party each.
    let dir = std::env::temp_dir().join(format!("chorus-cli-mixed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bids: [[u32; 3]; 2] = [[120, 990, 45], [7, 3, 7]];
    let circuit = repo_root().join("circuits/summon/auction.json");
    let peers = free_ports(3);
    let children: Vec<Child> = (0..3)
        .map(|p| {
            let file = dir.join(format!("bids{p}.txt"));
            std::fs::write(&file, bids.iter().map(|b| format!("{:08x}\n", b[p])).collect::<String>())
                .unwrap();
            let index = p.to_string();
            party(&[
                "--tcp",
                "--party",
                &index,
                "--peers",
                &peers,
                "--connect-timeout",
                "20",
                "--protocol",
                "coral",
                "--circuit",
                circuit.to_str().unwrap(),
                "--ring",
                "32",
                "--input-owners",
                "0,1,2",
                "--outputs-to",
                "2,both",
                "--instances-file",
                file.to_str().unwrap(),
            ])
        })
        .collect();
    for (p, child) in children.into_iter().enumerate() {
        let out = wait_bounded(child, Duration::from_secs(60));
        assert!(out.status.success(), "party {p} failed: {}", String::from_utf8_lossy(&out.stderr));
        let line: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
        let outputs: Vec<Vec<Option<String>>> = serde_json::from_value(line["outputs"].clone()).unwrap();
        let expected: Vec<Vec<Option<String>>> = bids
            .iter()
            .map(|b| {
                // The first highest bid wins.
                let price = *b.iter().max().unwrap();
                let winner = b.iter().position(|&x| x == price).unwrap();
                vec![(p == 2).then(|| format!("{winner:08x}")), Some(format!("{price:08x}"))]
            })
            .collect();
        assert_eq!(outputs, expected, "party {p}: {line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn coral_aes_runs_among_three_processes_over_ot_with_no_dealer() {
    aes_among_three_processes_over_ot(&["--protocol", "coral"]);
}

#[test]
fn minimac_aes_runs_among_three_processes_over_ot_with_no_dealer() {
    aes_among_three_processes_over_ot(&["--protocol", "minimac", "--code", "rs255-85-fft"]);
}

/// `protocol` over OT with three `--peers`: every member computes, MAESTRO's roles by default (key
/// shares from 0 and 1, the plaintext from 2, the ciphertext to all three).
fn aes_among_three_processes_over_ot(protocol: &[&str]) {
    let peers = free_ports(3);
    let children: Vec<Child> = (0..3)
        .map(|p| {
            let index = p.to_string();
            let mut args = vec!["--tcp", "--party", &index, "--peers", &peers, "--connect-timeout", "20"];
            args.extend(protocol);
            let role = role(p);
            args.extend(role.iter().map(String::as_str));
            party(&args)
        })
        .collect();
    for (p, child) in children.into_iter().enumerate() {
        let out = wait_bounded(child, Duration::from_secs(120));
        assert!(
            out.status.success(),
            "{protocol:?} party {p} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
        assert_eq!(line["ciphertext"], FIPS_CT, "{protocol:?} party {p}: {line}");
        assert!(line["preprocessing_stats"]["bytes_sent"].as_u64().unwrap() > 0, "party {p} made material");
    }
}
