//! The sender of the SoftSpoken extension (see the [parent module](super) for the protocol):
//! the puncturer, holder of `Δ`.

use rand_core::{CryptoRng, RngCore};

use super::{base_session, check_k, coin_session, ggm, put_words, Fold, KAPPA, SUB_BLOCKS};
use crate::field::clmul::Backend;
use crate::net::{yield_now, Network, PartyId};
use crate::ot::coins::SenderCoins;
use crate::ot::extension::{chunk_lens, padded_len, verify_check};
use crate::ot::prg::Prg;
use crate::ot::transpose::transpose_128;
use crate::ot::{base, block, Block, OtError};

/// One party's sender side of a SoftSpoken OT extension with one peer.
pub struct SoftSpokenSender {
    peer: PartyId,
    k: usize,
    delta: Block,
    /// Leaf `y ⊕ Δ_i` of block `i` at `i·(2^k − 1) + y − 1`, for `y = 1..2^k` (leaf `Δ_i`, which
    /// this party does not know, is `y = 0`).
    leaves: Vec<Prg>,
    fold: Fold,
    batch: u64,
    coins: SenderCoins,
    backend: Backend,
    failed: bool,
}

impl core::fmt::Debug for SoftSpokenSender {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SoftSpokenSender")
            .field("peer", &self.peer)
            .field("k", &self.k)
            .field("batch", &self.batch)
            .finish_non_exhaustive()
    }
}

impl SoftSpokenSender {
    /// Runs the setup with `peer` (who runs
    /// [`SoftSpokenReceiver::setup`](super::SoftSpokenReceiver::setup) with the same `session`
    /// tag and `k`): picks `Δ`, receives 128 base OTs, commits to the first coin and punctures the
    /// receiver's GGM trees at the blocks of `Δ`.
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        peer: PartyId,
        session: &[u8],
        k: u8,
        rng: &mut R,
    ) -> Result<Self, OtError> {
        let delta = (rng.next_u64() as u128) | (rng.next_u64() as u128) << 64;
        Self::setup_with_delta(net, peer, session, k, delta, rng).await
    }

    /// [`setup`](Self::setup) with a `Δ` the caller chose (for example with one bit pinned, as
    /// TinyOT's leaky AND needs). `Δ` must be uniformly random apart from such fixed bits.
    pub async fn setup_with_delta<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        peer: PartyId,
        session: &[u8],
        k: u8,
        delta: Block,
        rng: &mut R,
    ) -> Result<Self, OtError> {
        let k = check_k(k)?;
        net.check_peer(peer)?;
        let blocks = KAPPA / k;
        let points: Vec<usize> =
            (0..blocks).map(|i| ((delta >> (i * k)) & ((1 << k) - 1)) as usize).collect();
        let choices: Vec<bool> = points.iter().flat_map(|&p| ggm::choices(p, k)).collect();
        let keys = base::receive_random(net, peer, &choices, &base_session(session, k), rng).await?;
        let (coins, commitment) = SenderCoins::new(&coin_session(session, k), rng);
        net.send(peer, commitment)?;
        let msg = net.recv(peer).await?;
        let sums = block::get_blocks("softspoken ggm level sums", &msg, 2 * KAPPA)?;
        let mut leaves = Vec::with_capacity(blocks * ((1 << k) - 1));
        for (i, &point) in points.iter().enumerate() {
            let masked: Vec<[Block; 2]> =
                sums[2 * i * k..2 * (i + 1) * k].chunks_exact(2).map(|s| [s[0], s[1]]).collect();
            let mut tree = ggm::puncture(point, k, &masked, &keys[i * k..(i + 1) * k]);
            ggm::shift_by_point(&mut tree, point, k);
            leaves.extend(tree[1..].iter().map(|&s| Prg::new(s)));
        }
        // The caller may compute for long before it next awaits the network.
        yield_now().await;
        Ok(SoftSpokenSender {
            peer,
            k,
            delta,
            leaves,
            fold: Fold::new(k),
            batch: 0,
            coins,
            backend: Backend::detect(),
            failed: false,
        })
    }

    /// `Δ`, the correlation of every OT of this instance.
    pub fn delta(&self) -> Block {
        self.delta
    }

    /// The block size `k` chosen at setup.
    pub fn k(&self) -> u8 {
        self.k as u8
    }

    /// `count` correlated OTs: `q_j` such that the receiver holds `t_j = q_j ⊕ r_j·Δ` for its
    /// choice bit `r_j`.
    pub async fn extend_correlated<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<Vec<Block>, OtError> {
        crate::ot::begin_step(&mut self.failed, "SoftSpoken OT extension")?;
        let rows = self.extend_rows(net, count, rng).await?;
        self.failed = false;
        Ok(rows)
    }

    async fn extend_rows<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<Vec<Block>, OtError> {
        let k = self.k;
        let (blocks, per_block) = (KAPPA / k, (1 << k) - 1);
        let padded = padded_len(count);
        let mut rows = vec![0u128; padded];
        let (mut t, mut corrections) = (Vec::new(), Vec::new());
        let mut start = 0;
        for len in chunk_lens(padded) {
            let (w, nb) = (len / 64, len / 128);
            let msg = net.recv(self.peer).await?;
            if msg.len() != blocks * w * 8 {
                return Err(OtError::malformed(
                    "softspoken corrections",
                    format!("expected {} bytes for a chunk of {len} OTs, got {}", blocks * w * 8, msg.len()),
                ));
            }
            corrections.clear();
            corrections
                .extend(msg.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))));
            t.resize(KAPPA * w, 0u64);
            for i in 0..blocks {
                let streams = &mut self.leaves[i * per_block..(i + 1) * per_block];
                let c_i = &corrections[i * w..(i + 1) * w];
                let mut at = 0;
                while at < nb {
                    let n = SUB_BLOCKS.min(nb - at);
                    self.fold.run(streams, true, n);
                    for (c, v) in self.fold.columns.iter().enumerate() {
                        let col = i * k + c;
                        let column = &mut t[col * w..(col + 1) * w];
                        put_words(column, at, &v[..n]);
                        // w_{i,c} ⊕= Δ_{i,c}·c_i, by mask.
                        let mask = 0u64.wrapping_sub(((self.delta >> col) & 1) as u64);
                        for word in 2 * at..2 * (at + n) {
                            column[word] ^= c_i[word] & mask;
                        }
                    }
                    at += n;
                }
            }
            transpose_128(&t, w, &mut rows[start..start + len]);
            start += len;
        }

        let (open, coins) = self.coins.open(&net.recv(self.peer).await?, "softspoken receiver coin", rng)?;
        net.send(self.peer, open)?;
        let msg = net.recv(self.peer).await?;
        verify_check(
            self.backend,
            coins,
            &rows,
            self.delta,
            &msg,
            "softspoken check",
            "softspoken correlation check",
        )?;
        self.batch += 1;
        rows.truncate(count);
        Ok(rows)
    }
}
