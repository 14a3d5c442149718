//! COPE over GF(2^8)^n with one independent 8-bit key per codeword position: MASCOT's Π_COPE
//! (Keller–Orsini–Scholl, CCS 2016, Fig. 1 / "correlated oblivious product evaluation"), run
//! component-wise for MiniMac's MAC key share `α_P ∈ GF(2^8)^n`, between every pair of parties in
//! both directions — the structure of Coral's `proto::coral::prep::ot::cope` with n keys of 8
//! bits instead of one of 42.
//!
//! **Seeds.** For every key bit `(j, l)` (bit `l` of `α_{P,j}`) and every peer Q the key holder P
//! needs one random OT in which it is the receiver with choice bit `α_{P,j,l}`: P learns
//! `k^{α_{P,j,l}}`, Q both `k^0, k^1`. They come from `8n` TinyOT authenticated bits
//! (`super::tiny`: correlated OTs between every pair, in both directions), hashed with the
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
//! The seeds and the expansion of each column are the shared layer of
//! [`crate::ot::cope::columns`]; this module adds what a column carries (byte `j` of every word,
//! in 16-byte lanes) and how outputs are read from the columns.
//!
//! **Extension** for words `w = 1..L` of the input party `Q` (contribution `X_w ∈ GF(2^8)^n`),
//! towards every key holder P ≠ Q (its own seeds per pair): with `t^b_{(j,l),w} = G(k^b_{j,l})_w` (one byte of the AES-CTR stream [`Prg`]) `Q` sends
//! `u_{(j,l),w} = t^0 + t^1 + X_w[j]`; P computes `q_{(j,l),w} = t^{α bit} + α_bit·u = t^0 +
//! α_bit·X_w[j]`; then `q_w[j] = Σ_l 2^l·q_{(j,l),w}` and `t_w[j] = Σ_l 2^l·t^0_{(j,l),w}` give
//! `q_w = t_w + α_P ∗ X_w`. Columns travel in frames of at most [`FRAME_WORDS`] words (`8n` bytes
//! per word), column-major within a frame.
//!
//! **Alone this is "COPE with errors"**: a corrupt `Q` may use a different `X_w[j]` in each of the
//! eight columns of position `j`; the random-combination openings and the MAC check of
//! [`super::checks`] catch that (MASCOT's Π_Auth argument, see there). Key bits never select a
//! branch or an index: they enter as byte masks.

use super::tiny::Bits;
use crate::field::Gf256;
use crate::net::PartyId;
use crate::ot::cope::columns::{input_column, key_column, mask, PeerSeeds};
use crate::ot::multi::MAX_PARTIES;
use crate::ot::prg::TccrHash;
use crate::ot::Block;

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

/// One party's COPE states with every peer.
pub(crate) struct Cope {
    n: usize,
    /// `α_P`, `n` bytes: bit `l` of byte `j` is the share bit of abit `8j + l`.
    alpha: Vec<u8>,
    /// Per peer: the streams of this party's columns `8j + l` (key side) and of the peer's (input
    /// side); `None` at this party's own index.
    peers: Vec<Option<PeerSeeds>>,
}

impl core::fmt::Debug for Cope {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Cope").field("n", &self.n).finish_non_exhaustive()
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
        let peer = |q: PartyId| {
            let chosen = (0..8 * n).map(|c| hash.hash(tweak(c, me, q), abits.pair(c, q).mac));
            let pairs = (0..8 * n).map(|c| {
                let (t, key) = (tweak(c, q, me), abits.pair(c, q).key);
                [hash.hash(t, key), hash.hash(t, key ^ delta)]
            });
            PeerSeeds::new(chosen, pairs)
        };
        let peers = (0..parties).map(|q| (q != me).then(|| peer(q))).collect();
        Cope { n, alpha, peers }
    }

    /// `α_P` (`n` bytes).
    pub(crate) fn alpha(&self) -> &[u8] {
        &self.alpha
    }

    fn peer(&mut self, q: PartyId) -> &mut PeerSeeds {
        self.peers[q].as_mut().expect("COPE with a peer, not with this party")
    }

    /// Input side towards key holder `q` for the words `xs` (`L·n` bytes, word-major): the
    /// columns `u` (`8n·L` bytes, column-major) to send to `q`, and `t` (`L·n` bytes, word-major)
    /// with `q_w = t_w + α_q ∗ X_w` at `q`.
    pub(crate) fn columns(&mut self, q: PartyId, xs: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let n = self.n;
        let l = xs.len() / n;
        let blocks = l.div_ceil(16);
        let mut u = vec![0u8; 8 * n * l];
        let mut acc = vec![Gf256(0); n * l];
        let (mut lanes, mut x) = (vec![0u8; l], vec![0; blocks]);
        let (mut t0, mut ub, mut bytes) = (vec![0; blocks], vec![0; blocks], vec![0u8; l]);
        for (c, pair) in self.peer(q).pairs.iter_mut().enumerate() {
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

    /// Key side: `q` (`L·n` bytes, word-major) from input party `from`'s columns `u` of `L` words.
    pub(crate) fn keys(&mut self, from: PartyId, u: &[u8], l: usize) -> Vec<u8> {
        let n = self.n;
        debug_assert_eq!(u.len(), 8 * n * l);
        let blocks = l.div_ceil(16);
        let mut acc = vec![Gf256(0); n * l];
        let (mut ub, mut qb, mut bytes) = (vec![0; blocks], vec![0; blocks], vec![0u8; l]);
        let seeds = self.peers[from].as_mut().expect("COPE with a peer, not with this party");
        for (c, chosen) in seeds.chosen.iter_mut().enumerate() {
            let j = c / 8;
            to_blocks(&u[c * l..(c + 1) * l], &mut ub);
            key_column(chosen, mask((self.alpha[j] >> (c % 8)) & 1 == 1), &ub, &mut qb);
            to_bytes(&qb, &mut bytes);
            Gf256::mul_add_scalar_slice(
                &mut acc[j * l..(j + 1) * l],
                Gf256::from_bytes(&bytes),
                Gf256(1 << (c % 8)),
            );
        }
        transpose(Gf256::as_bytes(&acc), n, l)
    }
}

/// `out[w·n + j] = m[j·l + w]`.
fn transpose(m: &[u8], n: usize, l: usize) -> Vec<u8> {
    let mut out = vec![0u8; n * l];
    for (j, row) in m.chunks_exact(l).enumerate() {
        for (w, &v) in row.iter().enumerate() {
            out[w * n + j] = v;
        }
    }
    out
}
