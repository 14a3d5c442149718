//! Bucketing and combining of leaky triples (WRK17 Π_aAND; see the [parent module](super)).
//!
//! The coins fix a random permutation of the `B·N` leaky triples; bucket `i` takes the triples at
//! positions `i·B .. (i+1)·B` of it. A bucket's first triple `(x_1, y_1, z_1)` absorbs each other
//! one `(x_j, y_j, z_j)`: `d_j = y_1 ⊕ y_j` is opened, and `x ← x ⊕ x_j`, `z ← z ⊕ z_j ⊕ d_j·x_j`
//! (then `z = x·y_1` still holds, since `x_j·y_1 = z_j ⊕ d_j·x_j`). All `(B − 1)·N` openings go in
//! one message with a digest of their MACs; the peer checks the digest against its keys.

use sha2::{Digest, Sha256};

use super::{mask, ABit, TinyOt};
use crate::arch::prefetch::prefetch;
use crate::net::Network;
use crate::ot::prg::Prg;
use crate::ot::{Block, OtError};

/// Stream blocks drawn per call of the permutation's PRG.
const DRAW_CHUNK: usize = 1024;

/// How many buckets ahead of the current one the passes prefetch.
const AHEAD: usize = 8;

/// The leaky triples of a batch, compactly: the MACs and keys of `[x, y, z]` in one 96-byte
/// record per triple and the three share bits in one byte (an `[ABit; 3]` would take 144 bytes;
/// a large batch holds millions).
pub(super) struct LeakyTriples {
    blocks: Vec<LeakyBlocks>,
    bits: Vec<u8>,
}

/// MACs and keys of one leaky triple's `x`, `y`, `z`.
#[derive(Clone, Copy)]
struct LeakyBlocks {
    mac: [Block; 3],
    key: [Block; 3],
}

impl LeakyTriples {
    pub(super) fn with_capacity(m: usize) -> Self {
        LeakyTriples { blocks: Vec::with_capacity(m), bits: Vec::with_capacity(m) }
    }

    pub(super) fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Appends the triples `(x_i, y_i, z_i)`.
    pub(super) fn extend(&mut self, x: &[ABit], y: &[ABit], z: &[ABit]) {
        for ((x, y), z) in x.iter().zip(y).zip(z) {
            self.blocks.push(LeakyBlocks { mac: [x.mac, y.mac, z.mac], key: [x.key, y.key, z.key] });
            self.bits.push(x.bit as u8 | (y.bit as u8) << 1 | (z.bit as u8) << 2);
        }
    }

    /// Component `c` (0 = x, 1 = y, 2 = z) of triple `j`.
    #[inline(always)]
    fn get(&self, j: usize, c: usize) -> ABit {
        let b = &self.blocks[j];
        ABit { bit: (self.bits[j] >> c) & 1 == 1, mac: b.mac[c], key: b.key[c] }
    }

    /// Prefetches both cache lines triple `j`'s record may span, and its bits.
    #[inline(always)]
    fn fetch(&self, j: usize) {
        let b = &self.blocks[j];
        prefetch(&b.mac[0]);
        prefetch(&b.key[2]);
        prefetch(&self.bits[j]);
    }
}

/// A uniformly random permutation of `0..n` from the coins (Fisher–Yates on AES-CTR output;
/// 64-bit draws reduced modulo at most 2^32 keep the bias below 2^-32 per draw).
fn permutation(coins: &[u8; 32], n: usize) -> Vec<usize> {
    let mut prg = Prg::new(u128::from_le_bytes(coins[..16].try_into().expect("16 bytes")));
    let mut perm: Vec<usize> = (0..n).collect();
    // The swap for i = n − 1, n − 2, … takes the stream's blocks in order, a chunk at a time.
    let mut draws = [0 as Block; DRAW_CHUNK];
    let mut used = DRAW_CHUNK;
    for i in (1..n).rev() {
        if used == DRAW_CHUNK {
            prg.fill(&mut draws);
            used = 0;
        }
        let j = ((draws[used] as u64) % (i as u64 + 1)) as usize;
        used += 1;
        perm.swap(i, j);
    }
    perm
}

impl TinyOt {
    /// Combines the leaky triples (`[x, y, z]` each) into `count` triples with buckets of `b`,
    /// each handed to `f` as `[x, y, z]` (so a caller that converts triples builds no second
    /// vector).
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn bucket<N: Network, T>(
        &mut self,
        net: &mut N,
        leaky: &LeakyTriples,
        b: usize,
        count: usize,
        coins: [u8; 32],
        f: impl Fn([ABit; 3]) -> T,
    ) -> Result<Vec<T>, OtError> {
        let perm = permutation(&coins, leaky.len());
        let buckets: Vec<&[usize]> = perm.chunks_exact(b).take(count).collect();
        // This party's shares of every d_j = y_1 ⊕ y_j, in bucket order: the bits packed into the
        // message, the MACs into its digest, the keys kept for checking the peer's digest. The
        // triples of a bucket sit at random places of an array far larger than the caches, so
        // each pass prefetches the bucket AHEAD places further on.
        let openings = buckets.len() * (b - 1);
        let mut msg = vec![0u8; openings.div_ceil(8)];
        let mut keys = Vec::with_capacity(openings);
        let mut macs = Sha256::new();
        let mut k = 0;
        for (q, bk) in buckets.iter().enumerate() {
            if let Some(next) = buckets.get(q + AHEAD) {
                next.iter().for_each(|&j| leaky.fetch(j));
            }
            for &j in &bk[1..] {
                let d = leaky.get(bk[0], 1).xor(leaky.get(j, 1));
                msg[k / 8] |= (d.bit as u8) << (k % 8);
                macs.update(d.mac.to_le_bytes());
                keys.push(d.key);
                k += 1;
            }
        }
        let mine = msg.clone();
        msg.extend_from_slice(&macs.finalize());
        let bits_len = openings.div_ceil(8);
        net.send(self.peer, msg)?;

        let theirs = net.recv(self.peer).await?;
        if theirs.len() != bits_len + 32 {
            return Err(OtError::malformed(
                "tinyot bucket opening",
                format!("expected {} bytes, got {}", bits_len + 32, theirs.len()),
            ));
        }
        let delta = self.delta();
        let peer_bit = |k: usize| (theirs[k / 8] >> (k % 8)) & 1 == 1;
        let mut expected = Sha256::new();
        for (k, key) in keys.iter().enumerate() {
            expected.update((key ^ (delta & mask(peer_bit(k)))).to_le_bytes());
        }
        drop(keys);
        if expected.finalize()[..] != theirs[bits_len..] {
            return Err(OtError::CheckFailed { check: "tinyot bucket opening MACs" });
        }

        let mut out = Vec::with_capacity(count);
        let mut k = 0;
        for (q, bk) in buckets.iter().enumerate() {
            if let Some(next) = buckets.get(q + AHEAD) {
                next.iter().for_each(|&j| leaky.fetch(j));
            }
            let (mut xs, ys, mut zs) = (leaky.get(bk[0], 0), leaky.get(bk[0], 1), leaky.get(bk[0], 2));
            for &j in &bk[1..] {
                let dj = ((mine[k / 8] ^ theirs[k / 8]) >> (k % 8)) & 1 == 1;
                k += 1;
                let (xj, zj) = (leaky.get(j, 0), leaky.get(j, 2));
                xs = xs.xor(xj);
                zs = zs.xor(zj).xor(xj.times(dj));
            }
            out.push(f([xs, ys, zs]));
        }
        Ok(out)
    }
}
