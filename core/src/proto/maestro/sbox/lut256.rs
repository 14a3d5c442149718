//! The semi-honest (2,3) LUT-256 S-box (MAESTRO §3.4–3.5: Protocol 4's lookup on replicated
//! input, the "⟦·⟧ ↦ ⟦·⟧ (Prot. 4 variant)" of Table 4, with length-256 random one-hot vectors
//! from Protocol 5; Table 1 row "⟦·⟧-LUT-256", without the malicious verification, which
//! [`crate::proto::maestro::malicious::lut256`] adds on top of [`generate_observed`] and `lookup`).
//!
//! **Preprocessing** ([`Lut256Sbox::preprocess`]): per S-box, eight random shared bits r₀..r₇
//! (PRSS, no communication) and the one-hot vector e⁽ʳ⁾ built by Protocol 5's Ohv recursion:
//! from (1 − r₀, r₀), each level multiplies the next bit r_{k−1} by all but the last entry of
//! the length-M vector f (M − 1 bit products, one round), gets the last product as
//! r_{k−1} − Σ of the others, and forms ((1 − r_{k−1})·f, r_{k−1}·f). Levels M = 2..128 cost
//! 1 + 3 + … + 127 = 247 bits per S-box — 39520 bits per AES-128 block, as in Table 1 — in
//! **7** rounds per batch (log N − 1, as §3.4 states; Table 1 prints 6).
//!
//! **Online**, per S-box: open c = x + r to all (each party sends one byte: 8 bits, one round)
//! and compute ⟦S(x)⟧ = Σⱼ ⟦e_j⟧ · S\[c ⊕ j\] = Σⱼ ⟦e_{c ⊕ j}⟧ · S\[j\] locally: the share bits of e
//! are permuted by the public c (butterfly swaps chosen by c's bits) and output bit b is the
//! parity of the permuted bits under the fixed mask {j : bit b of S\[j\] is 1} — no branch or
//! index on shares. 1280 bits and 10 rounds per block, as in Table 1. InvSubBytes is the same
//! lookup with the inverse S-box table's masks, at the same cost.
//!
//! Preprocessing is bit-sliced: a level's local products, its bit-packed message and the Ohv
//! step are word operations on the 256-bit component vectors.

use super::super::bits::{low_mask, reshare_bit_message, BitReader, BitWriter};
use super::super::error::MaestroError;
use super::super::online::Party;
use super::super::pool::PreprocessedPool;
use super::super::rss::RssShare;
use super::SboxLayer;
use crate::aes::sbox::{inv_sbox_table, sbox_table};
use crate::field::Gf256;
use crate::net::Network;

/// 256 share bits of one component, bit j in word j / 64.
pub type Bits256 = [u64; 4];

#[cfg(test)]
fn set(bits: &mut Bits256, j: usize, b: u8) {
    bits[j / 64] |= u64::from(b & 1) << (j % 64);
}

/// A shared random byte r and this party's components of e⁽ʳ⁾ (length 256).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OneHot256 {
    /// Shares of r (bit i = rᵢ).
    pub r: RssShare,
    /// Components (first, second) of e_0..e_255.
    pub e: (Bits256, Bits256),
}

/// `bits << by` (by < 256).
#[inline]
fn shl(bits: &Bits256, by: usize) -> Bits256 {
    let (words, off) = (by / 64, by % 64);
    let mut out = [0u64; 4];
    for i in (words..4).rev() {
        out[i] = bits[i - words] << off;
        if off > 0 && i > words {
            out[i] |= bits[i - words - 1] >> (64 - off);
        }
    }
    out
}

#[inline]
fn xor(a: &Bits256, b: &Bits256) -> Bits256 {
    core::array::from_fn(|i| a[i] ^ b[i])
}

#[inline]
fn parity(bits: &Bits256) -> u64 {
    u64::from(bits.iter().fold(0, |acc, w| acc ^ w).count_ones() & 1)
}

/// `count` random one-hot vectors of length 256 in seven rounds.
///
/// Bit-sliced: each level's local products, the bit-packed message and the recursion step are
/// word operations on the 256-bit component vectors (masks from the share bits, no branch on
/// shares).
pub async fn generate<N: Network>(
    party: &mut Party,
    net: &mut N,
    count: usize,
) -> Result<Vec<OneHot256>, MaestroError> {
    generate_observed(party, net, count, &mut |_: &mut BitProducts| {}).await
}

/// This party's components of one vector's bit products at one level of the Ohv recursion:
/// `products[i] = left · right[i]` for i < `count` (the M − 1 products that were reshared; the
/// last one is derived locally). Each pair is (first, second) component; `left` is a bit.
#[derive(Debug)]
pub struct BitProducts<'a> {
    /// The vector's index in the batch.
    pub vector: usize,
    /// The bit r_{k−1} of this level.
    pub left: (u8, u8),
    /// The entries of f (bit i = fᵢ; bits at and above `count` are not factors).
    pub right: (&'a Bits256, &'a Bits256),
    /// The products r_{k−1}·fᵢ after the resharing: this party's own masked share (first
    /// component) and the one received (second); bits above `count` are zero.
    pub products: (&'a mut Bits256, &'a Bits256),
    /// Number of products, M − 1 at level M.
    pub count: usize,
}

/// [`generate`], handing every level's products of every vector to `observe` (in level order,
/// vectors in order within a level) before they are used: the malicious layer records them for
/// verification. `observe` may change this party's own component of the products, which is
/// then used as changed — the attack tests model a party that adds an error to its share of a
/// product (and sends the same error, through a corrupting network) this way.
pub async fn generate_observed<N: Network>(
    party: &mut Party,
    net: &mut N,
    count: usize,
    observe: &mut impl FnMut(&mut BitProducts),
) -> Result<Vec<OneHot256>, MaestroError> {
    let me = party.id();
    let r = party.prss_mut().random(count);
    let mask = |b: u8| 0u64.wrapping_sub(u64::from(b & 1));
    let bit = |s: &RssShare, i: usize| (mask(s.first().0 >> i), mask(s.second().0 >> i));
    // The constant 1 in component 0: party 0's first component, party 2's second.
    let one = (u64::from(me == 0), u64::from(me == 2));
    let mut f: Vec<(Bits256, Bits256)> = r
        .iter()
        .map(|s| {
            let r0 = bit(s, 0);
            let entries = |r0: u64, one: u64| [((r0 & 1) ^ one) | (r0 & 2), 0, 0, 0];
            (entries(r0.0, one.0), entries(r0.1, one.1))
        })
        .collect();
    let mut m = 2;
    for k in 1..8 {
        let products = m - 1;
        let total = count * products;
        let low: Bits256 = core::array::from_fn(|w| low_mask(products.saturating_sub(64 * w)));
        let mut writer = BitWriter::with_capacity(total);
        for (s, (f0, f1)) in r.iter().zip(&f) {
            let (v0, v1) = bit(s, k);
            let local: Bits256 = core::array::from_fn(|w| ((v0 & (f0[w] ^ f1[w])) ^ (v1 & f0[w])) & low[w]);
            writer.push_bits(&local, products);
        }
        let (message, received) = reshare_bit_message(party, net, writer.finish(total), total).await?;
        let (own, next) = (BitReader::new(&message), BitReader::new(&received));
        for (idx, (s, fv)) in r.iter().zip(f.iter_mut()).enumerate() {
            let (v0, v1) = bit(s, k);
            let advance = |component: &Bits256, e: Bits256, v: u64| {
                // The last product r_{k−1}·f_{M−1} = r_{k−1} − Σ of the others (f sums to 1).
                let last = (v & 1) ^ parity(&e);
                let e = xor(&e, &shl(&[last, 0, 0, 0], products));
                xor(&xor(component, &e), &shl(&e, m))
            };
            let pos = idx * products;
            let (mut p0, p1) = (own.get_bits(pos, products), next.get_bits(pos, products));
            observe(&mut BitProducts {
                vector: idx,
                left: ((v0 & 1) as u8, (v1 & 1) as u8),
                right: (&fv.0, &fv.1),
                products: (&mut p0, &p1),
                count: products,
            });
            *fv = (advance(&fv.0, p0, v0), advance(&fv.1, p1, v1));
        }
        m *= 2;
    }
    Ok(r.into_iter().zip(f).map(|(r, e)| OneHot256 { r, e }).collect())
}

/// For each output bit b, the set of j (bit j) with bit b of S\[j\] set.
pub(in crate::proto::maestro) fn output_bit_masks(table: &[u8; 256]) -> [Bits256; 8] {
    let mut masks = [[0u64; 4]; 8];
    for (j, &t) in table.iter().enumerate() {
        for (b, mask) in masks.iter_mut().enumerate() {
            mask[j / 64] |= u64::from((t >> b) & 1) << (j % 64);
        }
    }
    masks
}

/// e permuted by the public c: bit j of the result is bit j ⊕ c of `e` (butterfly swaps selected
/// by masks from the bits of c rather than branches: c is public, but random, so branches would
/// mispredict).
#[inline]
fn xor_permute(e: &Bits256, c: u8) -> Bits256 {
    const SWAP: [(u64, u32); 6] = [
        (0x5555_5555_5555_5555, 1),
        (0x3333_3333_3333_3333, 2),
        (0x0f0f_0f0f_0f0f_0f0f, 4),
        (0x00ff_00ff_00ff_00ff, 8),
        (0x0000_ffff_0000_ffff, 16),
        (0x0000_0000_ffff_ffff, 32),
    ];
    let select = |k: u32| 0u64.wrapping_sub(u64::from((c >> k) & 1));
    let mut out = *e;
    for (k, &(mask, shift)) in SWAP.iter().enumerate() {
        let on = select(k as u32);
        for w in out.iter_mut() {
            let swapped = ((*w & mask) << shift) | ((*w >> shift) & mask);
            *w ^= (*w ^ swapped) & on;
        }
    }
    for (k, distance) in [(6, 1), (7, 2)] {
        let on = select(k);
        let old = out;
        for (i, w) in out.iter_mut().enumerate() {
            *w ^= (*w ^ old[i ^ distance]) & on;
        }
    }
    out
}

/// One component of Σⱼ e_j · S\[c ⊕ j\] = Σⱼ e_{c ⊕ j} · S\[j\]: output bit b is the parity of
/// the permuted e under `masks[b]`.
fn lookup_component(e: &Bits256, c: u8, masks: &[Bits256; 8]) -> Gf256 {
    let permuted = xor_permute(e, c);
    // Byte b of `folded` has the parity of permuted ∧ masks[b] (folded to 8 bits).
    let mut folded = 0u64;
    for (b, mask) in masks.iter().enumerate() {
        let mut t = permuted.iter().zip(mask).fold(0, |acc, (p, m)| acc ^ (p & m));
        t ^= t >> 32;
        t ^= t >> 16;
        t ^= t >> 8;
        folded |= (t & 0xff) << (8 * b);
    }
    folded ^= folded >> 4;
    folded ^= folded >> 2;
    folded ^= folded >> 1;
    // Bit 0 of byte b moves to bit 56 + b; the products never carry into each other.
    Gf256(((folded & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8)
}

/// The semi-honest (2,3) LUT-256 S-box layer: a [`Party`] and its preprocessed vectors.
#[derive(Debug)]
pub struct Lut256Sbox {
    party: Party,
    pool: PreprocessedPool<OneHot256>,
    masks: [Bits256; 8],
    inv_masks: [Bits256; 8],
}

impl Lut256Sbox {
    /// Wraps a party (after its PRSS setup) with an empty pool.
    pub fn new(party: Party) -> Self {
        Lut256Sbox {
            party,
            pool: PreprocessedPool::default(),
            masks: output_bit_masks(&sbox_table()),
            inv_masks: output_bit_masks(&inv_sbox_table()),
        }
    }

    /// Preprocessing: adds `count` random one-hot vectors (one per future S-box), in seven
    /// rounds whatever `count`.
    pub async fn preprocess<N: Network>(&mut self, net: &mut N, count: usize) -> Result<(), MaestroError> {
        let vectors = generate(&mut self.party, net, count).await?;
        self.pool.extend(vectors);
        Ok(())
    }

    /// Preprocessed vectors not used yet.
    pub fn available(&self) -> usize {
        self.pool.available()
    }

    /// The party, for inputs, openings and other operations around the AES calls.
    pub fn party(&mut self) -> &mut Party {
        &mut self.party
    }

    /// Unwraps the party (unused vectors are dropped).
    pub fn into_party(self) -> Party {
        self.party
    }
}

/// Replaces every byte x of `bytes` by a sharing of `T[x]` for the table T whose output-bit masks
/// are `masks`, one preprocessed vector each
/// (taken before any communication, so a short pool fails without sending). `opened` sees the
/// opened c = x + r before they are used (the malicious layer adds them to its view).
pub(in crate::proto::maestro) async fn lookup<N: Network>(
    party: &mut Party,
    pool: &mut PreprocessedPool<OneHot256>,
    net: &mut N,
    bytes: &mut [RssShare],
    masks: &[Bits256; 8],
    opened: &mut impl FnMut(&[Gf256]),
) -> Result<(), MaestroError> {
    let vectors = pool.take(bytes.len())?;
    let masked: Vec<RssShare> = bytes.iter().zip(&vectors).map(|(&x, v)| x + v.r).collect();
    let c = party.open(net, &masked).await?;
    opened(&c);
    let me = party.id();
    for ((b, c), v) in bytes.iter_mut().zip(c).zip(&vectors) {
        let first = lookup_component(&v.e.0, c.0, masks);
        let second = lookup_component(&v.e.1, c.0, masks);
        *b = RssShare::new(me, first, second);
    }
    Ok(())
}

impl SboxLayer for Lut256Sbox {
    type Share = RssShare;

    /// Consumes one preprocessed vector per byte; fails with
    /// [`MaestroError::PreprocessingExhausted`] (before any communication) if too few are left.
    async fn sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [RssShare],
    ) -> Result<(), MaestroError> {
        lookup(&mut self.party, &mut self.pool, net, bytes, &self.masks, &mut |_| {}).await
    }

    /// The same lookup in the inverse S-box table.
    async fn inv_sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [RssShare],
    ) -> Result<(), MaestroError> {
        lookup(&mut self.party, &mut self.pool, net, bytes, &self.inv_masks, &mut |_| {}).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::memory::run_session;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    #[test]
    fn lookup_of_a_one_hot_vector_is_the_sbox_of_the_unmasked_index() {
        let table = sbox_table();
        let masks = output_bit_masks(&table);
        for v in (0..=255u8).step_by(7) {
            for r in 0..=255u8 {
                let mut e = [0u64; 4];
                set(&mut e, usize::from(r), 1);
                assert_eq!(lookup_component(&e, v ^ r, &masks), Gf256(table[usize::from(v)]), "v {v}, r {r}");
            }
        }
        // Linearity in e, against the definition Σⱼ e_j · S[c ⊕ j].
        let e: Bits256 =
            [0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210, 0x0f0f_1234_0000_ffff, 0x8000_0000_0000_0001];
        for c in [0u8, 1, 0x40, 0x80, 0xc3, 0xff] {
            let expected = (0..256)
                .filter(|&j| (e[j / 64] >> (j % 64)) & 1 == 1)
                .fold(0u8, |acc, j| acc ^ table[j ^ usize::from(c)]);
            assert_eq!(lookup_component(&e, c, &masks), Gf256(expected), "c {c:#04x}");
        }
    }

    #[test]
    fn bit_writer_and_reader_roundtrip_runs() {
        let value: Bits256 = [0xdead_beef_0123_4567, 0x89ab_cdef_f00d_cafe, 0, 0];
        for n in [1, 3, 63, 64, 65, 127] {
            let mut w = BitWriter::with_capacity(5 * n);
            let run: Bits256 = core::array::from_fn(|i| value[i] & low_mask(n.saturating_sub(64 * i)));
            for _ in 0..5 {
                w.push_bits(&run, n);
            }
            let bytes = w.finish(5 * n);
            assert_eq!(bytes.len(), (5 * n).div_ceil(8));
            let r = BitReader::new(&bytes);
            for k in 0..5 {
                assert_eq!(r.get_bits(k * n, n), run, "n {n}, run {k}");
            }
        }
        assert_eq!(shl(&[1, 0, 0, 0], 127), [0, 1 << 63, 0, 0]);
        assert_eq!(shl(&[u64::MAX, 1, 0, 0], 64), [0, u64::MAX, 1, 0]);
    }

    #[test]
    fn vectors_are_one_hot_at_r_with_247_bits_in_7_rounds() {
        let count = 64;
        let results = run_session(3, |mut net| async move {
            let mut rng = ChaCha20Rng::seed_from_u64(60 + net.party() as u64);
            let mut party = Party::setup(&mut net, &mut rng).await.unwrap();
            let before = net.stats();
            let v = generate(&mut party, &mut net, count).await.unwrap();
            (v, net.stats().since(&before))
        });
        for k in 0..count {
            let r = RssShare::reconstruct(&[0, 1, 2].map(|p| results[p].0[k].r)).expect("consistent r");
            for p in 0..3 {
                assert_eq!(results[p].0[k].e.1, results[(p + 1) % 3].0[k].e.0, "replication of e");
            }
            let e: Bits256 = core::array::from_fn(|w| (0..3).fold(0, |acc, p| acc ^ results[p].0[k].e.0[w]));
            let mut expected = [0u64; 4];
            set(&mut expected, usize::from(r.0), 1);
            assert_eq!(e, expected, "vector {k}");
        }
        for (_, stats) in &results {
            assert_eq!((stats.bytes_sent * 8, stats.rounds), (247 * count as u64, 7));
        }
    }
}
