//! The semi-honest LUT-16 S-box (MAESTRO §3.2 Protocol 3 with the GF(2^4) inversion by the table
//! lookup of Protocol 4, on random one-hot vectors from Protocol 8; Table 1 row
//! "GF(2^4)-LUT-16", without the malicious verification steps).
//!
//! **Preprocessing** ([`Lut16Sbox::preprocess`]): one random one-hot vector of length 16 per
//! S-box ([`super::one_hot16`]): 11 bits per S-box and party, 2 rounds per batch — 1760 bits per
//! AES-128 block, as in Table 1.
//!
//! **Online**, per S-box:
//! 1. (a_h, a_l) = Φ(x) share-wise;
//! 2. additive ⟨⟨v⟩⟩ of v = {E}·a_h² + a_h·a_l + a_l² by local multiplication (step 6–7);
//! 3. round 1: open c = v + r (each party sends its masked, zero-share re-randomized additive
//!    share to both others: 2 × 4 bits);
//! 4. \[\[v⁻¹\]\] = Σⱼ \[\[e_j\]\] · T\[c ⊕ j\], T the GF(2^4) inverse table (local; T is indexed
//!    only by the public c, and e's share bits select entries by masking, not by branching);
//! 5. round 2: a'_h = a_h · v⁻¹, a'_l = (a_h + a_l) · v⁻¹ (8 bits);
//! 6. Φ⁻¹ and the affine map share-wise.
//!
//! Online: 16 bits in 2 rounds per S-box — 2560 bits and 20 rounds per block, as in Table 1.
//!
//! InvSubBytes runs the inverse affine map share-wise and then the same inversion routine (one
//! preprocessed vector per byte), at the same cost.

use super::error::{MaestroError, Step};
use super::gf16_rss::{from_tower, mul, pack_nibbles, to_tower, unpack_nibbles, zero_nibbles, Rss16};
use super::msg::{recv_bytes, send_bytes};
use super::one_hot16::{self, OneHot16};
use super::online::Party;
use super::pool::PreprocessedPool;
use super::rss::RssShare;
use super::sbox::{apply_affine, inv_affine, SboxLayer};
use crate::field::{Field, Gf16, Gf16Squared};
use crate::net::Network;

/// The public table T\[v\] = v⁻¹ in GF(2^4) (0 ↦ 0), as x¹⁴.
const INVERSE_TABLE: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut v = 0;
    while v < 16 {
        let x2 = Gf16::mul_const_time(v as u8, v as u8);
        let x4 = Gf16::mul_const_time(x2, x2);
        let x8 = Gf16::mul_const_time(x4, x4);
        t[v] = Gf16::mul_const_time(Gf16::mul_const_time(x8, x4), x2);
        v += 1;
    }
    t
};

/// One component of Σⱼ e_j · T\[c ⊕ j\]: `e` holds the component's bits e_0..e_15.
fn lookup_component(e: u16, c: Gf16) -> Gf16 {
    let mut acc = 0u8;
    for j in 0..16u8 {
        let select = 0u8.wrapping_sub(((e >> j) & 1) as u8);
        acc ^= INVERSE_TABLE[usize::from(c.value() ^ j)] & select;
    }
    Gf16::new(acc)
}

/// Shares of x⁻¹ for every x with one preprocessed vector each, in two rounds.
async fn inverse<N: Network>(
    party: &mut Party,
    net: &mut N,
    x: &[RssShare],
    vectors: &[OneHot16],
) -> Result<Vec<RssShare>, MaestroError> {
    inverse_observed(party, net, x, vectors, &mut |_| {}, &mut |_, _, _| {}).await
}

/// [`inverse`], calling `opened(c)` with the opened masked indices and `multiplied(a, b, a·b)`
/// after the batched multiplication (the malicious variant records them for verification).
pub(super) async fn inverse_observed<N: Network>(
    party: &mut Party,
    net: &mut N,
    x: &[RssShare],
    vectors: &[OneHot16],
    opened: &mut impl FnMut(&[Gf16]),
    multiplied: &mut impl FnMut(&[Rss16], &[Rss16], &[Rss16]),
) -> Result<Vec<RssShare>, MaestroError> {
    let me = party.id();
    let (high, low): (Vec<Rss16>, Vec<Rss16>) = x.iter().map(|&s| to_tower(s)).unzip();
    let alpha = zero_nibbles(party, x.len());
    // ⟨⟨v + r⟩⟩ + ⟨⟨0⟩⟩: the cross terms of a_h·a_l, the linear part of v and r's first
    // components each sum over the parties to their value.
    let masked: Vec<Gf16> = high
        .iter()
        .zip(&low)
        .zip(vectors)
        .zip(alpha)
        .map(|(((h, l), oh), a)| {
            let cross = h.first() * (l.first() + l.second()) + h.second() * l.first();
            let linear = h.first().square() * Gf16Squared::E + l.first().square();
            cross + linear + oh.r.first() + a
        })
        .collect();
    let message = pack_nibbles(&masked);
    let (next, prev) = ((me + 1) % 3, (me + 2) % 3);
    send_bytes(net, next, message.clone(), Step::LookupOpen)?;
    send_bytes(net, prev, message, Step::LookupOpen)?;
    let expected = x.len().div_ceil(2);
    let from_next = recv_bytes(net, next, expected, Step::LookupOpen).await?;
    let from_prev = recv_bytes(net, prev, expected, Step::LookupOpen).await?;
    let from_next = unpack_nibbles(&from_next, x.len(), next, Step::LookupOpen)?;
    let from_prev = unpack_nibbles(&from_prev, x.len(), prev, Step::LookupOpen)?;
    let c: Vec<Gf16> =
        masked.iter().zip(from_next).zip(from_prev).map(|((&own, n), p)| own + n + p).collect();
    opened(&c);
    let v_inv: Vec<Rss16> = c
        .iter()
        .zip(vectors)
        .map(|(&c, oh)| Rss16::new(me, lookup_component(oh.e.0, c), lookup_component(oh.e.1, c)))
        .collect();
    let left: Vec<Rss16> = high.iter().copied().chain(high.iter().zip(&low).map(|(&h, &l)| h + l)).collect();
    let right: Vec<Rss16> = v_inv.iter().chain(&v_inv).copied().collect();
    let products = mul(party, net, &left, &right).await?;
    multiplied(&left, &right, &products);
    let (new_high, new_low) = products.split_at(x.len());
    Ok(new_high.iter().zip(new_low).map(|(&h, &l)| from_tower(h, l)).collect())
}

/// The semi-honest LUT-16 S-box layer: a [`Party`] and its pool of preprocessed vectors.
#[derive(Debug)]
pub struct Lut16Sbox {
    party: Party,
    pool: PreprocessedPool<OneHot16>,
}

impl Lut16Sbox {
    /// Wraps a party (after its PRSS setup) with an empty pool.
    pub fn new(party: Party) -> Self {
        Lut16Sbox { party, pool: PreprocessedPool::default() }
    }

    /// Preprocessing: adds `count` random one-hot vectors (one per future S-box) to the pool, in
    /// two rounds whatever `count`. AES-128 needs 40 for the key schedule and 160 per block.
    pub async fn preprocess<N: Network>(&mut self, net: &mut N, count: usize) -> Result<(), MaestroError> {
        let vectors = one_hot16::generate(&mut self.party, net, count).await?;
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

impl SboxLayer for Lut16Sbox {
    type Share = RssShare;

    /// Consumes one preprocessed vector per byte; fails with
    /// [`MaestroError::PreprocessingExhausted`] (before any communication) if too few are left.
    async fn sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [RssShare],
    ) -> Result<(), MaestroError> {
        let vectors = self.pool.take(bytes.len())?;
        let inverses = inverse(&mut self.party, net, bytes, &vectors).await?;
        apply_affine(bytes, inverses);
        Ok(())
    }

    /// The inverse affine map, then the same inversion as `sub_bytes` (one vector per byte).
    async fn inv_sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [RssShare],
    ) -> Result<(), MaestroError> {
        let vectors = self.pool.take(bytes.len())?;
        let inverses = inverse(&mut self.party, net, &inv_affine(bytes), &vectors).await?;
        bytes.copy_from_slice(&inverses);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_of_a_one_hot_vector_is_the_inverse_of_the_unmasked_index() {
        for v in 0..16u8 {
            assert_eq!(Gf16::new(INVERSE_TABLE[usize::from(v)]), Gf16::new(v).inverse());
            for r in 0..16u8 {
                let c = Gf16::new(v ^ r);
                assert_eq!(lookup_component(1 << r, c), Gf16::new(v).inverse(), "v {v}, r {r}");
            }
        }
        // Linearity in e: the lookup of a sum of vectors is the sum of lookups.
        assert_eq!(
            lookup_component(0b101, Gf16::new(6)),
            lookup_component(0b001, Gf16::new(6)) + lookup_component(0b100, Gf16::new(6))
        );
    }
}
