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
//! Everything is bit-sliced: 64 vectors at a time as bit planes (one word per bit position), so
//! a round's products, the monomials and the superset-sum transform are a few word operations
//! per 64 vectors; 8×8 bit transposes convert between bytes and planes.
//!
//! Cost per vector and party: 11 bits (bit-packed: a batch of n vectors sends ⌈6n/8⌉ and
//! ⌈5n/8⌉ bytes) in 2 rounds per batch; Table 1's LUT-16 preprocessing is 160 vectors per
//! block = 1760 bits, 2 rounds.

use super::super::bits::{low_mask, reshare_bit_message, BitReader, BitWriter};
use super::super::error::{MaestroError, Step};
use super::super::gf16_rss::Rss16;
use super::super::online::Party;
use crate::code::transpose8;
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
    if !count.is_multiple_of(8) && bytes[expected - 1] >> (count % 8) != 0 {
        return Err(MaestroError::NonzeroBitPadding { from, step });
    }
    Ok((0..count).map(|k| (bytes[k / 8] >> (k % 8)) & 1).collect())
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

/// Vectors per group: the generator works on bit planes of 64 vectors (bit k of a plane word
/// belongs to vector 64g + k), so every product, sum and the superset-sum transform is one word
/// operation for 64 vectors.
const GROUP: usize = 64;

/// Vectors in group `g` of `count`.
fn group_len(count: usize, g: usize) -> usize {
    (count - GROUP * g).min(GROUP)
}

/// Bit planes of the low nibbles of up to 64 bytes: bit k of plane i is bit i of `bytes[k]`.
fn nibble_planes(bytes: &[u8]) -> [u64; 4] {
    let mut planes = [0u64; 4];
    for (b, chunk) in bytes.chunks(8).enumerate() {
        let mut row = [0u8; 8];
        row[..chunk.len()].copy_from_slice(chunk);
        let t = transpose8(u64::from_le_bytes(row)).to_le_bytes();
        for (plane, &byte) in planes.iter_mut().zip(&t) {
            *plane |= u64::from(byte) << (8 * b);
        }
    }
    planes
}

/// The inverse of 16 planes: `out[k]` gets bit J = bit k of `planes[J]`, for k < out.len() ≤ 64.
fn planes_to_u16(planes: &[u64; 16], out: &mut [u16]) {
    for (b, chunk) in out.chunks_mut(8).enumerate() {
        let gather = |half: usize| {
            let row: [u8; 8] = core::array::from_fn(|j| (planes[8 * half + j] >> (8 * b)) as u8);
            transpose8(u64::from_le_bytes(row)).to_le_bytes()
        };
        let (low, high) = (gather(0), gather(1));
        for (k, e) in chunk.iter_mut().enumerate() {
            *e = u16::from(low[k]) | u16::from(high[k]) << 8;
        }
    }
}

/// The superset-sum transform on 16 planes: plane J becomes Σ_{S ⊇ J} plane S (the one-hot
/// components from the monomial components, e_J = Σ_{S ⊇ J} m_S; four masked steps, no branch).
fn expand_planes(m: &mut [u64; 16]) {
    for i in 0..4 {
        for j in 0..16 {
            if j & (1 << i) == 0 {
                m[j] ^= m[j | 1 << i];
            }
        }
    }
}

/// One operand word quadruple of a product of bit planes: (left first, left second, right first,
/// right second) components.
type Operands = (u64, u64, u64, u64);

/// One batched round of bit products on planes, `W` products per vector: `operands[g][q]` gives
/// group g's operand planes of product q. Returns this party's two components of every product
/// plane after resharing (⌈count·W/8⌉ bytes, one round).
///
/// Message layout: for each group in order, the W product planes in order, each as its group's
/// vector count of bits, all written LSB-first with [`BitWriter`] (the bit count, and so the
/// size, is that of one run of W bits per vector).
async fn plane_products_round<N: Network, const W: usize>(
    party: &mut Party,
    net: &mut N,
    count: usize,
    operands: &[[Operands; W]],
) -> Result<Vec<[(u64, u64); W]>, MaestroError> {
    let total = count * W;
    let mut writer = BitWriter::with_capacity(total);
    for (g, group) in operands.iter().enumerate() {
        let m = group_len(count, g);
        for &(l0, l1, r0, r1) in group {
            writer.push(((l0 & (r0 ^ r1)) ^ (l1 & r0)) & low_mask(m), m as u32);
        }
    }
    let (message, received) = reshare_bit_message(party, net, writer.finish(total), total).await?;
    let (own, next) = (BitReader::new(&message), BitReader::new(&received));
    Ok((0..operands.len())
        .map(|g| {
            let m = group_len(count, g);
            core::array::from_fn(|q| {
                let pos = GROUP * W * g + q * m;
                (own.get(pos, m), next.get(pos, m))
            })
        })
        .collect())
}

/// `count` random one-hot vectors of length 16 in two rounds.
pub async fn generate<N: Network>(
    party: &mut Party,
    net: &mut N,
    count: usize,
) -> Result<Vec<OneHot16>, MaestroError> {
    let me = party.id();
    // The same draws as `random(count)`: r's components are the low nibbles.
    let r = party.prss_mut().random_packed(count);
    let groups = count.div_ceil(GROUP);
    // x[g] = (first, second) component planes of r₀..r₃ of group g.
    let x: Vec<([u64; 4], [u64; 4])> = (0..groups)
        .map(|g| {
            let range = GROUP * g..GROUP * g + group_len(count, g);
            (nibble_planes(&r.first[range.clone()]), nibble_planes(&r.second[range]))
        })
        .collect();
    let round1: Vec<[Operands; 6]> =
        x.iter().map(|(x0, x1)| PAIRS.map(|(i, j)| (x0[i], x1[i], x0[j], x1[j]))).collect();
    let pairs = plane_products_round(party, net, count, &round1).await?;
    let round2: Vec<[Operands; 5]> = x
        .iter()
        .zip(&pairs)
        .map(|((x0, x1), p)| {
            ROUND2.map(|(left, right, _)| {
                let (l0, l1) = match left {
                    Left::Bit(i) => (x0[i], x1[i]),
                    Left::Pair(q) => p[q],
                };
                (l0, l1, p[right].0, p[right].1)
            })
        })
        .collect();
    let highs = plane_products_round(party, net, count, &round2).await?;
    // m_∅ = 1 goes into component 0: party 0's first component, party 2's second.
    let one = [me == 0, me == 2];
    let mut vectors = Vec::with_capacity(count);
    let mut e = [[0u16; GROUP]; 2];
    for g in 0..groups {
        let m = group_len(count, g);
        let ((x0, x1), p, h) = (&x[g], &pairs[g], &highs[g]);
        for (c, (xc, out)) in [x0, x1].into_iter().zip(e.iter_mut()).enumerate() {
            let component = |w: (u64, u64)| if c == 0 { w.0 } else { w.1 };
            let mut planes = [0u64; 16];
            planes[0] = if one[c] { low_mask(m) } else { 0 };
            for i in 0..4 {
                planes[1 << i] = xc[i];
            }
            for (q, &(i, j)) in PAIRS.iter().enumerate() {
                planes[(1 << i) | (1 << j)] = component(p[q]);
            }
            for (k, &(_, _, subset)) in ROUND2.iter().enumerate() {
                planes[usize::from(subset)] = component(h[k]);
            }
            expand_planes(&mut planes);
            planes_to_u16(&planes, &mut out[..m]);
        }
        for (k, (&e0, &e1)) in e[0][..m].iter().zip(&e[1][..m]).enumerate() {
            let idx = GROUP * g + k;
            vectors.push(OneHot16 {
                r: Rss16::new(me, Gf16::new(r.first[idx]), Gf16::new(r.second[idx])),
                e: (e0, e1),
            });
        }
    }
    Ok(vectors)
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
    fn plane_transposes_match_bit_by_bit() {
        let bytes: Vec<u8> = (0..64u32).map(|k| (k * 37 + 11) as u8).collect();
        for len in [0, 1, 7, 8, 9, 63, 64] {
            let planes = nibble_planes(&bytes[..len]);
            for (i, plane) in planes.iter().enumerate() {
                let expected = (0..len).fold(0u64, |acc, k| acc | u64::from(bytes[k] >> i & 1) << k);
                assert_eq!(*plane, expected, "len {len}, plane {i}");
            }
        }
        let planes: [u64; 16] =
            core::array::from_fn(|j| 0x9e37_79b9_7f4a_7c15u64.rotate_left(5 * j as u32) ^ j as u64);
        for len in [1, 8, 13, 64] {
            let mut out = vec![0u16; len];
            planes_to_u16(&planes, &mut out);
            for (k, &e) in out.iter().enumerate() {
                let expected = (0..16).fold(0u16, |acc, j| acc | ((planes[j] >> k & 1) as u16) << j);
                assert_eq!(e, expected, "len {len}, vector {k}");
            }
        }
    }

    #[test]
    fn expand_planes_is_the_superset_sum() {
        let m: [u64; 16] = core::array::from_fn(|j| 0x0123_4567_89ab_cdefu64.rotate_left(7 * j as u32));
        let mut e = m;
        expand_planes(&mut e);
        for (j, &got) in e.iter().enumerate() {
            let expected = (0..16).filter(|s| s & j == j).fold(0u64, |acc, s| acc ^ m[s]);
            assert_eq!(got, expected, "J = {j:#06b}");
        }
    }

    #[test]
    fn vectors_are_one_hot_at_r_with_11_bits_in_2_rounds() {
        for count in [0, 1, 63, 64, 65, 130] {
            check_one_hot(count);
        }
        check_one_hot(800);
    }

    fn check_one_hot(count: usize) {
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
        if count >= 800 {
            assert!(seen.iter().all(|&n| n > 20), "r should be spread over GF(2^4): {seen:?}");
        }
        for (_, stats) in &results {
            assert_eq!(
                (stats.bytes_sent, stats.rounds),
                (((6 * count).div_ceil(8) + (5 * count).div_ceil(8)) as u64, 2)
            );
        }
    }
}
