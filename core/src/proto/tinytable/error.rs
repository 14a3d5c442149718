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
}

impl core::fmt::Display for Step {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Step::Input => f.write_str("input exchange"),
            Step::AndLayer(depth) => write!(f, "AND layer {depth}"),
            Step::SboxRound(round) => write!(f, "S-box round {round}"),
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
}
