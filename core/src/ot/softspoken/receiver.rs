//! The receiver of the SoftSpoken extension (see the [parent module](super) for the protocol):
//! the GGM tree holder and the party with the choice bits.

use rand_core::{CryptoRng, RngCore};

use super::{base_session, check_k, coin_session, ggm, put_words, Fold, KAPPA, SUB_BLOCKS};
use crate::field::clmul::Backend;
use crate::net::{yield_now, Network, PartyId};
use crate::ot::coins::ReceiverCoins;
use crate::ot::extension::{check_message, chunk_lens, pack_bits, padded_len};
use crate::ot::prg::Prg;
use crate::ot::transpose::transpose_128;
use crate::ot::{base, block, Block, OtError};

/// One party's receiver side of a SoftSpoken OT extension with one peer.
pub struct SoftSpokenReceiver {
    peer: PartyId,
    k: usize,
    /// Leaf `x` of block `i` at `i·2^k + x`.
    leaves: Vec<Prg>,
    fold: Fold,
    batch: u64,
    coins: ReceiverCoins,
    backend: Backend,
    failed: bool,
}

impl core::fmt::Debug for SoftSpokenReceiver {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SoftSpokenReceiver")
            .field("peer", &self.peer)
            .field("k", &self.k)
            .field("batch", &self.batch)
            .finish_non_exhaustive()
    }
}

impl SoftSpokenReceiver {
    /// Runs the setup with `peer` (who runs
    /// [`SoftSpokenSender::setup`](super::SoftSpokenSender::setup) with the same `session` tag
    /// and `k`): sends 128 base OTs and the GGM level sums of `128/k` fresh trees, receives the
    /// sender's first commitment. `k` must be one of [`SUPPORTED_K`](super::SUPPORTED_K).
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        peer: PartyId,
        session: &[u8],
        k: u8,
        rng: &mut R,
    ) -> Result<Self, OtError> {
        let k = check_k(k)?;
        net.check_peer(peer)?;
        let pairs = base::send_random(net, peer, KAPPA, &base_session(session, k), rng).await?;
        let blocks = KAPPA / k;
        let mut msg = Vec::with_capacity(super::LEVEL_SUMS_BYTES);
        let mut leaves = Vec::with_capacity(blocks << k);
        for i in 0..blocks {
            let root = rng.next_u64() as u128 | (rng.next_u64() as u128) << 64;
            let (tree, sums) = ggm::expand(root, k);
            for (s, m) in sums.iter().zip(&pairs[i * k..(i + 1) * k]) {
                block::put_blocks(&mut msg, &[s[0] ^ m[0], s[1] ^ m[1]]);
            }
            leaves.extend(tree.into_iter().map(Prg::new));
        }
        net.send(peer, msg)?;
        let coins = ReceiverCoins::new(
            &coin_session(session, k),
            &net.recv(peer).await?,
            "softspoken coin commitment",
        )?;
        Ok(SoftSpokenReceiver {
            peer,
            k,
            leaves,
            fold: Fold::new(k),
            batch: 0,
            coins,
            backend: Backend::detect(),
            failed: false,
        })
    }

    /// The block size `k` chosen at setup.
    pub fn k(&self) -> u8 {
        self.k as u8
    }

    /// Correlated OTs with choice bits `choices`: `t_j = q_j ⊕ choices[j]·Δ` for the sender's
    /// `q_j` and `Δ`.
    pub async fn extend_correlated<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        choices: &[bool],
        rng: &mut R,
    ) -> Result<Vec<Block>, OtError> {
        crate::ot::begin_step(&mut self.failed, "SoftSpoken OT extension")?;
        let rows = self.extend_rows(net, choices, rng).await?;
        self.failed = false;
        Ok(rows)
    }

    async fn extend_rows<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        choices: &[bool],
        rng: &mut R,
    ) -> Result<Vec<Block>, OtError> {
        let k = self.k;
        let blocks = KAPPA / k;
        let padded = padded_len(choices.len());
        let padding: Vec<bool> = (choices.len()..padded).map(|_| rng.next_u32() & 1 == 1).collect();
        let r = pack_bits(choices.iter().chain(&padding).copied(), padded / 64);
        let mut rows = vec![0u128; padded];
        let (mut t, mut corrections) = (Vec::new(), Vec::new());
        let mut start = 0;
        for len in chunk_lens(padded) {
            let (w, first_word, nb) = (len / 64, start / 64, len / 128);
            t.resize(KAPPA * w, 0u64);
            corrections.resize(blocks * w, 0u64);
            for i in 0..blocks {
                let streams = &mut self.leaves[i << k..(i + 1) << k];
                let mut at = 0;
                while at < nb {
                    let n = SUB_BLOCKS.min(nb - at);
                    self.fold.run(streams, false, n);
                    for (c, v) in self.fold.columns.iter().enumerate() {
                        put_words(&mut t[(i * k + c) * w..(i * k + c + 1) * w], at, &v[..n]);
                    }
                    // c_i = u_i ⊕ r on this sub-range.
                    let c_i = &mut corrections[i * w..(i + 1) * w];
                    put_words(c_i, at, &self.fold.total[..n]);
                    for word in 2 * at..2 * (at + n) {
                        c_i[word] ^= r[first_word + word];
                    }
                    at += n;
                }
            }
            let mut msg = Vec::with_capacity(corrections.len() * 8);
            for word in &corrections {
                msg.extend_from_slice(&word.to_le_bytes());
            }
            net.send(self.peer, msg)?;
            // Let the transport send this chunk while the next one is computed.
            yield_now().await;
            transpose_128(&t, w, &mut rows[start..start + len]);
            start += len;
        }

        let seed = ReceiverCoins::fresh(rng);
        net.send(self.peer, seed.to_vec())?;
        let opening = net.recv(self.peer).await?;
        let coins = self.coins.verify(
            &opening,
            &seed,
            "softspoken coin opening",
            "softspoken sender coin commitment",
        )?;
        net.send(self.peer, check_message(self.backend, coins, &r, &rows))?;
        self.batch += 1;
        rows.truncate(choices.len());
        Ok(rows)
    }
}
