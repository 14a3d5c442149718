//! TLS to `https://` and `wss://` relays: rustls on the `ring` provider, verifying the relay's
//! certificate chain and name against Mozilla's root certificates (`webpki-roots`) and — as Node
//! does for its own TLS — the PEM certificates in the file named by `NODE_EXTRA_CA_CERTS`, so that
//! the addon's relay client trusts what the SDK's JavaScript connection in the same process
//! trusts (a private CA included). Nothing is ever accepted unverified.
//!
//! The configuration is made once per process (the environment variable is read then) and shared
//! by every connection.

use super::RelayError;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, RootCertStore};
use std::sync::{Arc, OnceLock};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

/// The environment variable naming a PEM file of further trusted certificates (Node's).
pub const EXTRA_CA_CERTS: &str = "NODE_EXTRA_CA_CERTS";

/// The client configuration every TLS connection to a relay uses, made on first use.
pub fn client_config() -> Result<Arc<ClientConfig>, RelayError> {
    static CONFIG: OnceLock<Result<Arc<ClientConfig>, String>> = OnceLock::new();
    CONFIG
        .get_or_init(|| make_config(std::env::var_os(EXTRA_CA_CERTS)).map(Arc::new))
        .clone()
        .map_err(RelayError::Tls)
}

/// The configuration trusting Mozilla's roots and the certificates of the PEM file `extra`.
fn make_config(extra: Option<std::ffi::OsString>) -> Result<ClientConfig, String> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(path) = extra.filter(|p| !p.is_empty()) {
        let shown = path.to_string_lossy().into_owned();
        let certs = CertificateDer::pem_file_iter(&path)
            .map_err(|e| format!("{EXTRA_CA_CERTS}={shown}: {e}"))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{EXTRA_CA_CERTS}={shown}: {e}"))?;
        let (added, _) = roots.add_parsable_certificates(certs);
        if added == 0 {
            return Err(format!("{EXTRA_CA_CERTS}={shown} holds no usable certificate"));
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(config)
}

/// TLS over `stream` to the relay at `host`, its certificate verified for that name.
pub async fn connect(stream: TcpStream, host: &str) -> Result<TlsStream<TcpStream>, RelayError> {
    let name = ServerName::try_from(host.to_string())
        .map_err(|_| RelayError::Tls(format!("{host:?} is not a host name or IP address for TLS")))?;
    TlsConnector::from(client_config()?)
        .connect(name, stream)
        .await
        .map_err(|e| RelayError::Tls(format!("handshake with {host}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mozillas_roots_without_extra_certificates() {
        assert!(make_config(None).is_ok());
        assert!(make_config(Some("".into())).is_ok(), "an empty variable is no file");
    }

    #[test]
    fn an_unreadable_or_empty_extra_file_is_named() {
        let missing = make_config(Some("/nonexistent/chorus-ca.pem".into())).unwrap_err();
        assert!(missing.contains("NODE_EXTRA_CA_CERTS=/nonexistent/chorus-ca.pem"), "{missing}");
        let dir = std::env::temp_dir().join(format!("chorus-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = dir.join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let none = make_config(Some(empty.clone().into())).unwrap_err();
        assert!(none.contains("no usable certificate"), "{none}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
