//! Every bit of a shared value as a shared bit (bit decomposition), and the lockstep scans and
//! product trees the bit-level gates ([`super::bitlevel`]) build on.
//!
//! **Decomposition** (Damgård–Escudero–Frederiksen–Keller–Scholl–Volgushev, "New Primitives for
//! Actively-Secure MPC over Rings", S&P 2019, §4's bit decomposition from random shared bits; the
//! masked opening and the borrow leaves are [`super::probe`]'s, after Catrina–de Hoogh, SCN 2010):
//! 1. open `c = x + r + 2^k·r'` with r = Σ 2^i r_i from k checked random bits (one round; c
//!    modulo 2^k is uniform and reveals nothing);
//! 2. x = c − r modulo 2^k, so x_i = c_i ⊕ r_i ⊕ B_i with B_i the borrow into bit i. Bit i
//!    generates a borrow `g_i = (1 − c_i)·r_i` and propagates one `p_i = [c_i = r_i]`; the
//!    borrows B_1 … B_{k−1} are the prefix combinations `(g, p)_{[0, i)}` of the low k − 1
//!    leaves, `(g_h, p_h) ∘ (g_l, p_l) = (g_h + p_h·g_l, p_h·p_l)`, computed by a Sklansky
//!    parallel-prefix scan ([`scan_levels`]: ⌈log2(k − 1)⌉ rounds; a range that starts at bit 0
//!    never needs its p, so that product is skipped);
//! 3. `x_0 = 1 − p_0` and `x_i = (1 − p_i) ⊕ B_i = t + B_i − 2·t·B_i` with `t = 1 − p_i` (one
//!    round of k − 1 products).
//!
//! Per value: k random bits, one output mask and [`triples`] triples; for any batch, rounds
//! ⌈log2(k − 1)⌉ + 2. The random bits must have been checked ([`super::bits`]) before the
//! masked opening, which joins the MAC log like every other opening. Every product is a Beaver
//! multiplication, so a deviation shows in the MAC check before any output is opened.

use std::collections::HashMap;

use crate::net::Network;

use super::super::error::CoralError;
use super::online::ArithParty;
use super::probe::{leaf, open_masked};
use super::share::AShare;

/// One combination of a scan: `(i, j, keep)` (see [`scan_levels`]).
pub type Combination = (usize, usize, bool);

/// The combinations of a Sklansky parallel-prefix scan over `len` elements, level by level:
/// `(i, j, keep)` — element i (the higher range) absorbs element j (the range just below it);
/// `keep` says the combined range does not start at element 0, so its second component is
/// still needed. After level l element i covers `[⌊i/2^(l+1)⌋·2^(l+1), i]`; after the last, the
/// prefix `[0, i]`. Element j is never changed in the level that reads it.
pub fn scan_levels(len: usize) -> Vec<Vec<Combination>> {
    let mut levels = Vec::new();
    let mut l = 0;
    while len > 1 && (1usize << l) < len {
        levels.push(
            (0..len)
                .filter(|i| (i >> l) & 1 == 1)
                .map(|i| (i, ((i >> l) << l) - 1, (i >> (l + 1)) > 0))
                .collect(),
        );
        l += 1;
    }
    levels
}

/// Triples one decomposition takes in a ring of `k` bits.
pub fn triples(k: u32) -> usize {
    let k = k as usize;
    borrow_scan_triples(k - 1) + (k - 1)
}

/// Products of a borrow scan over `len` leaves ([`borrow_prefixes`]).
pub fn borrow_scan_triples(len: usize) -> usize {
    scan_levels(len).iter().flatten().map(|&(_, _, keep)| 1 + usize::from(keep)).sum()
}

/// The borrow out of every prefix `[0, i]` of every list of leaves `(g_i, p_i)` (lowest first),
/// all lists in lockstep ([`borrow_scan_triples`] products per list, ⌈log2 len⌉ rounds).
pub async fn borrow_prefixes<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    mut lists: Vec<Vec<(AShare, AShare)>>,
) -> Result<Vec<Vec<AShare>>, CoralError> {
    scan(party, net, &mut lists, Combine::Carry).await?;
    Ok(lists.into_iter().map(|l| l.into_iter().map(|(g, _)| g).collect()).collect())
}

/// Products of a prefix-product scan over `len` factors ([`prefix_products`]).
pub fn prefix_product_triples(len: usize) -> usize {
    scan_levels(len).iter().map(Vec::len).sum()
}

/// How a scan combines two elements.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Combine {
    /// Borrow (or carry) pairs `(g, p)`.
    Carry,
    /// Products: the second component alone, `p_h·p_l` for every combination.
    Product,
}

/// Runs [`scan_levels`] on every list in lockstep (one Beaver round per level for all lists).
async fn scan<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    lists: &mut [Vec<(AShare, AShare)>],
    combine: Combine,
) -> Result<(), CoralError> {
    // One schedule per length (the lists of a batch share a few lengths).
    let mut schedules: HashMap<usize, Vec<Vec<Combination>>> = HashMap::new();
    for list in lists.iter() {
        schedules.entry(list.len()).or_insert_with(|| scan_levels(list.len()));
    }
    let levels = schedules.values().map(Vec::len).max().unwrap_or(0);
    for l in 0..levels {
        let mut pairs = Vec::new();
        let mut steps = Vec::new();
        for (which, list) in lists.iter().enumerate() {
            for &(i, j, keep) in schedules[&list.len()].get(l).into_iter().flatten() {
                let ((_, p_h), (g_l, p_l)) = (list[i], list[j]);
                if combine == Combine::Carry {
                    pairs.push((p_h, g_l));
                }
                if keep || combine == Combine::Product {
                    pairs.push((p_h, p_l));
                }
                steps.push((which, i, keep));
            }
        }
        let mut products = party.mul(net, &pairs).await?.into_iter();
        for (which, i, keep) in steps {
            let element = &mut lists[which][i];
            if combine == Combine::Carry {
                element.0 = element.0 + products.next().expect("p_h·g_l");
            }
            element.1 = if keep || combine == Combine::Product {
                products.next().expect("p_h·p_l")
            } else {
                AShare::default()
            };
        }
    }
    Ok(())
}

/// Every prefix product `f_0·…·f_i` of every list, all lists in lockstep
/// ([`prefix_product_triples`] products per list, ⌈log2 len⌉ rounds).
pub async fn prefix_products<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    lists: &[Vec<AShare>],
) -> Result<Vec<Vec<AShare>>, CoralError> {
    let mut pairs: Vec<Vec<(AShare, AShare)>> =
        lists.iter().map(|l| l.iter().map(|&f| (AShare::default(), f)).collect()).collect();
    scan(party, net, &mut pairs, Combine::Product).await?;
    Ok(pairs.into_iter().map(|l| l.into_iter().map(|(_, p)| p).collect()).collect())
}

/// The product of every list (the sharing of 1 for an empty one), all lists in lockstep: a
/// balanced tree, `len − 1` products and ⌈log2 len⌉ rounds per list.
pub async fn product_trees<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    mut lists: Vec<Vec<AShare>>,
) -> Result<Vec<AShare>, CoralError> {
    while lists.iter().any(|l| l.len() > 1) {
        let pairs: Vec<(AShare, AShare)> =
            lists.iter().flat_map(|l| l.chunks_exact(2).map(|p| (p[0], p[1]))).collect();
        let mut products = party.mul(net, &pairs).await?.into_iter();
        for l in &mut lists {
            let mut next: Vec<AShare> = l.chunks_exact(2).map(|_| products.next().expect("a pair")).collect();
            if l.len() % 2 == 1 {
                next.push(l[l.len() - 1]);
            }
            *l = next;
        }
    }
    let one = party.constant(1);
    Ok(lists.into_iter().map(|l| l.first().copied().unwrap_or(one)).collect())
}

/// The k bits of every value in `xs` (lowest first, each a shared 0 or 1), from k checked random
/// bits per value in `bits`, in order (see the module docs).
///
/// # Panics
/// If `bits` is not k per value (the caller's plan's invariant).
pub async fn decompose<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    xs: &[AShare],
    bits: &[AShare],
) -> Result<Vec<Vec<AShare>>, CoralError> {
    if xs.is_empty() {
        return Ok(Vec::new());
    }
    let k = party.ring().k() as usize;
    let one = party.constant(1);
    let cs = open_masked(party, net, xs, bits).await?;
    // t_i = c_i ⊕ r_i = 1 − p_i for every bit; the low k − 1 leaves feed the borrow scan.
    let mut xors = Vec::with_capacity(xs.len());
    let mut lists = Vec::with_capacity(xs.len());
    for (&c, r) in cs.iter().zip(bits.chunks_exact(k)) {
        let leaves: Vec<(AShare, AShare)> = (0..k).map(|i| leaf(one, c, r, i)).collect();
        xors.push(leaves.iter().map(|&(_, p)| one - p).collect::<Vec<_>>());
        lists.push(leaves[..k - 1].to_vec());
    }
    let borrows = borrow_prefixes(party, net, lists).await?;
    difference_bits(party, net, &xors, &borrows).await
}

/// The bits `t_i ⊕ B_i` of differences whose bits before borrows are `xors` (`t_i = 1 − p_i`)
/// and whose prefix borrows are `borrows` (`B_i` = the borrow out of `[0, i − 1]`; at least
/// `xors.len() − 1` of them): one round of `len − 1` products per difference.
pub async fn difference_bits<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    xors: &[Vec<AShare>],
    borrows: &[Vec<AShare>],
) -> Result<Vec<Vec<AShare>>, CoralError> {
    let pairs: Vec<(AShare, AShare)> =
        xors.iter().zip(borrows).flat_map(|(t, b)| (1..t.len()).map(move |i| (t[i], b[i - 1]))).collect();
    let mut products = party.mul(net, &pairs).await?.into_iter();
    Ok(xors
        .iter()
        .zip(borrows)
        .map(|(t, b)| {
            let mut out = Vec::with_capacity(t.len());
            out.extend(t.first().copied());
            for i in 1..t.len() {
                out.push(t[i] + b[i - 1] - products.next().expect("t·B").scale(2));
            }
            out
        })
        .collect())
}
