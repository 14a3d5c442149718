//! The secure channel beneath every protocol (GUIDE §2): [`SecureNetwork`] is a [`Network`] on
//! top of any other `Network` (the transport: in-memory, the relay, TCP) that authenticates and
//! encrypts every message between every pair of parties.
//!
//! # Construction
//! Each pair runs a two-message Noise handshake (Noise Protocol Framework, revision 34) through
//! the inner network; the lower party index is the initiator ([`handshake`] describes the
//! schedule, which runs all pairs concurrently). Three modes, chosen by [`SecureConfig`]:
//! - **`KK`** (`Noise_KK_25519_ChaChaPoly_SHA256`, Noise spec §7.5): the application
//!   pins every party's static X25519 public key; this party holds its static private key. A
//!   peer that does not hold the pinned key fails the handshake with
//!   [`SecureError::HandshakeAuthentication`].
//! - **`NNpsk0`** (`Noise_NNpsk0_25519_ChaChaPoly_SHA256`, spec §7.5 for `NN`, §9.2 for the
//!   `psk` token, §9.4 for the `psk0` modifier): a per-pair pre-shared key derived from a
//!   session secret with HKDF-SHA256 (RFC 5869) whose info binds the channel version, the
//!   protocol name, the session id and both party indices (lower first), so keys differ per pair
//!   and per session. A peer with another secret or session id fails the handshake with the same
//!   typed error.
//!
//! - **`NN`** (`Noise_NN_25519_ChaChaPoly_SHA256`, spec §7.5): no credentials at all, for a
//!   transport the application already trusts to connect the right parties (see the threat model
//!   below). Its first message carries 16 zero bytes in clear where the other modes carry a tag,
//!   so every handshake frame has the same length.
//!
//! In every mode the Noise prologue (spec §6) binds the channel version, the session id, the
//! party count and the pair, so a handshake cannot be moved to another session or pair.
//! The suite is X25519 / ChaCha20-Poly1305 / SHA-256 (spec §12.1, §12.3, §12.5): ChaCha20-Poly1305
//! is fast without AES hardware (browsers, wasm32), and SHA-256 is also the hash of the PSK
//! derivation, so one hash serves both. Ephemeral keys come from the session generator of
//! [`crate::rng`] (OS-seeded ChaCha20, `getrandom`'s `js` source on wasm32).
//!
//! After the handshake every protocol message is cut into chunks of at most
//! [`frame::MAX_CHUNK`] bytes, each sent as one frame whose explicit 64-bit sequence number per
//! direction is the Noise nonce (snow's `StatelessTransportState`); [`frame`] gives the layout.
//! One protocol message is still one [`Network::recv`] result.
//!
//! # Errors and aborts
//! A frame that fails authentication gives [`NetError::Integrity`] with reason
//! "authentication failed ..."; a frame whose sequence number is not the expected one (replayed,
//! reordered or dropped) gives `Integrity` naming expected and received numbers; a malformed
//! frame (short header, unknown flags, impossible length) gives `Integrity` saying so. After any
//! integrity error the whole `SecureNetwork` is poisoned: every later call returns that error, so
//! the session aborts instead of continuing on a channel an attacker touched.
//!
//! # Threat model
//! `KK` and `NNpsk0` give every pair confidentiality and integrity of its messages, and detection of
//! replay, reordering, dropping, truncation and injection, against the relay and any network
//! attacker who lacks the credentials (pinned private keys, resp. the session secret). Messages
//! of one pair cannot be replayed into another pair or session (prologue, per-pair keys).
//! Neither mode hides metadata: the relay sees exact message sizes (each frame adds a fixed 26
//! bytes, no padding), timing, which pairs talk and how much, and when a session aborts. An abort is always possible: the relay can drop traffic (availability is out of
//! scope; a dropped frame is detected, not repaired).
//!
//! `KK` authenticates each party individually: a party can impersonate nobody else, even
//! together with the relay, as long as the other parties' private keys stay private. Its costs:
//! keys must be distributed out of band and pinned by the application (this crate does not do
//! that); no identity hiding (spec §7.8: static keys are pre-known, so none are sent, but the
//! relay can link sessions of the same key pairs by traffic pattern, not by content). Compromise
//! of a static private key lets the attacker impersonate that party in future sessions; past
//! sessions stay secret (ephemeral-ephemeral DH, forward secrecy per spec §7.7).
//!
//! `NNpsk0` authenticates membership, not identity: everyone who knows the session secret can
//! derive every pair's key. So a party that knows the secret and controls the relay (or the
//! network path) can impersonate any party to any other and read other pairs' traffic by
//! man-in-the-middle; the mode protects only against outsiders. The first handshake message
//! allows an offline guessing attack on the pair key by whoever records it, so the secret must
//! be a uniformly random key of at least [`config::MIN_SECRET_LEN`] bytes (enforced), never a
//! passphrase. Leaking the secret after the session does not reveal its traffic (ephemeral DH),
//! but leaking it before lets the holder run man-in-the-middle attacks.
//!
//! # Limits
//! - `establish` returns the typed [`SecureError`] (which converts into [`NetError`] with `?`);
//!   a party whose handshake fails just leaves, so its peers see [`NetError::PeerLeft`] — no
//!   abort message is sent (an attacker could suppress it anyway).
//! - No rekeying (spec §11.3): a session would need 2^64 frames per direction to exhaust the
//!   nonces, which is reported as an error rather than wrapped.
//! - A protocol message is reassembled in memory without a size cap: only an authenticated peer
//!   can make it grow, and the transport (relay) limits apply beneath.
//!
//! `NN` authenticates nobody. Against whoever only reads the transport it gives what the other
//! modes give (confidentiality and integrity per pair, detection of replay, reordering, dropping,
//! truncation); but an active attacker on the transport can run a separate handshake with each
//! party and relay between them (man in the middle): it then reads and alters every message, and
//! in a protocol that means it can take part as the other party towards each honest party —
//! supply inputs of its choice and learn what that party would learn. Use it only where the
//! transport itself authenticates the parties (a channel the application already secured), and
//! say so to users.
//!
//! Not covered in any mode: a malicious party misbehaving inside the protocol (that is the
//! protocols' job), traffic analysis, denial of service, and side channels of the host.

pub mod config;
mod error;
pub mod frame;
pub mod handshake;
#[cfg(test)]
mod tests;

pub use config::{ChannelMode, PrivateKey, PublicKey, SecureConfig};
pub use error::SecureError;

use crate::net::{NetError, NetStats, Network, PartyId, StatsRecorder};
use crate::rng::session_rng;
use frame::{Header, FLAG_LAST, HEADER_LEN, MAX_CHUNK, TAGLEN};
use rand_core::{CryptoRng, RngCore};
use snow::StatelessTransportState;

/// The channel state with one peer.
struct Channel {
    transport: StatelessTransportState,
    /// Sequence number (nonce) of the next frame this party sends to the peer.
    send_seq: u64,
    /// Sequence number the next frame from the peer must carry.
    recv_seq: u64,
    /// Chunks of the protocol message being received; kept here (not in the `recv` future) so
    /// that a cancelled `recv` loses nothing.
    partial: Vec<u8>,
}

/// A [`Network`] whose messages travel encrypted and authenticated over an inner network.
pub struct SecureNetwork<N> {
    inner: N,
    mode: ChannelMode,
    channels: Vec<Option<Channel>>,
    stats: StatsRecorder,
    poisoned: Option<NetError>,
}

impl<N> core::fmt::Debug for SecureNetwork<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SecureNetwork")
            .field("mode", &self.mode)
            .field("parties", &self.channels.len())
            .field("poisoned", &self.poisoned)
            .finish_non_exhaustive()
    }
}

impl<N: Network> SecureNetwork<N> {
    /// Runs the handshakes with every other party over `inner`, with ephemeral keys from a fresh
    /// OS-seeded session generator ([`session_rng`]). Every party of the session must call this
    /// (with matching session ids and credentials) before any protocol message is sent.
    pub async fn establish(inner: N, config: SecureConfig) -> Result<Self, SecureError> {
        let mut rng = session_rng()?;
        Self::establish_with_rng(inner, config, &mut rng).await
    }

    /// [`Self::establish`] with ephemeral keys drawn from `rng` (deterministic tests).
    pub async fn establish_with_rng<R: RngCore + CryptoRng>(
        mut inner: N,
        config: SecureConfig,
        rng: &mut R,
    ) -> Result<Self, SecureError> {
        let transports = handshake::handshake_all(&mut inner, &config, rng).await?;
        let channels = transports
            .into_iter()
            .map(|t| t.map(|transport| Channel { transport, send_seq: 0, recv_seq: 0, partial: Vec::new() }))
            .collect();
        Ok(SecureNetwork {
            inner,
            mode: config.mode(),
            channels,
            stats: StatsRecorder::new(),
            poisoned: None,
        })
    }

    /// The handshake this network ran.
    pub fn mode(&self) -> ChannelMode {
        self.mode
    }

    /// Statistics of the inner network: ciphertext, frame headers and handshake messages.
    pub fn transport_stats(&self) -> NetStats {
        self.inner.stats()
    }

    /// The error that poisoned this network, if any.
    pub fn poisoned(&self) -> Option<&NetError> {
        self.poisoned.as_ref()
    }

    fn check_usable(&self, peer: PartyId) -> Result<(), NetError> {
        if let Some(e) = &self.poisoned {
            return Err(e.clone());
        }
        self.check_peer(peer)
    }

    fn poison(&mut self, peer: PartyId, reason: String) -> NetError {
        let e = NetError::Integrity { peer, reason };
        self.poisoned = Some(e.clone());
        e
    }

    fn channel(&mut self, peer: PartyId) -> &mut Channel {
        self.channels[peer].as_mut().expect("check_peer admits only parties with a channel")
    }

    /// Sends one chunk as one frame.
    fn send_frame(&mut self, to: PartyId, chunk: &[u8], last: bool) -> Result<(), NetError> {
        let flags = if last { FLAG_LAST } else { 0 };
        let channel = self.channel(to);
        let seq = channel.send_seq;
        let Some(next) = seq.checked_add(1) else {
            return Err(self.poison(to, "sequence numbers exhausted".into()));
        };
        let mut plain = Vec::with_capacity(1 + chunk.len());
        plain.push(flags);
        plain.extend_from_slice(chunk);
        let mut frame = Vec::with_capacity(HEADER_LEN + plain.len() + TAGLEN);
        Header { flags, seq }.write(&mut frame);
        frame.resize(HEADER_LEN + plain.len() + TAGLEN, 0);
        let written = channel
            .transport
            .write_message(seq, &plain, &mut frame[HEADER_LEN..])
            .map_err(|e| NetError::Transport(format!("encrypting frame #{seq} for party {to}: {e}")))?;
        debug_assert_eq!(written, plain.len() + TAGLEN);
        channel.send_seq = next;
        self.inner.send(to, frame)
    }

    /// Receives, checks and decrypts one frame; returns whether it was the last chunk.
    async fn recv_frame(&mut self, from: PartyId) -> Result<bool, NetError> {
        let frame = self.inner.recv(from).await?;
        let (header, body) = match frame::parse(&frame) {
            Ok(parsed) => parsed,
            Err(reason) => return Err(self.poison(from, reason)),
        };
        let channel = self.channel(from);
        let expected = channel.recv_seq;
        if header.seq != expected {
            let what = if header.seq < expected { "replayed" } else { "reordered or an earlier one dropped" };
            let reason = format!("expected frame #{expected}, got frame #{} ({what})", header.seq);
            return Err(self.poison(from, reason));
        }
        let mut plain = vec![0u8; body.len()];
        let len = match channel.transport.read_message(header.seq, body, &mut plain) {
            Ok(len) => len,
            Err(e) => {
                let reason =
                    format!("authentication failed for frame #{} ({e}): altered or forged", header.seq);
                return Err(self.poison(from, reason));
            }
        };
        let chunk = &plain[1..len];
        if plain[0] != header.flags {
            let reason = format!(
                "frame #{}: header flags {:#04x} differ from the authenticated {:#04x}",
                header.seq, header.flags, plain[0]
            );
            return Err(self.poison(from, reason));
        }
        if !header.is_last() && chunk.len() != MAX_CHUNK {
            let reason = format!(
                "frame #{}: non-final chunk of {} bytes, expected {MAX_CHUNK}",
                header.seq,
                chunk.len()
            );
            return Err(self.poison(from, reason));
        }
        channel.partial.extend_from_slice(chunk);
        channel.recv_seq += 1;
        Ok(header.is_last())
    }
}

impl<N: Network> Network for SecureNetwork<N> {
    fn party(&self) -> PartyId {
        self.inner.party()
    }

    fn parties(&self) -> usize {
        self.inner.parties()
    }

    fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError> {
        self.check_usable(to)?;
        let mut chunks = msg.chunks(MAX_CHUNK).peekable();
        if chunks.peek().is_none() {
            self.send_frame(to, &[], true)?;
        }
        while let Some(chunk) = chunks.next() {
            let last = chunks.peek().is_none();
            self.send_frame(to, chunk, last)?;
        }
        self.stats.on_send(msg.len());
        Ok(())
    }

    async fn recv(&mut self, from: PartyId) -> Result<Vec<u8>, NetError> {
        self.check_usable(from)?;
        while !self.recv_frame(from).await? {}
        let msg = core::mem::take(&mut self.channel(from).partial);
        self.stats.on_recv(msg.len());
        Ok(msg)
    }

    fn stats(&self) -> NetStats {
        self.stats.stats()
    }
}
