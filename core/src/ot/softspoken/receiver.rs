//! The receiver of the SoftSpoken extension (see the [parent module](super) for the protocol):
//! the GGM tree holder and the party with the choice bits.

use rand_core::{CryptoRng, RngCore};

use super::{base_session, check_base_count, check_k, coin_session, ggm, put_words, Fold, KAPPA, SUB_BLOCKS};
use crate::field::clmul::Backend;
use crate::net::{yield_now, Network, PartyId};
use crate::ot::coins::{ReceiverCoins, Seed};
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
        check_k(k)?;
        net.check_peer(peer)?;
        let (setup, key) = Self::start_setup(peer, session, k, rng)?;
        net.send(peer, key)?;
        let (setup, sums) = setup.on_points(&net.recv(peer).await?, rng)?;
        net.send(peer, sums)?;
        setup.finish(&net.recv(peer).await?)
    }

    /// The first step of the setup with `peer` for callers that run several setups in the same
    /// rounds ([`super::setup_with_peers`]): the base-OT sender's message (its key `A`), to send.
    pub(crate) fn start_setup<R: RngCore + CryptoRng>(
        peer: PartyId,
        session: &[u8],
        k: u8,
        rng: &mut R,
    ) -> Result<(ReceiverSetup, Vec<u8>), OtError> {
        let k = check_k(k)?;
        let (base, msg) = base::BaseSender::start(KAPPA, &base_session(session, k), rng)?;
        Ok((ReceiverSetup { peer, k, base, session: session.to_vec() }, msg))
    }

    /// The peer of this instance.
    pub fn peer(&self) -> PartyId {
        self.peer
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
        let mut batch = self.begin(choices, rng)?;
        while let Some(msg) = self.next_columns(&mut batch) {
            net.send(self.peer, msg)?;
            // Let the transport send this chunk while the next one is computed.
            yield_now().await;
        }
        let seed = ReceiverCoins::fresh(rng);
        net.send(self.peer, seed.to_vec())?;
        let opening = net.recv(self.peer).await?;
        let (check, rows) = self.finish(batch, &opening, &seed)?;
        net.send(self.peer, check)?;
        Ok(rows)
    }

    /// Starts a batch with choice bits `choices` (the steps of
    /// [`extend_correlated`](Self::extend_correlated), for callers that interleave them with
    /// other messages, as [`super::extend_both`] does). Until [`finish`](Self::finish) succeeds
    /// the instance counts as failed.
    pub(crate) fn begin<R: RngCore + CryptoRng>(
        &mut self,
        choices: &[bool],
        rng: &mut R,
    ) -> Result<ReceiverBatch, OtError> {
        crate::ot::begin_step(&mut self.failed, "SoftSpoken OT extension")?;
        let padded = padded_len(choices.len());
        let padding: Vec<bool> = (choices.len()..padded).map(|_| rng.next_u32() & 1 == 1).collect();
        Ok(ReceiverBatch {
            count: choices.len(),
            r: pack_bits(choices.iter().chain(&padding).copied(), padded / 64),
            rows: vec![0u128; padded],
            chunks: chunk_lens(padded).collect::<Vec<_>>().into_iter(),
            start: 0,
            t: Vec::new(),
            corrections: Vec::new(),
        })
    }

    /// Computes the batch's next chunk of columns and returns its corrections message, or `None`
    /// after the last chunk.
    pub(crate) fn next_columns(&mut self, b: &mut ReceiverBatch) -> Option<Vec<u8>> {
        let len = b.chunks.next()?;
        let k = self.k;
        let blocks = KAPPA / k;
        let (w, first_word, nb) = (len / 64, b.start / 64, len / 128);
        b.t.resize(KAPPA * w, 0u64);
        b.corrections.resize(blocks * w, 0u64);
        for i in 0..blocks {
            let streams = &mut self.leaves[i << k..(i + 1) << k];
            let mut at = 0;
            while at < nb {
                let n = SUB_BLOCKS.min(nb - at);
                self.fold.run(streams, false, n);
                for (c, v) in self.fold.columns.iter().enumerate() {
                    put_words(&mut b.t[(i * k + c) * w..(i * k + c + 1) * w], at, &v[..n]);
                }
                // c_i = u_i ⊕ r on this sub-range.
                let c_i = &mut b.corrections[i * w..(i + 1) * w];
                put_words(c_i, at, &self.fold.total[..n]);
                let r = &b.r[first_word + 2 * at..first_word + 2 * (at + n)];
                for (c, r) in c_i[2 * at..2 * (at + n)].iter_mut().zip(r) {
                    *c ^= r;
                }
                at += n;
            }
        }
        let mut msg = Vec::with_capacity(b.corrections.len() * 8);
        for word in &b.corrections {
            msg.extend_from_slice(&word.to_le_bytes());
        }
        transpose_128(&b.t, w, &mut b.rows[b.start..b.start + len]);
        b.start += len;
        Some(msg)
    }

    /// After the last chunk: checks the sender's coin `opening` against this party's `seed` (sent
    /// to the sender before), and returns the check message for the sender and the batch's rows.
    pub(crate) fn finish(
        &mut self,
        mut b: ReceiverBatch,
        opening: &[u8],
        seed: &Seed,
    ) -> Result<(Vec<u8>, Vec<Block>), OtError> {
        let coins = self.coins.verify(
            opening,
            seed,
            "softspoken coin opening",
            "softspoken sender coin commitment",
        )?;
        let check = check_message(self.backend, coins, &b.r, &b.rows);
        self.batch += 1;
        b.rows.truncate(b.count);
        self.failed = false;
        Ok((check, b.rows))
    }
}

/// A receiver's batch between [`SoftSpokenReceiver::begin`] and [`SoftSpokenReceiver::finish`].
pub(crate) struct ReceiverBatch {
    count: usize,
    /// The packed choice bits, padding included.
    r: Vec<u64>,
    rows: Vec<Block>,
    chunks: std::vec::IntoIter<usize>,
    start: usize,
    t: Vec<u64>,
    corrections: Vec<u64>,
}

/// A receiver's setup after its first message (see [`SoftSpokenReceiver::start_setup`]).
pub(crate) struct ReceiverSetup {
    peer: PartyId,
    k: usize,
    base: base::BaseSender,
    session: Vec<u8>,
}

impl ReceiverSetup {
    /// From the base-OT receiver's points: `128/k` fresh GGM trees, and their level sums masked
    /// with the base OTs' messages, to send.
    pub(crate) fn on_points<R: RngCore + CryptoRng>(
        self,
        msg: &[u8],
        rng: &mut R,
    ) -> Result<(TreeReceiverSetup, Vec<u8>), OtError> {
        let ReceiverSetup { peer, k, base, session } = self;
        let pairs = base.finish(msg)?;
        Ok(TreeReceiverSetup::grow(peer, session, k, &pairs, rng))
    }
}

/// A receiver's setup that holds its trees (see [`ReceiverSetup::on_points`]).
pub(crate) struct TreeReceiverSetup {
    peer: PartyId,
    k: usize,
    leaves: Vec<Prg>,
    session: Vec<u8>,
}

impl TreeReceiverSetup {
    /// A setup with `peer` whose 128 base OTs (`pairs`, this party their sender) came from
    /// elsewhere (as [`super::setup_with_peers`] makes them from the other direction's
    /// extension). Returns it and the GGM level sums to send.
    pub(crate) fn from_base<R: RngCore + CryptoRng>(
        peer: PartyId,
        session: &[u8],
        k: u8,
        pairs: &[[Block; 2]],
        rng: &mut R,
    ) -> Result<(Self, Vec<u8>), OtError> {
        let k = check_k(k)?;
        check_base_count(pairs.len())?;
        Ok(Self::grow(peer, session.to_vec(), k, pairs, rng))
    }

    /// Fresh GGM trees and their level sums masked with the base OTs' messages.
    fn grow<R: RngCore + CryptoRng>(
        peer: PartyId,
        session: Vec<u8>,
        k: usize,
        pairs: &[[Block; 2]],
        rng: &mut R,
    ) -> (Self, Vec<u8>) {
        let blocks = KAPPA / k;
        let mut sums_msg = Vec::with_capacity(super::LEVEL_SUMS_BYTES);
        let mut leaves = Vec::with_capacity(blocks << k);
        for i in 0..blocks {
            let root = rng.next_u64() as u128 | (rng.next_u64() as u128) << 64;
            let (tree, sums) = ggm::expand(root, k);
            for (s, m) in sums.iter().zip(&pairs[i * k..(i + 1) * k]) {
                block::put_blocks(&mut sums_msg, &[s[0] ^ m[0], s[1] ^ m[1]]);
            }
            leaves.extend(tree.into_iter().map(Prg::new));
        }
        (TreeReceiverSetup { peer, k, leaves, session }, sums_msg)
    }

    /// From the sender's coin commitment: the receiver.
    pub(crate) fn finish(self, msg: &[u8]) -> Result<SoftSpokenReceiver, OtError> {
        let TreeReceiverSetup { peer, k, leaves, session } = self;
        let coins = ReceiverCoins::new(&coin_session(&session, k), msg, "softspoken coin commitment")?;
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
}
