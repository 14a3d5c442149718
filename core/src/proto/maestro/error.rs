//! Typed errors of the MAESTRO protocols: each names the step (and, for network failures, the
//! communication round) it happened in, and for malformed messages the sender and lengths.

use crate::net::{NetError, PartyId};

/// The protocol step an error happened in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// Distribution of the pseudo-random secret sharing seeds.
    PrssSetup,
    /// Sharing of a party's private input.
    Input,
    /// Resharing of a batch of multiplications.
    Multiply,
    /// Opening of shared values.
    Reveal,
    /// Generation of random one-hot vectors (LUT preprocessing).
    OneHotPreprocessing,
    /// Opening of the masked table index of a lookup.
    LookupOpen,
    /// Coin tossing of a public challenge (malicious verification).
    Coin,
    /// The batch verification of multiplications (MAESTRO §2.7, Protocols 1–2).
    Verification,
    /// Comparison of hashes of the opened values (MAESTRO §2.4, "Opening Replicated Shares").
    ViewCompare,
}

impl core::fmt::Display for Step {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Step::PrssSetup => "PRSS setup",
            Step::Input => "input sharing",
            Step::Multiply => "multiplication",
            Step::Reveal => "reveal",
            Step::OneHotPreprocessing => "one-hot vector preprocessing",
            Step::LookupOpen => "lookup index opening",
            Step::Coin => "coin tossing",
            Step::Verification => "multiplication verification",
            Step::ViewCompare => "opening hash comparison",
        })
    }
}

/// Errors of the MAESTRO protocols.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MaestroError {
    /// The session does not have exactly three parties.
    #[error("MAESTRO runs with exactly 3 parties, the session has {0}")]
    NotThreeParties(usize),
    /// The network failed during a step.
    #[error("network error during {step} (communication round {round}): {source}")]
    Network {
        /// The step that was running.
        step: Step,
        /// This party's round counter when the failure happened.
        round: u64,
        /// The underlying network error.
        #[source]
        source: NetError,
    },
    /// A peer sent a message whose length is not what the step expects.
    #[error("party {from} sent a {actual}-byte message during {step}, expected {expected} bytes")]
    MalformedMessage {
        /// The sender of the message.
        from: PartyId,
        /// The step that was running.
        step: Step,
        /// Expected length in bytes.
        expected: usize,
        /// Received length in bytes.
        actual: usize,
    },
    /// The two operand vectors of a batched multiplication differ in length.
    #[error("multiplication operands differ in length: {left} and {right}")]
    OperandLengthMismatch {
        /// Length of the left operand vector.
        left: usize,
        /// Length of the right operand vector.
        right: usize,
    },
    /// The input owner did not supply its values, or supplied a different number than announced.
    #[error("input owner {owner} must supply exactly {expected} values, supplied {supplied:?}")]
    BadInput {
        /// The party whose input it is.
        owner: PartyId,
        /// The announced number of values.
        expected: usize,
        /// What the owner supplied (`None`: nothing).
        supplied: Option<usize>,
    },
    /// A party index that is not 0, 1 or 2.
    #[error("party {0} is not in the 3-party session")]
    UnknownParty(PartyId),
    /// A packed GF(2^4) message of odd length whose unused padding nibble is not zero.
    #[error("party {from} sent a nonzero padding nibble during {step}")]
    NonzeroPadding {
        /// The sender of the message.
        from: PartyId,
        /// The step that was running.
        step: Step,
    },
    /// A table-lookup S-box ran out of preprocessed one-hot vectors.
    #[error("{needed} preprocessed one-hot vectors needed, {available} available")]
    PreprocessingExhausted {
        /// Vectors the call needs.
        needed: usize,
        /// Vectors left.
        available: usize,
    },
    /// A bit-packed message whose unused padding bits are not zero.
    #[error("party {from} sent nonzero padding bits during {step}")]
    NonzeroBitPadding {
        /// The sender of the message.
        from: PartyId,
        /// The step that was running.
        step: Step,
    },
    /// An AES key of unsupported length.
    #[error("AES key must be 16, 24 or 32 shared bytes, got {0}")]
    BadKeyLength(usize),
    /// Round keys of the wrong count for their key size.
    #[error("expected {expected} round keys, got {actual}")]
    BadRoundKeyCount {
        /// Nr + 1 for the key size.
        expected: usize,
        /// The number supplied.
        actual: usize,
    },
    /// The batch check of all recorded multiplications failed: some party cheated (MAESTRO
    /// §2.7); the session must abort without revealing outputs.
    #[error("multiplication verification failed: a party deviated from the protocol")]
    VerificationFailed,
    /// The hash of the values a peer opened differs from this party's (MAESTRO §2.4): some
    /// opening was inconsistent; the session must abort.
    #[error("party {peer} saw different opened values (hash mismatch)")]
    OpeningMismatch {
        /// The peer whose hash differs.
        peer: PartyId,
    },
    /// Some lookup outputs were neither reshared nor recovered from the next layer (Protocol 7
    /// steps 6 and 8), so their S-box pairs cannot be verified: the calls did not follow the AES
    /// driver's order. Nothing is opened.
    #[error("{count} S-box outputs were neither reshared nor recovered, so they cannot be verified")]
    UnverifiedSboxes {
        /// S-boxes whose output is still only additively shared.
        count: usize,
    },
    /// A value to open or recover is not in replicated form (e.g. an additive (3,3) share).
    #[error("share {index} is not replicated")]
    NotReplicated {
        /// Its position in the batch.
        index: usize,
    },
}
