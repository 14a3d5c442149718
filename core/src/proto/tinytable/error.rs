//! Typed errors of the TinyTable protocols: each names the party it happened at, the step and (for
//! network failures and malformed messages) the communication round.

use crate::net::{NetError, PartyId};

/// The online step an error happened in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// Exchange of masked inputs (Fig. 2/7 step 2).
    Input,
    /// Table lookups of one AND layer (Fig. 7 step 3); the AND-depth, from 1.
    AndLayer(usize),
    /// S-box table lookups of one AES round (§2.3); the AES round, from 1.
    SboxRound(usize),
    /// Batched MAC check of the opened S-box table entries (§3.3).
    SboxMacCheck,
    /// Key-schedule table lookups of an XOR-shared key ([`crate::proto::tinytable::sbox::schedule`]);
    /// the schedule round, from 1.
    KeyScheduleRound(usize),
    /// Batched MAC check of the opened key-schedule table entries.
    KeyScheduleMacCheck,
    /// Beaver multiplication round of the §4 S-box table construction; the round, from 1.
    TableConstruction(usize),
    /// Exchange of the accumulated MACs of all opened table bits (Fig. 5 step 4, "check").
    MacCheck,
    /// Opening of the output masks after the MAC check (malicious binary and S-box protocols).
    OutputOpening,
    /// Fig. 8 preprocessing: opening of the Beaver values `r_u ⊕ x`, `r_v ⊕ y` of all AND gates.
    PrepBeaver,
    /// Fig. 8 preprocessing step 4: opening of input masks to their owners (and, for passive
    /// material, of output masks).
    PrepMaskOpening,
}

impl core::fmt::Display for Step {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Step::Input => f.write_str("input exchange"),
            Step::AndLayer(depth) => write!(f, "AND layer {depth}"),
            Step::SboxRound(round) => write!(f, "S-box round {round}"),
            Step::SboxMacCheck => f.write_str("S-box MAC check"),
            Step::KeyScheduleRound(round) => write!(f, "key-schedule round {round}"),
            Step::KeyScheduleMacCheck => f.write_str("key-schedule MAC check"),
            Step::TableConstruction(round) => write!(f, "S-box table construction round {round}"),
            Step::MacCheck => f.write_str("MAC check"),
            Step::OutputOpening => f.write_str("output opening"),
            Step::PrepBeaver => f.write_str("preprocessing Beaver opening"),
            Step::PrepMaskOpening => f.write_str("preprocessing mask opening"),
        }
    }
}

/// Errors of the TinyTable protocols.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TinyTableError {
    /// The session does not have exactly two parties.
    #[error("TinyTable runs with exactly 2 parties, the session has {0}")]
    NotTwoParties(usize),
    /// The network failed during a step.
    #[error("party {party}: network error during {step} (communication round {round}): {source}")]
    Network {
        /// The party that observed the failure.
        party: PartyId,
        /// The step that was running.
        step: Step,
        /// This party's round counter when the failure happened.
        round: u64,
        /// The underlying network error.
        #[source]
        source: NetError,
    },
    /// The peer sent a message whose length is not what the step expects.
    #[error(
        "party {party}: peer {from} sent {actual} bytes during {step} (round {round}), expected {expected}"
    )]
    MalformedMessage {
        /// The receiving party.
        party: PartyId,
        /// The sender.
        from: PartyId,
        /// The step that was running.
        step: Step,
        /// This party's round counter.
        round: u64,
        /// Expected length in bytes.
        expected: usize,
        /// Received length in bytes.
        actual: usize,
    },
    /// The preprocessed material does not fit the circuit, the party or the batch.
    #[error("party {party}: preprocessing does not match: {reason}")]
    PrepMismatch {
        /// The party whose material it is.
        party: PartyId,
        /// What did not match.
        reason: String,
    },
    /// The party's inputs do not match the circuit's input values it owns.
    #[error("party {party}: instance {instance}: {reason}")]
    BadInput {
        /// The party supplying the input.
        party: PartyId,
        /// The batch instance.
        instance: usize,
        /// What was wrong.
        reason: String,
    },
    /// An input/output specification that does not fit the circuit.
    #[error("bad input/output specification: {0}")]
    BadIoSpec(String),
    /// A MAC check on values the peer opened failed: the peer deviated (or the material was
    /// tampered with). Nothing that depends on the checked values was revealed.
    #[error("party {party}: MAC check failed during {step}: the peer cheated or the material is corrupt")]
    AuthenticationFailed {
        /// The party that detected the failure.
        party: PartyId,
        /// The step whose check failed.
        step: Step,
    },
    /// The two-party OT-based preprocessing failed (see [`OtFailure`]); `source` names the step
    /// or the check.
    #[error("party {party}: OT-based preprocessing failed: {source}")]
    Preprocessing {
        /// The party that observed the failure.
        party: PartyId,
        /// What failed.
        #[source]
        source: OtFailure,
    },
    /// The peer's opened bits do not match their authentication strings: the peer deviated from
    /// the protocol (or its material was forged). The protocol aborted; no output was revealed.
    #[error("party {party}: MAC check failed on {check}: peer cheated, aborting")]
    MacCheckFailed {
        /// The party that detected the deviation.
        party: PartyId,
        /// Which check failed.
        check: MacCheck,
    },
}

/// The OT-based preprocessing (TinyOT bits and triples over OT extension, `crate::ot`) failed:
/// a malformed message, a failed check (the peer deviated) or the network. No material was
/// produced.
pub type OtFailure = crate::ot::OtError;

/// The authenticated openings a malicious-secure run checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MacCheck {
    /// The accumulated MAC of every table bit the peer opened (Fig. 5 step 4).
    TableOpenings,
    /// The accumulated MAC of the peer's shares of the output masks (output step).
    OutputMasks,
    /// TinyOT MACs of the Beaver openings in the Fig. 8 preprocessing.
    PrepBeaver,
    /// TinyOT MACs of the mask openings of Fig. 8 step 4.
    PrepMasks,
}

impl core::fmt::Display for MacCheck {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            MacCheck::TableOpenings => "opened table bits",
            MacCheck::OutputMasks => "output mask shares",
            MacCheck::PrepBeaver => "preprocessing Beaver openings",
            MacCheck::PrepMasks => "preprocessing mask openings",
        })
    }
}
