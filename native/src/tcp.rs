//! A direct TCP mesh [`Network`]: every pair of parties shares one TCP connection.
//!
//! # Connection set-up
//! Every party listens on its own address. A party connects to every party with a *higher*
//! index (retrying until the peer listens or [`TcpConfig::connect_timeout`] passes) and accepts
//! one connection from every party with a *lower* index. The connecting side first sends a
//! [`HELLO_LEN`]-byte hello: the magic `CHTCP`, a version byte (1), then its party index and the
//! party count as big-endian `u16`s; the accepting side checks that the index is a lower
//! party it still waits for and that the party count matches, and fails with
//! [`TcpError::BadHello`] otherwise. The hello is not authenticated: the secure channel run on
//! top ([`chorus_core::net::secure`]) authenticates the parties, so a forged hello can only
//! make the session abort.
//!
//! # Framing
//! Each message is one frame: its length as a `u32` big-endian, then the bytes. A frame longer
//! than [`TcpConfig::max_frame`] is refused on both sides: `send` returns
//! [`NetError::Transport`], and a receiver that reads such a length stops reading that peer and
//! reports [`TcpError::FrameTooLarge`] (as `NetError::Transport`) without allocating.
//!
//! # Tasks
//! Per peer, a reader task feeds the peer's receive queue and a writer task drains its send
//! queue (batching queued frames into one flush). They run on the process's transport thread
//! ([`crate::io_thread`]), which also makes the connections, so frames move while the party's own
//! thread computes; the protocol future itself need not be `Send`, so parties run on
//! current-thread runtimes. A peer that closes or resets its connection gives
//! [`NetError::PeerLeft`] once its queued messages are consumed.

use crate::inbox::{inbox, Delivery, FlushHandle, Inbox};
use chorus_core::net::{NetError, NetStats, Network, PartyId, StatsRecorder};
use std::io::ErrorKind;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt, BufWriter};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::task::AbortHandle;
use tokio::time::Instant;

/// Magic bytes opening a hello.
const HELLO_MAGIC: &[u8; 5] = b"CHTCP";
/// Version of the hello and framing.
const HELLO_VERSION: u8 = 1;
/// Length of a hello: magic, version, party index (u16 BE), party count (u16 BE).
pub const HELLO_LEN: usize = HELLO_MAGIC.len() + 1 + 2 + 2;

/// Options of a TCP mesh.
#[derive(Debug, Clone)]
pub struct TcpConfig {
    /// Largest frame (message) accepted or sent, in bytes.
    pub max_frame: usize,
    /// How long [`TcpNetwork::establish`] waits for all peers (connects and hellos).
    pub connect_timeout: Duration,
}

impl Default for TcpConfig {
    fn default() -> Self {
        TcpConfig { max_frame: 16 << 20, connect_timeout: Duration::from_secs(30) }
    }
}

/// Errors of setting up a TCP mesh, and of frames read from it.
#[derive(Debug, thiserror::Error)]
pub enum TcpError {
    /// The party index or address list does not describe a session.
    #[error("invalid TCP mesh configuration: {0}")]
    BadConfig(String),
    /// A socket operation failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done, naming the peer.
        what: String,
        /// The socket error.
        #[source]
        source: std::io::Error,
    },
    /// A connection did not open with a valid hello from an expected lower party.
    #[error("bad hello from {addr}: {reason}")]
    BadHello {
        /// Where the connection came from.
        addr: SocketAddr,
        /// What was wrong.
        reason: String,
    },
    /// Not every peer connected in time.
    #[error("timed out after {after:?} waiting for parties {missing:?}")]
    Timeout {
        /// The configured timeout.
        after: Duration,
        /// The parties that had not connected.
        missing: Vec<PartyId>,
    },
    /// A peer announced a frame longer than the limit.
    #[error("party {peer} sent a frame of {len} bytes, more than the limit of {max}")]
    FrameTooLarge {
        /// The peer.
        peer: PartyId,
        /// The announced length.
        len: usize,
        /// The limit in force.
        max: usize,
    },
}

/// One party's endpoint of a TCP mesh.
pub struct TcpNetwork {
    party: PartyId,
    parties: usize,
    max_frame: usize,
    outgoing: Vec<Option<UnboundedSender<Vec<u8>>>>,
    inbox: Inbox,
    readers: Vec<AbortHandle>,
    stats: StatsRecorder,
}

impl core::fmt::Debug for TcpNetwork {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TcpNetwork").field("party", &self.party).field("parties", &self.parties).finish()
    }
}

impl TcpNetwork {
    /// Connects party `me` to every other party. `peers` lists every party's listening address
    /// in party order (the entry for `me` is not used: `listener` is this party's socket). Must
    /// run inside a tokio runtime (any kind); the connections and their reader and writer tasks
    /// live on the transport thread ([`crate::io_thread`]).
    pub async fn establish(
        me: PartyId,
        listener: TcpListener,
        peers: &[SocketAddr],
        config: &TcpConfig,
    ) -> Result<(TcpNetwork, FlushHandle), TcpError> {
        let io = |what: &str, source| TcpError::Io { what: what.to_string(), source };
        let listener =
            listener.into_std().map_err(|e| io("moving the listener to the transport thread", e))?;
        let (peers, config) = (peers.to_vec(), config.clone());
        crate::io_thread::handle()
            .spawn(async move {
                let listener = TcpListener::from_std(listener)
                    .map_err(|e| io("moving the listener to the transport thread", e))?;
                Self::establish_here(me, listener, &peers, &config).await
            })
            .await
            .map_err(|e| io("the transport thread", std::io::Error::other(e.to_string())))?
    }

    /// [`establish`](Self::establish) with the connections and tasks on the calling runtime.
    async fn establish_here(
        me: PartyId,
        listener: TcpListener,
        peers: &[SocketAddr],
        config: &TcpConfig,
    ) -> Result<(TcpNetwork, FlushHandle), TcpError> {
        let n = peers.len();
        if n < 2 || n > u16::MAX as usize {
            return Err(TcpError::BadConfig(format!("a session needs 2 to 65535 parties, got {n}")));
        }
        if me >= n {
            return Err(TcpError::BadConfig(format!("party {me} is not one of the {n} parties")));
        }
        if config.max_frame > u32::MAX as usize {
            return Err(TcpError::BadConfig(format!(
                "max_frame {} does not fit the u32 length prefix",
                config.max_frame
            )));
        }
        let deadline = Instant::now() + config.connect_timeout;
        let (accepted, connected) =
            tokio::join!(accept_lower(me, n, &listener, deadline), connect_higher(me, peers, deadline));
        let mut streams: Vec<Option<TcpStream>> = accepted?;
        for (j, stream) in connected? {
            streams[j] = Some(stream);
        }
        let missing: Vec<PartyId> = (0..n).filter(|&j| j != me && streams[j].is_none()).collect();
        if !missing.is_empty() {
            return Err(TcpError::Timeout { after: config.connect_timeout, missing });
        }

        let (inbox, senders) = inbox(n, me);
        let mut outgoing = Vec::with_capacity(n);
        let mut readers = Vec::new();
        let mut writers = Vec::new();
        for (j, (stream, sender)) in streams.into_iter().zip(senders).enumerate() {
            let (Some(stream), Some(sender)) = (stream, sender) else {
                outgoing.push(None);
                continue;
            };
            stream.set_nodelay(true).map_err(|source| TcpError::Io {
                what: format!("configuring the socket of party {j}"),
                source,
            })?;
            let (read, write) = stream.into_split();
            let (tx, rx) = unbounded_channel();
            outgoing.push(Some(tx));
            readers.push(tokio::spawn(read_frames(read, j, config.max_frame, sender)).abort_handle());
            writers.push(tokio::spawn(write_frames(write, rx)));
        }
        let net = TcpNetwork {
            party: me,
            parties: n,
            max_frame: config.max_frame,
            outgoing,
            inbox,
            readers,
            stats: StatsRecorder::new(),
        };
        Ok((net, FlushHandle::new(writers)))
    }
}

impl Drop for TcpNetwork {
    fn drop(&mut self) {
        // Writers end by themselves once their queues (dropped with `outgoing`) are drained.
        for reader in &self.readers {
            reader.abort();
        }
    }
}

impl Network for TcpNetwork {
    fn party(&self) -> PartyId {
        self.party
    }

    fn parties(&self) -> usize {
        self.parties
    }

    fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError> {
        self.check_peer(to)?;
        if msg.len() > self.max_frame {
            return Err(NetError::Transport(format!(
                "message of {} bytes for party {to} exceeds the frame limit of {}",
                msg.len(),
                self.max_frame
            )));
        }
        let len = msg.len();
        let queue = self.outgoing[to].as_ref().ok_or(NetError::SelfAddressed(to))?;
        queue.send(msg).map_err(|_| NetError::PeerLeft(to))?;
        self.stats.on_send(len);
        Ok(())
    }

    async fn recv(&mut self, from: PartyId) -> Result<Vec<u8>, NetError> {
        self.check_peer(from)?;
        let msg = self.inbox.recv(from).await?;
        self.stats.on_recv(msg.len());
        Ok(msg)
    }

    fn stats(&self) -> NetStats {
        self.stats.stats()
    }
}

fn hello(me: PartyId, n: usize) -> [u8; HELLO_LEN] {
    let mut h = [0u8; HELLO_LEN];
    h[..5].copy_from_slice(HELLO_MAGIC);
    h[5] = HELLO_VERSION;
    h[6..8].copy_from_slice(&(me as u16).to_be_bytes());
    h[8..10].copy_from_slice(&(n as u16).to_be_bytes());
    h
}

/// Checks a hello received by `me` and returns the sender's index.
fn parse_hello(h: &[u8; HELLO_LEN], me: PartyId, n: usize) -> Result<PartyId, String> {
    if &h[..5] != HELLO_MAGIC {
        return Err("not a Chorus TCP hello (wrong magic bytes)".into());
    }
    if h[5] != HELLO_VERSION {
        return Err(format!("hello version {}, expected {HELLO_VERSION}", h[5]));
    }
    let from = u16::from_be_bytes([h[6], h[7]]) as usize;
    let count = u16::from_be_bytes([h[8], h[9]]) as usize;
    if count != n {
        return Err(format!("peer expects {count} parties, this session has {n}"));
    }
    if from >= me {
        return Err(format!("party {from} must be accepted by a lower party, not by party {me}"));
    }
    Ok(from)
}

/// Accepts one connection from every party below `me`.
async fn accept_lower(
    me: PartyId,
    n: usize,
    listener: &TcpListener,
    deadline: Instant,
) -> Result<Vec<Option<TcpStream>>, TcpError> {
    let mut streams: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
    let mut waiting = me;
    while waiting > 0 {
        let Ok(accepted) = tokio::time::timeout_at(deadline, listener.accept()).await else {
            break;
        };
        let (mut stream, addr) =
            accepted.map_err(|source| TcpError::Io { what: "accepting a connection".into(), source })?;
        let mut h = [0u8; HELLO_LEN];
        match tokio::time::timeout_at(deadline, stream.read_exact(&mut h)).await {
            Err(_) => break,
            Ok(Err(e)) => {
                return Err(TcpError::BadHello {
                    addr,
                    reason: format!("connection ended during the hello: {e}"),
                })
            }
            Ok(Ok(_)) => {}
        }
        let from = parse_hello(&h, me, n).map_err(|reason| TcpError::BadHello { addr, reason })?;
        if streams[from].is_some() {
            return Err(TcpError::BadHello { addr, reason: format!("party {from} connected twice") });
        }
        streams[from] = Some(stream);
        waiting -= 1;
    }
    Ok(streams)
}

/// The first pause before a refused connection is retried (doubling up to [`RETRY_MAX`]).
const RETRY_FIRST: Duration = Duration::from_millis(1);

/// The longest pause between two connection attempts.
const RETRY_MAX: Duration = Duration::from_millis(25);

/// Connects to every party above `me`, retrying refused connections until `deadline`.
async fn connect_higher(
    me: PartyId,
    peers: &[SocketAddr],
    deadline: Instant,
) -> Result<Vec<(PartyId, TcpStream)>, TcpError> {
    let n = peers.len();
    let attempts = ((me + 1)..n).map(|j| async move {
        let addr = peers[j];
        // Peers started together listen within milliseconds: retry soon, then back off.
        let mut pause = RETRY_FIRST;
        loop {
            match tokio::time::timeout_at(deadline, TcpStream::connect(addr)).await {
                Err(_) => return Ok(None),
                // Linux may connect a socket to itself when the peer is not listening yet and the
                // kernel picks the target port as the source port; that is no peer, so retry.
                Ok(Ok(stream)) if is_self_connection(&stream) => {
                    drop(stream);
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(RETRY_MAX);
                }
                Ok(Ok(mut stream)) => {
                    let what = || format!("sending the hello to party {j} at {addr}");
                    stream
                        .write_all(&hello(me, n))
                        .await
                        .map_err(|source| TcpError::Io { what: what(), source })?;
                    return Ok(Some((j, stream)));
                }
                // Refused at the deadline is still a peer that never listened: a timeout.
                Ok(Err(e)) if retryable(&e) && Instant::now() >= deadline => return Ok(None),
                Ok(Err(e)) if retryable(&e) => {
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(RETRY_MAX);
                }
                Ok(Err(source)) => {
                    return Err(TcpError::Io { what: format!("connecting to party {j} at {addr}"), source })
                }
            }
        }
    });
    let results = futures::future::join_all(attempts).await;
    let mut streams = Vec::new();
    for r in results {
        if let Some(s) = r? {
            streams.push(s);
        }
    }
    Ok(streams)
}

fn is_self_connection(stream: &TcpStream) -> bool {
    matches!((stream.local_addr(), stream.peer_addr()), (Ok(local), Ok(peer)) if local == peer)
}

fn retryable(e: &std::io::Error) -> bool {
    matches!(e.kind(), ErrorKind::ConnectionRefused | ErrorKind::ConnectionReset | ErrorKind::TimedOut)
}

/// Whether a read error means the peer went away (rather than a local failure).
fn peer_gone(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::UnexpectedEof
            | ErrorKind::ConnectionReset
            | ErrorKind::ConnectionAborted
            | ErrorKind::BrokenPipe
    )
}

async fn read_frames(
    mut read: OwnedReadHalf,
    peer: PartyId,
    max_frame: usize,
    queue: tokio::sync::mpsc::UnboundedSender<Delivery>,
) {
    let failure = loop {
        let mut len = [0u8; 4];
        if let Err(e) = read.read_exact(&mut len).await {
            break e;
        }
        let len = u32::from_be_bytes(len) as usize;
        if len > max_frame {
            let e = TcpError::FrameTooLarge { peer, len, max: max_frame };
            let _ = queue.send(Err(NetError::Transport(e.to_string())));
            return;
        }
        let mut msg = vec![0u8; len];
        if let Err(e) = read.read_exact(&mut msg).await {
            break e;
        }
        if queue.send(Ok(msg)).is_err() {
            return;
        }
    };
    // A clean close or reset closes the queue, which the inbox reports as `PeerLeft`.
    if !peer_gone(&failure) {
        let _ = queue.send(Err(NetError::Transport(format!("reading from party {peer}: {failure}"))));
    }
}

async fn write_frames(write: OwnedWriteHalf, mut queue: UnboundedReceiver<Vec<u8>>) {
    let mut write = BufWriter::with_capacity(1 << 16, write);
    while let Some(msg) = queue.recv().await {
        let mut next = Some(msg);
        while let Some(msg) = next {
            if write_frame(&mut write, &msg).await.is_err() {
                return;
            }
            next = queue.try_recv().ok();
        }
        if write.flush().await.is_err() {
            return;
        }
    }
    let _ = write.shutdown().await;
}

async fn write_frame(write: &mut BufWriter<OwnedWriteHalf>, msg: &[u8]) -> std::io::Result<()> {
    write.write_all(&(msg.len() as u32).to_be_bytes()).await?;
    write.write_all(msg).await
}
