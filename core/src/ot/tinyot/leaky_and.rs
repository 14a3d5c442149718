//! The half-gate leaky AND (KRRW18 Fig. 5; see the [parent module](super) for where it sits).
//!
//! For each index k, from `[a_k], [b_k], [r_k]`:
//! - garbler (each party, on its keys of the peer's `a` shares):
//!   `G = H(t, K[a']) ⊕ H(t, K[a'] ⊕ Δ) ⊕ C` with `C = b·Δ ⊕ K[b'] ⊕ M[b]`;
//! - evaluator (each party, on the peer's `G'`): `S = H(t, K[a']) ⊕ H(t', M[a]) ⊕ a·G' ⊕ a·C ⊕
//!   K[r'] ⊕ M[r] ⊕ r·Δ`, where `t` is this party's tweak for k and `t'` the peer's.
//!
//! Then `S_A ⊕ S_B = (a·b ⊕ r)·(Δ_A ⊕ Δ_B)`: the pads cancel, the `a`-terms give
//! `a·(C_A ⊕ C_B) = a·b·Δ*`, the `r`-terms `r·Δ*`. Bit 63 of `Δ*` is 1 (the pinned bit), so
//! exchanging bit 63 of `S` opens `d = a·b ⊕ r`; `[z] = [r] ⊕ d` and `L = S ⊕ d·Δ` is the same at
//! both parties when nobody cheated. The caller compares digests of `L`.
//!
//! Everything above holds bit by bit, so it can run on the low bits alone: at the width `W`
//! ([`StoredMac`]) a half gate is sent as its low `W` bits and `L` is compared on them. The pinned
//! bit lies inside every width. A garbler who sends wrong bits passes the check only by guessing
//! the evaluator's `Δ` on the compared bits (or where the evaluator's `a` is 0, which is the leak
//! the bucketing removes): 2^-63 at 64 bits, far below 2^-[`super::STAT_SECURITY`].

use sha2::{Digest, Sha256};

use super::bucket::StoredMac;
use super::{mask, ABit, TinyOt, PINNED_BIT};
use crate::net::Network;
use crate::ot::{Block, OtError};

/// Half gates garbled and evaluated per pass (a chunk's pads stay in cache).
const CHUNK: usize = 1024;

/// Tweaks of party `p`'s half gates start at `p·2^64` (disjoint between the parties).
fn tweak(party: usize, gate: u64) -> u128 {
    (party as u128) << 64 | gate as u128
}

impl TinyOt {
    /// Runs the leaky AND on `a`, `b` and `r` (all of one length), turning `r` into `z = a·b` in
    /// place, and adds this party's `L` vector to `digest` (for the equality check).
    pub(super) async fn leaky_and<N: Network, W: StoredMac>(
        &mut self,
        net: &mut N,
        a: &[ABit],
        b: &[ABit],
        r: &mut [ABit],
        digest: &mut Sha256,
    ) -> Result<(), OtError> {
        let n = a.len();
        let delta = self.delta();
        let (me, peer) = (self.party, self.peer);
        let c = |y: &ABit| (delta & mask(y.bit)) ^ y.key ^ y.mac;
        // Garble, a chunk at a time: `s` holds pad0 = H(t, K[a']) until the evaluation turns it
        // into S; pad1 = H(t, K[a'] ⊕ Δ) lives in a chunk buffer and G goes straight into the
        // message.
        let mut s: Vec<Block> = a.iter().map(|x| x.key).collect();
        let mut msg = Vec::with_capacity(n * W::BYTES);
        let mut buf = [0 as Block; CHUNK];
        for (i, (pad0, b)) in s.chunks_mut(CHUNK).zip(b.chunks(CHUNK)).enumerate() {
            let first = tweak(me, self.gates + (i * CHUNK) as u64);
            let pad1 = &mut buf[..pad0.len()];
            for (p1, &p0) in pad1.iter_mut().zip(pad0.iter()) {
                *p1 = p0 ^ delta;
            }
            self.hash.hash_in_place(first, pad0);
            self.hash.hash_in_place(first, pad1);
            for ((p0, p1), y) in pad0.iter().zip(pad1.iter()).zip(b) {
                W::narrow(p0 ^ p1 ^ c(y)).put(&mut msg);
            }
        }
        net.send(peer, msg)?;

        // Evaluate the peer's half gates: S = pad0 ⊕ H(t', M[a]) ⊕ a·(G' ⊕ C) ⊕ K[r'] ⊕ M[r] ⊕ r·Δ.
        let g_peer = net.recv(peer).await?;
        if g_peer.len() != n * W::BYTES {
            return Err(OtError::malformed(
                "tinyot leaky-and half gates",
                format!("expected {} bytes ({n} half gates), got {}", n * W::BYTES, g_peer.len()),
            ));
        }
        for (i, (s, ((a, b), r))) in
            s.chunks_mut(CHUNK).zip(a.chunks(CHUNK).zip(b.chunks(CHUNK)).zip(r.chunks(CHUNK))).enumerate()
        {
            let h_mac = &mut buf[..s.len()];
            for (h, x) in h_mac.iter_mut().zip(a) {
                *h = x.mac;
            }
            self.hash.hash_in_place(tweak(peer, self.gates + (i * CHUNK) as u64), h_mac);
            for (k, s_k) in s.iter_mut().enumerate() {
                let g = W::widened_at(&g_peer, i * CHUNK + k);
                let am = mask(a[k].bit);
                *s_k ^= h_mac[k] ^ ((g ^ c(&b[k])) & am) ^ r[k].key ^ r[k].mac ^ (delta & mask(r[k].bit));
            }
        }
        self.gates += n as u64;

        // Open d = a·b ⊕ r from the pinned bit of S.
        let bit = |x: Block| (x >> PINNED_BIT) & 1 == 1;
        let mine = pack(s.iter().map(|&x| bit(x)), n);
        net.send(peer, mine.clone())?;
        let theirs = net.recv(peer).await?;
        if theirs.len() != mine.len() {
            return Err(OtError::malformed(
                "tinyot leaky-and opening",
                format!("expected {} bytes, got {}", mine.len(), theirs.len()),
            ));
        }
        // L at the width W, a chunk per digest update.
        let mut l = Vec::with_capacity(CHUNK * W::BYTES);
        for (i, (s, r)) in s.chunks(CHUNK).zip(r.chunks_mut(CHUNK)).enumerate() {
            l.clear();
            for (j, (s, r)) in s.iter().zip(r).enumerate() {
                let k = i * CHUNK + j;
                let d = (mine[k / 8] ^ theirs[k / 8]) >> (k % 8) & 1 == 1;
                *r = r.add_public(d, me, delta);
                W::narrow(s ^ (delta & mask(d))).put(&mut l);
            }
            digest.update(&l);
        }
        Ok(())
    }
}

/// Packs `n` bits into bytes, least significant bit first.
pub(crate) fn pack(bits: impl Iterator<Item = bool>, n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n.div_ceil(8)];
    for (k, b) in bits.enumerate() {
        out[k / 8] |= (b as u8) << (k % 8);
    }
    out
}
