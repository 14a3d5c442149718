//! The local part of the bit-packing multiplication (§4.3, steps 2–5): from the opened
//! `ε = x + a` and `δ = y + b` (codewords of `C*`) and a triple, a share of
//! `[[x ∧ y]]* = [[ε ∧ δ]] + Σ_i C(δ↓i) ∗ [[a^i]] + Σ_i C(ε↓i) ∗ [[b^i]] + [[a ∧ b]]*`,
//! where `ε, δ` stand for their data `C*^{-1}(·)` (first `k` symbols) and `↓i` for bit plane `i`.
//!
//! The result stays in `C*` (zero-degree constants, §4.5: no conversion back to `C`), so this is
//! all a multiplication does locally; the public term `ε ∧ δ` is added to party 0's value share,
//! and `α_p ∗ C(ε ∧ δ)` to every MAC share (§2, addition of a public constant).

use super::params::MiniMacCode;
use super::prep::{A_BITS, B_BITS, C};
use crate::field::Gf256;

/// Reusable buffers for [`and_gate`].
pub(crate) struct AndScratch {
    eps_planes: Vec<Gf256>,
    delta_planes: Vec<Gf256>,
    product_planes: Vec<Gf256>,
    product: Vec<Gf256>,
    product_data: Vec<Gf256>,
}

impl AndScratch {
    pub(crate) fn new(code: &MiniMacCode) -> Self {
        let (n, k) = (code.n(), code.k());
        AndScratch {
            eps_planes: vec![Gf256(0); 8 * n],
            delta_planes: vec![Gf256(0); 8 * n],
            product_planes: vec![Gf256(0); 8 * n],
            product: vec![Gf256(0); n],
            product_data: vec![Gf256(0); k],
        }
    }
}

/// Writes this party's share (`2n` bytes: value, MAC) of `x ∧ y` to `out`.
///
/// `eps`, `delta`: the opened values (`n` bytes each); `triple`: this party's shares of the
/// triple; `alpha`: `α_p`; `first`: whether this is party 0 (which adds public constants).
#[allow(clippy::too_many_arguments)]
pub(crate) fn and_gate(
    code: &MiniMacCode,
    first: bool,
    alpha: &[u8],
    eps: &[u8],
    delta: &[u8],
    triple: &[u8],
    out: &mut [u8],
    s: &mut AndScratch,
) -> Result<(), crate::code::CodeError> {
    let (n, k) = (code.n(), code.k());
    let (eps, delta) = (Gf256::from_bytes(&eps[..k]), Gf256::from_bytes(&delta[..k]));
    code.c.encode_public_planes(eps, &mut s.eps_planes)?;
    code.c.encode_public_planes(delta, &mut s.delta_planes)?;
    for ((p, e), d) in s.product_data.iter_mut().zip(eps).zip(delta) {
        *p = Gf256(e.0 & d.0);
    }
    code.c.encode_public_into(&s.product_data, &mut s.product, &mut s.product_planes)?;

    let word = |w: usize| &triple[w * 2 * n..(w + 1) * 2 * n];
    out.copy_from_slice(word(C));
    let (value, mac) = out.split_at_mut(n);
    let (value, mac) = (Gf256::from_bytes_mut(value), Gf256::from_bytes_mut(mac));
    // In the first k positions a plane codeword is its 0/1 data, so the product there is a
    // selection (a mask); only the redundancy positions need field products.
    for i in 0..8 {
        let delta_plane = &s.delta_planes[i * n..(i + 1) * n];
        let eps_plane = &s.eps_planes[i * n..(i + 1) * n];
        let (a_value, a_mac) = word(A_BITS + i).split_at(n);
        let (b_value, b_mac) = word(B_BITS + i).split_at(n);
        for (plane, (v_share, m_share)) in [(delta_plane, (a_value, a_mac)), (eps_plane, (b_value, b_mac))] {
            let (plane_data, plane_red) = plane.split_at(k);
            for (dst, src) in [(&mut *value, v_share), (&mut *mac, m_share)] {
                let (dst_data, dst_red) = dst.split_at_mut(k);
                for ((d, &x), p) in dst_data.iter_mut().zip(&src[..k]).zip(plane_data) {
                    d.0 ^= x & 0u8.wrapping_sub(p.0);
                }
                Gf256::mul_add_slices(dst_red, plane_red, Gf256::from_bytes(&src[k..]));
            }
        }
    }
    if first {
        for (v, p) in value.iter_mut().zip(&s.product) {
            *v += *p;
        }
    }
    Gf256::mul_add_slices(mac, Gf256::from_bytes(alpha), &s.product);
    Ok(())
}
