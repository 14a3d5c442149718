//! The [`Field`] trait shared by every binary field in Chorus.

use core::fmt::Debug;
use core::hash::Hash;
use core::ops::{Add, AddAssign, Mul, MulAssign, Sub, SubAssign};
use rand_core::RngCore;

/// A finite field of characteristic 2: addition and subtraction are XOR.
///
/// Implementations must be constant time in the values of their elements for `mul`, `square` and
/// `inverse`, because protocol code applies them to secret shares.
pub trait Field:
    Copy
    + Clone
    + Debug
    + Default
    + PartialEq
    + Eq
    + Hash
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + AddAssign
    + Sub<Output = Self>
    + SubAssign
    + Mul<Output = Self>
    + MulAssign
{
    /// The additive identity.
    const ZERO: Self;
    /// The multiplicative identity.
    const ONE: Self;
    /// Number of bits of an element (the k of GF(2^k)).
    const BITS: u32;

    /// `self * self`.
    fn square(self) -> Self {
        self * self
    }

    /// The multiplicative inverse, with `0 ↦ 0` (the AES convention).
    fn inverse(self) -> Self;

    /// A uniformly random element.
    fn random<R: RngCore + ?Sized>(rng: &mut R) -> Self;

    /// `true` for the additive identity.
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
}
