//! Errors of the Coral protocol: every deviation an honest party can detect names the check that
//! caught it ([`Check`]); bad input names the limit it broke.

use crate::embed::EmbedError;
use crate::net::{NetError, PartyId};
use crate::ot::OtError;

/// The checks of the protocol, named in [`CoralError::CheckFailed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// A party's opening of its coin-toss seed does not match its commitment.
    CoinCommitment,
    /// A party's opening of its MAC-check value σ does not match its commitment.
    MacCommitment,
    /// The batched SPDZ MAC check (§2.2.1) of the partially opened values failed: some opened
    /// share or MAC share was wrong.
    Mac,
    /// rConv normality check (Fig. 6 step 6): an opened combination `w` is not normal, τ(w) ≠ w.
    RConvNormality,
    /// rConv consistency check (Fig. 6 step 8): ψ(w) differs from the opened TinyOT combination.
    RConvConsistency,
    /// Quintuple sacrifice (Fig. 7 step 8): τ(e_h) ≠ d_h or τ(g_h) ≠ f_h.
    QuintupleSacrifice,
    /// A TinyOT (BDOZ-style, §2.2.1) MAC of an opened bit share is wrong.
    TinyMac,
    /// The input-authentication check of the OT-based provider (the random-combination MAC
    /// check of Π_Auth / MASCOT's Π_[[·]] after COPE, Fig. 15–18) failed: a party sent
    /// inconsistent COPE columns or opened a wrong combination.
    Authentication,
    /// The encoding-pair check of the OT-based provider: an opened combination `(d, f)` of
    /// encoding pairs has τ(d) ≠ f, so some authenticated `τ(r)` was not τ of its `r`.
    EncodingTau,
    /// Spdz2k's batched MAC check over Z_{2^(k+s)} (the arithmetic half of mixed circuits):
    /// some opened share or MAC share was wrong in the low k bits of its value.
    ArithMac,
    /// The authentication check of the Spdz2k OT-based provider (the random combination of
    /// COPE outputs, MASCOT's Π_[[·]] over Z_{2^(k+s)}): a party sent inconsistent COPE columns
    /// or a wrong combination.
    ArithAuthentication,
    /// The Spdz2k triple sacrifice: `t·c − ĉ − ρ·b` opened non-zero, so some triple was not a
    /// product.
    ArithSacrifice,
    /// A Spdz2k random bit is not a bit: some party's contribution b had `b·(b − 1) ≠ 0`
    /// modulo 2^k.
    ArithBit,
    /// An input declared a bit (a `bool` input) is not 0 or 1: `x·(x − 1) ≠ 0` modulo 2^k.
    ArithBitInput,
    /// The packed-daBit consistency check (Fig. 19 step 3): a random combination of the boolean
    /// halves' lanes differs from the parity of the same combination of the arithmetic halves,
    /// so some party input different bits in the two sharings.
    DaBitConsistency,
}

impl core::fmt::Display for Check {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Check::CoinCommitment => "coin-toss commitment",
            Check::MacCommitment => "MAC-check commitment",
            Check::Mac => "batched SPDZ MAC check",
            Check::RConvNormality => "rConv normality (tau(w) = w)",
            Check::RConvConsistency => "rConv consistency (psi(w) = TinyOT opening)",
            Check::QuintupleSacrifice => "quintuple sacrifice (tau(e) = d, tau(g) = f)",
            Check::TinyMac => "TinyOT MAC",
            Check::Authentication => "input authentication (COPE random-combination MAC check)",
            Check::EncodingTau => "encoding pairs (tau(d) = f)",
            Check::ArithMac => "batched Spdz2k MAC check (Z_2^(k+s))",
            Check::ArithAuthentication => "Spdz2k input authentication (COPE random-combination check)",
            Check::ArithSacrifice => "Spdz2k triple sacrifice (t*c - c' - rho*b = 0)",
            Check::ArithBit => "Spdz2k random bit (b*(b - 1) = 0 mod 2^k)",
            Check::ArithBitInput => "boolean input (x*(x - 1) = 0 mod 2^k)",
            Check::DaBitConsistency => "daBit consistency (boolean lanes = arithmetic parities)",
        })
    }
}

/// Errors of the Coral protocol and of its preprocessing providers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoralError {
    /// A check failed: a party deviated (or the network corrupted data). Honest parties abort
    /// here; no output has been opened.
    #[error("check failed: {check} (a party deviated; aborting, nothing revealed)")]
    CheckFailed {
        /// The check.
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
    /// A well-formed frame from the wrong step or round (e.g. a replayed frame).
    #[error("unexpected frame from party {peer} at step {step}: expected sequence {expected}, got {found}")]
    UnexpectedFrame {
        /// Sender.
        peer: PartyId,
        /// Protocol step that expected the message.
        step: &'static str,
        /// Expected (step tag, sequence) as one number.
        expected: u64,
        /// What arrived.
        found: u64,
    },
    /// The preprocessing material does not hold enough of some kind.
    #[error("preprocessing exhausted: {kind} needed {needed}, available {available}")]
    MaterialExhausted {
        /// Kind of material (quintuple, encoding pair, input mask, tBit, tTriple).
        kind: &'static str,
        /// Needed.
        needed: usize,
        /// Available.
        available: usize,
    },
    /// The material was dealt for another party or session size.
    #[error("preprocessing material is for party {found_party} of {found_parties}, not party {party} of {parties}")]
    MaterialMismatch {
        /// This party.
        party: PartyId,
        /// Parties of this session.
        parties: usize,
        /// Party the material is for.
        found_party: PartyId,
        /// Session size the material is for.
        found_parties: usize,
    },
    /// A request exceeds a limit of the packing or of the implementation.
    #[error("limit exceeded: {what} is {found}, limit {limit}")]
    Limit {
        /// The quantity (e.g. "batch size", "lanes", "parties").
        what: &'static str,
        /// Its value.
        found: usize,
        /// The limit.
        limit: usize,
    },
    /// Inputs do not match the circuit or the assignment of input values to parties.
    #[error("bad input: {0}")]
    BadInput(String),
    /// The preprocessing provider is not available in this build.
    #[error("preprocessing provider not available: {0}")]
    NotAvailable(&'static str),
    /// An embedding (RMFE/MFE) error.
    #[error("embedding: {0}")]
    Embed(#[from] EmbedError),
    /// A network error.
    #[error("network: {0}")]
    Net(#[from] NetError),
    /// An error of the OT engine under the OT-based provider (a failed KOS15, COPE-setup or
    /// TinyOT check, a malformed OT message).
    #[error("OT engine: {0}")]
    Ot(#[from] OtError),
}

impl CoralError {
    pub(crate) fn malformed(peer: PartyId, step: &'static str, reason: impl Into<String>) -> Self {
        CoralError::Malformed { peer, step, reason: reason.into() }
    }

    pub(crate) fn failed(check: Check) -> Self {
        CoralError::CheckFailed { check }
    }
}
