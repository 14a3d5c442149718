//! The triple log: every multiplication a malicious S-box layer performs, kept in its small field
//! and lifted into GF(2^64) only when the batch is verified (MAESTRO §2.7, Table 2 embeddings).
//!
//! Six kinds of entries, each one GF(2^64) triple (x, y, z) for Protocol 2 except the fifth:
//! - [`TripleLog::record_gf256`]: a GF(2^8) product, embedded with ψ of Table 2 (GF(2^8) row);
//! - [`TripleLog::record_gf256_shared_packed`]: two GF(2^8) products a·b and a·c with a common factor,
//!   checked as **one** product in the spirit of Eq. (3) (§3.2): with A = [`PAIR_IMAGE`] outside
//!   ψ(GF(2^8)), ψ(a)(ψ(b) + Aψ(c)) = ψ(ab) + Aψ(ac). Errors d₁ in ab and d₂ in ac change the
//!   right-hand side by ψ(d₁) + Aψ(d₂), which is nonzero unless d₁ = d₂ = 0 because 1 and A are
//!   independent over ψ(GF(2^8)) (tested exhaustively);
//! - [`TripleLog::record_gf16`]: a GF(2^4) product, embedded with ψ (GF(2^4) row);
//! - [`TripleLog::record_tower`]: the three products of Protocol 3 (a_h·a_l, a_h·v⁻¹,
//!   (a_h + a_l)·v⁻¹) checked as **one** product in K = GF(2^4)\[α\]/f(α) (§3.2, Eq. (3)),
//!   embedded with ψ(α) of Table 2 ((GF(2^4))^4 row):
//!   (a_h + α a_l)(a_l + α v⁻¹) = a_h a_l + α (a'_h + a_l²) + α² (a'_h + a'_l).
//!   (The paper prints the α-coefficient as a'_h ⊕ a'_l; expanding the product gives
//!   a_h v⁻¹ + a_l², which is what Lemma 3.2's error term d_v + α d₁ + α²(d₁ + d₂) requires.)
//! - [`TripleLog::record_one_hot`]: the 11 bit products of Protocol 8 checked as **two**
//!   products (Appendix A, Eq. (5) and Eq. (6)) with the bit embedding b₀ + b₁Y + … of Table 2's
//!   note: both sides have degree ≤ 8, so no reduction can cancel errors.
//! - [`TripleLog::record_bit_products`]: up to 64 bit products a·bᵢ = cᵢ with a common bit a
//!   (one level of Protocol 5's Ohv recursion for one (2,3) LUT-256 vector) checked as **one**
//!   product a · B = C with B = Σ bᵢXⁱ and C = Σ cᵢXⁱ in GF(2^64)'s own polynomial basis (the
//!   identity lift). a is a bit — the sharing is over GF(2) — so a · B multiplies no coefficient
//!   into another, and errors dᵢ in the cᵢ change C by D = Σ dᵢXⁱ, nonzero unless every dᵢ is 0.
//!
//! The embeddings are GF(2)-linear, so each party applies them to its own components; they are
//! evaluated with masks (no table indexed by share values). The log stores small words
//! column-wise (recorded straight from the packed share buffers where the layers have them) and
//! [`TripleLog::lift_next`] lifts them a block at a time with the bulk kernels of
//! [`super::embed`]; [`TripleLog::lift_chunks`] is the one-triple-at-a-time reference lift.

use super::embed;
use super::rss64::Rss64;
use crate::field::clmul::portable::clmul64;
use crate::field::embedding::{embed_gf256, GF16_GENERATOR_IMAGE};
use crate::field::{Gf16, Gf256, Gf64};
use crate::proto::maestro::gf16_rss::Rss16;
use crate::proto::maestro::packed::{Packed, Packed16};
use crate::proto::maestro::rss::RssShare;
use crate::proto::maestro::sbox::one_hot16::OneHot16;

/// ψ(α) for K = (GF(2^4))^4 (MAESTRO Table 2); it has degree 4 over ψ(GF(2^4)) (tested), so
/// 1, α, α² are independent over GF(2^4), which is all Eq. (3)'s soundness needs.
pub const ALPHA_IMAGE: u64 = 0x14f1_968d_182d_d50f;

/// A for [`TripleLog::record_gf256_shared_packed`]: any element outside the subfield ψ(GF(2^8)) makes
/// 1, A independent over it; ψ(α) of Table 2 has degree 4 over ψ(GF(2^4)), so it lies in the
/// subfield of order 2^16 but not in the one of order 2^8 (tested: no ψ(c) equals it).
pub const PAIR_IMAGE: u64 = ALPHA_IMAGE;

const fn gf_mul(a: u64, b: u64) -> u64 {
    Gf64::reduce(clmul64(a, b)).0
}

/// ψ(X^i) for GF(2^4), multiplied by `scale`.
const fn gf16_basis(scale: u64) -> [u64; 4] {
    let mut out = [0u64; 4];
    let mut power = 1u64;
    let mut i = 0;
    while i < 4 {
        out[i] = gf_mul(power, scale);
        power = gf_mul(power, GF16_GENERATOR_IMAGE.0);
        i += 1;
    }
    out
}

/// ψ(X^i), ψ(α)ψ(X^i) and ψ(α)²ψ(X^i): the images of the coefficient bases of 1, α, α² in K.
const PSI16: [[u64; 4]; 3] =
    [gf16_basis(1), gf16_basis(ALPHA_IMAGE), gf16_basis(gf_mul(ALPHA_IMAGE, ALPHA_IMAGE))];

/// `Σ bit_i(value) · basis[i]` without branches or secret indices.
#[inline]
fn combine(value: u8, basis: &[u64; 4]) -> u64 {
    let mut acc = 0;
    for (i, b) in basis.iter().enumerate() {
        acc ^= b & 0u64.wrapping_sub(u64::from((value >> i) & 1));
    }
    acc
}

/// ψ(a) + ψ(α)ψ(b) + ψ(α)²ψ(c) for GF(2^4) components a, b, c (the reference embedding).
#[inline]
pub(super) fn embed_k(a: Gf16, b: Gf16, c: Gf16) -> u64 {
    combine(a.value(), &PSI16[0]) ^ combine(b.value(), &PSI16[1]) ^ combine(c.value(), &PSI16[2])
}

/// One party's components of a GF(2^64) triple.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Triple64 {
    /// Share of x.
    pub x: Rss64,
    /// Share of y.
    pub y: Rss64,
    /// Share of z (= x·y when nobody cheated).
    pub z: Rss64,
}

/// Recorded products of one kind, column-wise: component `c` (x_i or x_i+1) of the stored words
/// of x, y and z of every entry, in the order recorded.
#[derive(Clone, Debug, Default)]
struct Columns<Y, Z> {
    x: [Vec<u8>; 2],
    y: [Vec<Y>; 2],
    z: [Vec<Z>; 2],
}

impl<Y, Z> Columns<Y, Z> {
    fn len(&self) -> usize {
        self.x[0].len()
    }

    fn push(&mut self, c: usize, x: u8, y: Y, z: Z) {
        self.x[c].push(x);
        self.y[c].push(y);
        self.z[c].push(z);
    }
}

/// Triples lifted per [`LiftedBlock`].
pub const BLOCK: usize = 128;

/// Up to [`BLOCK`] lifted triples, column-wise: `x[c][k]` is component `c` of triple k's x.
#[derive(Clone, Debug)]
pub struct LiftedBlock {
    /// Number of valid triples.
    pub len: usize,
    /// Components of x.
    pub x: [[u64; BLOCK]; 2],
    /// Components of y.
    pub y: [[u64; BLOCK]; 2],
    /// Components of z.
    pub z: [[u64; BLOCK]; 2],
}

impl Default for LiftedBlock {
    fn default() -> Self {
        LiftedBlock { len: 0, x: [[0; BLOCK]; 2], y: [[0; BLOCK]; 2], z: [[0; BLOCK]; 2] }
    }
}

/// Every multiplication recorded since the last verification, in its small field, stored
/// column-wise (a byte or nibble word per component, as the packed share buffers hold them):
/// - GF(2^8) and GF(2^4) triples: the elements themselves;
/// - shared-factor GF(2^8) pairs: x = a, y = b | c << 8, z = ab | ac << 8;
/// - Eq. (3) entries: x = a_h | a_l << 4, y = a_l | v⁻¹ << 4 and
///   z = a_h a_l | a'_h << 4 | a'_l << 8 | a_l << 12, the words the lifts of [`super::embed`]
///   take;
/// - one-hot vectors: the 16 bits of e;
/// - common-bit products: x = a (0 or 1), y and z the words of up to 64 bits bᵢ and cᵢ.
#[derive(Clone, Debug, Default)]
pub struct TripleLog {
    gf256: Columns<u8, u8>,
    gf256_shared: Columns<u16, u16>,
    gf16: Columns<u8, u8>,
    tower: Columns<u8, u16>,
    one_hot: [Vec<u16>; 2],
    bit_products: Columns<u64, u64>,
}

/// Component `c` (0: x_i, 1: x_i+1) of nibble-packed shares.
fn component16(p: &Packed16, c: usize) -> &[u8] {
    if c == 0 {
        &p.first
    } else {
        &p.second
    }
}

/// `v[k] | v[n + k] << 8` for k < n: the two halves of a batch side by side.
fn wide_words(v: &[u8], n: usize) -> impl Iterator<Item = u16> + '_ {
    v[..n].iter().zip(&v[n..2 * n]).map(|(&low, &high)| u16::from(low) | u16::from(high) << 8)
}

/// Every nibble of `bytes`, low nibble first (element 2j, then 2j + 1, as the packed layout
/// stores them).
fn unpack_nibbles(bytes: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; 2 * bytes.len()];
    for (pair, &b) in out.chunks_exact_mut(2).zip(bytes) {
        pair[0] = b & 15;
        pair[1] = b >> 4;
    }
    out
}

/// The stored words of one Eq. (3) entry (one component).
fn tower_words(high: u8, low: u8, inverse: u8, high_low: u8, new_high: u8, new_low: u8) -> (u8, u8, u16) {
    let z = u16::from(high_low) | u16::from(new_high) << 4 | u16::from(new_low) << 8 | u16::from(low) << 12;
    (high | low << 4, low | inverse << 4, z)
}

impl TripleLog {
    /// An empty log.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records `z[k] = x[k] · y[k]` over GF(2^8).
    pub fn record_gf256(&mut self, x: &[RssShare], y: &[RssShare], z: &[RssShare]) {
        for ((x, y), z) in x.iter().zip(y).zip(z) {
            self.gf256.push(0, x.first().0, y.first().0, z.first().0);
            self.gf256.push(1, x.second().0, y.second().0, z.second().0);
        }
    }

    /// Records `z[k] = x[k] · y[k]` over GF(2^8) straight from packed share buffers.
    pub fn record_gf256_packed(&mut self, x: &Packed, y: &Packed, z: &Packed) {
        let n = x.len().min(y.len()).min(z.len());
        for (c, (xc, yc, zc)) in
            [(&x.first, &y.first, &z.first), (&x.second, &y.second, &z.second)].into_iter().enumerate()
        {
            self.gf256.x[c].extend_from_slice(&xc[..n]);
            self.gf256.y[c].extend_from_slice(&yc[..n]);
            self.gf256.z[c].extend_from_slice(&zc[..n]);
        }
    }

    /// Records the batch `[a·b, a·c] = [a, a] · [b, c]` of GF(2^8) products with a common
    /// factor, straight from the packed buffers of that batch (`x` = a‖a, `y` = b‖c, `z` =
    /// ab‖ac, 2n elements each), as n single checks (one GF(2^64) triple per pair, see the
    /// module docs). The first half of `x` is taken as a; the layers pass a‖a as they send it.
    pub fn record_gf256_shared_packed(&mut self, x: &Packed, y: &Packed, z: &Packed) {
        let n = x.len().min(y.len()).min(z.len()) / 2;
        for (c, (xc, yc, zc)) in
            [(&x.first, &y.first, &z.first), (&x.second, &y.second, &z.second)].into_iter().enumerate()
        {
            self.gf256_shared.x[c].extend_from_slice(&xc[..n]);
            self.gf256_shared.y[c].extend(wide_words(yc, n));
            self.gf256_shared.z[c].extend(wide_words(zc, n));
        }
    }

    /// Records `z[k] = x[k] · y[k]` over GF(2^4).
    pub fn record_gf16(&mut self, x: &[Rss16], y: &[Rss16], z: &[Rss16]) {
        for ((x, y), z) in x.iter().zip(y).zip(z) {
            self.gf16.push(0, x.first().value(), y.first().value(), z.first().value());
            self.gf16.push(1, x.second().value(), y.second().value(), z.second().value());
        }
    }

    /// Records `z[k] = x[k] · y[k]` over GF(2^4) straight from nibble-packed share buffers.
    pub fn record_gf16_packed(&mut self, x: &Packed16, y: &Packed16, z: &Packed16) {
        let n = x.len().min(y.len()).min(z.len());
        for (c, (xc, yc, zc)) in
            [(&x.first, &y.first, &z.first), (&x.second, &y.second, &z.second)].into_iter().enumerate()
        {
            self.gf16.x[c].extend_from_slice(&unpack_nibbles(xc)[..n]);
            self.gf16.y[c].extend_from_slice(&unpack_nibbles(yc)[..n]);
            self.gf16.z[c].extend_from_slice(&unpack_nibbles(zc)[..n]);
        }
    }

    /// Records the three products of one Protocol 3 inversion for the single Eq. (3) check:
    /// `high_times_low` = a_h·a_l, `new_high` = a_h·v⁻¹, `new_low` = (a_h + a_l)·v⁻¹.
    pub fn record_tower(
        &mut self,
        high: Rss16,
        low: Rss16,
        inverse: Rss16,
        high_times_low: Rss16,
        new_high: Rss16,
        new_low: Rss16,
    ) {
        for (c, pick) in [Rss16::first as fn(Rss16) -> Gf16, Rss16::second].into_iter().enumerate() {
            let v = |s: Rss16| pick(s).value();
            let (x, y, z) =
                tower_words(v(high), v(low), v(inverse), v(high_times_low), v(new_high), v(new_low));
            self.tower.push(c, x, y, z);
        }
    }

    /// [`TripleLog::record_tower`] for every element of nibble-packed buffers: `outputs` holds
    /// the `new_high` then the `new_low` values (2n elements, as Eq. (1)'s batch returns them).
    pub fn record_tower_packed(
        &mut self,
        high: &Packed16,
        low: &Packed16,
        inverse: &Packed16,
        high_times_low: &Packed16,
        outputs: &Packed16,
    ) {
        let n = high.len();
        for c in 0..2 {
            let unpack = |p: &Packed16| unpack_nibbles(component16(p, c));
            let (h, l, inv, hl, out) =
                (unpack(high), unpack(low), unpack(inverse), unpack(high_times_low), unpack(outputs));
            let (h, l, inv, hl) = (&h[..n], &l[..n], &inv[..n], &hl[..n]);
            let (new_high, new_low) = (&out[..n], &out[n..2 * n]);
            let cols = &mut self.tower;
            cols.x[c].extend(h.iter().zip(l).map(|(&h, &l)| tower_words(h, l, 0, 0, 0, 0).0));
            cols.y[c].extend(l.iter().zip(inv).map(|(&l, &inv)| tower_words(0, l, inv, 0, 0, 0).1));
            cols.z[c].extend(
                hl.iter()
                    .zip(new_high)
                    .zip(new_low)
                    .zip(l)
                    .map(|(((&hl, &nh), &nl), &l)| tower_words(0, l, 0, hl, nh, nl).2),
            );
        }
    }

    /// Records the 11 products of one Protocol 8 one-hot vector for the Eq. (5)/(6) checks.
    pub fn record_one_hot(&mut self, vector: &OneHot16) {
        self.one_hot[0].push(vector.e.0);
        self.one_hot[1].push(vector.e.1);
    }

    /// Records the products `products[i] = left · right[i]` of one bit `left` with up to 64 bits,
    /// given as this party's components: `left` = (first, second) bits (0 or 1), `right` and
    /// `products` = (first, second) words with bit i the i-th factor or product. Bits at and
    /// above `count` are ignored; `count` is at most 64.
    pub fn record_bit_products(
        &mut self,
        left: (u8, u8),
        right: (u64, u64),
        products: (u64, u64),
        count: usize,
    ) {
        debug_assert!(count <= 64);
        let mask = if count >= 64 { u64::MAX } else { (1u64 << count) - 1 };
        self.bit_products.push(0, left.0 & 1, right.0 & mask, products.0 & mask);
        self.bit_products.push(1, left.1 & 1, right.1 & mask, products.1 & mask);
    }

    /// A log of `sizes` = (GF(2^8), shared-factor GF(2^8), GF(2^4), Eq. (3), one-hot,
    /// common-bit) entries with words from `next` (random shares of not necessarily correct
    /// products), for benchmarks and self-checks of the verification kernels.
    pub fn pseudo_random(sizes: [usize; 6], next: &mut impl FnMut() -> u64) -> Self {
        let mut log = TripleLog::new();
        for c in 0..2 {
            for _ in 0..sizes[0] {
                let w = next();
                log.gf256.push(c, w as u8, (w >> 8) as u8, (w >> 16) as u8);
            }
            for _ in 0..sizes[1] {
                let w = next();
                log.gf256_shared.push(c, w as u8, (w >> 8) as u16, (w >> 24) as u16);
            }
            for _ in 0..sizes[2] {
                let w = next();
                log.gf16.push(c, w as u8 & 15, (w >> 8) as u8 & 15, (w >> 16) as u8 & 15);
            }
            for _ in 0..sizes[3] {
                let w = next();
                log.tower.push(c, w as u8, (w >> 8) as u8, (w >> 16) as u16);
            }
            for _ in 0..sizes[4] {
                log.one_hot[c].push(next() as u16);
            }
            for _ in 0..sizes[5] {
                log.bit_products.push(c, next() as u8 & 1, next(), next());
            }
        }
        log
    }

    /// Number of GF(2^64) triples the log lifts to.
    pub fn len(&self) -> usize {
        self.gf256.len()
            + self.gf256_shared.len()
            + self.gf16.len()
            + self.tower.len()
            + 2 * self.one_hot[0].len()
            + self.bit_products.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets every entry (after a verification).
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// Lifts the next block of recorded triples into GF(2^64) with the bulk lifts of
    /// [`super::embed`], in the fixed order of [`TripleLog::lift_chunks`]; returns `false` once
    /// every triple was lifted. Going block by block, the lifted batch never exists in memory
    /// at once.
    #[inline(always)]
    pub fn lift_next(&self, cursor: &mut LiftCursor, block: &mut LiftedBlock) -> bool {
        loop {
            let consumed = match cursor.kind {
                0 => lift_columns(
                    &self.gf256,
                    &embed::GF256,
                    &embed::GF256,
                    &embed::GF256,
                    cursor.start,
                    block,
                ),
                1 => lift_columns(
                    &self.gf256_shared,
                    &embed::GF256,
                    &embed::GF256_SHARED,
                    &embed::GF256_SHARED,
                    cursor.start,
                    block,
                ),
                2 => lift_columns(&self.gf16, &embed::GF16, &embed::GF16, &embed::GF16, cursor.start, block),
                3 => lift_columns(
                    &self.tower,
                    &embed::TOWER_XY,
                    &embed::TOWER_XY,
                    &embed::TOWER_Z,
                    cursor.start,
                    block,
                ),
                4 => lift_one_hot(&self.one_hot, &cursor.one_hot_basis, cursor.start, block),
                5 => lift_bit_products(&self.bit_products, cursor.start, block),
                _ => return false,
            };
            if consumed == 0 {
                cursor.kind += 1;
                cursor.start = 0;
            } else {
                cursor.start += consumed;
                return true;
            }
        }
    }

    /// The reference lift: every recorded triple lifted into GF(2^64) one at a time with the
    /// straightforward embeddings (`embed_gf256`, `embed_k`, the monomial transform), in a fixed
    /// order, handed to `consume` in chunks of at most `chunk` triples. Verification uses
    /// [`TripleLog::lift_next`]; this is what its tests compare it with.
    pub fn lift_chunks(&self, chunk: usize, mut consume: impl FnMut(&[Triple64])) {
        let chunk = chunk.max(1);
        let mut buffer: Vec<Triple64> = Vec::with_capacity(chunk);
        let mut sink = |t: Triple64| {
            buffer.push(t);
            if buffer.len() == chunk {
                consume(&buffer);
                buffer.clear();
            }
        };
        let pair = |p: u64, q: u64| Rss64 { first: p, second: q };
        let e8 = |v: u8| embed_gf256(Gf256(v)).0;
        let cols = &self.gf256;
        for k in 0..cols.len() {
            sink(Triple64 {
                x: pair(e8(cols.x[0][k]), e8(cols.x[1][k])),
                y: pair(e8(cols.y[0][k]), e8(cols.y[1][k])),
                z: pair(e8(cols.z[0][k]), e8(cols.z[1][k])),
            });
        }
        let shared = |w: u16| e8(w as u8) ^ gf_mul(PAIR_IMAGE, e8((w >> 8) as u8));
        let cols = &self.gf256_shared;
        for k in 0..cols.len() {
            sink(Triple64 {
                x: pair(e8(cols.x[0][k]), e8(cols.x[1][k])),
                y: pair(shared(cols.y[0][k]), shared(cols.y[1][k])),
                z: pair(shared(cols.z[0][k]), shared(cols.z[1][k])),
            });
        }
        let zero = Gf16::new(0);
        let e4 = |v: u8| embed_k(Gf16::new(v), zero, zero);
        let cols = &self.gf16;
        for k in 0..cols.len() {
            sink(Triple64 {
                x: pair(e4(cols.x[0][k]), e4(cols.x[1][k])),
                y: pair(e4(cols.y[0][k]), e4(cols.y[1][k])),
                z: pair(e4(cols.z[0][k]), e4(cols.z[1][k])),
            });
        }
        let cols = &self.tower;
        for k in 0..cols.len() {
            let component = |c: usize| {
                let n = |w: u16, s: u16| Gf16::new(((w >> s) & 15) as u8);
                let (x, y, z) = (u16::from(cols.x[c][k]), u16::from(cols.y[c][k]), cols.z[c][k]);
                let (high, low, inverse) = (n(x, 0), n(x, 4), n(y, 4));
                let (high_low, new_high, new_low) = (n(z, 0), n(z, 4), n(z, 8));
                (
                    embed_k(high, low, zero),
                    embed_k(low, inverse, zero),
                    embed_k(high_low, new_high + low * low, new_high + new_low),
                )
            };
            let (xf, yf, zf) = component(0);
            let (xs, ys, zs) = component(1);
            sink(Triple64 { x: pair(xf, xs), y: pair(yf, ys), z: pair(zf, zs) });
        }
        for (&ef, &es) in self.one_hot[0].iter().zip(&self.one_hot[1]) {
            let [a, b] = one_hot_triples(monomials(ef));
            let [c, d] = one_hot_triples(monomials(es));
            sink(Triple64 { x: pair(a[0], c[0]), y: pair(a[1], c[1]), z: pair(a[2], c[2]) });
            sink(Triple64 { x: pair(b[0], d[0]), y: pair(b[1], d[1]), z: pair(b[2], d[2]) });
        }
        let cols = &self.bit_products;
        for k in 0..cols.len() {
            sink(Triple64 {
                x: pair(u64::from(cols.x[0][k]), u64::from(cols.x[1][k])),
                y: pair(cols.y[0][k], cols.y[1][k]),
                z: pair(cols.z[0][k], cols.z[1][k]),
            });
        }
        if !buffer.is_empty() {
            consume(&buffer);
        }
    }
}

/// Where [`TripleLog::lift_next`] continues: the kind of entries and the first entry not lifted.
#[derive(Clone, Debug)]
pub struct LiftCursor {
    kind: usize,
    start: usize,
    one_hot_basis: [u64; 16],
}

impl Default for LiftCursor {
    fn default() -> Self {
        LiftCursor { kind: 0, start: 0, one_hot_basis: embed::one_hot_basis() }
    }
}

/// Lifts up to [`BLOCK`] entries of one kind from `start` with the bases of its x, y and z
/// words; returns the number of entries lifted.
#[inline(always)]
fn lift_columns<
    Y: Copy + Into<u64>,
    Z: Copy + Into<u64>,
    const BX: usize,
    const BY: usize,
    const BZ: usize,
>(
    cols: &Columns<Y, Z>,
    bx: &[u64; BX],
    by: &[u64; BY],
    bz: &[u64; BZ],
    start: usize,
    block: &mut LiftedBlock,
) -> usize {
    let m = cols.len().saturating_sub(start).min(BLOCK);
    let range = start..start + m;
    for c in 0..2 {
        embed::embed_into(&mut block.x[c][..m], &cols.x[c][range.clone()], bx);
        embed::embed_into(&mut block.y[c][..m], &cols.y[c][range.clone()], by);
        embed::embed_into(&mut block.z[c][..m], &cols.z[c][range.clone()], bz);
    }
    block.len = m;
    m
}

/// Lifts up to [`BLOCK`]/2 one-hot vectors from `start` into their Eq. (5) and Eq. (6) triples
/// (interleaved); returns the number of vectors lifted.
#[inline(always)]
fn lift_one_hot(e: &[Vec<u16>; 2], basis: &[u64; 16], start: usize, block: &mut LiftedBlock) -> usize {
    const MASK: u64 = (1 << embed::ONE_HOT_SLOT) - 1;
    let m = e[0].len().saturating_sub(start).min(BLOCK / 2);
    let mut packed = [0u64; BLOCK / 2];
    for (c, components) in e.iter().enumerate() {
        embed::embed_into(&mut packed[..m], &components[start..start + m], basis);
        for (v, &p) in packed[..m].iter().enumerate() {
            for (t, slot) in [(2 * v, 0), (2 * v + 1, 3)] {
                block.x[c][t] = (p >> (embed::ONE_HOT_SLOT * slot)) & MASK;
                block.y[c][t] = (p >> (embed::ONE_HOT_SLOT * (slot + 1))) & MASK;
                block.z[c][t] = (p >> (embed::ONE_HOT_SLOT * (slot + 2))) & MASK;
            }
        }
    }
    block.len = 2 * m;
    m
}

/// Lifts up to [`BLOCK`] common-bit entries from `start`: the identity (the bit a is 0 or 1 in
/// GF(2^64), the words are already in its polynomial basis); returns the number lifted.
#[inline(always)]
fn lift_bit_products(cols: &Columns<u64, u64>, start: usize, block: &mut LiftedBlock) -> usize {
    let m = cols.len().saturating_sub(start).min(BLOCK);
    for c in 0..2 {
        for (out, &a) in block.x[c][..m].iter_mut().zip(&cols.x[c][start..start + m]) {
            *out = u64::from(a);
        }
        block.y[c][..m].copy_from_slice(&cols.y[c][start..start + m]);
        block.z[c][..m].copy_from_slice(&cols.z[c][start..start + m]);
    }
    block.len = m;
    m
}

/// Monomial components m_S (bit S) from one-hot components e_j (bit j): e_j = Σ_{S ⊇ J} m_S
/// (Eq. (4) expanded, as [`crate::proto::maestro::sbox::one_hot16`] builds e), and this superset-sum
/// transform over GF(2) is its own inverse.
pub(super) fn monomials(e: u16) -> u16 {
    let mut m = 0u16;
    for s in 0..16u16 {
        let mut supersets = 0u16;
        for j in 0..16u16 {
            supersets |= u16::from(j & s == s) << j;
        }
        m |= (((e & supersets).count_ones() & 1) as u16) << s;
    }
    m
}

/// The bit embedding of Eq. (5)/(6) operands: `terms[k]` = subset whose monomial is the
/// coefficient of Y^`k`-th listed power.
fn bits(m: u16, terms: &[(u16, u32)]) -> u64 {
    terms.iter().fold(0, |acc, &(subset, power)| acc | (u64::from((m >> subset) & 1) << power))
}

/// Subset masks of the monomials (bit i = rᵢ).
const R0: u16 = 1;
const R1: u16 = 2;
const R2: u16 = 4;
const R3: u16 = 8;

/// The two GF(2^64) triples of Eq. (5) and Eq. (6) for one party's monomial components.
pub(super) fn one_hot_triples(m: u16) -> [[u64; 3]; 2] {
    // Eq. (5): (r0 + r1 Y + r2 Y²)(r3 + r0 Y³ + r1 Y⁶).
    let t1 = bits(m, &[(R0, 0), (R1, 1), (R2, 2)]);
    let t2 = bits(m, &[(R3, 0), (R0, 3), (R1, 6)]);
    let t3 = bits(
        m,
        &[
            (R0 | R3, 0),
            (R1 | R3, 1),
            (R2 | R3, 2),
            (R0, 3),
            (R0 | R1, 4),
            (R0 | R2, 5),
            (R0 | R1, 6),
            (R1, 7),
            (R1 | R2, 8),
        ],
    );
    // Eq. (6): (r0r1 + r0r3 Y + r1r3 Y²)(r2 + r3 Y³ + r2r3 Y⁶).
    let h1 = bits(m, &[(R0 | R1, 0), (R0 | R3, 1), (R1 | R3, 2)]);
    let h2 = bits(m, &[(R2, 0), (R3, 3), (R2 | R3, 6)]);
    let h3 = bits(
        m,
        &[
            (R0 | R1 | R2, 0),
            (R0 | R2 | R3, 1),
            (R1 | R2 | R3, 2),
            (R0 | R1 | R3, 3),
            (R0 | R3, 4),
            (R1 | R3, 5),
            (R0 | R1 | R2 | R3, 6),
            (R0 | R2 | R3, 7),
            (R1 | R2 | R3, 8),
        ],
    );
    [[t1, t2, t3], [h1, h2, h3]]
}

#[cfg(test)]
mod tests;
