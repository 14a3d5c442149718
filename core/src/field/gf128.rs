//! GF(2^128) = F2\[x\]/(x^128 + x^7 + x^2 + x + 1), the GCM polynomial (NIST SP 800-38D §6.3).
//!
//! **Bit order:** an element is a `u128` whose bit i is the coefficient of x^i ("natural" order).
//! GCM/GHASH write blocks in the *reflected* order (the first bit of the block, the most significant
//! bit of byte 0, is the coefficient of x^0); convert with [`Gf128::from_ghash_block`] and
//! [`Gf128::to_ghash_block`]. Products use the shared [`clmul`](super::clmul) backend; inner
//! products accumulate unreduced 256-bit products and reduce once (MAESTRO §4).

use super::clmul::Backend;
use super::ops::{impl_xor_field_ops, itoh_tsujii_inverse};
use super::Field;
use rand_core::RngCore;

/// An element of GF(2^128); bit i is the coefficient of x^i.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Gf128(pub u128);

impl Gf128 {
    /// The reduction polynomial without its leading term: x^7 + x^2 + x + 1.
    pub const POLY_LOW: u128 = 0x87;

    /// The element with bit representation `v`.
    #[inline]
    pub const fn new(v: u128) -> Self {
        Gf128(v)
    }

    /// The bit representation.
    #[inline]
    pub const fn value(self) -> u128 {
        self.0
    }

    /// The element a GCM block denotes (GCM's reflected bit order, NIST SP 800-38D §6.3).
    #[inline]
    pub const fn from_ghash_block(block: [u8; 16]) -> Self {
        Gf128(u128::from_be_bytes(block).reverse_bits())
    }

    /// The GCM block denoting this element.
    #[inline]
    pub const fn to_ghash_block(self) -> [u8; 16] {
        self.0.reverse_bits().to_be_bytes()
    }

    /// Reduces an unreduced 256-bit product `[low, high]` modulo x^128 + x^7 + x^2 + x + 1.
    #[inline]
    pub const fn reduce(product: [u128; 2]) -> Self {
        let [low, high] = product;
        // high · x^128 ≡ high · (x^7 + x^2 + x + 1); the bits spilling past x^127 are folded again.
        let spill = (high >> 127) ^ (high >> 126) ^ (high >> 121);
        let folded = high ^ (high << 1) ^ (high << 2) ^ (high << 7);
        let spill_folded = spill ^ (spill << 1) ^ (spill << 2) ^ (spill << 7);
        Gf128(low ^ folded ^ spill_folded)
    }

    /// `a · b` with an explicit carry-less backend (for cross-checks and benchmarks).
    #[inline]
    pub fn mul_with(backend: Backend, a: Self, b: Self) -> Self {
        Self::reduce(backend.clmul128(a.0, b.0))
    }

    #[inline]
    fn product(self, rhs: Self) -> Self {
        Self::mul_with(Backend::detect(), self, rhs)
    }

    /// `Σ a[i] · b[i]`, reducing once (lazy reduction, MAESTRO §4).
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn inner_product(a: &[Gf128], b: &[Gf128]) -> Gf128 {
        Self::inner_product_with(Backend::detect(), a, b)
    }

    /// [`Gf128::inner_product`] with an explicit backend.
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn inner_product_with(backend: Backend, a: &[Gf128], b: &[Gf128]) -> Gf128 {
        assert_eq!(a.len(), b.len(), "inner_product: length mismatch");
        Self::reduce(backend.xor_sum_of_products128(as_words(a), as_words(b)))
    }
}

/// The representations of a slice of elements.
#[inline]
fn as_words(values: &[Gf128]) -> &[u128] {
    // SAFETY: `Gf128` is `repr(transparent)` over `u128`, so the layouts are identical.
    unsafe { core::slice::from_raw_parts(values.as_ptr().cast::<u128>(), values.len()) }
}

impl_xor_field_ops!(Gf128, product);

impl Field for Gf128 {
    const ZERO: Self = Gf128(0);
    const ONE: Self = Gf128(1);
    const BITS: u32 = 128;

    fn inverse(self) -> Self {
        let backend = Backend::detect();
        itoh_tsujii_inverse(self, 128, |x| Self::mul_with(backend, x, x), |x, y| Self::mul_with(backend, x, y))
    }

    fn random<R: RngCore + ?Sized>(rng: &mut R) -> Self {
        let mut bytes = [0u8; 16];
        rng.fill_bytes(&mut bytes);
        Gf128(u128::from_le_bytes(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// GHASH_H(X_1 … X_n) with Y_0 = 0, Y_i = (Y_{i-1} ⊕ X_i) · H (NIST SP 800-38D §6.4).
    fn ghash(h: [u8; 16], blocks: &[[u8; 16]]) -> [u8; 16] {
        let h = Gf128::from_ghash_block(h);
        blocks
            .iter()
            .fold(Gf128::ZERO, |y, &x| (y + Gf128::from_ghash_block(x)) * h)
            .to_ghash_block()
    }

    fn block(hex_str: &str) -> [u8; 16] {
        hex::decode(hex_str).unwrap().try_into().unwrap()
    }

    /// "The Galois/Counter Mode of Operation (GCM)", McGrew & Viega (2005), Appendix B, Test Case 2:
    /// K = 0^128, P = 0^128, IV = 0^96. H = E_K(0^128); the GHASH input is the single ciphertext
    /// block followed by the length block len(A) || len(C) = 0 || 128.
    #[test]
    fn gcm_spec_test_case_2() {
        let h = block("66e94bd4ef8a2c3b884cfa59ca342b2e");
        let c = block("0388dace60b6a392f328c2b971b2fe78");
        let lengths = block("00000000000000000000000000000080");
        assert_eq!(ghash(h, &[c, lengths]), block("f38cbb1ad69223dcc3457ae5b6b0f885"));
        // And H itself is AES_0(0^128), which ties the vector to an independent implementation.
        use aes::cipher::{BlockEncrypt, KeyInit};
        let cipher = aes::Aes128::new(&[0u8; 16].into());
        let mut zero = [0u8; 16].into();
        cipher.encrypt_block(&mut zero);
        assert_eq!(<[u8; 16]>::from(zero), h);
    }

    #[test]
    fn bit_order_conventions() {
        // The GCM block 0x80 00.. is the polynomial 1; x^127 is the block 00..01.
        let mut one = [0u8; 16];
        one[0] = 0x80;
        assert_eq!(Gf128::from_ghash_block(one), Gf128::ONE);
        let mut top = [0u8; 16];
        top[15] = 1;
        assert_eq!(Gf128::from_ghash_block(top), Gf128(1 << 127));
        // x^127 · x = x^128 ≡ x^7 + x^2 + x + 1.
        assert_eq!(Gf128(1 << 127) * Gf128(2), Gf128(Gf128::POLY_LOW));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(128), ..ProptestConfig::default() })]

        #[test]
        fn backends_agree(a: u128, b: u128) {
            let expected = Gf128::mul_with(Backend::Portable, Gf128(a), Gf128(b));
            for backend in Backend::available() {
                prop_assert_eq!(Gf128::mul_with(backend, Gf128(a), Gf128(b)), expected);
            }
            // Multiplication by x is a shift with one conditional fold.
            let times_x = Gf128((a << 1) ^ (0u128.wrapping_sub(a >> 127) & Gf128::POLY_LOW));
            prop_assert_eq!(Gf128(a) * Gf128(2), times_x);
        }

        #[test]
        fn inner_product_matches_sum(pairs in proptest::collection::vec(any::<(u128, u128)>(), 0..17)) {
            let (a, b): (Vec<Gf128>, Vec<Gf128>) = pairs.into_iter().map(|(x, y)| (Gf128(x), Gf128(y))).unzip();
            let expected = a.iter().zip(&b).fold(Gf128::ZERO, |acc, (&x, &y)| acc + x * y);
            for backend in Backend::available() {
                prop_assert_eq!(Gf128::inner_product_with(backend, &a, &b), expected);
            }
        }
    }
}
