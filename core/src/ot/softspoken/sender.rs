//! The sender of the SoftSpoken extension (see the [parent module](super) for the protocol):
//! the puncturer, holder of `Δ`.

use rand_core::{CryptoRng, RngCore};

use super::{base_session, check_base_count, check_k, coin_session, ggm, put_words, Fold, KAPPA, SUB_BLOCKS};
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
        let (setup, points) = Self::start_setup(peer, session, k as u8, delta, rng)?;
        net.send(peer, points)?;
        let (setup, commitment) = setup.on_key(&net.recv(peer).await?, rng)?;
        net.send(peer, commitment)?;
        let sender = setup.finish(&net.recv(peer).await?)?;
        // The caller may compute for long before it next awaits the network.
        yield_now().await;
        Ok(sender)
    }

    /// The first step of the setup with `peer` for callers that run several setups in the same
    /// rounds ([`super::setup_with_peers`]): the base-OT receiver's message (its points), to send.
    pub(crate) fn start_setup<R: RngCore + CryptoRng>(
        peer: PartyId,
        session: &[u8],
        k: u8,
        delta: Block,
        rng: &mut R,
    ) -> Result<(SenderSetup, Vec<u8>), OtError> {
        let k = check_k(k)?;
        let (points, choices) = base_choices(k, delta);
        let (base, msg) = base::BaseReceiver::start(&choices, &base_session(session, k), rng)?;
        Ok((SenderSetup { peer, k, delta, points, base, session: session.to_vec() }, msg))
    }

    /// `Δ`, the correlation of every OT of this instance.
    pub fn delta(&self) -> Block {
        self.delta
    }

    /// The peer of this instance.
    pub fn peer(&self) -> PartyId {
        self.peer
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
        let mut batch = self.begin(count)?;
        while batch.columns_left() {
            let msg = net.recv(self.peer).await?;
            self.next_columns(&mut batch, &msg)?;
        }
        let (open, coins) = self.open(&net.recv(self.peer).await?, rng)?;
        net.send(self.peer, open)?;
        let check = net.recv(self.peer).await?;
        self.finish(batch, coins, &check)
    }

    /// Starts a batch of `count` OTs (the steps of [`extend_correlated`](Self::extend_correlated),
    /// for callers that interleave them with other messages, as [`super::extend_both`] does).
    /// Until [`finish`](Self::finish) succeeds the instance counts as failed.
    pub(crate) fn begin(&mut self, count: usize) -> Result<SenderBatch, OtError> {
        crate::ot::begin_step(&mut self.failed, "SoftSpoken OT extension")?;
        let padded = padded_len(count);
        Ok(SenderBatch {
            count,
            rows: vec![0u128; padded],
            chunks: chunk_lens(padded).collect::<Vec<_>>().into_iter().peekable(),
            start: 0,
            t: Vec::new(),
            corrections: Vec::new(),
        })
    }

    /// Takes the receiver's corrections message `msg` for the batch's next chunk.
    pub(crate) fn next_columns(&mut self, b: &mut SenderBatch, msg: &[u8]) -> Result<(), OtError> {
        let Some(len) = b.chunks.next() else {
            return Err(OtError::malformed(
                "softspoken corrections",
                "more chunks than the batch has".to_string(),
            ));
        };
        let k = self.k;
        let (blocks, per_block) = (KAPPA / k, (1 << k) - 1);
        let (w, nb) = (len / 64, len / 128);
        if msg.len() != blocks * w * 8 {
            return Err(OtError::malformed(
                "softspoken corrections",
                format!("expected {} bytes for a chunk of {len} OTs, got {}", blocks * w * 8, msg.len()),
            ));
        }
        b.corrections.clear();
        b.corrections.extend(msg.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))));
        b.t.resize(KAPPA * w, 0u64);
        for i in 0..blocks {
            let streams = &mut self.leaves[i * per_block..(i + 1) * per_block];
            let c_i = &b.corrections[i * w..(i + 1) * w];
            let mut at = 0;
            while at < nb {
                let n = SUB_BLOCKS.min(nb - at);
                self.fold.run(streams, true, n);
                for (c, v) in self.fold.columns.iter().enumerate() {
                    let col = i * k + c;
                    let column = &mut b.t[col * w..(col + 1) * w];
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
        transpose_128(&b.t, w, &mut b.rows[b.start..b.start + len]);
        b.start += len;
        Ok(())
    }

    /// Answers the receiver's coin seed `msg`: the opening to send and the check's coins.
    pub(crate) fn open<R: RngCore + CryptoRng>(
        &mut self,
        msg: &[u8],
        rng: &mut R,
    ) -> Result<(Vec<u8>, Prg), OtError> {
        self.coins.open(msg, "softspoken receiver coin", rng)
    }

    /// After every chunk and the opening: verifies the receiver's check message `msg` and returns
    /// the batch's rows.
    pub(crate) fn finish(
        &mut self,
        mut b: SenderBatch,
        coins: Prg,
        msg: &[u8],
    ) -> Result<Vec<Block>, OtError> {
        if b.chunks.peek().is_some() {
            return Err(OtError::malformed(
                "softspoken check",
                "the check came before the last chunk".to_string(),
            ));
        }
        verify_check(
            self.backend,
            coins,
            &b.rows,
            self.delta,
            msg,
            "softspoken check",
            "softspoken correlation check",
        )?;
        self.batch += 1;
        b.rows.truncate(b.count);
        self.failed = false;
        Ok(b.rows)
    }
}

/// A sender's batch between [`SoftSpokenSender::begin`] and [`SoftSpokenSender::finish`].
pub(crate) struct SenderBatch {
    count: usize,
    rows: Vec<Block>,
    chunks: core::iter::Peekable<std::vec::IntoIter<usize>>,
    start: usize,
    t: Vec<u64>,
    corrections: Vec<u64>,
}

impl SenderBatch {
    /// Whether chunks of corrections are still expected.
    pub(crate) fn columns_left(&mut self) -> bool {
        self.chunks.peek().is_some()
    }
}

/// A sender's setup after its first message (see [`SoftSpokenSender::start_setup`]).
pub(crate) struct SenderSetup {
    peer: PartyId,
    k: usize,
    delta: Block,
    /// The punctured point of each block (`Δ`'s bits).
    points: Vec<usize>,
    base: base::BaseReceiver,
    session: Vec<u8>,
}

impl SenderSetup {
    /// From the base-OT sender's key `A`: the base OTs' outputs, and the coin commitment to send.
    pub(crate) fn on_key<R: RngCore + CryptoRng>(
        self,
        msg: &[u8],
        rng: &mut R,
    ) -> Result<(KeyedSenderSetup, Vec<u8>), OtError> {
        let SenderSetup { peer, k, delta, points, base, session } = self;
        let keys = base.finish(msg)?;
        Ok(KeyedSenderSetup::new(peer, &session, k, delta, points, keys, rng))
    }
}

/// The punctured point of each of the `128/k` blocks of `Δ` (bits `[ik, ik + k)` read as an
/// integer), and the choice bits of the 128 base OTs that reveal every leaf but those points.
pub(crate) fn base_choices(k: usize, delta: Block) -> (Vec<usize>, Vec<bool>) {
    let points: Vec<usize> = (0..KAPPA / k).map(|i| ((delta >> (i * k)) & ((1 << k) - 1)) as usize).collect();
    let choices = points.iter().flat_map(|&p| ggm::choices(p, k)).collect();
    (points, choices)
}

/// A sender's setup that holds its base OTs (see [`SenderSetup::on_key`]).
pub(crate) struct KeyedSenderSetup {
    peer: PartyId,
    k: usize,
    delta: Block,
    points: Vec<usize>,
    keys: Vec<Block>,
    coins: SenderCoins,
}

impl KeyedSenderSetup {
    /// A setup with `peer` whose 128 base OTs came from elsewhere: `keys` are the chosen messages
    /// for the choices of [`base_choices`]`(k, delta)` (as [`super::setup_with_peers`] makes them
    /// from the other direction's extension). Returns it and the coin commitment to send.
    pub(crate) fn from_base<R: RngCore + CryptoRng>(
        peer: PartyId,
        session: &[u8],
        k: u8,
        delta: Block,
        keys: Vec<Block>,
        rng: &mut R,
    ) -> Result<(Self, Vec<u8>), OtError> {
        let k = check_k(k)?;
        check_base_count(keys.len())?;
        let (points, _) = base_choices(k, delta);
        Ok(Self::new(peer, session, k, delta, points, keys, rng))
    }

    fn new<R: RngCore + CryptoRng>(
        peer: PartyId,
        session: &[u8],
        k: usize,
        delta: Block,
        points: Vec<usize>,
        keys: Vec<Block>,
        rng: &mut R,
    ) -> (Self, Vec<u8>) {
        let (coins, commitment) = SenderCoins::new(&coin_session(session, k), rng);
        (KeyedSenderSetup { peer, k, delta, points, keys, coins }, commitment)
    }

    /// From the receiver's GGM level sums: every leaf but the punctured one, and the sender.
    pub(crate) fn finish(self, msg: &[u8]) -> Result<SoftSpokenSender, OtError> {
        let KeyedSenderSetup { peer, k, delta, points, keys, coins } = self;
        let sums = block::get_blocks("softspoken ggm level sums", msg, 2 * KAPPA)?;
        let mut leaves = Vec::with_capacity(points.len() * ((1 << k) - 1));
        for (i, &point) in points.iter().enumerate() {
            let masked: Vec<[Block; 2]> =
                sums[2 * i * k..2 * (i + 1) * k].chunks_exact(2).map(|s| [s[0], s[1]]).collect();
            let mut tree = ggm::puncture(point, k, &masked, &keys[i * k..(i + 1) * k]);
            ggm::shift_by_point(&mut tree, point, k);
            leaves.extend(tree[1..].iter().map(|&s| Prg::new(s)));
        }
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
}
