//! The gates of mixed circuits that need every bit of a shared value, on Spdz2k shares: bitwise
//! AND, OR and XOR of full values, shifts by shared amounts, division and remainder by shared
//! (or public, not a power of two) divisors, and powers — from bit decompositions
//! and Beaver products.
//!
//! **Decompositions** ([`Decompositions`]) come one of two ways, with the same result — the k
//! bits of each value as Spdz2k sharings of 0/1: within the arithmetic shares (the bit
//! decomposition of Damgård et al., S&P 2019, §4, [`super::decompose`]: k random bits and
//! [`decompose::triples`] triples per value, 151 at k = 32), or through Coral's RMFE-packed
//! boolean sharings as the paper does it (§4.3.1: A2B with edaBits and rB2A,
//! [`crate::proto::coral::convert::decompose`]), which takes fewer Spdz2k triples for batches of
//! a few packs among few parties ([`crate::proto::coral::arith::circuit`] chooses). Either way
//! every gate below is a Beaver circuit on checked bits — maliciously secure with abort by the
//! same MAC checks as the ring gates, with no new opening but the decomposition's uniformly
//! masked ones.
//!
//! **Gates** (k = 32 or 64, L = log2 k; unsigned, semantics of [`crate::circuit::mixed`]):
//! - `a ∧ b` = Σ 2^i·a_i·b_i (k products; with a public b, Σ over b's set bits, no product);
//!   `a ∨ b = a + b − (a ∧ b)`, `a ⊕ b = a + b − 2·(a ∧ b)`.
//! - `a << s`, s shared: `a · Π_{j<L} (1 + s_j·(2^(2^j) − 1)) · Π_{j≥L} (1 − s_j)` — 2^s, and 0
//!   when s ≥ k; one product tree (k − 1 products, a shared a one more).
//! - `a >> s`, s shared: a barrel shifter on a's bits, stage j moving by 2^j where s_j is set
//!   (`y_i += s_j·(y_{i+2^j} − y_i)`, L rounds of k products), then times `[s < k]` (a product
//!   tree of the k − L high bits' complements, and one product).
//! - `a / d`, `a mod d`: restoring division on bits, from the top, i = k − 1 … 0, with
//!   m = k − i: `T = 2R + a_i` (m bits, a shift of R's bits), `q_i = [T ≥ d]`, `R ← q_i ? T − d
//!   : T`. `T − d` is a borrow scan over m leaves (`t_j·d_j` gives both `g_j` and `p_j`), its bits
//!   `t_j ⊕ d_j ⊕ B_j`, and `q_i = [d < 2^m]·(1 − B_out)`, where `[d < 2^m] = Π_{j≥m} (1 − d_j)`
//!   comes once from a prefix-product scan of d's bits from the top; R's new bits are one
//!   product each. The quotient is Σ 2^i·q_i and the remainder R (a divisor 0 gives 2^k − 1 and
//!   a, as the semantics say). A public d needs no leaf or q product and skips the steps where
//!   `d ≥ 2^m` (there q = 0 and R = T). No random bits beyond the two decompositions. An `ADiv`
//!   and an `AMod` (or two of either) of the same two wires share one division (the plan pairs
//!   them: `twins`).
//! - `a^e`: a public e — square and multiply (the squarings up to e's top bit, then a product
//!   tree of the powers e selects); a shared e — `Π_j (1 + e_j·(a^(2^j) − 1))`, with the k − 1
//!   squarings first for a shared a (k products for the factors), a public base's powers being
//!   public.
//!
//! Every gate of a layer, for every instance, goes through the same rounds together: one batch
//! of decompositions, then each kind of gate in lockstep ([`evaluate`]); [`cost`] is exactly
//! what [`evaluate`] consumes.

use crate::circuit::mixed::MixedOp;
use crate::net::Network;

use super::super::convert::{self, DaBit};
use super::super::error::CoralError;
use super::super::online::Party;
use super::compare::Value;
use super::decompose::{self, borrow_prefixes, decompose, prefix_products, product_trees};
use super::online::ArithParty;
use super::share::AShare;

/// Whether `op` with at least one shared operand runs here (the gates the other kinds of
/// [`super::circuit`] do not take first).
pub fn supported(op: MixedOp) -> bool {
    use MixedOp::*;
    matches!(op, BitAnd | BitOr | Xor | ShiftL | ShiftR | Div | Mod | Exp)
}

/// log2 k.
fn log(k: usize) -> usize {
    k.trailing_zeros() as usize
}

/// Values decomposed and triples taken by one `op` gate ([`supported`]), given its operands'
/// public values (`None`: shared; at least one is shared), in a ring of `k` bits.
pub fn cost(op: MixedOp, a: Option<u64>, b: Option<u64>, k: u32) -> (usize, usize) {
    use MixedOp::*;
    let (kk, dec) = (k as usize, decompose::triples(k));
    let shared = usize::from(a.is_none()) + usize::from(b.is_none());
    match op {
        BitAnd | BitOr | Xor => (shared, shared * dec + if shared == 2 { kk } else { 0 }),
        ShiftL => (1, dec + (kk - 1) + usize::from(a.is_none())),
        ShiftR => {
            let probed = 1 + usize::from(a.is_none());
            (probed, probed * dec + (kk - log(kk) - 1) + log(kk) * kk + 1)
        }
        Div | Mod => {
            // Step m (T of m bits): the leaves' products for a shared divisor, the borrow
            // scan, the difference's bits, q for a shared divisor, the selection.
            let step = |m: usize| {
                let shared_d = usize::from(b.is_none());
                shared_d * m + decompose::borrow_scan_triples(m) + (m - 1) + shared_d + m
            };
            let steps: usize = (1..=kk).filter(|&m| b.is_none_or(|d| m >= 64 || d >> m == 0)).map(step).sum();
            let scan = if b.is_none() { decompose::prefix_product_triples(kk - 1) } else { 0 };
            (shared, shared * dec + scan + steps)
        }
        Exp => match (a, b) {
            (_, Some(e)) => {
                let top = if e == 0 { 0 } else { 63 - e.leading_zeros() as usize };
                (0, top + (e.count_ones() as usize).saturating_sub(1))
            }
            (Some(_), None) => (1, dec + (kk - 1)),
            (None, None) => (1, dec + (kk - 1) + kk + (kk - 1)),
        },
        _ => (0, 0),
    }
}

/// The values of one gate that are decomposed, in order.
fn decomposed(op: MixedOp, a: Value, b: Value) -> Vec<AShare> {
    use MixedOp::*;
    let shared = |v: Value| match v {
        Value::Shared(s) => Some(s),
        Value::Public(_) => None,
    };
    match op {
        BitAnd | BitOr | Xor => shared(a).into_iter().chain(shared(b)).collect(),
        ShiftR => shared(b).into_iter().chain(shared(a)).collect(),
        Div | Mod => shared(b).into_iter().chain(shared(a)).collect(),
        ShiftL | Exp => shared(b).into_iter().collect(),
        _ => Vec::new(),
    }
}

/// Where the bits of decomposed values come from.
pub enum Decompositions<'a, 'b> {
    /// [`decompose`] within the arithmetic shares, taking k checked random bits per value from
    /// the front of the slice.
    Arith(&'a mut &'b [AShare]),
    /// [`crate::proto::coral::convert::decompose`] through Coral's boolean sharings, taking
    /// packed daBits from the front of the slice.
    Convert(&'a mut Party, &'a mut &'b [DaBit]),
}

/// Evaluates `gates` (each an op with its operands, at least one shared, [`supported`]),
/// decomposing values as `source` says; returns one shared result per gate. `twins[g] =
/// Some(h)` (an `ADiv` or `AMod` gate on the same operands as the earlier gate h, which has
/// none) takes its result from h's division, at no cost.
///
/// # Panics
/// If a gate is not [`supported`] or the random bits are fewer than [`cost`] said (the caller's
/// plan's invariants).
pub async fn evaluate<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    gates: &[(MixedOp, Value, Value)],
    twins: &[Option<usize>],
    source: &mut Decompositions<'_, '_>,
) -> Result<Vec<AShare>, CoralError> {
    let k = party.ring().k() as usize;
    // Per gate, the values it decomposes (none for a twin).
    let values: Vec<Vec<AShare>> = (0..gates.len())
        .map(|g| if twins[g].is_none() { decomposed(gates[g].0, gates[g].1, gates[g].2) } else { Vec::new() })
        .collect();
    let wanted: Vec<AShare> = values.iter().flatten().copied().collect();
    let mut all = match source {
        Decompositions::Arith(bits) => {
            let (used, rest) = bits.split_at(wanted.len() * k);
            **bits = rest;
            decompose(party, net, &wanted, used).await?
        }
        Decompositions::Convert(boolean, dabits) => {
            convert::decompose::decompose(boolean, party, net, &wanted, dabits).await?
        }
    }
    .into_iter();
    let gate_bits: Vec<Vec<Vec<AShare>>> =
        values.iter().map(|v| v.iter().map(|_| all.next().expect("in order")).collect()).collect();
    let mut results = vec![AShare::default(); gates.len()];
    bitwise(party, net, gates, &gate_bits, &mut results).await?;
    shift_left(party, net, gates, &gate_bits, &mut results).await?;
    shift_right(party, net, gates, &gate_bits, &mut results).await?;
    power(party, net, gates, &gate_bits, &mut results).await?;
    divide(party, net, gates, twins, &gate_bits, &mut results).await?;
    Ok(results)
}

/// A gate operand as a sharing (a public one as the sharing of the constant).
fn sharing(party: &ArithParty, v: Value) -> AShare {
    match v {
        Value::Shared(s) => s,
        Value::Public(c) => party.constant(c),
    }
}

/// Σ 2^i·y_i.
fn compose(ys: impl IntoIterator<Item = AShare>) -> AShare {
    ys.into_iter().enumerate().fold(AShare::default(), |acc, (i, y)| acc + y.scale(1u128 << i))
}

/// The indices of the gates of the given ops.
fn of(gates: &[(MixedOp, Value, Value)], ops: &[MixedOp]) -> Vec<usize> {
    (0..gates.len()).filter(|&g| ops.contains(&gates[g].0)).collect()
}

async fn bitwise<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    gates: &[(MixedOp, Value, Value)],
    gate_bits: &[Vec<Vec<AShare>>],
    results: &mut [AShare],
) -> Result<(), CoralError> {
    let list = of(gates, &[MixedOp::BitAnd, MixedOp::BitOr, MixedOp::Xor]);
    let pairs: Vec<(AShare, AShare)> = list
        .iter()
        .filter(|&&g| gate_bits[g].len() == 2)
        .flat_map(|&g| gate_bits[g][0].iter().copied().zip(gate_bits[g][1].iter().copied()))
        .collect();
    let k = party.ring().k() as usize;
    let mut products = party.mul(net, &pairs).await?.into_iter();
    for &g in &list {
        let (op, a, b) = gates[g];
        let and = match (a, b) {
            (Value::Shared(_), Value::Shared(_)) => compose(products.by_ref().take(k)),
            (Value::Public(c), _) | (_, Value::Public(c)) => {
                let x = &gate_bits[g][0];
                (0..k)
                    .filter(|i| (c >> i) & 1 == 1)
                    .fold(AShare::default(), |acc, i| acc + x[i].scale(1 << i))
            }
        };
        let sum = sharing(party, a) + sharing(party, b);
        results[g] = match op {
            MixedOp::BitAnd => and,
            MixedOp::BitOr => sum - and,
            _ => sum - and.scale(2),
        };
    }
    Ok(())
}

async fn shift_left<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    gates: &[(MixedOp, Value, Value)],
    gate_bits: &[Vec<Vec<AShare>>],
    results: &mut [AShare],
) -> Result<(), CoralError> {
    let list = of(gates, &[MixedOp::ShiftL]);
    let k = party.ring().k() as usize;
    let one = party.constant(1);
    let factors: Vec<Vec<AShare>> = list
        .iter()
        .map(|&g| {
            let s = &gate_bits[g][0];
            let mut f: Vec<AShare> = (0..k)
                .map(|j| {
                    if j < log(k) {
                        party.add_public(s[j].scale((1u128 << (1 << j)) - 1), 1)
                    } else {
                        one - s[j]
                    }
                })
                .collect();
            if let Value::Shared(a) = gates[g].1 {
                f.push(a);
            }
            f
        })
        .collect();
    let products = product_trees(party, net, factors).await?;
    for (&g, p) in list.iter().zip(products) {
        results[g] = match gates[g].1 {
            Value::Shared(_) => p,
            Value::Public(c) => p.scale(u128::from(c)),
        };
    }
    Ok(())
}

async fn shift_right<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    gates: &[(MixedOp, Value, Value)],
    gate_bits: &[Vec<Vec<AShare>>],
    results: &mut [AShare],
) -> Result<(), CoralError> {
    let list = of(gates, &[MixedOp::ShiftR]);
    if list.is_empty() {
        return Ok(());
    }
    let k = party.ring().k() as usize;
    let one = party.constant(1);
    // [s < k]: the high bits of s all 0.
    let in_range = product_trees(
        party,
        net,
        list.iter().map(|&g| gate_bits[g][0][log(k)..].iter().map(|&s| one - s).collect()).collect(),
    )
    .await?;
    let mut ys: Vec<Vec<AShare>> = list
        .iter()
        .map(|&g| match gates[g].1 {
            Value::Shared(_) => gate_bits[g][1].clone(),
            Value::Public(c) => (0..k).map(|i| party.constant((c >> i) & 1)).collect(),
        })
        .collect();
    for (j, stride) in (0..log(k)).map(|j| (j, 1usize << j)) {
        let pairs: Vec<(AShare, AShare)> = list
            .iter()
            .zip(&ys)
            .flat_map(|(&g, y)| {
                let s = gate_bits[g][0][j];
                (0..k).map(move |i| (s, y.get(i + stride).copied().unwrap_or_default() - y[i]))
            })
            .collect();
        let mut moved = party.mul(net, &pairs).await?.into_iter();
        for y in &mut ys {
            for yi in y.iter_mut() {
                *yi = *yi + moved.next().expect("one product per bit");
            }
        }
    }
    let pairs: Vec<(AShare, AShare)> =
        in_range.into_iter().zip(ys.iter().map(|y| compose(y.iter().copied()))).collect();
    for (&g, r) in list.iter().zip(party.mul(net, &pairs).await?) {
        results[g] = r;
    }
    Ok(())
}

async fn power<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    gates: &[(MixedOp, Value, Value)],
    gate_bits: &[Vec<Vec<AShare>>],
    results: &mut [AShare],
) -> Result<(), CoralError> {
    let list = of(gates, &[MixedOp::Exp]);
    if list.is_empty() {
        return Ok(());
    }
    let k = party.ring().k() as usize;
    let mask = party.ring().value(u128::from(u64::MAX));
    // The powers a^(2^j) of a shared base, as far as each gate needs them: to a public
    // exponent's top bit, or all k for a shared one.
    let needed = |g: usize| match gates[g] {
        (_, Value::Shared(_), Value::Public(e)) if e > 0 => 64 - e.leading_zeros() as usize,
        (_, Value::Shared(_), Value::Shared(_)) => k,
        _ => 0,
    };
    let mut powers: Vec<Vec<AShare>> = list
        .iter()
        .map(|&g| match gates[g].1 {
            Value::Shared(a) if needed(g) > 0 => vec![a],
            _ => Vec::new(),
        })
        .collect();
    let most = list.iter().map(|&g| needed(g)).max().unwrap_or(0);
    for j in 1..most {
        let squaring: Vec<usize> = (0..list.len()).filter(|&x| needed(list[x]) > j).collect();
        let pairs: Vec<(AShare, AShare)> =
            squaring.iter().map(|&x| (powers[x][j - 1], powers[x][j - 1])).collect();
        for (&x, p) in squaring.iter().zip(party.mul(net, &pairs).await?) {
            powers[x].push(p);
        }
    }
    // The factors e_j·(a^(2^j) − 1) of a shared base and a shared exponent.
    let pairs: Vec<(AShare, AShare)> = list
        .iter()
        .zip(&powers)
        .filter(|(&g, _)| matches!(gates[g], (_, Value::Shared(_), Value::Shared(_))))
        .flat_map(|(&g, p)| (0..k).map(move |j| (gate_bits[g][0][j], p[j])))
        .map(|(e, p)| (e, party.add_public(p, 1u128.wrapping_neg())))
        .collect();
    let mut chosen = party.mul(net, &pairs).await?.into_iter();
    let trees: Vec<Vec<AShare>> = list
        .iter()
        .zip(&powers)
        .map(|(&g, p)| match gates[g] {
            (_, Value::Shared(_), Value::Public(e)) => {
                (0..p.len()).filter(|j| (e >> j) & 1 == 1).map(|j| p[j]).collect()
            }
            (_, Value::Shared(_), Value::Shared(_)) => {
                (0..k).map(|_| party.add_public(chosen.next().expect("one factor per bit"), 1)).collect()
            }
            (_, Value::Public(c), _) => {
                let mut base = c;
                (0..k)
                    .map(|j| {
                        let f = party
                            .add_public(gate_bits[g][0][j].scale(u128::from(base.wrapping_sub(1) & mask)), 1);
                        base = base.wrapping_mul(base) & mask;
                        f
                    })
                    .collect()
            }
        })
        .collect();
    for (&g, r) in list.iter().zip(product_trees(party, net, trees).await?) {
        results[g] = r;
    }
    Ok(())
}

async fn divide<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    gates: &[(MixedOp, Value, Value)],
    twins: &[Option<usize>],
    gate_bits: &[Vec<Vec<AShare>>],
    results: &mut [AShare],
) -> Result<(), CoralError> {
    let list: Vec<usize> =
        of(gates, &[MixedOp::Div, MixedOp::Mod]).into_iter().filter(|&g| twins[g].is_none()).collect();
    if list.is_empty() {
        return Ok(());
    }
    let k = party.ring().k() as usize;
    let one = party.constant(1);
    let zero = AShare::default();
    // Per gate: the divisor's bits (public ones as constants), the dividend's bits.
    let divisor: Vec<Vec<AShare>> = list
        .iter()
        .map(|&g| match gates[g].2 {
            Value::Shared(_) => gate_bits[g][0].clone(),
            Value::Public(d) => (0..k).map(|j| party.constant((d >> j) & 1)).collect(),
        })
        .collect();
    let dividend: Vec<Vec<AShare>> = list
        .iter()
        .map(|&g| match gates[g].1 {
            Value::Shared(_) => gate_bits[g].last().expect("the dividend's bits").clone(),
            Value::Public(a) => (0..k).map(|j| party.constant((a >> j) & 1)).collect(),
        })
        .collect();
    // fits[x][m] = [d < 2^m] for m = 1..=k: the product of the divisor's complements above m
    // (a prefix-product scan from the top for a shared divisor; public otherwise).
    let shared_d: Vec<usize> =
        (0..list.len()).filter(|&x| matches!(gates[list[x]].2, Value::Shared(_))).collect();
    let scans = prefix_products(
        party,
        net,
        &shared_d.iter().map(|&x| (1..k).map(|m| one - divisor[x][k - m]).collect()).collect::<Vec<_>>(),
    )
    .await?;
    let mut fits: Vec<Vec<Option<AShare>>> = vec![vec![None; k + 1]; list.len()];
    for (&x, prefixes) in shared_d.iter().zip(scans) {
        // prefixes[c − 1] = Π_{j ≥ k−c} (1 − d_j) = [d < 2^(k−c)].
        for (c, p) in prefixes.into_iter().enumerate() {
            fits[x][k - 1 - c] = Some(p);
        }
        fits[x][k] = Some(one);
    }
    let public_fits = |x: usize, m: usize| match gates[list[x]].2 {
        Value::Public(d) => m >= 64 || d >> m == 0,
        Value::Shared(_) => true,
    };
    let mut remainder: Vec<Vec<AShare>> = vec![vec![zero; k]; list.len()];
    let mut quotient = vec![zero; list.len()];
    for i in (0..k).rev() {
        let m = k - i;
        // T = 2R + a_i, m bits.
        let ts: Vec<Vec<AShare>> = (0..list.len())
            .map(|x| std::iter::once(dividend[x][i]).chain(remainder[x][..m - 1].iter().copied()).collect())
            .collect();
        let active: Vec<usize> = (0..list.len()).filter(|&x| public_fits(x, m)).collect();
        // Leaves of T − d: g_j = (1 − t_j)·d_j, p_j = [t_j = d_j], from t_j·d_j.
        let pairs: Vec<(AShare, AShare)> = active
            .iter()
            .filter(|&&x| fits[x][m].is_some())
            .flat_map(|&x| (0..m).map(move |j| (x, j)))
            .map(|(x, j)| (ts[x][j], divisor[x][j]))
            .collect();
        let mut td = party.mul(net, &pairs).await?.into_iter();
        let mut xors = Vec::with_capacity(active.len());
        let mut leaves = Vec::with_capacity(active.len());
        for &x in &active {
            let (t, d) = (&ts[x], &divisor[x]);
            let (mut gs, mut ps) = (Vec::with_capacity(m), Vec::with_capacity(m));
            for j in 0..m {
                let prod = match gates[list[x]].2 {
                    Value::Shared(_) => td.next().expect("t·d per bit"),
                    Value::Public(c) => t[j].scale(u128::from((c >> j) & 1)),
                };
                gs.push(d[j] - prod);
                ps.push(one - t[j] - d[j] + prod.scale(2));
            }
            xors.push(ps.iter().map(|&p| one - p).collect::<Vec<_>>());
            leaves.push(gs.into_iter().zip(ps).collect::<Vec<_>>());
        }
        let borrows = borrow_prefixes(party, net, leaves).await?;
        // The difference's bits, and q = [d < 2^m]·(1 − borrow out), in one round.
        let mut pairs: Vec<(AShare, AShare)> = Vec::new();
        for (a, &x) in active.iter().enumerate() {
            pairs.extend((1..m).map(|j| (xors[a][j], borrows[a][j - 1])));
            if let Some(f) = fits[x][m] {
                pairs.push((f, one - borrows[a][m - 1]));
            }
        }
        let mut products = party.mul(net, &pairs).await?.into_iter();
        let mut qs = Vec::with_capacity(active.len());
        let mut diffs = Vec::with_capacity(active.len());
        for (a, &x) in active.iter().enumerate() {
            let mut e = Vec::with_capacity(m);
            e.push(xors[a][0]);
            for j in 1..m {
                e.push(xors[a][j] + borrows[a][j - 1] - products.next().expect("t·B").scale(2));
            }
            qs.push(match fits[x][m] {
                Some(_) => products.next().expect("[d < 2^m]·(1 − B)"),
                None => one - borrows[a][m - 1],
            });
            diffs.push(e);
        }
        // R = q ? T − d : T, bit by bit.
        let pairs: Vec<(AShare, AShare)> = active
            .iter()
            .zip(&qs)
            .zip(&diffs)
            .flat_map(|((&x, &q), e)| ts[x].iter().zip(e).map(move |(&t, &e)| (q, e - t)))
            .collect();
        let mut moved = party.mul(net, &pairs).await?.into_iter();
        let mut q_of = vec![None; list.len()];
        for (&x, q) in active.iter().zip(qs) {
            q_of[x] = Some(q);
        }
        for (x, t) in ts.into_iter().enumerate() {
            let r = &mut remainder[x];
            match q_of[x] {
                Some(q) => {
                    for (r, t) in r.iter_mut().zip(t) {
                        *r = t + moved.next().expect("one selection per bit");
                    }
                    quotient[x] = quotient[x] + q.scale(1 << i);
                }
                // d ≥ 2^m (public): T < d, so q = 0 and R = T.
                None => r[..m].copy_from_slice(&t),
            }
        }
    }
    let mut division = vec![None; gates.len()];
    for (x, &g) in list.iter().enumerate() {
        division[g] = Some((quotient[x], compose(remainder[x].iter().copied())));
    }
    for g in of(gates, &[MixedOp::Div, MixedOp::Mod]) {
        let (q, r) = division[twins[g].unwrap_or(g)].expect("every twin's division ran");
        results[g] = if gates[g].0 == MixedOp::Div { q } else { r };
    }
    Ok(())
}
