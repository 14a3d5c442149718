//! Errors of establishing a secure channel.

use super::config::ChannelMode;
use crate::net::{NetError, PartyId};
use crate::rng::RngError;

/// Why [`super::SecureNetwork::establish`] failed. Failures after establishment are
/// [`NetError`]s (integrity failures are [`NetError::Integrity`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecureError {
    /// `KK`: the number of pinned public keys differs from the number of parties.
    #[error("{keys} pinned public keys given for a session of {parties} parties")]
    KeyCount {
        /// Keys given.
        keys: usize,
        /// Parties in the session.
        parties: usize,
    },
    /// `KK`: this party's private key does not belong to the public key pinned for it.
    #[error("the private key of party {party} does not match the public key pinned for it")]
    OwnKeyMismatch {
        /// This party.
        party: PartyId,
    },
    /// `NNpsk0`: the session secret is too short to be a key.
    #[error("session secret of {len} bytes is too short: at least {min} random bytes are needed")]
    SecretTooShort {
        /// Length given.
        len: usize,
        /// Minimum length.
        min: usize,
    },
    /// The peer's handshake message failed authentication: in `KK` the peer does not hold the
    /// private key pinned for it (or this party's key is not the one the peer pinned), in `NNpsk0`
    /// the peer derived a different pair key (another session secret or session id); in both
    /// modes the message may also have been altered in transit. The cases are indistinguishable
    /// by design.
    #[error(
        "handshake with party {peer} failed authentication ({mode}): {}",
        match mode {
            ChannelMode::Kk => "the peer's static key is not the pinned one, or the message was altered",
            ChannelMode::NnPsk0 => "the peer uses a different session secret or session id, or the message was altered",
            ChannelMode::Nn => "the message was altered, or the peer uses a different session id",
        }
    )]
    HandshakeAuthentication {
        /// The peer.
        peer: PartyId,
        /// The handshake that failed.
        mode: ChannelMode,
    },
    /// The peer's handshake message is not of the expected shape.
    #[error("malformed handshake message from party {peer}: {reason}")]
    HandshakeMalformed {
        /// The peer.
        peer: PartyId,
        /// What was wrong.
        reason: String,
    },
    /// The Noise library refused a step (a bug or an unusable local configuration).
    #[error("noise handshake with party {peer} could not proceed: {reason}")]
    Noise {
        /// The peer.
        peer: PartyId,
        /// The library's error.
        reason: String,
    },
    /// No randomness for ephemeral keys.
    #[error(transparent)]
    Rng(#[from] RngError),
    /// The transport failed during the handshake.
    #[error(transparent)]
    Net(#[from] NetError),
}

/// For protocol code that propagates everything as [`NetError`] with `?`: transport errors pass
/// through, handshake failures become [`NetError::Integrity`] naming the peer, and local
/// configuration or randomness failures become [`NetError::Transport`] with their message.
impl From<SecureError> for NetError {
    fn from(e: SecureError) -> NetError {
        match e {
            SecureError::Net(e) => e,
            SecureError::HandshakeAuthentication { peer, .. }
            | SecureError::HandshakeMalformed { peer, .. } => {
                NetError::Integrity { peer, reason: e.to_string() }
            }
            other => NetError::Transport(other.to_string()),
        }
    }
}
