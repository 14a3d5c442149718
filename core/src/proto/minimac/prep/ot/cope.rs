//! COPE over GF(2^8)^n with one independent 8-bit key per codeword position: MASCOT's Π_COPE
//! (Keller–Orsini–Scholl, CCS 2016, Fig. 1 / "correlated oblivious product evaluation"), run
//! component-wise for MiniMac's MAC key share `α_P ∈ GF(2^8)^n`, between every pair of parties in
//! both directions — the structure of Coral's `proto::coral::prep::ot::cope` with n keys of 8
//! bits instead of one of 42.
//!
//! **Seeds.** For every key bit `(j, l)` (bit `l` of `α_{P,j}`) and every peer Q the key holder P
//! needs one random OT in which it is the receiver with choice bit `α_{P,j,l}`: P learns
//! `k^{α_{P,j,l}}`, Q both `k^0, k^1`. They come from `8n` TinyOT authenticated bits
//! ([`crate::ot::any_tiny`]: correlated OTs between every pair, in both directions), hashed with the
//! tweakable correlation-robust hash ([`TccrHash`]) as KOS15's random OTs are: abit `c` gives P
//! the share bit `x_P` (which *is* `α_{P,j,l}`, `c = 8j + l`: α_P is uniformly random anyway, so
//! its bits may be the random choice bits) and the seed `H(τ, M_Q[x_P])`, and Q `H(τ, K_Q[x_P])`,
//! `H(τ, K_Q[x_P] ⊕ Δ_Q)` with `M_Q = K_Q ⊕ x_P·Δ_Q`. The tweak `τ` is unique per abit, key holder
//! and peer. This costs one small extension (8n correlated OTs per ordered pair) instead of `8n`
//! public-key base OTs per ordered pair; a corrupt receiver's freedom in the extension
//! (inconsistent choice bits, at the risk of an abort) only lets it pick its own α bits, which it
//! may anyway — among three or more parties the n-party engine's consistency check also makes it
//! use the same bits towards every peer.
//!
//! The seeds, the expansion of each column and the pairwise extension in frames are the shared
//! layer of [`crate::ot::cope`] ([`columns`](crate::ot::cope::columns),
//! [`pairwise`](crate::ot::cope::pairwise)); this module adds what a column carries (byte `j` of
//! every word, in 16-byte lanes), how outputs are read from the columns, and MiniMac's framing of
//! them ([`CopeFrames`]).
//!
//! **Extension** for words `w = 1..L` of the input party `Q` (contribution `X_w ∈ GF(2^8)^n`),
//! towards every key holder P ≠ Q (its own seeds per pair): with `t^b_{(j,l),w} = G(k^b_{j,l})_w` (one byte of the AES-CTR stream [`Prg`]) `Q` sends
//! `u_{(j,l),w} = t^0 + t^1 + X_w[j]`; P computes `q_{(j,l),w} = t^{α bit} + α_bit·u = t^0 +
//! α_bit·X_w[j]`; then `q_w[j] = Σ_l 2^l·q_{(j,l),w}` and `t_w[j] = Σ_l 2^l·t^0_{(j,l),w}` give
//! `q_w = t_w + α_P ∗ X_w`. Columns travel in frames of at most [`FRAME_WORDS`] words (`8n` bytes
//! per word), column-major within a frame; a party with no words left in a frame sends none.
//!
//! **Alone this is "COPE with errors"**: a corrupt `Q` may use a different `X_w[j]` in each of the
//! eight columns of position `j`; the random-combination openings and the MAC check of
//! [`super::checks`] catch that (MASCOT's Π_Auth argument, see there). Key bits never select a
//! branch or an index: they enter as byte masks.

use crate::field::Gf256;
use crate::net::{Network, PartyId};
use crate::ot::any_tiny::Bits;
use crate::ot::cope::columns::{input_column, key_column, mask, PeerSeeds};
use crate::ot::cope::pairwise::{ColumnWire, Pairwise, PairwiseOutput, PeerColumns};
use crate::ot::multi::MAX_PARTIES;
use crate::ot::prg::TccrHash;
use crate::ot::Block;
use crate::proto::minimac::error::{MiniMacError, Step};
use crate::proto::minimac::msg::{Framer, Kind};

#[cfg(test)]
use super::Cheat;

/// Words per frame of COPE columns (a frame carries `8n` bytes per word: 512 KiB for n = 256).
pub const FRAME_WORDS: usize = 256;

/// First tweak of the hash that turns abits into COPE seeds (far from the tweaks the TinyOT
/// engines use for their own hashes, which count up from 0).
const TWEAK_BASE: u128 = 1 << 120;

/// The tweak of abit `c` for the pair in which `key_holder` holds the key and `input` the seeds.
fn tweak(c: usize, key_holder: PartyId, input: PartyId) -> u128 {
    let m = MAX_PARTIES as u128;
    TWEAK_BASE + (c as u128 * m + key_holder as u128) * m + input as u128
}

/// COPE with one peer, both directions: elements are the bytes of words of `n` bytes (a chunk
/// always holds whole words).
struct PeerCope {
    n: usize,
    /// Key side: all ones where bit `c % 8` of `α_{P, c / 8}` is 1, per column `c`.
    masks: Vec<Block>,
    seeds: PeerSeeds,
}

/// One party's COPE states with every peer.
pub(crate) struct Cope {
    /// `α_P`, `n` bytes: bit `l` of byte `j` is the share bit of abit `8j + l`.
    alpha: Vec<u8>,
    pairs: Pairwise<PeerCope>,
}

impl core::fmt::Debug for Cope {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Cope").field("n", &self.alpha.len()).finish_non_exhaustive()
    }
}

/// Bytes into 16-byte lanes of blocks (little-endian; zero beyond `bytes`).
fn to_blocks(bytes: &[u8], blocks: &mut [Block]) {
    for (i, b) in blocks.iter_mut().enumerate() {
        let mut lane = [0u8; 16];
        let from = (16 * i).min(bytes.len())..(16 * i + 16).min(bytes.len());
        lane[..from.len()].copy_from_slice(&bytes[from]);
        *b = Block::from_le_bytes(lane);
    }
}

/// The first `out.len()` bytes of `blocks` (little-endian).
fn to_bytes(blocks: &[Block], out: &mut [u8]) {
    for (chunk, b) in out.chunks_mut(16).zip(blocks) {
        chunk.copy_from_slice(&b.to_le_bytes()[..chunk.len()]);
    }
}

impl Cope {
    /// The COPE states from `8n` abits of party `me` of `parties` with its TinyOT `delta`.
    pub(super) fn from_abits(abits: &Bits, delta: Block, (me, parties): (PartyId, usize), n: usize) -> Self {
        debug_assert_eq!(abits.len(), 8 * n);
        let hash = TccrHash::default();
        let mut alpha = vec![0u8; n];
        for c in 0..8 * n {
            alpha[c / 8] |= u8::from(abits.bit(c)) << (c % 8);
        }
        let masks: Vec<Block> = (0..8 * n).map(|c| mask((alpha[c / 8] >> (c % 8)) & 1 == 1)).collect();
        let peer = |q: PartyId| {
            let chosen = (0..8 * n).map(|c| hash.hash(tweak(c, me, q), abits.pair(c, q).mac));
            let pairs = (0..8 * n).map(|c| {
                let (t, key) = (tweak(c, q, me), abits.pair(c, q).key);
                [hash.hash(t, key), hash.hash(t, key ^ delta)]
            });
            PeerCope { n, masks: masks.clone(), seeds: PeerSeeds::new(chosen, pairs) }
        };
        let peers = (0..parties).map(|q| (q != me).then(|| peer(q))).collect();
        Cope { alpha, pairs: Pairwise::from_peers(peers, FRAME_WORDS * n) }
    }

    /// `α_P` (`n` bytes).
    pub(crate) fn alpha(&self) -> &[u8] {
        &self.alpha
    }

    /// Authenticates this party's words `own` (`L·n` bytes, word-major) under every peer's key and
    /// `words[q]` words of each peer q under this party's key, in frames of [`FRAME_WORDS`] words:
    /// `own[q]` holds `t` (`L·n` bytes) with `q_w = t_w + α_q ∗ X_w` at q, `peer[q]` the `q_w` of
    /// q's words.
    pub(crate) async fn extend<N: Network>(
        &mut self,
        frames: &mut CopeFrames<'_>,
        net: &mut N,
        own: &[u8],
        words: &[usize],
    ) -> Result<PairwiseOutput<u8>, MiniMacError> {
        let n = self.alpha.len();
        let counts: Vec<usize> = words.iter().map(|w| w * n).collect();
        self.pairs.extend(frames, net, own, &counts).await
    }
}

impl PeerColumns for PeerCope {
    type Input = u8;
    type Output = u8;
    type Error = MiniMacError;

    /// Input side for the words `xs` (`L·n` bytes, word-major): the columns `u` (`8n·L` bytes,
    /// column-major) and `t` (`L·n` bytes, word-major).
    fn columns(&mut self, xs: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let n = self.n;
        let l = xs.len() / n;
        let blocks = l.div_ceil(16);
        let mut u = vec![0u8; 8 * n * l];
        let mut acc = vec![Gf256(0); n * l];
        let (mut lanes, mut x) = (vec![0u8; l], vec![0; blocks]);
        let (mut t0, mut ub, mut bytes) = (vec![0; blocks], vec![0; blocks], vec![0u8; l]);
        for (c, pair) in self.seeds.pairs.iter_mut().enumerate() {
            let j = c / 8;
            if c % 8 == 0 {
                // Column (j, l) carries byte j of every word.
                for (lane, word) in lanes.iter_mut().zip(xs.chunks_exact(n)) {
                    *lane = word[j];
                }
                to_blocks(&lanes, &mut x);
            }
            input_column(pair, &x, &mut t0, &mut ub);
            to_bytes(&ub, &mut u[c * l..(c + 1) * l]);
            to_bytes(&t0, &mut bytes);
            Gf256::mul_add_scalar_slice(
                &mut acc[j * l..(j + 1) * l],
                Gf256::from_bytes(&bytes),
                Gf256(1 << (c % 8)),
            );
        }
        (u, transpose(Gf256::as_bytes(&acc), n, l))
    }

    /// Key side: `q` (`count` bytes of whole words, word-major) from the peer's columns `u`.
    fn keys(&mut self, u: &[u8], count: usize, peer: PartyId) -> Result<Vec<u8>, MiniMacError> {
        let n = self.n;
        let l = count / n;
        if u.len() != 8 * n * l || !count.is_multiple_of(n) {
            let reason = format!("{} bytes of COPE columns, expected {} for {l} words", u.len(), 8 * n * l);
            return Err(MiniMacError::Malformed { from: peer, step: Step::PrepCope, reason });
        }
        let blocks = l.div_ceil(16);
        let mut acc = vec![Gf256(0); n * l];
        let (mut ub, mut qb, mut bytes) = (vec![0; blocks], vec![0; blocks], vec![0u8; l]);
        for (c, (chosen, &mask)) in self.seeds.chosen.iter_mut().zip(&self.masks).enumerate() {
            let j = c / 8;
            to_blocks(&u[c * l..(c + 1) * l], &mut ub);
            key_column(chosen, mask, &ub, &mut qb);
            to_bytes(&qb, &mut bytes);
            Gf256::mul_add_scalar_slice(
                &mut acc[j * l..(j + 1) * l],
                Gf256::from_bytes(&bytes),
                Gf256(1 << (c % 8)),
            );
        }
        Ok(transpose(Gf256::as_bytes(&acc), n, l))
    }
}

/// MiniMac's frames of COPE columns: kind [`Kind::CopeColumns`] under the framer's per-peer
/// sequence numbers, sent only by a party with words in the frame and received only from one.
pub(crate) struct CopeFrames<'a> {
    pub framer: &'a mut Framer,
    /// Bytes per word (for the cheats of tests).
    #[cfg(test)]
    pub n: usize,
    /// Frames exchanged so far (for the replay cheat of tests).
    #[cfg(test)]
    pub exchanges: usize,
    #[cfg(test)]
    pub cheat: Option<Cheat>,
}

impl ColumnWire for CopeFrames<'_> {
    type Error = MiniMacError;

    async fn exchange<N: Network>(
        &mut self,
        net: &mut N,
        frames: Vec<Option<Vec<u8>>>,
        sent: usize,
        received: &[usize],
    ) -> Result<Vec<Vec<u8>>, MiniMacError> {
        let step = Step::PrepCope;
        if sent > 0 {
            for (p, u) in frames.into_iter().enumerate() {
                let Some(u) = u else { continue };
                #[cfg(test)]
                let u = self.cheat_columns(u, sent / self.n);
                self.framer.send_to(net, p, Kind::CopeColumns, &u, step)?;
                #[cfg(test)]
                if self.exchanges == 0 && self.cheat == Some(Cheat::ReplayCopeFrame) {
                    self.framer.send_again(net, p, Kind::CopeColumns, &u, step)?;
                }
            }
        }
        #[cfg(test)]
        {
            self.exchanges += 1;
        }
        let mut all = vec![Vec::new(); received.len()];
        for (p, &count) in received.iter().enumerate() {
            if count > 0 {
                all[p] = self.framer.recv(net, p, Kind::CopeColumns, 8 * count, step).await?.into_body();
            }
        }
        Ok(all)
    }
}

#[cfg(test)]
impl CopeFrames<'_> {
    /// The COPE-column cheat: an inconsistent column `(j, 0)` for the first word of every frame.
    fn cheat_columns(&self, mut u: Vec<u8>, words: usize) -> Vec<u8> {
        if self.cheat == Some(Cheat::CopeColumn) {
            for c in (0..u.len() / words).step_by(8) {
                u[c * words] ^= 1;
            }
        }
        u
    }
}

/// `out[w·n + j] = m[j·l + w]`.
fn transpose(m: &[u8], n: usize, l: usize) -> Vec<u8> {
    let mut out = vec![0u8; n * l];
    if l == 0 {
        return out;
    }
    for (j, row) in m.chunks_exact(l).enumerate() {
        for (w, &v) in row.iter().enumerate() {
            out[w * n + j] = v;
        }
    }
    out
}
