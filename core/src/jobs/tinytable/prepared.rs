//! TinyTable's material made ahead of time ([`crate::jobs::prepared`]): a two-member session
//! makes Fig. 8 material over OT for `N` future instances, and later jobs of the same kind take
//! any number of its instances each.
//!
//! **Kind.** Fig. 8's material depends on the circuit, the owner of every input value, the
//! recipients of every output value, the security level and the MAC width ([`kind`]). An AES
//! job's instances are its blocks (on the circuit path its kind is that of the key-shared AES
//! circuit its spec derives); a circuit job's its evaluations. The AES S-box-table path's
//! material is its authenticated tables ([`super::sbox_ot`]), a kind of its own.
//!
//! **Trust model:** as for [`super::ot_prep`]: the material is made by the two parties alone with
//! every opening checked. Only OT material is made ahead: a dealer's session has three members
//! and its dealer deals per job.

use super::circuit::CircuitJobSpec;
use super::ot_prep::{self, Material};
use super::{check_common, JobError, Preprocessing};
use crate::jobs::prepared::{
    agree_to_prepare, kind_of, refuse_required, Plan, PrepareOutput, Prepared, PreparedUse, Stock,
};
use crate::net::Network;
use rand_core::{CryptoRng, RngCore};

/// Why a TinyTable job with the dealer uses no prepared material.
pub(crate) const DEALER_MAKES_NONE: &str =
    "TinyTable prepares material over OT only (a trusted dealer deals per job): use preprocessing 'ot'";

/// The digest of what a circuit job's material depends on (see the module docs).
pub(crate) fn kind(spec: &CircuitJobSpec) -> [u8; 32] {
    let blank = CircuitJobSpec { instances: 0, preprocessing: Preprocessing::Ot, ..spec.clone() };
    kind_of(b"tinytable/circuit", &blank.encode())
}

/// What a circuit job of `spec` consumes from `store` under `usage` (none with the dealer; an
/// error naming `usePrepared` if `usage` requires material and none fits).
pub(crate) fn plan(
    spec: &CircuitJobSpec,
    store: &Prepared,
    usage: PreparedUse,
) -> Result<Option<Plan>, JobError> {
    if spec.preprocessing != Preprocessing::Ot {
        refuse_required(usage, DEALER_MAKES_NONE)?;
        return Ok(None);
    }
    store.plan(|| kind(spec), spec.instances, usage)
}

/// Whether a circuit job of `spec` consumes prepared material under `usage`.
pub fn uses(spec: &CircuitJobSpec, store: &Prepared, usage: PreparedUse) -> Result<bool, JobError> {
    Ok(plan(spec, store, usage)?.is_some())
}

/// The estimated bytes of one instance of `spec`'s material as held
/// ([`ot_prep::bytes_per_instance`]); a preparation is made in chunks whose working memory has a
/// bound of its own ([`ot_prep::making_chunk_size`]).
fn bytes_per_instance(spec: &CircuitJobSpec) -> usize {
    ot_prep::bytes_per_instance(spec)
}

/// Checks that `spec.instances` instances of `spec`'s material fit `store`'s bound.
pub(crate) fn check_room(
    spec: &CircuitJobSpec,
    store: &Prepared,
    field: &'static str,
) -> Result<(), JobError> {
    store.check_room(spec.instances.saturating_mul(bytes_per_instance(spec)), field)
}

/// Makes material for `spec.instances` future instances of the kind of `spec` (whose
/// preprocessing must be OT, in a two-member session) and adds it to `store` (`field` names the
/// spec field of the count). `agreed` are the bytes of the job spec both members agree on; the
/// preparation agrees on them under its own tag.
pub(crate) async fn prepare<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitJobSpec,
    agreed: &[u8],
    rng: &mut R,
    (store, field): (&mut Prepared, &'static str),
) -> Result<PrepareOutput, JobError> {
    check_preparable(spec.preprocessing)?;
    check_common(net, spec.preprocessing)?;
    spec.validate()?;
    check_room(spec, store, field)?;
    let start = net.stats();
    let digest = agree_to_prepare(net, agreed).await?;
    let material = ot_prep::make(net, spec, &digest, rng).await?;
    let stock = Stock::per_instance(material, bytes_per_instance(spec));
    Ok(store.add(kind(spec), &digest, stock, net.stats().since(&start)))
}

/// Only OT material is made ahead: a dealer's session has three members and its dealer deals
/// per job.
pub(crate) fn check_preparable(preprocessing: Preprocessing) -> Result<(), JobError> {
    if preprocessing != Preprocessing::Ot {
        return Err(JobError::not_available("preprocessing", DEALER_MAKES_NONE));
    }
    Ok(())
}

/// The online phase of a job on the prepared instances of `plan` (agreed by both members).
pub(crate) async fn evaluate<N: Network>(
    net: &mut N,
    spec: &CircuitJobSpec,
    plan: &Plan,
    store: &mut Prepared,
    inputs: &[Vec<Vec<bool>>],
) -> Result<(Vec<crate::proto::tinytable::circuit::online::Outputs>, crate::net::NetStats), JobError> {
    let material: Material = store.take(plan)?.into_material()?;
    ot_prep::evaluate(net, spec, material, inputs).await
}
