//! Mixed circuits ([`crate::circuit::mixed`]) on Spdz2k shares, many instances in lockstep.
//!
//! A plan made once per circuit ([`Plan`]) first lowers it ([`crate::circuit::mixed::lower`]:
//! Summon's select idiom `v ⊕ c·(v ⊕ w)` with a 0/1 condition becomes `v + c·(w − v)`, XOR and
//! OR of values with disjoint bits become additions), then sorts the gates:
//! - gates whose inputs are all public (constants and what follows from them) are folded to
//!   public values — any gate kind, by the plaintext evaluator's semantics;
//! - additions, subtractions, unary gates, multiplications by a public value, `ABitNot`
//!   (`2^k − 1 − x`), `AShiftL` by a public amount (`2^c·x`) and bitwise gates of a 0/1 value
//!   with a public one are local;
//! - products of two shared values take a triple each, and so do `ABitAnd`, `ABitOr` and `AXor`
//!   of two values known to be 0 or 1 (`ab`, `a + b − ab`, `a + b − 2ab`);
//! - comparisons and the boolean gates (`ALt ALEq AGt AGEq AEq ANeq ANot ABoolAnd ABoolOr`), and
//!   `AShiftR`, `ADiv`, `AMod` of a shared value by a public shift or power of two (and
//!   `ABitAnd` with a public low mask `2^s − 1`), run on
//!   checked random bits ([`super::compare`], [`super::probe`], [`super::bits`]); by 0, 1 or
//!   beyond k bits they are local;
//! - every other gate with a shared input needs all bits of a value — bitwise gates of full
//!   values, shifts by shared amounts, division and remainder by a shared or non-power-of-two
//!   divisor, powers — and runs on bit decompositions ([`super::bitlevel`]); an `ADiv` and an
//!   `AMod` of the same two wires are one division. [`evaluate_converting`] makes those
//!   decompositions through Coral's boolean sharings ([`crate::proto::coral::convert`]: one
//!   batch of packed daBits for the whole evaluation after the comparisons' random bits, then A2B
//!   and rB2A per layer, and Coral's MAC check before the outputs); [`Plan::converts`] says when
//!   that takes fewer Spdz2k triples than the arithmetic decomposition.
//!
//! Layers: a gate's layer is one more than its inputs' deepest if it is a shared product, a
//! comparison or a bit-level gate, else the same. Each layer runs its products (one Beaver round
//! for all of them and all instances), then its comparisons (one batch,
//! [`super::compare::rounds`]), then its bit-level gates (one batch per kind), then its local
//! gates. The random bits of the whole evaluation are made first, in one batch.
//!
//! Inputs declared bits (Summon's `bool` inputs, [`Plan::with_bit_inputs`]) are checked right
//! after the inputs (`x·(x − 1)` computed, MAC-checked and opened: 6 rounds) and may then be
//! conditions of selects.
//!
//! Rounds without comparisons or bit inputs: 1 (inputs) + the multiplicative depth + 9 (check, output
//! opening, check); bytes per party to each other party: (k+s)/8 per input it owns, 2·(k+s)/8
//! per shared product, (k+s)/8 per output, and the checks' fixed 32 + 32 + 32 + ((k+s)/8 + 32)
//! bytes, twice.

use crate::circuit::mixed::{MixedCircuit, MixedOp, RingBits};
use crate::net::{Network, PartyId};

use super::super::convert::dabits::dabits;
use super::super::convert::ConvertDemand;
use super::super::error::{Check, CoralError};
use super::super::messages::Step;
use super::super::online::Party;
use super::bitlevel::{self, Decompositions};
use super::bits::{add_demand as add_bit_demand, random_bits};
use super::compare;
use super::online::ArithParty;
use super::plan::Operand;
pub use super::plan::{Plan, MAX_RANDOM_BITS};
use super::prep::ArithDemand;
use super::share::AShare;

/// Most wire values a job holds at once (wires × instances).
pub const MAX_WIRE_VALUES: usize = 1 << 22;

/// `to` is empty or names a party (or everybody) for each output.
fn check_recipients(
    circuit: &MixedCircuit,
    to: &[Option<PartyId>],
    parties: usize,
) -> Result<(), CoralError> {
    if !to.is_empty() && to.len() != circuit.outputs.len() {
        return Err(CoralError::BadInput(format!(
            "{} output recipients given, the circuit has {} outputs",
            to.len(),
            circuit.outputs.len()
        )));
    }
    if let Some((i, p)) = to.iter().enumerate().find_map(|(i, t)| t.filter(|&p| p >= parties).map(|p| (i, p)))
    {
        return Err(CoralError::BadInput(format!("output {i}: recipient {p} is not a party")));
    }
    Ok(())
}

fn check_shape(
    circuit: &MixedCircuit,
    owners: &[PartyId],
    parties: usize,
    instances: usize,
) -> Result<(), CoralError> {
    if owners.len() != circuit.inputs as usize {
        return Err(CoralError::BadInput(format!(
            "{} input owners given, the circuit has {} inputs",
            owners.len(),
            circuit.inputs
        )));
    }
    if let Some((i, o)) = owners.iter().enumerate().find(|(_, &o)| o >= parties) {
        return Err(CoralError::BadInput(format!("input {i}: owner {o} is not a party")));
    }
    if instances == 0 {
        return Err(CoralError::BadInput("no instances".into()));
    }
    let values = (circuit.wires as usize).saturating_mul(instances);
    if values > MAX_WIRE_VALUES {
        return Err(CoralError::Limit {
            what: "wire values (wires × instances)",
            found: values,
            limit: MAX_WIRE_VALUES,
        });
    }
    Ok(())
}

/// The material `instances` evaluations of `circuit` consume, inputs owned as `owners` says.
///
/// # Errors
/// As [`evaluate`]'s checks of the circuit and owners.
pub fn demand(
    circuit: &MixedCircuit,
    ring: RingBits,
    owners: &[PartyId],
    parties: usize,
    instances: usize,
) -> Result<ArithDemand, CoralError> {
    demand_with_bits(circuit, ring, &[], owners, parties, instances)
}

/// [`demand`] with the inputs `bit_inputs` declared bits ([`Plan::with_bit_inputs`]).
///
/// # Errors
/// As [`evaluate_with_bits`]'s checks of the circuit, bit inputs and owners.
pub fn demand_with_bits(
    circuit: &MixedCircuit,
    ring: RingBits,
    bit_inputs: &[u32],
    owners: &[PartyId],
    parties: usize,
    instances: usize,
) -> Result<ArithDemand, CoralError> {
    demand_to(circuit, ring, bit_inputs, owners, &[], parties, instances)
}

/// [`demand_with_bits`] with output i opened to `to[i]` alone if it is `Some` (`to` empty:
/// every output to everybody; [`evaluate_to`]).
///
/// # Errors
/// As [`evaluate_to`]'s checks of the circuit, bit inputs, owners and recipients.
pub fn demand_to(
    circuit: &MixedCircuit,
    ring: RingBits,
    bit_inputs: &[u32],
    owners: &[PartyId],
    to: &[Option<PartyId>],
    parties: usize,
    instances: usize,
) -> Result<ArithDemand, CoralError> {
    check_shape(circuit, owners, parties, instances)?;
    check_recipients(circuit, to, parties)?;
    let plan = Plan::with_bit_inputs(circuit, ring, bit_inputs)?;
    plan.check_bits(ring.bits(), instances)?;
    let mut input_masks = vec![0usize; parties];
    for &o in owners.iter().chain(to.iter().flatten()) {
        input_masks[o] += instances;
    }
    let private = to.iter().flatten().count();
    let mut demand = ArithDemand {
        triples: plan.triples() * instances,
        input_masks,
        output_masks: (circuit.outputs.len() - private + plan.probed + bit_inputs.len()) * instances,
    };
    add_bit_demand(&mut demand, plan.bits(ring.bits()) * instances, parties);
    Ok(demand)
}

/// Evaluates `circuit` on `own.len()` instances; `own[i]` holds this party's input values of
/// instance i in circuit order. Returns every instance's outputs (modulo 2^k), after the MAC
/// checks passed.
///
/// # Errors
/// [`CoralError::BadInput`] or [`CoralError::Limit`] for inputs that do not match — all before
/// anything is sent; then
/// material, check and network errors.
pub async fn evaluate<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    circuit: &MixedCircuit,
    owners: &[PartyId],
    own: &[Vec<u64>],
) -> Result<Vec<Vec<u64>>, CoralError> {
    evaluate_with_bits(party, net, circuit, &[], owners, own).await
}

/// [`evaluate`] with the inputs `bit_inputs` declared bits ([`Plan::with_bit_inputs`]): right
/// after the inputs, `x·(x − 1)` of every declared bit is computed (one Beaver round), the MAC
/// check confirms every opening so far (four rounds: the products are then correct), and the
/// products are opened modulo 2^k with their upper bits masked (one round); anything but 0 is
/// [`Check::ArithBitInput`], before any comparison
/// opens a masked value, and these openings join the MAC check before the outputs. `x·(x − 1) ≡ 0
/// (mod 2^k)` only for x ≡ 0 or 1 (one of two consecutive integers is odd), and an honest bit's
/// check opens 0 whatever the other parties do (a wrong share of the opening fails it
/// independently of x), so the check reveals nothing about honest inputs. Without the MAC check
/// first, a party that shifted the Beaver opening by δ would see `δ·(x − 1)` opened.
///
/// # Errors
/// As [`evaluate`], and [`CoralError::BadInput`] for bit inputs that are not inputs.
pub async fn evaluate_with_bits<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    circuit: &MixedCircuit,
    bit_inputs: &[u32],
    owners: &[PartyId],
    own: &[Vec<u64>],
) -> Result<Vec<Vec<u64>>, CoralError> {
    let outputs = evaluate_to(party, net, circuit, bit_inputs, owners, &[], own).await?;
    Ok(outputs.into_iter().map(|o| o.into_iter().map(|v| v.expect("a public output")).collect()).collect())
}

/// [`evaluate_with_bits`] with output i opened to party `to[i]` alone if it is `Some`
/// ([`ArithParty::output_to`]: masked by one of its input masks; `to` empty: every output to
/// everybody). Returns per instance what this party learns (`None` for another party's output).
///
/// # Errors
/// As [`evaluate_with_bits`], and [`CoralError::BadInput`] for recipients that do not match
/// the outputs or are not parties — before anything is sent.
pub async fn evaluate_to<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    circuit: &MixedCircuit,
    bit_inputs: &[u32],
    owners: &[PartyId],
    to: &[Option<PartyId>],
    own: &[Vec<u64>],
) -> Result<Vec<Vec<Option<u64>>>, CoralError> {
    evaluate_any(party, None, net, circuit, bit_inputs, owners, to, own).await
}

/// The material [`evaluate_converting`] takes for `instances` evaluations, in both sharings.
///
/// # Errors
/// As [`demand_to`].
pub fn demand_converting(
    circuit: &MixedCircuit,
    ring: RingBits,
    bit_inputs: &[u32],
    owners: &[PartyId],
    to: &[Option<PartyId>],
    parties: usize,
    instances: usize,
) -> Result<ConvertDemand, CoralError> {
    let arith = demand_to(circuit, ring, bit_inputs, owners, to, parties, instances)?;
    let plan = Plan::with_bit_inputs(circuit, ring, bit_inputs)?;
    Ok(plan.convert_demand(arith, ring.bits(), parties, instances))
}

/// [`evaluate_to`] with every value the bit-level gates decompose going through Coral's boolean
/// sharings ([`crate::proto::coral::convert::decompose`], the paper's route) instead of the
/// arithmetic decomposition: the packed daBits of the whole evaluation are made first, in one
/// batch, right after the random bits the comparisons take; `boolean` is this party's Coral
/// party of the same session, with the boolean half of [`demand_converting`]. Both MAC logs
/// are checked before any output is opened.
///
/// # Errors
/// As [`evaluate_to`], and the daBit check ([`Check::DaBitConsistency`]) and Coral's MAC check.
#[allow(clippy::too_many_arguments)]
pub async fn evaluate_converting<N: Network>(
    party: &mut ArithParty,
    boolean: &mut Party,
    net: &mut N,
    circuit: &MixedCircuit,
    bit_inputs: &[u32],
    owners: &[PartyId],
    to: &[Option<PartyId>],
    own: &[Vec<u64>],
) -> Result<Vec<Vec<Option<u64>>>, CoralError> {
    evaluate_any(party, Some(boolean), net, circuit, bit_inputs, owners, to, own).await
}

#[allow(clippy::too_many_arguments)]
async fn evaluate_any<N: Network>(
    party: &mut ArithParty,
    mut boolean: Option<&mut Party>,
    net: &mut N,
    circuit: &MixedCircuit,
    bit_inputs: &[u32],
    owners: &[PartyId],
    to: &[Option<PartyId>],
    own: &[Vec<u64>],
) -> Result<Vec<Vec<Option<u64>>>, CoralError> {
    let n = own.len();
    check_shape(circuit, owners, net.parties(), n)?;
    check_recipients(circuit, to, net.parties())?;
    let plan = Plan::with_bit_inputs(circuit, party.ring().value_bits(), bit_inputs)?;
    plan.check_bits(party.ring().k(), n)?;
    let mine = owners.iter().filter(|&&o| o == party.party()).count();
    if let Some((i, values)) = own.iter().enumerate().find(|(_, v)| v.len() != mine) {
        return Err(CoralError::BadInput(format!(
            "instance {i}: {} own input values given, party {} owns {mine}",
            values.len(),
            party.party()
        )));
    }
    let k = party.ring().k();
    let decomposed = if boolean.is_some() { plan.decomposed() * k as usize } else { 0 };
    let bits = random_bits(party, net, (plan.bits(k) - decomposed) * n).await?;
    let mut bits = &bits[..];
    let dabits = match boolean.as_deref_mut() {
        Some(b) => dabits(b, party, net, plan.dabits(k, n)).await?,
        None => Vec::new(),
    };
    let mut dabits = &dabits[..];
    let all_owners: Vec<PartyId> = (0..n).flat_map(|_| owners.iter().copied()).collect();
    let all_own: Vec<u64> = own.iter().flatten().copied().collect();
    let inputs = party.input(net, &all_owners, &all_own).await?;
    if !bit_inputs.is_empty() {
        let squares: Vec<(AShare, AShare)> = (0..n)
            .flat_map(|i| bit_inputs.iter().map(move |&w| i * owners.len() + w as usize))
            .map(|at| (inputs[at], party.add_public(inputs[at], 1u128.wrapping_neg())))
            .collect();
        let checks = party.mul(net, &squares).await?;
        // The products must be right before they are opened: a wrong Beaver opening would make
        // `x·(x − 1)` come out as `δ·(x − 1)`, which shows an honest x (selective failure).
        party.check(net).await?;
        let opened = party.open_low(net, Step::ArithBitInputCheck, &checks).await?;
        if opened.iter().any(|&y| y != 0) {
            return Err(CoralError::failed(Check::ArithBitInput));
        }
    }
    // wires[w * n + i]: wire w of instance i (public wires stay unset; `plan.public` has them).
    let mut wires = vec![AShare::default(); circuit.wires as usize * n];
    if !owners.is_empty() {
        for (i, chunk) in inputs.chunks_exact(owners.len()).enumerate() {
            for (w, &s) in chunk.iter().enumerate() {
                wires[w * n + i] = s;
            }
        }
    }
    let (me, alpha) = (party.party(), party.material().alpha);
    let mask = u128::from(party.ring().value_bits().mask());
    for (((muls, compares), bitlevel), local) in
        plan.muls.iter().zip(&plan.compares).zip(&plan.bitlevel).zip(&plan.local)
    {
        if !muls.is_empty() {
            let pairs: Vec<(AShare, AShare)> = muls
                .iter()
                .flat_map(|&g| {
                    let [a, b] = plan.gates[g].inputs.map(|w| w as usize * n);
                    (0..n).map(move |i| (a + i, b + i))
                })
                .map(|(a, b)| (wires[a], wires[b]))
                .collect();
            let products = party.mul(net, &pairs).await?;
            for (&g, chunk) in muls.iter().zip(products.chunks_exact(n)) {
                let gate = plan.gates[g];
                let out = gate.out as usize * n;
                let [a, b] = gate.inputs.map(|w| w as usize * n);
                for (i, &ab) in chunk.iter().enumerate() {
                    let (x, y) = (wires[a + i], wires[b + i]);
                    // Mul and ABitAnd (of 0/1 values): ab; AXor: a + b − 2ab; ABitOr: a + b − ab.
                    wires[out + i] = match gate.op {
                        MixedOp::Xor => x + y - ab.scale(2),
                        MixedOp::BitOr => x + y - ab,
                        _ => ab,
                    };
                }
            }
        }
        if !compares.is_empty() {
            let gates = plan.operands(&wires, compares, n);
            let results = compare::evaluate(party, net, &gates, &mut bits).await?;
            for (&g, chunk) in compares.iter().zip(results.chunks_exact(n)) {
                let out = plan.gates[g].out as usize * n;
                wires[out..out + n].copy_from_slice(chunk);
            }
        }
        if !bitlevel.is_empty() {
            let gates = plan.operands(&wires, bitlevel, n);
            // A twin is in the same layer (same input wires, so the same depth).
            let position =
                |g: usize| bitlevel.iter().position(|&h| h == g).expect("a twin in the same layer");
            let twins: Vec<Option<usize>> = bitlevel
                .iter()
                .flat_map(|g| {
                    let twin = plan.twin.get(g).map(|&t| position(t));
                    (0..n).map(move |i| twin.map(|t| t * n + i))
                })
                .collect();
            let mut source = match boolean.as_deref_mut() {
                Some(b) => Decompositions::Convert(b, &mut dabits),
                None => Decompositions::Arith(&mut bits),
            };
            let results = bitlevel::evaluate(party, net, &gates, &twins, &mut source).await?;
            for (&g, chunk) in bitlevel.iter().zip(results.chunks_exact(n)) {
                let out = plan.gates[g].out as usize * n;
                wires[out..out + n].copy_from_slice(chunk);
            }
        }
        for &g in local {
            let gate = plan.gates[g];
            let (a, b) = (plan.operand(&wires, gate.inputs[0], n), plan.operand(&wires, gate.inputs[1], n));
            let result: Vec<AShare> = (0..n)
                .map(|i| match (gate.op, a, b) {
                    (MixedOp::Add, Operand::Shared(x), Operand::Shared(y)) => x[i] + y[i],
                    (MixedOp::Add, Operand::Shared(x), Operand::Public(c))
                    | (MixedOp::Add, Operand::Public(c), Operand::Shared(x)) => x[i].add_public(c, me, alpha),
                    (MixedOp::Sub, Operand::Shared(x), Operand::Shared(y)) => x[i] - y[i],
                    (MixedOp::Sub, Operand::Shared(x), Operand::Public(c)) => {
                        x[i].add_public(c.wrapping_neg(), me, alpha)
                    }
                    (MixedOp::Sub, Operand::Public(c), Operand::Shared(y)) => {
                        (-y[i]).add_public(c, me, alpha)
                    }
                    (MixedOp::Mul, Operand::Shared(x), Operand::Public(c))
                    | (MixedOp::Mul, Operand::Public(c), Operand::Shared(x)) => x[i].scale(c),
                    (MixedOp::UnaryAdd, Operand::Shared(x), _) => x[i],
                    (MixedOp::UnarySub, Operand::Shared(x), _) => -x[i],
                    (MixedOp::BitNot, Operand::Shared(x), _) => (-x[i]).add_public(mask, me, alpha),
                    // x ∈ {0, 1} shared, c public: x ∧ c = x·c₀, x ∨ c = c + x·(1 − c₀),
                    // x ⊕ c = c + x·(1 − 2c₀) (c₀ the lowest bit of c).
                    (MixedOp::BitAnd, Operand::Shared(x), Operand::Public(c))
                    | (MixedOp::BitAnd, Operand::Public(c), Operand::Shared(x)) => x[i].scale(c & 1),
                    (MixedOp::BitOr, Operand::Shared(x), Operand::Public(c))
                    | (MixedOp::BitOr, Operand::Public(c), Operand::Shared(x)) => {
                        x[i].scale(1 - (c & 1)).add_public(c, me, alpha)
                    }
                    (MixedOp::Xor, Operand::Shared(x), Operand::Public(c))
                    | (MixedOp::Xor, Operand::Public(c), Operand::Shared(x)) => {
                        x[i].scale(1u128.wrapping_sub(2 * (c & 1))).add_public(c, me, alpha)
                    }
                    (MixedOp::ShiftL, Operand::Shared(x), Operand::Public(c)) => {
                        x[i].scale(if c < u128::from(k) { 1 << c } else { 0 })
                    }
                    (MixedOp::ShiftR, Operand::Shared(x), Operand::Public(c)) => {
                        x[i].scale(u128::from(c == 0))
                    }
                    // x / 0 = 2^k − 1, x / 1 = x; x mod 0 = x, x mod 1 = 0.
                    (MixedOp::Div, Operand::Shared(x), Operand::Public(c)) => {
                        if c == 0 {
                            AShare::public(mask, me, alpha)
                        } else {
                            x[i]
                        }
                    }
                    (MixedOp::Mod, Operand::Shared(x), Operand::Public(c)) => x[i].scale(u128::from(c == 0)),
                    _ => unreachable!("the plan leaves local ring gates with a shared input here"),
                })
                .collect();
            let out = gate.out as usize * n;
            wires[out..out + n].copy_from_slice(&result);
        }
    }
    let ys: Vec<AShare> = (0..n)
        .flat_map(|i| circuit.outputs.iter().map(move |&w| (w, i)))
        .map(|(w, i)| match plan.public[w as usize] {
            Some(c) => AShare::public(u128::from(c), me, alpha),
            None => wires[w as usize * n + i],
        })
        .collect();
    let recipients: Vec<Option<PartyId>> =
        if to.is_empty() { vec![None; ys.len()] } else { (0..n).flat_map(|_| to.iter().copied()).collect() };
    if let Some(b) = boolean {
        // The conversions' boolean openings are in Coral's MAC log.
        b.check(net).await?;
    }
    let values = party.output_to(net, &ys, &recipients).await?;
    if circuit.outputs.is_empty() {
        return Ok(vec![Vec::new(); n]);
    }
    Ok(values.chunks_exact(circuit.outputs.len()).map(<[Option<u64>]>::to_vec).collect())
}
