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
//!   [`JobError::TinyTable`] holding [`TinyTableError::Preprocessing`] (an OT step or
//!   check, named) or [`TinyTableError::MacCheckFailed`] (a Fig. 8 opening), before any input is
//!   used. On [`aes::AesPath::SboxTables`] the parties build the S-box tables with the §4
//!   construction over the same TinyOT bits and triples ([`sbox_ot`]), every opening MAC-checked
//!   likewise ([`TinyTableError::AuthenticationFailed`] names the construction round).
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
//!   honest party's job fails with [`JobError::TinyTable`] holding
//!   [`TinyTableError::MacCheckFailed`] (naming the check) or
//!   [`TinyTableError::AuthenticationFailed`] (naming the step); see
//!   [`JobError::failed_check`]. Masked inputs are not authenticated (changing them is
//!   input substitution, allowed by the ideal functionality);
//! - the relay sees only encrypted frames, as for every job.
//!
//! # Steps
//! 1. Every member sends the others a SHA-256 digest of the encoded spec (for circuits, including
//!    the digest of the circuit's Bristol text); any difference aborts with
//!    [`JobError::SpecMismatch`].
//! 2. Preprocessing for every instance at once. OT ([`ot_prep`]): both parties set up OT
//!    extension in both directions (session tag from the spec digest), then run Fig. 8 for the
//!    whole batch; semi-honest material is converted to the bit-sliced
//!    [`crate::proto::tinytable::SlicedPrep`]. Dealer: the dealer sends party `p` its material
//!    ([`prep_codec`], [`aes_prep_codec`]): bit-sliced `SlicedPrep` (semi-honest),
//!    [`MaliciousPrep`] with `u64` or `u32` strings (malicious), or S-box tables.
//! 3. Parties 0 and 1 evaluate all instances at once over the two-party view
//!    ([`crate::jobs::view::TwoPartyView`]) of the session: [`evaluate_sliced`] or [`evaluate_malicious`] (the
//!    plug-in point is `run_instances`), or the S-box-table protocols ([`aes`]).
//!
//! Outputs report this member's communication for the whole job (`stats`) and for the online
//! phase alone (`online_stats`); their difference is agreement plus preprocessing.

pub mod aes;
pub mod aes_prep_codec;
pub mod circuit;
pub mod ot_prep;
pub mod prep_codec;
pub mod prepared;
pub mod sbox_ot;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_malicious;
#[cfg(test)]
mod tests_ot;
#[cfg(test)]
mod tests_prepared;
#[cfg(test)]
mod tests_sbox_ot;
#[cfg(test)]
mod tests_sbox_shared;

use super::aes::JobPhase;
use super::agreement::agree_on_spec;
use super::error::JobError;
pub use super::options::MacBits;
pub use super::preprocessing::{Preprocessing, DEALER, MEMBERS};
pub use super::security::Security;
use crate::aes::Direction;
use crate::circuit::Circuit;
use crate::jobs::view::TwoPartyView;
use crate::net::{NetStats, Network, PartyId};
use crate::proto::tinytable::circuit::online::{evaluate_sliced, Outputs};
use crate::proto::tinytable::{
    evaluate_malicious, IoSpec, MacWord, MaliciousPrep, TinyTableError, TrustedDealer,
};
use circuit::CircuitJobSpec;
use rand_core::{CryptoRng, RngCore};

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

/// Checks the session size the spec's preprocessing needs.
fn check_common<N: Network>(net: &N, preprocessing: Preprocessing) -> Result<(), JobError> {
    if net.parties() != preprocessing.members() {
        return Err(JobError::WrongSessionSize { protocol: "TinyTable", preprocessing, got: net.parties() });
    }
    Ok(())
}

/// Steps 2 and 3 of the module docs for the instances of `spec`, after agreement on `digest`:
/// the parties evaluate with `inputs` (one entry per instance; empty at the dealer). Returns the
/// outputs and this member's online communication. Over OT the instances stream in chunks
/// ([`ot_prep`]), `observe` hearing of each; the dealer deals the whole job at once.
pub(crate) async fn run_instances<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitJobSpec,
    digest: &[u8],
    inputs: &[Vec<Vec<bool>>],
    rng: &mut R,
    observe: &mut impl FnMut(JobPhase),
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    if spec.preprocessing == Preprocessing::Ot {
        return ot_prep::run_instances(net, spec, digest, inputs, rng, observe).await;
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
) -> Result<(Vec<Outputs>, NetStats), JobError> {
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
) -> Result<Option<P>, JobError> {
    let me = net.party();
    if me == DEALER {
        let [to_0, to_1] = deal(&mut TrustedDealer::new(rng))?;
        net.send(0, to_0)?;
        net.send(1, to_1)?;
        return Ok(None);
    }
    let bytes = net.recv(DEALER).await?;
    decode(&bytes).map(Some).map_err(|reason| JobError::BadPreprocessing { party: me, reason })
}

/// Checks the dealt instance count against the spec's.
pub(crate) fn check_instances(party: PartyId, dealt: usize, expected: usize) -> Result<(), JobError> {
    if dealt != expected {
        return Err(JobError::BadPreprocessing {
            party,
            reason: format!("{dealt} instances dealt, the spec has {expected}"),
        });
    }
    Ok(())
}

/// Checks that S-box-table material was made for the spec's direction (tables of S⁻¹ decrypt,
/// tables of S encrypt; using the other would give a wrong output under valid MACs).
pub(crate) fn check_direction(party: PartyId, made: Direction, expected: Direction) -> Result<(), JobError> {
    if made != expected {
        return Err(JobError::BadPreprocessing {
            party,
            reason: format!("S-box tables made to {}, the spec says {}", made.name(), expected.name()),
        });
    }
    Ok(())
}
