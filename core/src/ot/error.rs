//! Errors of the OT engine: each names the step that failed, so a malformed or cheating peer is
//! reported precisely and never causes a panic.

use crate::net::NetError;

/// An OT step failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OtError {
    /// The network failed (the peer left, a frame failed the channel's integrity check, …).
    #[error("network error during OT: {0}")]
    Net(#[from] NetError),
    /// A message from the peer does not have the shape this step expects (length, encoding,
    /// a point that is not a valid group element, …).
    #[error("malformed OT message in step '{step}': {reason}")]
    Malformed {
        /// The protocol step whose message was malformed.
        step: &'static str,
        /// What was wrong with it.
        reason: String,
    },
    /// A consistency check failed: the peer deviated from the protocol. The caller must abort
    /// and use none of this batch's outputs.
    #[error("OT check '{check}' failed: the peer deviated from the protocol")]
    CheckFailed {
        /// The check that failed.
        check: &'static str,
    },
    /// The caller asked for something the engine does not do (for example zero base OTs).
    #[error("invalid OT request: {0}")]
    InvalidRequest(String),
}

impl OtError {
    /// A [`OtError::Malformed`] for `step`.
    pub fn malformed(step: &'static str, reason: impl Into<String>) -> Self {
        OtError::Malformed { step, reason: reason.into() }
    }
}

/// Starts a step of an OT instance that must not be used after a failure: refuses if `failed`
/// is set, else sets it (the caller clears it when the step succeeds). `what` names the instance.
pub(crate) fn begin_step(failed: &mut bool, what: &str) -> Result<(), OtError> {
    if *failed {
        return Err(OtError::InvalidRequest(format!("this {what} failed before and cannot be used again")));
    }
    *failed = true;
    Ok(())
}
