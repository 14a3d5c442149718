//! The Noise handshakes of all pairs of a session, run concurrently through the inner network.
//!
//! The three patterns have two messages (Noise spec §7.5 for `KK` and `NN`, §9.4 for `NNpsk0`):
//!
//! ```text
//! KK:   -> s                         NNpsk0:                  NN:
//!       <- s
//!       ...
//!       -> e, es, ss                         -> psk, e              -> e
//!       <- e, ee, se                         <- e, ee               <- e, ee
//! ```
//!
//! The lower party index of a pair is the initiator. Every party first sends message 1 to all
//! higher parties, then answers message 1 of every lower party, then reads message 2 of every
//! higher party. All sends are queued at once, so the whole mesh completes in two message
//! latencies however many parties there are, never serialising pairs' round trips. Handshake
//! payloads are empty: the prologue (see [`super::config`]) already binds the session and pair.
//! The one exception keeps every handshake frame the same length: `NN`'s first message has no key
//! to encrypt under, hence no tag, so it carries [`NN_PADDING`] (16 zero bytes, in clear) instead.

use super::config::{ChannelMode, PairCredentials, SecureConfig};
use super::error::SecureError;
use super::frame::{HANDSHAKE_VERSION, TAGLEN};
use crate::net::{Network, PartyId};
use core::cell::Cell;
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};
use snow::params::{CipherChoice, DHChoice, HashChoice};
use snow::resolvers::{CryptoResolver, DefaultResolver};
use snow::types::{Cipher, Dh, Hash, Random};
use snow::{Builder, HandshakeState, StatelessTransportState};

/// A Noise handshake message of either pattern with an empty payload: the ephemeral key in
/// clear and the tag of the encrypted (empty) payload.
pub(super) const HANDSHAKE_MSG_LEN: usize = 32 + TAGLEN;

/// A handshake frame on the wire: version byte and Noise message.
pub const HANDSHAKE_FRAME_LEN: usize = 1 + HANDSHAKE_MSG_LEN;

/// The payload of `NN`'s first message, which stands in for the tag the other messages carry.
const NN_PADDING: [u8; TAGLEN] = [0; TAGLEN];

/// The payload `state` writes or reads in its next message of `mode`.
fn payload_of(mode: ChannelMode, state: &HandshakeState) -> &'static [u8] {
    let first_message = state.is_initiator() == state.is_my_turn();
    if mode == ChannelMode::Nn && first_message {
        &NN_PADDING
    } else {
        &[]
    }
}

/// snow's primitives (pure Rust, except the native cipher: see `resolve_cipher`), with randomness
/// from the session generator instead of snow's own `getrandom` 0.3 source (which needs extra
/// build flags on wasm32). The generator is handed out once: a second request gets none, so snow
/// fails rather than reuse the stream.
struct SessionResolver {
    rng: Cell<Option<ChaCha20Rng>>,
}

struct SessionRandom(ChaCha20Rng);

impl Random for SessionRandom {
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), snow::Error> {
        self.0.fill_bytes(dest);
        Ok(())
    }
}

impl CryptoResolver for SessionResolver {
    fn resolve_rng(&self) -> Option<Box<dyn Random>> {
        self.rng.take().map(|rng| Box::new(SessionRandom(rng)) as Box<dyn Random>)
    }

    fn resolve_dh(&self, choice: &DHChoice) -> Option<Box<dyn Dh>> {
        DefaultResolver.resolve_dh(choice)
    }

    fn resolve_hash(&self, choice: &HashChoice) -> Option<Box<dyn Hash>> {
        DefaultResolver.resolve_hash(choice)
    }

    /// Natively, ring's ChaCha20-Poly1305 (assembly); on wasm32 the pure-Rust one. Both are the
    /// Noise cipher `ChaChaPoly` with the same nonce encoding, so peers interoperate.
    fn resolve_cipher(&self, choice: &CipherChoice) -> Option<Box<dyn Cipher>> {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(cipher) = snow::resolvers::RingResolver.resolve_cipher(choice) {
            return Some(cipher);
        }
        DefaultResolver.resolve_cipher(choice)
    }
}

fn noise_error(peer: PartyId) -> impl Fn(snow::Error) -> SecureError {
    move |e| SecureError::Noise { peer, reason: e.to_string() }
}

/// The handshake state of `me` for the pair with `peer`, with its own generator (forked from
/// the session generator so each handshake draws independent ephemeral keys).
fn start(
    config: &SecureConfig,
    parties: usize,
    me: PartyId,
    peer: PartyId,
    rng: ChaCha20Rng,
) -> Result<HandshakeState, SecureError> {
    let err = noise_error(peer);
    let params = config.mode().protocol_name().parse().map_err(&err)?;
    let resolver = Box::new(SessionResolver { rng: Cell::new(Some(rng)) });
    let prologue = config.prologue(parties, me, peer);
    let credentials = config.pair_credentials(me, peer);
    let builder = Builder::with_resolver(params, resolver).prologue(&prologue).map_err(&err)?;
    let builder = match &credentials {
        PairCredentials::Pinned { private, peer_public } => builder
            .local_private_key(private.as_bytes())
            .map_err(&err)?
            .remote_public_key(peer_public)
            .map_err(&err)?,
        PairCredentials::Psk(psk) => builder.psk(0, &psk.0).map_err(&err)?,
        PairCredentials::None => builder,
    };
    if me < peer { builder.build_initiator() } else { builder.build_responder() }.map_err(err)
}

fn write(state: &mut HandshakeState, peer: PartyId, mode: ChannelMode) -> Result<Vec<u8>, SecureError> {
    // snow asks for room for a tag even where the message has none (`NN`'s first).
    let mut message = [0u8; HANDSHAKE_MSG_LEN + TAGLEN];
    let payload = payload_of(mode, state);
    let len = state.write_message(payload, &mut message).map_err(noise_error(peer))?;
    if len != HANDSHAKE_MSG_LEN {
        return Err(SecureError::Noise {
            peer,
            reason: format!("handshake message of {len} bytes, expected {HANDSHAKE_MSG_LEN}"),
        });
    }
    let mut frame = Vec::with_capacity(HANDSHAKE_FRAME_LEN);
    frame.push(HANDSHAKE_VERSION);
    frame.extend_from_slice(&message[..len]);
    Ok(frame)
}

fn read(
    state: &mut HandshakeState,
    peer: PartyId,
    mode: ChannelMode,
    frame: &[u8],
) -> Result<(), SecureError> {
    let malformed = |reason: String| SecureError::HandshakeMalformed { peer, reason };
    if frame.len() != HANDSHAKE_FRAME_LEN {
        return Err(malformed(format!("{} bytes, expected {HANDSHAKE_FRAME_LEN}", frame.len())));
    }
    if frame[0] != HANDSHAKE_VERSION {
        return Err(malformed(format!("channel version {}, expected {HANDSHAKE_VERSION}", frame[0])));
    }
    let expected = payload_of(mode, state);
    let mut payload = [0u8; HANDSHAKE_MSG_LEN];
    match state.read_message(&frame[1..], &mut payload) {
        Ok(len) if payload[..len] == *expected => Ok(()),
        Ok(len) => Err(malformed(format!("unexpected {len}-byte handshake payload"))),
        Err(snow::Error::Decrypt) => Err(SecureError::HandshakeAuthentication { peer, mode }),
        Err(e) => Err(malformed(e.to_string())),
    }
}

/// Runs the handshakes of `inner`'s party with every other party; returns the transport state
/// of each peer (`None` at this party's own index).
pub(super) async fn handshake_all<N: Network, R: RngCore + CryptoRng>(
    inner: &mut N,
    config: &SecureConfig,
    rng: &mut R,
) -> Result<Vec<Option<StatelessTransportState>>, SecureError> {
    let (me, parties) = (inner.party(), inner.parties());
    config.validate(me, parties)?;
    let mode = config.mode();
    let mut states = Vec::with_capacity(parties);
    for peer in 0..parties {
        states.push(if peer == me {
            None
        } else {
            let mut seed = [0u8; 32];
            rng.fill_bytes(&mut seed);
            Some(start(config, parties, me, peer, ChaCha20Rng::from_seed(seed))?)
        });
    }
    for (peer, hs) in states.iter_mut().enumerate().skip(me + 1) {
        let msg = write(hs.as_mut().expect("a state exists for every peer"), peer, mode)?;
        inner.send(peer, msg)?;
    }
    for (peer, hs) in states.iter_mut().enumerate().take(me) {
        let hs = hs.as_mut().expect("a state exists for every peer");
        let frame = inner.recv(peer).await?;
        read(hs, peer, mode, &frame)?;
        let msg = write(hs, peer, mode)?;
        inner.send(peer, msg)?;
    }
    for (peer, hs) in states.iter_mut().enumerate().skip(me + 1) {
        let frame = inner.recv(peer).await?;
        read(hs.as_mut().expect("a state exists for every peer"), peer, mode, &frame)?;
    }
    states
        .into_iter()
        .enumerate()
        .map(|(peer, hs)| {
            hs.map(|hs| hs.into_stateless_transport_mode().map_err(noise_error(peer))).transpose()
        })
        .collect()
}
