//! Two-party TinyTable jobs ([`crate::proto::tinytable`], semi-honest or malicious): [`circuit`]
//! evaluates any Bristol circuit, [`aes`] runs AES-128 (boolean circuit or §2.3 S-box tables).
//! Their preprocessing ([`Preprocessing`]) is made either by the two parties themselves over OT
//! (the default) or by a **trusted dealer** that joins the session as a third member.
//!
//! # Roles and trust model (read this before using these jobs)
//!
//! **Parties 0 and 1** compute: they hold the inputs, run the online phase of TinyTable between
//! themselves and learn the outputs revealed to them. Where the masks and tables come from is the
//! spec's [`Preprocessing`]:
//!
//! - [`Preprocessing::Ot`] (default; the session has exactly **two** members): the two parties
//!   make the material between themselves with the paper's Fig. 8 (§4) over TinyOT-style
//!   authenticated bits and AND triples from OT extension
//!   ([`crate::proto::tinytable::OtTinyOt`], [`crate::proto::tinytable::fig8_binary`] /
//!   [`crate::proto::tinytable::fig8_malicious`]). **Nobody but the two parties is trusted**:
//!   neither party learns the other's masks, and every opening of the preprocessing is
//!   MAC-checked, so a party that deviates there makes the honest party's job fail with
//!   [`TinyTableJobError::Protocol`] holding [`TinyTableError::Preprocessing`] (an OT step or
//!   check, named) or [`TinyTableError::MacCheckFailed`] (a Fig. 8 opening), before any input is
//!   used. Available on the circuit paths only; [`aes::AesPath::SboxTables`] needs the §4 S-box
//!   table construction and rejects it with [`TinyTableJobError::NotAvailable`].
//! - [`Preprocessing::Dealer`] (a **weaker trust model**, three members): **member 2 is the
//!   TRUSTED DEALER** ([`DEALER`]): it samples every wire mask, both shares of every scrambled
//!   table and (malicious security) every MAC key and authentication string
//!   ([`crate::proto::tinytable::TrustedDealer`], Fig. 6 and Fig. 3), sends each party its half
//!   over that pair's encrypted channel, and takes no further part. The dealer never sees an
//!   input or an output, but it knows all masks and keys, so privacy and (malicious) integrity
//!   hold only if the dealer follows the protocol **and does not collude with either party** (a
//!   dealer that also sees one party's traffic learns the other's inputs; a dealer that helps a
//!   party can forge MACs). The dealer is a separate session member on purpose: deriving its
//!   randomness inside one of the two parties, or from a seed both parties know, would give that
//!   party every mask and therefore the other party's inputs.
//!
//! In both cases:
//! - [`Security::SemiHonest`]: a party that deviates *online* can make the outputs wrong
//!   undetected (OT preprocessing is still checked);
//! - [`Security::Malicious`]: every opened table entry is authenticated (binary circuits: lookup
//!   MACs of Fig. 3/5 with k = 64 or 32 bits, [`MacBits`]; S-box tables: the §3 linear MAC with
//!   k = 64 and the §3.3 batched opening). A party that sends a wrong table entry or output-mask
//!   share is caught, except with probability `2^-k`, **before any output is revealed**: the
//!   honest party's job fails with [`TinyTableJobError::Protocol`] holding
//!   [`TinyTableError::MacCheckFailed`] (naming the check) or
//!   [`TinyTableError::AuthenticationFailed`] (naming the step); see
//!   [`TinyTableJobError::failed_check`]. Masked inputs are not authenticated (changing them is
//!   input substitution, allowed by the ideal functionality);
//! - the relay sees only encrypted frames, as for every job.
//!
//! # Steps
//! 1. Every member sends the others a SHA-256 digest of the encoded spec (for circuits, including
//!    the digest of the circuit's Bristol text); any difference aborts with
//!    [`TinyTableJobError::SpecMismatch`].
//! 2. Preprocessing for every instance at once. OT ([`ot_prep`]): both parties set up OT
//!    extension in both directions (session tag from the spec digest), then run Fig. 8 for the
//!    whole batch; semi-honest material is converted to the bit-sliced
//!    [`crate::proto::tinytable::SlicedPrep`]. Dealer: the dealer sends party `p` its material
//!    ([`prep_codec`], [`aes_prep_codec`]): bit-sliced `SlicedPrep` (semi-honest),
//!    [`MaliciousPrep`] with `u64` or `u32` strings (malicious), or S-box tables.
//! 3. Parties 0 and 1 evaluate all instances at once over the two-party view
//!    ([`view::TwoPartyView`]) of the session: [`evaluate_sliced`] or [`evaluate_malicious`] (the
//!    plug-in point is `run_instances`), or the S-box-table protocols ([`aes`]).
//!
//! Outputs report this member's communication for the whole job (`stats`) and for the online
//! phase alone (`online_stats`); their difference is agreement plus preprocessing.

pub mod aes;
pub mod aes_prep_codec;
pub mod circuit;
pub mod ot_prep;
pub mod prep_codec;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_malicious;
#[cfg(test)]
mod tests_ot;
pub mod view;

pub use super::security::Security;
use crate::circuit::Circuit;
use crate::net::{NetError, NetStats, Network, PartyId};
use crate::proto::tinytable::circuit::online::{evaluate_sliced, Outputs};
use crate::proto::tinytable::{
    evaluate_malicious, IoSpec, MacWord, MaliciousPrep, TinyTableError, TrustedDealer,
};
use circuit::CircuitJobSpec;
use rand_core::{CryptoRng, RngCore};
use sha2::{Digest, Sha256};
use view::TwoPartyView;

/// The session member that deals the preprocessing under [`Preprocessing::Dealer`] (parties 0
/// and 1 compute).
pub const DEALER: PartyId = 2;
/// Session members of a TinyTable job with [`Preprocessing::Dealer`]: two computing parties and
/// the dealer ([`Preprocessing::members`] gives the count for either kind).
pub const MEMBERS: usize = 3;

/// Where a job's TinyTable material comes from (see the [trust model](self)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Preprocessing {
    /// The two parties make it between themselves over OT (Fig. 8 from TinyOT-style bits and
    /// triples): nobody else is trusted. The session has 2 members.
    #[default]
    Ot,
    /// A trusted dealer, session member 2, deals it (a weaker trust model: the dealer knows every
    /// mask). The session has 3 members.
    Dealer,
}

impl Preprocessing {
    /// `ot` or `dealer` (the SDK's and the runner's names).
    pub fn name(self) -> &'static str {
        match self {
            Preprocessing::Ot => "ot",
            Preprocessing::Dealer => "dealer",
        }
    }

    /// The kind called `name` (see [`Self::name`]).
    pub fn from_name(name: &str) -> Option<Preprocessing> {
        [Preprocessing::Ot, Preprocessing::Dealer].into_iter().find(|p| p.name() == name)
    }

    /// Session members a job with this preprocessing needs: 2, or 3 with the dealer.
    pub fn members(self) -> usize {
        match self {
            Preprocessing::Ot => 2,
            Preprocessing::Dealer => MEMBERS,
        }
    }

    /// Who the members are, in words.
    fn roles(self) -> &'static str {
        match self {
            Preprocessing::Ot => "parties 0 and 1, no dealer",
            Preprocessing::Dealer => "parties 0, 1 and the dealer",
        }
    }

    /// Whether `member` is the dealer of a session with this preprocessing.
    pub fn is_dealer(self, member: PartyId) -> bool {
        self == Preprocessing::Dealer && member == DEALER
    }
}

/// Errors of the TinyTable jobs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TinyTableJobError {
    /// The spec is not valid; the message names the field.
    #[error("invalid TinyTable job spec: {0}")]
    InvalidSpec(String),
    /// The spec asks for something not implemented.
    #[error("not available yet: {0}")]
    NotAvailable(String),
    /// This member's inputs do not fit its role in the spec.
    #[error("invalid input for party {party}: {reason}")]
    InvalidInput {
        /// This member.
        party: PartyId,
        /// What is wrong.
        reason: String,
    },
    /// Another member runs a different spec.
    #[error("member {0} runs a different TinyTable job spec")]
    SpecMismatch(PartyId),
    /// The session does not have the members the spec's preprocessing needs (2 for OT, 3 with the
    /// dealer).
    #[error(
        "a TinyTable job with {} preprocessing needs {} session members ({}), got {got}",
        .preprocessing.name(),
        .preprocessing.members(),
        .preprocessing.roles()
    )]
    WrongSessionSize {
        /// The spec's preprocessing.
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
    /// The protocol failed.
    #[error(transparent)]
    Protocol(#[from] TinyTableError),
}

/// What one member learns from a job over a batch of instances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstancesOutput {
    /// Per instance, per output value: its bits if revealed to this member (the dealer gets an
    /// empty list).
    pub outputs: Vec<Outputs>,
    /// This member's communication for the whole job (agreement, preprocessing, online).
    pub stats: NetStats,
    /// The online phase alone (zero for the dealer).
    pub online_stats: NetStats,
}

impl TinyTableJobError {
    /// If a party deviated and a check caught it (a MAC check under malicious security, or a
    /// check of the OT preprocessing at either level), the check that failed, in words (for
    /// example `MAC check on opened table bits`); no output was revealed then.
    pub fn failed_check(&self) -> Option<String> {
        match self {
            TinyTableJobError::Protocol(TinyTableError::Preprocessing {
                source: crate::ot::OtError::CheckFailed { check },
                ..
            }) => Some(format!("OT preprocessing check '{check}'")),
            TinyTableJobError::Protocol(TinyTableError::MacCheckFailed { check, .. }) => {
                Some(format!("MAC check on {check}"))
            }
            TinyTableJobError::Protocol(TinyTableError::AuthenticationFailed { step, .. }) => {
                Some(format!("MAC check during {step}"))
            }
            _ => None,
        }
    }
}

/// Whether the dealer of malicious binary-circuit jobs gives each verifier a 16-byte seed from
/// which it derives the verification strings of the peer's table entries (`true`, one AES-128
/// block per opened entry online) or the strings themselves (`false`, `4 · ANDs · 2k` bits per
/// instance); see [`crate::proto::tinytable::circuit::malicious_prep`] for both forms. Every party decodes
/// both ([`prep_codec`] tags the form), so this is the one place the jobs choose. Seeded on every
/// target: the dealer sends a third (k = 64) or half (k = 32) of the bytes, and the verifier's
/// AES per opened entry costs less online than streaming the stored strings natively and far less
/// than dealing and shipping them in WASM (`docs/performance.md`, "Seeded or stored verification
/// strings", has the measurements and commands).
pub const SEEDED_VERIFIER_KEYS: bool = true;

/// Width `k` of the authentication strings of malicious binary-circuit TinyTable (Fig. 3/5): a
/// cheater escapes detection with probability `2^-k`; `k = 32` halves the material.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum MacBits {
    /// k = 64 (`u64` strings).
    #[default]
    K64,
    /// k = 32 (`u32` strings).
    K32,
}

impl MacBits {
    /// 64 or 32.
    pub fn bits(self) -> u32 {
        match self {
            MacBits::K64 => 64,
            MacBits::K32 => 32,
        }
    }

    /// The width of `bits` bits (64 or 32).
    pub fn from_bits(bits: u32) -> Option<MacBits> {
        [MacBits::K64, MacBits::K32].into_iter().find(|m| m.bits() == bits)
    }
}

/// Checks the session size the spec's preprocessing needs.
fn check_common<N: Network>(net: &N, preprocessing: Preprocessing) -> Result<(), TinyTableJobError> {
    if net.parties() != preprocessing.members() {
        return Err(TinyTableJobError::WrongSessionSize { preprocessing, got: net.parties() });
    }
    Ok(())
}

/// Exchanges the digest of `encoded_spec` with every other member; returns the digest (the agreed
/// spec's identity, from which the OT preprocessing derives its session tag).
async fn agree_on_spec<N: Network>(net: &mut N, encoded_spec: &[u8]) -> Result<Vec<u8>, TinyTableJobError> {
    let digest = Sha256::digest(encoded_spec).to_vec();
    net.broadcast(&digest)?;
    let me = net.party();
    for peer in (0..net.parties()).filter(|&p| p != me) {
        if net.recv(peer).await? != digest {
            return Err(TinyTableJobError::SpecMismatch(peer));
        }
    }
    Ok(digest)
}

/// Steps 2 and 3 of the module docs for the instances of `spec`, after agreement on `digest`:
/// the parties evaluate with `inputs` (one entry per instance; empty at the dealer). Returns the
/// outputs and this member's online communication.
pub(crate) async fn run_instances<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitJobSpec,
    digest: &[u8],
    inputs: &[Vec<Vec<bool>>],
    rng: &mut R,
) -> Result<(Vec<Outputs>, NetStats), TinyTableJobError> {
    if spec.preprocessing == Preprocessing::Ot {
        return ot_prep::run_instances(net, spec, digest, inputs, rng).await;
    }
    let (circuit, io, instances) = (&spec.circuit, &spec.io, spec.instances);
    match (spec.security, spec.mac_bits) {
        (Security::SemiHonest, _) => {
            let deal = |d: &mut TrustedDealer<&mut R>| {
                let [a, b] = d.sliced_batch(circuit, io, instances)?;
                Ok([prep_codec::encode_sliced(&a), prep_codec::encode_sliced(&b)])
            };
            let Some(prep) = deal_or_receive(net, rng, deal, prep_codec::decode_sliced).await? else {
                return Ok((Vec::new(), NetStats::default()));
            };
            check_instances(net.party(), prep.instances(), instances)?;
            let before = net.stats();
            let outputs = evaluate_sliced(&mut TwoPartyView::new(net), circuit, &prep, inputs).await?;
            Ok((outputs, net.stats().since(&before)))
        }
        (Security::Malicious, MacBits::K64) => {
            run_malicious::<N, R, u64>(net, circuit, io, instances, inputs, rng).await
        }
        (Security::Malicious, MacBits::K32) => {
            run_malicious::<N, R, u32>(net, circuit, io, instances, inputs, rng).await
        }
    }
}

async fn run_malicious<N: Network, R: RngCore + CryptoRng, M: MacWord>(
    net: &mut N,
    circuit: &Circuit,
    io: &IoSpec,
    instances: usize,
    inputs: &[Vec<Vec<bool>>],
    rng: &mut R,
) -> Result<(Vec<Outputs>, NetStats), TinyTableJobError> {
    let deal = |d: &mut TrustedDealer<&mut R>| {
        let [a, b]: [MaliciousPrep<M>; 2] = if SEEDED_VERIFIER_KEYS {
            d.malicious_batch_seeded(circuit, io, instances)?
        } else {
            d.malicious_batch(circuit, io, instances)?
        };
        Ok([prep_codec::encode_malicious(&a), prep_codec::encode_malicious(&b)])
    };
    let Some(prep) = deal_or_receive(net, rng, deal, prep_codec::decode_malicious::<M>).await? else {
        return Ok((Vec::new(), NetStats::default()));
    };
    check_instances(net.party(), prep.instances(), instances)?;
    let before = net.stats();
    let outputs = evaluate_malicious(&mut TwoPartyView::new(net), circuit, &prep, inputs).await?;
    Ok((outputs, net.stats().since(&before)))
}

/// Step 2: at the dealer, `deal` makes both parties' encoded material and sends it (returns
/// `None`); at a party, receives its material and decodes it with `decode`.
pub(crate) async fn deal_or_receive<N: Network, R: RngCore + CryptoRng, P>(
    net: &mut N,
    rng: &mut R,
    deal: impl FnOnce(&mut TrustedDealer<&mut R>) -> Result<[Vec<u8>; 2], TinyTableError>,
    decode: impl FnOnce(&[u8]) -> Result<P, String>,
) -> Result<Option<P>, TinyTableJobError> {
    let me = net.party();
    if me == DEALER {
        let [to_0, to_1] = deal(&mut TrustedDealer::new(rng))?;
        net.send(0, to_0)?;
        net.send(1, to_1)?;
        return Ok(None);
    }
    let bytes = net.recv(DEALER).await?;
    decode(&bytes).map(Some).map_err(|reason| TinyTableJobError::BadPreprocessing { party: me, reason })
}

/// Checks the dealt instance count against the spec's.
pub(crate) fn check_instances(
    party: PartyId,
    dealt: usize,
    expected: usize,
) -> Result<(), TinyTableJobError> {
    if dealt != expected {
        return Err(TinyTableJobError::BadPreprocessing {
            party,
            reason: format!("{dealt} instances dealt, the spec has {expected}"),
        });
    }
    Ok(())
}
