//! The sender of the KOS15 extension (see the [parent module](super) for the protocol).

use rand_core::{CryptoRng, RngCore};

use super::{chunk_lens, padded_len, verify_check, KAPPA};
use crate::field::clmul::Backend;
use crate::net::{yield_now, Network, PartyId};
use crate::ot::coins::SenderCoins;
use crate::ot::prg::{Prg, TccrHash};
use crate::ot::transpose::transpose_128;
use crate::ot::{base, block, Block, OtError};

/// One party's sender side of an OT extension with one peer.
pub struct OtExtSender {
    peer: PartyId,
    delta: Block,
    columns: Vec<Prg>,
    batch: u64,
    coins: SenderCoins,
    tweak: u128,
    hash: TccrHash,
    backend: Backend,
    failed: bool,
}

impl core::fmt::Debug for OtExtSender {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OtExtSender")
            .field("peer", &self.peer)
            .field("batch", &self.batch)
            .finish_non_exhaustive()
    }
}

impl OtExtSender {
    /// Runs the setup with `peer` (who runs [`OtExtReceiver::setup`](super::OtExtReceiver::setup)
    /// with the same `session` tag): picks `Δ`, receives 128 base OTs, commits to the first coin.
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        peer: PartyId,
        session: &[u8],
        rng: &mut R,
    ) -> Result<Self, OtError> {
        let delta = (rng.next_u64() as u128) | (rng.next_u64() as u128) << 64;
        Self::setup_with_delta(net, peer, session, delta, rng).await
    }

    /// [`setup`](Self::setup) with a `Δ` the caller chose (for example with one bit pinned, as
    /// TinyOT's leaky AND needs). `Δ` must be uniformly random apart from such fixed bits.
    pub async fn setup_with_delta<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        peer: PartyId,
        session: &[u8],
        delta: Block,
        rng: &mut R,
    ) -> Result<Self, OtError> {
        net.check_peer(peer)?;
        let choices: Vec<bool> = (0..KAPPA).map(|i| (delta >> i) & 1 == 1).collect();
        let seeds = base::receive_random(net, peer, &choices, &super::base_session(session), rng).await?;
        let (coins, commitment) = SenderCoins::new(session, rng);
        net.send(peer, commitment)?;
        // The caller may compute for long before it next awaits the network: send it now.
        yield_now().await;
        Ok(OtExtSender {
            peer,
            delta,
            columns: seeds.into_iter().map(Prg::new).collect(),
            batch: 0,
            coins,
            tweak: 0,
            hash: TccrHash::default(),
            backend: Backend::detect(),
            failed: false,
        })
    }

    /// `Δ`, the correlation of every OT of this instance.
    pub fn delta(&self) -> Block {
        self.delta
    }

    /// `count` correlated OTs: `q_j` such that the receiver holds `t_j = q_j ⊕ r_j·Δ` for its
    /// choice bit `r_j`.
    pub async fn extend_correlated<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<Vec<Block>, OtError> {
        crate::ot::begin_step(&mut self.failed, "OT extension")?;
        let rows = self.extend_rows(net, count, rng, None).await?;
        self.failed = false;
        Ok(rows)
    }

    /// `count` random OTs: message pairs `[m0, m1]`; the receiver learns `m_{r_j}`.
    pub async fn extend_random<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<Vec<[Block; 2]>, OtError> {
        crate::ot::begin_step(&mut self.failed, "OT extension")?;
        let mut pairs = Vec::with_capacity(count);
        self.extend_rows(net, count, rng, Some(&mut pairs)).await?;
        self.failed = false;
        self.tweak += count as u128;
        Ok(pairs)
    }

    /// Chosen-message OT: the receiver learns `messages[j][r_j]` and nothing of the other.
    pub async fn send_chosen<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        messages: &[[Block; 2]],
        rng: &mut R,
    ) -> Result<(), OtError> {
        let pads = self.extend_random(net, messages.len(), rng).await?;
        let masked: Vec<Block> =
            messages.iter().zip(&pads).flat_map(|(m, p)| [m[0] ^ p[0], m[1] ^ p[1]]).collect();
        let mut msg = Vec::new();
        block::put_blocks(&mut msg, &masked);
        net.send(self.peer, msg)?;
        Ok(())
    }

    /// The correlated rows `q_j` of `count` OTs. With `pairs`, also appends the random-OT pairs
    /// of the first `count` rows to it, hashed chunk by chunk while the rows are in cache (they are
    /// handed out only after the check passed).
    async fn extend_rows<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
        mut pairs: Option<&mut Vec<[Block; 2]>>,
    ) -> Result<Vec<Block>, OtError> {
        let padded = padded_len(count);
        let mut rows = vec![0u128; padded];
        let mut q = Vec::new();
        let mut column = Vec::new();
        let mut start = 0;
        for len in chunk_lens(padded) {
            let w = len / 64;
            let msg = net.recv(self.peer).await?;
            if msg.len() != KAPPA * w * 8 {
                return Err(OtError::malformed(
                    "kos15 columns",
                    format!("expected {} bytes for a chunk of {len} OTs, got {}", KAPPA * w * 8, msg.len()),
                ));
            }
            q.resize(KAPPA * w, 0u64);
            column.resize(len / 128, 0u128);
            for (i, (prg, q_i)) in self.columns.iter_mut().zip(q.chunks_exact_mut(w)).enumerate() {
                let mask = 0u64.wrapping_sub(((self.delta >> i) & 1) as u64);
                prg.fill(&mut column);
                let u_i = &msg[i * w * 8..(i + 1) * w * 8];
                for (k, q_k) in q_i.iter_mut().enumerate() {
                    let g = (column[k / 2] >> (64 * (k % 2))) as u64;
                    let u = u64::from_le_bytes(u_i[8 * k..8 * k + 8].try_into().expect("8 bytes"));
                    *q_k = g ^ (u & mask);
                }
            }
            transpose_128(&q, w, &mut rows[start..start + len]);
            if let Some(pairs) = pairs.as_deref_mut() {
                let end = (start + len).min(count);
                let first_tweak = self.tweak + start as u128;
                self.hash.hash_pairs_into(first_tweak, &rows[start.min(end)..end], self.delta, pairs);
            }
            start += len;
        }

        let (open, coins) = self.coins.open(&net.recv(self.peer).await?, "kos15 receiver coin", rng)?;
        net.send(self.peer, open)?;

        let msg = net.recv(self.peer).await?;
        verify_check(self.backend, coins, &rows, self.delta, &msg, "kos15 check", "kos15 correlation check")?;
        self.batch += 1;
        rows.truncate(count);
        Ok(rows)
    }
}
