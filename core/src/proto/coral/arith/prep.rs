//! Spdz2k preprocessing material: the MAC key share, multiplication triples, input masks and
//! output masks ([`ArithMaterial`]), and the **trusted-dealer** provider ([`ArithDealer`]).
//!
//! **Trust model of the dealer:** one honest machine that knows α and every secret samples the
//! material (Spdz2k's F_Prep played by a third party) and hands each party its shares; the
//! online phase's malicious security is relative to it. It is a labelled provider for tests and
//! benchmarks; Spdz2k's own route (triples from OT with a sacrifice, no trusted party) is
//! [`super::ot::ArithOtProvider`], which makes the same material.

use std::collections::VecDeque;

use rand_core::{CryptoRng, RngCore};

use crate::net::PartyId;

use super::super::error::CoralError;
use super::ring::ArithRing;
use super::share::AShare;

/// Largest session the dealer serves.
pub const MAX_PARTIES: usize = 16;

/// A random authenticated `[r]` whose value the owner knows (rInput's mask).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArithInputMask {
    /// This party's share of `[r]`.
    pub share: AShare,
    /// r modulo 2^(k+s), at the owner only.
    pub value: Option<u128>,
}

/// A multiplication triple `([a], [b], [c])` with c = a·b modulo 2^(k+s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArithTriple {
    /// `[a]`.
    pub a: AShare,
    /// `[b]`.
    pub b: AShare,
    /// `[c]`.
    pub c: AShare,
}

/// Amounts of material a computation consumes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArithDemand {
    /// Multiplication triples.
    pub triples: usize,
    /// Input masks per owner (index = party).
    pub input_masks: Vec<usize>,
    /// Random `[r]` for masking the upper s bits of outputs.
    pub output_masks: usize,
}

/// One party's Spdz2k material.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArithMaterial {
    /// The party it is for.
    pub party: PartyId,
    /// The session size it is for.
    pub parties: usize,
    /// The ring it is for.
    pub ring: ArithRing,
    /// This party's MAC-key share α_i ∈ Z_{2^s}.
    pub alpha: u128,
    /// Triples, consumed from the front.
    pub triples: VecDeque<ArithTriple>,
    /// Input masks per owner, consumed from the front.
    pub input_masks: Vec<VecDeque<ArithInputMask>>,
    /// Output masks, consumed from the front.
    pub output_masks: VecDeque<AShare>,
}

fn take<T>(queue: &mut VecDeque<T>, count: usize, kind: &'static str) -> Result<Vec<T>, CoralError> {
    if queue.len() < count {
        return Err(CoralError::MaterialExhausted { kind, needed: count, available: queue.len() });
    }
    Ok(queue.drain(..count).collect())
}

impl ArithMaterial {
    /// `count` triples.
    pub fn take_triples(&mut self, count: usize) -> Result<Vec<ArithTriple>, CoralError> {
        take(&mut self.triples, count, "Spdz2k triple")
    }

    /// `count` of `owner`'s input masks.
    pub fn take_input_masks(
        &mut self,
        owner: PartyId,
        count: usize,
    ) -> Result<Vec<ArithInputMask>, CoralError> {
        let queue = self
            .input_masks
            .get_mut(owner)
            .ok_or(CoralError::BadInput(format!("input owner {owner} is not a party")))?;
        take(queue, count, "Spdz2k input mask")
    }

    /// `count` output masks.
    pub fn take_output_masks(&mut self, count: usize) -> Result<Vec<AShare>, CoralError> {
        take(&mut self.output_masks, count, "Spdz2k output mask")
    }
}

/// The trusted dealer of Spdz2k material (see the module docs for its trust model).
#[derive(Debug)]
pub struct ArithDealer<R> {
    rng: R,
}

impl<R: RngCore + CryptoRng> ArithDealer<R> {
    /// A dealer drawing its randomness from `rng`.
    pub fn new(rng: R) -> Self {
        ArithDealer { rng }
    }

    fn element(&mut self, ring: ArithRing) -> u128 {
        ring.from_random(u128::from(self.rng.next_u64()) << 64 | u128::from(self.rng.next_u64()))
    }

    /// Additive shares of v with MAC shares of α·v.
    fn share(&mut self, ring: ArithRing, alpha: u128, v: u128, parties: usize) -> Vec<AShare> {
        let mut out: Vec<AShare> =
            (0..parties - 1).map(|_| AShare { value: self.element(ring), mac: self.element(ring) }).collect();
        let rest = out.iter().fold(AShare { value: v, mac: alpha.wrapping_mul(v) }, |acc, s| acc - *s);
        out.push(AShare { value: ring.reduce(rest.value), mac: ring.reduce(rest.mac) });
        out
    }

    /// Material for `parties` parties covering `demand`.
    ///
    /// # Errors
    /// [`CoralError::Limit`] unless 2 ≤ parties ≤ [`MAX_PARTIES`] and `demand.input_masks` has at
    /// most `parties` entries.
    pub fn deal(
        &mut self,
        ring: ArithRing,
        parties: usize,
        demand: &ArithDemand,
    ) -> Result<Vec<ArithMaterial>, CoralError> {
        if !(2..=MAX_PARTIES).contains(&parties) {
            return Err(CoralError::Limit { what: "parties", found: parties, limit: MAX_PARTIES });
        }
        if demand.input_masks.len() > parties {
            return Err(CoralError::Limit {
                what: "input-mask owners",
                found: demand.input_masks.len(),
                limit: parties,
            });
        }
        let alphas: Vec<u128> = (0..parties)
            .map(|_| {
                ArithRing::key_from_random(
                    u128::from(self.rng.next_u64()) << 64 | u128::from(self.rng.next_u64()),
                )
            })
            .collect();
        let alpha = alphas.iter().fold(0u128, |a, &b| a.wrapping_add(b));
        let mut out: Vec<ArithMaterial> = (0..parties)
            .map(|party| ArithMaterial {
                party,
                parties,
                ring,
                alpha: alphas[party],
                triples: VecDeque::with_capacity(demand.triples),
                input_masks: vec![VecDeque::new(); parties],
                output_masks: VecDeque::with_capacity(demand.output_masks),
            })
            .collect();
        for _ in 0..demand.triples {
            let (a, b) = (self.element(ring), self.element(ring));
            let c = ring.reduce(a.wrapping_mul(b));
            let [sa, sb, sc] = [a, b, c].map(|v| self.share(ring, alpha, v, parties));
            for (p, m) in out.iter_mut().enumerate() {
                m.triples.push_back(ArithTriple { a: sa[p], b: sb[p], c: sc[p] });
            }
        }
        for (owner, &count) in demand.input_masks.iter().enumerate() {
            for _ in 0..count {
                let r = self.element(ring);
                for (p, share) in self.share(ring, alpha, r, parties).into_iter().enumerate() {
                    let value = (p == owner).then_some(r);
                    out[p].input_masks[owner].push_back(ArithInputMask { share, value });
                }
            }
        }
        for _ in 0..demand.output_masks {
            let r = self.element(ring);
            for (p, share) in self.share(ring, alpha, r, parties).into_iter().enumerate() {
                out[p].output_masks.push_back(share);
            }
        }
        Ok(out)
    }
}
