//! The **two-party OT-based provider** of Spdz2k material ([`ArithOtProvider`]): the MAC keys,
//! triples, input masks and output masks of [`super::prep::ArithMaterial`] from oblivious
//! transfer, with no trusted party, maliciously secure with abort.
//!
//! - **MAC keys**: each party samples α_i ∈ Z_{2^s}; α = α_0 + α_1 is never formed.
//! - **Authentication** ([`cope`]): every element a party contributes is authenticated under
//!   the peer's key by COPE over Z_{2^(k+s)}, both directions at once; a party's MAC share of a
//!   value x = x_0 + x_1 is `α_i·x_i + t_i + q_i` (its own term, its COPE share for its x_i under
//!   the peer's key, its COPE share for the peer's x_j under its own key). Then the check of
//!   MASCOT's Π_[[·]] over the ring: with coins χ_e ∈ Z_{2^s} and one extra random element x*
//!   (coefficient 1, it keeps the combination uniform), each input side sends
//!   `y = Σ χ_e x_e + x*` and `m = Σ χ_e t_e + t*`, and the key holder requires
//!   `Σ χ_e q_e + q* + m ≡ α·y` ([`Check::ArithAuthentication`]).
//! - **Triples** ([`triples`]): Multiply by random OT on τ bits per triple, Combine with
//!   coefficients tossed afterwards into two triples sharing b, authenticate all five values,
//!   Sacrifice one against the other, batched MAC check of the sacrifice's openings.
//! - **Input masks** `[r]` of owner o: o's share is a random r, the other's 0, both
//!   authenticated like everything else (so r is known to o alone and uniform).
//! - **Output masks**: random shares from both parties.
//!
//! Order of one [`ArithOtProvider::material`] call: products (one OT extension per direction
//! and 256 triples) and their combination, COPE of every element, the authentication check,
//! the sacrifice, one batched MAC check. Material is returned only if every check passed;
//! otherwise a typed error ([`CoralError::CheckFailed`] naming the check, [`CoralError::Ot`]
//! for the OT engine's own checks, [`CoralError::Malformed`] / [`CoralError::UnexpectedFrame`]
//! for bad frames) and no material.
//!
//! **Trust model:** two parties, either may be malicious (static corruption); security with
//! abort. Statistical security 40 bits (sacrifice and MAC check 2^-s·(s+1) with s = 48;
//! combine 2^-40, see [`triples`]; a guessed key bit in COPE costs the guesser half its chance,
//! see [`cope`]); computational: base OT (Ristretto255), SoftSpoken OT extension, AES-based PRG
//! and correlation-robust hash, SHA-256 commitments. Secrets never select a branch or an index.
//! n > 2 parties: [`CoralError::Limit`] (the n-party OT layer is issue 40's).

pub mod cope;
pub mod triples;

use std::collections::VecDeque;

use rand_chacha::ChaCha20Rng;
use rand_core::RngCore;

use crate::net::{Network, PartyId};
use crate::ot::prg::Prg;
use crate::ot::Block;
use crate::proto::coral::checks::coin_toss;
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::{Channel, Step};

use super::checks::{mac_check, RingLog};
use super::prep::{ArithDemand, ArithInputMask, ArithMaterial, ArithTriple};
use super::ring::{ArithRing, S};
use super::share::AShare;
use cope::RingCope;
use triples::Multiplier;

/// Most triples or masks one [`ArithOtProvider::material`] call makes.
pub const MAX_ITEMS: usize = 1 << 20;

/// One party's OT-based Spdz2k provider (set up once per session, then any number of
/// [`material`](Self::material) calls).
#[derive(Debug)]
pub struct ArithOtProvider {
    ring: ArithRing,
    me: PartyId,
    alpha: u128,
    cope: RingCope,
    mult: Multiplier,
    channel: Channel,
    rng: ChaCha20Rng,
}

impl ArithOtProvider {
    /// The base OTs and OT-extension setups with the peer (`session`: a tag both parties share,
    /// fresh per run).
    ///
    /// # Errors
    /// [`CoralError::Limit`] unless the session has two parties; OT and network errors.
    pub async fn setup<N: Network>(
        net: &mut N,
        ring: ArithRing,
        session: &[u8],
        mut rng: ChaCha20Rng,
    ) -> Result<Self, CoralError> {
        if net.parties() != 2 {
            return Err(CoralError::Limit {
                what: "parties of the OT-based Spdz2k provider",
                found: net.parties(),
                limit: 2,
            });
        }
        let alpha = ArithRing::key_from_random(u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64()));
        let cope = RingCope::setup(net, ring, session, alpha, &mut rng).await?;
        let mult = Multiplier::setup(net, session, &mut rng).await?;
        Ok(ArithOtProvider { ring, me: net.party(), alpha, cope, mult, channel: Channel::default(), rng })
    }

    /// Material covering `demand`.
    ///
    /// # Errors
    /// [`CoralError::Limit`] for a demand over [`MAX_ITEMS`] or with more than two owners; a
    /// failed check, bad frames, OT and network errors.
    pub async fn material<N: Network>(
        &mut self,
        net: &mut N,
        demand: &ArithDemand,
    ) -> Result<ArithMaterial, CoralError> {
        if demand.input_masks.len() > 2 {
            return Err(CoralError::Limit {
                what: "input-mask owners",
                found: demand.input_masks.len(),
                limit: 2,
            });
        }
        let owned = |o: usize| demand.input_masks.get(o).copied().unwrap_or(0);
        let total = demand.triples.max(demand.output_masks).max(owned(0)).max(owned(1));
        if total > MAX_ITEMS {
            return Err(CoralError::Limit {
                what: "triples or masks per provider call",
                found: total,
                limit: MAX_ITEMS,
            });
        }
        let (ring, me) = (self.ring, self.me);
        let raw = self.mult.triples(ring, &mut self.channel, net, demand.triples, &mut self.rng).await?;
        // This party's contributions, the same layout at both parties: five values per triple,
        // the output masks, each owner's input masks (0 where the other party owns them), and
        // the check's extra element.
        let mut x = Vec::with_capacity(5 * demand.triples + demand.output_masks + owned(0) + owned(1) + 1);
        for j in 0..demand.triples {
            x.extend([raw.a[j], raw.a_hat[j], raw.b[j], raw.c[j], raw.c_hat[j]]);
        }
        for _ in 0..demand.output_masks {
            x.push(self.random());
        }
        for owner in 0..2 {
            for _ in 0..owned(owner) {
                let r = if owner == me { self.random() } else { 0 };
                x.push(r);
            }
        }
        x.push(self.random());
        let cope = self.cope.extend(&mut self.channel, net, &x, x.len()).await?;
        self.check_authentication(net, &x, &cope.own, &cope.peer).await?;
        let mut shares: VecDeque<AShare> = x
            .iter()
            .zip(cope.own.iter().zip(&cope.peer))
            .map(|(&x, (&t, &q))| AShare {
                value: x,
                mac: ring.reduce(self.alpha.wrapping_mul(x).wrapping_add(t).wrapping_add(q)),
            })
            .collect();
        let quintuples: Vec<[AShare; 5]> = (0..demand.triples)
            .map(|_| core::array::from_fn(|_| shares.pop_front().expect("laid out above")))
            .collect();
        let mut log = RingLog::default();
        triples::sacrifice(ring, &mut self.channel, net, &mut self.rng, &quintuples, &mut log).await?;
        mac_check(ring, &mut self.channel, net, &mut self.rng, self.alpha, &mut log).await?;
        let output_masks: VecDeque<AShare> = shares.drain(..demand.output_masks).collect();
        let mut input_masks = vec![VecDeque::new(), VecDeque::new()];
        for (owner, masks) in input_masks.iter_mut().enumerate() {
            for share in shares.drain(..owned(owner)) {
                masks.push_back(ArithInputMask { share, value: (owner == me).then_some(share.value) });
            }
        }
        Ok(ArithMaterial {
            party: me,
            parties: 2,
            ring,
            alpha: self.alpha,
            triples: quintuples.into_iter().map(|[a, _, b, c, _]| ArithTriple { a, b, c }).collect(),
            input_masks,
            output_masks,
        })
    }

    fn random(&mut self) -> u128 {
        self.ring.from_random(u128::from(self.rng.next_u64()) << 64 | u128::from(self.rng.next_u64()))
    }

    /// Π_[[·]]'s check in both directions (see the module docs); the last element of `x` is the
    /// extra one.
    async fn check_authentication<N: Network>(
        &mut self,
        net: &mut N,
        x: &[u128],
        t: &[u128],
        q: &[u128],
    ) -> Result<(), CoralError> {
        let ring = self.ring;
        let mut coins = coin_toss(&mut self.channel, net, &mut self.rng).await?;
        let mut key = [0u8; 16];
        coins.fill_bytes(&mut key);
        let n = x.len() - 1;
        let chis: Vec<u128> = Prg::new(Block::from_le_bytes(key))
            .blocks(n)
            .into_iter()
            .map(|b| b & ((1u128 << S) - 1))
            .collect();
        let combine =
            |v: &[u128]| chis.iter().zip(v).fold(v[n], |acc, (&c, &v)| acc.wrapping_add(c.wrapping_mul(v)));
        let (y, m) = (combine(x), combine(t));
        let all = self.channel.broadcast(net, Step::ArithAuthOpen, ring.pack(&[y, m])).await?;
        let peer = 1 - self.me;
        let theirs = ring.unpack(&all[peer], 2, peer, Step::ArithAuthOpen)?;
        let lhs = combine(q).wrapping_add(theirs[1]);
        if ring.reduce(lhs) != ring.reduce(self.alpha.wrapping_mul(theirs[0])) {
            return Err(CoralError::failed(Check::ArithAuthentication));
        }
        Ok(())
    }
}
