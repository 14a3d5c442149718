//! Typed errors of MiniMac: each names the party or step it concerns and, for failed checks, which
//! check caught the deviation. An abort reveals nothing beyond the error itself: every check runs
//! before the output values are opened (gate openings) or before they are returned (output
//! openings).

use crate::code::CodeError;
use crate::net::{NetError, PartyId};

/// The online step an error happened in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// Input sharing (Fig. 2 "Input") together with the coin-toss commitments.
    Input,
    /// One round of simultaneous multiplications (§4.4); the round index, from 1.
    AndRound(usize),
    /// The batched codeword and MAC check of every value opened by the multiplications, run before
    /// any output share is sent.
    GateCheck,
    /// The opening of the output values (Fig. 2 "Output").
    OutputOpening,
    /// The batched check of the output openings, run before any output is returned.
    OutputCheck,
}

impl core::fmt::Display for Step {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Step::Input => f.write_str("input sharing"),
            Step::AndRound(r) => write!(f, "multiplication round {r}"),
            Step::GateCheck => f.write_str("check of the gate openings"),
            Step::OutputOpening => f.write_str("output opening"),
            Step::OutputCheck => f.write_str("check of the output openings"),
        }
    }
}

/// Errors of the MiniMac protocol and its preprocessing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MiniMacError {
    /// MiniMac needs at least two parties.
    #[error("MiniMac needs at least 2 parties, the session has {0}")]
    TooFewParties(usize),
    /// The preprocessing material was made for another session shape or party.
    #[error("preprocessing material does not fit this session: {0}")]
    MaterialMismatch(String),
    /// Not enough preprocessing material for the circuit.
    #[error("not enough preprocessing material: {what} needs {needed}, the material has {available}")]
    NotEnoughMaterial {
        /// Which kind of material.
        what: &'static str,
        /// How many the circuit needs.
        needed: usize,
        /// How many the material holds.
        available: usize,
    },
    /// More instances than one codeword batch holds (8·k with the bit-packing trick).
    #[error("{instances} instances do not fit one batch of {max} (8·k) for this code")]
    BatchTooLarge {
        /// Requested instances.
        instances: usize,
        /// Capacity of one batch.
        max: usize,
    },
    /// Inputs, circuit or request do not fit together.
    #[error("bad input: {0}")]
    BadInput(String),
    /// The network failed.
    #[error("party {party}: network error during {step}: {source}")]
    Network {
        /// The party that observed the failure.
        party: PartyId,
        /// The step that was running.
        step: Step,
        /// The transport's error.
        source: NetError,
    },
    /// A message had the wrong kind or length.
    #[error("malformed message from party {from} during {step}: {reason}")]
    Malformed {
        /// The sender.
        from: PartyId,
        /// The step that was running.
        step: Step,
        /// What was wrong.
        reason: String,
    },
    /// A message carried the wrong sequence number: replayed, reordered or dropped.
    #[error("frame out of order from party {from} during {step}: expected number {expected}, got {got}")]
    FrameOutOfOrder {
        /// The sender.
        from: PartyId,
        /// The step that was running.
        step: Step,
        /// The sequence number this party expected.
        expected: u32,
        /// The sequence number the frame carried.
        got: u32,
    },
    /// A random linear combination of the opened values is not a codeword of `C*`: some party sent
    /// a share that moved an opened value outside the code.
    #[error("batched codeword check failed in the {step}: an opened value is not in C*")]
    CodewordCheckFailed {
        /// Which check ([`Step::GateCheck`] or [`Step::OutputCheck`]).
        step: Step,
    },
    /// The MAC shares of the opened values do not match them: some party opened a wrong value or
    /// used wrong MAC material.
    #[error("batched MAC check failed in the {step}")]
    MacCheckFailed {
        /// Which check ([`Step::GateCheck`] or [`Step::OutputCheck`]).
        step: Step,
    },
    /// A party opened something that does not match its commitment.
    #[error("party {from} opened a {what} that does not match its commitment ({step})")]
    CommitmentMismatch {
        /// The party whose opening failed.
        from: PartyId,
        /// The step that was running.
        step: Step,
        /// What was opened ("coin seed" or "MAC check value").
        what: &'static str,
    },
    /// Parties saw different opened values (a party sent different shares to different peers).
    #[error("party {from} saw different opened values than this party ({step})")]
    TranscriptMismatch {
        /// The party whose view differs.
        from: PartyId,
        /// The step that was running.
        step: Step,
    },
    /// The requested preprocessing provider cannot produce material.
    #[error("the {provider} preprocessing provider is not available: {reason}")]
    NotAvailable {
        /// The provider.
        provider: &'static str,
        /// Why.
        reason: &'static str,
    },
    /// An error of the Reed-Solomon layer.
    #[error("code error: {0}")]
    Code(#[from] CodeError),
}
