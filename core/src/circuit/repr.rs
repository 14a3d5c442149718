//! The one boolean circuit representation, organised in layers by AND-depth.
//!
//! Gates reference wires by index (`WireId`), with the Bristol Fashion convention that the first
//! wires are the input values in order and the last wires are the output values in order. Gates are
//! split into the two kinds every boolean MPC protocol treats differently:
//! - [`LinearGate`]s (XOR, INV, copy, constant) are free or local in XOR-sharing based protocols;
//! - [`AndGate`]s need interaction (or preprocessed material such as TinyTable tables or
//!   Beaver triples).
//!
//! The AND-depth of a wire is 0 for input wires, the maximum of its inputs' depths for a linear
//! gate's output, and one more than that for an AND gate's output. Layer `k` holds the AND gates of
//! depth `k` (none for `k = 0`) followed by the linear gates of depth `k`. Evaluating layer 0, 1, ...
//! in turn, each layer's AND gates first, is a valid topological order, and all AND gates of one layer
//! are independent of one another: a protocol sends them in one message per layer, so the number of
//! AND layers (the AND-depth) is its round count.

use super::error::{CircuitError, ParseProblem, WireProblem};
use super::slots::WireSlots;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// Index of a wire in a [`Circuit`].
pub type WireId = u32;

/// Largest number of wires accepted (evaluation allocates one value per wire, so the limit keeps a
/// malicious header from requesting gigabytes).
pub const MAX_WIRES: u64 = 1 << 26;

/// An AND gate `out = a & b`: the only non-linear gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AndGate {
    /// Left input wire.
    pub a: WireId,
    /// Right input wire.
    pub b: WireId,
    /// Output wire.
    pub out: WireId,
}

/// A gate that is linear (affine) over GF(2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LinearGate {
    /// `out = a ^ b` (Bristol `XOR`).
    Xor {
        /// Left input wire.
        a: WireId,
        /// Right input wire.
        b: WireId,
        /// Output wire.
        out: WireId,
    },
    /// `out = !a` (Bristol `INV`, also read as `NOT`).
    Inv {
        /// Input wire.
        a: WireId,
        /// Output wire.
        out: WireId,
    },
    /// `out = a` (Bristol `EQW`).
    Copy {
        /// Input wire.
        a: WireId,
        /// Output wire.
        out: WireId,
    },
    /// `out = value` (Bristol `EQ` with a constant 0 or 1).
    Const {
        /// The constant.
        value: bool,
        /// Output wire.
        out: WireId,
    },
}

/// Any gate of a circuit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Gate {
    /// A linear gate.
    Linear(LinearGate),
    /// An AND gate.
    And(AndGate),
}

impl LinearGate {
    /// The wire this gate writes.
    pub fn out(&self) -> WireId {
        match *self {
            LinearGate::Xor { out, .. }
            | LinearGate::Inv { out, .. }
            | LinearGate::Copy { out, .. }
            | LinearGate::Const { out, .. } => out,
        }
    }

    /// The wires this gate reads (zero, one or two).
    pub fn inputs(&self) -> impl Iterator<Item = WireId> {
        let (first, second) = match *self {
            LinearGate::Xor { a, b, .. } => (Some(a), Some(b)),
            LinearGate::Inv { a, .. } | LinearGate::Copy { a, .. } => (Some(a), None),
            LinearGate::Const { .. } => (None, None),
        };
        first.into_iter().chain(second)
    }
}

impl Gate {
    /// The wire this gate writes.
    pub fn out(&self) -> WireId {
        match self {
            Gate::Linear(g) => g.out(),
            Gate::And(g) => g.out,
        }
    }

    /// The wires this gate reads.
    pub fn inputs(&self) -> impl Iterator<Item = WireId> {
        let (linear, and) = match *self {
            Gate::Linear(g) => (Some(g.inputs()), None),
            Gate::And(g) => (None, Some([g.a, g.b])),
        };
        linear.into_iter().flatten().chain(and.into_iter().flatten())
    }
}

/// Number of gates of each type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GateCounts {
    /// XOR gates.
    pub xor: usize,
    /// AND gates (each AND of a Bristol `MAND` gate counts once).
    pub and: usize,
    /// INV gates.
    pub inv: usize,
    /// Copy (`EQW`) gates.
    pub copy: usize,
    /// Constant (`EQ`) gates.
    pub constant: usize,
}

impl GateCounts {
    /// Number of linear gates.
    pub fn linear(&self) -> usize {
        self.xor + self.inv + self.copy + self.constant
    }

    /// Total number of gates.
    pub fn total(&self) -> usize {
        self.linear() + self.and
    }

    fn add(&mut self, gate: &Gate) {
        match gate {
            Gate::And(_) => self.and += 1,
            Gate::Linear(LinearGate::Xor { .. }) => self.xor += 1,
            Gate::Linear(LinearGate::Inv { .. }) => self.inv += 1,
            Gate::Linear(LinearGate::Copy { .. }) => self.copy += 1,
            Gate::Linear(LinearGate::Const { .. }) => self.constant += 1,
        }
    }
}

/// One layer of a circuit: AND gates of equal AND-depth (independent of one another), then the linear
/// gates of that depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layer<'a> {
    /// Layer index = AND-depth of every gate in it.
    pub depth: usize,
    /// AND gates of this depth; empty for layer 0. Evaluate these first.
    pub and_gates: &'a [AndGate],
    /// Linear gates of this depth, in a valid evaluation order.
    pub linear_gates: &'a [LinearGate],
}

impl<'a> Layer<'a> {
    /// Layer `depth` of gate lists stored layer after layer, `ends[d]` being the end (exclusive)
    /// of layer d's AND gates and of its linear gates.
    pub(crate) fn slice(
        and_gates: &'a [AndGate],
        linear_gates: &'a [LinearGate],
        ends: &[(usize, usize)],
        depth: usize,
    ) -> Self {
        let (and_start, linear_start) = if depth == 0 { (0, 0) } else { ends[depth - 1] };
        let (and_end, linear_end) = ends[depth];
        Layer {
            depth,
            and_gates: &and_gates[and_start..and_end],
            linear_gates: &linear_gates[linear_start..linear_end],
        }
    }
}

/// A boolean circuit with Bristol Fashion wire conventions, stored in AND-depth layers.
///
/// The gate lists are shared between clones (a circuit is immutable once built), so cloning is
/// cheap and comparing a circuit with its clone does not read its gates (the equality checks
/// whether the gate lists are the same allocation before comparing contents; `Arc`'s own
/// equality does not promise that): protocol engines that cache work per circuit check a cache
/// hit without a pass over every gate.
#[derive(Debug, Clone)]
pub struct Circuit {
    num_wires: u32,
    input_widths: Vec<u32>,
    output_widths: Vec<u32>,
    and_gates: Arc<[AndGate]>,
    linear_gates: Arc<[LinearGate]>,
    /// For each layer, the end (exclusive) of its AND gates and of its linear gates.
    layer_ends: Vec<(usize, usize)>,
    counts: GateCounts,
    /// The slot plan, made on first use and shared by clones (not part of equality).
    slots: Arc<OnceLock<WireSlots>>,
    /// [`Circuit::digest`], computed on first use and shared by clones (not part of equality).
    digest: Arc<OnceLock<[u8; 32]>>,
}

impl PartialEq for Circuit {
    fn eq(&self, other: &Self) -> bool {
        fn same<T: PartialEq>(a: &Arc<[T]>, b: &Arc<[T]>) -> bool {
            Arc::ptr_eq(a, b) || a[..] == b[..]
        }
        self.num_wires == other.num_wires
            && self.input_widths == other.input_widths
            && self.output_widths == other.output_widths
            && self.layer_ends == other.layer_ends
            && self.counts == other.counts
            && same(&self.and_gates, &other.and_gates)
            && same(&self.linear_gates, &other.linear_gates)
    }
}

impl Eq for Circuit {}

/// Tracks which wires are written while gates are read in order: the single check of Bristol
/// Fashion's wire discipline, shared by the parser and [`Circuit::new`].
pub(crate) struct WireTracker {
    num_wires: u64,
    written: Vec<u64>,
}

impl WireTracker {
    /// A tracker for `num_wires` wires whose first `num_input_wires` are inputs (already written).
    /// The caller guarantees `num_input_wires <= num_wires <= MAX_WIRES`.
    pub(crate) fn new(num_wires: u64, num_input_wires: u64) -> Self {
        let mut tracker = WireTracker { num_wires, written: Vec::new() };
        for wire in 0..num_input_wires {
            tracker.set(wire);
        }
        tracker
    }

    fn set(&mut self, wire: u64) {
        let word = (wire / 64) as usize;
        if word >= self.written.len() {
            self.written.resize(word + 1, 0);
        }
        self.written[word] |= 1 << (wire % 64);
    }

    pub(crate) fn is_written(&self, wire: u64) -> bool {
        self.written.get((wire / 64) as usize).is_some_and(|w| w >> (wire % 64) & 1 == 1)
    }

    fn in_range(&self, wire: u64) -> Result<(), WireProblem> {
        if wire < self.num_wires {
            Ok(())
        } else {
            Err(WireProblem::OutOfRange { wire, num_wires: self.num_wires })
        }
    }

    /// Checks that `wire` may be read now.
    pub(crate) fn read(&self, wire: u64) -> Result<(), WireProblem> {
        self.in_range(wire)?;
        if self.is_written(wire) {
            Ok(())
        } else {
            Err(WireProblem::ReadBeforeWrite { wire })
        }
    }

    /// Checks that `wire` may be written now and records the write.
    pub(crate) fn write(&mut self, wire: u64) -> Result<(), WireProblem> {
        self.in_range(wire)?;
        if self.is_written(wire) {
            return Err(WireProblem::WrittenTwice { wire });
        }
        self.set(wire);
        Ok(())
    }
}

/// Total width of the values `widths`, checked to fit in `num_wires` wires.
pub(crate) fn total_width(num_wires: u64, widths: &[u32], what: &'static str) -> Result<u64, ParseProblem> {
    let needed: u64 = widths.iter().map(|&w| u64::from(w)).sum();
    if needed > num_wires {
        return Err(ParseProblem::NotEnoughWires { what, needed, num_wires });
    }
    Ok(needed)
}

impl Circuit {
    /// Builds a circuit from gates in a topological order, checking every wire reference: wires in
    /// range, read only after being written, written once, every output wire written (or an input).
    pub fn new(
        num_wires: u32,
        input_widths: Vec<u32>,
        output_widths: Vec<u32>,
        gates: Vec<Gate>,
    ) -> Result<Circuit, CircuitError> {
        if u64::from(num_wires) > MAX_WIRES {
            return Err(CircuitError::Structure(ParseProblem::TooLarge {
                what: "number of wires",
                value: u64::from(num_wires),
                max: MAX_WIRES,
            }));
        }
        let n_in =
            total_width(u64::from(num_wires), &input_widths, "inputs").map_err(CircuitError::Structure)?;
        let n_out =
            total_width(u64::from(num_wires), &output_widths, "outputs").map_err(CircuitError::Structure)?;
        let mut tracker = WireTracker::new(u64::from(num_wires), n_in);
        for (index, gate) in gates.iter().enumerate() {
            let problem = |problem| CircuitError::Gate { index, problem };
            for wire in gate.inputs() {
                tracker.read(u64::from(wire)).map_err(problem)?;
            }
            tracker.write(u64::from(gate.out())).map_err(problem)?;
        }
        let first_output = u64::from(num_wires) - n_out;
        if let Some(wire) = (first_output..u64::from(num_wires)).find(|&w| !tracker.is_written(w)) {
            return Err(CircuitError::Structure(ParseProblem::OutputNeverWritten { wire }));
        }
        Ok(Circuit::from_checked(num_wires, input_widths, output_widths, gates))
    }

    /// Layers gates that the caller has already checked with a [`WireTracker`].
    pub(crate) fn from_checked(
        num_wires: u32,
        input_widths: Vec<u32>,
        output_widths: Vec<u32>,
        gates: Vec<Gate>,
    ) -> Circuit {
        let mut wire_depth = vec![0u32; num_wires as usize];
        let mut gate_depth = Vec::with_capacity(gates.len());
        let mut counts = GateCounts::default();
        let mut max_depth = 0u32;
        for gate in &gates {
            let input_depth = gate.inputs().map(|w| wire_depth[w as usize]).max().unwrap_or(0);
            let depth = match gate {
                Gate::And(_) => input_depth + 1,
                Gate::Linear(_) => input_depth,
            };
            wire_depth[gate.out() as usize] = depth;
            gate_depth.push(depth);
            max_depth = max_depth.max(depth);
            counts.add(gate);
        }
        // Counting sort by depth, stable, so linear gates of equal depth keep their (valid) order.
        let layers = max_depth as usize + 1;
        let mut and_per_layer = vec![0usize; layers];
        let mut linear_per_layer = vec![0usize; layers];
        for (gate, &depth) in gates.iter().zip(&gate_depth) {
            match gate {
                Gate::And(_) => and_per_layer[depth as usize] += 1,
                Gate::Linear(_) => linear_per_layer[depth as usize] += 1,
            }
        }
        let mut layer_ends = Vec::with_capacity(layers);
        let (mut and_next, mut linear_next) = (Vec::with_capacity(layers), Vec::with_capacity(layers));
        let (mut and_end, mut linear_end) = (0, 0);
        for layer in 0..layers {
            and_next.push(and_end);
            linear_next.push(linear_end);
            and_end += and_per_layer[layer];
            linear_end += linear_per_layer[layer];
            layer_ends.push((and_end, linear_end));
        }
        let placeholder_and = AndGate { a: 0, b: 0, out: 0 };
        let placeholder_linear = LinearGate::Const { value: false, out: 0 };
        let mut and_gates = vec![placeholder_and; and_end];
        let mut linear_gates = vec![placeholder_linear; linear_end];
        for (gate, &depth) in gates.iter().zip(&gate_depth) {
            let depth = depth as usize;
            match *gate {
                Gate::And(g) => {
                    and_gates[and_next[depth]] = g;
                    and_next[depth] += 1;
                }
                Gate::Linear(g) => {
                    linear_gates[linear_next[depth]] = g;
                    linear_next[depth] += 1;
                }
            }
        }
        Circuit {
            num_wires,
            input_widths,
            output_widths,
            and_gates: and_gates.into(),
            linear_gates: linear_gates.into(),
            layer_ends,
            counts,
            slots: Arc::default(),
            digest: Arc::default(),
        }
    }

    /// SHA-256 of the circuit's [`Circuit::canonical_bytes`]: what jobs hash into their kind and
    /// agreement so that members (and prepared material) match on the circuit itself. Computed on
    /// the first call and kept with the circuit (clones share it), so repeated jobs on one parsed
    /// circuit do not encode it again.
    pub fn digest(&self) -> [u8; 32] {
        use sha2::{Digest, Sha256};
        *self.digest.get_or_init(|| Sha256::digest(self.canonical_bytes()).into())
    }

    /// The circuit as bytes, one encoding per circuit: a tag, the wire count, the input and output
    /// widths (each list with its length), then every gate in [`Circuit::gates`] order as a kind
    /// byte and its wires. Numbers are little-endian `u32`. The same content as
    /// [`Circuit::to_bristol`]'s text in about half the bytes, without formatting numbers: a
    /// fresh WASM session hashes the AES circuit before its first job.
    pub fn canonical_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + 13 * self.gate_counts().total());
        out.extend_from_slice(b"chorus/circuit/v1");
        let put = |out: &mut Vec<u8>, x: u32| out.extend_from_slice(&x.to_le_bytes());
        put(&mut out, self.num_wires);
        for widths in [self.input_widths(), self.output_widths()] {
            put(&mut out, widths.len() as u32);
            widths.iter().for_each(|&w| put(&mut out, w));
        }
        for gate in self.gates() {
            let (kind, wires) = match gate {
                Gate::And(AndGate { a, b, out }) => (0, [a, b, out]),
                Gate::Linear(LinearGate::Xor { a, b, out }) => (1, [a, b, out]),
                Gate::Linear(LinearGate::Inv { a, out }) => (2, [a, out, 0]),
                Gate::Linear(LinearGate::Copy { a, out }) => (3, [a, out, 0]),
                Gate::Linear(LinearGate::Const { value, out }) => (4 + u8::from(value), [out, 0, 0]),
            };
            out.push(kind);
            wires.iter().for_each(|&w| put(&mut out, w));
        }
        out
    }

    /// The layers on reusable storage slots ([`WireSlots`]), planned on the first call and kept
    /// with the circuit (clones share it).
    pub fn wire_slots(&self) -> &WireSlots {
        self.slots.get_or_init(|| WireSlots::new(self))
    }

    /// Total number of wires.
    pub fn num_wires(&self) -> usize {
        self.num_wires as usize
    }

    /// Bit width of each input value, in order.
    pub fn input_widths(&self) -> &[u32] {
        &self.input_widths
    }

    /// Bit width of each output value, in order.
    pub fn output_widths(&self) -> &[u32] {
        &self.output_widths
    }

    /// Total number of input wires.
    pub fn num_input_wires(&self) -> usize {
        self.input_widths.iter().map(|&w| w as usize).sum()
    }

    /// Total number of output wires.
    pub fn num_output_wires(&self) -> usize {
        self.output_widths.iter().map(|&w| w as usize).sum()
    }

    /// The wires of input value `index` (the first input wires, in order), or `None` if out of range.
    pub fn input_wires(&self, index: usize) -> Option<Range<usize>> {
        let width = *self.input_widths.get(index)? as usize;
        let start: usize = self.input_widths[..index].iter().map(|&w| w as usize).sum();
        Some(start..start + width)
    }

    /// The wires of output value `index` (the last wires, in order), or `None` if out of range.
    pub fn output_wires(&self, index: usize) -> Option<Range<usize>> {
        let width = *self.output_widths.get(index)? as usize;
        let before: usize = self.output_widths[..index].iter().map(|&w| w as usize).sum();
        let start = self.num_wires() - self.num_output_wires() + before;
        Some(start..start + width)
    }

    /// Number of gates of each type.
    pub fn gate_counts(&self) -> GateCounts {
        self.counts
    }

    /// AND-depth: the number of layers holding AND gates (0 for a purely linear circuit).
    pub fn and_depth(&self) -> usize {
        self.layer_ends.len() - 1
    }

    /// The layers, from depth 0 (linear gates on the inputs only) to depth [`Self::and_depth`].
    pub fn layers(&self) -> impl ExactSizeIterator<Item = Layer<'_>> + '_ {
        (0..self.layer_ends.len()).map(move |depth| self.layer(depth))
    }

    /// The AND layers only (depth 1 to [`Self::and_depth`]): one round each in a protocol.
    pub fn and_layers(&self) -> impl Iterator<Item = &[AndGate]> + '_ {
        self.layers().skip(1).map(|layer| layer.and_gates)
    }

    fn layer(&self, depth: usize) -> Layer<'_> {
        Layer::slice(&self.and_gates, &self.linear_gates, &self.layer_ends, depth)
    }

    /// All gates in layer order (a valid topological order).
    pub fn gates(&self) -> impl Iterator<Item = Gate> + '_ {
        self.layers().flat_map(|layer| {
            let ands = layer.and_gates.iter().map(|&g| Gate::And(g));
            ands.chain(layer.linear_gates.iter().map(|&g| Gate::Linear(g)))
        })
    }
}
