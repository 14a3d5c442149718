//! What one masked opening tells about a shared value's bits: its most significant bit, whether
//! it is zero, and its right shift by a public amount — on checked random bits
//! ([`super::bits`]), without converting to boolean shares.
//!
//! For a shared x ∈ Z_{2^k} and k random bits r_i, r = Σ 2^i r_i (Catrina–de Hoogh, "Improved
//! Primitives for Secure Multiparty Integer Computation", SCN 2010, §4; in Z_{2^k} as in
//! Damgård–Escudero–Frederiksen–Keller–Scholl–Volgushev, S&P 2019, §4):
//! 1. open `c = x + r + 2^k·r'` (an output mask r' hides the upper bits): c modulo 2^k is
//!    uniform, so it reveals nothing, and x = c − r modulo 2^k;
//! 2. with c public, the borrows of `c − r` are a carry-lookahead over r's bits: bit i generates
//!    a borrow `g_i = (1 − c_i)·r_i` and propagates one `p_i = [c_i = r_i]`, both linear in r_i;
//!    segments combine as `(g, p) = (g_h + p_h·g_l, p_h·p_l)` (the two terms of g are never both
//!    1), two products per combination in balanced trees, all trees of a batch in lockstep;
//! 3. **msb and zero test** ([`Probe::MsbZero`]), from the tree (G, P) of the low k − 1 bits:
//!    msb(x) = c_{k−1} ⊕ r_{k−1} ⊕ G and [x = 0] = P·[c_{k−1} = r_{k−1}] (all bits of c and r
//!    agree) — two products;
//! 4. **zero test alone** ([`Probe::Zero`]): the product of the k propagate bits p_i, an AND
//!    tree of k − 1 products and no last product;
//! 5. **right shift by s** ([`Probe::ShiftRight`], 0 < s < k), from the trees of the low s bits
//!    (G_l, P_l) and of the rest (G_h, P_h): as integers x = c − r + 2^k·B with B the borrow of
//!    the whole subtraction, `B = G_h + P_h·G_l` (one product), so
//!    `x >> s = ⌊c/2^s⌋ − Σ_{i≥s} 2^(i−s)·r_i − G_l + 2^(k−s)·B` — truncation, exact (no
//!    probabilistic rounding).
//!
//! Per probed value: k random bits, one output mask, 2k − 2 triples (msb and zero), k − 1 (zero
//! test alone) or 2k − 3 (shift); rounds 1 + ⌈log2(k − 1)⌉ + 1 for any batch with an msb probe. Openings join the MAC log; the output's
//! MAC check covers them before anything is revealed. The bits must have been checked before
//! (a non-bit could make the masked opening leak).

use crate::net::Network;

use super::super::error::CoralError;
use super::super::messages::Step;
use super::online::ArithParty;
use super::share::AShare;

/// What to learn about a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// Its msb and whether it is zero.
    MsbZero,
    /// Whether it is zero.
    Zero,
    /// `x >> s` for a public 0 < s < k.
    ShiftRight(u32),
}

/// The answer to a [`Probe`].
#[derive(Debug, Clone, Copy)]
pub enum Probed {
    /// `(msb(x), [x = 0])`, shared bits.
    MsbZero(AShare, AShare),
    /// `[x = 0]`, a shared bit.
    Zero(AShare),
    /// `x >> s`, shared.
    Shifted(AShare),
}

impl Probe {
    /// Triples per probed value in a ring of `k` bits.
    pub fn triples(self, k: u32) -> usize {
        let k = k as usize;
        match self {
            Probe::MsbZero => 2 * (k - 2) + 2,
            Probe::Zero => k - 1,
            Probe::ShiftRight(_) => 2 * (k - 2) + 1,
        }
    }
}

/// Rounds of a batch with an msb probe in a ring of `k` bits (shifts alone may take fewer tree
/// rounds).
pub fn rounds(k: u32) -> usize {
    1 + (k as usize - 1).next_power_of_two().trailing_zeros() as usize + 1
}

/// Answers every probe; `bits` holds k checked random bits per probed value, in order.
///
/// # Panics
/// If `bits` is not k per value or a shift is not in 0 < s < k (the caller's plan's invariants).
pub async fn probe<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    items: &[(AShare, Probe)],
    bits: &[AShare],
) -> Result<Vec<Probed>, CoralError> {
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let k = party.ring().k() as usize;
    let one = party.constant(1);
    let values: Vec<AShare> = items.iter().map(|&(x, _)| x).collect();
    let cs = open_masked(party, net, &values, bits).await?;
    let leaf = |c: u64, r: &[AShare], i: usize| leaf(one, c, r, i);
    // (leaves, whether only the propagate bits are wanted).
    let mut lists: Vec<(Vec<(AShare, AShare)>, bool)> = Vec::with_capacity(2 * items.len());
    for ((&(_, probe), &c), r) in items.iter().zip(&cs).zip(bits.chunks_exact(k)) {
        match probe {
            Probe::MsbZero => lists.push(((0..k - 1).map(|i| leaf(c, r, i)).collect(), false)),
            Probe::Zero => lists.push(((0..k).map(|i| leaf(c, r, i)).collect(), true)),
            Probe::ShiftRight(s) => {
                let s = s as usize;
                assert!(0 < s && s < k, "shift {s} outside 0 < s < k");
                lists.push(((0..s).map(|i| leaf(c, r, i)).collect(), false));
                lists.push(((s..k).map(|i| leaf(c, r, i)).collect(), false));
            }
        }
    }
    let mut trees = carry_trees(party, net, lists).await?.into_iter();
    // What each probe keeps from its trees, and the last products: (v·G, P·(1 − v)) per msb
    // probe, P_h·G_l per shift.
    enum Kept {
        Msb { g: AShare, v: AShare },
        Zero(AShare),
        Shift { g_low: AShare, g_high: AShare },
    }
    let mut pairs = Vec::new();
    let mut kept = Vec::with_capacity(items.len());
    for ((&(_, probe), &c), r) in items.iter().zip(&cs).zip(bits.chunks_exact(k)) {
        kept.push(match probe {
            Probe::MsbZero => {
                let (g, p) = trees.next().expect("one tree");
                let v = if (c >> (k - 1)) & 1 == 0 { r[k - 1] } else { one - r[k - 1] };
                pairs.extend([(v, g), (p, one - v)]);
                Kept::Msb { g, v }
            }
            Probe::Zero => Kept::Zero(trees.next().expect("one tree").1),
            Probe::ShiftRight(_) => {
                let (low, high) = (trees.next().expect("low tree"), trees.next().expect("high tree"));
                pairs.push((high.1, low.0));
                Kept::Shift { g_low: low.0, g_high: high.0 }
            }
        });
    }
    let mut products = party.mul(net, &pairs).await?.into_iter();
    let mut out = Vec::with_capacity(items.len());
    for (((&(_, probe), &c), r), kept) in items.iter().zip(&cs).zip(bits.chunks_exact(k)).zip(kept) {
        out.push(match (kept, probe) {
            (Kept::Msb { g, v }, _) => {
                let (vg, zero) = (products.next().expect("v·G"), products.next().expect("P·(1 − v)"));
                Probed::MsbZero(v + g - vg.scale(2), zero)
            }
            (Kept::Zero(p), _) => Probed::Zero(p),
            (Kept::Shift { g_low, g_high }, Probe::ShiftRight(s)) => {
                let s = s as usize;
                let borrow = g_high + products.next().expect("P_h·G_l");
                let r_high =
                    r[s..].iter().enumerate().fold(AShare::default(), |acc, (i, b)| acc + b.scale(1 << i));
                Probed::Shifted(
                    party.add_public(borrow.scale(1 << (k - s)) - r_high - g_low, u128::from(c >> s)),
                )
            }
            (Kept::Shift { .. }, _) => unreachable!("a shift is kept for a shift probe"),
        });
    }
    Ok(out)
}

/// Opens `c = x + r + 2^k·r'` for every x, with `r = Σ 2^i r_i` from its k random bits in
/// `bits` (in order) and an output mask r' (step 1 of the module docs); returns c modulo 2^k.
///
/// # Panics
/// If `bits` is not k per value.
pub(super) async fn open_masked<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    xs: &[AShare],
    bits: &[AShare],
) -> Result<Vec<u64>, CoralError> {
    let k = party.ring().k() as usize;
    assert_eq!(bits.len(), xs.len() * k, "k random bits per value");
    let masked: Vec<AShare> = xs
        .iter()
        .zip(bits.chunks_exact(k))
        .map(|(&x, r)| r.iter().enumerate().fold(x, |acc, (i, b)| acc + b.scale(1u128 << i)))
        .collect();
    party.open_low(net, Step::ArithMaskedOpen, &masked).await
}

/// Bit i's `(g_i, p_i)` in the borrows of `c − r` (step 2): `g_i = (1 − c_i)·r_i` (a borrow
/// generated), `p_i = [c_i = r_i]` (one propagated); `one` is the sharing of 1.
pub(super) fn leaf(one: AShare, c: u64, r: &[AShare], i: usize) -> (AShare, AShare) {
    if (c >> i) & 1 == 0 {
        (r[i], one - r[i])
    } else {
        (AShare::default(), r[i])
    }
}

/// `(G, P)` of every non-empty list of leaves (lowest bit first), all trees in lockstep; for a
/// list marked propagate-only, P alone (one product per combination, G left zero).
async fn carry_trees<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    mut lists: Vec<(Vec<(AShare, AShare)>, bool)>,
) -> Result<Vec<(AShare, AShare)>, CoralError> {
    while lists.iter().any(|(l, _)| l.len() > 1) {
        let mut pairs = Vec::new();
        for (l, and_only) in &lists {
            for lh in l.chunks_exact(2) {
                let ((gl, pl), (_, ph)) = (lh[0], lh[1]);
                if !and_only {
                    pairs.push((ph, gl));
                }
                pairs.push((ph, pl));
            }
        }
        let mut products = party.mul(net, &pairs).await?.into_iter();
        for (l, and_only) in &mut lists {
            let mut next: Vec<(AShare, AShare)> = l
                .chunks_exact(2)
                .map(|lh| {
                    let g = if *and_only { AShare::default() } else { products.next().expect("p_h·g_l") };
                    (lh[1].0 + g, products.next().expect("p_h·p_l"))
                })
                .collect();
            if l.len() % 2 == 1 {
                next.push(l[l.len() - 1]);
            }
            *l = next;
        }
    }
    Ok(lists.into_iter().map(|(l, _)| l[0]).collect())
}
