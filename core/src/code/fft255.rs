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
//! Each 85-point DFT is a Good–Thomas prime-factor FFT, 85 = 5·17 (input index
//! `(17·n1 + 5·n2) mod 85`, output index by the CRT), so no twiddle factors are needed; it splits
//! the problem by 17 as §4.2 suggests. Products: 5·16² + 17·4² = 1552 per 85-point DFT, 4824 per
//! encoding (versus 85·170 = 14450 for the generator matrix).
//!
//! **Constant-time note.** Every product here is a *secret* symbol times a *public* root-of-unity
//! power. It uses split nibble tables precomputed per constant: `c·s = lo_c[s & 15] ^ hi_c[s >> 4]`.
//! The indices depend on secret nibbles, but both 16-byte tables sit in one 32-byte-aligned block,
//! i.e. in a single cache line, so an attacker observing which cache lines are touched learns
//! nothing. This is *not* constant time against sub-cache-line channels (e.g. cache-bank conflicts
//! on old CPUs); a full 256-entry table indexed by the secret byte would be worse (8 lines), and
//! the bit-serial product costs about four times as much. The codewords checked for membership are
//! opened (public) values, so membership leaks nothing new either way.

use crate::field::{Field, Gf256};

/// Length of the FFT code.
pub(crate) const N: usize = 255;
/// Size of the subgroup `⟨ω^3⟩` carrying the systematic positions.
pub(crate) const K: usize = 85;

/// The generator `ω` of GF(2^8)^* used for every FFT convention in this module.
pub const OMEGA: Gf256 = Gf256(0x03);

/// `x^e` by square-and-multiply (the exponent is public).
pub(crate) fn pow(x: Gf256, mut e: u32) -> Gf256 {
    let mut base = x;
    let mut acc = Gf256::ONE;
    while e > 0 {
        if e & 1 == 1 {
            acc *= base;
        }
        base = base.square();
        e >>= 1;
    }
    acc
}

/// The evaluation point of position `p` of the (255, ·) codes: `ω^{3(p mod 85) + ⌊p / 85⌋}`.
pub fn group_point(p: usize) -> Gf256 {
    pow(OMEGA, (3 * (p % K) + p / K) as u32)
}

/// Multiplication by one public constant through split nibble tables (see the module docs).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct ConstMul {
    lo: [u8; 16],
    hi: [u8; 16],
}

impl ConstMul {
    fn new(c: Gf256) -> Self {
        let mut t = ConstMul { lo: [0; 16], hi: [0; 16] };
        for x in 0..16u8 {
            t.lo[x as usize] = (c * Gf256(x)).0;
            t.hi[x as usize] = (c * Gf256(x << 4)).0;
        }
        t
    }

    #[inline(always)]
    fn mul(&self, s: u8) -> u8 {
        self.lo[(s & 15) as usize] ^ self.hi[(s >> 4) as usize]
    }
}

/// A naive DFT of prime size `P` with a fixed root: `out[u] = Σ_r root^{ur} · in[r]`, one nibble
/// table per non-trivial matrix entry (`(P-1)²` products).
#[derive(Clone, Debug)]
struct SmallDft<const P: usize> {
    /// `rows[u-1][r-1]` multiplies by `root^{ur}`.
    rows: Vec<[ConstMul; 16]>,
}

impl<const P: usize> SmallDft<P> {
    fn new(root: Gf256) -> Self {
        let rows = (1..P)
            .map(|u| {
                let mut row = [ConstMul::new(Gf256::ZERO); 16];
                for r in 1..P {
                    row[r - 1] = ConstMul::new(pow(root, ((u * r) % P) as u32));
                }
                row
            })
            .collect();
        SmallDft { rows }
    }

    #[inline(always)]
    fn apply(&self, input: &[u8; P], out: &mut [u8; P]) {
        out[0] = input.iter().fold(0, |acc, &x| acc ^ x);
        for (o, row) in out[1..].iter_mut().zip(&self.rows) {
            let mut acc = input[0];
            for (t, &x) in row.iter().zip(&input[1..]) {
                acc ^= t.mul(x);
            }
            *o = acc;
        }
    }
}

/// `(17·n1 + 5·n2) mod 85`: the Good–Thomas input map.
const fn input_index(n1: usize, n2: usize) -> usize {
    (17 * n1 + 5 * n2) % K
}

/// The `k < 85` with `k ≡ k1 (mod 5)` and `k ≡ k2 (mod 17)`: the Good–Thomas output map.
/// (`51 ≡ 1 mod 5, ≡ 0 mod 17` and `35 ≡ 0 mod 5, ≡ 1 mod 17`.)
const fn output_index(k1: usize, k2: usize) -> usize {
    (51 * k1 + 35 * k2) % K
}

/// An 85-point DFT `X_k = Σ_n x_n root^{nk}` for a root of order 85, by Good–Thomas 5 × 17.
#[derive(Clone, Debug)]
struct Dft85 {
    dft17: SmallDft<17>,
    dft5: SmallDft<5>,
}

impl Dft85 {
    fn new(root: Gf256) -> Self {
        Dft85 { dft17: SmallDft::new(pow(root, 5)), dft5: SmallDft::new(pow(root, 17)) }
    }

    fn apply(&self, input: &[u8; K], out: &mut [u8; K]) {
        let mut rows = [[0u8; 17]; 5];
        for (n1, row) in rows.iter_mut().enumerate() {
            let mut gathered = [0u8; 17];
            for (n2, g) in gathered.iter_mut().enumerate() {
                *g = input[input_index(n1, n2)];
            }
            self.dft17.apply(&gathered, row);
        }
        for k2 in 0..17 {
            let column = [rows[0][k2], rows[1][k2], rows[2][k2], rows[3][k2], rows[4][k2]];
            let mut spectrum = [0u8; 5];
            self.dft5.apply(&column, &mut spectrum);
            for (k1, &s) in spectrum.iter().enumerate() {
                out[output_index(k1, k2)] = s;
            }
        }
    }
}

/// Precomputed tables for FFT encoding and membership of the (255, k) codes.
#[derive(Clone, Debug)]
pub(crate) struct Fft255 {
    forward: Dft85,
    inverse: Dft85,
    /// `twist_forward[r-1][n]` multiplies by `ω^{rn}`.
    twist_forward: [[ConstMul; K]; 2],
    /// `twist_inverse[r-1][n]` multiplies by `ω^{-rn}`.
    twist_inverse: [[ConstMul; K]; 2],
    /// Multiplication by `ζ^{-1}` and `ζ^{-2}`, `ζ = ω^85` a primitive cube root of unity.
    zeta_inverse: [ConstMul; 2],
}

impl Fft255 {
    pub(crate) fn new() -> Self {
        let beta = pow(OMEGA, 3);
        let omega_inv = OMEGA.inverse();
        let twist = |base: Gf256, r: u32| {
            let mut t = [ConstMul::new(Gf256::ZERO); K];
            for (n, c) in t.iter_mut().enumerate() {
                *c = ConstMul::new(pow(base, r * n as u32));
            }
            t
        };
        Fft255 {
            forward: Dft85::new(beta),
            inverse: Dft85::new(beta.inverse()),
            twist_forward: [twist(OMEGA, 1), twist(OMEGA, 2)],
            twist_inverse: [twist(omega_inv, 1), twist(omega_inv, 2)],
            zeta_inverse: [ConstMul::new(pow(omega_inv, 85)), ConstMul::new(pow(omega_inv, 170))],
        }
    }

    /// Writes the codeword of `message` (85 symbols) into `out` (255 symbols).
    pub(crate) fn encode_into(&self, message: &[Gf256], out: &mut [Gf256]) {
        let mut values = [0u8; K];
        for (v, m) in values.iter_mut().zip(message) {
            *v = m.0;
        }
        let mut coefficients = [0u8; K];
        self.inverse.apply(&values, &mut coefficients);
        out[..K].copy_from_slice(message);
        for (r, twist) in self.twist_forward.iter().enumerate() {
            let mut twisted = [0u8; K];
            for ((t, tw), &a) in twisted.iter_mut().zip(twist).zip(&coefficients) {
                *t = tw.mul(a);
            }
            let mut block = [0u8; K];
            self.forward.apply(&twisted, &mut block);
            for (o, &b) in out[(r + 1) * K..(r + 2) * K].iter_mut().zip(&block) {
                *o = Gf256(b);
            }
        }
    }

    /// All 255 coefficients (degree 0 first) of the polynomial of degree < 255 whose evaluations, in
    /// this module's position order, are `word` (255 symbols): an inverse 255-point DFT.
    pub(crate) fn coefficients(&self, word: &[Gf256]) -> [u8; N] {
        let mut blocks = [[0u8; K]; 3];
        for (r, block) in blocks.iter_mut().enumerate() {
            let mut values = [0u8; K];
            for (v, w) in values.iter_mut().zip(&word[r * K..(r + 1) * K]) {
                *v = w.0;
            }
            self.inverse.apply(&values, block);
            if r > 0 {
                for (b, tw) in block.iter_mut().zip(&self.twist_inverse[r - 1]) {
                    *b = tw.mul(*b);
                }
            }
        }
        let [z1, z2] = &self.zeta_inverse;
        let mut out = [0u8; N];
        for t in 0..K {
            let (d0, d1, d2) = (blocks[0][t], blocks[1][t], blocks[2][t]);
            out[t] = d0 ^ d1 ^ d2;
            out[K + t] = d0 ^ z1.mul(d1) ^ z2.mul(d2);
            out[2 * K + t] = d0 ^ z2.mul(d1) ^ z1.mul(d2);
        }
        out
    }

    /// Whether `word` (255 symbols) lies in the (255, k) code: all coefficients of degree `≥ k`
    /// vanish.
    pub(crate) fn is_member(&self, word: &[Gf256], k: usize) -> bool {
        self.coefficients(word)[k..].iter().fold(0u8, |acc, &c| acc | c) == 0
    }
}
