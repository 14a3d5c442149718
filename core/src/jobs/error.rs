//! The one error type of every job ([`JobError`]): what is wrong with a spec or an input (before
//! any communication), a disagreement between members, the dealer's material, the network, or the
//! protocol that ran (MAESTRO, TinyTable, MiniMac, Coral), whose own typed error is kept whole so callers
//! can tell which check caught a deviating party ([`JobError::failed_check`]).

use super::Preprocessing;
use crate::net::{NetError, PartyId};
use crate::proto::coral::{Check as CoralCheck, CoralError};
use crate::proto::maestro::MaestroError;
use crate::proto::minimac::MiniMacError;
use crate::proto::tinyot::TinyOtError;
use crate::proto::tinytable::TinyTableError;

/// Errors of the jobs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JobError {
    /// The spec is not valid; `field` names the spec field to change (the SDK's name:
    /// `blocks`, `keyHolders`, `plaintextOwner`, `reveal`, `inputOwners`, `circuit`, …).
    #[error("invalid job spec: {reason}")]
    InvalidSpec {
        /// The spec field at fault.
        field: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The spec asks for a combination that is not implemented; `option` names the spec option to
    /// change (`variant`, `path`, `macBits`, `preprocessing`, `direction`, `keyBits`, `reveal`).
    #[error("not available yet: {reason}")]
    NotAvailable {
        /// The option that selects the missing combination (the SDK's name).
        option: &'static str,
        /// What is missing and what to use instead.
        reason: String,
    },
    /// This member's inputs do not fit its roles in the spec.
    #[error("invalid input for party {party}: {reason}")]
    InvalidInput {
        /// This member.
        party: PartyId,
        /// The input at fault (the SDK's name: `key`, `plaintext`, `inputs[v]` for input value
        /// `v`, or `inputs`).
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// Another member runs a different spec.
    #[error("member {0} runs a different job spec")]
    SpecMismatch(PartyId),
    /// The session does not have the members the spec needs.
    #[error("{protocol} with {} preprocessing needs {} session members ({}), got {got}{}",
        .preprocessing.name(), .preprocessing.members(), .preprocessing.roles(),
        .preprocessing.other_hint(*got))]
    WrongSessionSize {
        /// The protocol.
        protocol: &'static str,
        /// The spec's preprocessing (it decides the member count).
        preprocessing: Preprocessing,
        /// The session's member count.
        got: usize,
    },
    /// The dealer's material could not be decoded or does not fit the spec.
    #[error("party {party}: bad preprocessing from the dealer: {reason}")]
    BadPreprocessing {
        /// The receiving party.
        party: PartyId,
        /// What is wrong.
        reason: String,
    },
    /// The network failed outside the protocol steps.
    #[error("network error: {0}")]
    Network(#[from] NetError),
    /// MAESTRO failed.
    #[error(transparent)]
    Maestro(#[from] MaestroError),
    /// TinyTable failed.
    #[error(transparent)]
    TinyTable(#[from] TinyTableError),
    /// MiniMac failed.
    #[error(transparent)]
    MiniMac(#[from] MiniMacError),
    /// Coral (or its OT-based preprocessing) failed.
    #[error(transparent)]
    Coral(#[from] CoralError),
    /// Multi-party TinyOT (or its OT-based preprocessing) failed.
    #[error(transparent)]
    TinyOt(#[from] TinyOtError),
    /// An invariant of this implementation failed (a bug, reported instead of a panic).
    #[error("internal error: {0}")]
    Internal(&'static str),
}

impl JobError {
    /// A [`JobError::InvalidSpec`] about `field`.
    pub fn invalid_spec(field: &'static str, reason: impl Into<String>) -> Self {
        JobError::InvalidSpec { field, reason: reason.into() }
    }

    /// A [`JobError::NotAvailable`] about `option`.
    pub fn not_available(option: &'static str, reason: impl Into<String>) -> Self {
        JobError::NotAvailable { option, reason: reason.into() }
    }

    /// If a party deviated and a check caught it, the check that failed, in words (for example
    /// `MAC check on opened table bits`); no output was revealed then.
    pub fn failed_check(&self) -> Option<String> {
        match self {
            JobError::TinyTable(TinyTableError::Preprocessing {
                source: crate::ot::OtError::CheckFailed { check },
                ..
            }) => Some(format!("OT preprocessing check '{check}'")),
            JobError::TinyTable(TinyTableError::MacCheckFailed { check, .. }) => {
                Some(format!("MAC check on {check}"))
            }
            JobError::TinyTable(TinyTableError::AuthenticationFailed { step, .. }) => {
                Some(format!("MAC check during {step}"))
            }
            JobError::Maestro(MaestroError::VerificationFailed) => Some("multiplication verification".into()),
            JobError::Maestro(MaestroError::OpeningMismatch { .. }) => Some("opening hash comparison".into()),
            JobError::MiniMac(MiniMacError::CodewordCheckFailed { step }) => {
                Some(format!("batched codeword check in the {step}"))
            }
            JobError::MiniMac(MiniMacError::MacCheckFailed { step }) => {
                Some(format!("batched MAC check in the {step}"))
            }
            JobError::MiniMac(MiniMacError::CommitmentMismatch { what, .. }) => {
                Some(format!("commitment opening of the {what}"))
            }
            JobError::MiniMac(MiniMacError::TranscriptMismatch { .. }) => {
                Some("comparison of opened values".into())
            }
            JobError::MiniMac(MiniMacError::PrepCheckFailed { check }) => {
                Some(format!("OT preprocessing {check}"))
            }
            JobError::MiniMac(MiniMacError::Ot {
                source: crate::ot::OtError::CheckFailed { check }, ..
            }) => Some(format!("OT preprocessing check '{check}'")),
            JobError::Coral(CoralError::CheckFailed { check }) => Some(coral_check(*check)),
            JobError::Coral(CoralError::Ot(crate::ot::OtError::CheckFailed { check }))
            | JobError::TinyOt(TinyOtError::Ot(crate::ot::OtError::CheckFailed { check })) => {
                Some(format!("OT preprocessing check '{check}'"))
            }
            JobError::TinyOt(TinyOtError::CheckFailed { check }) => Some(check.to_string()),
            JobError::TinyOt(TinyOtError::PeerCheckFailed { peer, check }) => {
                Some(format!("{check} (at party {peer})"))
            }
            _ => None,
        }
    }
}

/// A Coral check in words (its `Display`).
fn coral_check(check: CoralCheck) -> String {
    check.to_string()
}
