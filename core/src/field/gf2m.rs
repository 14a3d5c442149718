//! GF(2^m) for any `1 <= m <= 64`, described at run time ([`BinaryField`]) or fixed at compile
//! time ([`Gf2m`]).
//!
//! The field is F2\[x\]/(f) with `f = x^m + modulus_low`; an element is a `u64` whose low `m` bits
//! are its coefficients (bit i is the coefficient of x^i) and whose other bits are zero.
//!
//! Multiplication is one carry-less product from [`clmul`](super::clmul) followed by a Barrett
//! reduction (two more carry-less products with the precomputed quotient `⌊x^m · r / f⌋`), which is
//! exact for polynomials and branch-free, so the cost does not depend on the operands or on how
//! sparse `f` is. Construction checks irreducibility with Rabin's test: `f` of degree `m` is
//! irreducible iff `x^(2^m) ≡ x (mod f)` and `gcd(x^(2^(m/p)) - x, f) = 1` for every prime `p | m`.
//! RMFE constructions (e.g. Coral / MAESTRO's embeddings into GF(2^m) for m such as 42 or 48) use
//! this type because their degrees are not powers of two.

use super::clmul::{self, Backend};
use super::ops::itoh_tsujii_inverse;
use super::{Field, FieldError};
use core::ops::{Add, AddAssign, BitXor, BitXorAssign, Mul, MulAssign, Sub, SubAssign};
use rand_core::RngCore;

/// Runtime-described GF(2^m) = F2\[x\]/(x^m + modulus_low), elements as u64 using the low m bits.
///
/// The arithmetic methods expect elements (values for which [`BinaryField::contains`] holds; check
/// external data with [`BinaryField::element`]): on wider values they return an unspecified value,
/// without panicking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BinaryField {
    m: u32,
    modulus_low: u64,
    /// `⌊x^m · modulus_low / f⌋`, the low part of the Barrett constant `⌊x^(2m) / f⌋`.
    barrett_low: u64,
    /// The low `m` bits set.
    mask: u64,
}

impl BinaryField {
    /// The field F2\[x\]/(x^m + modulus_low).
    ///
    /// # Errors
    /// [`FieldError::DegreeOutOfRange`] unless `1 <= m <= 64`, [`FieldError::ModulusTooWide`] if
    /// `modulus_low` has a bit at position `>= m`, [`FieldError::Reducible`] if the modulus is not
    /// irreducible.
    pub const fn new(m: u32, modulus_low: u64) -> Result<Self, FieldError> {
        if m == 0 || m > 64 {
            return Err(FieldError::DegreeOutOfRange { m });
        }
        let mask = low_bits_mask(m);
        if modulus_low & !mask != 0 {
            return Err(FieldError::ModulusTooWide { m, modulus_low });
        }
        let field = BinaryField { m, modulus_low, barrett_low: barrett_low(m, modulus_low), mask };
        if !field.modulus_is_irreducible() {
            return Err(FieldError::Reducible { m, modulus_low });
        }
        Ok(field)
    }

    /// The extension degree `m`.
    #[inline]
    pub const fn m(&self) -> u32 {
        self.m
    }

    /// The modulus without its leading term `x^m`.
    #[inline]
    pub const fn modulus_low(&self) -> u64 {
        self.modulus_low
    }

    /// `2^m - 1`, the order of the multiplicative group (exact for every `m`, since
    /// `2^64 - 1 = u64::MAX`).
    #[inline]
    pub const fn order_minus_one(&self) -> u64 {
        self.mask
    }

    /// `a + b` (XOR).
    #[inline]
    pub const fn add(&self, a: u64, b: u64) -> u64 {
        a ^ b
    }

    /// `a · b`, constant time in `a` and `b`.
    #[inline]
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        self.mul_with(Backend::detect(), a, b)
    }

    /// `a · b` with an explicit carry-less backend (for cross-checks and benchmarks).
    #[inline]
    pub fn mul_with(&self, backend: Backend, a: u64, b: u64) -> u64 {
        self.reduce_with(backend, self.product_with(backend, a, b))
    }

    /// The unreduced product `a · b` of two elements: the narrow product for fields of degree at
    /// most [`clmul::NARROW_BITS`], whose elements are below `2^42`.
    #[inline]
    pub fn product_with(&self, backend: Backend, a: u64, b: u64) -> u128 {
        if self.m <= clmul::NARROW_BITS {
            backend.clmul42(a, b)
        } else {
            backend.clmul64(a, b)
        }
    }

    /// `a^2`.
    #[inline]
    pub fn square(&self, a: u64) -> u64 {
        self.mul(a, a)
    }

    /// `a^e` by square-and-multiply over the bits of `e`; constant time in `a` (the running time
    /// depends only on the bit length of `e`, which callers treat as public).
    pub fn pow(&self, a: u64, e: u64) -> u64 {
        let backend = Backend::detect();
        let mut result = 1;
        let bits = 64 - e.leading_zeros();
        let mut i = bits;
        while i > 0 {
            i -= 1;
            result = self.mul_with(backend, result, result);
            let product = self.mul_with(backend, result, a);
            let take = 0u64.wrapping_sub((e >> i) & 1);
            result = (product & take) | (result & !take);
        }
        result
    }

    /// The multiplicative inverse `a^(2^m - 2)` (Itoh–Tsujii chain), with `0 ↦ 0`.
    pub fn inverse(&self, a: u64) -> u64 {
        if self.m == 1 {
            // GF(2): every element is its own inverse (and 2^1 - 2 = 0 would give 0 ↦ 1).
            return a;
        }
        let backend = Backend::detect();
        itoh_tsujii_inverse(a, self.m, |x| self.mul_with(backend, x, x), |x, y| self.mul_with(backend, x, y))
    }

    /// A uniformly random element.
    pub fn random<R: RngCore + ?Sized>(&self, rng: &mut R) -> u64 {
        self.from_random_bits(rng.next_u64())
    }

    /// The element [`random`](Self::random) makes from the 64 random bits `bits` (for callers
    /// that draw many coins at once).
    #[inline]
    pub const fn from_random_bits(&self, bits: u64) -> u64 {
        bits & self.mask
    }

    /// `true` iff `a < 2^m`, i.e. `a` is the representation of an element.
    #[inline]
    pub const fn contains(&self, a: u64) -> bool {
        a & !self.mask == 0
    }

    /// `a` as an element, or [`FieldError::ElementOutOfRange`] if it has bits at or above `m`.
    pub const fn element(&self, a: u64) -> Result<u64, FieldError> {
        if self.contains(a) {
            Ok(a)
        } else {
            Err(FieldError::ElementOutOfRange { m: self.m, value: a })
        }
    }

    /// Reduces an unreduced product (degree `< 2m`) modulo `f`.
    #[inline]
    pub fn reduce_with(&self, backend: Backend, product: u128) -> u64 {
        self.barrett().reduce(backend, product)
    }

    /// [`reduce_with`](Self::reduce_with) of every product: `out[i]` is `products[i]` reduced
    /// (over the shorter length), in one backend call.
    pub fn reduce_many(&self, backend: Backend, products: &[u128], out: &mut [u64]) {
        backend.barrett_many(products, self.barrett(), out);
    }

    pub(crate) fn barrett(&self) -> clmul::BarrettConstants {
        clmul::BarrettConstants {
            m: self.m,
            barrett_low: self.barrett_low,
            modulus_low: self.modulus_low,
            mask: self.mask,
        }
    }

    /// `Σ a[i] · b[i]` with lazy reduction: the carry-less products are XOR-accumulated unreduced
    /// and reduced once (MAESTRO §4).
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn inner_product(&self, a: &[u64], b: &[u64]) -> u64 {
        assert_eq!(a.len(), b.len(), "inner_product: length mismatch");
        let backend = Backend::detect();
        let sum = if self.m <= clmul::NARROW_BITS {
            backend.xor_sum_of_products42(a, b)
        } else {
            backend.xor_sum_of_products64(a, b)
        };
        self.reduce_with(backend, sum)
    }

    /// The `const` reduction used during construction (portable carry-less products).
    const fn reduce_const(&self, product: u128) -> u64 {
        let high = (product >> self.m) as u64;
        let quotient = high ^ (clmul::portable::clmul64(high, self.barrett_low) >> self.m) as u64;
        (product ^ clmul::portable::clmul64(quotient, self.modulus_low)) as u64 & self.mask
    }

    const fn square_const(&self, a: u64) -> u64 {
        self.reduce_const(clmul::portable::clmul64(a, a))
    }

    /// `x^(2^k) mod f`, starting from `x mod f`.
    const fn frobenius_of_x(&self, k: u32) -> u64 {
        let mut value = self.x_mod_f();
        let mut i = 0;
        while i < k {
            value = self.square_const(value);
            i += 1;
        }
        value
    }

    /// The residue of the polynomial `x` (for `m = 1`, `x ≡ modulus_low`).
    const fn x_mod_f(&self) -> u64 {
        if self.m == 1 {
            self.modulus_low
        } else {
            2
        }
    }

    /// Rabin's irreducibility test (see the module docs). Arithmetic mod a reducible `f` is still
    /// well defined, so the field operations can run before the test has passed.
    const fn modulus_is_irreducible(&self) -> bool {
        let x = self.x_mod_f();
        if self.frobenius_of_x(self.m) != x {
            return false;
        }
        let modulus = (1u128 << self.m) | self.modulus_low as u128;
        let mut rest = self.m;
        let mut p = 2;
        while p <= rest {
            if rest.is_multiple_of(p) {
                while rest.is_multiple_of(p) {
                    rest /= p;
                }
                let difference = self.frobenius_of_x(self.m / p) ^ x;
                if poly_gcd(modulus, difference as u128) != 1 {
                    return false;
                }
            }
            p += 1;
        }
        true
    }
}

/// The low `m` bits set, for `1 <= m <= 64`.
const fn low_bits_mask(m: u32) -> u64 {
    u64::MAX >> (64 - m)
}

/// Degree of a nonzero polynomial.
const fn degree(p: u128) -> u32 {
    127 - p.leading_zeros()
}

/// `⌊x^m · r / f⌋` for `f = x^m + r`, by long division (public data: construction only).
const fn barrett_low(m: u32, r: u64) -> u64 {
    let modulus = (1u128 << m) | r as u128;
    let mut remainder = (r as u128) << m;
    let mut quotient = 0u64;
    while remainder != 0 && degree(remainder) >= m {
        let shift = degree(remainder) - m;
        remainder ^= modulus << shift;
        quotient |= 1 << shift;
    }
    quotient
}

/// The greatest common divisor of two polynomials over GF(2) (`gcd(p, 0) = p`).
const fn poly_gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        while a != 0 && degree(a) >= degree(b) {
            a ^= b << (degree(a) - degree(b));
        }
        let t = a;
        a = b;
        b = t;
    }
    a
}

/// An element of GF(2^M) = F2\[x\]/(x^M + MODULUS_LOW), a field fixed at compile time.
///
/// Naming an invalid field (degree out of range, or a reducible or too wide modulus) is a
/// compile-time error as soon as [`Gf2m::FIELD`] is used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Gf2m<const M: u32, const MODULUS_LOW: u64>(u64);

impl<const M: u32, const MODULUS_LOW: u64> Gf2m<M, MODULUS_LOW> {
    /// The field this type lives in.
    pub const FIELD: BinaryField = match BinaryField::new(M, MODULUS_LOW) {
        Ok(field) => field,
        Err(_) => panic!("Gf2m: x^M + MODULUS_LOW does not define a field with 1 <= M <= 64"),
    };

    /// The element whose bits are the low `M` bits of `v` (higher bits are dropped; use
    /// [`Gf2m::try_new`] for external data).
    #[inline]
    pub const fn new(v: u64) -> Self {
        Gf2m(v & Self::FIELD.mask)
    }

    /// The element with bit representation `v`, or an error if `v` has bits at or above `M`.
    pub const fn try_new(v: u64) -> Result<Self, FieldError> {
        match Self::FIELD.element(v) {
            Ok(v) => Ok(Gf2m(v)),
            Err(e) => Err(e),
        }
    }

    /// The bit representation.
    #[inline]
    pub const fn value(self) -> u64 {
        self.0
    }
}

impl<const M: u32, const L: u64> Add for Gf2m<M, L> {
    type Output = Self;
    #[inline]
    fn add(self, rhs: Self) -> Self {
        Gf2m(BitXor::bitxor(self.0, rhs.0))
    }
}
impl<const M: u32, const L: u64> AddAssign for Gf2m<M, L> {
    #[inline]
    fn add_assign(&mut self, rhs: Self) {
        BitXorAssign::bitxor_assign(&mut self.0, rhs.0);
    }
}
impl<const M: u32, const L: u64> Sub for Gf2m<M, L> {
    type Output = Self;
    #[inline]
    fn sub(self, rhs: Self) -> Self {
        Gf2m(BitXor::bitxor(self.0, rhs.0))
    }
}
impl<const M: u32, const L: u64> SubAssign for Gf2m<M, L> {
    #[inline]
    fn sub_assign(&mut self, rhs: Self) {
        BitXorAssign::bitxor_assign(&mut self.0, rhs.0);
    }
}
impl<const M: u32, const L: u64> Mul for Gf2m<M, L> {
    type Output = Self;
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        Gf2m(Self::FIELD.mul(self.0, rhs.0))
    }
}
impl<const M: u32, const L: u64> MulAssign for Gf2m<M, L> {
    #[inline]
    fn mul_assign(&mut self, rhs: Self) {
        *self = *self * rhs;
    }
}

impl<const M: u32, const L: u64> Field for Gf2m<M, L> {
    const ZERO: Self = Gf2m(0);
    const ONE: Self = Gf2m(1);
    const BITS: u32 = M;

    fn inverse(self) -> Self {
        Gf2m(Self::FIELD.inverse(self.0))
    }

    fn random<R: RngCore + ?Sized>(rng: &mut R) -> Self {
        Gf2m(Self::FIELD.random(rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::Gf256;
    use proptest::prelude::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    /// Reference: schoolbook product reduced bit by bit.
    fn naive_mul(m: u32, r: u64, a: u64, b: u64) -> u64 {
        let mut product: u128 =
            (0..64).filter(|i| (b >> i) & 1 == 1).fold(0, |acc, i| acc ^ ((a as u128) << i));
        let modulus = (1u128 << m) | r as u128;
        for bit in (m..128).rev() {
            if (product >> bit) & 1 == 1 {
                product ^= modulus << (bit - m);
            }
        }
        product as u64
    }

    /// Irreducible moduli used across the tests: (m, modulus_low).
    /// Dense ones (half their terms or more) take the reductions by carry-less products where
    /// there is no hardware product, narrow (m ≤ 42) and wide; sparse ones, shifts.
    const FIELDS: [(u32, u64); 8] = [
        (1, 1),
        (3, 0b011),
        (8, 0x1b),
        (40, 0xf2_1fb1_7c23),
        (42, (1 << 7) | 1),
        (48, (1 << 9) | (1 << 7) | (1 << 4) | 1),
        (61, 0x0762_50ff_f52d_df5d),
        (64, 0x1b),
    ];

    #[test]
    fn rejects_bad_parameters() {
        assert_eq!(BinaryField::new(0, 1), Err(FieldError::DegreeOutOfRange { m: 0 }));
        assert_eq!(BinaryField::new(65, 1), Err(FieldError::DegreeOutOfRange { m: 65 }));
        assert_eq!(BinaryField::new(8, 0x11b), Err(FieldError::ModulusTooWide { m: 8, modulus_low: 0x11b }));
        // x^2 + 1 = (x + 1)^2; x^4 + x^2 + 1 = (x^2 + x + 1)^2; x^8 + 1; x^6 + x + 1 is irreducible
        // but x^6 + x^3 + 1 is too, so use x^6 + x^5 + x^4 + x^3 + x^2 + x = x(...).
        for (m, r) in [(2, 1), (4, 0b101), (8, 1), (6, 0b111110), (64, 1), (64, 0)] {
            assert_eq!(
                BinaryField::new(m, r),
                Err(FieldError::Reducible { m, modulus_low: r }),
                "m = {m}, r = {r:#x}"
            );
        }
    }

    #[test]
    fn accepts_known_irreducible_moduli() {
        for (m, r) in FIELDS {
            assert!(BinaryField::new(m, r).is_ok(), "m = {m}, r = {r:#x}");
        }
        // x^4 + x^3 + x^2 + x + 1 is irreducible (but not primitive).
        assert!(BinaryField::new(4, 0b1111).is_ok());
    }

    /// Counts irreducible polynomials of degree m by Gauss's formula (1/m) Σ_{d|m} μ(d) 2^(m/d).
    #[test]
    fn irreducible_count_matches_necklace_formula() {
        let expected = [0usize, 2, 1, 2, 3, 6, 9, 18, 30, 56, 99];
        for m in 1..=10u32 {
            let count = (0..1u64 << m).filter(|&r| BinaryField::new(m, r).is_ok()).count();
            assert_eq!(count, expected[m as usize], "m = {m}");
        }
    }

    #[test]
    fn aes_field_equals_gf256() {
        let field = BinaryField::new(8, 0x1b).unwrap();
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                assert_eq!(field.mul(a as u64, b as u64), (Gf256(a) * Gf256(b)).0 as u64);
            }
            assert_eq!(field.inverse(a as u64), Gf256(a).inverse().0 as u64);
        }
    }

    #[test]
    fn inverse_exhaustive_small_degrees() {
        for m in 1..=10u32 {
            for r in (0..1u64 << m).filter(|&r| BinaryField::new(m, r).is_ok()) {
                let field = BinaryField::new(m, r).unwrap();
                assert_eq!(field.inverse(0), 0);
                for a in 1..=field.order_minus_one() {
                    assert_eq!(field.mul(a, field.inverse(a)), 1, "m = {m}, r = {r:#x}, a = {a:#x}");
                }
            }
        }
    }

    #[test]
    fn contains_and_random_respect_the_degree() {
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        for (m, r) in FIELDS {
            let field = BinaryField::new(m, r).unwrap();
            assert_eq!(field.order_minus_one(), if m == 64 { u64::MAX } else { (1 << m) - 1 });
            assert!(field.contains(field.order_minus_one()));
            assert_eq!(field.contains(1u64.wrapping_shl(m)), m == 64);
            for _ in 0..100 {
                assert!(field.contains(field.random(&mut rng)));
            }
        }
        assert!(BinaryField::new(3, 3).unwrap().element(8).is_err());
        assert_eq!(Gf2m::<3, 3>::try_new(9), Err(FieldError::ElementOutOfRange { m: 3, value: 9 }));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, rng_seed: proptest::test_runner::RngSeed::Fixed(0x2f2e), ..ProptestConfig::default() })]

        #[test]
        fn mul_matches_naive_reduction(index in 0..FIELDS.len(), a: u64, b: u64, e in 0u64..1000) {
            let (m, r) = FIELDS[index];
            let field = BinaryField::new(m, r).unwrap();
            let (a, b) = (a & field.order_minus_one(), b & field.order_minus_one());
            for backend in Backend::available() {
                prop_assert_eq!(field.mul_with(backend, a, b), naive_mul(m, r, a, b));
            }
            let by_repeated_mul = (0..e).fold(1u64 & field.order_minus_one(), |acc, _| field.mul(acc, a));
            prop_assert_eq!(field.pow(a, e), by_repeated_mul);
        }

        #[test]
        fn inner_product_matches_sum_of_products(index in 0..FIELDS.len(), pairs in proptest::collection::vec(any::<(u64, u64)>(), 0..20)) {
            let (m, r) = FIELDS[index];
            let field = BinaryField::new(m, r).unwrap();
            let (a, b): (Vec<u64>, Vec<u64>) = pairs.into_iter().map(|(x, y)| (x & field.order_minus_one(), y & field.order_minus_one())).unzip();
            let expected = a.iter().zip(&b).fold(0, |acc, (&x, &y)| acc ^ field.mul(x, y));
            prop_assert_eq!(field.inner_product(&a, &b), expected);
        }
    }
}
