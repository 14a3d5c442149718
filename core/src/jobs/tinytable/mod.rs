//! Two-party TinyTable jobs ([`crate::proto::tinytable`], semi-honest) with a **trusted dealer**
//! as a third session member: [`circuit`] evaluates any Bristol circuit, [`aes`] runs AES-128.
//!
//! # Roles and trust model (read this before using these jobs)
//!
//! A session has three members. **Parties 0 and 1** compute: they hold the inputs, run the online
//! phase of TinyTable (Fig. 7) between themselves and learn the outputs revealed to them.
//! **Member 2 is the trusted dealer** ([`DEALER`]): it samples every wire mask and both shares of
//! every scrambled table ([`crate::proto::tinytable::TrustedDealer`], Fig. 6), sends each party
//! its half over that pair's encrypted channel, and takes no further part. The dealer never sees an
//! input or an output, but it knows all masks, so:
//!
//! - privacy holds only if the dealer follows the protocol **and does not collude with either
//!   party** (a dealer that also sees one party's traffic learns the other's inputs);
//! - security is semi-honest: a party (or the dealer) that deviates can make the outputs wrong
//!   without being detected;
//! - the relay sees only encrypted frames, as for every job.
//!
//! This is weaker than the paper's two-party preprocessing (Fig. 8, from TinyOT), which needs no
//! dealer and is not implemented. The dealer is a separate session member on purpose: deriving the
//! dealer's randomness inside one of the two parties, or from a seed both parties know, would give
//! that party every mask and therefore the other party's inputs.
//!
//! # Steps
//! 1. All three members exchange a SHA-256 digest of the encoded spec (for circuits, including
//!    the digest of the circuit's Bristol text); any difference aborts with
//!    [`TinyTableJobError::SpecMismatch`].
//! 2. The dealer sends party `p` its [`BinaryPrep`] for every instance ([`prep_codec`]).
//! 3. Parties 0 and 1 evaluate all instances at once ([`crate::proto::tinytable::online`]) over
//!    the two-party view ([`view::TwoPartyView`]) of the session.
//!
//! Security levels: [`Security::SemiHonest`] only; [`Security::Malicious`] fails with
//! [`TinyTableJobError::NotAvailable`] before any communication. The integration point for
//! malicious TinyTable is [`run_instances`]: a malicious variant replaces the dealer material and
//! the online call there.

pub mod aes;
pub mod circuit;
pub mod prep_codec;
#[cfg(test)]
mod tests;
pub mod view;

pub use super::security::Security;
use crate::circuit::Circuit;
use crate::net::{NetError, NetStats, Network, PartyId};
use crate::proto::tinytable::online::{evaluate_batch, Outputs};
use crate::proto::tinytable::{BinaryPrep, IoSpec, TinyTableError, TrustedDealer};
use rand_core::{CryptoRng, RngCore};
use sha2::{Digest, Sha256};
use view::TwoPartyView;

/// The session member that deals the preprocessing (parties 0 and 1 compute).
pub const DEALER: PartyId = 2;
/// Session members of a TinyTable job: two computing parties and the dealer.
pub const MEMBERS: usize = 3;

/// Errors of the TinyTable jobs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TinyTableJobError {
    /// The spec is not valid; the message names the field.
    #[error("invalid TinyTable job spec: {0}")]
    InvalidSpec(String),
    /// The spec asks for something not implemented yet (malicious security, the S-box-table path
    /// across processes).
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
    /// The session does not have two parties and a dealer.
    #[error("a TinyTable job needs {MEMBERS} session members (parties 0, 1 and the dealer), got {0}")]
    WrongSessionSize(usize),
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
    /// This member's communication for the whole job (agreement, dealing, online).
    pub stats: NetStats,
    /// The online phase alone (zero for the dealer).
    pub online_stats: NetStats,
}

/// Checks the session size and the security level shared by every TinyTable spec.
fn check_common<N: Network>(net: &N, security: Security) -> Result<(), TinyTableJobError> {
    if security == Security::Malicious {
        return Err(TinyTableJobError::NotAvailable(
            "malicious TinyTable (MACs on table entries, §3) is not implemented yet; use semi-honest".into(),
        ));
    }
    if net.parties() != MEMBERS {
        return Err(TinyTableJobError::WrongSessionSize(net.parties()));
    }
    Ok(())
}

/// Exchanges the digest of `encoded_spec` with every other member.
async fn agree_on_spec<N: Network>(net: &mut N, encoded_spec: &[u8]) -> Result<(), TinyTableJobError> {
    let digest = Sha256::digest(encoded_spec).to_vec();
    net.broadcast(&digest)?;
    let me = net.party();
    for peer in (0..net.parties()).filter(|&p| p != me) {
        if net.recv(peer).await? != digest {
            return Err(TinyTableJobError::SpecMismatch(peer));
        }
    }
    Ok(())
}

/// Steps 2 and 3 of the module docs for `instances` evaluations of `circuit`: the dealer deals,
/// the parties evaluate with `inputs` (one entry per instance; ignored at the dealer).
pub(crate) async fn run_instances<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    circuit: &Circuit,
    io: &IoSpec,
    instances: usize,
    inputs: &[Vec<Vec<bool>>],
    rng: &mut R,
) -> Result<(Vec<Outputs>, NetStats), TinyTableJobError> {
    let me = net.party();
    if me == DEALER {
        let mut dealer = TrustedDealer::new(&mut *rng);
        let [prep_0, prep_1] = dealer.binary_batch(circuit, io, instances)?;
        net.send(0, prep_codec::encode(&prep_0))?;
        net.send(1, prep_codec::encode(&prep_1))?;
        return Ok((Vec::new(), NetStats::default()));
    }
    let bad = |reason: String| TinyTableJobError::BadPreprocessing { party: me, reason };
    let preps: Vec<BinaryPrep> = prep_codec::decode(&net.recv(DEALER).await?).map_err(bad)?;
    if preps.len() != instances {
        return Err(bad(format!("{} instances dealt, the spec has {instances}", preps.len())));
    }
    let before = net.stats();
    let mut two = TwoPartyView::new(net);
    let outputs = evaluate_batch(&mut two, circuit, &preps, inputs).await?;
    Ok((outputs, net.stats().since(&before)))
}
