//! A TCP proxy in front of the relay that drops connections the way a network does: both sockets
//! close with no WebSocket close frame either way, once a given number of bytes has been forwarded
//! after arming (possibly in the middle of a frame). Runs on a thread of its own; loopback only.

use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// The proxy: its port, and the controls of the cut.
pub struct CutProxy {
    pub port: u16,
    /// Bytes still to forward before every open connection is cut; negative while disarmed.
    remaining: Arc<AtomicI64>,
    accepted: Arc<AtomicUsize>,
}

impl CutProxy {
    /// Listens on 127.0.0.1 and forwards every connection to `127.0.0.1:upstream`.
    pub fn start(upstream: u16) -> CutProxy {
        let remaining = Arc::new(AtomicI64::new(-1));
        let accepted = Arc::new(AtomicUsize::new(0));
        let (port_tx, port_rx) = std::sync::mpsc::channel();
        let (r, a) = (remaining.clone(), accepted.clone());
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            runtime.block_on(async move {
                let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
                port_tx.send(listener.local_addr().unwrap().port()).unwrap();
                // Every connection watches this: a cut closes them all.
                let (cut_tx, cut_rx) = watch::channel(0u64);
                let cut_tx = Arc::new(cut_tx);
                loop {
                    let Ok((client, _)) = listener.accept().await else { return };
                    a.fetch_add(1, Ordering::SeqCst);
                    let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)).await else { continue };
                    let (cr, cw) = client.into_split();
                    let (sr, sw) = server.into_split();
                    for (from, to) in
                        [(Box::new(cr) as Box<_>, Box::new(sw) as Box<_>), (Box::new(sr), Box::new(cw))]
                    {
                        tokio::spawn(pump(from, to, r.clone(), cut_tx.clone(), cut_rx.clone()));
                    }
                }
            });
        });
        CutProxy { port: port_rx.recv().unwrap(), remaining, accepted }
    }

    /// Cuts every open connection once `bytes` more bytes were forwarded (either way).
    pub fn cut_after(&self, bytes: i64) {
        self.remaining.store(bytes, Ordering::SeqCst);
    }

    /// Connections accepted so far (a resume opens a new one).
    pub fn accepted(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }
}

type Reader = Box<dyn tokio::io::AsyncRead + Unpin + Send>;
type Writer = Box<dyn tokio::io::AsyncWrite + Unpin + Send>;

async fn pump(
    mut from: Reader,
    mut to: Writer,
    remaining: Arc<AtomicI64>,
    cut: Arc<watch::Sender<u64>>,
    mut cuts: watch::Receiver<u64>,
) {
    let mut buffer = vec![0u8; 16 * 1024];
    let seen = *cuts.borrow();
    loop {
        let n = tokio::select! {
            read = from.read(&mut buffer) => match read { Ok(0) | Err(_) => return, Ok(n) => n },
            _ = cuts.wait_for(|c| *c != seen) => return,
        };
        let mut chunk = &buffer[..n];
        let left = remaining.load(Ordering::SeqCst);
        if left >= 0 {
            let take = (left as usize).min(n);
            remaining.fetch_sub(take as i64, Ordering::SeqCst);
            if take < n || remaining.load(Ordering::SeqCst) == 0 {
                chunk = &buffer[..take];
                let _ = to.write_all(chunk).await;
                remaining.store(-1, Ordering::SeqCst);
                cut.send_modify(|c| *c += 1);
                return;
            }
        }
        if to.write_all(chunk).await.is_err() {
            return;
        }
    }
}
