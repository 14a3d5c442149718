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

use super::bits::{BitReader, BitWriter};
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

/// The one-hot components from the monomial components `m` (bit S = component of m_S):
/// e_J = Σ_{S ⊇ J} m_S, the superset-sum transform in four masked shift steps (no branch).
fn expand(m: u16) -> u16 {
    let mut e = m;
    for (i, mask) in [0x5555u16, 0x3333, 0x0f0f, 0x00ff].into_iter().enumerate() {
        // For every J without bit i, add the entry of J ∪ {i}.
        e ^= (e >> (1 << i)) & mask;
    }
    e
}

/// Bits `indices[k]` of `x` as bit k of the result (the indices are public constants).
fn gather(x: u64, indices: impl IntoIterator<Item = usize>) -> u64 {
    indices.into_iter().enumerate().fold(0, |acc, (k, i)| acc | ((x >> i) & 1) << k)
}

/// One batched round of bit products, `width` per vector: `operands(k)` gives vector k's left
/// and right operand bits for both components as four words; the result is this party's two
/// components of every product (`width` bits per vector), after resharing (⌈count·width/8⌉
/// bytes, one round). The message layout is [`pack_bits`] of the products in vector order.
async fn bit_products_round<N: Network>(
    party: &mut Party,
    net: &mut N,
    count: usize,
    width: usize,
    operands: impl Fn(usize) -> (u64, u64, u64, u64),
) -> Result<(BitReader, BitReader), MaestroError> {
    let me = party.id();
    let total = count * width;
    let mut writer = BitWriter::with_capacity(total);
    for k in 0..count {
        let (l0, l1, r0, r1) = operands(k);
        writer.push((l0 & (r0 ^ r1)) ^ (l1 & r0), width as u32);
    }
    let mut message = writer.finish(total);
    let mut zero = vec![0u8; total.div_ceil(8)];
    party.prss_mut().zero_into(&mut zero);
    for (b, z) in message.iter_mut().zip(&zero) {
        *b ^= z;
    }
    if total % 8 != 0 {
        if let Some(last) = message.last_mut() {
            *last &= (1u8 << (total % 8)) - 1;
        }
    }
    let step = Step::OneHotPreprocessing;
    send_bytes(net, (me + 2) % 3, message.clone(), step)?;
    let from = (me + 1) % 3;
    let received = recv_bytes(net, from, total.div_ceil(8), step).await?;
    if total % 8 != 0 && received[received.len() - 1] >> (total % 8) != 0 {
        return Err(MaestroError::NonzeroBitPadding { from, step });
    }
    Ok((BitReader::new(&message), BitReader::new(&received)))
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
    let comps = |s: &Rss16| (u64::from(s.first().value()), u64::from(s.second().value()));
    let (left1, right1) = (PAIRS.map(|(i, _)| i), PAIRS.map(|(_, j)| j));
    let (own1, next1) = bit_products_round(party, net, count, 6, |k| {
        let (x0, x1) = comps(&r[k]);
        (gather(x0, left1), gather(x1, left1), gather(x0, right1), gather(x1, right1))
    })
    .await?;
    let pairs = |k: usize| (own1.get(6 * k, 6), next1.get(6 * k, 6));
    let left2 = |x: u64, p: u64| {
        ROUND2.iter().enumerate().fold(0, |acc, (n, (l, _, _))| {
            let b = match *l {
                Left::Bit(i) => (x >> i) & 1,
                Left::Pair(q) => (p >> q) & 1,
            };
            acc | b << n
        })
    };
    let right2 = ROUND2.map(|(_, k, _)| k);
    let (own2, next2) = bit_products_round(party, net, count, 5, |k| {
        let ((x0, x1), (p0, p1)) = (comps(&r[k]), pairs(k));
        (left2(x0, p0), left2(x1, p1), gather(p0, right2), gather(p1, right2))
    })
    .await?;
    // m_∅ = 1 goes into component 0: party 0's first component, party 2's second.
    let one = (u16::from(me == 0), u16::from(me == 2));
    let monomials = |x: u64, p: u64, h: u64, one: u16| {
        let mut m = one;
        for i in 0..4 {
            m |= (((x >> i) & 1) as u16) << (1 << i);
        }
        for (k, &(i, j)) in PAIRS.iter().enumerate() {
            m |= (((p >> k) & 1) as u16) << ((1 << i) | (1 << j));
        }
        for (k, &(_, _, subset)) in ROUND2.iter().enumerate() {
            m |= (((h >> k) & 1) as u16) << subset;
        }
        m
    };
    Ok(r.iter()
        .enumerate()
        .map(|(k, s)| {
            let ((x0, x1), (p0, p1)) = (comps(s), pairs(k));
            let (h0, h1) = (own2.get(5 * k, 5), next2.get(5 * k, 5));
            OneHot16 {
                r: *s,
                e: (expand(monomials(x0, p0, h0, one.0)), expand(monomials(x1, p1, h1, one.1))),
            }
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
