//! The semi-honest (2,3) LUT-256 S-box (MAESTRO §3.4–3.5: Protocol 4's lookup on replicated
//! input, the "⟦·⟧ ↦ ⟦·⟧ (Prot. 4 variant)" of Table 4, with length-256 random one-hot vectors
//! from Protocol 5; Table 1 row "⟦·⟧-LUT-256", without the malicious verification).
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
//! and compute ⟦S(x)⟧ = Σⱼ ⟦e_j⟧ · S\[c ⊕ j\] locally — S is indexed only by the public c ⊕ j and
//! the share bits of e select entries by masking. 1280 bits and 10 rounds per block, as in
//! Table 1. InvSubBytes is the same lookup in the inverse S-box table, at the same cost.

use super::error::MaestroError;
use super::one_hot16::{reshare_bits, BitPair};
use super::online::Party;
use super::pool::PreprocessedPool;
use super::rss::RssShare;
use super::sbox::SboxLayer;
use crate::aes::sbox::{inv_sbox_table, sbox_table};
use crate::field::Gf256;
use crate::net::Network;

/// 256 share bits of one component, bit j in word j / 64.
type Bits256 = [u64; 4];

fn get(bits: &Bits256, j: usize) -> u8 {
    ((bits[j / 64] >> (j % 64)) & 1) as u8
}

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

/// `count` random one-hot vectors of length 256 in seven rounds.
pub async fn generate<N: Network>(
    party: &mut Party,
    net: &mut N,
    count: usize,
) -> Result<Vec<OneHot256>, MaestroError> {
    let me = party.id();
    let r = party.prss_mut().random(count);
    let bit = |s: &RssShare, i: usize| BitPair((s.first().0 >> i) & 1, (s.second().0 >> i) & 1);
    // The constant 1 in component 0: party 0's first component, party 2's second.
    let one = BitPair(u8::from(me == 0), u8::from(me == 2));
    let mut f: Vec<(Bits256, Bits256)> = r
        .iter()
        .map(|s| {
            let r0 = bit(s, 0);
            let mut v = ([0u64; 4], [0u64; 4]);
            set(&mut v.0, 0, r0.0 ^ one.0);
            set(&mut v.1, 0, r0.1 ^ one.1);
            set(&mut v.0, 1, r0.0);
            set(&mut v.1, 1, r0.1);
            v
        })
        .collect();
    let mut m = 2;
    for k in 1..8 {
        let local: Vec<u8> = r
            .iter()
            .zip(&f)
            .flat_map(|(s, fv)| {
                let v = bit(s, k);
                (0..m - 1).map(move |i| {
                    let (f0, f1) = (get(&fv.0, i), get(&fv.1, i));
                    (v.0 & (f0 ^ f1)) ^ (v.1 & f0)
                })
            })
            .collect();
        let products = reshare_bits(party, net, local).await?;
        for ((s, fv), e) in r.iter().zip(f.iter_mut()).zip(products.chunks_exact(m - 1)) {
            let v = bit(s, k);
            // The last product r_{k−1}·f_{M−1} = r_{k−1} − Σ of the others (f sums to 1).
            let last = e.iter().fold(v, |acc, p| BitPair(acc.0 ^ p.0, acc.1 ^ p.1));
            let mut next = ([0u64; 4], [0u64; 4]);
            for (i, ei) in e.iter().copied().chain([last]).enumerate() {
                set(&mut next.0, i, get(&fv.0, i) ^ ei.0);
                set(&mut next.1, i, get(&fv.1, i) ^ ei.1);
                set(&mut next.0, m + i, ei.0);
                set(&mut next.1, m + i, ei.1);
            }
            *fv = next;
        }
        m *= 2;
    }
    Ok(r.into_iter().zip(f).map(|(r, e)| OneHot256 { r, e }).collect())
}

/// One component of Σⱼ e_j · S\[c ⊕ j\].
fn lookup_component(e: &Bits256, c: u8, table: &[u8; 256]) -> Gf256 {
    let mut acc = 0u8;
    for j in 0..256usize {
        let select = 0u8.wrapping_sub(get(e, j));
        acc ^= table[usize::from(c) ^ j] & select;
    }
    Gf256(acc)
}

/// The semi-honest (2,3) LUT-256 S-box layer: a [`Party`] and its preprocessed vectors.
#[derive(Debug)]
pub struct Lut256Sbox {
    party: Party,
    pool: PreprocessedPool<OneHot256>,
    table: [u8; 256],
    inv_table: [u8; 256],
}

impl Lut256Sbox {
    /// Wraps a party (after its PRSS setup) with an empty pool.
    pub fn new(party: Party) -> Self {
        Lut256Sbox {
            party,
            pool: PreprocessedPool::default(),
            table: sbox_table(),
            inv_table: inv_sbox_table(),
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

/// Replaces every byte x of `bytes` by a sharing of `table[x]`, one preprocessed vector each
/// (taken before any communication, so a short pool fails without sending).
async fn lookup<N: Network>(
    party: &mut Party,
    pool: &mut PreprocessedPool<OneHot256>,
    net: &mut N,
    bytes: &mut [RssShare],
    table: &[u8; 256],
) -> Result<(), MaestroError> {
    let vectors = pool.take(bytes.len())?;
    let masked: Vec<RssShare> = bytes.iter().zip(&vectors).map(|(&x, v)| x + v.r).collect();
    let opened = party.open(net, &masked).await?;
    let me = party.id();
    for ((b, c), v) in bytes.iter_mut().zip(opened).zip(&vectors) {
        let first = lookup_component(&v.e.0, c.0, table);
        let second = lookup_component(&v.e.1, c.0, table);
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
        lookup(&mut self.party, &mut self.pool, net, bytes, &self.table).await
    }

    /// The same lookup in the inverse S-box table.
    async fn inv_sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [RssShare],
    ) -> Result<(), MaestroError> {
        lookup(&mut self.party, &mut self.pool, net, bytes, &self.inv_table).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::memory::run_session;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

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
