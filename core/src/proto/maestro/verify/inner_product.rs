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
//! products and reduces once (MAESTRO §4).
//!
//! **Passes over memory.** The log is lifted block by block ([`TripleLog::lift_next`]) straight
//! into the combination, which also accumulates the first halving's evaluations; every fold runs
//! in place and accumulates the next halving's evaluations as it writes — one pass per level.
//!
//! Soundness error at most (N + 2 log N)/2^64 (Theorem 2.3, with the powers of one coin).

use super::coin::toss;
use super::rss64::{local_product, mul, open, random, reshare, Rss64};
use super::triples::TripleLog;
use super::view::PublicView;
use crate::field::clmul::Backend;
use crate::field::Gf64;
use crate::net::Network;
use crate::proto::maestro::error::{MaestroError, Step};
use crate::proto::maestro::online::Party;

/// The local arithmetic of Protocol 2, written once over a [`Backend`]. With the hardware
/// backend the loops are compiled with PCLMULQDQ enabled (see `Kernels`), so the backend's
/// carry-less product inlines into them instead of being a call per product.
///
/// Each pass over memory does as much as it can: the combination (steps 1–2) lifts the log
/// block by block, multiplies by the powers of r and already accumulates the first halving's
/// h(1) and h(∞) while the block is in cache; each fold writes the halved vectors in place and
/// accumulates the next halving's h(1) and h(∞) from the values it just wrote.
mod kernels {
    use super::Rss64;
    use crate::field::clmul::Backend;
    use crate::field::Gf64;
    use crate::proto::maestro::verify::rss64::{local_product, mul, mul2};
    use crate::proto::maestro::verify::triples::{LiftCursor, LiftedBlock, TripleLog, BLOCK};

    /// This party's shares of one position (x_k, y_k) of the dot product being halved.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub(super) struct Element {
        pub(super) x: Rss64,
        pub(super) y: Rss64,
    }

    /// Unreduced additive shares of h(1) = Σ x₂ᵢ₊₁y₂ᵢ₊₁ and h(∞) = Σ (x₂ᵢ + x₂ᵢ₊₁)(y₂ᵢ + y₂ᵢ₊₁).
    #[derive(Clone, Copy, Debug, Default)]
    pub(super) struct Evaluations {
        pub(super) at_one: u128,
        pub(super) leading: u128,
    }

    /// Pairs whose products [`Evaluations::add_pairs`] hands to the backend's lazy inner product
    /// at once.
    pub(super) const PAIRS: usize = 32;

    impl Evaluations {
        /// Adds the pairs of `v` (even length): the operands of each sum's local products are
        /// gathered [`PAIRS`] pairs at a time for the backend's inner product, which accumulates
        /// unreduced (and, for the portable and wasm backends, unmasked) products.
        #[inline(always)]
        pub(super) fn add_pairs(&mut self, backend: Backend, v: &[Element]) {
            let mut operands = [[0u64; 2 * PAIRS]; 4];
            for pairs in v.chunks(2 * PAIRS) {
                let n = pairs.len() & !1;
                for (j, pair) in pairs.chunks_exact(2).enumerate() {
                    let (a, b) = (pair[0], pair[1]);
                    let (dx, dy) = (a.x + b.x, a.y + b.y);
                    // x_i(y_i + y_i+1) + x_i+1 y_i for b (h(1)) and a + b (h(∞)).
                    operands[0][2 * j] = b.x.first;
                    operands[1][2 * j] = b.y.first ^ b.y.second;
                    operands[0][2 * j + 1] = b.x.second;
                    operands[1][2 * j + 1] = b.y.first;
                    operands[2][2 * j] = dx.first;
                    operands[3][2 * j] = dy.first ^ dy.second;
                    operands[2][2 * j + 1] = dx.second;
                    operands[3][2 * j + 1] = dy.first;
                }
                self.at_one ^= backend.xor_sum_of_products64(&operands[0][..n], &operands[1][..n]);
                self.leading ^= backend.xor_sum_of_products64(&operands[2][..n], &operands[3][..n]);
            }
        }

        /// Pads an odd-length `v` of more than one element with a zero pair (whose partner's
        /// terms are added) and returns the reduced shares.
        #[inline(always)]
        pub(super) fn finish(mut self, backend: Backend, v: &mut Vec<Element>) -> [u64; 2] {
            if v.len() % 2 == 1 && v.len() > 1 {
                let last = v[v.len() - 1];
                self.leading ^= local_product(backend, last.x, last.y);
                v.push(Element::default());
            }
            [Gf64::reduce(self.at_one).0, Gf64::reduce(self.leading).0]
        }
    }

    /// The running random linear combination of Protocol 2 steps 1–2: x_k ← r^k x_k and the
    /// unreduced Σ r^k z_k, over the triples seen so far, with the first halving's
    /// evaluations of every complete pair.
    pub(super) struct Combination {
        pub(super) v: Vec<Element>,
        pub(super) z_first: u128,
        pub(super) z_second: u128,
        pub(super) power: u64,
        pub(super) r: u64,
        pub(super) evaluations: Evaluations,
        /// The powers sixteen at a time ([`super::simd128::PowerWindow`]) instead of the chains.
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        pub(super) window: Option<super::simd128::PowerWindow>,
    }

    impl Combination {
        pub(super) fn new(capacity: usize, r: u64) -> Self {
            Combination {
                v: Vec::with_capacity(capacity + 1),
                z_first: 0,
                z_second: 0,
                power: 1,
                r,
                evaluations: Evaluations::default(),
                #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
                window: None,
            }
        }

        /// The next `out.len()` powers of r. The chains advance as two interleaved ones
        /// (r^k, r^(k+1)) ← r²·(r^k, r^(k+1)), a pair of products per two powers.
        #[inline(always)]
        fn next_powers(&mut self, backend: Backend, out: &mut [u64]) {
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            if let Some(window) = &mut self.window {
                window.fill(out);
                return;
            }
            let r_squared = mul(backend, self.r, self.r);
            let mut pair = [self.power, mul(backend, self.power, self.r)];
            let mut pairs = out.chunks_exact_mut(2);
            for p in &mut pairs {
                p.copy_from_slice(&pair);
                pair = mul2(backend, pair, [r_squared, r_squared]);
            }
            if let [last] = pairs.into_remainder() {
                *last = pair[0];
                self.power = pair[1];
            } else {
                self.power = pair[0];
            }
        }

        /// The combined vectors (padded to even length), z reduced once per component, and
        /// this party's shares of the first halving's h(1), h(∞).
        #[inline(always)]
        pub(super) fn finish(self, backend: Backend) -> (Vec<Element>, Rss64, [u64; 2]) {
            let mut v = self.v;
            let z = Rss64 { first: Gf64::reduce(self.z_first).0, second: Gf64::reduce(self.z_second).0 };
            let evaluations = self.evaluations.finish(backend, &mut v);
            (v, z, evaluations)
        }
    }

    /// Adds a lifted block to the combination with the next powers of r (z as two lazy inner
    /// products with the block's powers).
    #[inline(always)]
    pub(super) fn combine(backend: Backend, acc: &mut Combination, block: &LiftedBlock) {
        let mut powers = [0u64; BLOCK];
        acc.next_powers(backend, &mut powers[..block.len]);
        let start = acc.v.len();
        acc.v.resize(start + block.len, Element::default());
        for (k, (out, &power)) in acc.v[start..].iter_mut().zip(&powers).enumerate() {
            let [first, second] = mul2(backend, [block.x[0][k], block.x[1][k]], [power, power]);
            *out = Element {
                x: Rss64 { first, second },
                y: Rss64 { first: block.y[0][k], second: block.y[1][k] },
            };
        }
        acc.z_first ^= backend.xor_sum_of_products64(&block.z[0][..block.len], &powers[..block.len]);
        acc.z_second ^= backend.xor_sum_of_products64(&block.z[1][..block.len], &powers[..block.len]);
        // Pairs are aligned to even positions of the whole vector.
        let from = start - start % 2;
        let to = acc.v.len() - acc.v.len() % 2;
        acc.evaluations.add_pairs(backend, &acc.v[from..to]);
    }

    /// Lifts the whole log block by block into the combination.
    #[inline(always)]
    pub(super) fn combine_log(backend: Backend, acc: &mut Combination, log: &TripleLog) {
        let (mut cursor, mut block) = (LiftCursor::default(), LiftedBlock::default());
        while log.lift_next(&mut cursor, &mut block) {
            combine(backend, acc, &block);
        }
    }

    /// a + r(a + b) for both components of x and y.
    #[inline(always)]
    pub(super) fn fold_one(backend: Backend, a: Element, b: Element, r: u64) -> Element {
        let (dx, dy) = (a.x + b.x, a.y + b.y);
        let [x_first, x_second] = mul2(backend, [dx.first, dx.second], [r, r]);
        let [y_first, y_second] = mul2(backend, [dy.first, dy.second], [r, r]);
        Element {
            x: Rss64 { first: a.x.first ^ x_first, second: a.x.second ^ x_second },
            y: Rss64 { first: a.y.first ^ y_first, second: a.y.second ^ y_second },
        }
    }

    /// The fold vᵢ ← v₂ᵢ + r(v₂ᵢ + v₂ᵢ₊₁) in place for x and y (even length in, halved out),
    /// then this party's shares of the next halving's h(1), h(∞) (padding an odd result).
    #[inline(always)]
    pub(super) fn fold(backend: Backend, v: &mut Vec<Element>, r: u64) -> [u64; 2] {
        let half = v.len() / 2;
        let mut evaluations = Evaluations::default();
        // Four in, two out: writes never overtake reads. The evaluations take the pairs just
        // written, [`PAIRS`] at a time.
        for pairs in (0..half / 2).step_by(PAIRS) {
            let end = (pairs + PAIRS).min(half / 2);
            for j in pairs..end {
                let out = [
                    fold_one(backend, v[4 * j], v[4 * j + 1], r),
                    fold_one(backend, v[4 * j + 2], v[4 * j + 3], r),
                ];
                v[2 * j] = out[0];
                v[2 * j + 1] = out[1];
            }
            evaluations.add_pairs(backend, &v[2 * pairs..2 * end]);
        }
        if half % 2 == 1 {
            v[half - 1] = fold_one(backend, v[2 * half - 2], v[2 * half - 1], r);
        }
        v.truncate(half);
        evaluations.finish(backend, v)
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;

/// Entry points to [`kernels`] for one backend, the one place the fast paths are selected: with
/// PCLMULQDQ the kernels are compiled with it enabled, and the combination (whose bulk lifts
/// vectorise across elements) also with AVX2 when the CPU has it; with wasm32 `simd128` the
/// folds multiply by their coin, and the combination's powers advance, through nibble tables of
/// the public factor (`simd128`).
#[derive(Clone, Copy, Debug)]
struct Kernels {
    backend: Backend,
    avx2: bool,
}

#[cfg(target_arch = "x86_64")]
mod pclmul;

impl Kernels {
    /// The fastest kernels for this CPU.
    fn detect() -> Self {
        let backend = Backend::detect();
        let avx2 = crate::arch::cpu().avx2;
        Kernels { backend, avx2 }
    }

    /// Every kernel choice usable on this CPU, portable first (for the cross-checks).
    #[cfg(test)]
    fn available() -> Vec<Self> {
        let detected = Self::detect();
        let mut all: Vec<Self> =
            Backend::available().into_iter().map(|backend| Kernels { backend, avx2: false }).collect();
        if detected.avx2 && detected.backend != Backend::Portable {
            all.push(detected);
        }
        all
    }

    /// Protocol 2 steps 1–2 on the whole log with the powers of `r` (lifted block by block),
    /// plus the first halving's local evaluations.
    fn combine_log(self, log: &TripleLog, r: u64) -> (Vec<kernels::Element>, Rss64, [u64; 2]) {
        let mut acc = kernels::Combination::new(log.len(), r);
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        if self.backend == Backend::Simd128 {
            acc.window = Some(simd128::PowerWindow::new(r));
        }
        match (self.backend, self.avx2) {
            // SAFETY: the `Pclmulqdq` backend only exists after detecting the CPU feature, and
            // `avx2` is only set after detecting AVX2.
            #[cfg(target_arch = "x86_64")]
            (Backend::Pclmulqdq, true) => unsafe { pclmul::combine_log_avx2(&mut acc, log) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            (Backend::Pclmulqdq, false) => unsafe { pclmul::combine_log(&mut acc, log) },
            (backend, _) => kernels::combine_log(backend, &mut acc, log),
        }
        acc.finish(self.backend)
    }

    fn fold(self, v: &mut Vec<kernels::Element>, r: u64) -> [u64; 2] {
        match self.backend {
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { pclmul::fold(v, r) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Backend::Simd128 => simd128::fold(v, r),
            backend => kernels::fold(backend, v, r),
        }
    }
}

/// Protocol 2's local passes on `log` without the network: the combination with the powers of
/// `r`, then one fold per coin in `coins`, with the detected kernels (or the portable ones).
/// Returns z, every level's local evaluations and the last level's elements, flattened — for
/// benchmarks of the verification's arithmetic and for [`self_check`].
pub fn local_passes(log: &TripleLog, r: u64, coins: &[u64], portable: bool) -> Vec<u64> {
    let kernels =
        if portable { Kernels { backend: Backend::Portable, avx2: false } } else { Kernels::detect() };
    let (mut v, z, mut local) = kernels.combine_log(log, r);
    let mut out = vec![z.first, z.second];
    for &c in coins {
        out.extend(local);
        if v.len() <= 1 {
            break;
        }
        local = kernels.fold(&mut v, c);
    }
    out.extend(v.iter().flat_map(|e| [e.x.first, e.x.second, e.y.first, e.y.second]));
    out
}

/// Cross-checks the detected verification kernels (and the bulk lifts of [`super::embed`])
/// against the portable ones on `cases` pseudo-random logs mixing every kind of entry, for
/// targets where `cargo test` cannot run (the WASM module under Node, `scripts/bench-wasm.mjs`);
/// the unit tests cover the same ground natively.
///
/// # Errors
/// The first mismatch, described.
pub fn self_check(cases: u32) -> Result<(), String> {
    super::embed::self_check()?;
    let mut rng = crate::rng::seeded_rng(0x1319_8a2e_0370_7344);
    let mut next = move || rand_core::RngCore::next_u64(&mut rng);
    for case in 0..cases {
        let mut sizes = [0usize; 6];
        for s in &mut sizes {
            *s = (next() % 300) as usize;
        }
        let log = TripleLog::pseudo_random(sizes, &mut next);
        if log.is_empty() {
            continue;
        }
        let r = next();
        let coins: Vec<u64> = (0..usize::BITS - log.len().leading_zeros()).map(|_| next()).collect();
        if local_passes(&log, r, &coins, false) != local_passes(&log, r, &coins, true) {
            return Err(format!(
                "verification kernels differ from the portable ones (case {case}, log {sizes:?})"
            ));
        }
    }
    Ok(())
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
    let kernels = Kernels::detect();
    let backend = kernels.backend;
    let r = toss(party, net, view).await?;
    let (mut v, mut z, mut local) = kernels.combine_log(log, r);
    while v.len() > 1 {
        let shares = reshare(party, net, &local, Step::Verification).await?;
        let (at_one, leading) = (shares[0], shares[1]);
        let r = toss(party, net, view).await?;
        let at_zero = z + at_one;
        let linear = at_zero + at_one + leading;
        z = at_zero + linear.scale(backend, r) + leading.scale(backend, mul(backend, r, r));
        local = kernels.fold(&mut v, r);
    }
    check_triple(party, net, view, backend, v[0].x, v[0].y, z).await
}

#[cfg(test)]
mod tests;
