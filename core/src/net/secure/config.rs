//! What a party brings to the secure channel: its session id and either pinned static keys
//! (Noise `KK`), a session secret (Noise `NNpsk0`), or nothing (Noise `NN`, unauthenticated), and
//! the per-pair values derived from them.

use super::error::SecureError;
use crate::net::PartyId;
use hkdf::Hkdf;
use rand_core::{CryptoRng, RngCore};
use sha2::Sha256;
use snow::params::DHChoice;
use snow::resolvers::{CryptoResolver, DefaultResolver};
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Length of an X25519 public or private key.
pub const KEY_LEN: usize = 32;

/// Shortest accepted session secret: the `NNpsk0` transcript lets whoever sees it test guesses
/// of the secret offline, so the secret must be a uniformly random key, not a passphrase.
pub const MIN_SECRET_LEN: usize = 16;

/// Noise protocol name of the pinned-key mode (Noise spec rev. 34, §7.5 `KK`).
pub const KK_PROTOCOL: &str = "Noise_KK_25519_ChaChaPoly_SHA256";

/// Noise protocol name of the session-secret mode (Noise spec rev. 34, §9.4: the
/// `psk0` modifier on the §7.5 pattern `NN`).
pub const NNPSK0_PROTOCOL: &str = "Noise_NNpsk0_25519_ChaChaPoly_SHA256";

/// Noise protocol name of the unauthenticated mode (Noise spec rev. 34, §7.5 `NN`).
pub const NN_PROTOCOL: &str = "Noise_NN_25519_ChaChaPoly_SHA256";

/// Version tag bound into prologues and key derivation, so a changed wire format never
/// interoperates silently with an old one.
const CHANNEL_LABEL: &[u8] = b"chorus secure channel v1";

/// An X25519 public key.
pub type PublicKey = [u8; KEY_LEN];

/// An X25519 private key; wiped from memory when dropped and never printed.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct PrivateKey([u8; KEY_LEN]);

impl PrivateKey {
    /// Wraps raw key bytes (any 32 bytes are a valid X25519 private key; clamping happens in
    /// the Diffie-Hellman function).
    pub fn from_bytes(bytes: [u8; KEY_LEN]) -> Self {
        PrivateKey(bytes)
    }

    /// A fresh random key.
    pub fn generate<R: RngCore + CryptoRng>(rng: &mut R) -> Self {
        let mut bytes = [0u8; KEY_LEN];
        rng.fill_bytes(&mut bytes);
        PrivateKey(bytes)
    }

    /// The matching public key.
    pub fn public_key(&self) -> PublicKey {
        let mut dh = DefaultResolver
            .resolve_dh(&DHChoice::Curve25519)
            .expect("the Curve25519 feature of snow is enabled in Cargo.toml");
        dh.set(&self.0);
        let mut public = [0u8; KEY_LEN];
        public.copy_from_slice(dh.pubkey());
        public
    }

    /// The raw key bytes (to store the key; handle with care).
    pub fn to_bytes(&self) -> [u8; KEY_LEN] {
        self.0
    }

    pub(super) fn as_bytes(&self) -> &[u8; KEY_LEN] {
        &self.0
    }
}

impl core::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("PrivateKey(<redacted>)")
    }
}

/// Which Noise handshake the channel runs (see the module docs for the threat model of each).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChannelMode {
    /// `Noise_KK_25519_ChaChaPoly_SHA256`: both sides' static keys are pinned in advance.
    Kk,
    /// `Noise_NNpsk0_25519_ChaChaPoly_SHA256`: a per-pair key derived from a shared session secret.
    NnPsk0,
    /// `Noise_NN_25519_ChaChaPoly_SHA256`: ephemeral keys only, no authentication of the peer.
    Nn,
}

impl ChannelMode {
    /// The full Noise protocol name.
    pub fn protocol_name(self) -> &'static str {
        match self {
            ChannelMode::Kk => KK_PROTOCOL,
            ChannelMode::NnPsk0 => NNPSK0_PROTOCOL,
            ChannelMode::Nn => NN_PROTOCOL,
        }
    }
}

impl core::fmt::Display for ChannelMode {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.protocol_name())
    }
}

#[derive(Clone)]
enum Credentials {
    Pinned { private: PrivateKey, public_keys: Vec<PublicKey> },
    Secret { secret: Vec<u8> },
    Unauthenticated,
}

impl Drop for Credentials {
    fn drop(&mut self) {
        if let Credentials::Secret { secret } = self {
            secret.zeroize();
        }
    }
}

/// One party's configuration of the secure channel for one session.
#[derive(Clone)]
pub struct SecureConfig {
    session_id: Vec<u8>,
    credentials: Credentials,
}

impl core::fmt::Debug for SecureConfig {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SecureConfig")
            .field("session_id", &self.session_id)
            .field("mode", &self.mode())
            .finish_non_exhaustive()
    }
}

impl SecureConfig {
    /// `KK` mode: this party's static private key and every party's static public key, in party
    /// order (this party's own entry must match its private key).
    pub fn pinned_keys(session_id: &[u8], private_key: PrivateKey, public_keys: Vec<PublicKey>) -> Self {
        SecureConfig {
            session_id: session_id.to_vec(),
            credentials: Credentials::Pinned { private: private_key, public_keys },
        }
    }

    /// `NNpsk0` mode: a secret shared by all parties of the session (at least
    /// [`MIN_SECRET_LEN`] uniformly random bytes; checked when the channel is established).
    pub fn session_secret(session_id: &[u8], secret: &[u8]) -> Self {
        SecureConfig {
            session_id: session_id.to_vec(),
            credentials: Credentials::Secret { secret: secret.to_vec() },
        }
    }

    /// `NN` mode: no credentials. The channels are encrypted and integrity-protected against
    /// whoever only observes the transport, but an active attacker on it can sit between any two
    /// parties (see the module docs); for transports the application already trusts.
    pub fn unauthenticated(session_id: &[u8]) -> Self {
        SecureConfig { session_id: session_id.to_vec(), credentials: Credentials::Unauthenticated }
    }

    /// The handshake this configuration runs.
    pub fn mode(&self) -> ChannelMode {
        match self.credentials {
            Credentials::Pinned { .. } => ChannelMode::Kk,
            Credentials::Secret { .. } => ChannelMode::NnPsk0,
            Credentials::Unauthenticated => ChannelMode::Nn,
        }
    }

    /// The session id bound into every handshake.
    pub fn session_id(&self) -> &[u8] {
        &self.session_id
    }

    /// Checks the configuration against the session `me` joins as one of `parties`.
    pub(super) fn validate(&self, me: PartyId, parties: usize) -> Result<(), SecureError> {
        match &self.credentials {
            Credentials::Pinned { private, public_keys } => {
                if public_keys.len() != parties {
                    return Err(SecureError::KeyCount { keys: public_keys.len(), parties });
                }
                if private.public_key() != public_keys[me] {
                    return Err(SecureError::OwnKeyMismatch { party: me });
                }
                Ok(())
            }
            Credentials::Secret { secret } => {
                if secret.len() < MIN_SECRET_LEN {
                    Err(SecureError::SecretTooShort { len: secret.len(), min: MIN_SECRET_LEN })
                } else {
                    Ok(())
                }
            }
            Credentials::Unauthenticated => Ok(()),
        }
    }

    /// What the handshake of `me` with `peer` needs: own private key and the peer's pinned key
    /// (`KK`) or the pair's pre-shared key (`NNpsk0`).
    pub(super) fn pair_credentials(&self, me: PartyId, peer: PartyId) -> PairCredentials {
        match &self.credentials {
            Credentials::Pinned { private, public_keys } => {
                PairCredentials::Pinned { private: private.clone(), peer_public: public_keys[peer] }
            }
            Credentials::Secret { secret } => {
                PairCredentials::Psk(derive_pair_psk(secret, &self.session_id, me, peer))
            }
            Credentials::Unauthenticated => PairCredentials::None,
        }
    }

    /// The Noise prologue of the pair: both sides must agree on it or the handshake fails. It
    /// binds the channel version, session id, party count and the pair (lower index first).
    pub(super) fn prologue(&self, parties: usize, me: PartyId, peer: PartyId) -> Vec<u8> {
        let (lo, hi) = (me.min(peer), me.max(peer));
        let mut out = Vec::with_capacity(CHANNEL_LABEL.len() + self.session_id.len() + 24);
        push_field(&mut out, CHANNEL_LABEL);
        push_field(&mut out, &self.session_id);
        out.extend_from_slice(&(parties as u64).to_be_bytes());
        out.extend_from_slice(&(lo as u64).to_be_bytes());
        out.extend_from_slice(&(hi as u64).to_be_bytes());
        out
    }
}

/// Credentials of one pair.
pub(super) enum PairCredentials {
    Pinned { private: PrivateKey, peer_public: PublicKey },
    Psk(Psk),
    None,
}

/// A 32-byte Noise pre-shared key, wiped on drop.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(super) struct Psk(pub(super) [u8; 32]);

/// Length-prefixed field, so concatenations of variable-length values are unambiguous.
fn push_field(out: &mut Vec<u8>, field: &[u8]) {
    out.extend_from_slice(&(field.len() as u64).to_be_bytes());
    out.extend_from_slice(field);
}

/// HKDF-SHA256 (RFC 5869) of the session secret, with info binding the channel version, the
/// Noise protocol name, the session id and the pair (lower index first, so both sides derive
/// the same key): every pair of every session gets an independent PSK.
pub(super) fn derive_pair_psk(secret: &[u8], session_id: &[u8], a: PartyId, b: PartyId) -> Psk {
    let (lo, hi) = (a.min(b), a.max(b));
    let mut info = Vec::with_capacity(96 + session_id.len());
    push_field(&mut info, CHANNEL_LABEL);
    push_field(&mut info, NNPSK0_PROTOCOL.as_bytes());
    push_field(&mut info, session_id);
    info.extend_from_slice(&(lo as u64).to_be_bytes());
    info.extend_from_slice(&(hi as u64).to_be_bytes());
    let mut psk = Psk([0u8; 32]);
    Hkdf::<Sha256>::new(Some(CHANNEL_LABEL), secret)
        .expand(&info, &mut psk.0)
        .expect("32 bytes is a valid HKDF-SHA256 output length");
    psk
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::seeded_rng;

    #[test]
    fn pair_psks_are_symmetric_and_distinct() {
        let secret = [7u8; 32];
        let k01 = derive_pair_psk(&secret, b"s", 0, 1);
        assert_eq!(k01.0, derive_pair_psk(&secret, b"s", 1, 0).0);
        assert_ne!(k01.0, derive_pair_psk(&secret, b"s", 0, 2).0);
        assert_ne!(k01.0, derive_pair_psk(&secret, b"t", 0, 1).0);
        assert_ne!(k01.0, derive_pair_psk(&[8u8; 32], b"s", 0, 1).0);
    }

    #[test]
    fn psk_matches_hkdf_with_documented_inputs() {
        // Recomputes the derivation from its documented ingredients with the raw HKDF steps.
        let secret = b"0123456789abcdef0123456789abcdef";
        let mut info = Vec::new();
        for field in [CHANNEL_LABEL, NNPSK0_PROTOCOL.as_bytes(), b"session-9"] {
            info.extend_from_slice(&(field.len() as u64).to_be_bytes());
            info.extend_from_slice(field);
        }
        info.extend_from_slice(&2u64.to_be_bytes());
        info.extend_from_slice(&5u64.to_be_bytes());
        let (prk, _) = Hkdf::<Sha256>::extract(Some(CHANNEL_LABEL), secret);
        let mut expected = [0u8; 32];
        Hkdf::<Sha256>::from_prk(&prk).unwrap().expand(&info, &mut expected).unwrap();
        assert_eq!(derive_pair_psk(secret, b"session-9", 5, 2).0, expected);
    }

    #[test]
    fn public_key_derivation_matches_rfc7748() {
        // RFC 7748 §6.1: Alice's private and public key.
        let private: [u8; 32] =
            hex::decode("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
                .unwrap()
                .try_into()
                .unwrap();
        let public = hex::decode("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a").unwrap();
        assert_eq!(PrivateKey::from_bytes(private).public_key().to_vec(), public);
    }

    #[test]
    fn validation_names_the_problem() {
        let mut rng = seeded_rng(1);
        let keys: Vec<PrivateKey> = (0..3).map(|_| PrivateKey::generate(&mut rng)).collect();
        let publics: Vec<PublicKey> = keys.iter().map(PrivateKey::public_key).collect();
        let ok = SecureConfig::pinned_keys(b"s", keys[1].clone(), publics.clone());
        assert_eq!(ok.validate(1, 3), Ok(()));
        assert_eq!(ok.validate(0, 3), Err(SecureError::OwnKeyMismatch { party: 0 }));
        assert_eq!(ok.validate(1, 4), Err(SecureError::KeyCount { keys: 3, parties: 4 }));
        let short = SecureConfig::session_secret(b"s", b"short");
        assert_eq!(short.validate(0, 2), Err(SecureError::SecretTooShort { len: 5, min: MIN_SECRET_LEN }));
        assert!(!format!("{ok:?}").contains(&format!("{:?}", keys[1].to_bytes())));
    }
}
