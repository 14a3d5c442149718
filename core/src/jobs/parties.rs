//! Sessions in which every member computes: MiniMac and Coral over OT, and TinyOT, among 2 to
//! [`MAX_OT_PARTIES`] members (the n-party TinyOT's bound, [`crate::ot::multi::MAX_PARTIES`]).
//! Their specs name roles up to that bound; the session's size is checked against them when a
//! job starts ([`check_parties`], [`check_aes_parties`]), so one spec runs in sessions of any
//! size that holds its roles. Beside a dealer, parties 0 and 1 compute ([`computing`]).

use super::aes::AesSpec;
use super::circuit::{check_io, CircuitSpec};
use super::error::JobError;
use super::preprocessing::Preprocessing;
use crate::proto::tinytable::Reveal;

/// Most members of a session in which every member computes.
pub const MAX_OT_PARTIES: usize = crate::ot::multi::MAX_PARTIES;

/// Checks an AES spec's roles for `protocol` over OT: within the largest session, the ciphertext
/// to one party or to parties `0..m` in order (the run checks that `m` is the session's size).
pub(crate) fn validate_aes_roles(spec: &AesSpec, protocol: &str) -> Result<(), JobError> {
    let to = &spec.reveal_to;
    let all = to.len() >= 2 && to.iter().copied().eq(0..to.len());
    let one = AesSpec { reveal_to: if all { vec![0] } else { to.clone() }, ..spec.clone() };
    one.check_roles(protocol, MAX_OT_PARTIES)
}

/// Checks a circuit spec's owners and recipients over OT: any party up to [`MAX_OT_PARTIES`] (the
/// run checks them against the session).
pub(crate) fn validate_circuit_io(spec: &CircuitSpec) -> Result<(), JobError> {
    if spec.instances == 0 {
        return Err(JobError::invalid_spec("instances", "instances must be at least 1"));
    }
    let widths = (spec.circuit.input_widths().len(), spec.circuit.output_widths().len());
    check_io(&spec.io, widths.0, widths.1, MAX_OT_PARTIES)
}

/// Checks a session whose size the preprocessing fixes (beside the dealer): exactly
/// [`Preprocessing::members`].
fn check_fixed(protocol: &'static str, parties: usize, preprocessing: Preprocessing) -> Result<(), JobError> {
    if parties != preprocessing.members() {
        return Err(JobError::WrongSessionSize { protocol, preprocessing, got: parties });
    }
    Ok(())
}

/// Checks the session of an AES job of `protocol`: over OT every member computes
/// ([`check_aes_parties`]), beside the dealer its fixed size ([`check_fixed`]).
pub(crate) fn check_aes_session(
    spec: &AesSpec,
    protocol: &'static str,
    preprocessing: Preprocessing,
    parties: usize,
) -> Result<(), JobError> {
    match preprocessing {
        Preprocessing::Ot => check_aes_parties(spec, protocol, parties),
        Preprocessing::Dealer => check_fixed(protocol, parties, preprocessing),
    }
}

/// Checks the session of a circuit job of `protocol`: over OT every member computes
/// ([`check_parties`]), beside the dealer its fixed size ([`check_fixed`]).
pub(crate) fn check_circuit_session(
    spec: &CircuitSpec,
    protocol: &'static str,
    parties: usize,
) -> Result<(), JobError> {
    match spec.protocol.preprocessing() {
        Preprocessing::Ot => check_parties(protocol, parties, &spec.io.input_owners, &spec.io.reveal),
        preprocessing => check_fixed(protocol, parties, preprocessing),
    }
}

/// Checks a session of `parties` members, every one computing, for an AES spec of `protocol`.
pub(crate) fn check_aes_parties(spec: &AesSpec, protocol: &str, parties: usize) -> Result<(), JobError> {
    check_parties(protocol, parties, &[], &[])?;
    spec.check_roles(protocol, parties)
}

/// Checks a session of `parties` members for a `protocol` job over OT (every member computes)
/// whose inputs `owners` own and whose outputs go as `reveal` says.
pub(crate) fn check_parties(
    protocol: &str,
    parties: usize,
    owners: &[usize],
    reveal: &[Reveal],
) -> Result<(), JobError> {
    if !(2..=MAX_OT_PARTIES).contains(&parties) {
        return Err(JobError::invalid_spec(
            "parties",
            format!("{protocol} over OT runs among 2 to {MAX_OT_PARTIES} parties, the session has {parties}"),
        ));
    }
    if let Some(p) = owners.iter().find(|&&p| p >= parties) {
        return Err(JobError::invalid_spec(
            "inputOwners",
            format!("inputOwners names party {p}, the session has {parties} parties"),
        ));
    }
    if let Some(p) = reveal.iter().find_map(|r| match *r {
        Reveal::To(p) if p >= parties => Some(p),
        _ => None,
    }) {
        return Err(JobError::invalid_spec(
            "reveal",
            format!("reveal names party {p}, the session has {parties} parties"),
        ));
    }
    Ok(())
}

/// The parties that compute in a session of `members` with `preprocessing`: every member over OT,
/// parties 0 and 1 beside the dealer.
pub(crate) fn computing(members: usize, preprocessing: Preprocessing) -> usize {
    match preprocessing {
        Preprocessing::Ot => members,
        Preprocessing::Dealer => 2,
    }
}
