//! The GF(2)-linear lifts of recorded small-field values into GF(2^64) (MAESTRO Table 2 and
//! Appendix A), each as a table of basis images applied with masks: `Σ bit_i(v) · basis[i]`.
//!
//! Every lift the log needs is GF(2)-linear in the bits it stores, so one kernel serves all of
//! them ([`embed_into`]); only the bases differ:
//! - [`GF256`]: ψ of Table 2's GF(2^8) row;
//! - [`GF256_SHARED`]: ψ(b) + Aψ(c) for the bytes (b, c) of a `u16` (the shared-factor pairs of
//!   [`super::triples::TripleLog::record_gf256_shared_packed`]);
//! - [`GF16`]: ψ of Table 2's GF(2^4) row;
//! - [`TOWER_XY`]: ψ(a) + ψ(α)ψ(b) for the nibbles (a, b) of a byte ((GF(2^4))^4 row, Eq. (3));
//! - [`TOWER_Z`]: Eq. (3)'s right-hand side ψ(a_h a_l) + ψ(α)(ψ(a'_h) + ψ(a_l)²) +
//!   ψ(α)²(ψ(a'_h) + ψ(a'_l)) from the nibbles (a_h a_l, a'_h, a'_l, a_l) of a `u16` — squaring
//!   is GF(2)-linear and ψ is a ring homomorphism, so ψ(a_l²) = ψ(a_l)² folds into the basis;
//! - [`one_hot_basis`]: all six bit-embedded operands of Eq. (5)/(6) from the 16 one-hot bits
//!   (the monomial transform and the bit selections are GF(2)-linear), packed in 10-bit slots.
//!
//! Constant time: no table is indexed by a share and no branch depends on one; each output is
//! a fixed sequence of AND/XOR with a mask from one input bit. The loop runs over many elements
//! with the basis in registers, so the compiler vectorises it across elements (several `u64`
//! lanes per instruction) — this replaces the one-element-at-a-time embedding of the first
//! implementation, which is kept as the reference in [`super::triples`].

use super::triples::{monomials, one_hot_triples, ALPHA_IMAGE, PAIR_IMAGE};
use crate::field::clmul::portable::clmul64;
use crate::field::embedding::{GF16_GENERATOR_IMAGE, GF256_GENERATOR_IMAGE};
use crate::field::Gf64;

const fn gf_mul(a: u64, b: u64) -> u64 {
    Gf64::reduce(clmul64(a, b)).0
}

/// `scale · generator^i` for i < N.
const fn scaled_powers<const N: usize>(generator: u64, scale: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut power = 1u64;
    let mut i = 0;
    while i < N {
        out[i] = gf_mul(power, scale);
        power = gf_mul(power, generator);
        i += 1;
    }
    out
}

/// ψ(X^i) for GF(2^8).
pub const GF256: [u64; 8] = scaled_powers(GF256_GENERATOR_IMAGE.0, 1);

/// Bits 0–7: ψ(X^i); bits 8–15: Aψ(X^i) with A = [`PAIR_IMAGE`].
pub const GF256_SHARED: [u64; 16] = gf256_shared();

const fn gf256_shared() -> [u64; 16] {
    let scaled: [u64; 8] = scaled_powers(GF256_GENERATOR_IMAGE.0, PAIR_IMAGE);
    let mut out = [0u64; 16];
    let mut i = 0;
    while i < 8 {
        out[i] = GF256[i];
        out[8 + i] = scaled[i];
        i += 1;
    }
    out
}

/// ψ(X^i) for GF(2^4).
pub const GF16: [u64; 4] = scaled_powers(GF16_GENERATOR_IMAGE.0, 1);

const GF16_ALPHA: [u64; 4] = scaled_powers(GF16_GENERATOR_IMAGE.0, ALPHA_IMAGE);
const GF16_ALPHA2: [u64; 4] = scaled_powers(GF16_GENERATOR_IMAGE.0, gf_mul(ALPHA_IMAGE, ALPHA_IMAGE));

/// Bits 0–3: ψ(X^i); bits 4–7: ψ(α)ψ(X^i).
pub const TOWER_XY: [u64; 8] =
    [GF16[0], GF16[1], GF16[2], GF16[3], GF16_ALPHA[0], GF16_ALPHA[1], GF16_ALPHA[2], GF16_ALPHA[3]];

/// Images of the 16 bits of (a_h a_l) | a'_h << 4 | a'_l << 8 | a_l << 12 under Eq. (3)'s
/// right-hand side.
pub const TOWER_Z: [u64; 16] = tower_z();

const fn tower_z() -> [u64; 16] {
    let mut out = [0u64; 16];
    let mut i = 0;
    while i < 4 {
        out[i] = GF16[i];
        out[4 + i] = GF16_ALPHA[i] ^ GF16_ALPHA2[i];
        out[8 + i] = GF16_ALPHA2[i];
        out[12 + i] = gf_mul(ALPHA_IMAGE, gf_mul(GF16[i], GF16[i]));
        i += 1;
    }
    out
}

/// Width of one operand's slot in the packed one-hot lift (operands have degree ≤ 8).
pub const ONE_HOT_SLOT: u32 = 10;

/// Image of one-hot bit j: the six operands (x, y, z of Eq. (5), then of Eq. (6)) of the vector
/// e_j = 1, operand s in bits `ONE_HOT_SLOT·s ..`.
pub fn one_hot_basis() -> [u64; 16] {
    core::array::from_fn(|j| {
        let [first, second] = one_hot_triples(monomials(1 << j));
        first.iter().chain(&second).enumerate().fold(0, |acc, (s, &v)| acc | v << (ONE_HOT_SLOT * s as u32))
    })
}

/// `out[k] = Σ_i bit_i(values[k]) · basis[i]` (over the shorter length), branch-free and without
/// secret indices. The one place the lift's fast path is chosen: wasm32 with `simd128` runs
/// `simd128::embed_into` (four values per vector), every other target [`embed_into_portable`]
/// (which the compiler vectorises natively).
#[inline(always)]
pub fn embed_into<T: Copy + Into<u64>, const B: usize>(out: &mut [u64], values: &[T], basis: &[u64; B]) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    simd128::embed_into(out, values, basis);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    embed_into_portable(out, values, basis);
}

/// The wasm32 `simd128` lift (the crate must be compiled with `target-feature=+simd128`, as the
/// WASM builds are).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use core::arch::wasm32::*;

    /// [`super::embed_into`] on four values per vector: each value in a 32-bit lane, each bit's
    /// mask made by shifting the bit to the sign and back (arithmetic shift), the basis split into
    /// its low and high 32-bit halves, the two halves interleaved into `u64`s at the end. Only
    /// fixed shifts, AND and XOR: no branch or index depends on a value. Needs `B ≤ 32` (the
    /// bases have at most 16 elements).
    #[inline(always)]
    pub(super) fn embed_into<T: Copy + Into<u64>, const B: usize>(
        out: &mut [u64],
        values: &[T],
        basis: &[u64; B],
    ) {
        const { assert!(B <= 32) };
        let n = out.len().min(values.len());
        let (out, values) = (&mut out[..n], &values[..n]);
        let low: [v128; B] = core::array::from_fn(|i| u32x4_splat(basis[i] as u32));
        let high: [v128; B] = core::array::from_fn(|i| u32x4_splat((basis[i] >> 32) as u32));
        let mut outs = out.chunks_exact_mut(4);
        let mut ins = values.chunks_exact(4);
        for (o, v) in (&mut outs).zip(&mut ins) {
            let w = |k: usize| v[k].into() as u32;
            let x = u32x4(w(0), w(1), w(2), w(3));
            let (mut lo, mut hi) = (u32x4_splat(0), u32x4_splat(0));
            for i in 0..B {
                let mask = i32x4_shr(i32x4_shl(x, 31 - i as u32), 31);
                lo = v128_xor(lo, v128_and(mask, low[i]));
                hi = v128_xor(hi, v128_and(mask, high[i]));
            }
            let first = i32x4_shuffle::<0, 4, 1, 5>(lo, hi);
            let second = i32x4_shuffle::<2, 6, 3, 7>(lo, hi);
            o[0] = u64x2_extract_lane::<0>(first);
            o[1] = u64x2_extract_lane::<1>(first);
            o[2] = u64x2_extract_lane::<0>(second);
            o[3] = u64x2_extract_lane::<1>(second);
        }
        super::embed_into_portable(outs.into_remainder(), ins.remainder(), basis);
    }
}

/// [`embed_into`] in plain 64-bit integer code (the reference of every fast path).
#[inline(always)]
pub fn embed_into_portable<T: Copy + Into<u64>, const B: usize>(
    out: &mut [u64],
    values: &[T],
    basis: &[u64; B],
) {
    for (o, &v) in out.iter_mut().zip(values) {
        let v: u64 = v.into();
        let mut acc = 0u64;
        for (i, b) in basis.iter().enumerate() {
            acc ^= b & ((v >> i) & 1).wrapping_neg();
        }
        *o = acc;
    }
}

/// Cross-checks [`embed_into`] against [`embed_into_portable`] for every basis and every value
/// of the stored word widths (exhaustively), at every length up to 40 and at an odd offset.
///
/// # Errors
/// The first mismatch, described.
pub fn self_check() -> Result<(), String> {
    fn check<T: Copy + Into<u64>, const B: usize>(
        name: &str,
        values: &[T],
        basis: &[u64; B],
    ) -> Result<(), String> {
        let (mut fast, mut reference) = (vec![0u64; values.len()], vec![0u64; values.len()]);
        embed_into(&mut fast, values, basis);
        embed_into_portable(&mut reference, values, basis);
        if let Some(k) = (0..values.len()).find(|&k| fast[k] != reference[k]) {
            return Err(format!("embed {name}: lift of {:#x} differs", values[k].into()));
        }
        for len in 0..40.min(values.len()) {
            for start in [0, 1] {
                let part = &values[start.min(values.len())..(start + len).min(values.len())];
                let mut fast = vec![0u64; part.len()];
                embed_into(&mut fast, part, basis);
                if fast != reference[start.min(values.len())..][..part.len()] {
                    return Err(format!("embed {name}: length {len} at {start} differs"));
                }
            }
        }
        Ok(())
    }
    let bytes: Vec<u8> = (0..=255).collect();
    let words: Vec<u16> = (0..=u16::MAX).collect();
    check("GF256", &bytes, &GF256)?;
    check("GF16", &bytes, &GF16)?;
    check("TOWER_XY", &bytes, &TOWER_XY)?;
    check("GF256_SHARED", &words, &GF256_SHARED)?;
    check("TOWER_Z", &words, &TOWER_Z)?;
    check("one-hot", &words, &one_hot_basis())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::embedding::{embed_gf16, embed_gf256};
    use crate::field::{Gf16, Gf256};
    use crate::proto::maestro::verify::triples::embed_k;

    fn embed_one<T: Copy + Into<u64>, const B: usize>(v: T, basis: &[u64; B]) -> u64 {
        let mut out = [0u64];
        embed_into(&mut out, &[v], basis);
        out[0]
    }

    #[test]
    fn bases_match_the_reference_embeddings_exhaustively() {
        for v in 0..=255u8 {
            assert_eq!(embed_one(v, &GF256), embed_gf256(Gf256(v)).0);
            let (low, high) = (Gf16::new(v & 15), Gf16::new(v >> 4));
            assert_eq!(embed_one(v & 15, &GF16), embed_gf16(low).0);
            assert_eq!(embed_one(v, &TOWER_XY), embed_k(low, high, Gf16::new(0)));
        }
        for w in 0..=u16::MAX {
            let (b, c) = (embed_gf256(Gf256(w as u8)), embed_gf256(Gf256((w >> 8) as u8)));
            assert_eq!(Gf64(embed_one(w, &GF256_SHARED)), b + Gf64(PAIR_IMAGE) * c, "{w:#06x}");
        }
        for w in 0..=u16::MAX {
            let n = |s: u16| Gf16::new(((w >> s) & 15) as u8);
            let (high_low, new_high, new_low, low) = (n(0), n(4), n(8), n(12));
            let reference = embed_k(high_low, new_high + low * low, new_high + new_low);
            assert_eq!(embed_one(w, &TOWER_Z), reference, "{w:#06x}");
        }
    }

    #[test]
    fn one_hot_basis_matches_the_reference_lift_exhaustively() {
        let basis = one_hot_basis();
        let slot = |packed: u64, s: u32| (packed >> (ONE_HOT_SLOT * s)) & ((1 << ONE_HOT_SLOT) - 1);
        for e in 0..=u16::MAX {
            let packed = embed_one(e, &basis);
            let [first, second] = one_hot_triples(monomials(e));
            let unpacked: Vec<u64> = (0..6).map(|s| slot(packed, s)).collect();
            assert_eq!(unpacked, [first, second].concat(), "{e:#06x}");
        }
    }

    #[test]
    fn bulk_embedding_matches_one_at_a_time() {
        let values: Vec<u8> = (0..1000u32).map(|k| (k.wrapping_mul(0x9e37_79b9) >> 13) as u8).collect();
        let mut out = vec![0u64; values.len()];
        embed_into(&mut out, &values, &GF256);
        for (&v, &o) in values.iter().zip(&out) {
            assert_eq!(o, embed_gf256(Gf256(v)).0);
        }
    }
}
