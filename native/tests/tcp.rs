//! The TCP mesh on loopback: the joint-AES job end to end, peer departure, and malformed input.

mod common;
#[path = "common/outcome.rs"]
mod outcome;

use chorus_core::net::secure::{SecureConfig, SecureNetwork};
use chorus_core::net::{NetError, Network};
use chorus_native::job::{default_spec, run_aes_party, run_aes_party_repeated};
use chorus_native::tcp::{TcpConfig, TcpError, TcpNetwork, HELLO_LEN};
use chorus_native::threads::run_party_threads;
use common::{fips_input, SECRET};
use outcome::check_fips_outcome;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const BOUND: Duration = Duration::from_secs(20);

/// Binds `n` loopback listeners on free ports.
fn listeners(n: usize) -> (Vec<std::net::TcpListener>, Vec<SocketAddr>) {
    let ls: Vec<_> = (0..n).map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap()).collect();
    let addrs = ls.iter().map(|l| l.local_addr().unwrap()).collect();
    for l in &ls {
        l.set_nonblocking(true).unwrap();
    }
    (ls, addrs)
}

fn config() -> TcpConfig {
    TcpConfig { max_frame: 1 << 20, connect_timeout: Duration::from_secs(10) }
}

/// Runs `n` parties that each establish the mesh and then run `body`.
fn mesh<T, F, Fut>(n: usize, body: F) -> Vec<T>
where
    T: Send + 'static,
    F: Fn(usize, TcpNetwork, chorus_native::FlushHandle) -> Fut + Send + Sync + Clone + 'static,
    Fut: std::future::Future<Output = T>,
{
    let (ls, addrs) = listeners(n);
    let ls = std::sync::Arc::new(std::sync::Mutex::new(ls.into_iter().map(Some).collect::<Vec<_>>()));
    run_party_threads(n, move |p| {
        let (ls, addrs, body) = (ls.clone(), addrs.clone(), body.clone());
        async move {
            let std_listener = ls.lock().unwrap()[p].take().unwrap();
            let listener = tokio::net::TcpListener::from_std(std_listener).unwrap();
            let (net, flush) = TcpNetwork::establish(p, listener, &addrs, &config()).await.unwrap();
            tokio::time::timeout(BOUND, body(p, net, flush)).await.expect("party finished in time")
        }
    })
}

#[test]
fn fips197_job_over_tcp_with_a_split_key() {
    let outcomes = mesh(3, |p, net, flush| async move {
        let out =
            run_aes_party(net, b"chorus/tcp/test", SECRET, &default_spec(1), fips_input(p), async {}).await;
        assert!(flush.finish(Duration::from_secs(5)).await, "party {p} flushed");
        out
    });
    for (p, outcome) in outcomes.into_iter().enumerate() {
        check_fips_outcome(p, &outcome.unwrap_or_else(|e| panic!("party {p}: {e}")));
    }
}

#[test]
fn the_same_job_runs_again_on_the_same_channels() {
    let outcomes = mesh(3, |p, net, flush| async move {
        let out = run_aes_party_repeated(
            net,
            b"chorus/tcp/runs",
            SECRET,
            &default_spec(1),
            fips_input(p),
            async {},
            3,
        )
        .await;
        assert!(flush.finish(Duration::from_secs(5)).await, "party {p} flushed");
        out
    });
    for (p, outcome) in outcomes.into_iter().enumerate() {
        let outcome = outcome.unwrap_or_else(|e| panic!("party {p}: {e}"));
        // The first job's outcome (ciphertext, its own traffic), and the two later jobs' times.
        check_fips_outcome(p, &outcome);
        assert_eq!(outcome.repeats.len(), 2, "party {p}");
        assert!(outcome.repeats.iter().all(|t| !t.is_zero()), "party {p}");
    }
}

#[test]
fn messages_keep_order_and_are_counted() {
    let results = mesh(3, |p, mut net, flush| async move {
        for round in 0..50u8 {
            net.broadcast(&vec![round; 1 + p * 1000 + round as usize]).unwrap();
            for q in (0..3).filter(|&q| q != p) {
                assert_eq!(net.recv(q).await.unwrap(), vec![round; 1 + q * 1000 + round as usize]);
            }
        }
        let stats = net.stats();
        drop(net);
        assert!(flush.finish(Duration::from_secs(5)).await);
        stats
    });
    for (p, s) in results.into_iter().enumerate() {
        assert_eq!((s.messages_sent, s.messages_received, s.rounds), (100, 100, 50), "party {p}");
        let per_round = |q: usize| (0..50u64).map(|r| 1 + q as u64 * 1000 + r).sum::<u64>();
        assert_eq!(s.bytes_sent, 2 * per_round(p), "party {p}");
    }
}

#[test]
fn a_departed_peer_is_reported_as_left() {
    let results = mesh(3, |p, mut net, flush| async move {
        if p == 2 {
            drop(net);
            assert!(flush.finish(Duration::from_secs(5)).await);
            return None;
        }
        let started = std::time::Instant::now();
        let got = net.recv(2).await;
        let again = net.recv(2).await;
        Some((got, again, started.elapsed()))
    });
    for (p, r) in results.into_iter().take(2).enumerate() {
        let (got, again, took) = r.unwrap();
        assert_eq!(got, Err(NetError::PeerLeft(2)), "party {p}");
        assert_eq!(again, Err(NetError::PeerLeft(2)), "party {p}: the failure is sticky");
        assert!(took < Duration::from_secs(5), "party {p} noticed after {took:?}");
    }
}

#[test]
fn a_peer_leaving_during_the_job_aborts_the_others() {
    let outcomes = mesh(3, |p, net, _flush| async move {
        if p == 2 {
            // Party 2 completes the handshakes, then disappears instead of running the job.
            let secure = SecureNetwork::establish(net, SecureConfig::session_secret(b"s", SECRET)).await;
            drop(secure);
            return None;
        }
        Some(run_aes_party(net, b"s", SECRET, &default_spec(1), fips_input(p), async {}).await)
    });
    // Whoever notices first aborts and leaves too, so the other may see that party leave first.
    let errors: Vec<String> = outcomes
        .into_iter()
        .take(2)
        .map(|o| o.unwrap().expect_err("the job cannot finish without party 2").to_string())
        .collect();
    assert!(errors.iter().all(|e| e.contains("left the session")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("party 2 left")), "{errors:?}");
}

#[test]
fn an_oversize_frame_is_a_typed_error_without_allocation() {
    let (mut ls, addrs) = listeners(2);
    let fake = ls.pop().unwrap();
    let real = ls.pop().unwrap();
    let fake_peer = std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async move {
            let fake = tokio::net::TcpListener::from_std(fake).unwrap();
            let (mut s, _) = fake.accept().await.unwrap();
            let mut hello = [0u8; HELLO_LEN];
            s.read_exact(&mut hello).await.unwrap();
            s.write_all(&u32::MAX.to_be_bytes()).await.unwrap();
            let mut rest = Vec::new();
            let _ = s.read_to_end(&mut rest).await;
        })
    });
    let got =
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async move {
            let listener = tokio::net::TcpListener::from_std(real).unwrap();
            let (mut net, _flush) = TcpNetwork::establish(0, listener, &addrs, &config()).await.unwrap();
            let too_big = net.send(1, vec![0; (1 << 20) + 1]);
            let got = tokio::time::timeout(BOUND, net.recv(1)).await.unwrap();
            (too_big, got)
        });
    fake_peer.join().unwrap();
    let (too_big, got) = got;
    assert!(matches!(&too_big, Err(NetError::Transport(m)) if m.contains("frame limit")), "{too_big:?}");
    let expected = TcpError::FrameTooLarge { peer: 1, len: u32::MAX as usize, max: 1 << 20 }.to_string();
    assert_eq!(got, Err(NetError::Transport(expected)));
}

#[test]
fn garbage_instead_of_a_hello_is_refused() {
    let (mut ls, addrs) = listeners(2);
    let listener = ls.pop().unwrap();
    let target = addrs[1];
    let result =
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async move {
            let intruder = tokio::spawn(async move {
                let mut s = tokio::net::TcpStream::connect(target).await.unwrap();
                s.write_all(b"GET / HTTP/1.1\r\n\r\n").await.unwrap();
            });
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let r = TcpNetwork::establish(1, listener, &addrs, &config()).await;
            intruder.await.unwrap();
            r
        });
    match result {
        Err(TcpError::BadHello { reason, .. }) => assert!(reason.contains("magic"), "{reason}"),
        other => panic!("expected BadHello, got {other:?}"),
    }
}

#[test]
fn garbage_in_the_handshake_is_a_typed_channel_error() {
    let (mut ls, addrs) = listeners(2);
    let fake = ls.pop().unwrap();
    let real = ls.pop().unwrap();
    let fake_peer = std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async move {
            let fake = tokio::net::TcpListener::from_std(fake).unwrap();
            let (mut s, _) = fake.accept().await.unwrap();
            let mut buf = vec![0u8; HELLO_LEN];
            s.read_exact(&mut buf).await.unwrap();
            // Party 0 initiates; answer its first handshake message with a well-framed garbage one.
            let mut len = [0u8; 4];
            s.read_exact(&mut len).await.unwrap();
            let mut first = vec![0u8; u32::from_be_bytes(len) as usize];
            s.read_exact(&mut first).await.unwrap();
            s.write_all(&7u32.to_be_bytes()).await.unwrap();
            s.write_all(b"garbage").await.unwrap();
            let mut rest = Vec::new();
            let _ = s.read_to_end(&mut rest).await;
        })
    });
    let result =
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async move {
            let listener = tokio::net::TcpListener::from_std(real).unwrap();
            let (net, _flush) = TcpNetwork::establish(0, listener, &addrs, &config()).await.unwrap();
            let r = tokio::time::timeout(
                BOUND,
                SecureNetwork::establish(net, SecureConfig::session_secret(b"s", SECRET)),
            )
            .await
            .unwrap();
            r.map(|_| ())
        });
    fake_peer.join().unwrap();
    let e = result.expect_err("a garbage handshake message must fail");
    assert!(e.to_string().contains("party 1"), "error names the peer: {e}");
}

#[test]
fn bad_configurations_are_refused() {
    let (mut ls, addrs) = listeners(1);
    let r =
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async move {
            let listener = tokio::net::TcpListener::from_std(ls.pop().unwrap()).unwrap();
            TcpNetwork::establish(0, listener, &addrs, &config()).await
        });
    assert!(matches!(r, Err(TcpError::BadConfig(m)) if m.contains("2 to 65535")));
}

#[test]
fn a_missing_peer_times_out_naming_it() {
    let (mut ls, mut addrs) = listeners(2);
    // Party 1's address points at a port nobody accepts on after the listener closes.
    drop(ls.pop());
    addrs[1] = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let r =
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async move {
            let listener = tokio::net::TcpListener::from_std(ls.pop().unwrap()).unwrap();
            let quick = TcpConfig { connect_timeout: Duration::from_millis(300), ..config() };
            TcpNetwork::establish(0, listener, &addrs, &quick).await
        });
    match r {
        Err(TcpError::Timeout { missing, .. }) => assert_eq!(missing, vec![1]),
        other => panic!("expected a timeout naming party 1, got {other:?}"),
    }
}
