//! GF(2^64) = F2\[Y\]/(Y^64 + Y^4 + Y^3 + Y + 1), the field MAESTRO uses for its multiplication
//! checks and into which it embeds GF(2^4) and GF(2^8) (MAESTRO §2.5, §4, Table 2).
//!
//! An element is a `u64` whose bit i is the coefficient of Y^i. Products go through the shared
//! [`clmul`](super::clmul) backend (PCLMULQDQ when the CPU has it, constant-time portable code
//! otherwise) and a shift-and-XOR reduction; inner products reduce once per sum (MAESTRO §4).

use super::clmul::Backend;
use super::ops::{impl_xor_field_ops, itoh_tsujii_inverse};
use super::Field;
use rand_core::RngCore;

/// An element of GF(2^64); bit i is the coefficient of Y^i.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Gf64(pub u64);

impl Gf64 {
    /// The reduction polynomial without its leading term: Y^4 + Y^3 + Y + 1.
    pub const POLY_LOW: u64 = 0x1b;

    /// The element with bit representation `v`.
    #[inline]
    pub const fn new(v: u64) -> Self {
        Gf64(v)
    }

    /// The bit representation.
    #[inline]
    pub const fn value(self) -> u64 {
        self.0
    }

    /// Reduces an unreduced 128-bit product modulo Y^64 + Y^4 + Y^3 + Y + 1.
    #[inline]
    pub const fn reduce(product: u128) -> Self {
        let low = product as u64;
        let high = (product >> 64) as u64;
        // high · Y^64 ≡ high · (Y^4 + Y^3 + Y + 1); the bits that spill past Y^63 are folded again.
        let spill = (high >> 63) ^ (high >> 61) ^ (high >> 60);
        let folded = high ^ (high << 1) ^ (high << 3) ^ (high << 4);
        let spill_folded = spill ^ (spill << 1) ^ (spill << 3) ^ (spill << 4);
        Gf64(low ^ folded ^ spill_folded)
    }

    /// `a · b` with an explicit carry-less backend (for cross-checks and benchmarks).
    #[inline]
    pub fn mul_with(backend: Backend, a: Self, b: Self) -> Self {
        Self::reduce(backend.clmul64(a.0, b.0))
    }

    #[inline]
    fn product(self, rhs: Self) -> Self {
        Self::mul_with(Backend::detect(), self, rhs)
    }

    /// `Σ a[i] · b[i]`, reducing once (lazy reduction, MAESTRO §4).
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn inner_product(a: &[Gf64], b: &[Gf64]) -> Gf64 {
        Self::inner_product_with(Backend::detect(), a, b)
    }

    /// [`Gf64::inner_product`] with an explicit backend.
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn inner_product_with(backend: Backend, a: &[Gf64], b: &[Gf64]) -> Gf64 {
        assert_eq!(a.len(), b.len(), "inner_product: length mismatch");
        Self::reduce(backend.xor_sum_of_products64(as_words(a), as_words(b)))
    }
}

/// The representations of a slice of elements.
#[inline]
fn as_words(values: &[Gf64]) -> &[u64] {
    // SAFETY: `Gf64` is `repr(transparent)` over `u64`, so the layouts are identical.
    unsafe { core::slice::from_raw_parts(values.as_ptr().cast::<u64>(), values.len()) }
}

impl_xor_field_ops!(Gf64, product);

impl Field for Gf64 {
    const ZERO: Self = Gf64(0);
    const ONE: Self = Gf64(1);
    const BITS: u32 = 64;

    fn inverse(self) -> Self {
        let backend = Backend::detect();
        itoh_tsujii_inverse(self, 64, |x| Self::mul_with(backend, x, x), |x, y| Self::mul_with(backend, x, y))
    }

    fn random<R: RngCore + ?Sized>(rng: &mut R) -> Self {
        Gf64(rng.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::BinaryField;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(64), ..ProptestConfig::default() })]

        /// The dedicated reduction agrees with the generic Barrett one, on every backend.
        #[test]
        fn mul_matches_generic_field(a: u64, b: u64) {
            let generic = BinaryField::new(64, Gf64::POLY_LOW).unwrap();
            for backend in Backend::available() {
                prop_assert_eq!(Gf64::mul_with(backend, Gf64(a), Gf64(b)).0, generic.mul_with(Backend::Portable, a, b));
            }
            prop_assert_eq!(Gf64(a).inverse().0, generic.inverse(a));
        }

        #[test]
        fn inner_product_matches_sum(pairs in proptest::collection::vec(any::<(u64, u64)>(), 0..33)) {
            let (a, b): (Vec<Gf64>, Vec<Gf64>) = pairs.into_iter().map(|(x, y)| (Gf64(x), Gf64(y))).unzip();
            let expected = a.iter().zip(&b).fold(Gf64::ZERO, |acc, (&x, &y)| acc + x * y);
            for backend in Backend::available() {
                prop_assert_eq!(Gf64::inner_product_with(backend, &a, &b), expected);
            }
        }
    }

    #[test]
    fn reduction_of_extreme_products() {
        // Y^126 = Y^62 · Y^64; check against repeated multiplication by Y.
        let y = Gf64(2);
        let power = (0..126).fold(Gf64::ONE, |acc, _| acc * y);
        assert_eq!(Gf64::reduce(1 << 126), power);
        assert_eq!(Gf64::reduce(1 << 64), Gf64(Gf64::POLY_LOW));
    }
}
