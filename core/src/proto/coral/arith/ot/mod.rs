//! The **OT-based provider** of Spdz2k material for n ≥ 2 parties ([`ArithOtProvider`]): the MAC
//! keys, triples, input masks and output masks of [`super::prep::ArithMaterial`] from oblivious
//! transfer between every pair of parties, with no trusted party, maliciously secure with abort
//! against n − 1 corrupt parties.
//!
//! - **MAC keys**: each party samples α_i ∈ Z_{2^s}; α = Σ α_i is never formed.
//! - **Authentication** ([`cope`]): every element a party contributes is authenticated under
//!   every peer's key by COPE over Z_{2^(k+s)}, all pairs and directions at once; party i's MAC
//!   share of a value x = Σ x_j is `α_i·x_i + Σ_{j≠i} (t_{i,j} + q_{i,j})` (its own term, its COPE
//!   shares for its x_i under each α_j and for each x_j under α_i). Then the check of MASCOT's
//!   Π_[[·]] over the ring, per ordered pair: with coins χ_e ∈ Z_{2^s} and one extra random
//!   element x* (coefficient 1, it keeps the combination uniform), the input side sends
//!   `y = Σ χ_e x_e + x*` and `m = Σ χ_e t_e + t*` to the key holder, who requires
//!   `Σ χ_e q_e + q* + m ≡ α_P·y`; then every party broadcasts its verdict, so one failed pair
//!   makes every honest party abort with [`Check::ArithAuthentication`]. (A party that uses other
//!   values in COPE than its shares only offsets MACs by α_j·δ, which every later MAC check
//!   catches.)
//! - **Triples** ([`triples`]): Multiply by random OT on τ bits per triple, Combine with
//!   coefficients tossed afterwards into two triples sharing b, authenticate all five values,
//!   Sacrifice one against the other, batched MAC check of the sacrifice's openings.
//! - **Input masks** `[r]` of owner o: o's share is a random r, everyone else's 0, all
//!   authenticated like everything else (so r is known to o alone and uniform).
//! - **Output masks**: random shares from every party.
//!
//! Order of one [`ArithOtProvider::material`] call: products (one OT extension per pair,
//! direction and 256 triples) and their combination, COPE of every element, the authentication
//! check and verdicts, the sacrifice, one batched MAC check. Material is returned only if every check passed;
//! otherwise a typed error ([`CoralError::CheckFailed`] naming the check, [`CoralError::Ot`]
//! for the OT engine's own checks, [`CoralError::Malformed`] / [`CoralError::UnexpectedFrame`]
//! for bad frames) and no material.
//!
//! **Trust model:** n ≥ 2 parties (at most [`MAX_PARTIES`]: the OT state grows with the pairs),
//! up to n − 1 malicious (static corruption); security with abort. Statistical security 40 bits (sacrifice and MAC check 2^-s·(s+1) with s = 48;
//! combine 2^-40, see [`triples`]; a guessed key bit in COPE costs the guesser half its chance,
//! see [`cope`]); computational: base OT (Ristretto255), SoftSpoken OT extension, AES-based PRG
//! and correlation-robust hash, SHA-256 commitments. Secrets never select a branch or an index.

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
use cope::{RingCope, RingCopeOutput};
use triples::Multiplier;

/// Most triples or masks one [`ArithOtProvider::material`] call makes.
pub const MAX_ITEMS: usize = 1 << 20;

/// Most parties.
pub const MAX_PARTIES: usize = 8;

/// One party's OT-based Spdz2k provider (set up once per session, then any number of
/// [`material`](Self::material) calls).
#[derive(Debug)]
pub struct ArithOtProvider {
    ring: ArithRing,
    me: PartyId,
    parties: usize,
    alpha: u128,
    cope: RingCope,
    mult: Multiplier,
    channel: Channel,
    rng: ChaCha20Rng,
}

impl ArithOtProvider {
    /// The base OTs and OT-extension setups with every peer (`session`: a tag all parties share,
    /// fresh per run).
    ///
    /// # Errors
    /// [`CoralError::Limit`] unless the session has 2 to [`MAX_PARTIES`] parties; OT and network
    /// errors.
    pub async fn setup<N: Network>(
        net: &mut N,
        ring: ArithRing,
        session: &[u8],
        mut rng: ChaCha20Rng,
    ) -> Result<Self, CoralError> {
        let parties = net.parties();
        if !(2..=MAX_PARTIES).contains(&parties) {
            return Err(CoralError::Limit {
                what: "parties of the OT-based Spdz2k provider",
                found: parties,
                limit: MAX_PARTIES,
            });
        }
        let alpha = ArithRing::key_from_random(u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64()));
        let cope = RingCope::setup(net, ring, session, alpha, &mut rng).await?;
        let mult = Multiplier::setup(net, session, &mut rng).await?;
        Ok(ArithOtProvider {
            ring,
            me: net.party(),
            parties,
            alpha,
            cope,
            mult,
            channel: Channel::default(),
            rng,
        })
    }

    /// Material covering `demand`.
    ///
    /// # Errors
    /// [`CoralError::Limit`] for a demand over [`MAX_ITEMS`] or with more owners than parties; a
    /// failed check, bad frames, OT and network errors.
    pub async fn material<N: Network>(
        &mut self,
        net: &mut N,
        demand: &ArithDemand,
    ) -> Result<ArithMaterial, CoralError> {
        let n = self.parties;
        if demand.input_masks.len() > n {
            return Err(CoralError::Limit {
                what: "input-mask owners",
                found: demand.input_masks.len(),
                limit: n,
            });
        }
        let owned = |o: usize| demand.input_masks.get(o).copied().unwrap_or(0);
        let total = (0..n).map(owned).fold(demand.triples.max(demand.output_masks), usize::max);
        if total > MAX_ITEMS {
            return Err(CoralError::Limit {
                what: "triples or masks per provider call",
                found: total,
                limit: MAX_ITEMS,
            });
        }
        let (ring, me) = (self.ring, self.me);
        let raw = self.mult.triples(ring, &mut self.channel, net, demand.triples, &mut self.rng).await?;
        // This party's contributions, the same layout at every party: five values per triple,
        // the output masks, each owner's input masks (0 where another party owns them), and
        // the check's extra element.
        let mut x = Vec::with_capacity(
            5 * demand.triples + demand.output_masks + (0..n).map(owned).sum::<usize>() + 1,
        );
        for j in 0..demand.triples {
            x.extend([raw.a[j], raw.a_hat[j], raw.b[j], raw.c[j], raw.c_hat[j]]);
        }
        for _ in 0..demand.output_masks {
            x.push(self.random());
        }
        for owner in 0..n {
            for _ in 0..owned(owner) {
                let r = if owner == me { self.random() } else { 0 };
                x.push(r);
            }
        }
        x.push(self.random());
        let cope = self.cope.extend(&mut self.channel, net, &x).await?;
        self.check_authentication(net, &x, &cope).await?;
        let mut shares: VecDeque<AShare> = x
            .iter()
            .enumerate()
            .map(|(e, &x)| AShare {
                value: x,
                mac: ring.reduce(self.alpha.wrapping_mul(x).wrapping_add(cope.cross_mac(e))),
            })
            .collect();
        let quintuples: Vec<[AShare; 5]> = (0..demand.triples)
            .map(|_| core::array::from_fn(|_| shares.pop_front().expect("laid out above")))
            .collect();
        let mut log = RingLog::default();
        triples::sacrifice(ring, &mut self.channel, net, &mut self.rng, &quintuples, &mut log).await?;
        mac_check(ring, &mut self.channel, net, &mut self.rng, self.alpha, &mut log).await?;
        let output_masks: VecDeque<AShare> = shares.drain(..demand.output_masks).collect();
        let mut input_masks = vec![VecDeque::new(); n];
        for (owner, masks) in input_masks.iter_mut().enumerate() {
            for share in shares.drain(..owned(owner)) {
                masks.push_back(ArithInputMask { share, value: (owner == me).then_some(share.value) });
            }
        }
        Ok(ArithMaterial {
            party: me,
            parties: n,
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

    /// Π_[[·]]'s check for every ordered pair, then everybody's verdict (see the module docs);
    /// the last element of `x` is the extra one.
    async fn check_authentication<N: Network>(
        &mut self,
        net: &mut N,
        x: &[u128],
        cope: &RingCopeOutput,
    ) -> Result<(), CoralError> {
        let ring = self.ring;
        let n = self.parties;
        let mut coins = coin_toss(&mut self.channel, net, &mut self.rng).await?;
        let mut key = [0u8; 16];
        coins.fill_bytes(&mut key);
        let last = x.len() - 1;
        let chis: Vec<u128> = Prg::new(Block::from_le_bytes(key))
            .blocks(last)
            .into_iter()
            .map(|b| b & ((1u128 << S) - 1))
            .collect();
        let combine = |v: &[u128]| {
            chis.iter().zip(v).fold(v[last], |acc, (&c, &v)| acc.wrapping_add(c.wrapping_mul(v)))
        };
        let y = combine(x);
        let payloads: Vec<Vec<u8>> = (0..n)
            .map(|j| if j == self.me { Vec::new() } else { ring.pack(&[y, combine(&cope.own[j])]) })
            .collect();
        let all = self.channel.pairwise(net, Step::ArithAuthOpen, payloads).await?;
        let mut passed = true;
        for j in (0..n).filter(|&j| j != self.me) {
            let theirs = ring.unpack(&all[j], 2, j, Step::ArithAuthOpen)?;
            let lhs = combine(&cope.peer[j]).wrapping_add(theirs[1]);
            // No early return: the verdict goes to everybody first.
            passed &= ring.reduce(lhs) == ring.reduce(self.alpha.wrapping_mul(theirs[0]));
        }
        let verdicts = self.channel.broadcast(net, Step::ArithAuthVerdict, vec![u8::from(passed)]).await?;
        for (j, v) in verdicts.iter().enumerate() {
            match v.as_slice() {
                [1] => {}
                [0] => return Err(CoralError::failed(Check::ArithAuthentication)),
                _ => {
                    return Err(CoralError::malformed(
                        j,
                        Step::ArithAuthVerdict.name(),
                        "a verdict is one byte, 0 or 1",
                    ))
                }
            }
        }
        Ok(())
    }
}
