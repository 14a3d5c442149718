//! Spdz2k sharings `[x]`: party i holds `(x_i, m_i)` with Σ x_i = x and Σ m_i = α·x modulo
//! 2^(k+s), α = Σ α_i and α_i ∈ Z_{2^s} (Coral paper §2.2.1, "SPDZ-style MACs" with S a ring;
//! Spdz2k §3). Linear operations are local; a public constant is added by party 0 to its value
//! share and by every party, times its key share, to its MAC share.
//!
//! Arithmetic is wrapping `u128` ([`super::ring`]): correct modulo 2^(k+s) without reductions.

use core::ops::{Add, Neg, Sub};

/// This party's share of an authenticated value of Z_{2^k}.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AShare {
    /// Additive share of the value (modulo 2^(k+s)).
    pub value: u128,
    /// Additive share of its MAC α·x (modulo 2^(k+s)).
    pub mac: u128,
}

impl AShare {
    /// `c·[x]` for a public c.
    #[inline]
    pub fn scale(self, c: u128) -> AShare {
        AShare { value: self.value.wrapping_mul(c), mac: self.mac.wrapping_mul(c) }
    }

    /// `[x] + c` for a public c, at party `me` with MAC-key share `alpha`.
    #[inline]
    pub fn add_public(self, c: u128, me: usize, alpha: u128) -> AShare {
        AShare {
            value: if me == 0 { self.value.wrapping_add(c) } else { self.value },
            mac: self.mac.wrapping_add(alpha.wrapping_mul(c)),
        }
    }

    /// The sharing of the public constant c.
    #[inline]
    pub fn public(c: u128, me: usize, alpha: u128) -> AShare {
        AShare::default().add_public(c, me, alpha)
    }
}

/// `[x] + [y]`.
impl Add for AShare {
    type Output = AShare;
    #[inline]
    fn add(self, other: AShare) -> AShare {
        AShare { value: self.value.wrapping_add(other.value), mac: self.mac.wrapping_add(other.mac) }
    }
}

/// `[x] − [y]`.
impl Sub for AShare {
    type Output = AShare;
    #[inline]
    fn sub(self, other: AShare) -> AShare {
        AShare { value: self.value.wrapping_sub(other.value), mac: self.mac.wrapping_sub(other.mac) }
    }
}

/// `−[x]`.
impl Neg for AShare {
    type Output = AShare;
    #[inline]
    fn neg(self) -> AShare {
        AShare { value: self.value.wrapping_neg(), mac: self.mac.wrapping_neg() }
    }
}
