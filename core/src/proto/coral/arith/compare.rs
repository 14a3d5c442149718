//! Comparisons and boolean gates on Spdz2k shares, from checked random bits ([`super::bits`]):
//! the bit-level half of mixed circuits that needs no conversion to boolean shares.
//!
//! **What a value's bits are needed for.** Every gate here reduces to two predicates of shared
//! values x ∈ Z_{2^k}: its most significant bit and whether it is zero. Both come from one
//! masked opening (Catrina–de Hoogh, "Improved Primitives for Secure Multiparty Integer
//! Computation", SCN 2010, §4, in Z_{2^k} as in Damgård et al., S&P 2019, §4):
//! 1. with k random bits r_i and r = Σ 2^i r_i, open `c = x + r + 2^k·r'` (an output mask r'
//!    hides the upper bits) — c modulo 2^k is uniform, so it reveals nothing;
//! 2. x = c − r modulo 2^k: with c public, the borrow into bit k−1 of `c − r` is a carry-
//!    lookahead over the low k − 1 bits — leaf i generates a borrow `g_i = (1 − c_i)·r_i` and
//!    propagates one `p_i = [c_i = r_i]`, both linear in r_i; segments combine as
//!    `(g, p) = (g_h + p_h·g_l, p_h·p_l)` (the two terms of g are never both 1), two products per
//!    combination in a balanced tree of ⌈log2(k − 1)⌉ Beaver rounds;
//! 3. msb(x) = c_{k−1} ⊕ r_{k−1} ⊕ G and [x = 0] = P·[c_{k−1} = r_{k−1}] — all bits of c and r
//!    agree — in one more round.
//!
//! Per value: k random bits, one output mask, 2k − 2 triples, 1 + ⌈log2(k − 1)⌉ + 1 rounds.
//!
//! **Gates** (unsigned, results 0/1, as [`crate::circuit::mixed`] defines them):
//! - `x < y`: msb(x) ≠ msb(y) decides it (the one with the top bit set is larger); otherwise
//!   x − y does not wrap past half the ring and msb(x − y) is the answer:
//!   `t = m_x ⊕ m_y`, `lt = m_d + t·(m_y − m_d)` — two more rounds, two triples. `x > y`,
//!   `x ≤ y`, `x ≥ y` are `y < x`, `1 − (y < x)`, `1 − (x < y)`. A public operand's msb is public.
//! - `x = y`, `x ≠ y`, `!x` from the zero test of x − y or x; `x && y` = `(1 − z_x)(1 − z_y)` and
//!   `x || y` = `1 − z_x·z_y` (one round, one triple; a public operand's test is public).
//!
//! Every gate of a layer, for every instance, goes through the same rounds together. Openings
//! join the MAC log; the output's MAC check covers them, before anything is revealed. Security:
//! as the online phase, given that the bits were checked before any of them masked an opening.

use crate::circuit::mixed::MixedOp;
use crate::net::Network;

use super::super::error::CoralError;
use super::super::messages::Step;
use super::online::ArithParty;
use super::share::AShare;

/// A gate operand in one instance: shared, or public (a value below 2^k).
#[derive(Debug, Clone, Copy)]
pub enum Value {
    /// A shared value.
    Shared(AShare),
    /// A public value.
    Public(u64),
}

/// Whether `op` runs here (on at least one shared operand).
pub fn supported(op: MixedOp) -> bool {
    use MixedOp::*;
    matches!(op, Lt | LEq | Gt | GEq | Eq | Neq | Not | BoolAnd | BoolOr)
}

/// Values whose msb and zero test one `op` gate needs, given which operands are shared.
pub fn items(op: MixedOp, a_shared: bool, b_shared: bool) -> usize {
    use MixedOp::*;
    match op {
        Lt | LEq | Gt | GEq => usize::from(a_shared) + usize::from(b_shared) + 1,
        Eq | Neq | Not => 1,
        BoolAnd | BoolOr => usize::from(a_shared) + usize::from(b_shared),
        _ => 0,
    }
}

/// Triples one `op` gate takes after the msb and zero tests.
pub fn finishing_triples(op: MixedOp) -> usize {
    use MixedOp::*;
    match op {
        Lt | LEq | Gt | GEq => 2,
        BoolAnd | BoolOr => 1,
        _ => 0,
    }
}

/// Triples per tested value in a ring of `k` bits.
pub fn item_triples(k: u32) -> usize {
    2 * k as usize - 2
}

/// Rounds of one layer of gates in a ring of `k` bits: the opening, the tree, the last
/// products, then up to two finishing rounds (`finishing`: 0, 1 or 2).
pub fn rounds(k: u32, finishing: usize) -> usize {
    1 + (k as usize - 1).next_power_of_two().trailing_zeros() as usize + 1 + finishing
}

/// For every `x`, `(msb(x), [x = 0])` as shared bits; `bits` holds k checked random bits per x
/// (see the module docs).
pub async fn msb_and_zero<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    xs: &[AShare],
    bits: &[AShare],
) -> Result<Vec<(AShare, AShare)>, CoralError> {
    if xs.is_empty() {
        return Ok(Vec::new());
    }
    let k = party.ring().k() as usize;
    assert_eq!(bits.len(), xs.len() * k, "k random bits per value");
    let one = party.constant(1);
    let masked: Vec<AShare> = xs
        .iter()
        .zip(bits.chunks_exact(k))
        .map(|(&x, r)| r.iter().enumerate().fold(x, |acc, (i, b)| acc + b.scale(1u128 << i)))
        .collect();
    let cs = party.open_low(net, Step::ArithMaskedOpen, &masked).await?;
    // Leaves (g_i, p_i) of the low k − 1 bits, value-major.
    let leaf = |c_bit: u64, r: AShare| -> (AShare, AShare) {
        if c_bit == 0 {
            (r, one - r)
        } else {
            (AShare::default(), r)
        }
    };
    let mut level: Vec<Vec<(AShare, AShare)>> = cs
        .iter()
        .zip(bits.chunks_exact(k))
        .map(|(&c, r)| (0..k - 1).map(|i| leaf((c >> i) & 1, r[i])).collect())
        .collect();
    let mut width = k - 1;
    while width > 1 {
        let pairs: Vec<(AShare, AShare)> = level
            .iter()
            .flat_map(|segments| {
                segments.chunks_exact(2).flat_map(|lh| {
                    let ((gl, pl), (_, ph)) = (lh[0], lh[1]);
                    [(ph, gl), (ph, pl)]
                })
            })
            .collect();
        let products = party.mul(net, &pairs).await?;
        let per_value = width / 2;
        for (segments, prods) in level.iter_mut().zip(products.chunks_exact(2 * per_value)) {
            let mut next: Vec<(AShare, AShare)> = segments
                .chunks_exact(2)
                .zip(prods.chunks_exact(2))
                .map(|(lh, pp)| (lh[1].0 + pp[0], pp[1]))
                .collect();
            if width % 2 == 1 {
                next.push(segments[width - 1]);
            }
            *segments = next;
        }
        width = width.div_ceil(2);
    }
    // v = c_{k−1} ⊕ r_{k−1}; msb = v ⊕ G = v + G − 2vG; zero = P·(1 − v).
    let tops: Vec<AShare> = cs
        .iter()
        .zip(bits.chunks_exact(k))
        .map(|(&c, r)| if (c >> (k - 1)) & 1 == 0 { r[k - 1] } else { one - r[k - 1] })
        .collect();
    let pairs: Vec<(AShare, AShare)> = level
        .iter()
        .zip(&tops)
        .flat_map(|(segments, &v)| {
            let (g, p) = segments[0];
            [(v, g), (p, one - v)]
        })
        .collect();
    let products = party.mul(net, &pairs).await?;
    Ok(level
        .iter()
        .zip(&tops)
        .zip(products.chunks_exact(2))
        .map(|((segments, &v), vg_pz)| (v + segments[0].0 - vg_pz[0].scale(2), vg_pz[1]))
        .collect())
}

/// One gate's operands normalised: `lt(x, y)` possibly negated, or a zero-test form.
#[derive(Clone, Copy)]
enum Form {
    /// `x < y`, negated if the flag is set.
    Less(Value, Value, bool),
    /// `[x = 0]`, negated if the flag is set.
    Zero(Value, bool),
    /// `x && y` (false) or `x || y` (true).
    Logic(Value, Value, bool),
}

/// Evaluates `gates` (each an op with its operands, at least one shared) consuming k random
/// bits per tested value from the front of `bits`; returns one shared 0/1 result per gate.
///
/// # Panics
/// If a gate is not [`supported`] or `bits` is shorter than the plan said (both are the caller's
/// plan's invariants).
pub async fn evaluate<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    gates: &[(MixedOp, Value, Value)],
    bits: &mut &[AShare],
) -> Result<Vec<AShare>, CoralError> {
    use MixedOp::*;
    let k = party.ring().k();
    let one = party.constant(1);
    let diff = |party: &ArithParty, x: Value, y: Value| -> AShare {
        match (x, y) {
            (Value::Shared(a), Value::Shared(b)) => a - b,
            (Value::Shared(a), Value::Public(c)) => party.add_public(a, u128::from(c).wrapping_neg()),
            (Value::Public(c), Value::Shared(b)) => party.add_public(-b, u128::from(c)),
            (Value::Public(_), Value::Public(_)) => unreachable!("public gates are folded"),
        }
    };
    let forms: Vec<Form> = gates
        .iter()
        .map(|&(op, a, b)| match op {
            Lt => Form::Less(a, b, false),
            Gt => Form::Less(b, a, false),
            LEq => Form::Less(b, a, true),
            GEq => Form::Less(a, b, true),
            Eq => Form::Zero(Value::Shared(diff(party, a, b)), false),
            Neq => Form::Zero(Value::Shared(diff(party, a, b)), true),
            Not => Form::Zero(a, false),
            BoolAnd => Form::Logic(a, b, false),
            BoolOr => Form::Logic(a, b, true),
            _ => panic!("{} is not a comparison or boolean gate", op.name()),
        })
        .collect();
    // The tested values, in gate order (x, y, x − y for Less; x for Zero; x, y for Logic).
    let mut tested = Vec::new();
    for form in &forms {
        let shared = |v: &Value| match *v {
            Value::Shared(s) => Some(s),
            Value::Public(_) => None,
        };
        match form {
            Form::Less(x, y, _) => {
                tested.extend(shared(x));
                tested.extend(shared(y));
                tested.push(diff(party, *x, *y));
            }
            Form::Zero(x, _) => tested.extend(shared(x)),
            Form::Logic(x, y, _) => {
                tested.extend(shared(x));
                tested.extend(shared(y));
            }
        }
    }
    let (used, rest) = bits.split_at(tested.len() * k as usize);
    *bits = rest;
    let tests = msb_and_zero(party, net, &tested, used).await?;
    let mut next = tests.into_iter();
    let mut take = |v: &Value| -> (AShare, AShare) {
        match *v {
            Value::Shared(_) => next.next().expect("one test per shared value"),
            Value::Public(c) => (party.constant(c >> (k - 1)), party.constant(u64::from(c == 0))),
        }
    };
    // (msb/zero of the operands, and msb of the difference for Less).
    let mut operands = Vec::with_capacity(forms.len());
    for form in &forms {
        operands.push(match form {
            Form::Less(x, y, _) => {
                let (mx, my) = (take(x).0, take(y).0);
                // x − y is always shared and tested.
                let md = take(&Value::Shared(AShare::default())).0;
                [mx, my, md]
            }
            Form::Zero(x, _) => [take(x).1, AShare::default(), AShare::default()],
            Form::Logic(x, y, or) => {
                let (zx, zy) = (take(x).1, take(y).1);
                if *or {
                    [zx, zy, AShare::default()]
                } else {
                    [one - zx, one - zy, AShare::default()]
                }
            }
        });
    }
    // First finishing round: m_x·m_y for Less, the two operands' product for Logic.
    let first: Vec<(AShare, AShare)> = forms
        .iter()
        .zip(&operands)
        .filter(|(f, _)| !matches!(f, Form::Zero(..)))
        .map(|(_, o)| (o[0], o[1]))
        .collect();
    let mut products = party.mul(net, &first).await?.into_iter();
    let mut results = Vec::with_capacity(forms.len());
    let mut second = Vec::new();
    for (form, o) in forms.iter().zip(&operands) {
        results.push(match form {
            Form::Less(..) => {
                let t = o[0] + o[1] - products.next().expect("one product per Less").scale(2);
                second.push((t, o[1] - o[2]));
                AShare::default()
            }
            Form::Zero(_, negate) => {
                if *negate {
                    one - o[0]
                } else {
                    o[0]
                }
            }
            Form::Logic(_, _, or) => {
                let p = products.next().expect("one product per Logic");
                if *or {
                    one - p
                } else {
                    p
                }
            }
        });
    }
    let mut lts = party.mul(net, &second).await?.into_iter();
    for ((form, o), r) in forms.iter().zip(&operands).zip(&mut results) {
        if let Form::Less(_, _, negate) = form {
            let lt = o[2] + lts.next().expect("one product per Less");
            *r = if *negate { one - lt } else { lt };
        }
    }
    Ok(results)
}
