//! Batch verification of multiplication triples (MAESTRO §2.7): Protocol 2 (random linear
//! combination of all triples into one inner product, then recursive halving with weak dot
//! products) ending in Protocol 1 (CheckTriple with the re-randomising multiplication by a random
//! ⟦r⟧, so only the check bit is revealed — 𝓕_verify of Fig. 3).
//!
//! Steps and cost per party for N triples (n = ⌈log₂ N⌉ halvings; every message goes to one
//! neighbour, except the final hash comparison):
//!
//! | step | rounds | bytes |
//! |---|---|---|
//! | coin r, combine x_k ← r^k x_k, z ← Σ r^k z_k (Protocol 2 step 1–2) | 1 | 8 |
//! | each halving: reshare h(1) and h(∞); coin | 2 | 16 + 8 |
//! | Protocol 1: weakMult z' = x'y; coin t; open ρ; weakMult σ; open σ | 5 | 40 |
//! | hash comparison of all openings ([`super::view`]) | 1 | 64 |
//!
//! i.e. 2n + 7 rounds and 24n + 112 bytes per party — O(log N) rounds on top of the online
//! phase.
//!
//! **Halving.** With fᵢ(X) = x₂ᵢ + (x₂ᵢ + x₂ᵢ₊₁)X and gᵢ likewise, h(X) = Σ fᵢ(X)gᵢ(X) has degree
//! 2 and h(0) + h(1) = z. Protocol 2 reshares h(1) and h(2); we reshare h(1) and the leading
//! coefficient h(∞) = Σ (x₂ᵢ + x₂ᵢ₊₁)(y₂ᵢ + y₂ᵢ₊₁) instead — any two further evaluations
//! determine h with h(0) = z − h(1), and this choice needs no multiplication by the point 2 and no
//! Lagrange weights: h(r) = h(0) + (h(0) + h(1) + h(∞))·r + h(∞)·r². Odd lengths are padded
//! with a zero pair.
//!
//! **Lazy reduction.** Each local inner product XOR-accumulates unreduced 128-bit carry-less
//! products and reduces once (MAESTRO §4); each halving makes one pass over the vectors to
//! accumulate and one to fold.
//!
//! Soundness error at most (N + 2 log N)/2^64 (Theorem 2.3, with the powers of one coin).

use super::coin::toss;
use super::rss64::{local_product, mul, open, random, reshare, Rss64};
use super::triples::Triple64;
use super::triples::TripleLog;
use super::view::PublicView;
use crate::field::clmul::Backend;
use crate::field::Gf64;
use crate::net::Network;
use crate::proto::maestro::error::{MaestroError, Step};
use crate::proto::maestro::online::Party;

/// Shares of two GF(2^64) vectors (x, y), component-wise, with z = x · y claimed.
struct DotProduct {
    x: Vec<Rss64>,
    y: Vec<Rss64>,
    z: Rss64,
}

/// The local arithmetic of Protocol 2, written once over a [`Backend`]. With the hardware
/// backend the loops are compiled with PCLMULQDQ enabled (see `Kernels`), so the backend's
/// carry-less product inlines into them instead of being a call per product.
mod kernels {
    use super::{DotProduct, Rss64};
    use crate::field::clmul::Backend;
    use crate::field::Gf64;
    use crate::proto::maestro::verify::rss64::{local_product, mul};
    use crate::proto::maestro::verify::triples::Triple64;

    /// The running random linear combination of Protocol 2 steps 1–2: x_k ← r^k x_k and the
    /// unreduced Σ r^k z_k, over the triples seen so far.
    pub(super) struct Combination {
        pub(super) x: Vec<Rss64>,
        pub(super) y: Vec<Rss64>,
        z_first: u128,
        z_second: u128,
        power: u64,
    }

    impl Combination {
        pub(super) fn new(capacity: usize) -> Self {
            let (x, y) = (Vec::with_capacity(capacity + 1), Vec::with_capacity(capacity + 1));
            Combination { x, y, z_first: 0, z_second: 0, power: 1 }
        }

        /// The combined dot product, reducing z once per component.
        pub(super) fn finish(self) -> DotProduct {
            let z = Rss64 { first: Gf64::reduce(self.z_first).0, second: Gf64::reduce(self.z_second).0 };
            DotProduct { x: self.x, y: self.y, z }
        }
    }

    /// Adds `triples` to the combination with the next powers of `r`.
    #[inline(always)]
    pub(super) fn combine(backend: Backend, acc: &mut Combination, triples: &[Triple64], r: u64) {
        let mut power = acc.power;
        for t in triples {
            acc.x.push(Rss64 { first: mul(backend, t.x.first, power), second: mul(backend, t.x.second, power) });
            acc.y.push(t.y);
            acc.z_first ^= backend.clmul64(t.z.first, power);
            acc.z_second ^= backend.clmul64(t.z.second, power);
            power = mul(backend, power, r);
        }
        acc.power = power;
    }

    /// This party's additive shares of h(1) = Σ x₂ᵢ₊₁y₂ᵢ₊₁ and
    /// h(∞) = Σ (x₂ᵢ + x₂ᵢ₊₁)(y₂ᵢ + y₂ᵢ₊₁), each reduced once.
    #[inline(always)]
    pub(super) fn evaluations(backend: Backend, x: &[Rss64], y: &[Rss64]) -> [u64; 2] {
        let (mut at_one, mut leading) = (0u128, 0u128);
        for (xp, yp) in x.chunks_exact(2).zip(y.chunks_exact(2)) {
            at_one ^= local_product(backend, xp[1], yp[1]);
            leading ^= local_product(backend, xp[0] + xp[1], yp[0] + yp[1]);
        }
        [Gf64::reduce(at_one).0, Gf64::reduce(leading).0]
    }

    /// vᵢ ← v₂ᵢ + r(v₂ᵢ + v₂ᵢ₊₁) in place for both vectors, halving their length.
    #[inline(always)]
    pub(super) fn fold(backend: Backend, x: &mut Vec<Rss64>, y: &mut Vec<Rss64>, r: u64) {
        for v in [x, y] {
            let half = v.len() / 2;
            for i in 0..half {
                let (a, b) = (v[2 * i], v[2 * i + 1]);
                let d = a + b;
                v[i] = Rss64 {
                    first: a.first ^ mul(backend, d.first, r),
                    second: a.second ^ mul(backend, d.second, r),
                };
            }
            v.truncate(half);
        }
    }
}

/// Triples lifted at a time (48 bytes each: a chunk stays in the L1/L2 cache).
const LIFT_CHUNK: usize = 512;

/// Entry points to [`kernels`] for one backend.
#[derive(Clone, Copy)]
struct Kernels(Backend);

#[cfg(target_arch = "x86_64")]
mod pclmul {
    use super::kernels::{self, Combination};
    use super::Rss64;
    use crate::field::clmul::Backend;
    use crate::proto::maestro::verify::triples::Triple64;

    // SAFETY (all three): callers only reach these after `Backend::detect` found PCLMULQDQ.
    #[target_feature(enable = "pclmulqdq")]
    pub(super) unsafe fn combine(acc: &mut Combination, triples: &[Triple64], r: u64) {
        kernels::combine(Backend::Pclmulqdq, acc, triples, r)
    }

    #[target_feature(enable = "pclmulqdq")]
    pub(super) unsafe fn evaluations(x: &[Rss64], y: &[Rss64]) -> [u64; 2] {
        kernels::evaluations(Backend::Pclmulqdq, x, y)
    }

    #[target_feature(enable = "pclmulqdq")]
    pub(super) unsafe fn fold(x: &mut Vec<Rss64>, y: &mut Vec<Rss64>, r: u64) {
        kernels::fold(Backend::Pclmulqdq, x, y, r)
    }
}

impl Kernels {
    fn combine(self, acc: &mut kernels::Combination, triples: &[Triple64], r: u64) {
        match self.0 {
            // SAFETY: the `Pclmulqdq` backend only exists after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { pclmul::combine(acc, triples, r) },
            backend => kernels::combine(backend, acc, triples, r),
        }
    }

    /// Lifts the log chunk by chunk (cache-sized) into the combination with powers of `r`.
    fn combine_log(self, log: &TripleLog, r: u64) -> DotProduct {
        let mut acc = kernels::Combination::new(log.len());
        log.lift_chunks(LIFT_CHUNK, |chunk| self.combine(&mut acc, chunk, r));
        acc.finish()
    }

    fn evaluations(self, x: &[Rss64], y: &[Rss64]) -> [u64; 2] {
        match self.0 {
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { pclmul::evaluations(x, y) },
            backend => kernels::evaluations(backend, x, y),
        }
    }

    fn fold(self, x: &mut Vec<Rss64>, y: &mut Vec<Rss64>, r: u64) {
        match self.0 {
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { pclmul::fold(x, y, r) },
            backend => kernels::fold(backend, x, y, r),
        }
    }
}

/// Protocol 1 (CheckTriple) on the final triple; returns the opened σ (0 iff the check passes).
async fn check_triple<N: Network>(
    party: &mut Party,
    net: &mut N,
    view: &mut PublicView,
    backend: Backend,
    x: Rss64,
    y: Rss64,
    z: Rss64,
) -> Result<u64, MaestroError> {
    let step = Step::Verification;
    let randoms = random(party, 2);
    let (x_prime, r) = (randoms[0], randoms[1]);
    let z_prime = reshare(party, net, &[Gf64::reduce(local_product(backend, x_prime, y)).0], step).await?[0];
    let t = toss(party, net, view).await?;
    let rho = open(party, net, view, &[x + x_prime.scale(backend, t)], step).await?[0];
    // z + t z' − ρ y = (z − xy) + t(z' − x'y), re-randomised by r before opening.
    let difference = z + z_prime.scale(backend, t) + y.scale(backend, rho);
    let sigma = reshare(party, net, &[Gf64::reduce(local_product(backend, difference, r)).0], step).await?[0];
    Ok(open(party, net, view, &[sigma], step).await?[0])
}

/// Verifies every triple in `log` (Protocol 2), then compares the hashes of all openings so far
/// ([`PublicView::compare`]). Fails with [`MaestroError::OpeningMismatch`] if any opening was
/// inconsistent, else with [`MaestroError::VerificationFailed`] if a product was wrong. An empty
/// log only compares the view.
pub async fn verify_log<N: Network>(
    party: &mut Party,
    net: &mut N,
    view: &mut PublicView,
    log: &TripleLog,
) -> Result<(), MaestroError> {
    let sigma = if log.is_empty() { 0 } else { verify_triples(party, net, view, log).await? };
    view.compare(net).await?;
    if sigma == 0 {
        Ok(())
    } else {
        Err(MaestroError::VerificationFailed)
    }
}

/// Protocol 2 on a non-empty log; returns Protocol 1's opened σ.
async fn verify_triples<N: Network>(
    party: &mut Party,
    net: &mut N,
    view: &mut PublicView,
    log: &TripleLog,
) -> Result<u64, MaestroError> {
    let backend = Backend::detect();
    let kernels = Kernels(backend);
    let r = toss(party, net, view).await?;
    let DotProduct { mut x, mut y, mut z } = kernels.combine_log(log, r);
    while x.len() > 1 {
        if x.len() % 2 == 1 {
            x.push(Rss64::default());
            y.push(Rss64::default());
        }
        let local = kernels.evaluations(&x, &y);
        let shares = reshare(party, net, &local, Step::Verification).await?;
        let (at_one, leading) = (shares[0], shares[1]);
        let r = toss(party, net, view).await?;
        let at_zero = z + at_one;
        let linear = at_zero + at_one + leading;
        z = at_zero + linear.scale(backend, r) + leading.scale(backend, mul(backend, r, r));
        kernels.fold(&mut x, &mut y, r);
    }
    check_triple(party, net, view, backend, x[0], y[0], z).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    /// Every available backend's kernels agree with the portable ones.
    #[test]
    fn kernels_agree_on_every_backend() {
        let mut rng = ChaCha20Rng::seed_from_u64(90);
        let mut share = || Rss64 { first: rng.next_u64(), second: rng.next_u64() };
        let triples: Vec<Triple64> = (0..101).map(|_| Triple64 { x: share(), y: share(), z: share() }).collect();
        let r = 0x0123_4567_89ab_cdef;
        let reference = Kernels(Backend::Portable);
        for backend in Backend::available() {
            let kernels = Kernels(backend);
            let combined = |k: Kernels| {
                let mut acc = kernels::Combination::new(0);
                k.combine(&mut acc, &triples[..40], r);
                k.combine(&mut acc, &triples[40..], r);
                acc.finish()
            };
            let (a, b) = (combined(reference), combined(kernels));
            assert_eq!((&a.x, &a.y, a.z), (&b.x, &b.y, b.z));
            let (mut x, mut y) = (a.x[..100].to_vec(), a.y[..100].to_vec());
            assert_eq!(reference.evaluations(&x, &y), kernels.evaluations(&x, &y));
            let (mut x2, mut y2) = (x.clone(), y.clone());
            reference.fold(&mut x, &mut y, r);
            kernels.fold(&mut x2, &mut y2, r);
            assert_eq!((x, y), (x2, y2));
        }
    }
}
