//! The relay client over TLS and under a path prefix, against a real relay process behind a TLS
//! reverse proxy (tokio-rustls) that serves it at `https://127.0.0.1:PORT/chorus/`, with
//! certificates of a private CA made here by Debian's `openssl` and trusted through
//! `NODE_EXTRA_CA_CERTS` (read once per process: this file's one test sets it first). `POST
//! /rooms`, the joins and a FIPS-197 job go through the proxy; a relay whose certificate no trusted
//! CA signed is refused with a TLS error.

mod common;
#[path = "common/outcome.rs"]
mod outcome;
#[path = "common/relay_party.rs"]
mod relay_party;

use chorus_native::relay::tls::EXTRA_CA_CERTS;
use chorus_native::relay::{create_room, RelayAddress, RelayError, RelayNetwork};
use chorus_native::relay_process::{repo_root, RelayProcess};
use chorus_native::threads::run_party_threads;
use outcome::check_fips_outcome;
use relay_party::fips_party;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const BOUND: Duration = Duration::from_secs(20);
const PREFIX: &str = "/chorus/";
/// `openssl req` arguments of a new P-256 key without a passphrase.
const NEW_EC_KEY: [&str; 6] =
    ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout"];

fn openssl(dir: &Path, args: &[&str]) {
    let status = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("openssl runs (Debian's openssl)");
    assert!(status.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&status.stderr));
}

/// A key and certificate for 127.0.0.1 in `dir`, signed by the CA `ca` or self-signed.
fn server_certificate(dir: &Path, name: &str, ca: Option<&str>) -> (String, String) {
    let ext = format!("{name}.ext");
    std::fs::write(
        dir.join(&ext),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    let (key, csr, pem) = (format!("{name}.key"), format!("{name}.csr"), format!("{name}.pem"));
    openssl(dir, &[&["req"][..], &NEW_EC_KEY, &[&key, "-out", &csr, "-subj", "/CN=127.0.0.1"]].concat());
    let (ca_pem, ca_key) = ca.map(|ca| (format!("{ca}.pem"), format!("{ca}.key"))).unzip();
    let mut args = vec!["x509", "-req", "-in", &csr, "-out", &pem, "-days", "2", "-extfile", &ext];
    match (&ca_pem, &ca_key) {
        (Some(ca_pem), Some(ca_key)) => args.extend(["-CA", ca_pem, "-CAkey", ca_key, "-CAcreateserial"]),
        _ => args.extend(["-signkey", &key]),
    }
    openssl(dir, &args);
    (dir.join(key).to_string_lossy().into(), dir.join(pem).to_string_lossy().into())
}

/// Serves the relay at `relay` over TLS under [`PREFIX`] on a thread of its own: strips the prefix
/// from each connection's first packet (the request line), then passes bytes through. Returns
/// the proxy's `https://` URL.
fn tls_proxy(relay: &RelayAddress, (key, cert): (String, String)) -> String {
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_file_iter(&cert).unwrap().collect::<Result<_, _>>().unwrap();
    let key = PrivateKeyDer::from_pem_file(&key).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let upstream = relay.authority();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let listener = TcpListener::from_std(listener).unwrap();
            while let Ok((client, _)) = listener.accept().await {
                let (acceptor, upstream) = (acceptor.clone(), upstream.clone());
                tokio::spawn(async move {
                    let Ok(mut client) = acceptor.accept(client).await else { return };
                    let Ok(mut relay) = TcpStream::connect(upstream).await else { return };
                    let mut first = vec![0u8; 16 * 1024];
                    let Ok(n) = client.read(&mut first).await else { return };
                    let head = String::from_utf8_lossy(&first[..n]).replacen(&format!(" {PREFIX}"), " /", 1);
                    if relay.write_all(head.as_bytes()).await.is_err() {
                        return;
                    }
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut relay).await;
                });
            }
        });
    });
    format!("https://127.0.0.1:{port}{PREFIX}")
}

#[test]
fn rooms_joins_and_a_job_through_a_tls_relay_under_a_prefix() {
    let dir = std::env::temp_dir().join(format!("chorus-relay-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    openssl(
        &dir,
        &[
            &["req", "-x509"][..],
            &NEW_EC_KEY,
            &["ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Chorus test CA"],
            &["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"],
        ]
        .concat(),
    );
    // Before any TLS connection of this process: the client reads it once.
    std::env::set_var(EXTRA_CA_CERTS, dir.join("ca.pem"));
    let relay =
        RelayProcess::start(&repo_root()).unwrap_or_else(|e| panic!("cannot run the relay tests: {e}"));
    let trusted =
        RelayAddress::parse(&tls_proxy(&relay.address, server_certificate(&dir, "relay", Some("ca"))))
            .unwrap();
    assert!(trusted.tls && trusted.base_path == PREFIX, "{trusted:?}");

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let room = runtime.block_on(create_room(&trusted, 3, BOUND)).expect("POST /chorus/rooms over TLS");
    let outcomes = run_party_threads(3, move |p| fips_party(trusted.clone(), room.clone(), p, BOUND));
    for (p, outcome) in outcomes.into_iter().enumerate() {
        check_fips_outcome(p, &outcome.unwrap_or_else(|e| panic!("party {p}: {e}")));
    }

    let rogue =
        RelayAddress::parse(&tls_proxy(&relay.address, server_certificate(&dir, "rogue", None))).unwrap();
    match runtime.block_on(create_room(&rogue, 2, BOUND)) {
        Err(RelayError::Tls(why)) => assert!(why.contains("UnknownIssuer"), "{why}"),
        other => panic!("a self-signed relay certificate must be refused: {other:?}"),
    }
    match runtime.block_on(RelayNetwork::join(&rogue, "r", 0, "t", BOUND)) {
        Err(RelayError::Tls(why)) => assert!(why.contains("UnknownIssuer"), "{why}"),
        other => panic!("a join must check the certificate too: {:?}", other.map(|_| ())),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
