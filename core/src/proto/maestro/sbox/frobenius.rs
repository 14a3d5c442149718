//! The Frobenius maps x ↦ x^(2^k) on GF(2^8) as F2-linear bit matrices, so a share is raised to
//! x², x⁴ or x¹⁶ with one constant-time matrix–vector product (8 masked XORs) instead of k field
//! multiplications (MAESTRO §2.6 "Free Squaring": these maps are F2-linear, hence local on shares).
//!
//! The matrices are computed at compile time from the constant-time field multiplication, and
//! cross-checked exhaustively against repeated squaring in the tests. No table is indexed by the
//! (secret) argument: every column is read and masked by the corresponding bit.

use crate::field::Gf256;

/// An F2-linear map on bytes given by the images of the basis bits: column i = L(1 << i).
#[derive(Clone, Copy, Debug)]
pub struct BitMatrix([u8; 8]);

impl BitMatrix {
    /// The matrix of x ↦ x^(2^k).
    pub const fn frobenius(k: u32) -> Self {
        let mut columns = [0u8; 8];
        let mut i = 0;
        while i < 8 {
            let mut v = 1u8 << i;
            let mut j = 0;
            while j < k {
                v = Gf256::mul_const_time(v, v);
                j += 1;
            }
            columns[i] = v;
            i += 1;
        }
        BitMatrix(columns)
    }

    /// L(b), without branches or secret-dependent indices.
    #[inline]
    pub fn apply(&self, b: u8) -> u8 {
        let mut acc = 0u8;
        for (i, col) in self.0.iter().enumerate() {
            acc ^= col & 0u8.wrapping_sub((b >> i) & 1);
        }
        acc
    }
}

/// x ↦ x².
pub const SQUARE: BitMatrix = BitMatrix::frobenius(1);
/// x ↦ x⁴.
pub const POW4: BitMatrix = BitMatrix::frobenius(2);
/// x ↦ x¹⁶.
pub const POW16: BitMatrix = BitMatrix::frobenius(4);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::Field;

    #[test]
    fn frobenius_matrices_match_repeated_squaring_exhaustively() {
        for v in 0..=255u8 {
            let x = Gf256(v);
            assert_eq!(SQUARE.apply(v), x.square().0);
            assert_eq!(POW4.apply(v), x.square().square().0);
            assert_eq!(POW16.apply(v), (0..4).fold(x, |a, _| a.square()).0);
            assert_eq!(BitMatrix::frobenius(8).apply(v), v, "x^256 = x");
        }
    }
}
