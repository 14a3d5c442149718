//! The coin toss behind the OT engine's consistency checks (KOS15's `χ`, COPE's `r`): the checked
//! party must not know the coins before it has sent what they check, and the checking party must
//! not choose them.
//!
//! The checking party (the OT *sender*) commits to its seed for batch `b` before the batch starts —
//! in the setup for batch 0, and together with the opening of batch `b − 1`'s seed afterwards — so
//! its seed is fixed before it sees anything of the batch. The checked party sends its own fresh
//! seed with its batch data; the sender then opens its seed, and the coins are a PRG stream keyed
//! by the hash of both seeds. Commitment: `SHA-256(tag, session, batch, seed)` with a 256-bit random
//! seed (hiding by its entropy, binding by collision resistance).

use rand_core::{CryptoRng, RngCore};
use sha2::{Digest, Sha256};

use super::prg::Prg;
use super::OtError;

/// A 32-byte seed.
pub(crate) type Seed = [u8; 32];

/// Bytes of the sender's opening message: its seed and its commitment to the next one.
pub(crate) const OPENING_BYTES: usize = 64;

fn hash(tag: &[u8], session: &[u8], batch: u64, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(tag);
    h.update((session.len() as u64).to_le_bytes());
    h.update(session);
    h.update(batch.to_le_bytes());
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

const COMMIT_TAG: &[u8] = b"chorus/ot/coins/commitment/v1";
const STREAM_TAG: &[u8] = b"chorus/ot/coins/stream/v1";

/// The committing (checking) side.
pub(crate) struct SenderCoins {
    session: Vec<u8>,
    batch: u64,
    next: Seed,
}

impl SenderCoins {
    /// A fresh seed for batch 0 and the 32-byte commitment to send in the setup.
    pub(crate) fn new<R: RngCore + CryptoRng>(session: &[u8], rng: &mut R) -> (Self, Vec<u8>) {
        let mut next = [0u8; 32];
        rng.fill_bytes(&mut next);
        let c = hash(COMMIT_TAG, session, 0, &[&next]);
        (SenderCoins { session: session.to_vec(), batch: 0, next }, c.to_vec())
    }

    /// Opens this batch's seed and commits to the next batch's, given the peer's seed message
    /// (`step` names it in errors): returns the message to send and this batch's coin stream.
    pub(crate) fn open<R: RngCore + CryptoRng>(
        &mut self,
        peer_msg: &[u8],
        step: &'static str,
        rng: &mut R,
    ) -> Result<(Vec<u8>, Prg), OtError> {
        let peer_seed: Seed = peer_msg
            .try_into()
            .map_err(|_| OtError::malformed(step, format!("expected 32 bytes, got {}", peer_msg.len())))?;
        let seed = self.next;
        rng.fill_bytes(&mut self.next);
        let mut msg = seed.to_vec();
        msg.extend_from_slice(&hash(COMMIT_TAG, &self.session, self.batch + 1, &[&self.next]));
        let stream = stream(&self.session, self.batch, &seed, &peer_seed);
        self.batch += 1;
        Ok((msg, stream))
    }
}

/// The checked side.
pub(crate) struct ReceiverCoins {
    session: Vec<u8>,
    batch: u64,
    commitment: [u8; 32],
}

impl ReceiverCoins {
    /// From the sender's setup commitment (`step` names the message in errors).
    pub(crate) fn new(session: &[u8], msg: &[u8], step: &'static str) -> Result<Self, OtError> {
        let commitment = msg
            .try_into()
            .map_err(|_| OtError::malformed(step, format!("expected 32 bytes, got {}", msg.len())))?;
        Ok(ReceiverCoins { session: session.to_vec(), batch: 0, commitment })
    }

    /// A fresh seed to send with the batch.
    pub(crate) fn fresh<R: RngCore + CryptoRng>(rng: &mut R) -> Seed {
        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);
        seed
    }

    /// Checks the sender's opening against its commitment, keeps its next commitment, and returns
    /// this batch's coin stream.
    pub(crate) fn verify(
        &mut self,
        msg: &[u8],
        own: &Seed,
        step: &'static str,
        check: &'static str,
    ) -> Result<Prg, OtError> {
        if msg.len() != OPENING_BYTES {
            return Err(OtError::malformed(
                step,
                format!("expected {OPENING_BYTES} bytes, got {}", msg.len()),
            ));
        }
        let seed: Seed = msg[..32].try_into().expect("32 bytes");
        if hash(COMMIT_TAG, &self.session, self.batch, &[&seed]) != self.commitment {
            return Err(OtError::CheckFailed { check });
        }
        self.commitment = msg[32..].try_into().expect("32 bytes");
        let stream = stream(&self.session, self.batch, &seed, own);
        self.batch += 1;
        Ok(stream)
    }
}

/// The coin stream of one batch from both seeds.
fn stream(session: &[u8], batch: u64, sender: &Seed, receiver: &Seed) -> Prg {
    let digest = hash(STREAM_TAG, session, batch, &[sender, receiver]);
    Prg::new(u128::from_le_bytes(digest[..16].try_into().expect("16 bytes")))
}
