//! The systematic generator matrix `E = V_{n×k} (V_{k×k})^{-1}` of paper §2.1 and the encoder and
//! membership test built on it.
//!
//! Row `i` of `E`'s transpose is the codeword of the `i`-th unit message: the evaluations, at all
//! `n` points, of the Lagrange polynomial `L_i` of the first `k` points (`L_i(v_l) = [i = l]` for
//! `l < k`). Only its redundancy part (positions `k..n`) is stored; the first `k` positions are the
//! identity. Encoding is the row-combination form `c[k..] = Σ_i m_i · E_i[k..]`, one
//! [`Gf256::mul_add_scalar_slice`] per message symbol, so it inherits every speed-up of that bulk
//! operation (SIMD nibble tables, GFNI) without change here. The multiplier `m_i` is secret and the
//! rows are public; the bulk operation is constant time in both.

use crate::field::{Field, Gf256};

/// The redundancy part of a systematic Reed-Solomon generator: `k` rows of `n - k` symbols.
#[derive(Clone, Debug)]
pub(crate) struct SystematicGenerator {
    k: usize,
    redundancy: usize,
    parity: Vec<Gf256>,
}

impl SystematicGenerator {
    /// Builds the generator for evaluation points `points` (distinct, validated by the caller) and
    /// dimension `k` (`1 <= k <= points.len()`).
    ///
    /// `L_i(v_j) = P_j / ((v_j - v_i) · w_i)` with `P_j = Π_{l<k} (v_j - v_l)` and
    /// `w_i = Π_{l<k, l≠i} (v_i - v_l)`: O(k·n) products and inversions, done once per code.
    pub(crate) fn from_points(points: &[Gf256], k: usize) -> Self {
        let n = points.len();
        let redundancy = n - k;
        let info = &points[..k];
        let weights: Vec<Gf256> = (0..k)
            .map(|i| {
                info.iter()
                    .enumerate()
                    .filter(|&(l, _)| l != i)
                    .fold(Gf256::ONE, |acc, (_, &v)| acc * (info[i] - v))
            })
            .collect();
        let mut parity = vec![Gf256::ZERO; k * redundancy];
        for (col, &vj) in points[k..].iter().enumerate() {
            let pj = info.iter().fold(Gf256::ONE, |acc, &v| acc * (vj - v));
            for i in 0..k {
                parity[i * redundancy + col] = pj * ((vj - info[i]) * weights[i]).inverse();
            }
        }
        SystematicGenerator { k, redundancy, parity }
    }

    /// The redundancy part (positions `k..n`) of the codeword of the `i`-th unit message.
    pub(crate) fn parity_row(&self, i: usize) -> &[Gf256] {
        &self.parity[i * self.redundancy..(i + 1) * self.redundancy]
    }

    /// Writes the redundancy symbols of `message` (length `k`) into `redundancy` (length `n - k`).
    pub(crate) fn redundancy_into(&self, message: &[Gf256], redundancy: &mut [Gf256]) {
        redundancy.fill(Gf256::ZERO);
        if self.redundancy == 0 {
            return;
        }
        for (row, &m) in self.parity.chunks_exact(self.redundancy).zip(message) {
            Gf256::mul_add_scalar_slice(redundancy, row, m);
        }
    }

    /// Writes the codeword of `message` (length `k`) into `out` (length `n`).
    pub(crate) fn encode_into(&self, message: &[Gf256], out: &mut [Gf256]) {
        let (info, red) = out.split_at_mut(self.k);
        info.copy_from_slice(message);
        self.redundancy_into(message, red);
    }

    /// The first redundancy position at which `word` (length `n`) differs from the re-encoding of
    /// its first `k` symbols, or `None` if `word` is a codeword (paper §2.1's check `E·c[..k] = c`).
    pub(crate) fn first_mismatch(&self, word: &[Gf256]) -> Option<usize> {
        let mut scratch = [Gf256::ZERO; 256];
        let expected = &mut scratch[..self.redundancy];
        self.redundancy_into(&word[..self.k], expected);
        expected.iter().zip(&word[self.k..]).position(|(e, w)| e != w).map(|p| p + self.k)
    }
}
