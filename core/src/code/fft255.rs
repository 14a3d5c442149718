//! Reed-Solomon over the multiplicative group of GF(2^8) by FFT (paper §4.2).
//!
//! `ω = 0x03` generates GF(2^8)^* (order 255 = 3·5·17), so `β = ω^3` has order 85. The (255, 85) code
//! evaluates polynomials of degree < 85 at all of GF(2^8)^*, in this **position order**:
//! position `p = 85·r + q` (`r ∈ {0,1,2}`, `q < 85`) holds the value at `ω^{3q + r}`. The first 85
//! positions are then the subgroup `⟨β⟩`, which makes the code systematic in its first `k`
//! positions exactly as §4.2 describes:
//!
//! 1. `a = M_β^{-1} m`: the coefficients of the polynomial `f` with `f(β^q) = m_q` (an inverse
//!    85-point DFT; `1/85 = 1` in characteristic 2);
//! 2. for `r = 1, 2`: twist `a_n ↦ a_n·ω^{rn}` and take a forward 85-point DFT, which gives
//!    `f(ω^{3q + r})` for all `q`. (The `r = 0` block is the message itself.)
//!
//! Membership (in `C` or `C*`, §4.2 "test if the degree is low enough") computes all 255
//! coefficients of the interpolating polynomial — three inverse 85-point DFTs, a twist and 85
//! three-point DFTs over the cube roots of unity — and checks that those of degree `≥ k` vanish.
//!
//! Each 85-point DFT is a Good–Thomas prime-factor FFT, 85 = 5·17 (module `dft`), which splits
//! the problem by 17 as §4.2 suggests. Products: 5·16² + 17·4² = 1552 per 85-point DFT, 4824 per
//! encoding (versus 85·170 = 14450 for the generator matrix). The transforms an operation needs
//! (one inverse then two forward for encoding, three inverse for membership) run side by side in
//! SIMD lanes where the CPU allows.
//!
//! **Constant-time note.** Every product is a secret symbol times a public root-of-unity power.
//! The DFT stages use nibble tables (module `dft`: constant time in the SSSE3 kernel,
//! cache-line-safe but not sub-line constant time in the portable one); the twists and the
//! 3-point stage here go through the field's bulk operations ([`Gf256::mul_slices`],
//! [`Gf256::mul_add_scalar_slice`]), which are constant time. Codewords checked for membership are
//! opened (public) values.

use super::dft::{pow, Dft85, Kernel};
use crate::field::{Field, Gf256};

/// Length of the FFT code.
pub(crate) const N: usize = 255;
/// Size of the subgroup `⟨ω^3⟩` carrying the systematic positions.
pub(crate) const K: usize = 85;

/// The generator `ω` of GF(2^8)^* used for every FFT convention in this module.
pub const OMEGA: Gf256 = Gf256(0x03);

/// The evaluation point of position `p` of the (255, ·) codes: `ω^{3(p mod 85) + ⌊p / 85⌋}`.
pub fn group_point(p: usize) -> Gf256 {
    pow(OMEGA, (3 * (p % K) + p / K) as u32)
}

/// Precomputed tables for FFT encoding and membership of the (255, k) codes.
#[derive(Clone, Debug)]
pub(crate) struct Fft255 {
    forward: Dft85,
    inverse: Dft85,
    /// `twist_forward[r-1][n] = ω^{rn}`.
    twist_forward: [[Gf256; K]; 2],
    /// `twist_inverse[r-1][n] = ω^{-rn}`.
    twist_inverse: [[Gf256; K]; 2],
    /// `ζ^{-1}` and `ζ^{-2}`, `ζ = ω^85` a primitive cube root of unity.
    zeta_inverse: [Gf256; 2],
}

impl Fft255 {
    pub(crate) fn new() -> Self {
        let beta = pow(OMEGA, 3);
        let omega_inv = OMEGA.inverse();
        let twist = |base: Gf256, r: u32| core::array::from_fn(|n| pow(base, r * n as u32));
        let kernel = Kernel::detect();
        Fft255 {
            forward: Dft85::new(beta, kernel),
            inverse: Dft85::new(beta.inverse(), kernel),
            twist_forward: [twist(OMEGA, 1), twist(OMEGA, 2)],
            twist_inverse: [twist(omega_inv, 1), twist(omega_inv, 2)],
            zeta_inverse: [pow(omega_inv, 85), pow(omega_inv, 170)],
        }
    }

    /// Writes the codeword of `message` (85 symbols) into `out` (255 symbols).
    pub(crate) fn encode_into(&self, message: &[Gf256], out: &mut [Gf256]) {
        let mut values = [[Gf256::ZERO; K]; 1];
        values[0].copy_from_slice(message);
        let mut coefficients = [[Gf256::ZERO; K]; 1];
        self.inverse.apply_batch(&values, &mut coefficients);
        let mut twisted = [[Gf256::ZERO; K]; 2];
        for (t, twist) in twisted.iter_mut().zip(&self.twist_forward) {
            Gf256::mul_slices(t, &coefficients[0], twist);
        }
        let mut blocks = [[Gf256::ZERO; K]; 2];
        self.forward.apply_batch(&twisted, &mut blocks);
        out[..K].copy_from_slice(message);
        out[K..2 * K].copy_from_slice(&blocks[0]);
        out[2 * K..].copy_from_slice(&blocks[1]);
    }

    /// All 255 coefficients (degree 0 first) of the polynomial of degree < 255 whose evaluations, in
    /// this module's position order, are `word` (255 symbols): an inverse 255-point DFT.
    pub(crate) fn coefficients(&self, word: &[Gf256]) -> [Gf256; N] {
        let mut values = [[Gf256::ZERO; K]; 3];
        for (v, w) in values.iter_mut().zip(word.chunks_exact(K)) {
            v.copy_from_slice(w);
        }
        let mut blocks = [[Gf256::ZERO; K]; 3];
        self.inverse.apply_batch(&values, &mut blocks);
        let [d0, mut d1, mut d2] = blocks;
        Gf256::mul_slices(&mut d1, &blocks[1], &self.twist_inverse[0]);
        Gf256::mul_slices(&mut d2, &blocks[2], &self.twist_inverse[1]);
        let [z1, z2] = self.zeta_inverse;
        let mut out = [Gf256::ZERO; N];
        let (s0, rest) = out.split_at_mut(K);
        let (s1, s2) = rest.split_at_mut(K);
        for (((o, &a), &b), &c) in s0.iter_mut().zip(&d0).zip(&d1).zip(&d2) {
            *o = a + b + c;
        }
        s1.copy_from_slice(&d0);
        Gf256::mul_add_scalar_slice(s1, &d1, z1);
        Gf256::mul_add_scalar_slice(s1, &d2, z2);
        s2.copy_from_slice(&d0);
        Gf256::mul_add_scalar_slice(s2, &d1, z2);
        Gf256::mul_add_scalar_slice(s2, &d2, z1);
        out
    }

    /// Whether `word` (255 symbols) lies in the (255, k) code: all coefficients of degree `≥ k`
    /// vanish.
    pub(crate) fn is_member(&self, word: &[Gf256], k: usize) -> bool {
        self.coefficients(word)[k..].iter().fold(0u8, |acc, c| acc | c.0) == 0
    }
}
