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
use crate::proto::tinytable::{
    evaluate_malicious, fig8_binary, fig8_malicious, MacWord, OtTinyOt, SlicedPrep, TinyTableError,
};
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};
use zeroize::Zeroize;

/// The OT session tag of a job whose agreed spec digest is `digest`: both parties derive the same
/// tag, and jobs of different specs never share one.
pub fn session_tag(digest: &[u8]) -> Vec<u8> {
    [b"chorus/tinytable-job/ot-prep/".as_slice(), digest].concat()
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
    debug_assert_eq!(spec.preprocessing, Preprocessing::Ot);
    let session = session_tag(digest);
    let (circuit, io, n) = (&spec.circuit, &spec.io, spec.instances);
    match (spec.security, spec.mac_bits) {
        (Security::SemiHonest, _) => {
            let mut source = setup::<N, R, u64>(net, &session, rng).await?;
            let preps = fig8_binary(net, &mut source, circuit, io, n).await?;
            drop(source);
            let prep = SlicedPrep::from_instances(circuit, &preps)?;
            drop(preps);
            let before = net.stats();
            let outputs = evaluate_sliced(net, circuit, &prep, inputs).await?;
            Ok((outputs, net.stats().since(&before)))
        }
        (Security::Malicious, MacBits::K64) => {
            run_malicious::<N, R, u64>(net, spec, &session, inputs, rng).await
        }
        (Security::Malicious, MacBits::K32) => {
            run_malicious::<N, R, u32>(net, spec, &session, inputs, rng).await
        }
    }
}

async fn run_malicious<N: Network, R: RngCore + CryptoRng, M: MacWord>(
    net: &mut N,
    spec: &CircuitJobSpec,
    session: &[u8],
    inputs: &[Vec<Vec<bool>>],
    rng: &mut R,
) -> Result<(Vec<Outputs>, NetStats), JobError> {
    let mut source = setup::<N, R, M>(net, session, rng).await?;
    let prep = fig8_malicious(net, &mut source, &spec.circuit, &spec.io, spec.instances).await?;
    drop(source);
    let before = net.stats();
    let outputs = evaluate_malicious(net, &spec.circuit, &prep, inputs).await?;
    Ok((outputs, net.stats().since(&before)))
}

/// Step 1, with this party's own OT randomness drawn from `rng`.
async fn setup<N: Network, R: RngCore + CryptoRng, M: MacWord>(
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
