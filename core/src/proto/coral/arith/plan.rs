//! How a mixed circuit runs on Spdz2k shares: the [`Plan`] made once per circuit — the lowered
//! gates, the public wires folded, every other gate sorted by kind (local, product, comparison,
//! bit-level) into layers, and the material one instance takes. [`super::circuit`] evaluates it;
//! its module docs say what each kind of gate costs and why.

use std::collections::HashMap;

use crate::circuit::mixed::eval::apply;
use crate::circuit::mixed::lower::lower_with_bits;
use crate::circuit::mixed::{MixedCircuit, MixedGate, MixedOp, RingBits};

use super::super::convert::{self, dabits, ConvertDemand};
use super::super::error::CoralError;
use super::super::share::LANES;
use super::bitlevel;
use super::bits::add_demand as add_bit_demand;
use super::compare::{self, Value};
use super::decompose;
use super::prep::ArithDemand;
use super::share::AShare;

/// Most random bits one evaluation makes (probed values × k × instances): they are made at once,
/// so this bounds their memory (32 bytes per bit and per party's contribution).
pub const MAX_RANDOM_BITS: usize = 1 << 21;

/// How a circuit runs on Spdz2k shares (see the module docs).
#[derive(Debug, Clone)]
pub struct Plan {
    /// The gates after [`lower`] (Summon's select idiom as ring arithmetic).
    pub(super) gates: Vec<MixedGate>,
    /// The value of every public wire (constants and gates folded from them).
    pub(super) public: Vec<Option<u64>>,
    /// `muls[d]`: the gates multiplying two shared values in layer d.
    pub(super) muls: Vec<Vec<usize>>,
    /// `compares[d]`: the comparison and boolean gates of layer d.
    pub(super) compares: Vec<Vec<usize>>,
    /// `bitlevel[d]`: the gates of layer d that need all bits of a value.
    pub(super) bitlevel: Vec<Vec<usize>>,
    /// `twin[g]`: an earlier `ADiv`/`AMod` gate on the same two wires, whose division gate g
    /// shares (the quotient and the remainder come out of one division).
    pub(super) twin: HashMap<usize, usize>,
    /// `local[d]`: the other gates with a shared input in layer d, in circuit order.
    pub(super) local: Vec<Vec<usize>>,
    /// Values probed or decomposed per instance (k random bits and an output mask each).
    pub(super) probed: usize,
    /// Triples the probes, decompositions and the gates after them take, per instance.
    pub(super) probe_triples: usize,
    /// The inputs declared bits, checked after input (one triple and one output mask each).
    pub(super) bit_inputs: Vec<u32>,
    /// `decomposed[d]`: values the bit-level gates of layer d decompose, per instance (part of
    /// `probed`).
    pub(super) decomposed: Vec<usize>,
    /// Triples those decompositions take within the arithmetic shares, per instance (part of
    /// `probe_triples`).
    pub(super) decomposition_triples: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Local,
    Product,
    Compare,
    Bits,
}

impl Plan {
    /// The plan of `circuit` in `ring`.
    ///
    /// # Errors
    /// None today: every gate of [`MixedOp`] runs (the `Result` is [`Plan::with_bit_inputs`]'s).
    pub fn new(circuit: &MixedCircuit, ring: RingBits) -> Result<Plan, CoralError> {
        Plan::with_bit_inputs(circuit, ring, &[])
    }

    /// The plan of `circuit` in `ring` whose inputs `bit_inputs` hold 0 or 1 (Summon's `bool`
    /// inputs): the evaluation checks them, and the lowering may use them as conditions.
    ///
    /// # Errors
    /// [`CoralError::BadInput`] for a bit input that is not an input or is listed twice.
    pub fn with_bit_inputs(
        circuit: &MixedCircuit,
        ring: RingBits,
        bit_inputs: &[u32],
    ) -> Result<Plan, CoralError> {
        let mut sorted = bit_inputs.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != bit_inputs.len() || sorted.last().is_some_and(|&w| w >= circuit.inputs) {
            return Err(CoralError::BadInput(format!(
                "bit inputs {bit_inputs:?}: each must be one of the circuit's {} inputs, once",
                circuit.inputs
            )));
        }
        let mut public = vec![None; circuit.wires as usize];
        for &(w, c) in &circuit.constants {
            public[w as usize] = Some(c & ring.mask());
        }
        let mut depth = vec![0usize; circuit.wires as usize];
        // The first ADiv/AMod gate on each pair of wires.
        let mut divisions: HashMap<[u32; 2], usize> = HashMap::new();
        let lowered = lower_with_bits(circuit, ring, bit_inputs);
        let boolean = |w: usize| lowered.boolean(w);
        let mut plan = Plan {
            gates: Vec::new(),
            public: Vec::new(),
            muls: vec![Vec::new()],
            compares: vec![Vec::new()],
            bitlevel: vec![Vec::new()],
            twin: HashMap::new(),
            local: vec![Vec::new()],
            probed: 0,
            probe_triples: 0,
            bit_inputs: bit_inputs.to_vec(),
            decomposed: vec![0],
            decomposition_triples: 0,
        };
        for (index, gate) in lowered.gates.iter().enumerate() {
            let inputs = &gate.inputs[..gate.op.arity()];
            let out = gate.out as usize;
            let a = public[inputs[0] as usize];
            let b = inputs.get(1).map_or(Some(0), |&w| public[w as usize]);
            if let (Some(a), Some(b)) = (a, b) {
                public[out] = Some(apply(gate.op, a, b, ring));
                continue;
            }
            let bits = matches!(gate.op, MixedOp::Xor | MixedOp::BitAnd | MixedOp::BitOr);
            let [wa, wb] = gate.inputs.map(|w| w as usize);
            let kind = match gate.op {
                MixedOp::Mul if a.is_none() && b.is_none() => Kind::Product,
                // Bitwise gates of values known to be 0 or 1: products, or local with a public
                // operand.
                _ if bits && a.is_none() && b.is_none() && boolean(wa) && boolean(wb) => Kind::Product,
                _ if bits
                    && (a.is_none() && boolean(wa) && b.is_some()
                        || b.is_none() && boolean(wb) && a.is_some()) =>
                {
                    Kind::Local
                }
                op if op.is_arithmetic() || op == MixedOp::BitNot => Kind::Local,
                MixedOp::ShiftL if b.is_some() => Kind::Local,
                // By 0 or beyond k bits, by 0 or 1: the value itself, zero or a constant.
                MixedOp::ShiftR
                    if a.is_none() && b.is_some_and(|c| c == 0 || c >= u64::from(ring.bits())) =>
                {
                    Kind::Local
                }
                MixedOp::Div | MixedOp::Mod if a.is_none() && b.is_some_and(|c| c <= 1) => Kind::Local,
                op if compare::supported(op, a, b, ring.bits()) => Kind::Compare,
                op if bitlevel::supported(op) => Kind::Bits,
                op => unreachable!("gate {index}: every {} with a shared operand has a kind", op.name()),
            };
            let d = inputs.iter().map(|&w| depth[w as usize]).max().unwrap_or(0)
                + usize::from(kind != Kind::Local);
            depth[out] = d;
            public[out] = None;
            if plan.muls.len() <= d {
                plan.muls.resize(d + 1, Vec::new());
                plan.compares.resize(d + 1, Vec::new());
                plan.bitlevel.resize(d + 1, Vec::new());
                plan.local.resize(d + 1, Vec::new());
                plan.decomposed.resize(d + 1, 0);
            }
            match kind {
                Kind::Product => plan.muls[d].push(index),
                Kind::Local => plan.local[d].push(index),
                Kind::Compare => {
                    let (probed, triples) = compare::cost(gate.op, a, b, ring.bits());
                    plan.probed += probed;
                    plan.probe_triples += triples;
                    plan.compares[d].push(index);
                }
                Kind::Bits => {
                    let division = matches!(gate.op, MixedOp::Div | MixedOp::Mod);
                    match divisions.get(&gate.inputs) {
                        // Same wires, same layer: the twin's division gives both results.
                        Some(&first) if division => {
                            plan.twin.insert(index, first);
                        }
                        _ => {
                            if division {
                                divisions.insert(gate.inputs, index);
                            }
                            let (probed, triples) = bitlevel::cost(gate.op, a, b, ring.bits());
                            plan.probed += probed;
                            plan.probe_triples += triples;
                            plan.decomposed[d] += probed;
                            plan.decomposition_triples += probed * decompose::triples(ring.bits());
                        }
                    }
                    plan.bitlevel[d].push(index);
                }
            }
        }
        plan.public = public;
        plan.gates = lowered.gates;
        Ok(plan)
    }

    /// Triples per instance.
    pub fn triples(&self) -> usize {
        self.muls.iter().map(Vec::len).sum::<usize>() + self.probe_triples + self.bit_inputs.len()
    }

    /// Random bits per instance.
    pub fn bits(&self, k: u32) -> usize {
        self.probed * k as usize
    }

    /// Values decomposed per instance (by bit-level gates).
    pub fn decomposed(&self) -> usize {
        self.decomposed.iter().sum()
    }

    /// Whether `instances` evaluations among `parties` parties decompose values through the
    /// conversions ([`convert::decompose::cheaper`] for every layer's batch together — one
    /// batch of daBits serves them all).
    pub fn converts(&self, k: u32, parties: usize, instances: usize) -> bool {
        convert::decompose::cheaper(self.decomposed() * instances, k, parties)
    }

    /// Packed daBits `instances` evaluations take when they convert: every layer's
    /// decompositions, made in one batch.
    pub fn dabits(&self, k: u32, instances: usize) -> usize {
        self.decomposed.iter().map(|&v| convert::decompose::dabits_for(v * instances, k)).sum()
    }

    /// The material of `instances` evaluations that convert ([`Plan::converts`]) beyond the
    /// arithmetic decompositions' share of `arith` (the demand without conversions), which this
    /// takes out: the daBits, each layer's conversions, and the random bits, triples and output
    /// masks the arithmetic decompositions would have taken.
    pub(super) fn convert_demand(
        &self,
        arith: ArithDemand,
        k: u32,
        parties: usize,
        instances: usize,
    ) -> ConvertDemand {
        let mut demand = ConvertDemand::empty(parties);
        let decomposed = self.decomposed() * instances;
        // The arithmetic decompositions' random bits (n input masks, n triples and an output mask
        // each), their triples and their masked openings' output masks.
        let mut without = ArithDemand { input_masks: vec![0; parties], ..ArithDemand::default() };
        add_bit_demand(&mut without, decomposed * k as usize, parties);
        demand.arith = ArithDemand {
            triples: arith.triples - without.triples - self.decomposition_triples * instances,
            input_masks: arith.input_masks.iter().zip(&without.input_masks).map(|(a, b)| a - b).collect(),
            output_masks: arith.output_masks - without.output_masks - decomposed,
        };
        dabits::add_demand(&mut demand, self.dabits(k, instances), parties);
        for &v in &self.decomposed {
            convert::decompose::add_online_demand(&mut demand, v * instances, k);
        }
        demand
    }

    /// Random bits `instances` evaluations make at once, counting every lane of a packed daBit
    /// as one — with or without conversions, the larger.
    pub fn random_lanes(&self, k: u32, instances: usize) -> usize {
        let bits = self.bits(k).saturating_mul(instances);
        let others = (self.probed - self.decomposed()) * k as usize;
        let dabits = if self.decomposed() == 0 { 0 } else { self.dabits(k, instances) + dabits::CHECKS };
        bits.max(others.saturating_mul(instances).saturating_add(dabits.saturating_mul(LANES)))
    }

    /// [`CoralError::Limit`] if `instances` evaluations need more than [`MAX_RANDOM_BITS`].
    pub(super) fn check_bits(&self, k: u32, instances: usize) -> Result<(), CoralError> {
        let bits = self.random_lanes(k, instances);
        if bits > MAX_RANDOM_BITS {
            return Err(CoralError::Limit {
                what: "random bits (probed values × k × instances)",
                found: bits,
                limit: MAX_RANDOM_BITS,
            });
        }
        Ok(())
    }

    /// Wire `w` of all `n` instances.
    pub(super) fn operand<'a>(&self, wires: &'a [AShare], w: u32, n: usize) -> Operand<'a> {
        match self.public[w as usize] {
            Some(c) => Operand::Public(u128::from(c)),
            None => Operand::Shared(&wires[w as usize * n..(w as usize + 1) * n]),
        }
    }

    /// Layers (each at least one Beaver round or one batch of comparisons or bit-level gates).
    pub fn depth(&self) -> usize {
        (0..self.muls.len())
            .filter(|&d| {
                !self.muls[d].is_empty() || !self.compares[d].is_empty() || !self.bitlevel[d].is_empty()
            })
            .count()
    }

    /// Gates `list` of all `n` instances as an op with its operands (a unary gate's second
    /// operand public 0), gate by gate.
    pub(super) fn operands(
        &self,
        wires: &[AShare],
        list: &[usize],
        n: usize,
    ) -> Vec<(MixedOp, Value, Value)> {
        let value = |o: Operand, i: usize| match o {
            Operand::Shared(x) => Value::Shared(x[i]),
            Operand::Public(c) => Value::Public(c as u64),
        };
        list.iter()
            .flat_map(|&g| {
                let gate = self.gates[g];
                let a = self.operand(wires, gate.inputs[0], n);
                let b = if gate.op.arity() == 2 {
                    self.operand(wires, gate.inputs[1], n)
                } else {
                    Operand::Public(0)
                };
                (0..n).map(move |i| (gate.op, value(a, i), value(b, i)))
            })
            .collect()
    }
}

/// A wire of every instance: shared, or the same public value.
#[derive(Clone, Copy)]
pub(super) enum Operand<'a> {
    Shared(&'a [AShare]),
    Public(u128),
}
