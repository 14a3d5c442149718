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

use super::super::error::{MaestroError, Step};
use super::super::gf16_rss::pack_nibbles;
use super::super::msg::{recv_bytes, send_bytes};
use super::super::online::Party;
use super::super::packed::{
    add_cross_terms16, check_padding, clear_padding, from_tower_packed, mul16_packed, nibble_linear,
    to_tower_packed, Packed, Packed16,
};
use super::super::pool::PreprocessedPool;
use super::super::rss::RssShare;
use super::one_hot16::{self, OneHot16};
use super::Gf256Inversion;
use crate::field::{Gf16, Gf16Squared};
use crate::net::{Network, PartyId};

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

/// For each public c and output bit b, the set of j (bit j) with bit b of T\[c ⊕ j\] set, so
/// Σⱼ e_j · T\[c ⊕ j\] has bit b = parity(e ∧ mask); the four masks of one c sit in the four
/// 16-bit lanes of one word (bit b's mask in lane b) — indexed only by the public c.
const LOOKUP_MASKS: [u64; 16] = {
    let mut masks = [0u64; 16];
    let mut c = 0;
    while c < 16 {
        let mut j = 0;
        while j < 16 {
            let t = INVERSE_TABLE[c ^ j];
            let mut b = 0;
            while b < 4 {
                masks[c] |= (((t >> b) & 1) as u64) << (16 * b + j);
                b += 1;
            }
            j += 1;
        }
        c += 1;
    }
    masks
};

/// One component of Σⱼ e_j · T\[c ⊕ j\]: `e` holds the component's bits e_0..e_15 (masked
/// parities of all four output bits at once, one per 16-bit lane; no branch or index on e).
#[inline]
fn lookup_component(e: u16, c: Gf16) -> Gf16 {
    let mut t = (u64::from(e) * 0x0001_0001_0001_0001) & LOOKUP_MASKS[usize::from(c.value() & 0xf)];
    // Bit 0 of each lane becomes the parity of its lane (the shifts only fold bits of a lane into
    // its own low bits).
    t ^= t >> 8;
    t ^= t >> 4;
    t ^= t >> 2;
    t ^= t >> 1;
    Gf16::new(((t & 1) | (t >> 15 & 2) | (t >> 30 & 4) | (t >> 45 & 8)) as u8)
}

/// Shares of x⁻¹ for every x with one preprocessed vector each, in two rounds.
async fn inverse<N: Network>(
    party: &mut Party,
    net: &mut N,
    x: &Packed,
    vectors: &[OneHot16],
) -> Result<Packed, MaestroError> {
    inverse_packed_observed(party, net, x, vectors, &mut |_| {}, &mut |_, _, _| {}).await
}

/// [`inverse`] on shares one element at a time, calling `opened(c)` with the opened masked
/// indices and `multiplied(a, b, a·b)` on the nibble-packed shares after the batched
/// multiplication (the malicious variant records them for verification).
pub(in crate::proto::maestro) async fn inverse_observed<N: Network>(
    party: &mut Party,
    net: &mut N,
    x: &[RssShare],
    vectors: &[OneHot16],
    opened: &mut impl FnMut(&[Gf16]),
    multiplied: &mut impl FnMut(&Packed16, &Packed16, &Packed16),
) -> Result<Vec<RssShare>, MaestroError> {
    let x = Packed::from_shares(party.id(), x);
    Ok(inverse_packed_observed(party, net, &x, vectors, opened, multiplied).await?.to_shares())
}

async fn inverse_packed_observed<N: Network>(
    party: &mut Party,
    net: &mut N,
    x: &Packed,
    vectors: &[OneHot16],
    opened: &mut impl FnMut(&[Gf16]),
    multiplied: &mut impl FnMut(&Packed16, &Packed16, &Packed16),
) -> Result<Packed, MaestroError> {
    let me = party.id();
    let n = x.len();
    let (high, low) = to_tower_packed(x);
    // ⟨⟨v + r⟩⟩ + ⟨⟨0⟩⟩: the cross terms of a_h·a_l, the linear part of v and r's first
    // components each sum over the parties to their value.
    let mut masked = vec![0u8; n.div_ceil(2)];
    party.prss_mut().zero_into(&mut masked);
    add_cross_terms16(&mut masked, &high, &low);
    let linear_high = nibble_linear(|v| v * v * Gf16Squared::E).apply(&high.first);
    let linear_low = nibble_linear(|v| v * v).apply(&low.first);
    let r_first = pack_nibbles(&vectors.iter().map(|v| v.r.first()).collect::<Vec<_>>());
    for (((m, a), b), r) in masked.iter_mut().zip(linear_high).zip(linear_low).zip(r_first) {
        *m ^= a ^ b ^ r;
    }
    clear_padding(&mut masked, n);
    let (next, prev) = ((me + 1) % 3, (me + 2) % 3);
    send_bytes(net, next, masked.clone(), Step::LookupOpen)?;
    send_bytes(net, prev, masked.clone(), Step::LookupOpen)?;
    let expected = n.div_ceil(2);
    let from_next = recv_bytes(net, next, expected, Step::LookupOpen).await?;
    let from_prev = recv_bytes(net, prev, expected, Step::LookupOpen).await?;
    check_padding(&from_next, n, next, Step::LookupOpen)?;
    check_padding(&from_prev, n, prev, Step::LookupOpen)?;
    let c: Vec<Gf16> = (0..n)
        .map(|k| Gf16::new((masked[k / 2] ^ from_next[k / 2] ^ from_prev[k / 2]) >> (4 * (k % 2))))
        .collect();
    opened(&c);
    let mut inv_first = vec![0u8; expected];
    let mut inv_second = vec![0u8; expected];
    for (k, (oh, &c)) in vectors.iter().zip(&c).enumerate() {
        let shift = 4 * (k % 2);
        inv_first[k / 2] |= lookup_component(oh.e.0, c).value() << shift;
        inv_second[k / 2] |= lookup_component(oh.e.1, c).value() << shift;
    }
    let v_inv = Packed16 { party: me, len: n, first: inv_first, second: inv_second };
    let left = high.concat(&high.add(&low));
    let right = v_inv.concat(&v_inv);
    let products = mul16_packed(party, net, &left, &right).await?;
    multiplied(&left, &right, &products);
    let (new_high, new_low) = products.split_at(n);
    Ok(from_tower_packed(&new_high, &new_low))
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

/// Consumes one preprocessed vector per byte; fails with [`MaestroError::PreprocessingExhausted`]
/// (before any communication) if too few are left. SubBytes and InvSubBytes (inverse affine map
/// first) each take one vector per byte.
impl Gf256Inversion for Lut16Sbox {
    fn party_id(&self) -> PartyId {
        self.party.id()
    }

    async fn invert<N: Network>(&mut self, net: &mut N, x: &Packed) -> Result<Packed, MaestroError> {
        let vectors = self.pool.take(x.len())?;
        inverse(&mut self.party, net, x, &vectors).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::Field;

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

    #[test]
    fn lookup_is_the_masked_table_sum_for_every_component_and_index() {
        for c in 0..16u8 {
            for e in 0..=u16::MAX {
                let expected = (0..16usize)
                    .filter(|j| e >> j & 1 == 1)
                    .fold(0u8, |acc, j| acc ^ INVERSE_TABLE[usize::from(c) ^ j]);
                assert_eq!(lookup_component(e, Gf16::new(c)).value(), expected, "e {e:#06x}, c {c}");
            }
        }
    }
}
