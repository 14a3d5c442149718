//! COPE over GF(2^8)^n with one independent 8-bit key per codeword position: MASCOT's Π_COPE
//! (Keller–Orsini–Scholl, CCS 2016, Fig. 1 / "correlated oblivious product evaluation"), run
//! component-wise for MiniMac's MAC key `α_P ∈ GF(2^8)^n`, in both directions at once — the
//! structure of Coral's `proto::coral::prep::ot::cope` with n keys of 8 bits instead of one of 42.
//!
//! **Seeds.** For every key bit `(j, l)` (bit `l` of `α_{P,j}`) the key holder P needs one random
//! OT in which it is the receiver with choice bit `α_{P,j,l}`: P learns `k^{α_{P,j,l}}`, the peer
//! both `k^0, k^1`. They come from `8n` TinyOT authenticated bits ([`crate::ot::TinyOt::abits`],
//! KOS15 correlated OTs in both directions), hashed with the tweakable correlation-robust hash
//! ([`TccrHash`]) as KOS15's random OTs are: abit `c` gives P the share bit `x_P` (which *is*
//! `α_{P,j,l}`, `c = 8j + l`: α_P is uniformly random anyway, so its bits may be the random choice
//! bits) and the seed `H(τ, M[x_P])`, and the peer `H(τ, K)`, `H(τ, K ⊕ Δ_peer)` with
//! `M = K ⊕ x_P·Δ_peer`. The tweak `τ` is unique per abit and direction. This costs one small
//! extension (2·8n correlated OTs) instead of `2·8n` public-key base OTs; a corrupt receiver's
//! freedom in KOS15 (inconsistent choice bits, at the risk of an abort) only lets it pick its own
//! α bits, which it may anyway.
//!
//! **Extension** for words `w = 1..L` of the input party `Q` (contribution `X_w ∈ GF(2^8)^n`):
//! with `t^b_{(j,l),w} = G(k^b_{j,l})_w` (one byte of the AES-CTR stream [`Prg`]) `Q` sends
//! `u_{(j,l),w} = t^0 + t^1 + X_w[j]`; P computes `q_{(j,l),w} = t^{α bit} + α_bit·u = t^0 +
//! α_bit·X_w[j]`; then `q_w[j] = Σ_l 2^l·q_{(j,l),w}` and `t_w[j] = Σ_l 2^l·t^0_{(j,l),w}` give
//! `q_w = t_w + α_P ∗ X_w`. Columns travel in frames of at most [`FRAME_WORDS`] words (`8n` bytes
//! per word), column-major within a frame.
//!
//! **Alone this is "COPE with errors"**: a corrupt `Q` may use a different `X_w[j]` in each of the
//! eight columns of position `j`; the random-combination openings and the MAC check of
//! [`super::checks`] catch that (MASCOT's Π_Auth argument, see there). Key bits never select a
//! branch or an index: they enter as byte masks.

use crate::field::Gf256;
use crate::net::PartyId;
use crate::ot::prg::{Prg, TccrHash};
use crate::ot::{ABit, Block};

/// Words per frame of COPE columns (a frame carries `8n` bytes per word: 512 KiB for n = 256).
pub const FRAME_WORDS: usize = 256;

/// First tweak of the hash that turns abits into COPE seeds (far from the tweaks the TinyOT
/// engine uses for its own hashes, which count up from 0).
const TWEAK_BASE: u128 = 1 << 120;

/// The tweak of abit `c` for the direction in which `key_holder` holds the key.
fn tweak(c: usize, key_holder: PartyId) -> u128 {
    TWEAK_BASE + 2 * c as u128 + key_holder as u128
}

/// One party's COPE state with its peer (both directions).
pub(crate) struct Cope {
    n: usize,
    /// `α_P`, `n` bytes: bit `l` of byte `j` is the share bit of abit `8j + l`.
    alpha: Vec<u8>,
    /// Key-holder side: the stream of `k^{α bit}` per column `8j + l`.
    chosen: Vec<Prg>,
    /// Input side: both streams of each of the peer's columns.
    pairs: Vec<[Prg; 2]>,
}

impl core::fmt::Debug for Cope {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Cope").field("n", &self.n).finish_non_exhaustive()
    }
}

/// The next `len` bytes of `prg` (whole blocks are drawn; both holders of a seed draw alike).
fn stream_bytes(prg: &mut Prg, len: usize, out: &mut Vec<u8>) {
    let blocks = prg.blocks(len.div_ceil(16));
    out.clear();
    out.extend(blocks.iter().flat_map(|b| b.to_le_bytes()));
    out.truncate(len);
}

impl Cope {
    /// The COPE state from `8n` abits of this party (`me`) with the TinyOT `delta` of this party.
    pub(crate) fn from_abits(abits: &[ABit], delta: Block, me: PartyId, n: usize) -> Self {
        debug_assert_eq!(abits.len(), 8 * n);
        let peer = 1 - me;
        let hash = TccrHash::default();
        let mut alpha = vec![0u8; n];
        for (c, a) in abits.iter().enumerate() {
            alpha[c / 8] |= u8::from(a.bit) << (c % 8);
        }
        let chosen =
            abits.iter().enumerate().map(|(c, a)| Prg::new(hash.hash(tweak(c, me), a.mac))).collect();
        let pairs = abits
            .iter()
            .enumerate()
            .map(|(c, a)| {
                let t = tweak(c, peer);
                [Prg::new(hash.hash(t, a.key)), Prg::new(hash.hash(t, a.key ^ delta))]
            })
            .collect();
        Cope { n, alpha, chosen, pairs }
    }

    /// `α_P` (`n` bytes).
    pub(crate) fn alpha(&self) -> &[u8] {
        &self.alpha
    }

    /// Input side for the words `xs` (`L·n` bytes, word-major): the columns `u` (`8n·L` bytes,
    /// column-major) to send, and `t` (`L·n` bytes, word-major) with `q_w = t_w + α_peer ∗ X_w`.
    pub(crate) fn columns(&mut self, xs: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let n = self.n;
        let l = xs.len() / n;
        let mut u = Vec::with_capacity(8 * n * l);
        let mut acc = vec![Gf256(0); n * l];
        let (mut t0, mut t1) = (Vec::new(), Vec::new());
        for (c, [g0, g1]) in self.pairs.iter_mut().enumerate() {
            let j = c / 8;
            stream_bytes(g0, l, &mut t0);
            stream_bytes(g1, l, &mut t1);
            u.extend((0..l).map(|w| t0[w] ^ t1[w] ^ xs[w * n + j]));
            Gf256::mul_add_scalar_slice(
                &mut acc[j * l..(j + 1) * l],
                Gf256::from_bytes(&t0),
                Gf256(1 << (c % 8)),
            );
        }
        (u, transpose(Gf256::as_bytes(&acc), n, l))
    }

    /// Key side: `q` (`L·n` bytes, word-major) from the peer's columns `u` of `L` words.
    pub(crate) fn keys(&mut self, u: &[u8], l: usize) -> Vec<u8> {
        let n = self.n;
        debug_assert_eq!(u.len(), 8 * n * l);
        let mut acc = vec![Gf256(0); n * l];
        let mut q = Vec::new();
        for (c, g) in self.chosen.iter_mut().enumerate() {
            let j = c / 8;
            let mask = 0u8.wrapping_sub((self.alpha[j] >> (c % 8)) & 1);
            stream_bytes(g, l, &mut q);
            for (q, &u) in q.iter_mut().zip(&u[c * l..(c + 1) * l]) {
                *q ^= u & mask;
            }
            Gf256::mul_add_scalar_slice(
                &mut acc[j * l..(j + 1) * l],
                Gf256::from_bytes(&q),
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
