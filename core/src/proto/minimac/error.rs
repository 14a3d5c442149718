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
    /// OT-based preprocessing: the coin commitments and the COPE columns
    /// ([`super::prep::ot`]).
    PrepCope,
    /// OT-based preprocessing: the openings of its checks and their batched MAC check.
    PrepCheck,
}

impl core::fmt::Display for Step {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Step::Input => f.write_str("input sharing"),
            Step::AndRound(r) => write!(f, "multiplication round {r}"),
            Step::GateCheck => f.write_str("check of the gate openings"),
            Step::OutputOpening => f.write_str("output opening"),
            Step::OutputCheck => f.write_str("check of the output openings"),
            Step::PrepCope => f.write_str("OT preprocessing (COPE)"),
            Step::PrepCheck => f.write_str("check of the OT preprocessing"),
        }
    }
}

/// A check of the OT-based preprocessing ([`super::prep::ot`]) that caught a deviation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PrepCheck {
    /// A random combination of the words that must lie in `C` (bit planes, `c` words, input and
    /// output-mask data words) is not in `C`.
    CodewordC,
    /// A random combination of the random `C*` words that must carry zero data is not a
    /// zero-data codeword of `C*`.
    ZeroDataCStar,
    /// The data of the contributed bit planes or `c` words differ from the parties' TinyOT bits.
    TinyOtConsistency,
    /// An opened TinyOT bit does not carry its MAC.
    TinyOtMac,
    /// The batched MAC check of the values opened by the checks above (this also catches
    /// inconsistent COPE columns, MASCOT's Π_Auth argument).
    Mac,
}

impl core::fmt::Display for PrepCheck {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            PrepCheck::CodewordC => "codeword check of the C words",
            PrepCheck::ZeroDataCStar => "zero-data codeword check of the random C* words",
            PrepCheck::TinyOtConsistency => "TinyOT-to-MiniMac consistency check",
            PrepCheck::TinyOtMac => "MAC check of the opened TinyOT bits",
            PrepCheck::Mac => "MAC check of the preprocessing openings",
        })
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
    /// A check of the OT-based preprocessing failed: the peer deviated; no material was produced.
    #[error("OT preprocessing: {check} failed, the peer deviated")]
    PrepCheckFailed {
        /// The check.
        check: PrepCheck,
    },
    /// The OT engine (base OT, OT extension, TinyOT) failed or caught the peer deviating; no
    /// material was produced.
    #[error("party {party}: OT engine error in the preprocessing: {source}")]
    Ot {
        /// The party that observed the failure.
        party: PartyId,
        /// The engine's error.
        source: crate::ot::OtError,
    },
    /// An error of the Reed-Solomon layer.
    #[error("code error: {0}")]
    Code(#[from] CodeError),
}
