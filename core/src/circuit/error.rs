//! Typed errors for circuit parsing, construction and evaluation.
//!
//! Parsing errors carry the 1-based line number of the offending line of the Bristol Fashion text
//! (for problems found only at the end of the file, such as a missing gate, the line after the last
//! one read). Construction errors from [`Circuit::new`](super::Circuit::new) carry the index of the
//! offending gate instead.

use thiserror::Error;

/// A wire-level problem found while checking that gates appear in a valid topological order.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WireProblem {
    /// A gate names a wire index at or beyond the declared number of wires.
    #[error("wire {wire} is out of range (the circuit has {num_wires} wires)")]
    OutOfRange {
        /// The offending wire index.
        wire: u64,
        /// The declared number of wires.
        num_wires: u64,
    },
    /// A gate reads a wire that is neither an input nor written by an earlier gate (this is also how a
    /// cycle shows up, because Bristol Fashion lists gates in topological order).
    #[error("wire {wire} is read before it is written (gates must be in topological order)")]
    ReadBeforeWrite {
        /// The offending wire index.
        wire: u64,
    },
    /// A gate writes a wire that is an input wire or was already written by an earlier gate.
    #[error("wire {wire} is written twice (it is an input wire or an earlier gate's output)")]
    WrittenTwice {
        /// The offending wire index.
        wire: u64,
    },
}

/// What was wrong with one line (or the end) of a Bristol Fashion text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseProblem {
    /// The input holds no header at all.
    #[error("empty input: expected the header line `<number of gates> <number of wires>`")]
    Empty,
    /// The text ended before a required header line.
    #[error("unexpected end of input: expected {expected}")]
    UnexpectedEnd {
        /// What was expected next.
        expected: &'static str,
    },
    /// A token that must be a non-negative decimal number is not one.
    #[error("expected a non-negative decimal number for {what}, found `{token}`")]
    NotANumber {
        /// Which field the token was meant to be.
        what: &'static str,
        /// The offending token (truncated to 32 characters).
        token: String,
    },
    /// A number does not fit the limits of this implementation.
    #[error("{what} is {value}, above the supported maximum {max}")]
    TooLarge {
        /// Which quantity is too large.
        what: &'static str,
        /// The value as written (saturated to `u64::MAX` if it did not even fit a `u64`).
        value: u64,
        /// The supported maximum.
        max: u64,
    },
    /// A line holds a different number of tokens than its own counts announce.
    #[error("{what}: expected {expected} tokens on the line, found {found}")]
    TokenCount {
        /// Which kind of line.
        what: &'static str,
        /// Tokens expected.
        expected: u64,
        /// Tokens found.
        found: u64,
    },
    /// The gate name (last token of a gate line) is not one of XOR, AND, INV, NOT, EQ, EQW, MAND.
    #[error("unknown gate `{name}` (expected XOR, AND, INV, NOT, EQ, EQW or MAND)")]
    UnknownGate {
        /// The offending name (truncated to 32 characters).
        name: String,
    },
    /// A gate line declares input/output counts that the gate type does not have.
    #[error(
        "{gate} gate must have {expected} input(s) and output(s) `<in> <out>`, found {found_in} {found_out}"
    )]
    WrongArity {
        /// The gate name.
        gate: &'static str,
        /// The arity the gate type requires, e.g. `"2 1"` or `"2k k with k >= 1"`.
        expected: &'static str,
        /// Declared number of inputs.
        found_in: u64,
        /// Declared number of outputs.
        found_out: u64,
    },
    /// The constant of an `EQ` gate is not 0 or 1.
    #[error("EQ gate constant must be 0 or 1, found {value}")]
    ConstantNotABit {
        /// The offending constant.
        value: u64,
    },
    /// A declared count does not match what the file holds.
    #[error("{what}: header declares {declared}, found {found}")]
    CountMismatch {
        /// What was counted.
        what: &'static str,
        /// Count from the header.
        declared: u64,
        /// Count actually found.
        found: u64,
    },
    /// The inputs and outputs declared do not fit in the declared number of wires.
    #[error("{what} need {needed} wires but the circuit declares only {num_wires}")]
    NotEnoughWires {
        /// Inputs or outputs.
        what: &'static str,
        /// Wires needed.
        needed: u64,
        /// Wires declared.
        num_wires: u64,
    },
    /// A gate line violates the wire discipline.
    #[error(transparent)]
    Wire(#[from] WireProblem),
    /// An output wire is never written by any gate and is not an input wire.
    #[error("output wire {wire} is never written")]
    OutputNeverWritten {
        /// The offending output wire.
        wire: u64,
    },
}

/// Error from parsing or constructing a [`Circuit`](super::Circuit).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CircuitError {
    /// Malformed Bristol Fashion text.
    #[error("Bristol Fashion line {line}: {problem}")]
    Parse {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        problem: ParseProblem,
    },
    /// A gate list handed to [`Circuit::new`](super::Circuit::new) is not a valid circuit.
    #[error("gate {index}: {problem}")]
    Gate {
        /// 0-based index of the gate in the list.
        index: usize,
        /// What was wrong.
        problem: WireProblem,
    },
    /// Declared input/output widths do not fit the circuit handed to
    /// [`Circuit::new`](super::Circuit::new).
    #[error("circuit structure: {0}")]
    Structure(ParseProblem),
}

impl CircuitError {
    /// The Bristol Fashion line number of a parse error, if this is one.
    pub fn line(&self) -> Option<usize> {
        match self {
            CircuitError::Parse { line, .. } => Some(*line),
            _ => None,
        }
    }
}

/// Error from evaluating a circuit on plaintext inputs.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EvalError {
    /// The number of input values differs from the circuit's.
    #[error("expected {expected} input values, got {found}")]
    InputCount {
        /// Input values the circuit takes.
        expected: usize,
        /// Input values supplied.
        found: usize,
    },
    /// One input value has the wrong number of bits.
    #[error("input value {index} must have {expected} bits, got {found}")]
    InputWidth {
        /// 0-based index of the input value.
        index: usize,
        /// Width the circuit declares.
        expected: usize,
        /// Width supplied.
        found: usize,
    },
}
