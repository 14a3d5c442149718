//! Operator boilerplate shared by the concrete field newtypes: addition and subtraction are XOR of
//! the representation (written as `BitXor` calls, which is what field addition in characteristic 2
//! is), multiplication calls the type's own constant-time product.

/// Implements `Add`, `Sub`, `Mul` and their `*Assign` forms for a newtype `$ty(pub $repr)` whose
/// product is the inherent `fn $mul(self, Self) -> Self`.
macro_rules! impl_xor_field_ops {
    ($ty:ident, $mul:ident) => {
        impl core::ops::Add for $ty {
            type Output = Self;
            #[inline]
            fn add(self, rhs: Self) -> Self {
                $ty(core::ops::BitXor::bitxor(self.0, rhs.0))
            }
        }
        impl core::ops::AddAssign for $ty {
            #[inline]
            fn add_assign(&mut self, rhs: Self) {
                core::ops::BitXorAssign::bitxor_assign(&mut self.0, rhs.0);
            }
        }
        impl core::ops::Sub for $ty {
            type Output = Self;
            #[inline]
            fn sub(self, rhs: Self) -> Self {
                $ty(core::ops::BitXor::bitxor(self.0, rhs.0))
            }
        }
        impl core::ops::SubAssign for $ty {
            #[inline]
            fn sub_assign(&mut self, rhs: Self) {
                core::ops::BitXorAssign::bitxor_assign(&mut self.0, rhs.0);
            }
        }
        impl core::ops::Mul for $ty {
            type Output = Self;
            #[inline]
            fn mul(self, rhs: Self) -> Self {
                $ty::$mul(self, rhs)
            }
        }
        impl core::ops::MulAssign for $ty {
            #[inline]
            fn mul_assign(&mut self, rhs: Self) {
                *self = $ty::$mul(*self, rhs);
            }
        }
    };
}

pub(crate) use impl_xor_field_ops;

/// `a^(2^m - 2)`, the inverse of `a` (with `0 ↦ 0`) in a field of order `2^m` for `m >= 2`, by the
/// Itoh–Tsujii addition chain: about `m` squarings and `2·log2(m)` multiplications, a sequence
/// that depends only on the public `m`.
pub(crate) fn itoh_tsujii_inverse<T: Copy>(a: T, m: u32, square: impl Fn(T) -> T, mul: impl Fn(T, T) -> T) -> T {
    debug_assert!(m >= 2);
    // Invariant: t = a^(2^k - 1); walk the bits of n = m - 1 below its leading one.
    let n = m - 1;
    let mut t = a;
    let mut k = 1u32;
    for bit in (0..31 - n.leading_zeros()).rev() {
        let mut shifted = t;
        for _ in 0..k {
            shifted = square(shifted);
        }
        t = mul(shifted, t);
        k *= 2;
        if (n >> bit) & 1 == 1 {
            t = mul(square(t), a);
            k += 1;
        }
    }
    debug_assert_eq!(k, n);
    square(t)
}
