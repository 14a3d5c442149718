//! The receiver of the KOS15 extension (see the [parent module](super) for the protocol).

use rand_core::{CryptoRng, RngCore};

use super::{check_message, chunk_lens, pack_bits, padded_len, KAPPA};
use crate::field::clmul::Backend;
use crate::net::{yield_now, Network, PartyId};
use crate::ot::coins::ReceiverCoins;
use crate::ot::prg::{Prg, TccrHash};
use crate::ot::transpose::transpose_128;
use crate::ot::{base, block, Block, OtError};

/// One party's receiver side of an OT extension with one peer.
pub struct OtExtReceiver {
    peer: PartyId,
    columns: Vec<[Prg; 2]>,
    batch: u64,
    coins: ReceiverCoins,
    tweak: u128,
    hash: TccrHash,
    backend: Backend,
    failed: bool,
}

impl core::fmt::Debug for OtExtReceiver {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OtExtReceiver")
            .field("peer", &self.peer)
            .field("batch", &self.batch)
            .finish_non_exhaustive()
    }
}

impl OtExtReceiver {
    /// Runs the setup with `peer` (who runs [`OtExtSender::setup`](super::OtExtSender::setup)
    /// with the same `session` tag): sends 128 base OTs, receives the sender's first commitment.
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        peer: PartyId,
        session: &[u8],
        rng: &mut R,
    ) -> Result<Self, OtError> {
        net.check_peer(peer)?;
        let pairs = base::send_random(net, peer, KAPPA, &super::base_session(session), rng).await?;
        let coins = ReceiverCoins::new(session, &net.recv(peer).await?, "kos15 coin commitment")?;
        Ok(OtExtReceiver {
            peer,
            columns: pairs.into_iter().map(|[k0, k1]| [Prg::new(k0), Prg::new(k1)]).collect(),
            batch: 0,
            coins,
            tweak: 0,
            hash: TccrHash::default(),
            backend: Backend::detect(),
            failed: false,
        })
    }

    /// Correlated OTs with choice bits `choices`: `t_j = q_j ⊕ choices[j]·Δ` for the sender's
    /// `q_j` and `Δ`.
    pub async fn extend_correlated<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        choices: &[bool],
        rng: &mut R,
    ) -> Result<Vec<Block>, OtError> {
        crate::ot::begin_step(&mut self.failed, "OT extension")?;
        let rows = self.extend_rows(net, choices, rng, false).await?;
        self.failed = false;
        Ok(rows)
    }

    /// Random OTs with choice bits `choices`: `m_{choices[j]}` of the sender's pair `j`.
    pub async fn extend_random<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        choices: &[bool],
        rng: &mut R,
    ) -> Result<Vec<Block>, OtError> {
        crate::ot::begin_step(&mut self.failed, "OT extension")?;
        let t = self.extend_rows(net, choices, rng, true).await?;
        self.failed = false;
        self.tweak += choices.len() as u128;
        Ok(t)
    }

    /// Chosen-message OT: `messages[j][choices[j]]` of the sender's pairs.
    pub async fn receive_chosen<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        choices: &[bool],
        rng: &mut R,
    ) -> Result<Vec<Block>, OtError> {
        let pads = self.extend_random(net, choices, rng).await?;
        let msg = net.recv(self.peer).await?;
        let masked = block::get_blocks("chosen-message ot", &msg, 2 * choices.len())?;
        Ok(pads
            .iter()
            .zip(choices)
            .zip(masked.chunks_exact(2))
            .map(|((&p, &c), m)| {
                let mask = 0u128.wrapping_sub(c as u128);
                ((m[1] & mask) | (m[0] & !mask)) ^ p
            })
            .collect())
    }

    /// The correlated rows `t_j` of the OTs with choice bits `choices`, or with `hashed` their
    /// random-OT messages `H(tweak + j, t_j)` (each chunk hashed while it is in cache; the rows
    /// the check needs are kept until it is sent).
    async fn extend_rows<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        choices: &[bool],
        rng: &mut R,
        hashed: bool,
    ) -> Result<Vec<Block>, OtError> {
        let padded = padded_len(choices.len());
        let padding: Vec<bool> = (choices.len()..padded).map(|_| rng.next_u32() & 1 == 1).collect();
        let r = pack_bits(choices.iter().chain(&padding).copied(), padded / 64);
        let mut rows = vec![0u128; padded];
        let mut out = Vec::with_capacity(if hashed { choices.len() } else { 0 });
        let mut t = Vec::new();
        let (mut c0, mut c1) = (Vec::new(), Vec::new());
        let mut start = 0;
        for len in chunk_lens(padded) {
            let (w, first_word) = (len / 64, start / 64);
            t.resize(KAPPA * w, 0u64);
            c0.resize(len / 128, 0u128);
            c1.resize(len / 128, 0u128);
            let mut msg = Vec::with_capacity(KAPPA * w * 8);
            for ([g0, g1], t_i) in self.columns.iter_mut().zip(t.chunks_exact_mut(w)) {
                g0.fill(&mut c0);
                g1.fill(&mut c1);
                for (k, t_k) in t_i.iter_mut().enumerate() {
                    let shift = 64 * (k % 2);
                    let (a, b) = ((c0[k / 2] >> shift) as u64, (c1[k / 2] >> shift) as u64);
                    *t_k = a;
                    msg.extend_from_slice(&(a ^ b ^ r[first_word + k]).to_le_bytes());
                }
            }
            net.send(self.peer, msg)?;
            // Let the transport send this chunk while the next one is computed.
            yield_now().await;
            transpose_128(&t, w, &mut rows[start..start + len]);
            if hashed {
                let end = (start + len).min(choices.len());
                let first = out.len();
                out.extend_from_slice(&rows[start.min(end)..end]);
                self.hash.hash_in_place(self.tweak + start as u128, &mut out[first..]);
            }
            start += len;
        }

        let seed = ReceiverCoins::fresh(rng);
        net.send(self.peer, seed.to_vec())?;
        let opening = net.recv(self.peer).await?;
        let coins =
            self.coins.verify(&opening, &seed, "kos15 coin opening", "kos15 sender coin commitment")?;

        net.send(self.peer, check_message(self.backend, coins, &r, &rows))?;
        self.batch += 1;
        if hashed {
            return Ok(out);
        }
        rows.truncate(choices.len());
        Ok(rows)
    }
}
