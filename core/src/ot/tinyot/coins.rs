//! One commit-then-open exchange that does two jobs: the equality check of the leaky AND
//! (each party's digest of its `L` vector, KRRW18's F_eq) and a coin toss for the bucketing.
//! Each party first sends `SHA-256(tag, session, batch, party, digest, seed)` and only then opens
//! `digest ‖ seed`, so neither can choose its digest or seed after seeing the other's; the coins
//! are the hash of both seeds.

use rand_core::{CryptoRng, RngCore};
use sha2::{Digest, Sha256};

use super::TinyOt;
use crate::net::Network;
use crate::ot::OtError;

const COMMIT_TAG: &[u8] = b"chorus/ot/tinyot/equality-and-coins/commit/v1";
const COINS_TAG: &[u8] = b"chorus/ot/tinyot/equality-and-coins/coins/v1";

impl TinyOt {
    fn commitment(&self, party: usize, opening: &[u8]) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(COMMIT_TAG);
        h.update((self.session.len() as u64).to_le_bytes());
        h.update(&self.session);
        h.update(self.batches.to_le_bytes());
        h.update([party as u8]);
        h.update(opening);
        h.finalize().into()
    }

    /// Checks that the peer's digest equals `digest` and returns 32 bytes of common coins.
    pub(super) async fn equality_and_coins<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        digest: [u8; 32],
        rng: &mut R,
    ) -> Result<[u8; 32], OtError> {
        let mut opening = [0u8; 64];
        opening[..32].copy_from_slice(&digest);
        rng.fill_bytes(&mut opening[32..]);
        net.send(self.peer, self.commitment(self.party, &opening).to_vec())?;
        let commitment = net.recv(self.peer).await?;
        if commitment.len() != 32 {
            return Err(OtError::malformed(
                "tinyot equality commitment",
                format!("expected 32 bytes, got {}", commitment.len()),
            ));
        }
        net.send(self.peer, opening.to_vec())?;
        let theirs = net.recv(self.peer).await?;
        if theirs.len() != 64 {
            return Err(OtError::malformed(
                "tinyot equality opening",
                format!("expected 64 bytes, got {}", theirs.len()),
            ));
        }
        if self.commitment(self.peer, &theirs)[..] != commitment[..] {
            return Err(OtError::CheckFailed { check: "tinyot equality commitment" });
        }
        if theirs[..32] != digest {
            return Err(OtError::CheckFailed { check: "tinyot leaky-and equality" });
        }
        let (seed0, seed1) =
            if self.party == 0 { (&opening[32..], &theirs[32..]) } else { (&theirs[32..], &opening[32..]) };
        let mut h = Sha256::new();
        h.update(COINS_TAG);
        h.update((self.session.len() as u64).to_le_bytes());
        h.update(&self.session);
        h.update(self.batches.to_le_bytes());
        h.update(seed0);
        h.update(seed1);
        Ok(h.finalize().into())
    }
}
