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

/// The width at which the leaky AND sends half gates and compares `L`, and [`LeakyTriples`] keeps
/// MACs and keys: the full 128-bit block, or its low 64 bits for callers whose triples carry
/// k ≤ 64-bit MACs (TinyTable) — the relation `M = K ⊕ x·Δ` holds bitwise, so truncating early
/// is the same as truncating the finished triple; it halves the half gates on the wire and the
/// store the bucketing reads at random.
pub(super) trait StoredMac: Copy {
    /// The stored part of `b`.
    fn narrow(b: Block) -> Self;
    /// The stored value as a block (bits above the width are zero).
    fn widen(self) -> Block;
    /// Feeds the stored bytes to a digest.
    fn hash_into(self, h: &mut Sha256);
    /// Bytes of one stored value on the wire.
    const BYTES: usize;
    /// Appends the stored bytes (little-endian) to `out`.
    fn put(self, out: &mut Vec<u8>);
    /// Value `i` of a message of stored values (the caller checked its length), widened.
    fn widened_at(bytes: &[u8], i: usize) -> Block;
}

impl StoredMac for Block {
    #[inline(always)]
    fn narrow(b: Block) -> Self {
        b
    }
    #[inline(always)]
    fn widen(self) -> Block {
        self
    }
    #[inline(always)]
    fn hash_into(self, h: &mut Sha256) {
        h.update(self.to_le_bytes());
    }
    const BYTES: usize = 16;
    #[inline(always)]
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    #[inline(always)]
    fn widened_at(bytes: &[u8], i: usize) -> Block {
        crate::ot::block::block_at(bytes, i)
    }
}

impl StoredMac for u64 {
    #[inline(always)]
    fn narrow(b: Block) -> Self {
        b as u64
    }
    #[inline(always)]
    fn widen(self) -> Block {
        self as Block
    }
    #[inline(always)]
    fn hash_into(self, h: &mut Sha256) {
        h.update(self.to_le_bytes());
    }
    const BYTES: usize = 8;
    #[inline(always)]
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    #[inline(always)]
    fn widened_at(bytes: &[u8], i: usize) -> Block {
        let mut raw = [0u8; 8];
        raw.copy_from_slice(&bytes[i * 8..(i + 1) * 8]);
        u64::from_le_bytes(raw) as Block
    }
}

/// The leaky triples of a batch, compactly: the MACs and keys of `[x, y, z]` in one record per
/// triple (96 bytes at full width, 48 at 64 bits) and the three share bits in one byte (an
/// `[ABit; 3]` would take 144 bytes; a large batch holds millions).
pub(super) struct LeakyTriples<W> {
    blocks: Vec<LeakyBlocks<W>>,
    bits: Vec<u8>,
}

/// MACs and keys of one leaky triple's `x`, `y`, `z`.
#[derive(Clone, Copy)]
struct LeakyBlocks<W> {
    mac: [W; 3],
    key: [W; 3],
}

impl<W: StoredMac> LeakyTriples<W> {
    pub(super) fn with_capacity(m: usize) -> Self {
        LeakyTriples { blocks: Vec::with_capacity(m), bits: Vec::with_capacity(m) }
    }

    pub(super) fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Appends the triples `(x_i, y_i, z_i)`.
    pub(super) fn extend(&mut self, x: &[ABit], y: &[ABit], z: &[ABit]) {
        for ((x, y), z) in x.iter().zip(y).zip(z) {
            self.blocks.push(LeakyBlocks {
                mac: [x.mac, y.mac, z.mac].map(W::narrow),
                key: [x.key, y.key, z.key].map(W::narrow),
            });
            self.bits.push(x.bit as u8 | (y.bit as u8) << 1 | (z.bit as u8) << 2);
        }
    }

    /// Component `c` (0 = x, 1 = y, 2 = z) of triple `j`, widened to a block.
    #[inline(always)]
    fn get(&self, j: usize, c: usize) -> ABit {
        let b = &self.blocks[j];
        ABit { bit: (self.bits[j] >> c) & 1 == 1, mac: b.mac[c].widen(), key: b.key[c].widen() }
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
pub(crate) fn permutation(coins: &[u8; 32], n: usize) -> Vec<usize> {
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
    pub(super) async fn bucket<N: Network, W: StoredMac, T>(
        &mut self,
        net: &mut N,
        leaky: &LeakyTriples<W>,
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
        let mut keys: Vec<W> = Vec::with_capacity(openings);
        let mut macs = Sha256::new();
        let mut k = 0;
        for (q, bk) in buckets.iter().enumerate() {
            if let Some(next) = buckets.get(q + AHEAD) {
                next.iter().for_each(|&j| leaky.fetch(j));
            }
            for &j in &bk[1..] {
                let d = leaky.get(bk[0], 1).xor(leaky.get(j, 1));
                msg[k / 8] |= (d.bit as u8) << (k % 8);
                W::narrow(d.mac).hash_into(&mut macs);
                keys.push(W::narrow(d.key));
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
            W::narrow(key.widen() ^ (delta & mask(peer_bit(k)))).hash_into(&mut expected);
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
