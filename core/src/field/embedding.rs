//! Embeddings of the small MAESTRO fields into GF(2^64) (MAESTRO §2.7, Table 2).
//!
//! MAESTRO checks multiplication triples over GF(2^4) and GF(2^8) by mapping them into
//! [`Gf64`] with an injective ring homomorphism ψ onto the subfield of size 2^4 or 2^8, fixed by the
//! image of the generator X (Table 2; hex digits there are a `u64` with bit i the coefficient of Y^i).
//! ψ is GF(2)-linear, so it is evaluated as `Σ a_i ψ(X)^i` with masks (no branch or table index on
//! the secret). [`embed_bits`] is the naive bit embedding `b_0 + b_1 Y + … + b_7 Y^7` of Protocol 8,
//! which is additive but *not* multiplicative.

use super::{Gf16, Gf256, Gf64};

/// ψ(X) for GF(2^4) = F2\[X\]/(X^4 + X + 1) (MAESTRO Table 2).
pub const GF16_GENERATOR_IMAGE: Gf64 = Gf64(0xa181_e7d6_6f5f_f794);
/// ψ(X) for GF(2^8) = F2\[X\]/(X^8 + X^4 + X^3 + X + 1) (MAESTRO Table 2).
pub const GF256_GENERATOR_IMAGE: Gf64 = Gf64(0x033c_e8be_ddc8_a656);

const fn powers<const N: usize>(base: Gf64) -> [Gf64; N] {
    let mut out = [Gf64(0); N];
    let mut acc = Gf64(1);
    let mut i = 0;
    while i < N {
        out[i] = acc;
        acc = Gf64::reduce(super::clmul::portable::clmul64(acc.0, base.0));
        i += 1;
    }
    out
}

/// ψ(X^i) for the GF(2^4) embedding.
const GF16_BASIS: [Gf64; 4] = powers(GF16_GENERATOR_IMAGE);
/// ψ(X^i) for the GF(2^8) embedding.
const GF256_BASIS: [Gf64; 8] = powers(GF256_GENERATOR_IMAGE);

/// `Σ bit_i(value) · basis[i]`, branch-free.
#[inline]
fn linear_combination(value: u64, basis: &[Gf64]) -> Gf64 {
    basis
        .iter()
        .enumerate()
        .fold(Gf64(0), |acc, (i, b)| Gf64(acc.0 ^ (b.0 & 0u64.wrapping_sub((value >> i) & 1))))
}

/// ψ: GF(2^4) → GF(2^64), the subfield embedding of MAESTRO Table 2.
#[inline]
pub fn embed_gf16(a: Gf16) -> Gf64 {
    linear_combination(a.value() as u64, &GF16_BASIS)
}

/// ψ: GF(2^8) → GF(2^64), the subfield embedding of MAESTRO Table 2.
#[inline]
pub fn embed_gf256(a: Gf256) -> Gf64 {
    linear_combination(a.value() as u64, &GF256_BASIS)
}

/// The naive embedding `(b_0, …, b_7) ↦ b_0 + b_1 Y + … + b_7 Y^7` of MAESTRO Protocol 8 (additive,
/// not a ring homomorphism: use it only where the protocol's single-multiplication check allows).
#[inline]
pub const fn embed_bits(bits: u8) -> Gf64 {
    Gf64(bits as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::Field;
    use std::collections::HashSet;

    #[test]
    fn generator_images_are_roots_of_the_small_moduli() {
        let x = GF16_GENERATOR_IMAGE;
        assert_eq!(x.square().square() + x + Gf64::ONE, Gf64::ZERO);
        let y = GF256_BASIS;
        let y8 = y[7] * y[1];
        assert_eq!(y8 + y[4] + y[3] + y[1] + Gf64::ONE, Gf64::ZERO);
    }

    #[test]
    fn gf16_embedding_is_an_injective_ring_homomorphism() {
        let all: Vec<Gf16> = (0..16).map(Gf16::new).collect();
        assert_eq!(embed_gf16(Gf16::ONE), Gf64::ONE);
        let images: HashSet<Gf64> = all.iter().map(|&a| embed_gf16(a)).collect();
        assert_eq!(images.len(), 16);
        for &a in &all {
            for &b in &all {
                assert_eq!(embed_gf16(a * b), embed_gf16(a) * embed_gf16(b));
                assert_eq!(embed_gf16(a + b), embed_gf16(a) + embed_gf16(b));
            }
        }
    }

    #[test]
    fn gf256_embedding_is_an_injective_ring_homomorphism() {
        assert_eq!(embed_gf256(Gf256::ONE), Gf64::ONE);
        let images: HashSet<Gf64> = (0..=255u8).map(|a| embed_gf256(Gf256(a))).collect();
        assert_eq!(images.len(), 256);
        for a in (0..=255u8).map(Gf256) {
            for b in (0..=255u8).map(Gf256) {
                assert_eq!(embed_gf256(a * b), embed_gf256(a) * embed_gf256(b));
                assert_eq!(embed_gf256(a + b), embed_gf256(a) + embed_gf256(b));
            }
        }
    }

    #[test]
    fn bit_embedding_is_additive_and_products_of_low_degree_do_not_wrap() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                assert_eq!(embed_bits(a ^ b), embed_bits(a) + embed_bits(b));
                // deg < 8 times deg < 8 stays below Y^64: the product is the plain carry-less one.
                let product = embed_bits(a) * embed_bits(b);
                assert_eq!(product.0 as u128, crate::field::clmul::portable::clmul64(a as u64, b as u64));
            }
        }
    }
}
