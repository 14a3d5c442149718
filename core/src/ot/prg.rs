//! The symmetric primitives of the OT engine, all on AES-128 through [`ManyAes`] (the `aes` crate
//! with AES-NI natively, detected at run time; a `simd128` bit-sliced AES in the WASM build):
//!
//! - [`Prg`]: AES-128 in counter mode keyed by a 128-bit seed — the PRG `G` that stretches each
//!   base-OT seed into a column of the extension matrix (KOS15 §3 / IKNP03);
//! - [`TccrHash`]: the tweakable circular correlation-robust hash of Guo–Kolesnikov–Katz–Wang
//!   (S&P 2020, §7.4), `H(i, x) = π(π(x) ⊕ i) ⊕ π(x)` with `π` fixed-key AES, which turns the
//!   correlated pairs `(q, q ⊕ Δ)` of the extension into independent random OT messages.
//!
//! Invariant: a [`Prg`] never repeats a counter, so two calls return disjoint parts of one stream;
//! both parties that hold a seed read the same stream in the same order.

use super::Block;
use crate::arch::ManyAes;

/// Blocks hashed per batch in stack buffers (lets AES-NI pipeline; bounds the buffers).
const BATCH: usize = 64;

/// AES-128-CTR keyed by a seed: a stream of pseudorandom blocks.
#[derive(Clone)]
pub struct Prg {
    cipher: ManyAes,
    counter: u128,
}

impl core::fmt::Debug for Prg {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Prg").field("counter", &self.counter).finish_non_exhaustive()
    }
}

impl Prg {
    /// The stream of `seed`, from its start.
    pub fn new(seed: Block) -> Self {
        Prg { cipher: ManyAes::new(&seed.to_le_bytes()), counter: 0 }
    }

    /// Fills `out` with the next `out.len()` blocks of the stream.
    pub fn fill(&mut self, out: &mut [Block]) {
        for (i, x) in out.iter_mut().enumerate() {
            *x = self.counter + i as u128;
        }
        self.counter += out.len() as u128;
        self.cipher.encrypt(out);
    }

    /// The next `n` blocks of the stream.
    pub fn blocks(&mut self, n: usize) -> Vec<Block> {
        let mut out = vec![0; n];
        self.fill(&mut out);
        out
    }
}

/// The fixed key of `π` (public; any fixed key works, this one is the first 16 bytes of the
/// SHA-256 of "chorus ot tccr hash").
const TCCR_KEY: [u8; 16] =
    [0x1e, 0x4b, 0x8d, 0x62, 0x09, 0xc7, 0x3a, 0xf5, 0x90, 0x2e, 0x6b, 0xd1, 0x47, 0xa8, 0x35, 0xec];

/// `H(i, x) = π(π(x) ⊕ i) ⊕ π(x)` with `π` AES-128 under a fixed public key (GKWY20 §7.4).
#[derive(Clone)]
pub struct TccrHash {
    pi: ManyAes,
}

impl core::fmt::Debug for TccrHash {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("TccrHash")
    }
}

impl Default for TccrHash {
    fn default() -> Self {
        TccrHash { pi: ManyAes::new(&TCCR_KEY) }
    }
}

impl TccrHash {
    /// `xs[j] ← H(tweaks[j], xs[j])` for every `j`, a batch of 64 blocks at a time in stack buffers
    /// (two pipelined passes of `π` per batch, no heap allocation).
    ///
    /// # Panics
    /// If `tweaks.len() != xs.len()` (a caller bug).
    pub fn hash_tweaked(&self, tweaks: &[u128], xs: &mut [Block]) {
        assert_eq!(tweaks.len(), xs.len(), "TccrHash::hash_tweaked: one tweak per block");
        let mut y = [0u128; BATCH];
        for (xs, tweaks) in xs.chunks_mut(BATCH).zip(tweaks.chunks(BATCH)) {
            let y = &mut y[..xs.len()];
            // `xs` becomes `π(x)`, `y` becomes `π(π(x) ⊕ i)`.
            self.pi.encrypt(xs);
            for ((y, p), t) in y.iter_mut().zip(xs.iter()).zip(tweaks) {
                *y = p ^ t;
            }
            self.pi.encrypt(y);
            for (x, y) in xs.iter_mut().zip(y.iter()) {
                *x ^= y;
            }
        }
    }

    /// `xs[j] ← H(first_tweak + j, xs[j])` for every `j`.
    pub fn hash_in_place(&self, first_tweak: u128, xs: &mut [Block]) {
        let mut tweaks = [0u128; BATCH];
        for (c, chunk) in xs.chunks_mut(BATCH).enumerate() {
            let base = first_tweak.wrapping_add((c * BATCH) as u128);
            for (k, t) in tweaks.iter_mut().enumerate() {
                *t = base.wrapping_add(k as u128);
            }
            self.hash_tweaked(&tweaks[..chunk.len()], chunk);
        }
    }

    /// Appends to `out` the random-OT pairs of correlated OTs `q_j` with correlation `delta`:
    /// `[H(first_tweak + j, q_j), H(first_tweak + j, q_j ⊕ delta)]`, hashed a batch at a time in
    /// stack buffers.
    pub fn hash_pairs_into(&self, first_tweak: u128, q: &[Block], delta: Block, out: &mut Vec<[Block; 2]>) {
        let mut tweaks = [0u128; BATCH];
        let (mut m0, mut m1) = ([0u128; BATCH], [0u128; BATCH]);
        for (c, chunk) in q.chunks(BATCH).enumerate() {
            let n = chunk.len();
            let base = first_tweak.wrapping_add((c * BATCH) as u128);
            for (k, (((t, a), b), &x)) in tweaks.iter_mut().zip(&mut m0).zip(&mut m1).zip(chunk).enumerate() {
                (*t, *a, *b) = (base.wrapping_add(k as u128), x, x ^ delta);
            }
            self.hash_tweaked(&tweaks[..n], &mut m0[..n]);
            self.hash_tweaked(&tweaks[..n], &mut m1[..n]);
            out.extend(m0[..n].iter().zip(&m1[..n]).map(|(&a, &b)| [a, b]));
        }
    }

    /// `H(tweak, x)` for one block (no batch buffers: two single-block encryptions).
    pub fn hash(&self, tweak: u128, x: Block) -> Block {
        let p = self.pi.encrypt_one(x);
        self.pi.encrypt_one(p ^ tweak) ^ p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aes::cipher::{BlockEncrypt, KeyInit};
    use aes::Aes128;

    fn aes(key: [u8; 16], x: Block) -> Block {
        let mut b = aes::Block::from(x.to_le_bytes());
        Aes128::new(&key.into()).encrypt_block(&mut b);
        u128::from_le_bytes(b.into())
    }

    #[test]
    fn prg_is_aes_ctr_and_continues_its_stream() {
        let seed = 0x0f0e0d0c0b0a09080706050403020100u128;
        let mut prg = Prg::new(seed);
        let first = prg.blocks(3);
        let next = prg.blocks(BATCH + 5);
        for (i, &b) in first.iter().chain(next.iter()).enumerate() {
            assert_eq!(b, aes(seed.to_le_bytes(), i as u128), "block {i}");
        }
    }

    #[test]
    fn prg_matches_fips197_for_its_first_block() {
        // FIPS-197 C.1 key with the counter block 0 encrypted: checked against the aes crate.
        let key: [u8; 16] = core::array::from_fn(|i| i as u8);
        assert_eq!(Prg::new(u128::from_le_bytes(key)).blocks(1)[0], aes(key, 0));
    }

    #[test]
    fn tccr_hash_follows_its_definition_and_batches_agree() {
        let h = TccrHash::default();
        let xs: Vec<Block> =
            (0..100u128).map(|i| i.wrapping_mul(0x9e3779b97f4a7c15f39cc0605cedc835)).collect();
        let mut batch = xs.clone();
        h.hash_in_place(1000, &mut batch);
        for (j, &x) in xs.iter().enumerate() {
            let p = aes(TCCR_KEY, x);
            let want = aes(TCCR_KEY, p ^ (1000 + j as u128)) ^ p;
            assert_eq!(batch[j], want, "index {j}");
            assert_eq!(h.hash(1000 + j as u128, x), want);
        }
        assert_ne!(h.hash(1, xs[3]), h.hash(2, xs[3]), "the tweak must change the output");
    }

    #[test]
    fn tccr_pairs_and_arbitrary_tweaks_agree_with_single_hashes() {
        let h = TccrHash::default();
        let delta = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
        // Lengths around the batch size, so partial batches are covered.
        for len in [0, 1, BATCH - 1, BATCH, 2 * BATCH + 3] {
            let q: Vec<Block> =
                (0..len as u128).map(|i| i.wrapping_mul(0x9e3779b97f4a7c15f39cc0605cedc835) ^ 77).collect();
            let mut pairs = vec![[1, 2]];
            h.hash_pairs_into(500, &q, delta, &mut pairs);
            assert_eq!(pairs.remove(0), [1, 2], "appended after what was there");
            assert_eq!(pairs.len(), len);
            for (j, (&x, p)) in q.iter().zip(&pairs).enumerate() {
                let t = 500 + j as u128;
                assert_eq!(*p, [h.hash(t, x), h.hash(t, x ^ delta)], "pair {j} of {len}");
            }
            let tweaks: Vec<u128> = (0..len as u128).map(|i| (i * 7919) << 64 | 1 << 127).collect();
            let mut xs = q.clone();
            h.hash_tweaked(&tweaks, &mut xs);
            for (j, (&x, &y)) in q.iter().zip(&xs).enumerate() {
                assert_eq!(y, h.hash(tweaks[j], x), "block {j} of {len}");
            }
        }
    }
}
