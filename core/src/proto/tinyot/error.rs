//! Errors of the n-party TinyOT online phase: every deviation an honest party can detect names the
//! check that caught it ([`Check`]); bad input names what was wrong.

use crate::net::{NetError, PartyId};
use crate::ot::OtError;
use crate::proto::frame::FrameError;

/// The checks of the online phase, named in [`TinyOtError::CheckFailed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// A share of an input mask opened to its owner carried a wrong MAC.
    InputMask,
    /// The deferred MAC check of every share opened in the AND layers: some party sent a share
    /// whose MACs do not match this party's keys.
    Mac,
    /// The echo of the input owners' broadcasts: two parties received different masked inputs.
    Echo,
    /// A share of an output opened to this party carried a wrong MAC.
    OutputMac,
}

impl Check {
    /// The check's code on the wire (a peer's verdict names the check that failed there).
    pub(crate) fn code(self) -> u8 {
        match self {
            Check::InputMask => 1,
            Check::Mac => 2,
            Check::Echo => 3,
            Check::OutputMac => 4,
        }
    }

    /// The check of a wire code.
    pub(crate) fn from_code(code: u8) -> Option<Check> {
        [Check::InputMask, Check::Mac, Check::Echo, Check::OutputMac].into_iter().find(|c| c.code() == code)
    }
}

impl core::fmt::Display for Check {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Check::InputMask => "input-mask MAC",
            Check::Mac => "MAC check of the opened AND-gate values",
            Check::Echo => "echo of the masked inputs",
            Check::OutputMac => "output MAC",
        })
    }
}

/// Errors of the n-party TinyOT online phase and of making its material.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TinyOtError {
    /// A check failed here: a party deviated (or the network corrupted data). Nothing was revealed.
    #[error("check failed: {check} (a party deviated; aborting, nothing revealed)")]
    CheckFailed {
        /// The check.
        check: Check,
    },
    /// A peer's check failed there (its verdict); this party aborts too, before any output.
    #[error("party {peer} reports its {check} failed (a party deviated; aborting, nothing revealed)")]
    PeerCheckFailed {
        /// The peer that reported.
        peer: PartyId,
        /// The check that failed there.
        check: Check,
    },
    /// A message did not have the expected form.
    #[error("malformed message from party {peer} at step {step}: {reason}")]
    Malformed {
        /// Sender.
        peer: PartyId,
        /// Protocol step that expected the message.
        step: &'static str,
        /// What was wrong.
        reason: String,
    },
    /// A well-formed frame of another step or sequence number (a replayed, dropped or reordered
    /// frame).
    #[error("unexpected frame from party {peer} at step {step}: expected {expected:#x}, got {found:#x}")]
    UnexpectedFrame {
        /// Sender.
        peer: PartyId,
        /// Protocol step that expected the message.
        step: &'static str,
        /// Expected kind and sequence number (`kind << 32 | seq`).
        expected: u64,
        /// What arrived.
        found: u64,
    },
    /// The material does not fit the circuit (too few triples or masks, another session size).
    #[error("material does not fit: {0}")]
    Material(String),
    /// Inputs, owners or recipients do not match the circuit or the session.
    #[error("bad input: {0}")]
    BadInput(String),
    /// Making the material failed (its checks name the deviation).
    #[error("preprocessing: {0}")]
    Ot(#[from] OtError),
    /// The network failed.
    #[error("network: {0}")]
    Net(#[from] NetError),
}

impl TinyOtError {
    /// The error of a received frame that failed its header check at `step`.
    pub(crate) fn frame(peer: PartyId, step: &'static str, e: FrameError) -> Self {
        match e {
            FrameError::Truncated(t) => TinyOtError::Malformed {
                peer,
                step,
                reason: format!("{} bytes, shorter than a frame header of {}", t.left, t.needed),
            },
            FrameError::Unexpected { expected, found } => TinyOtError::UnexpectedFrame {
                peer,
                step,
                expected: expected.packed(),
                found: found.packed(),
            },
        }
    }
}
