//! Bucketing of leaky triples for n parties (WRK17 §4, as the two-party
//! [`crate::ot::tinyot`] does it), and the MAC-checked opening it uses.
//!
//! **Buckets.** Coins fix a random permutation of the `B·N` leaky triples; bucket q takes
//! positions `q·B .. (q+1)·B`. Its first triple `(x_1, y_1, z_1)` absorbs each other one: `d_k =
//! y_1 ⊕ y_k` is opened, and `x ← x ⊕ x_k`, `z ← z ⊕ z_k ⊕ d_k·x_k` (`x_k·y_1 = z_k ⊕ d_k·x_k`).
//!
//! **Opening** (`open_checked`): each party sends every peer j its shares and
//! `SHA-256(tag, M_j[share] for every bit)`; j recomputes the digest from its keys,
//! `K_j[share] ⊕ share·Δ_j`, and rejects a mismatch. A party that shows different shares to
//! different peers must forge a MAC towards one of them (2^-128), so every honest party opens
//! the same values.

use rand_core::{CryptoRng, RngCore};
use sha2::{Digest, Sha256};

use super::{peers, MultiTinyOt, NBits};
use crate::net::Network;
use crate::ot::tinyot::{mask, pack, permutation};
use crate::ot::OtError;

const OPENING_TAG: &[u8] = b"chorus/ot/n-tinyot/opening-macs/v1";

impl MultiTinyOt {
    /// Opens `bits` (every party the same batch), checking every share against this party's
    /// keys; `check` names the MAC check in the error.
    pub(super) async fn open_checked<N: Network>(
        &mut self,
        net: &mut N,
        bits: &NBits,
        check: &'static str,
    ) -> Result<Vec<bool>, OtError> {
        let (me, n, len) = (self.me, self.parties, bits.len());
        let mine = pack(bits.shares().iter().copied(), len);
        for j in peers(me, n) {
            #[allow(unused_mut)]
            let mut shown = mine.clone();
            #[cfg(test)]
            if let Some(super::Cheat::Opening { peer, index }) = self.cheat {
                if peer == j {
                    shown[index / 8] ^= 1 << (index % 8);
                }
            }
            let mut h = Sha256::new();
            h.update(OPENING_TAG);
            bits.macs_for(j).for_each(|m| h.update(m.to_le_bytes()));
            let mut msg = shown;
            msg.extend_from_slice(&h.finalize());
            net.send(j, msg)?;
        }
        let mut opened = mine.clone();
        let outcome = self.check_openings(net, bits, &mut opened, check).await;
        self.verdicts(net, outcome, check).await?;
        Ok((0..len).map(|t| (opened[t / 8] >> (t % 8)) & 1 == 1).collect())
    }

    /// Receives every peer's shares of `bits` with their MAC digest, checks the digests against
    /// this party's keys, and XORs the shares into `opened` (this party's own, packed).
    async fn check_openings<N: Network>(
        &mut self,
        net: &mut N,
        bits: &NBits,
        opened: &mut [u8],
        check: &'static str,
    ) -> Result<(), OtError> {
        let bytes = opened.len();
        for j in peers(self.me, self.parties) {
            let got = net.recv(j).await?;
            if got.len() != bytes + 32 {
                return Err(OtError::malformed(
                    "n-party TinyOT opening",
                    format!("expected {} bytes, got {}", bytes + 32, got.len()),
                ));
            }
            let bit = |t: usize| (got[t / 8] >> (t % 8)) & 1 == 1;
            let mut h = Sha256::new();
            h.update(OPENING_TAG);
            for (t, k) in bits.keys_for(j).enumerate() {
                h.update((k ^ (self.delta & mask(bit(t)))).to_le_bytes());
            }
            if h.finalize()[..] != got[bytes..] {
                return Err(OtError::CheckFailed { check });
            }
            for (o, g) in opened.iter_mut().zip(&got) {
                *o ^= g;
            }
        }
        Ok(())
    }

    /// Combines the leaky triples `[x, y, z]` into `count` triples with buckets of `b`.
    pub(super) async fn bucket<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        leaky: [&NBits; 3],
        b: usize,
        count: usize,
        rng: &mut R,
    ) -> Result<[NBits; 3], OtError> {
        let [x, y, z] = leaky;
        let (n, me) = (self.parties, self.me);
        let coins = self.coins(net, rng).await?;
        let perm = permutation(&coins, x.len());
        let buckets: Vec<&[usize]> = perm.chunks_exact(b).take(count).collect();
        let mut d = NBits::with_capacity(n, me, buckets.len() * (b - 1));
        for bk in &buckets {
            for &k in &bk[1..] {
                d.push_from(y, bk[0]);
                d.xor_from(d.len() - 1, y, k, true);
            }
        }
        let opened = self.open_checked(net, &d, "n-party bucket opening").await?;
        drop(d);
        let mut out = [(); 3].map(|_| NBits::with_capacity(n, me, buckets.len()));
        let mut openings = opened.into_iter();
        for (e, bk) in buckets.iter().enumerate() {
            for (out, src) in out.iter_mut().zip([x, y, z]) {
                out.push_from(src, bk[0]);
            }
            // x = ⊕ x_k, y = y_first, z = ⊕ (z_k ⊕ d_k·x_k).
            for &k in &bk[1..] {
                let dk = openings.next().expect("one opening per absorbed triple");
                out[0].xor_from(e, x, k, true);
                out[2].xor_from(e, z, k, true);
                out[2].xor_from(e, x, k, dk);
            }
        }
        Ok(out)
    }
}
