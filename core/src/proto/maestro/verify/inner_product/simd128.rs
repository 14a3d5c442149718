//! The wasm32 `simd128` kernels that multiply by a public coin sixteen products at a time through
//! its nibble tables ([`Gf64Scalar`]) instead of the general carry-less kernel:
//! [`super::kernels::fold`] (every product of a fold has the factor r; the evaluations of the next
//! halving are the generic ones, [`Evaluations::add_pairs`]) and the powers of r of the
//! combination ([`PowerWindow`]: sixteen chains with the factor r^16 instead of two with r²).
//! Cross-checked against the portable kernels by [`super::self_check`], which the WASM module runs
//! under Node.

use super::kernels::{fold_one, Element, Evaluations, PAIRS};
use crate::field::clmul::wasm_scalar::{Gf64Scalar, LANES};
use crate::field::clmul::Backend;
use crate::field::Gf64;

/// Shorter vectors are folded by the generic kernel: building the tables of r costs about as much
/// as this many products.
const MIN_LEN: usize = 64;

/// Four outputs v[j..j+4] from v[2j..2j+8] (sixteen components times r).
#[inline(always)]
fn fold_four(scalar: &Gf64Scalar, input: &[Element]) -> [Element; 4] {
    let mut d = [0u64; LANES];
    for (k, pair) in input.chunks_exact(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let (dx, dy) = (a.x + b.x, a.y + b.y);
        d[4 * k..4 * k + 4].copy_from_slice(&[dx.first, dx.second, dy.first, dy.second]);
    }
    scalar.mul_in_place(&mut d);
    core::array::from_fn(|k| {
        let mut e = input[2 * k];
        e.x.first ^= d[4 * k];
        e.x.second ^= d[4 * k + 1];
        e.y.first ^= d[4 * k + 2];
        e.y.second ^= d[4 * k + 3];
        e
    })
}

/// vᵢ ← v₂ᵢ + r(v₂ᵢ + v₂ᵢ₊₁) in place (even length in, halved out), then this party's shares of
/// the next halving's h(1), h(∞) (padding an odd result).
pub(super) fn fold(v: &mut Vec<Element>, r: u64) -> [u64; 2] {
    let backend = Backend::Simd128;
    if v.len() < MIN_LEN {
        return super::kernels::fold(backend, v, r);
    }
    let scalar = Gf64Scalar::new(r);
    let half = v.len() / 2;
    let mut evaluations = Evaluations::default();
    // Outputs in groups of four, reading ahead of what they overwrite; the evaluations take the
    // pairs just written, 2·PAIRS outputs at a time (a multiple of four).
    let whole = half - half % 4;
    for start in (0..whole).step_by(2 * PAIRS) {
        let end = (start + 2 * PAIRS).min(whole);
        for j in (start..end).step_by(4) {
            let out = fold_four(&scalar, &v[2 * j..2 * j + 8]);
            v[j..j + 4].copy_from_slice(&out);
        }
        evaluations.add_pairs(backend, &v[start..end]);
    }
    for j in whole..half {
        v[j] = fold_one(backend, v[2 * j], v[2 * j + 1], r);
    }
    // The pairs among the last outputs (whole is even, so pairs stay aligned).
    evaluations.add_pairs(backend, &v[whole..half - half % 2]);
    v.truncate(half);
    evaluations.finish(backend, v)
}

/// The powers r^k, r^(k+1), … of the combination, sixteen computed at once: the window holds
/// r^k, …, r^(k+15) and moves on by one multiplication of all sixteen by r^16.
pub(super) struct PowerWindow {
    window: [u64; LANES],
    used: usize,
    step: Gf64Scalar,
}

impl PowerWindow {
    /// From r^0.
    pub(super) fn new(r: u64) -> Self {
        let mut window = [1u64; LANES];
        for k in 1..LANES {
            window[k] = (Gf64(window[k - 1]) * Gf64(r)).0;
        }
        let step = (Gf64(window[LANES - 1]) * Gf64(r)).0;
        PowerWindow { window, used: 0, step: Gf64Scalar::new(step) }
    }

    /// The next `out.len()` powers.
    #[inline(always)]
    pub(super) fn fill(&mut self, out: &mut [u64]) {
        for o in out {
            if self.used == LANES {
                self.step.mul_in_place(&mut self.window);
                self.used = 0;
            }
            *o = self.window[self.used];
            self.used += 1;
        }
    }
}
