//! The x86-64 kernels: the same arithmetic as [`super::kernels`] on SSE registers, a pair of
//! GF(2^64) components per register, so two products share one vectorised reduction and the
//! inner products accumulate unreduced in registers.

use super::kernels::{Combination, Element, Evaluations};
use super::{Rss64, TripleLog};
use crate::field::clmul::Backend;
use crate::field::gf64x2::Gf64x2;
use crate::proto::maestro::verify::triples::{LiftCursor, LiftedBlock, BLOCK};

#[inline]
#[target_feature(enable = "sse2,pclmulqdq")]
fn pair(first: u64, second: u64) -> Gf64x2 {
    Gf64x2::new(first, second)
}

#[inline]
#[target_feature(enable = "sse2,pclmulqdq")]
fn unpair(v: Gf64x2) -> Rss64 {
    let [first, second] = v.lanes();
    Rss64 { first, second }
}

/// The unreduced local product x_i(y_i + y_i+1) + x_i+1 y_i of replicated pairs x, y.
#[inline]
#[target_feature(enable = "sse2,pclmulqdq")]
fn local(x: Gf64x2, y: Gf64x2) -> Gf64x2 {
    let y_sum = y.xor(y.seconds(y)).firsts(y);
    x.clmul::<0x00>(y_sum).xor(x.clmul::<0x11>(y_sum))
}

/// Register form of an [`Element`].
#[derive(Clone, Copy)]
struct Lanes {
    x: Gf64x2,
    y: Gf64x2,
}

#[inline]
#[target_feature(enable = "sse2,pclmulqdq")]
fn load(e: &Element) -> Lanes {
    Lanes { x: pair(e.x.first, e.x.second), y: pair(e.y.first, e.y.second) }
}

#[inline]
#[target_feature(enable = "sse2,pclmulqdq")]
fn store(l: Lanes) -> Element {
    Element { x: unpair(l.x), y: unpair(l.y) }
}

/// Unreduced h(1), h(∞) accumulators in registers.
#[derive(Clone, Copy)]
struct Accumulators {
    at_one: Gf64x2,
    leading: Gf64x2,
}

impl Accumulators {
    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    fn new() -> Self {
        Accumulators { at_one: Gf64x2::zero(), leading: Gf64x2::zero() }
    }

    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    fn add_pair(&mut self, a: Lanes, b: Lanes) {
        self.at_one = self.at_one.xor(local(b.x, b.y));
        self.leading = self.leading.xor(local(a.x.xor(b.x), a.y.xor(b.y)));
    }

    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    fn into_evaluations(self, previous: Evaluations) -> Evaluations {
        Evaluations {
            at_one: previous.at_one ^ self.at_one.to_u128(),
            leading: previous.leading ^ self.leading.to_u128(),
        }
    }
}

/// [`super::kernels::combine`] on one block. The powers of r advance as two interleaved
/// chains (r^k, r^(k+1)) ← r²·(r^k, r^(k+1)) in one register, halving the serial
/// multiply-reduce latency per element and sharing one reduction between the two.
#[inline]
#[target_feature(enable = "sse2,pclmulqdq")]
fn combine(acc: &mut Combination, block: &LiftedBlock) {
    let r = Gf64x2::new(acc.r, 0);
    let power = Gf64x2::new(acc.power, 0);
    let mut powers = power.firsts(power.mul_by_first(r));
    let r_squared = r.mul_by_first(r);
    let mut z = [Gf64x2::zero(), Gf64x2::zero()];
    let start = acc.v.len();
    acc.v.resize(start + block.len, Element::default());
    let out = &mut acc.v[start..];
    let lanes = |c: &[[u64; BLOCK]; 2], k: usize| pair(c[0][k], c[1][k]);
    for j in 0..block.len / 2 {
        let (k, l) = (2 * j, 2 * j + 1);
        let (zk, zl) = (lanes(&block.z, k), lanes(&block.z, l));
        z[0] = z[0].xor(zk.clmul::<0x00>(powers));
        z[1] = z[1].xor(zk.clmul::<0x01>(powers));
        z[0] = z[0].xor(zl.clmul::<0x10>(powers));
        z[1] = z[1].xor(zl.clmul::<0x11>(powers));
        out[k] = store(Lanes { x: lanes(&block.x, k).mul_by_first(powers), y: lanes(&block.y, k) });
        out[l] = store(Lanes { x: lanes(&block.x, l).mul_by_second(powers), y: lanes(&block.y, l) });
        powers = powers.mul_by_first(r_squared);
    }
    if block.len % 2 == 1 {
        let k = block.len - 1;
        let zk = lanes(&block.z, k);
        z[0] = z[0].xor(zk.clmul::<0x00>(powers));
        z[1] = z[1].xor(zk.clmul::<0x01>(powers));
        out[k] = store(Lanes { x: lanes(&block.x, k).mul_by_first(powers), y: lanes(&block.y, k) });
        acc.power = unpair(powers).second;
    } else {
        acc.power = unpair(powers).first;
    }
    acc.z_first ^= z[0].to_u128();
    acc.z_second ^= z[1].to_u128();
    let from = start - start % 2;
    let to = acc.v.len() - acc.v.len() % 2;
    let mut sums = Accumulators::new();
    for p in acc.v[from..to].chunks_exact(2) {
        sums.add_pair(load(&p[0]), load(&p[1]));
    }
    acc.evaluations = sums.into_evaluations(acc.evaluations);
}

// SAFETY (all below): callers only reach these after detecting PCLMULQDQ (and AVX2 for
// the `_avx2` variant, which only lets the bulk lifts use wider registers).
#[target_feature(enable = "sse2,pclmulqdq")]
pub(super) unsafe fn combine_log(acc: &mut Combination, log: &TripleLog) {
    let (mut cursor, mut block) = (LiftCursor::default(), LiftedBlock::default());
    while log.lift_next(&mut cursor, &mut block) {
        combine(acc, &block);
    }
}

#[target_feature(enable = "sse2,pclmulqdq,avx2")]
pub(super) unsafe fn combine_log_avx2(acc: &mut Combination, log: &TripleLog) {
    let (mut cursor, mut block) = (LiftCursor::default(), LiftedBlock::default());
    while log.lift_next(&mut cursor, &mut block) {
        combine(acc, &block);
    }
}

#[inline]
#[target_feature(enable = "sse2,pclmulqdq")]
fn fold_one(a: Lanes, b: Lanes, r: Gf64x2) -> Lanes {
    Lanes { x: a.x.xor(a.x.xor(b.x).mul_by_first(r)), y: a.y.xor(a.y.xor(b.y).mul_by_first(r)) }
}

/// [`super::kernels::fold`].
#[target_feature(enable = "sse2,pclmulqdq")]
pub(super) unsafe fn fold(v: &mut Vec<Element>, r: u64) -> [u64; 2] {
    let r = Gf64x2::new(r, 0);
    let half = v.len() / 2;
    let mut sums = Accumulators::new();
    // Four in, two out: writes never overtake reads.
    for j in 0..half / 2 {
        let out0 = fold_one(load(&v[4 * j]), load(&v[4 * j + 1]), r);
        let out1 = fold_one(load(&v[4 * j + 2]), load(&v[4 * j + 3]), r);
        v[2 * j] = store(out0);
        v[2 * j + 1] = store(out1);
        sums.add_pair(out0, out1);
    }
    if half % 2 == 1 {
        v[half - 1] = store(fold_one(load(&v[2 * half - 2]), load(&v[2 * half - 1]), r));
    }
    v.truncate(half);
    sums.into_evaluations(Evaluations::default()).finish(Backend::Pclmulqdq, v)
}
