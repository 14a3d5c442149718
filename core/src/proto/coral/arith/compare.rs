//! Comparisons, boolean gates and shifts on Spdz2k shares, from [`super::probe`]'s msb, zero
//! test and right shift of shared values: the bit-level half of mixed circuits that needs no
//! conversion to boolean shares.
//!
//! **Gates** (unsigned, comparison results 0/1, as [`crate::circuit::mixed`] defines them):
//! - `x < y`: msb(x) ≠ msb(y) decides it (the one with the top bit set is larger); otherwise
//!   x − y does not wrap past half the ring and msb(x − y) is the answer:
//!   `t = m_x ⊕ m_y`, `lt = m_d + t·(m_y − m_d)` — two more rounds, two triples. `x > y`,
//!   `x ≤ y`, `x ≥ y` are `y < x`, `1 − (y < x)`, `1 − (x < y)`. A public operand's msb is public.
//! - `x = y`, `x ≠ y`, `!x` from the zero test alone of x − y or x; `x && y` =
//!   `(1 − z_x)(1 − z_y)` and `x || y` = `1 − z_x·z_y` (one round, one triple; a public
//!   operand's test is public).
//! - `x >> s`, `x / 2^s` and `x mod 2^s = x − 2^s·(x >> s)` (also `x & (2^s − 1)`) for a public
//!   0 < s < k: one shift probe, nothing after it.
//!
//! Every gate of a layer, for every instance, goes through the same rounds together: the probes
//! (one batch), then up to two finishing rounds. Security: as the online phase, given that the
//! bits were checked before any of them masked an opening.

use crate::circuit::mixed::MixedOp;
use crate::net::Network;

use super::super::error::CoralError;
use super::online::ArithParty;
use super::probe::{self, Probe, Probed};
use super::share::AShare;

/// A gate operand in one instance: shared, or public (a value below 2^k).
#[derive(Debug, Clone, Copy)]
pub enum Value {
    /// A shared value.
    Shared(AShare),
    /// A public value.
    Public(u64),
}

/// Whether `op` runs here, given its operands' public values (`None`: shared; at least one is
/// shared). Shifts, divisions and remainders need a shared value and a public amount that is a
/// shift strictly between 0 and k bits; the other amounts are local or unsupported (see
/// [`super::circuit`]).
pub fn supported(op: MixedOp, a: Option<u64>, b: Option<u64>, k: u32) -> bool {
    use MixedOp::*;
    match op {
        Lt | LEq | Gt | GEq | Eq | Neq | Not | BoolAnd | BoolOr => true,
        ShiftR | Div | Mod => a.is_none() && shift_of(op, b, k).is_some(),
        BitAnd => shift_of(op, b.or(a), k).is_some() && (a.is_none() != b.is_none()),
        _ => false,
    }
}

/// The shift a `ShiftR`, `Div` or `Mod` gate by the public `b` stands for (or an `ABitAnd` with
/// the public mask `b = 2^s − 1`, a `Mod` by 2^s), if 0 < s < k.
fn shift_of(op: MixedOp, b: Option<u64>, k: u32) -> Option<u32> {
    let b = b?;
    let s = match op {
        MixedOp::ShiftR => u32::try_from(b).ok()?,
        MixedOp::Div | MixedOp::Mod if b.is_power_of_two() => b.trailing_zeros(),
        MixedOp::BitAnd if b.checked_add(1).is_some_and(u64::is_power_of_two) => (b + 1).trailing_zeros(),
        _ => return None,
    };
    (0 < s && s < k).then_some(s)
}

/// Values probed and triples taken by one supported `op` gate, given its operands' public
/// values (`None`: shared; a unary gate's missing operand is public), in a ring of `k` bits.
pub fn cost(op: MixedOp, a: Option<u64>, b: Option<u64>, k: u32) -> (usize, usize) {
    use MixedOp::*;
    let (msb, zero) = (Probe::MsbZero.triples(k), Probe::Zero.triples(k));
    let shared = usize::from(a.is_none()) + usize::from(b.is_none());
    match op {
        Lt | LEq | Gt | GEq => (shared + 1, (shared + 1) * msb + 2),
        Eq | Neq | Not => (1, zero),
        BoolAnd | BoolOr => (shared, shared * zero + 1),
        ShiftR | Div | Mod | BitAnd => (1, Probe::ShiftRight(1).triples(k)),
        _ => (0, 0),
    }
}

/// Rounds of one layer of gates in a ring of `k` bits with an msb probe: the probes, then up
/// to two finishing rounds (`finishing`: 0, 1 or 2).
pub fn rounds(k: u32, finishing: usize) -> usize {
    probe::rounds(k) + finishing
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
    /// `x >> s` (false) or `x mod 2^s` (true).
    Shift(AShare, u32, bool),
}

/// Evaluates `gates` (each an op with its operands, at least one shared) consuming k random
/// bits per probed value from the front of `bits`; returns one shared result per gate (0 or 1
/// but for shifts).
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
            ShiftR | Div | Mod => {
                let (Value::Shared(x), Value::Public(c)) = (a, b) else {
                    panic!("{} needs a shared value and a public amount", op.name())
                };
                let s = shift_of(op, Some(c), k).expect("a supported shift");
                Form::Shift(x, s, op == Mod)
            }
            BitAnd => {
                let (x, c) = match (a, b) {
                    (Value::Shared(x), Value::Public(c)) | (Value::Public(c), Value::Shared(x)) => (x, c),
                    _ => panic!("ABitAnd here needs a shared value and a public low mask"),
                };
                Form::Shift(x, shift_of(op, Some(c), k).expect("a low mask"), true)
            }
            _ => panic!("{} is not a comparison, boolean or shift gate", op.name()),
        })
        .collect();
    // The probed values, in gate order (x, y, x − y for Less; x for Zero; x, y for Logic; x for
    // Shift).
    let mut tested: Vec<(AShare, Probe)> = Vec::new();
    for form in &forms {
        let shared = |v: &Value, probe: Probe| match *v {
            Value::Shared(s) => Some((s, probe)),
            Value::Public(_) => None,
        };
        match form {
            Form::Less(x, y, _) => {
                tested.extend(shared(x, Probe::MsbZero));
                tested.extend(shared(y, Probe::MsbZero));
                tested.push((diff(party, *x, *y), Probe::MsbZero));
            }
            Form::Zero(x, _) => tested.extend(shared(x, Probe::Zero)),
            Form::Logic(x, y, _) => {
                tested.extend(shared(x, Probe::Zero));
                tested.extend(shared(y, Probe::Zero));
            }
            Form::Shift(x, s, _) => tested.push((*x, Probe::ShiftRight(*s))),
        }
    }
    let (used, rest) = bits.split_at(tested.len() * k as usize);
    *bits = rest;
    let answers = probe::probe(party, net, &tested, used).await?;
    let mut next = answers.into_iter();
    // Per gate: the operands' msb or zero tests (and the difference's msb for Less), or the
    // shift's result.
    let mut operands = Vec::with_capacity(forms.len());
    for form in &forms {
        operands.push(match form {
            Form::Less(x, y, _) => {
                let (mx, my) = (msb(party, x, &mut next), msb(party, y, &mut next));
                // x − y is always shared, so probed.
                let Some(Probed::MsbZero(md, _)) = next.next() else {
                    unreachable!("probes are answered in order")
                };
                [mx, my, md]
            }
            Form::Zero(x, _) => [zero(party, x, &mut next), AShare::default(), AShare::default()],
            Form::Logic(x, y, or) => {
                let (zx, zy) = (zero(party, x, &mut next), zero(party, y, &mut next));
                if *or {
                    [zx, zy, AShare::default()]
                } else {
                    [one - zx, one - zy, AShare::default()]
                }
            }
            Form::Shift(x, s, modulo) => {
                let Some(Probed::Shifted(q)) = next.next() else {
                    unreachable!("probes are answered in order")
                };
                [if *modulo { *x - q.scale(1 << s) } else { q }, AShare::default(), AShare::default()]
            }
        });
    }
    // First finishing round: m_x·m_y for Less, the two operands' product for Logic.
    let first: Vec<(AShare, AShare)> = forms
        .iter()
        .zip(&operands)
        .filter(|(f, _)| matches!(f, Form::Less(..) | Form::Logic(..)))
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
            Form::Shift(..) => o[0],
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

/// A value's msb: the next answer if it is shared (it was probed), else public.
fn msb(party: &ArithParty, v: &Value, answers: &mut impl Iterator<Item = Probed>) -> AShare {
    match *v {
        Value::Shared(_) => match answers.next() {
            Some(Probed::MsbZero(m, _)) => m,
            _ => unreachable!("probes are answered in order"),
        },
        Value::Public(c) => party.constant(c >> (party.ring().k() - 1)),
    }
}

/// Whether a value is zero: the next answer if it is shared (it was probed), else public.
fn zero(party: &ArithParty, v: &Value, answers: &mut impl Iterator<Item = Probed>) -> AShare {
    match *v {
        Value::Shared(_) => match answers.next() {
            Some(Probed::Zero(z)) => z,
            _ => unreachable!("probes are answered in order"),
        },
        Value::Public(c) => party.constant(u64::from(c == 0)),
    }
}
