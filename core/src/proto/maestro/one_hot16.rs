//! Random one-hot vectors of length 16 on replicated shares (MAESTRO Appendix A, Protocol 8,
//! semi-honest: without step 6's verification), the preprocessing of the LUT-16 S-box.
//!
//! Four random shared bits r₀..r₃ come from the PRSS (𝓕_rand, no communication); the 11
//! products of two or more of them are computed in two rounds of bit multiplications:
//! round 1 the six products rᵢrⱼ (i > j), round 2 the four rᵢrⱼrₖ = rᵢ·(rⱼrₖ) and
//! r₃r₂r₁r₀ = (r₃r₂)·(r₁r₀). With m_S = ∏_{i∈S} rᵢ (m_∅ = 1, a public constant), Eq. (4)
//! e_j = ∏ᵢ (j\[i\] ⊕ rᵢ ⊕ 1) expands to e_j = Σ_{S ⊇ J} m_S, J the set bits of j: local and
//! linear, computed with masks and parities only (no branch or index on shares).
//!
//! Cost per vector and party: 11 bits (bit-packed: a batch of n vectors sends ⌈6n/8⌉ and
//! ⌈5n/8⌉ bytes) in 2 rounds per batch; Table 1's LUT-16 preprocessing is 160 vectors per
//! block = 1760 bits, 2 rounds.

use super::error::{MaestroError, Step};
use super::gf16_rss::Rss16;
use super::msg::{recv_bytes, send_bytes};
use super::online::Party;
use crate::field::Gf16;
use crate::net::{Network, PartyId};

/// A shared random r ∈ GF(2^4) and the one-hot vector e⁽ʳ⁾: bit j of each component of `e` is
/// the component of e_j.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OneHot16 {
    /// Shares of r (bit i = rᵢ).
    pub r: Rss16,
    /// Party's components (first, second) of e_0..e_15, bit j = e_j.
    pub e: (u16, u16),
}

/// Replicated share components of one bit, each 0 or 1.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BitPair(pub(crate) u8, pub(crate) u8);

/// Packs bits (0/1 values) LSB-first into bytes.
pub fn pack_bits(bits: &[u8]) -> Vec<u8> {
    bits.chunks(8).map(|c| c.iter().enumerate().fold(0u8, |acc, (i, &b)| acc | (b & 1) << i)).collect()
}

/// Unpacks `count` bits from a message of `from`, checking its length and zero padding.
pub fn unpack_bits(bytes: &[u8], count: usize, from: PartyId, step: Step) -> Result<Vec<u8>, MaestroError> {
    let expected = count.div_ceil(8);
    if bytes.len() != expected {
        return Err(MaestroError::MalformedMessage { from, step, expected, actual: bytes.len() });
    }
    if count % 8 != 0 && bytes[expected - 1] >> (count % 8) != 0 {
        return Err(MaestroError::NonzeroBitPadding { from, step });
    }
    Ok((0..count).map(|k| (bytes[k / 8] >> (k % 8)) & 1).collect())
}

/// Batched AND of shared bits by resharing (the GF(2) case of [`Party::mul`]): ⌈ℓ/8⌉ bytes, one
/// round.
async fn mul_bits<N: Network>(
    party: &mut Party,
    net: &mut N,
    a: &[BitPair],
    b: &[BitPair],
) -> Result<Vec<BitPair>, MaestroError> {
    let products = a.iter().zip(b).map(|(x, y)| (x.0 & (y.0 ^ y.1)) ^ (x.1 & y.0)).collect();
    reshare_bits(party, net, products).await
}

/// The resharing round of a batched AND: `local[k]` is this party's cross-term sum of product k
/// (xᵢyᵢ + xᵢyᵢ₊₁ + xᵢ₊₁yᵢ); a PRSS zero bit is added and the result sent to party i−1.
pub(crate) async fn reshare_bits<N: Network>(
    party: &mut Party,
    net: &mut N,
    mut local: Vec<u8>,
) -> Result<Vec<BitPair>, MaestroError> {
    let me = party.id();
    let zero = party.prss_mut().zero(local.len().div_ceil(8));
    for (k, z) in local.iter_mut().enumerate() {
        *z ^= (zero[k / 8].0 >> (k % 8)) & 1;
    }
    let step = Step::OneHotPreprocessing;
    send_bytes(net, (me + 2) % 3, pack_bits(&local), step)?;
    let from = (me + 1) % 3;
    let bytes = recv_bytes(net, from, local.len().div_ceil(8), step).await?;
    let z_next = unpack_bits(&bytes, local.len(), from, step)?;
    Ok(local.into_iter().zip(z_next).map(|(f, s)| BitPair(f, s)).collect())
}

/// Pairs (i, j), i > j, multiplied in round 1, in this order.
const PAIRS: [(usize, usize); 6] = [(1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2)];

/// Index in [`PAIRS`] of rᵢrⱼ.
const fn pair(i: usize, j: usize) -> usize {
    let mut k = 0;
    while !(PAIRS[k].0 == i && PAIRS[k].1 == j) {
        k += 1;
    }
    k
}

/// Round 2 as (bit index or pair, pair) operands: r₂·r₁r₀, r₃·r₁r₀, r₃·r₂r₀, r₃·r₂r₁, r₃r₂·r₁r₀,
/// with the subset each product is the monomial of. `Left::Bit(i)` is rᵢ, `Left::Pair(k)` is
/// PAIRS\[k\].
#[derive(Clone, Copy)]
enum Left {
    Bit(usize),
    Pair(usize),
}

const ROUND2: [(Left, usize, u16); 5] = [
    (Left::Bit(2), pair(1, 0), 0b0111),
    (Left::Bit(3), pair(1, 0), 0b1011),
    (Left::Bit(3), pair(2, 0), 0b1101),
    (Left::Bit(3), pair(2, 1), 0b1110),
    (Left::Pair(pair(3, 2)), pair(1, 0), 0b1111),
];

/// For every j, the mask of subsets S ⊇ J (bit S set), so e_j = parity(m & SUPERSETS\[j\]).
const SUPERSETS: [u16; 16] = {
    let mut masks = [0u16; 16];
    let mut j = 0;
    while j < 16 {
        let mut s = 0;
        while s < 16 {
            if s & j == j {
                masks[j] |= 1 << s;
            }
            s += 1;
        }
        j += 1;
    }
    masks
};

/// The one-hot components from the monomial components `m` (bit S = component of m_S).
fn expand(m: u16) -> u16 {
    let mut e = 0u16;
    for (j, mask) in SUPERSETS.iter().enumerate() {
        e |= (((m & mask).count_ones() & 1) as u16) << j;
    }
    e
}

/// `count` random one-hot vectors of length 16 in two rounds.
pub async fn generate<N: Network>(
    party: &mut Party,
    net: &mut N,
    count: usize,
) -> Result<Vec<OneHot16>, MaestroError> {
    let me = party.id();
    let r: Vec<Rss16> = party
        .prss_mut()
        .random(count)
        .into_iter()
        .map(|s| Rss16::new(me, Gf16::new(s.first().0), Gf16::new(s.second().0)))
        .collect();
    let bit = |s: &Rss16, i: usize| BitPair((s.first().value() >> i) & 1, (s.second().value() >> i) & 1);
    let left: Vec<BitPair> = r.iter().flat_map(|s| PAIRS.map(|(i, _)| bit(s, i))).collect();
    let right: Vec<BitPair> = r.iter().flat_map(|s| PAIRS.map(|(_, j)| bit(s, j))).collect();
    let pairs = mul_bits(party, net, &left, &right).await?;
    let mut left = Vec::with_capacity(5 * count);
    let mut right = Vec::with_capacity(5 * count);
    for (s, p) in r.iter().zip(pairs.chunks_exact(6)) {
        for (l, k, _) in ROUND2 {
            left.push(match l {
                Left::Bit(i) => bit(s, i),
                Left::Pair(q) => p[q],
            });
            right.push(p[k]);
        }
    }
    let higher = mul_bits(party, net, &left, &right).await?;
    // m_∅ = 1 goes into component 0: party 0's first component, party 2's second.
    let one = (u16::from(me == 0), u16::from(me == 2));
    Ok(r.iter()
        .zip(pairs.chunks_exact(6))
        .zip(higher.chunks_exact(5))
        .map(|((s, p), h)| {
            let mut m = (one.0, one.1);
            let mut set = |subset: u16, b: BitPair| {
                m.0 |= u16::from(b.0) << subset;
                m.1 |= u16::from(b.1) << subset;
            };
            for i in 0..4 {
                set(1 << i, bit(s, i));
            }
            for (k, &(i, j)) in PAIRS.iter().enumerate() {
                set((1 << i) | (1 << j), p[k]);
            }
            for (k, &(_, _, subset)) in ROUND2.iter().enumerate() {
                set(subset, h[k]);
            }
            OneHot16 { r: *s, e: (expand(m.0), expand(m.1)) }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::memory::run_session;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    #[test]
    fn bit_packing_roundtrips_and_rejects_bad_messages() {
        let bits: Vec<u8> = (0..21u32).map(|i| (i * 7 % 3 == 0) as u8).collect();
        for len in [0, 1, 8, 9, 21] {
            let bytes = pack_bits(&bits[..len]);
            assert_eq!(unpack_bits(&bytes, len, 0, Step::OneHotPreprocessing).unwrap(), &bits[..len]);
        }
        assert_eq!(
            unpack_bits(&[0xff], 3, 2, Step::OneHotPreprocessing),
            Err(MaestroError::NonzeroBitPadding { from: 2, step: Step::OneHotPreprocessing })
        );
        assert_eq!(
            unpack_bits(&[0; 2], 3, 2, Step::OneHotPreprocessing),
            Err(MaestroError::MalformedMessage {
                from: 2,
                step: Step::OneHotPreprocessing,
                expected: 1,
                actual: 2
            })
        );
    }

    #[test]
    fn vectors_are_one_hot_at_r_with_11_bits_in_2_rounds() {
        let count = 800;
        let results = run_session(3, |mut net| async move {
            let mut rng = ChaCha20Rng::seed_from_u64(50 + net.party() as u64);
            let mut party = Party::setup(&mut net, &mut rng).await.unwrap();
            let before = net.stats();
            let v = generate(&mut party, &mut net, count).await.unwrap();
            (v, net.stats().since(&before))
        });
        let mut seen = [0usize; 16];
        for k in 0..count {
            let r = Rss16::reconstruct(&[0, 1, 2].map(|p| results[p].0[k].r)).expect("consistent r");
            for p in 0..3 {
                assert_eq!(results[p].0[k].e.1, results[(p + 1) % 3].0[k].e.0, "replication of e");
            }
            let e = results[0].0[k].e.0 ^ results[1].0[k].e.0 ^ results[2].0[k].e.0;
            assert_eq!(e, 1 << r.value(), "vector {k}");
            seen[r.value() as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 20), "r should be spread over GF(2^4): {seen:?}");
        for (_, stats) in &results {
            assert_eq!((stats.bytes_sent * 8, stats.rounds), (11 * count as u64, 2));
        }
    }
}
