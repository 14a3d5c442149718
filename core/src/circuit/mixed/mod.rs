//! Mixed (arithmetic) circuits: the input format of Coral's mixed-circuit protocol (Coral paper
//! §4.3.1 and the mixed-circuit functionalities after it), parsed and evaluated in the clear.
//!
//! **Format.** The arithmetic form of Bristol Fashion that Summon (npm `summon-ts`) emits when it
//! does not boolify, the form `boolify` takes as input: the Bristol header and gate lines, every
//! input and output value one wire (width 1) carrying an integer of `k` bits (k = 32 or 64, chosen
//! by the job, arithmetic modulo 2^k), and gates named `A…` ([`MixedOp`]). Constants are not gates:
//! Summon lists them in its circuit info (`constants`: a value and a wire address), and it lists
//! the outputs by address too — they are *not* the last wires, as Bristol Fashion would have them
//! (a Summon output is often an intermediate wire). So the parser takes both from [`MixedIo`];
//! constant wires count as written, like the inputs (the first wires).
//!
//! **Semantics** (unsigned, modulo 2^k; the boolean results are the values 0 and 1, as in
//! boolify's boolean translation, so a mixed circuit and its boolified form agree):
//! - ring operations `AAdd`, `ASub`, `AMul`, `AUnaryAdd`, `AUnarySub`: one arithmetic gate each in
//!   Spdz2k-style sharing ([`MixedOp::is_arithmetic`]: additions free, one triple per product);
//! - everything else needs the value's bits — comparisons `ALt ALEq AGt AGEq AEq ANeq`, `ABoolAnd
//!   ABoolOr ANot` (on "non-zero"), the bitwise `ABitAnd ABitOr AXor ABitNot`, shifts `AShiftL
//!   AShiftR` by a value (0 at or beyond k), `ADiv AMod` (division by 0 gives 2^k − 1 and the
//!   dividend, as the restoring-division circuit boolify generates) and `AExp` (power modulo 2^k):
//!   these are where a protocol needs the values' bits (Coral's paper converts to boolean shares
//!   with edaBits; Chorus does too for the bit-level gates of large batches, and decomposes
//!   within the arithmetic shares otherwise).
//!
//! [`MixedCircuit::counts`] tells the two kinds apart. The parser gives typed errors with the line
//! number ([`MixedCircuitError`]) and never panics; memory stays bounded by the text and
//! [`MAX_WIRES`].
//!
//! The secure evaluation is [`crate::proto::coral::arith`] (Spdz2k): every gate — ring gates,
//! comparisons and boolean gates on probes of the values' bits, `if`s after [`lower`] rewrites
//! Summon's select idiom, and the rest on full bit decompositions. [`gen`] makes
//! circuits for tests and benchmarks.

pub(crate) mod eval;
pub mod gen;
pub mod lower;
mod parse;
#[cfg(test)]
pub(crate) mod tests;

pub use crate::circuit::repr::MAX_WIRES;
use thiserror::Error;

/// A gate's operation (Summon's arithmetic gate names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MixedOp {
    /// `a + b`.
    Add,
    /// `a − b`.
    Sub,
    /// `a · b`.
    Mul,
    /// `a` (unary plus).
    UnaryAdd,
    /// `−a`.
    UnarySub,
    /// `⌊a / b⌋` (2^k − 1 for b = 0).
    Div,
    /// `a mod b` (a for b = 0).
    Mod,
    /// `a^b` modulo 2^k.
    Exp,
    /// `a == b` as 0/1.
    Eq,
    /// `a != b` as 0/1.
    Neq,
    /// `a < b` (unsigned) as 0/1.
    Lt,
    /// `a <= b` as 0/1.
    LEq,
    /// `a > b` as 0/1.
    Gt,
    /// `a >= b` as 0/1.
    GEq,
    /// `a != 0 && b != 0` as 0/1.
    BoolAnd,
    /// `a != 0 || b != 0` as 0/1.
    BoolOr,
    /// `a == 0` as 0/1.
    Not,
    /// Bitwise AND.
    BitAnd,
    /// Bitwise OR.
    BitOr,
    /// Bitwise XOR.
    Xor,
    /// Bitwise complement.
    BitNot,
    /// `a << b` (0 when b ≥ k).
    ShiftL,
    /// `a >> b` (0 when b ≥ k).
    ShiftR,
}

impl MixedOp {
    /// Every operation with its gate name, as Summon writes it.
    pub const ALL: [(MixedOp, &'static str); 23] = [
        (MixedOp::Add, "AAdd"),
        (MixedOp::Sub, "ASub"),
        (MixedOp::Mul, "AMul"),
        (MixedOp::UnaryAdd, "AUnaryAdd"),
        (MixedOp::UnarySub, "AUnarySub"),
        (MixedOp::Div, "ADiv"),
        (MixedOp::Mod, "AMod"),
        (MixedOp::Exp, "AExp"),
        (MixedOp::Eq, "AEq"),
        (MixedOp::Neq, "ANeq"),
        (MixedOp::Lt, "ALt"),
        (MixedOp::LEq, "ALEq"),
        (MixedOp::Gt, "AGt"),
        (MixedOp::GEq, "AGEq"),
        (MixedOp::BoolAnd, "ABoolAnd"),
        (MixedOp::BoolOr, "ABoolOr"),
        (MixedOp::Not, "ANot"),
        (MixedOp::BitAnd, "ABitAnd"),
        (MixedOp::BitOr, "ABitOr"),
        (MixedOp::Xor, "AXor"),
        (MixedOp::BitNot, "ABitNot"),
        (MixedOp::ShiftL, "AShiftL"),
        (MixedOp::ShiftR, "AShiftR"),
    ];

    /// The operation a gate name denotes.
    pub fn from_name(name: &str) -> Option<MixedOp> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(op, _)| *op)
    }

    /// The gate name.
    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|(op, _)| *op == self).map_or("?", |(_, n)| n)
    }

    /// Number of inputs (1 or 2; one output always).
    pub fn arity(self) -> usize {
        match self {
            MixedOp::UnaryAdd | MixedOp::UnarySub | MixedOp::Not | MixedOp::BitNot => 1,
            _ => 2,
        }
    }

    /// Whether the operation is a ring operation of Z_{2^k} (evaluated on arithmetic shares
    /// without conversion); the others need the value's bits.
    pub fn is_arithmetic(self) -> bool {
        matches!(self, MixedOp::Add | MixedOp::Sub | MixedOp::Mul | MixedOp::UnaryAdd | MixedOp::UnarySub)
    }
}

/// One gate: `out = op(inputs)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MixedGate {
    /// The operation.
    pub op: MixedOp,
    /// Input wires (the second is unused by unary operations).
    pub inputs: [u32; 2],
    /// Output wire.
    pub out: u32,
}

/// What a mixed circuit's text leaves to its circuit info: constants and output addresses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MixedIo {
    /// Constant wires and their values (reduced modulo 2^k when evaluated).
    pub constants: Vec<(u64, u64)>,
    /// The output values' wires in order; `None`: the last wires (Bristol Fashion's convention).
    pub outputs: Option<Vec<u64>>,
}

/// A parsed mixed circuit (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MixedCircuit {
    /// Number of wires.
    pub wires: u32,
    /// Number of input values (wires `0..inputs`).
    pub inputs: u32,
    /// The output values' wires, in order.
    pub outputs: Vec<u32>,
    /// Constant wires and their values.
    pub constants: Vec<(u32, u64)>,
    /// Gates in topological order.
    pub gates: Vec<MixedGate>,
}

/// Gate counts of a mixed circuit by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MixedCounts {
    /// Ring additions, subtractions and unary gates (free on arithmetic shares).
    pub linear: usize,
    /// Ring multiplications (one triple each).
    pub multiplications: usize,
    /// Gates that need the values' bits (comparisons, bit operations, shifts, division, powers).
    pub boolean: usize,
}

impl MixedCircuit {
    /// The gate counts by kind.
    pub fn counts(&self) -> MixedCounts {
        let mut counts = MixedCounts::default();
        for gate in &self.gates {
            match gate.op {
                MixedOp::Mul => counts.multiplications += 1,
                op if op.is_arithmetic() => counts.linear += 1,
                _ => counts.boolean += 1,
            }
        }
        counts
    }

    /// The SHA-256 of a canonical encoding of the circuit (wires, inputs, outputs, constants and
    /// gates): what the members of a job agree on.
    pub fn digest(&self) -> [u8; 32] {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(b"chorus/mixed-circuit/v1");
        let words = |h: &mut Sha256, values: &mut dyn Iterator<Item = u64>| {
            for v in values {
                h.update(v.to_be_bytes());
            }
        };
        words(
            &mut h,
            &mut [self.wires, self.inputs, self.outputs.len() as u32].iter().map(|&v| u64::from(v)),
        );
        words(&mut h, &mut self.outputs.iter().map(|&w| u64::from(w)));
        words(&mut h, &mut core::iter::once(self.constants.len() as u64));
        words(&mut h, &mut self.constants.iter().flat_map(|&(w, c)| [u64::from(w), c]));
        words(&mut h, &mut core::iter::once(self.gates.len() as u64));
        let op = |op: MixedOp| MixedOp::ALL.iter().position(|(o, _)| *o == op).unwrap_or(usize::MAX) as u64;
        words(
            &mut h,
            &mut self
                .gates
                .iter()
                .flat_map(|g| [op(g.op), u64::from(g.inputs[0]), u64::from(g.inputs[1]), u64::from(g.out)]),
        );
        h.finalize().into()
    }
}

/// The ring Z_{2^k} a mixed circuit is evaluated in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RingBits {
    /// k = 32.
    K32,
    /// k = 64.
    K64,
}

impl RingBits {
    /// k.
    pub fn bits(self) -> u32 {
        match self {
            RingBits::K32 => 32,
            RingBits::K64 => 64,
        }
    }

    /// 2^k − 1.
    pub fn mask(self) -> u64 {
        match self {
            RingBits::K32 => u64::from(u32::MAX),
            RingBits::K64 => u64::MAX,
        }
    }
}

/// What was wrong with a mixed circuit's text or its use.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MixedCircuitError {
    /// Malformed text: the 1-based line number and the problem.
    #[error("mixed circuit line {line}: {problem}")]
    Parse {
        /// 1-based line number (the line after the last one for a missing line).
        line: usize,
        /// What was wrong.
        problem: MixedProblem,
    },
    /// A constant's wire is out of range, an input wire, or listed twice.
    #[error("constant on wire {wire}: {reason}")]
    Constant {
        /// The wire.
        wire: u64,
        /// Why it is refused.
        reason: &'static str,
    },
    /// The output addresses do not match the declared outputs, or name a wire out of range or
    /// never written.
    #[error("output {index}: {reason}")]
    Output {
        /// The output's index (the count given, for a wrong count).
        index: usize,
        /// What was wrong.
        reason: String,
    },
    /// Evaluation got the wrong number of inputs, or a value wider than k bits.
    #[error("input {index}: {reason}")]
    Input {
        /// The input's index (the count given, for a wrong count).
        index: usize,
        /// What was wrong.
        reason: String,
    },
}

/// A problem on one line of a mixed circuit.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MixedProblem {
    /// As in Bristol Fashion ([`crate::circuit::error::ParseProblem`]).
    #[error(transparent)]
    Bristol(#[from] crate::circuit::error::ParseProblem),
    /// An input or output value is wider than one wire.
    #[error("{what} {index} has width {width}: every value of a mixed circuit is one wire of k bits")]
    Width {
        /// Inputs or outputs.
        what: &'static str,
        /// The value's index.
        index: usize,
        /// Its declared width.
        width: u32,
    },
    /// A gate name that is not one of Summon's arithmetic gates.
    #[error("unknown gate `{name}` (a mixed circuit uses Summon's arithmetic gates AAdd, AMul, ALt, …)")]
    UnknownGate {
        /// The name (truncated to 32 characters).
        name: String,
    },
    /// A gate with the wrong number of inputs or outputs.
    #[error("{gate} takes {expected} input(s) and 1 output, found {found_in} {found_out}")]
    Arity {
        /// The gate name.
        gate: &'static str,
        /// Inputs it takes.
        expected: usize,
        /// Inputs declared.
        found_in: u64,
        /// Outputs declared.
        found_out: u64,
    },
}
