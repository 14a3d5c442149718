//! [`Preprocessing::Ot`] for the circuit jobs: the two parties make their own TinyTable material,
//! with no dealer (see the [trust model](super)).
//!
//! 1. [`OtTinyOt::setup`]: base OTs and OT extension in both directions between parties 0 and 1,
//!    under a session tag derived from the agreed spec digest ([`session_tag`]); each party's
//!    OT randomness is a fresh ChaCha20 stream seeded from the job's `rng`.
//! 2. Fig. 8 for every instance of the batch at once: [`fig8_binary`] (semi-honest; the
//!    per-instance [`crate::proto::tinytable::BinaryPrep`]s are then bit-sliced with
//!    [`SlicedPrep::from_instances`] for the same online engine the dealer's material feeds) or
//!    [`fig8_malicious`] (malicious).
//! 3. The online phase, exactly as with the dealer: [`evaluate_sliced`] or
//!    [`evaluate_malicious`].
//!
//! MAC widths: malicious jobs use the spec's [`MacBits`] for the TinyOT MACs, from which Fig. 8
//! derives the lookup MACs, so one `k` covers both; semi-honest jobs check the openings of their
//! preprocessing with k = 64 (the online phase of a semi-honest job has no MACs).
//!
//! Failures are typed: an OT step or check as [`TinyTableError::Preprocessing`] (naming it), a
//! Fig. 8 opening as [`TinyTableError::MacCheckFailed`]; no material is produced and no input is
//! used then.

use super::circuit::CircuitJobSpec;
use super::{JobError, MacBits, Preprocessing, Security};
use crate::net::{NetStats, Network};
use crate::proto::tinytable::circuit::online::{evaluate_sliced, Outputs};
use crate::proto::tinytable::sbox::prep::MaliciousAesPrep;
use crate::proto::tinytable::{
    evaluate_malicious, fig8_binary, fig8_malicious, BinaryPrep, MacWord, MaliciousPrep, OtTinyOt,
    SlicedPrep, TinyTableError,
};
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};
use zeroize::Zeroize;

/// The OT session tag of a job whose agreed spec digest is `digest`: both parties derive the same
/// tag, and jobs of different specs never share one.
pub fn session_tag(digest: &[u8]) -> Vec<u8> {
    [b"chorus/tinytable-job/ot-prep/".as_slice(), digest].concat()
}

/// This party's material for the instances of a batch, made over OT (step 2), in the form the
/// online engine of its security level takes. Material for many instances can be made ahead of
/// time and split by instances later ([`Material::take`], [`super::prepared`]).
pub(crate) enum Material {
    /// Semi-honest: one Fig. 8 [`BinaryPrep`] per instance (bit-sliced when evaluated).
    SemiHonest(Vec<BinaryPrep>),
    /// Malicious with k = 64.
    K64(MaliciousPrep<u64>),
    /// Malicious with k = 32.
    K32(MaliciousPrep<u32>),
    /// The AES S-box-table path's authenticated tables, one instance per block ([`super::sbox_ot`]).
    SboxTables(MaliciousAesPrep),
}

impl Material {
    /// Instances of material held.
    pub(crate) fn instances(&self) -> usize {
        match self {
            Material::SemiHonest(preps) => preps.len(),
            Material::K64(prep) => prep.instances(),
            Material::K32(prep) => prep.instances(),
            Material::SboxTables(prep) => prep.blocks(),
        }
    }

    /// Removes the first `m` instances (at most all of them) and returns them as a batch.
    pub(crate) fn take(&mut self, m: usize) -> Result<Material, JobError> {
        Ok(match self {
            Material::SemiHonest(preps) => {
                if m == 0 || m > preps.len() {
                    return Err(JobError::Internal("took more prepared instances than there are"));
                }
                Material::SemiHonest(preps.drain(..m).collect())
            }
            Material::K64(prep) => Material::K64(prep.split_front(m)?),
            Material::K32(prep) => Material::K32(prep.split_front(m)?),
            Material::SboxTables(prep) => Material::SboxTables(prep.split_front(m).map_err(|reason| {
                JobError::TinyTable(TinyTableError::PrepMismatch { party: prep.party(), reason })
            })?),
        })
    }
}

/// Steps 1–3 of the module docs as party 0 or 1 of a two-member session (checked by the caller).
/// Returns the outputs and this party's online communication.
pub(crate) async fn run_instances<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitJobSpec,
    digest: &[u8],
    inputs: &[Vec<Vec<bool>>],
    rng: &mut R,
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let material = make(net, spec, digest, rng).await?;
    evaluate(net, spec, material, inputs).await
}

/// Steps 1 and 2: this party's material for the `spec.instances` instances of `spec`, made with
/// the peer over OT under the session tag of `digest`.
pub(crate) async fn make<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitJobSpec,
    digest: &[u8],
    rng: &mut R,
) -> Result<Material, JobError> {
    debug_assert_eq!(spec.preprocessing, Preprocessing::Ot);
    let session = session_tag(digest);
    let (circuit, io, n) = (&spec.circuit, &spec.io, spec.instances);
    Ok(match (spec.security, spec.mac_bits) {
        (Security::SemiHonest, _) => {
            let mut source = setup::<N, R, u64>(net, &session, rng).await?;
            Material::SemiHonest(fig8_binary(net, &mut source, circuit, io, n).await?)
        }
        (Security::Malicious, MacBits::K64) => {
            let mut source = setup::<N, R, u64>(net, &session, rng).await?;
            Material::K64(fig8_malicious(net, &mut source, circuit, io, n).await?)
        }
        (Security::Malicious, MacBits::K32) => {
            let mut source = setup::<N, R, u32>(net, &session, rng).await?;
            Material::K32(fig8_malicious(net, &mut source, circuit, io, n).await?)
        }
    })
}

/// Step 3: the online phase of `spec` on `material` (which must hold `spec.instances` instances
/// of material made for `spec`'s circuit, inputs, outputs and security).
pub(crate) async fn evaluate<N: Network>(
    net: &mut N,
    spec: &CircuitJobSpec,
    material: Material,
    inputs: &[Vec<Vec<bool>>],
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    if material.instances() != spec.instances {
        return Err(JobError::Internal("prepared material of another batch size"));
    }
    let circuit = &spec.circuit;
    let before = net.stats();
    let outputs = match material {
        Material::SemiHonest(preps) => {
            let prep = SlicedPrep::from_instances(circuit, &preps)?;
            drop(preps);
            evaluate_sliced(net, circuit, &prep, inputs).await?
        }
        Material::K64(prep) => evaluate_malicious(net, circuit, &prep, inputs).await?,
        Material::K32(prep) => evaluate_malicious(net, circuit, &prep, inputs).await?,
        Material::SboxTables(_) => return Err(JobError::Internal("S-box tables prepared for a circuit job")),
    };
    Ok((outputs, net.stats().since(&before)))
}

/// Step 1, with this party's own OT randomness drawn from `rng`.
pub(super) async fn setup<N: Network, R: RngCore + CryptoRng, M: MacWord>(
    net: &mut N,
    session: &[u8],
    rng: &mut R,
) -> Result<OtTinyOt<M>, TinyTableError> {
    let mut seed = [0u8; 32];
    rng.fill_bytes(&mut seed);
    let own = ChaCha20Rng::from_seed(seed);
    seed.zeroize();
    OtTinyOt::setup(net, session, own).await
}
