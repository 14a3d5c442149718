//! The relay-client network against a real relay process on loopback (`node server/dist/cli.js`).
//! These tests fail, naming the build command, when the relay is not built: run
//! `npm install && npm run build -w @chorus/server` at the repository root first.

mod common;
#[path = "common/outcome.rs"]
mod outcome;
#[path = "common/relay_party.rs"]
mod relay_party;

use chorus_core::net::{NetError, Network};
use chorus_native::job::{default_spec, room_session_id, run_aes_party};
use chorus_native::relay::{create_room, RelayError, RelayNetwork, Room};
use chorus_native::relay_process::{repo_root, RelayProcess};
use chorus_native::threads::run_party_threads;
use common::{fips_input, SECRET};
use outcome::check_fips_outcome;
use relay_party::fips_party;
use std::time::Duration;

const BOUND: Duration = Duration::from_secs(20);

fn relay() -> RelayProcess {
    RelayProcess::start(&repo_root()).unwrap_or_else(|e| panic!("cannot run the relay tests: {e}"))
}

fn new_room(relay: &RelayProcess, parties: usize) -> Room {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(create_room(&relay.address, parties, BOUND)).unwrap()
}

#[test]
fn fips197_job_through_the_relay() {
    let relay = relay();
    let room = new_room(&relay, 3);
    let address = relay.address.clone();
    let outcomes = run_party_threads(3, move |p| fips_party(address.clone(), room.clone(), p, BOUND));
    for (p, outcome) in outcomes.into_iter().enumerate() {
        check_fips_outcome(p, &outcome.unwrap_or_else(|e| panic!("party {p}: {e}")));
    }
}

#[test]
fn a_departed_peer_is_reported_as_left() {
    let relay = relay();
    let room = new_room(&relay, 3);
    let address = relay.address.clone();
    let results = run_party_threads(3, move |p| {
        let (address, room) = (address.clone(), room.clone());
        async move {
            let (mut net, handle) =
                RelayNetwork::join(&address, &room.room, p, &room.tokens[p], BOUND).await.unwrap();
            if p == 2 {
                drop(net);
                assert!(handle.close(Duration::ZERO).await, "no job done, so nobody to wait for");
                return None;
            }
            let got = tokio::time::timeout(BOUND, net.recv(2)).await.expect("departure noticed in time");
            Some((got, net.recv(2).await))
        }
    });
    for (p, r) in results.into_iter().take(2).enumerate() {
        let (got, again) = r.unwrap();
        assert_eq!(got, Err(NetError::PeerLeft(2)), "party {p}");
        assert_eq!(again, Err(NetError::PeerLeft(2)), "party {p}");
    }
}

#[test]
fn a_wrong_token_is_refused_with_the_relay_code() {
    let relay = relay();
    let room = new_room(&relay, 2);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let r = runtime.block_on(RelayNetwork::join(&relay.address, &room.room, 0, &room.tokens[1], BOUND));
    match r {
        Err(RelayError::Refused { code, .. }) => assert_eq!(code, "bad-token"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    let r = runtime.block_on(RelayNetwork::join(&relay.address, "no-such-room", 0, &room.tokens[0], BOUND));
    assert!(matches!(&r, Err(RelayError::Refused { code, .. }) if code == "unknown-room"), "{r:?}");
}

#[test]
fn room_creation_errors_carry_the_relay_code() {
    let relay = relay();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    match runtime.block_on(create_room(&relay.address, 1, BOUND)) {
        Err(RelayError::Http { status: 400, code, .. }) => assert_eq!(code, "bad-request"),
        other => panic!("expected HTTP 400 bad-request, got {other:?}"),
    }
}

#[test]
fn oversize_messages_are_refused_before_sending() {
    let relay = relay();
    let room = new_room(&relay, 2);
    let address = relay.address.clone();
    let results = run_party_threads(2, move |p| {
        let (address, room) = (address.clone(), room.clone());
        async move {
            let (mut net, _handle) =
                RelayNetwork::join(&address, &room.room, p, &room.tokens[p], BOUND).await.unwrap();
            let empty = net.send(1 - p, Vec::new());
            assert!(matches!(&empty, Err(NetError::Transport(m)) if m.contains("end markers")), "{empty:?}");
            let refused = net.send(1 - p, vec![0; 1 << 20]);
            net.send(1 - p, vec![p as u8; (1 << 20) - 1]).unwrap();
            let got = tokio::time::timeout(BOUND, net.recv(1 - p)).await.unwrap().unwrap();
            (refused, got)
        }
    });
    for (p, (refused, got)) in results.into_iter().enumerate() {
        assert!(
            matches!(&refused, Err(NetError::Transport(m)) if m.contains("maxPayloadBytes")),
            "{refused:?}"
        );
        assert_eq!(got, vec![(1 - p) as u8; (1 << 20) - 1], "party {p} got the largest allowed message");
    }
}

#[path = "common/cut_proxy.rs"]
mod cut_proxy;

/// The runner speaks relay protocol 2: a relay that admits nothing older (`--min-protocol 2`)
/// takes it, and when party 2's connection drops in the middle of the job (cut by a proxy, no
/// close frame, in the middle of a frame), it resumes the slot and every party finishes with
/// FIPS-197's ciphertext.
#[test]
fn a_dropped_connection_is_resumed_mid_job() {
    let relay = RelayProcess::start_with(&repo_root(), &["--min-protocol", "2"])
        .unwrap_or_else(|e| panic!("cannot run the relay tests: {e}"));
    let proxy = cut_proxy::CutProxy::start(relay.address.port);
    let room = new_room(&relay, 3);
    let direct = relay.address.clone();
    let via_proxy = chorus_native::relay::RelayAddress::parse(&format!("ws://127.0.0.1:{}/ws", proxy.port))
        .expect("address");
    // Past the joins and the Noise handshakes, inside the job's rounds (party 2 alone sends
    // 320 bytes per block and round trip of the online phase).
    const BLOCKS: usize = 64;
    proxy.cut_after(12_000);
    let outcomes = run_party_threads(3, move |p| {
        let (room, address) = (room.clone(), if p == 2 { via_proxy.clone() } else { direct.clone() });
        async move {
            let (net, mut handle) =
                RelayNetwork::join(&address, &room.room, p, &room.tokens[p], BOUND).await.unwrap();
            let (session, spec) = (room_session_id(&room.room, 0), default_spec(BLOCKS));
            let mut input = fips_input(p);
            input.plaintext = input.plaintext.map(|block| block.repeat(BLOCKS));
            let job = run_aes_party(net, &session, SECRET, &spec, input, async {});
            let out = tokio::time::timeout(BOUND, job).await.expect("job finished in time");
            handle.job_done();
            assert!(handle.close(Duration::from_secs(10)).await, "party {p} closed cleanly");
            out
        }
    });
    for (p, outcome) in outcomes.into_iter().enumerate() {
        let outcome = outcome.unwrap_or_else(|e| panic!("party {p}: {e}"));
        let ciphertext = outcome.output.ciphertext.expect("revealed to every party");
        assert_eq!(hex::encode(ciphertext), common::FIPS_CT.repeat(BLOCKS), "party {p}");
    }
    assert!(proxy.accepted() >= 2, "party 2 reconnected (accepted {})", proxy.accepted());
}
