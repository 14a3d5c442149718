//! Errors crossing into JavaScript, classified once for every binding: each failure has a `kind`
//! the SDK maps to its typed errors — `config` (bad argument or input; `field` may name it),
//! `not-available` (a combination not implemented; `field` names the option to change),
//! `peer-left` (`slot`), `integrity` (`slot`), `protocol` (`check` names the failed check) or
//! `transport` (the JS side failed or cancelled the bridge; the SDK knows the cause). The WASM and
//! Node bindings only turn a [`BridgeError`] into their runtime's error object.

use chorus_core::jobs::JobError;
use chorus_core::net::secure::SecureError;
use chorus_core::net::NetError;
use chorus_core::ot::OtError;
use chorus_core::proto::coral::CoralError;
use chorus_core::proto::maestro::MaestroError;
use chorus_core::proto::minimac::MiniMacError;
use chorus_core::proto::tinyot::TinyOtError;
use chorus_core::proto::tinytable::TinyTableError;

/// The category of a failure, as the SDK sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A bad argument or input.
    Config,
    /// A valid combination of options that is not implemented.
    NotAvailable,
    /// A peer left the session.
    PeerLeft,
    /// A frame or handshake failed authentication.
    Integrity,
    /// A protocol-level check failed.
    Protocol,
    /// The transport failed or was cancelled.
    Transport,
}

impl ErrorKind {
    /// The SDK's name of the kind.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Config => "config",
            ErrorKind::NotAvailable => "not-available",
            ErrorKind::PeerLeft => "peer-left",
            ErrorKind::Integrity => "integrity",
            ErrorKind::Protocol => "protocol",
            ErrorKind::Transport => "transport",
        }
    }
}

/// A failure with what the SDK needs to raise the right error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BridgeError {
    /// The category.
    pub kind: ErrorKind,
    /// Human-readable description.
    pub message: String,
    /// The party concerned (`peer-left`, `integrity`).
    pub slot: Option<usize>,
    /// The argument concerned (`config`) or the failed check (`protocol`).
    pub detail: Option<String>,
}

impl BridgeError {
    /// A `config` error about `field`.
    pub fn config(field: &str, message: impl Into<String>) -> Self {
        BridgeError {
            kind: ErrorKind::Config,
            message: message.into(),
            slot: None,
            detail: Some(field.into()),
        }
    }

    /// An error of `kind` without slot or detail.
    pub fn plain(kind: ErrorKind, message: String) -> Self {
        BridgeError { kind, message, slot: None, detail: None }
    }

    /// The name of the detail field: `field` for `config`, `check` for `protocol`.
    pub fn detail_name(&self) -> Option<&'static str> {
        match (self.kind, &self.detail) {
            (ErrorKind::Config | ErrorKind::NotAvailable, Some(_)) => Some("field"),
            (ErrorKind::Protocol, Some(_)) => Some("check"),
            _ => None,
        }
    }
}

impl From<NetError> for BridgeError {
    fn from(e: NetError) -> Self {
        let message = e.to_string();
        match e {
            NetError::PeerLeft(p) => {
                BridgeError { kind: ErrorKind::PeerLeft, message, slot: Some(p), detail: None }
            }
            NetError::Integrity { peer, .. } => {
                BridgeError { kind: ErrorKind::Integrity, message, slot: Some(peer), detail: None }
            }
            NetError::UnknownParty { .. } | NetError::SelfAddressed(_) => {
                BridgeError::config("party", message)
            }
            NetError::Transport(_) => BridgeError::plain(ErrorKind::Transport, message),
        }
    }
}

impl From<SecureError> for BridgeError {
    fn from(e: SecureError) -> Self {
        let message = e.to_string();
        match e {
            SecureError::Net(net) => net.into(),
            SecureError::KeyCount { .. } | SecureError::OwnKeyMismatch { .. } => {
                BridgeError::config("keys", message)
            }
            SecureError::SecretTooShort { .. } => BridgeError::config("secret", message),
            SecureError::HandshakeAuthentication { peer, .. }
            | SecureError::HandshakeMalformed { peer, .. } => {
                BridgeError { kind: ErrorKind::Integrity, message, slot: Some(peer), detail: None }
            }
            SecureError::Noise { .. } | SecureError::Rng(_) => {
                BridgeError::plain(ErrorKind::Transport, message)
            }
        }
    }
}

impl From<JobError> for BridgeError {
    fn from(e: JobError) -> Self {
        let message = e.to_string();
        let protocol = |slot: Option<usize>, check: &str| BridgeError {
            kind: ErrorKind::Protocol,
            message: message.clone(),
            slot,
            detail: Some(check.into()),
        };
        if let Some(check) = e.failed_check() {
            // A check caught a deviating party: a protocol abort naming the check (no output was
            // revealed). Two-party checks name the detector; the deviator is the other party.
            let slot = match e {
                JobError::TinyTable(
                    TinyTableError::MacCheckFailed { party, .. }
                    | TinyTableError::AuthenticationFailed { party, .. }
                    | TinyTableError::Preprocessing { party, .. },
                ) => Some(1 - party.min(1)),
                JobError::Maestro(MaestroError::OpeningMismatch { peer }) => Some(peer),
                JobError::MiniMac(
                    MiniMacError::CommitmentMismatch { from, .. }
                    | MiniMacError::TranscriptMismatch { from, .. },
                ) => Some(from),
                // MiniMac's OT preprocessing runs between parties 0 and 1 only.
                JobError::MiniMac(MiniMacError::Ot { party, .. }) => Some(1 - party.min(1)),
                _ => None,
            };
            return protocol(slot, &check);
        }
        match e {
            JobError::InvalidSpec { field, .. } => BridgeError::config(field, message),
            JobError::NotAvailable { option, .. } => BridgeError {
                kind: ErrorKind::NotAvailable,
                message,
                slot: None,
                detail: Some(option.into()),
            },
            JobError::InvalidInput { field, .. } => BridgeError::config(&field, message),
            JobError::WrongSessionSize { .. } => BridgeError::config("parties", message),
            JobError::SpecMismatch(peer) => protocol(Some(peer), "job spec agreement"),
            JobError::BadPreprocessing { .. } => protocol(Some(2), "dealer material"),
            JobError::Network(net) => net.into(),
            JobError::Internal(_) => protocol(None, "internal"),
            // Network failures inside protocol steps keep the step in the message and the kind and
            // slot of the network error.
            JobError::Maestro(MaestroError::Network { source, .. })
            | JobError::TinyTable(TinyTableError::Network { source, .. })
            | JobError::MiniMac(MiniMacError::Network { source, .. }) => {
                BridgeError { message, ..BridgeError::from(source) }
            }
            JobError::Maestro(MaestroError::MalformedMessage { from, .. })
            | JobError::TinyTable(TinyTableError::MalformedMessage { from, .. }) => {
                protocol(Some(from), "message length")
            }
            JobError::MiniMac(MiniMacError::Malformed { from, .. }) => protocol(Some(from), "message format"),
            JobError::MiniMac(MiniMacError::FrameOutOfOrder { from, .. }) => {
                protocol(Some(from), "message order")
            }
            JobError::Maestro(_) => protocol(None, "MAESTRO arguments"),
            JobError::TinyTable(TinyTableError::BadInput { .. })
            | JobError::MiniMac(MiniMacError::BadInput(_)) => BridgeError::config("input", message),
            JobError::TinyTable(TinyTableError::Preprocessing { party, source }) => match source {
                OtError::Net(net) => BridgeError { message, ..BridgeError::from(net) },
                OtError::Malformed { step, .. } => {
                    protocol(Some(1 - party.min(1)), &format!("OT preprocessing message ({step})"))
                }
                _ => protocol(None, "OT preprocessing"),
            },
            JobError::MiniMac(MiniMacError::Ot { party, source }) => match source {
                OtError::Net(net) => BridgeError { message, ..BridgeError::from(net) },
                OtError::Malformed { step, .. } => {
                    protocol(Some(1 - party.min(1)), &format!("OT preprocessing message ({step})"))
                }
                _ => protocol(None, "OT preprocessing"),
            },
            JobError::TinyTable(_) => protocol(None, "TinyTable arguments"),
            JobError::MiniMac(_) => protocol(None, "MiniMac arguments"),
            JobError::Coral(
                CoralError::Malformed { peer, .. } | CoralError::UnexpectedFrame { peer, .. },
            ) => protocol(Some(peer), "message format"),
            JobError::Coral(CoralError::BadInput(_)) => BridgeError::config("input", message),
            JobError::Coral(_) => protocol(None, "Coral arguments"),
            JobError::TinyOt(TinyOtError::Net(net) | TinyOtError::Ot(OtError::Net(net))) => {
                BridgeError { message, ..BridgeError::from(net) }
            }
            JobError::TinyOt(
                TinyOtError::Malformed { peer, .. } | TinyOtError::UnexpectedFrame { peer, .. },
            ) => protocol(Some(peer), "message format"),
            JobError::TinyOt(TinyOtError::Ot(OtError::Malformed { step, .. })) => {
                protocol(None, &format!("OT preprocessing message ({step})"))
            }
            JobError::TinyOt(TinyOtError::BadInput(_)) => BridgeError::config("input", message),
            JobError::TinyOt(_) => protocol(None, "TinyOT arguments"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_core::proto::maestro::Step;

    #[test]
    fn network_failures_inside_protocol_steps_keep_their_kind_and_slot() {
        let e = BridgeError::from(JobError::Maestro(MaestroError::Network {
            step: Step::Multiply,
            round: 7,
            source: NetError::PeerLeft(2),
        }));
        assert_eq!((e.kind, e.slot), (ErrorKind::PeerLeft, Some(2)));
        assert!(e.message.contains("multiplication"), "{}", e.message);
        let e =
            BridgeError::from(JobError::Network(NetError::Integrity { peer: 1, reason: "bad tag".into() }));
        assert_eq!((e.kind, e.slot), (ErrorKind::Integrity, Some(1)));
    }

    #[test]
    fn handshake_and_configuration_failures_are_classified() {
        let auth = SecureError::HandshakeAuthentication {
            peer: 0,
            mode: chorus_core::net::secure::ChannelMode::NnPsk0,
        };
        assert_eq!(BridgeError::from(auth).kind, ErrorKind::Integrity);
        let short = BridgeError::from(SecureError::SecretTooShort { len: 3, min: 16 });
        assert_eq!((short.kind, short.detail.as_deref()), (ErrorKind::Config, Some("secret")));
        let mismatch = BridgeError::from(JobError::SpecMismatch(2));
        assert_eq!((mismatch.kind, mismatch.slot), (ErrorKind::Protocol, Some(2)));
        let spec = BridgeError::from(JobError::invalid_spec("blocks", "x"));
        assert_eq!((spec.kind, spec.detail.as_deref()), (ErrorKind::Config, Some("blocks")));
        let input =
            BridgeError::from(JobError::InvalidInput { party: 0, field: "key".into(), reason: "x".into() });
        assert_eq!((input.kind, input.detail.as_deref()), (ErrorKind::Config, Some("key")));
    }

    #[test]
    fn minimac_ot_preprocessing_errors_are_classified() {
        use chorus_core::proto::minimac::PrepCheck;
        let check = BridgeError::from(JobError::MiniMac(MiniMacError::PrepCheckFailed {
            check: PrepCheck::TinyOtConsistency,
        }));
        assert_eq!(check.kind, ErrorKind::Protocol);
        assert_eq!(check.detail.as_deref(), Some("OT preprocessing TinyOT-to-MiniMac consistency check"));
        let engine = BridgeError::from(JobError::MiniMac(MiniMacError::Ot {
            party: 1,
            source: OtError::CheckFailed { check: "kos15 correlation check" },
        }));
        assert_eq!((engine.kind, engine.slot), (ErrorKind::Protocol, Some(0)));
        assert_eq!(engine.detail.as_deref(), Some("OT preprocessing check 'kos15 correlation check'"));
        let left = BridgeError::from(JobError::MiniMac(MiniMacError::Ot {
            party: 0,
            source: OtError::Net(NetError::PeerLeft(1)),
        }));
        assert_eq!((left.kind, left.slot), (ErrorKind::PeerLeft, Some(1)));
    }

    #[test]
    fn tinytable_job_errors_are_classified() {
        let k32 = BridgeError::from(JobError::not_available("macBits", "authenticates with k = 64 only"));
        assert_eq!((k32.kind, k32.detail.as_deref()), (ErrorKind::NotAvailable, Some("macBits")));
        assert_eq!(k32.detail_name(), Some("field"));
        let tables = BridgeError::from(JobError::not_available("path", "the S-box-table path"));
        assert_eq!((tables.kind, tables.detail.as_deref()), (ErrorKind::NotAvailable, Some("path")));
        let cheat = BridgeError::from(JobError::TinyTable(TinyTableError::MacCheckFailed {
            party: 1,
            check: chorus_core::proto::tinytable::MacCheck::TableOpenings,
        }));
        assert_eq!((cheat.kind, cheat.slot), (ErrorKind::Protocol, Some(0)));
        assert_eq!(cheat.detail.as_deref(), Some("MAC check on opened table bits"));
        let sbox = BridgeError::from(JobError::TinyTable(TinyTableError::AuthenticationFailed {
            party: 0,
            step: chorus_core::proto::tinytable::Step::SboxMacCheck,
        }));
        assert_eq!((sbox.kind, sbox.slot), (ErrorKind::Protocol, Some(1)));
        assert_eq!(sbox.detail.as_deref(), Some("MAC check during S-box MAC check"));
        let mismatch = BridgeError::from(JobError::SpecMismatch(2));
        assert_eq!((mismatch.kind, mismatch.slot), (ErrorKind::Protocol, Some(2)));
        let ot_check = BridgeError::from(JobError::TinyTable(TinyTableError::Preprocessing {
            party: 1,
            source: OtError::CheckFailed { check: "kos15 correlation check" },
        }));
        assert_eq!((ot_check.kind, ot_check.slot), (ErrorKind::Protocol, Some(0)));
        assert_eq!(ot_check.detail.as_deref(), Some("OT preprocessing check 'kos15 correlation check'"));
        let ot_left = BridgeError::from(JobError::TinyTable(TinyTableError::Preprocessing {
            party: 0,
            source: OtError::Net(NetError::PeerLeft(1)),
        }));
        assert_eq!((ot_left.kind, ot_left.slot), (ErrorKind::PeerLeft, Some(1)));
        let tables_k32 = BridgeError::from(JobError::not_available(
            "macBits",
            "the malicious S-box-table path authenticates with k = 64 only",
        ));
        assert_eq!(tables_k32.detail.as_deref(), Some("macBits"));
        let size = BridgeError::from(JobError::WrongSessionSize {
            protocol: "TinyTable",
            preprocessing: chorus_core::jobs::Preprocessing::Ot,
            got: 3,
        });
        assert_eq!((size.kind, size.detail.as_deref()), (ErrorKind::Config, Some("parties")));
        let left = BridgeError::from(JobError::TinyTable(TinyTableError::Network {
            party: 0,
            step: chorus_core::proto::tinytable::Step::AndLayer(3),
            round: 9,
            source: NetError::PeerLeft(1),
        }));
        assert_eq!((left.kind, left.slot), (ErrorKind::PeerLeft, Some(1)));
        assert!(left.message.contains("AND layer 3"), "{}", left.message);
    }
}
