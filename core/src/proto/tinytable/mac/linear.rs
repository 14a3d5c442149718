//! The linear MAC scheme of TinyTable §3 (Fig.-free text of §3.1 and §3.2).
//!
//! Messages live in F = GF(2^k), keys are `(α, β) ∈ F × G^ℓ` with G = GF(2^{2k−1}), and the tag of
//! `x_i` is `y_i = α·x_i + β_i` where the product `α·x_i` is the *unreduced* carry-less product of
//! two polynomials of degree < k: it has degree ≤ 2k − 2, so it already is an element of G and no
//! reduction modulo either field polynomial is ever needed (§3.1). One carry-less multiplication
//! and one XOR per tag; the product comes from [`crate::field::clmul::Backend`], the one place that
//! selects PCLMULQDQ natively and the portable constant-time code elsewhere (wasm32).
//!
//! Openings of subset sums (§3.2): for `λ ∈ {0,1}^ℓ` the committer sends `(x_λ, y_λ) = (Σ λ_i x_i,
//! Σ λ_i y_i)` and the verifier checks `y_λ = α·x_λ + β_λ`. Sums in characteristic 2 are XORs, so
//! again nothing is reduced. Forging an opening of a different `x'` means guessing `α`, probability
//! `2^{-k}`.
//!
//! Two parameter sets, as in §5: [`K64`] (F = GF(2^64), tags of 127 bits in a `u128`) and [`K32`]
//! (F = GF(2^32), tags of 63 bits in a `u64`). The MAC'd messages of the S-box protocol are bytes,
//! embedded in F as polynomials of degree < 8.
//!
//! [`mul_by_x_power`] is the one operation that does reduce in G (modulo X^127 + X + 1 for k = 64):
//! multiplying a tag and its key by the public `X^i` turns MACs on the bits of a byte into a MAC on
//! the byte (used by the §4 table construction; a linear combination with coefficients outside
//! {0, 1}, the case the end of §3.2 says needs reductions).
//!
//! Constant time: tags, keys and messages are combined with carry-less multiplication and XOR
//! only; verification compares by XOR-folding, without early exit.

use crate::field::clmul::Backend;
use core::fmt::Debug;
use core::ops::BitXor;
use rand_core::RngCore;

/// A parameter set of the §3 scheme: the security parameter `k` and the representations of F and G.
pub trait MacParams: Copy + Debug + 'static {
    /// The security parameter k (F = GF(2^k)).
    const K: u32;
    /// An element of F (a polynomial of degree < k).
    type Elem: Copy + Eq + Debug + Default + BitXor<Output = Self::Elem>;
    /// An element of G (a polynomial of degree < 2k − 1).
    type Tag: Copy + Eq + Debug + Default + BitXor<Output = Self::Tag>;
    /// The unreduced product `α·x ∈ G` of two elements of F.
    fn mul(backend: Backend, alpha: Self::Elem, x: Self::Elem) -> Self::Tag;
    /// A uniformly random element of F.
    fn random_elem<R: RngCore + ?Sized>(rng: &mut R) -> Self::Elem;
    /// A uniformly random element of G.
    fn random_tag<R: RngCore + ?Sized>(rng: &mut R) -> Self::Tag;
    /// The element of F whose polynomial is the byte `b` (bit i is the coefficient of X^i).
    fn from_byte(b: u8) -> Self::Elem;
    /// The tag as a 128-bit block (zero-extended), the input of the batched-opening hash (§3.3).
    fn tag_block(tag: Self::Tag) -> u128;
}

/// k = 64: F = GF(2^64) in a `u64`, G = GF(2^127) in a `u128` (bit 127 always zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct K64;

/// k = 32: F = GF(2^32) in a `u32`, G = GF(2^63) in a `u64` (bit 63 always zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct K32;

/// The bits of G = GF(2^127) inside a `u128`.
pub const G127_MASK: u128 = u128::MAX >> 1;

/// The low 71 bits of G = GF(2^127): where the unreduced product `α·x` of a key α ∈ GF(2^64) and a
/// *byte* message x (degree ≤ 7) lies (degree ≤ 63 + 7 = 70).
///
/// Tags and keys of byte messages (the S-box path's table entries and output-mask shares) are
/// used projected onto these bits: `y & BYTE_TAG_MASK = α·x ⊕ (β & BYTE_TAG_MASK)` holds bit by
/// bit whenever `y = α·x ⊕ β`, so the projection is itself a §3 MAC with key
/// `(α, β & BYTE_TAG_MASK)`. It keeps both properties of §3.2: the truncated key is uniform and
/// independent of α when β is (so the tag hides α), and accepting x' ≠ x needs `α·(x ⊕ x')`,
/// which determines α because multiplying by a non-zero polynomial is injective (probability
/// 2^{-64}, as before). The 57 freed bits of each 128-bit word carry the entry itself, so a
/// lookup reads one word (see [`crate::proto::tinytable::sbox::prep`]).
pub const BYTE_TAG_MASK: u128 = (1 << 71) - 1;

impl MacParams for K64 {
    const K: u32 = 64;
    type Elem = u64;
    type Tag = u128;

    #[inline]
    fn mul(backend: Backend, alpha: u64, x: u64) -> u128 {
        backend.clmul64(alpha, x)
    }

    fn random_elem<R: RngCore + ?Sized>(rng: &mut R) -> u64 {
        rng.next_u64()
    }

    fn random_tag<R: RngCore + ?Sized>(rng: &mut R) -> u128 {
        ((u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64())) & G127_MASK
    }

    #[inline]
    fn from_byte(b: u8) -> u64 {
        u64::from(b)
    }

    #[inline]
    fn tag_block(tag: u128) -> u128 {
        tag
    }
}

impl MacParams for K32 {
    const K: u32 = 32;
    type Elem = u32;
    type Tag = u64;

    #[inline]
    fn mul(backend: Backend, alpha: u32, x: u32) -> u64 {
        // Degree ≤ 62: the 128-bit product's high half is zero.
        backend.clmul64(u64::from(alpha), u64::from(x)) as u64
    }

    fn random_elem<R: RngCore + ?Sized>(rng: &mut R) -> u32 {
        rng.next_u32()
    }

    fn random_tag<R: RngCore + ?Sized>(rng: &mut R) -> u64 {
        rng.next_u64() >> 1
    }

    #[inline]
    fn from_byte(b: u8) -> u32 {
        u32::from(b)
    }

    #[inline]
    fn tag_block(tag: u64) -> u128 {
        u128::from(tag)
    }
}

/// The tag `α·x + β` (§3.1).
#[inline]
pub fn tag<P: MacParams>(backend: Backend, alpha: P::Elem, x: P::Elem, beta: P::Tag) -> P::Tag {
    P::mul(backend, alpha, x) ^ beta
}

/// Whether two tags are equal, without an early exit on the first differing bit.
#[inline]
pub fn tags_equal(a: u128, b: u128) -> bool {
    let d = a ^ b;
    ((d | d.wrapping_neg()) >> 127) == 0
}

/// The verifier's key for a vector of messages: one `α ∈ F` and one `β_i ∈ G` per message (§3.2).
#[derive(Clone, PartialEq, Eq)]
pub struct VectorKey<P: MacParams> {
    /// The global key α.
    pub alpha: P::Elem,
    /// The per-message keys β_i.
    pub betas: Vec<P::Tag>,
}

/// The committer's side: the messages and their tags (§3.2).
#[derive(Clone, PartialEq, Eq)]
pub struct Committed<P: MacParams> {
    /// The messages x_i.
    pub values: Vec<P::Elem>,
    /// The tags y_i = α·x_i + β_i.
    pub tags: Vec<P::Tag>,
}

impl<P: MacParams> Debug for VectorKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Keys are secret: never print them.
        f.debug_struct("VectorKey").field("len", &self.betas.len()).finish()
    }
}

impl<P: MacParams> Debug for Committed<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Committed").field("len", &self.values.len()).finish()
    }
}

/// What a preprocessor P hands out for a vector of messages: the key to the verifier and the
/// messages with their tags to the committer (§3.2, "the intended use").
pub fn commit<P: MacParams, R: RngCore + ?Sized>(
    backend: Backend,
    rng: &mut R,
    values: Vec<P::Elem>,
) -> (VectorKey<P>, Committed<P>) {
    let alpha = P::random_elem(rng);
    let betas: Vec<P::Tag> = values.iter().map(|_| P::random_tag(rng)).collect();
    let tags = values.iter().zip(&betas).map(|(&x, &b)| tag::<P>(backend, alpha, x, b)).collect();
    (VectorKey { alpha, betas }, Committed { values, tags })
}

impl<P: MacParams> Committed<P> {
    /// The opening `(x_λ, y_λ)` of the subset sum selected by `subset` (§3.2). Positions past the
    /// end of either slice are ignored.
    pub fn open_subset(&self, subset: &[bool]) -> (P::Elem, P::Tag) {
        self.values
            .iter()
            .zip(&self.tags)
            .zip(subset)
            .filter(|(_, &on)| on)
            .fold((P::Elem::default(), P::Tag::default()), |(x, y), ((&xi, &yi), _)| (x ^ xi, y ^ yi))
    }
}

impl<P: MacParams> VectorKey<P> {
    /// β_λ, the key of the subset sum selected by `subset`.
    pub fn subset_key(&self, subset: &[bool]) -> P::Tag {
        self.betas.iter().zip(subset).filter(|(_, &on)| on).fold(P::Tag::default(), |acc, (&b, _)| acc ^ b)
    }

    /// Whether `(x, y)` is a valid opening of the subset sum selected by `subset` (§3.2).
    pub fn verify_subset(&self, backend: Backend, subset: &[bool], x: P::Elem, y: P::Tag) -> bool {
        let expected = tag::<P>(backend, self.alpha, x, self.subset_key(subset));
        tags_equal(P::tag_block(expected), P::tag_block(y))
    }
}

/// `α·x` for every byte `x` (k = 64): MAC'ing many bytes under one `α` becomes a lookup in this
/// 4 KiB table. The table is secret (it determines `α`); index it only with public bytes (the S-box
/// protocol indexes it with entries the peer has sent in the clear).
pub fn byte_multiples(backend: Backend, alpha: u64) -> Vec<u128> {
    (0..=255u8).map(|x| K64::mul(backend, alpha, K64::from_byte(x))).collect()
}

/// `X^i · v` in G = GF(2^127) = F2\[X\]/(X^127 + X + 1), for `i < 8` (k = 64 only).
///
/// `X^127 + X + 1` is a primitive trinomial (127 is a Mersenne exponent; it is in every table of
/// primitive trinomials), so G is a field.
#[inline]
pub fn mul_by_x_power(v: u128, i: u32) -> u128 {
    debug_assert!(i < 8 && v >> 127 == 0);
    if i == 0 {
        return v;
    }
    // The coefficients of X^127 … X^{126+i} after the shift, folded with X^127 = X + 1.
    let spill = v >> (127 - i);
    ((v << i) & G127_MASK) ^ spill ^ (spill << 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    fn roundtrip<P: MacParams>(seed: u64, values: Vec<P::Elem>, subset: Vec<bool>, forged_delta: P::Elem) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        for backend in Backend::available() {
            let (key, committed) = commit::<P, _>(backend, &mut rng, values.clone());
            for (i, (&x, &y)) in committed.values.iter().zip(&committed.tags).enumerate() {
                assert!(key.verify_subset(
                    backend,
                    &(0..values.len()).map(|j| j == i).collect::<Vec<_>>(),
                    x,
                    y
                ));
            }
            let (x, y) = committed.open_subset(&subset);
            assert!(key.verify_subset(backend, &subset, x, y));
            if forged_delta != P::Elem::default() {
                // A changed message with the honest tag is rejected (binding, §3.2).
                assert!(!key.verify_subset(backend, &subset, x ^ forged_delta, y));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, rng_seed: proptest::test_runner::RngSeed::Fixed(0x3ac), ..ProptestConfig::default() })]

        #[test]
        fn subset_openings_verify_k64(seed: u64, entries in proptest::collection::vec((any::<u64>(), any::<bool>()), 0..24), delta: u64) {
            let (values, subset): (Vec<u64>, Vec<bool>) = entries.into_iter().unzip();
            roundtrip::<K64>(seed, values, subset, delta);
        }

        #[test]
        fn subset_openings_verify_k32(seed: u64, entries in proptest::collection::vec((any::<u32>(), any::<bool>()), 0..24), delta: u32) {
            let (values, subset): (Vec<u32>, Vec<bool>) = entries.into_iter().unzip();
            roundtrip::<K32>(seed, values, subset, delta);
        }

        /// Linearity without reduction: tag(x1) + tag(x2) = tag(x1 + x2) under β1 + β2.
        #[test]
        fn tags_are_linear(alpha: u64, x1: u64, x2: u64, b1: u128, b2: u128) {
            let (b1, b2) = (b1 & G127_MASK, b2 & G127_MASK);
            for backend in Backend::available() {
                let sum = tag::<K64>(backend, alpha, x1, b1) ^ tag::<K64>(backend, alpha, x2, b2);
                prop_assert_eq!(sum, tag::<K64>(backend, alpha, x1 ^ x2, b1 ^ b2));
                prop_assert_eq!(sum >> 127, 0);
            }
        }

        /// The fast (PCLMULQDQ) and portable unreduced products agree, for both parameter sets.
        #[test]
        fn backends_agree(alpha: u64, x: u64, a32: u32, x32: u32) {
            let reference = K64::mul(Backend::Portable, alpha, x);
            let reference32 = K32::mul(Backend::Portable, a32, x32);
            prop_assert_eq!(reference32 >> 63, 0);
            for backend in Backend::available() {
                prop_assert_eq!(K64::mul(backend, alpha, x), reference);
                prop_assert_eq!(K32::mul(backend, a32, x32), reference32);
            }
        }

        /// Scaling by X^i commutes with tagging a byte: X^i·(α·x + β) = α·(X^i·x) + X^i·β, as long
        /// as X^i·x stays a byte-sized polynomial (no reduction in F).
        #[test]
        fn x_power_scaling_keeps_tags_valid(alpha: u64, bit: bool, beta: u128, i in 0u32..8) {
            let beta = beta & G127_MASK;
            let x = u64::from(bit);
            let t = tag::<K64>(Backend::Portable, alpha, x, beta);
            prop_assert_eq!(mul_by_x_power(t, i), tag::<K64>(Backend::Portable, alpha, x << i, mul_by_x_power(beta, i)));
        }
    }

    #[test]
    fn byte_multiples_match_products() {
        let alpha = 0xdead_beef_0123_4567;
        for backend in Backend::available() {
            let table = byte_multiples(backend, alpha);
            for x in 0..=255u8 {
                assert_eq!(table[usize::from(x)], K64::mul(Backend::Portable, alpha, u64::from(x)));
            }
        }
    }

    #[test]
    fn x_power_matches_repeated_doubling() {
        // X^127 = X + 1 and X^133 = X^7 + X^6 in G.
        assert_eq!(mul_by_x_power(1 << 126, 1), 0b11);
        assert_eq!(mul_by_x_power(1 << 126, 7), (1 << 6) | (1 << 7));
        let v = 0x5a5a_0123_4567_89ab_cdef_0011_2233_4455u128 & G127_MASK;
        let mut doubled = v;
        for i in 1..8 {
            doubled = mul_by_x_power(doubled, 1);
            assert_eq!(mul_by_x_power(v, i), doubled);
        }
    }

    #[test]
    fn tags_equal_compares_every_bit() {
        assert!(tags_equal(7, 7));
        for bit in 0..128 {
            assert!(!tags_equal(0, 1 << bit));
        }
    }
}
