//! Local two-party sessions for the benchmark commands: TCP loopback listeners, the per-party
//! secure network over them (TCP mesh + Noise channels, as in a real session), and the calling
//! thread's CPU time.

use crate::tcp::{TcpConfig, TcpNetwork};
use crate::FlushHandle;
use chorus_core::net::secure::{SecureConfig, SecureNetwork};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// `n` listeners on fresh loopback ports, non-blocking (ready for tokio).
pub fn loopback_listeners(n: usize) -> Result<Vec<std::net::TcpListener>, String> {
    (0..n)
        .map(|_| {
            let l = std::net::TcpListener::bind("127.0.0.1:0")
                .map_err(|e| format!("binding a loopback port: {e}"))?;
            l.set_nonblocking(true).map_err(|e| e.to_string())?;
            Ok(l)
        })
        .collect()
}

/// The listeners of a local session, each taken once by its party's thread, and their addresses.
#[derive(Clone)]
pub struct LoopbackMesh {
    listeners: Arc<Mutex<Vec<Option<std::net::TcpListener>>>>,
    addrs: Vec<SocketAddr>,
}

impl LoopbackMesh {
    /// Listeners for `n` parties.
    pub fn new(n: usize) -> Result<Self, String> {
        let listeners = loopback_listeners(n)?;
        let addrs =
            listeners.iter().map(|l| l.local_addr().map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
        Ok(LoopbackMesh { listeners: Arc::new(Mutex::new(listeners.into_iter().map(Some).collect())), addrs })
    }

    /// Party `p`'s secure network: the TCP mesh, then Noise channels keyed by `secret` under
    /// `prologue`. Call once per party, from the party's runtime.
    pub async fn connect(
        &self,
        p: usize,
        prologue: &[u8],
        secret: &[u8; 32],
        timeout: Duration,
    ) -> Result<(SecureNetwork<TcpNetwork>, FlushHandle), String> {
        let std_listener = self.listeners.lock().expect("listeners").get_mut(p).and_then(Option::take);
        let listener = tokio::net::TcpListener::from_std(std_listener.ok_or("listener missing")?)
            .map_err(|e| e.to_string())?;
        let config = TcpConfig { connect_timeout: timeout, ..TcpConfig::default() };
        let (inner, flush) =
            TcpNetwork::establish(p, listener, &self.addrs, &config).await.map_err(|e| e.to_string())?;
        let secure = SecureConfig::session_secret(prologue, secret);
        let net = SecureNetwork::establish(inner, secure).await.map_err(|e| e.to_string())?;
        Ok((net, flush))
    }
}

/// CPU time of the calling thread so far, from `/proc/thread-self/schedstat` (Linux; `None`
/// elsewhere). Each party runs on its own thread with a current-thread runtime, so this covers its
/// protocol work and its transport tasks (framing, Noise, socket calls) alike.
pub fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}
