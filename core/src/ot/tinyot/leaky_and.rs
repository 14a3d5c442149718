//! The half-gate leaky AND (KRRW18 Fig. 5; see the [parent module](super) for where it sits).
//!
//! For each index k, from `[a_k], [b_k], [r_k]`:
//! - garbler (each party, on its keys of the peer's `a` shares):
//!   `G = H(t, K[a']) ⊕ H(t, K[a'] ⊕ Δ) ⊕ C` with `C = b·Δ ⊕ K[b'] ⊕ M[b]`;
//! - evaluator (each party, on the peer's `G'`): `S = H(t, K[a']) ⊕ H(t', M[a]) ⊕ a·G' ⊕ a·C ⊕
//!   K[r'] ⊕ M[r] ⊕ r·Δ`, where `t` is this party's tweak for k and `t'` the peer's.
//!
//! Then `S_A ⊕ S_B = (a·b ⊕ r)·(Δ_A ⊕ Δ_B)`: the pads cancel, the `a`-terms give
//! `a·(C_A ⊕ C_B) = a·b·Δ*`, the `r`-terms `r·Δ*`. Bit 127 of `Δ*` is 1, so exchanging bit 127
//! of `S` opens `d = a·b ⊕ r`; `[z] = [r] ⊕ d` and `L = S ⊕ d·Δ` is the same at both parties when
//! nobody cheated. The caller compares digests of `L`.

use sha2::{Digest, Sha256};

use super::{mask, ABit, TinyOt, PINNED_BIT};
use crate::net::Network;
use crate::ot::{block, Block, OtError};

/// Tweaks of party `p`'s half gates start at `p·2^64` (disjoint between the parties).
fn tweak(party: usize, gate: u64) -> u128 {
    (party as u128) << 64 | gate as u128
}

impl TinyOt {
    /// Runs the leaky AND on `a`, `b` and `r` (all of one length), turning `r` into `z = a·b` in
    /// place, and returns the digest of this party's `L` vector for the equality check.
    pub(super) async fn leaky_and<N: Network>(
        &mut self,
        net: &mut N,
        a: &[ABit],
        b: &[ABit],
        r: &mut [ABit],
    ) -> Result<[u8; 32], OtError> {
        let n = a.len();
        let delta = self.delta();
        let (me, peer) = (self.party, self.peer);
        // Garble: pad0 = H(t, K[a']), pad1 = H(t, K[a'] ⊕ Δ).
        let mut pad0: Vec<Block> = a.iter().map(|x| x.key).collect();
        let mut pad1: Vec<Block> = a.iter().map(|x| x.key ^ delta).collect();
        self.hash.hash_in_place(tweak(me, self.gates), &mut pad0);
        self.hash.hash_in_place(tweak(me, self.gates), &mut pad1);
        let c: Vec<Block> = b.iter().map(|y| (delta & mask(y.bit)) ^ y.key ^ y.mac).collect();
        let g: Vec<Block> = (0..n).map(|k| pad0[k] ^ pad1[k] ^ c[k]).collect();
        drop(pad1);
        let mut msg = Vec::new();
        block::put_blocks(&mut msg, &g);
        net.send(peer, msg)?;

        // Evaluate the peer's half gates.
        let g_peer = block::get_blocks("tinyot leaky-and half gates", &net.recv(peer).await?, n)?;
        let mut h_mac: Vec<Block> = a.iter().map(|x| x.mac).collect();
        self.hash.hash_in_place(tweak(peer, self.gates), &mut h_mac);
        self.gates += n as u64;
        let s: Vec<Block> = (0..n)
            .map(|k| {
                let am = mask(a[k].bit);
                pad0[k]
                    ^ h_mac[k]
                    ^ (g_peer[k] & am)
                    ^ (c[k] & am)
                    ^ r[k].key
                    ^ r[k].mac
                    ^ (delta & mask(r[k].bit))
            })
            .collect();

        // Open d = a·b ⊕ r from bit 127 of S.
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
        let mut digest = Sha256::new();
        for k in 0..n {
            let d = (mine[k / 8] ^ theirs[k / 8]) >> (k % 8) & 1 == 1;
            r[k] = r[k].add_public(d, me, delta);
            digest.update((s[k] ^ (delta & mask(d))).to_le_bytes());
        }
        Ok(digest.finalize().into())
    }
}

/// Packs `n` bits into bytes, least significant bit first.
pub(super) fn pack(bits: impl Iterator<Item = bool>, n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n.div_ceil(8)];
    for (k, b) in bits.enumerate() {
        out[k / 8] |= (b as u8) << (k % 8);
    }
    out
}
