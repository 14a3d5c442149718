//! Commit-then-open among all parties, and the coin toss built on it.
//!
//! Each party first sends every peer `SHA-256(tag, session, exchange, party, payload, nonce)` with
//! a fresh 256-bit nonce, and only after receiving every peer's commitment sends `payload ‖
//! nonce`; so no party can choose what it opens after seeing another's opening (hiding by the
//! nonce's entropy, binding by collision resistance). The exchange counter makes every commitment
//! of a session distinct. The sum checks open their values this way; the coins are the hash of
//! every party's opened seed, uniform if one party is honest.

use rand_core::{CryptoRng, RngCore};
use sha2::{Digest, Sha256};

use super::{peers, MultiTinyOt};
use crate::net::Network;
use crate::ot::block::{self, BLOCK_BYTES};
use crate::ot::{Block, OtError};

const COMMIT_TAG: &[u8] = b"chorus/ot/n-tinyot/commit/v1";
const COINS_TAG: &[u8] = b"chorus/ot/n-tinyot/coins/v1";
const NONCE_BYTES: usize = 32;

impl MultiTinyOt {
    fn commitment(&self, party: usize, opening: &[u8]) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(COMMIT_TAG);
        h.update((self.session.len() as u64).to_le_bytes());
        h.update(&self.session);
        h.update(self.exchanges.to_le_bytes());
        h.update([party as u8]);
        h.update(opening);
        h.finalize().into()
    }

    /// Commits to `payload`, then opens it; returns every party's payload in party order (this
    /// party's own at its index). Every party's payload must have `payload.len()` bytes.
    pub(super) async fn commit_open<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        payload: Vec<u8>,
        rng: &mut R,
    ) -> Result<Vec<Vec<u8>>, OtError> {
        let mut opening = payload;
        let len = opening.len();
        opening.resize(len + NONCE_BYTES, 0);
        rng.fill_bytes(&mut opening[len..]);
        let mine = self.commitment(self.me, &opening);
        for j in peers(self.me, self.parties) {
            net.send(j, mine.to_vec())?;
        }
        let mut commitments = vec![[0u8; 32]; self.parties];
        for j in peers(self.me, self.parties) {
            let c = net.recv(j).await?;
            commitments[j] = c.as_slice().try_into().map_err(|_| {
                OtError::malformed("n-party TinyOT commitment", format!("expected 32 bytes, got {}", c.len()))
            })?;
        }
        #[allow(unused_mut)]
        let mut sent = opening.clone();
        #[cfg(test)]
        if self.cheat == Some(super::Cheat::Reopen) {
            sent[0] ^= 1;
        }
        for j in peers(self.me, self.parties) {
            net.send(j, sent.clone())?;
        }
        let mut out = vec![Vec::new(); self.parties];
        for j in peers(self.me, self.parties) {
            let o = net.recv(j).await?;
            if o.len() != opening.len() {
                return Err(OtError::malformed(
                    "n-party TinyOT opening",
                    format!("expected {} bytes, got {}", opening.len(), o.len()),
                ));
            }
            if self.commitment(j, &o) != commitments[j] {
                return Err(OtError::CheckFailed { check: "n-party TinyOT commitment" });
            }
            out[j] = o[..len].to_vec();
        }
        opening.truncate(len);
        out[self.me] = opening;
        self.exchanges += 1;
        Ok(out)
    }

    /// 32 bytes of coins that no coalition of fewer than all parties chooses.
    pub(super) async fn coins<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        rng: &mut R,
    ) -> Result<[u8; 32], OtError> {
        let mut seed = vec![0u8; 32];
        rng.fill_bytes(&mut seed);
        let exchange = self.exchanges;
        let seeds = self.commit_open(net, seed, rng).await?;
        let mut h = Sha256::new();
        h.update(COINS_TAG);
        h.update((self.session.len() as u64).to_le_bytes());
        h.update(&self.session);
        h.update(exchange.to_le_bytes());
        for s in &seeds {
            h.update(s);
        }
        Ok(h.finalize().into())
    }
}

impl MultiTinyOt {
    /// The sum check: every party's `share` must XOR to zero and every party's `echo` (its
    /// [`echo_digest`] of the values broadcast before) must be the same; `sum` and `echoed` name
    /// the two checks in errors.
    pub(super) async fn sum_check<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        share: Block,
        echo: [u8; 32],
        names: [&'static str; 2],
        rng: &mut R,
    ) -> Result<(), OtError> {
        let mut payload = share.to_le_bytes().to_vec();
        payload.extend_from_slice(&echo);
        let outcome = match self.commit_open(net, payload, rng).await {
            Err(e) => Err(e),
            Ok(all) if all.iter().fold(0, |s, p| s ^ block::block_at(p, 0)) != 0 => {
                Err(OtError::CheckFailed { check: names[0] })
            }
            Ok(all) if all.iter().any(|p| p[BLOCK_BYTES..] != echo) => {
                Err(OtError::CheckFailed { check: names[1] })
            }
            Ok(_) => Ok(()),
        };
        self.verdicts(net, outcome, names[0]).await
    }

    /// Tells every peer whether this party's `outcome` of a check passed and hears theirs: a
    /// failure anywhere fails every party that hears of it (with `check`), so a cheat one honest
    /// party detects aborts the others too. (A cheater may still tell honest parties different
    /// verdicts; the ones told "passed" then hold correct material — abort is selective, as
    /// without a broadcast channel it must be.)
    pub(super) async fn verdicts<N: Network>(
        &mut self,
        net: &mut N,
        outcome: Result<(), OtError>,
        check: &'static str,
    ) -> Result<(), OtError> {
        let passed = outcome.is_ok();
        for j in peers(self.me, self.parties) {
            // A peer that left already sent its verdict, which the receive below still reads.
            let _ = net.send(j, vec![passed as u8]);
        }
        outcome?;
        for j in peers(self.me, self.parties) {
            if net.recv(j).await? != [1] {
                return Err(OtError::CheckFailed { check });
            }
        }
        Ok(())
    }
}

/// A digest of the values every party broadcast, as this party received them (the echo of a
/// broadcast: equal digests at every party mean nobody equivocated).
pub(super) fn echo_digest(values: &[Vec<u8>]) -> [u8; 32] {
    let mut h = Sha256::new();
    for v in values {
        h.update((v.len() as u64).to_le_bytes());
        h.update(v);
    }
    h.finalize().into()
}
