//! The one joint-AES job of every protocol: [`AesSpec`] (the protocol and its options as one tagged
//! field [`AesProtocol`], then the roles, block count, key size and direction every protocol
//! shares), [`AesInput`] and [`AesOutput`]. [`super::run_aes`] validates the spec once and hands it
//! to the protocol's runner; the runners use these types, the dispatch ([`super::run`]) sits
//! above both.
//!
//! Roles: the key is the XOR of the shares of `key_holders` (one holder = the key itself), the
//! plaintext comes from `plaintext_owner`, the ciphertext goes to `reveal_to`. What a protocol
//! supports of these (member count, key sizes, decryption, who may learn outputs) is checked by
//! [`AesSpec::validate`] before any communication, with [`JobError::NotAvailable`] naming the
//! option to change.
//!
//! Statistics have one meaning for every protocol: `stats` is the whole job, `online_stats` the
//! input-dependent core its paper counts (MAESTRO: the AES rounds, as its Table 1 does; TinyTable
//! and MiniMac: inputs, AND layers and output opening), `preprocessing_stats` the making of
//! input-independent material (MAESTRO: the S-box preprocessing; TinyTable and MiniMac: OT and
//! Fig. 8, or the dealing, with spec agreement).

use super::error::JobError;
use super::options::{AesPath, Direction, MacBits, SboxVariant};
use super::preprocessing::Preprocessing;
use super::security::Security;
use crate::aes::KeySize;
use crate::net::{NetStats, PartyId};
use crate::proto::minimac::CodeChoice;

/// The protocol of a job and its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AesProtocol {
    /// Three-party MAESTRO (honest majority), any S-box variant of its Table 1.
    Maestro {
        /// The S-box evaluation.
        variant: SboxVariant,
        /// Semi-honest, or malicious with abort.
        security: Security,
    },
    /// Two-party TinyTable (dishonest majority): every key size and direction on the circuit path,
    /// AES-128 in both directions on the S-box-table path.
    TinyTable {
        /// Boolean circuit or S-box tables.
        path: AesPath,
        /// Over OT between the two parties, or a trusted dealer as member 2.
        preprocessing: Preprocessing,
        /// Semi-honest, or malicious with abort.
        security: Security,
        /// MAC width under malicious security.
        mac_bits: MacBits,
    },
    /// MiniMac (dishonest majority, malicious with abort) among every member over OT or two
    /// parties beside a dealer, AES of every key size and direction over the boolean circuit, many
    /// blocks per codeword batch.
    MiniMac {
        /// The Reed-Solomon code.
        code: CodeChoice,
        /// Where the triples come from: OT among the parties, or a trusted dealer.
        preprocessing: Preprocessing,
    },
    /// Two-party Coral (dishonest majority, malicious with abort), AES of every key size and
    /// direction over the boolean circuit, 14 blocks per packed field element.
    Coral {
        /// Where the material comes from: OT between the two parties, or a trusted dealer.
        preprocessing: Preprocessing,
    },
    /// Multi-party TinyOT (dishonest majority, malicious with abort) among every member over OT,
    /// AES of every key size and direction over the boolean circuit, one triple per AND gate
    /// and block.
    TinyOt,
}

impl AesProtocol {
    /// `maestro`, `tinytable`, `minimac` or `coral` (the SDK's names).
    pub fn name(&self) -> &'static str {
        match self {
            AesProtocol::Maestro { .. } => "maestro",
            AesProtocol::TinyTable { .. } => "tinytable",
            AesProtocol::MiniMac { .. } => "minimac",
            AesProtocol::Coral { .. } => "coral",
            AesProtocol::TinyOt => "tinyot",
        }
    }

    /// The security level the protocol runs at.
    pub fn security(&self) -> Security {
        match *self {
            AesProtocol::Maestro { security, .. } | AesProtocol::TinyTable { security, .. } => security,
            AesProtocol::MiniMac { .. } | AesProtocol::Coral { .. } | AesProtocol::TinyOt => {
                Security::Malicious
            }
        }
    }

    /// Session members the protocol needs.
    pub fn members(&self) -> usize {
        match *self {
            AesProtocol::Maestro { .. } => 3,
            AesProtocol::TinyTable { preprocessing, .. }
            | AesProtocol::MiniMac { preprocessing, .. }
            | AesProtocol::Coral { preprocessing } => preprocessing.members(),
            AesProtocol::TinyOt => Preprocessing::Ot.members(),
        }
    }

    /// Whether every member of a session computes, however many there are (MiniMac and Coral
    /// over OT, TinyOT; [`super::parties`]).
    pub fn every_member_computes(&self) -> bool {
        matches!(
            self,
            AesProtocol::MiniMac { preprocessing: Preprocessing::Ot, .. }
                | AesProtocol::Coral { preprocessing: Preprocessing::Ot }
                | AesProtocol::TinyOt
        )
    }

    /// Parties that hold inputs or learn outputs (0..computing) in a session of the protocol's
    /// [`members`](Self::members).
    pub fn computing_parties(&self) -> usize {
        match self {
            AesProtocol::Maestro { .. } => 3,
            _ => 2,
        }
    }
}

/// What all members agree to compute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AesSpec {
    /// The protocol and its options.
    pub protocol: AesProtocol,
    /// Encrypt or decrypt the blocks (decryption: MAESTRO only).
    pub direction: Direction,
    /// AES-128, -192 or -256 (MAESTRO; the two-party protocols run AES-128).
    pub key_size: KeySize,
    /// Number of 16-byte blocks processed under the key.
    pub blocks: usize,
    /// Parties that each input an XOR share of the key (distinct, ascending).
    pub key_holders: Vec<PartyId>,
    /// The party that inputs the plaintext.
    pub plaintext_owner: PartyId,
    /// Parties that learn the output blocks (ascending).
    pub reveal_to: Vec<PartyId>,
}

/// This member's private inputs (only what its roles require; nothing for a dealer).
#[derive(Clone, Default)]
pub struct AesInput {
    /// This party's XOR share of the key, if it is a key holder.
    pub key_share: Option<Vec<u8>>,
    /// The plaintext (`16 · blocks` bytes), if this party owns it.
    pub plaintext: Option<Vec<u8>>,
}

impl core::fmt::Debug for AesInput {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Inputs are secrets: show only which ones are present.
        f.debug_struct("AesInput")
            .field("key_share", &self.key_share.as_ref().map(|_| "<secret>"))
            .field("plaintext", &self.plaintext.as_ref().map(|_| "<secret>"))
            .finish()
    }
}

impl AesInput {
    /// Checks the inputs of member `me` against its roles: a key share of `key_bytes` bytes exactly
    /// at the key holders, `16 · blocks` bytes of plaintext exactly at the plaintext owner.
    pub(crate) fn check(
        &self,
        me: PartyId,
        key_holders: &[PartyId],
        plaintext_owner: PartyId,
        key_bytes: usize,
        blocks: usize,
    ) -> Result<(), JobError> {
        let bad = |field: &str, reason: String| {
            Err(JobError::InvalidInput { party: me, field: field.into(), reason })
        };
        match (&self.key_share, key_holders.contains(&me)) {
            (Some(k), true) if k.len() != key_bytes => {
                let hint = match k.len() {
                    16 | 24 | 32 => format!(
                        " (keyBits is {}: pass keyBits {} at every member for a {}-byte key)",
                        8 * key_bytes,
                        8 * k.len(),
                        k.len()
                    ),
                    _ => format!(" (keyBits {})", 8 * key_bytes),
                };
                return bad("key", format!("key share has {} bytes, expected {key_bytes}{hint}", k.len()));
            }
            (None, true) => {
                return bad("key", format!("party {me} is a key holder and must pass its key share"))
            }
            (Some(_), false) => {
                return bad("key", format!("member {me} is not a key holder (keyHolders: {key_holders:?})"))
            }
            _ => {}
        }
        match (&self.plaintext, plaintext_owner == me) {
            (Some(p), true) if p.len() != 16 * blocks => bad(
                "plaintext",
                format!("plaintext has {} bytes, expected {} ({blocks} blocks)", p.len(), 16 * blocks),
            ),
            (None, true) => bad("plaintext", format!("party {me} owns the plaintext and must pass it")),
            (Some(_), false) => {
                bad("plaintext", format!("member {me} is not the plaintext owner (party {plaintext_owner})"))
            }
            _ => Ok(()),
        }
    }
}

/// What this member learns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AesOutput {
    /// The output blocks if this member is in `reveal_to`, else `None`.
    pub ciphertext: Option<Vec<u8>>,
    /// This member's protocol communication for the whole job.
    pub stats: NetStats,
    /// The input-dependent part (see the module docs; zero at a dealer).
    pub online_stats: NetStats,
    /// The making of input-independent material (see the module docs).
    pub preprocessing_stats: NetStats,
}

/// Milestones of a job, reported to the observer of [`super::run_aes_observed`] (e.g. to time phases
/// natively; the job itself never reads a clock). Protocols whose online phase is not a separate
/// step of the job (TinyTable) report none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobPhase {
    /// Spec agreement, setup and preprocessing are done; the online phase starts (for a circuit
    /// job that streams its instances: the online phase of each chunk).
    OnlineStarts,
    /// A circuit job finished the first `done` of its `total` instances (after each chunk).
    Instances {
        /// Instances evaluated so far.
        done: usize,
        /// The job's instances.
        total: usize,
    },
}

impl AesSpec {
    /// Checks member `me`'s inputs against its roles in this (validated) spec, as the job does
    /// before any communication: bindings call it to reject bad inputs before a job starts.
    pub fn check_input(&self, me: PartyId, input: &AesInput) -> Result<(), JobError> {
        let dealer = match self.protocol {
            AesProtocol::Maestro { .. } | AesProtocol::TinyOt => false,
            AesProtocol::TinyTable { preprocessing, .. }
            | AesProtocol::MiniMac { preprocessing, .. }
            | AesProtocol::Coral { preprocessing } => preprocessing.is_dealer(me),
        };
        if dealer {
            // A member beyond the computing parties is a two-party protocol's dealer.
            let given = [("key", input.key_share.is_some()), ("plaintext", input.plaintext.is_some())];
            if let Some((field, _)) = given.iter().find(|(_, present)| *present) {
                let reason = format!("member {me} is the trusted dealer, which has no inputs");
                return Err(JobError::InvalidInput { party: me, field: (*field).into(), reason });
            }
            return Ok(());
        }
        input.check(me, &self.key_holders, self.plaintext_owner, self.key_size.key_bytes(), self.blocks)
    }

    /// The limits of AES over a two-party circuit protocol (MiniMac, Coral): key holders and
    /// plaintext owner among parties 0 and 1, the ciphertext to party 0, party 1 or both;
    /// `protocol` names the protocol in the messages. Every key size and direction runs (the
    /// protocols evaluate the AES circuit of the spec's, [`super::keyed_aes`]).
    pub(crate) fn check_two_party_roles(&self, protocol: &str) -> Result<(), JobError> {
        self.check_roles(protocol, 2)
    }

    /// [`check_two_party_roles`](Self::check_two_party_roles) for `parties` computing parties
    /// (Coral over OT): key holders and plaintext owner below `parties`, the ciphertext to one of
    /// them or to every one, `[0, 1, …, parties − 1]`.
    pub(crate) fn check_roles(&self, protocol: &str, parties: usize) -> Result<(), JobError> {
        if self.blocks == 0 {
            return Err(JobError::invalid_spec("blocks", "blocks must be at least 1"));
        }
        let last = parties.saturating_sub(1);
        let (names, computing, reveals) = if parties == 2 {
            ("party 0, party 1 or both".to_string(), "0 and 1".to_string(), "[0], [1] or [0, 1]".to_string())
        } else {
            (
                format!("parties 0 to {last}"),
                format!("0 to {last}"),
                format!("one party of 0 to {last}, or all of them in order"),
            )
        };
        if self.key_holders.is_empty() || !self.key_holders.windows(2).all(|w| w[0] < w[1]) {
            return Err(JobError::invalid_spec(
                "keyHolders",
                format!("keyHolders must name {names}, ascending: {:?}", self.key_holders),
            ));
        }
        for (field, named) in
            [("keyHolders", &self.key_holders[..]), ("plaintextOwner", &[self.plaintext_owner])]
        {
            if let Some(p) = named.iter().find(|&&p| p > last) {
                return Err(JobError::invalid_spec(
                    field,
                    format!("{field} names party {p}, but the computing parties are {computing}"),
                ));
            }
        }
        let all = self.reveal_to.iter().copied().eq(0..parties);
        if !(all || matches!(self.reveal_to[..], [p] if p <= last)) {
            return Err(JobError::invalid_spec(
                "reveal",
                format!(
                    "{protocol} reveals the ciphertext to one party or to every computing party: reveal \
                     must be {reveals}, got {:?}",
                    self.reveal_to
                ),
            ));
        }
        Ok(())
    }
}
