//! Mixed circuits ([`crate::circuit::mixed`]) on Spdz2k shares, many instances in lockstep.
//!
//! A plan made once per circuit ([`Plan`]) sorts the gates:
//! - gates whose inputs are all public (constants and what follows from them) are folded to
//!   public values — any gate kind, by the plaintext evaluator's semantics;
//! - additions, subtractions, unary gates and multiplications by a public value are local;
//! - products of two shared values take a triple each, one Beaver round per multiplicative
//!   layer for all instances at once;
//! - every other gate with a shared input needs the values' bits (comparisons, bit operations,
//!   shifts, division, powers), i.e. the edaBit conversions of Coral §4.3.1 (Fig. 9, 10); until
//!   they exist such a circuit is refused with [`CoralError::UnsupportedGate`] before anything
//!   is sent.
//!
//! Rounds: 1 (inputs) + the multiplicative depth + 9 (check, output opening, check); bytes per
//! party to each other party: (k+s)/8 per input it owns, 2·(k+s)/8 per shared product, (k+s)/8
//! per output, and the checks' fixed 32 + 32 + 32 + ((k+s)/8 + 32) bytes, twice.

use crate::circuit::mixed::eval::apply;
use crate::circuit::mixed::{MixedCircuit, MixedOp, RingBits};
use crate::net::{Network, PartyId};

use super::super::error::CoralError;
use super::online::ArithParty;
use super::prep::ArithDemand;
use super::share::AShare;

/// Most wire values a job holds at once (wires × instances).
pub const MAX_WIRE_VALUES: usize = 1 << 22;

/// How a circuit runs on Spdz2k shares (see the module docs).
#[derive(Debug, Clone)]
pub struct Plan {
    /// The value of every public wire (constants and gates folded from them).
    public: Vec<Option<u64>>,
    /// `muls[d]`: the gates multiplying two shared values at multiplicative depth d.
    muls: Vec<Vec<usize>>,
    /// `local[d]`: the other gates with a shared input at depth d, in circuit order.
    local: Vec<Vec<usize>>,
}

impl Plan {
    /// The plan of `circuit` in `ring`.
    ///
    /// # Errors
    /// [`CoralError::UnsupportedGate`] for the first gate that needs conversions.
    pub fn new(circuit: &MixedCircuit, ring: RingBits) -> Result<Plan, CoralError> {
        let mut public = vec![None; circuit.wires as usize];
        for &(w, c) in &circuit.constants {
            public[w as usize] = Some(c & ring.mask());
        }
        let mut depth = vec![0usize; circuit.wires as usize];
        let mut plan = Plan { public: Vec::new(), muls: vec![Vec::new()], local: vec![Vec::new()] };
        for (index, gate) in circuit.gates.iter().enumerate() {
            let inputs = &gate.inputs[..gate.op.arity()];
            let out = gate.out as usize;
            let a = public[inputs[0] as usize];
            let b = inputs.get(1).map_or(Some(0), |&w| public[w as usize]);
            if let (Some(a), Some(b)) = (a, b) {
                public[out] = Some(apply(gate.op, a, b, ring));
                continue;
            }
            if !gate.op.is_arithmetic() {
                return Err(CoralError::UnsupportedGate { index, gate: gate.op.name() });
            }
            let shared_product =
                gate.op == MixedOp::Mul && inputs.iter().all(|&w| public[w as usize].is_none());
            let d =
                inputs.iter().map(|&w| depth[w as usize]).max().unwrap_or(0) + usize::from(shared_product);
            depth[out] = d;
            public[out] = None;
            if plan.muls.len() <= d {
                plan.muls.resize(d + 1, Vec::new());
                plan.local.resize(d + 1, Vec::new());
            }
            if shared_product { &mut plan.muls[d] } else { &mut plan.local[d] }.push(index);
        }
        plan.public = public;
        Ok(plan)
    }

    /// Triples per instance.
    pub fn triples(&self) -> usize {
        self.muls.iter().map(Vec::len).sum()
    }

    /// Multiplicative depth (Beaver rounds).
    pub fn depth(&self) -> usize {
        self.muls.iter().filter(|m| !m.is_empty()).count()
    }
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
    check_shape(circuit, owners, parties, instances)?;
    let plan = Plan::new(circuit, ring)?;
    let mut input_masks = vec![0usize; parties];
    for &o in owners {
        input_masks[o] += instances;
    }
    Ok(ArithDemand {
        triples: plan.triples() * instances,
        input_masks,
        output_masks: circuit.outputs.len() * instances,
    })
}

/// A wire of every instance: shared, or the same public value.
#[derive(Clone, Copy)]
enum Operand<'a> {
    Shared(&'a [AShare]),
    Public(u128),
}

/// Evaluates `circuit` on `own.len()` instances; `own[i]` holds this party's input values of
/// instance i in circuit order. Returns every instance's outputs (modulo 2^k), after the MAC
/// checks passed.
///
/// # Errors
/// [`CoralError::UnsupportedGate`] for a gate that needs conversions, [`CoralError::BadInput`]
/// or [`CoralError::Limit`] for inputs that do not match — all before anything is sent; then
/// material, check and network errors.
pub async fn evaluate<N: Network>(
    party: &mut ArithParty,
    net: &mut N,
    circuit: &MixedCircuit,
    owners: &[PartyId],
    own: &[Vec<u64>],
) -> Result<Vec<Vec<u64>>, CoralError> {
    let n = own.len();
    check_shape(circuit, owners, net.parties(), n)?;
    let plan = Plan::new(circuit, party.ring().value_bits())?;
    let mine = owners.iter().filter(|&&o| o == party.party()).count();
    if let Some((i, values)) = own.iter().enumerate().find(|(_, v)| v.len() != mine) {
        return Err(CoralError::BadInput(format!(
            "instance {i}: {} own input values given, party {} owns {mine}",
            values.len(),
            party.party()
        )));
    }
    let all_owners: Vec<PartyId> = (0..n).flat_map(|_| owners.iter().copied()).collect();
    let all_own: Vec<u64> = own.iter().flatten().copied().collect();
    let inputs = party.input(net, &all_owners, &all_own).await?;
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
    for (muls, local) in plan.muls.iter().zip(&plan.local) {
        if !muls.is_empty() {
            let pairs: Vec<(AShare, AShare)> = muls
                .iter()
                .flat_map(|&g| {
                    let [a, b] = circuit.gates[g].inputs.map(|w| w as usize * n);
                    (0..n).map(move |i| (a + i, b + i))
                })
                .map(|(a, b)| (wires[a], wires[b]))
                .collect();
            let products = party.mul(net, &pairs).await?;
            for (&g, chunk) in muls.iter().zip(products.chunks_exact(n)) {
                let out = circuit.gates[g].out as usize * n;
                wires[out..out + n].copy_from_slice(chunk);
            }
        }
        for &g in local {
            let gate = circuit.gates[g];
            let operand = |w: u32| match plan.public[w as usize] {
                Some(c) => Operand::Public(u128::from(c)),
                None => Operand::Shared(&wires[w as usize * n..(w as usize + 1) * n]),
            };
            let (a, b) = (operand(gate.inputs[0]), operand(gate.inputs[1]));
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
    let values = party.output(net, &ys).await?;
    if circuit.outputs.is_empty() {
        return Ok(vec![Vec::new(); n]);
    }
    Ok(values.chunks_exact(circuit.outputs.len()).map(<[u64]>::to_vec).collect())
}
