//! Coral's online phase on RMFE sharings (§2.2.4, §4.2 Fig. 8, §4.3.2 Fig. 11): a [`Party`] holds
//! its material, MAC key share and the log of partially opened values, and offers input,
//! local linear operations, packed multiplication, SIMD constant multiplication and output.
//!
//! Invariant: a sharing `[[y]]` stands for the 14 lanes ψ(y) (§2.2.4).
//! - **Input** (rInput): the owner of a preprocessed mask `[[r]]` (it knows r) broadcasts
//!   `δ = φ(x) − r`; everyone sets `[[φ(x)]] = [[r]] + δ`. Whatever δ a corrupt owner sends
//!   defines its input as ψ(r + δ).
//! - **XOR / NOT / constants** are local: ψ is F2-linear and φ(1,…,1) is a public element.
//! - **AND of 14 lane pairs** (Fig. 8) with a quintuple `(a, b, c, τ(a), τ(b))`: open
//!   `d = x − a`, `e = y − b` (uniform, so they reveal nothing), then
//!   `[[z]] = τ(d)·[[τ(b)]] + τ(e)·[[τ(a)]] + τ(d)·τ(e) + [[c]]`, and ψ(z) = ψ(x) ⊙ ψ(y) because
//!   ψ(φ(u)·φ(v)) = u ⊙ v. One round for a whole layer, 2·42 bits per packed AND per party to
//!   each other party.
//! - **SIMD constant multiplication** (Fig. 11) by public lanes c with an encoding pair
//!   `([[r]], [[τ(r)]])`: open `d = x − r`, `[[z]] = (τ(d) + [[τ(r)]])·φ(c)`. Needed when c is not
//!   all-equal across lanes, since ψ is not F_{2^42}-linear (§4.3.2).
//! - **Output**: first the batched MAC check of every value opened so far, then open
//!   `y + (r − τ(r))` with an encoding pair — r − τ(r) is uniform in ker ψ, so the opening reveals
//!   ψ(y) only (§2.2.4 "Partial opening") — then the MAC check of the output openings. A party
//!   returns outputs only after both checks passed.
//! - **Output to one party p** ([`Party::output_to`]): the same steps, but `y` is masked with one
//!   of p's input masks `[[r]]` (the material rInput consumes, §2.2.4 "Input", Fig. 4 / App. A;
//!   r uniform in F and known to p only) instead of a kernel element. Everybody opens `y + r` and
//!   it goes through the same MAC check as every other opening, before anyone returns; p then
//!   reads ψ(y) = ψ(y + r) ⊕ ψ(r) (ψ is F2-linear) and every other party returns `None`. The
//!   others see `y + r`, uniform in F and independent of y; a non-recipient that changes its share
//!   (or MAC share) of `y + r` is a wrong partial opening, caught by the batched MAC check except
//!   with probability 2^-41 ([`super::checks`]). This is SPDZ's private output (the paper's
//!   functionality only opens to all); it costs what an opening to everybody costs.
//!
//! All of this works for any number n ≥ 2 of parties (openings are broadcasts of additive
//! shares; the MAC check is MASCOT's), and is secure against n − 1 corruptions given honest
//! preprocessing.

use std::sync::Arc;

use rand_chacha::ChaCha20Rng;

use crate::net::{Network, PartyId};

use super::checks::{mac_check, OpenedLog};
use super::error::CoralError;
use super::messages::{pack_elements, unpack_elements, Channel, Step};
use super::prep::{CoralMaterial, Quintuple};
use super::share::{CoralParams, RShare, LANES};

/// Products per pass of a layer's multiplication ([`Party::finish_mul`]).
const MUL_CHUNK: usize = 1024;

/// The lanes of a pack as a 14-bit word (lane l at bit l).
pub type Lanes = u64;

/// All 14 lanes set.
pub const ALL_LANES: Lanes = (1 << LANES) - 1;

/// One party of a Coral session.
#[derive(Debug)]
pub struct Party {
    pub(crate) params: Arc<CoralParams>,
    pub(crate) me: PartyId,
    pub(crate) parties: usize,
    pub(crate) material: CoralMaterial,
    pub(crate) channel: Channel,
    pub(crate) opened: OpenedLog,
    pub(crate) rng: ChaCha20Rng,
    /// φ(1, …, 1).
    one: u64,
}

/// An input to [`Party::input`]: who owns it, and its lanes if this party is the owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputRequest {
    /// The owner.
    pub owner: PartyId,
    /// The lanes (owner only; `None` at the other parties).
    pub lanes: Option<Lanes>,
}

impl Party {
    /// A party of an n-party session with its material; `rng` is a cryptographically secure
    /// source for its coin seeds and commitment nonces.
    ///
    /// # Errors
    /// [`CoralError::MaterialMismatch`] if the material is for another party or session size.
    pub fn new(
        params: Arc<CoralParams>,
        party: PartyId,
        parties: usize,
        material: CoralMaterial,
        rng: ChaCha20Rng,
    ) -> Result<Self, CoralError> {
        if material.party != party || material.parties != parties {
            return Err(CoralError::MaterialMismatch {
                party,
                parties,
                found_party: material.party,
                found_parties: material.parties,
            });
        }
        let one = params.phi_public(ALL_LANES);
        Ok(Party {
            params,
            me: party,
            parties,
            material,
            channel: Channel::default(),
            opened: OpenedLog::default(),
            rng,
            one,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &CoralParams {
        &self.params
    }

    /// This party's index.
    pub fn party(&self) -> PartyId {
        self.me
    }

    /// The material (what is left of it).
    pub fn material(&self) -> &CoralMaterial {
        &self.material
    }

    /// Mutable access to the material, for tests that make a party deviate.
    #[cfg(test)]
    pub(crate) fn material_mut(&mut self) -> &mut CoralMaterial {
        &mut self.material
    }

    fn check_net<N: Network>(&self, net: &N) -> Result<(), CoralError> {
        if net.party() != self.me || net.parties() != self.parties {
            return Err(CoralError::MaterialMismatch {
                party: net.party(),
                parties: net.parties(),
                found_party: self.me,
                found_parties: self.parties,
            });
        }
        Ok(())
    }

    /// `[[x]] + [[y]]` (local).
    #[inline]
    pub fn add(&self, x: RShare, y: RShare) -> RShare {
        x + y
    }

    /// `[[x]] + φ(lanes)` for public lanes (local).
    pub fn add_lanes(&self, x: RShare, lanes: Lanes) -> RShare {
        let c = if lanes == ALL_LANES { self.one } else { self.params.phi_public(lanes) };
        x.add_public(&self.params, c, self.me, self.material.alpha)
    }

    /// NOT on every lane: `[[x]] + φ(1, …, 1)` (local).
    #[inline]
    pub fn not(&self, x: RShare) -> RShare {
        x.add_public(&self.params, self.one, self.me, self.material.alpha)
    }

    /// The public constant φ(lanes) as a sharing (local).
    pub fn constant(&self, lanes: Lanes) -> RShare {
        self.add_lanes(RShare::default(), lanes)
    }

    /// Partially opens `shares` (one broadcast round) and logs them for the MAC check.
    pub(crate) async fn open<N: Network>(
        &mut self,
        net: &mut N,
        step: Step,
        shares: &[RShare],
    ) -> Result<Vec<u64>, CoralError> {
        let own: Vec<u64> = shares.iter().map(|s| s.value).collect();
        let all = self.channel.broadcast(net, step, pack_elements(&own)).await?;
        let mut values = own;
        for (peer, payload) in all.iter().enumerate().filter(|&(p, _)| p != self.me) {
            let theirs = unpack_elements(payload, shares.len(), peer, step)?;
            for (v, t) in values.iter_mut().zip(theirs) {
                *v ^= t;
            }
        }
        self.opened.extend(&values, shares.iter().map(|s| s.mac));
        Ok(values)
    }

    /// rInput for a list of inputs (one round: every party broadcasts δ for its own inputs, in
    /// order; parties without inputs send an empty payload).
    ///
    /// # Errors
    /// [`CoralError::BadInput`] if an owner is not a party or this party's lanes are missing
    /// (or given for another party's input); material or network errors.
    pub async fn input<N: Network>(
        &mut self,
        net: &mut N,
        requests: &[InputRequest],
    ) -> Result<Vec<RShare>, CoralError> {
        self.input_step(net, Step::Input, requests).await
    }

    pub(crate) async fn input_step<N: Network>(
        &mut self,
        net: &mut N,
        step: Step,
        requests: &[InputRequest],
    ) -> Result<Vec<RShare>, CoralError> {
        self.check_net(net)?;
        for r in requests {
            if r.owner >= self.parties {
                return Err(CoralError::BadInput(format!("input owner {} is not a party", r.owner)));
            }
            if (r.owner == self.me) != r.lanes.is_some() {
                return Err(CoralError::BadInput(format!(
                    "party {} must give the lanes of exactly its own inputs",
                    self.me
                )));
            }
            if let Some(l) = r.lanes.filter(|&l| l > ALL_LANES) {
                let found = (64 - l.leading_zeros()) as usize;
                return Err(CoralError::Limit { what: "lanes per packed input", found, limit: LANES });
            }
        }
        let owners: Vec<PartyId> = requests.iter().map(|r| r.owner).collect();
        let own: Vec<u64> = requests.iter().filter_map(|r| r.lanes).map(|l| self.params.phi(l)).collect();
        self.input_elements(net, step, &owners, &own).await
    }

    /// rInput of raw field elements: `owners[i]` owns input i; `own` holds this party's
    /// elements in order (one per input it owns).
    pub(crate) async fn input_elements<N: Network>(
        &mut self,
        net: &mut N,
        step: Step,
        owners: &[PartyId],
        own: &[u64],
    ) -> Result<Vec<RShare>, CoralError> {
        let mut counts = vec![0usize; self.parties];
        for &o in owners {
            if o >= self.parties {
                return Err(CoralError::BadInput(format!("input owner {o} is not a party")));
            }
            counts[o] += 1;
        }
        if own.len() != counts[self.me] {
            return Err(CoralError::BadInput(format!(
                "party {} owns {} inputs but gave {}",
                self.me,
                counts[self.me],
                own.len()
            )));
        }
        let mut masks = Vec::with_capacity(self.parties);
        for (owner, &count) in counts.iter().enumerate() {
            masks.push(self.material.take_input_masks(owner, count)?.into_iter());
        }
        let mut own_deltas = Vec::with_capacity(own.len());
        let mut own_values = own.iter();
        let mut shares = Vec::with_capacity(owners.len());
        for &owner in owners {
            let mask = masks[owner].next().expect("counted");
            if owner == self.me {
                let value = mask.value.ok_or(CoralError::BadInput("input mask without its value".into()))?;
                own_deltas.push(own_values.next().expect("counted") ^ value);
            }
            shares.push(mask.share);
        }
        let all = self.channel.broadcast(net, step, pack_elements(&own_deltas)).await?;
        let deltas: Vec<Vec<u64>> = all
            .iter()
            .enumerate()
            .map(|(p, payload)| unpack_elements(payload, counts[p], p, step))
            .collect::<Result<_, _>>()?;
        let mut next = vec![0usize; self.parties];
        for (&owner, share) in owners.iter().zip(shares.iter_mut()) {
            let delta = deltas[owner][next[owner]];
            next[owner] += 1;
            *share = share.add_public(&self.params, delta, self.me, self.material.alpha);
        }
        Ok(shares)
    }

    /// Packed AND of every pair (Fig. 8): one round for all pairs.
    pub async fn mul<N: Network>(
        &mut self,
        net: &mut N,
        pairs: &[(RShare, RShare)],
    ) -> Result<Vec<RShare>, CoralError> {
        self.check_net(net)?;
        let pieces = self.material.take_quintuples(pairs.len())?;
        let material = &self.material;
        let quintuples = pieces.iter().flat_map(|(s, range)| &material.quintuple_segment(*s)[range.clone()]);
        let mut masked = Vec::with_capacity(2 * pairs.len());
        for ((x, y), q) in pairs.iter().zip(quintuples) {
            masked.push(*x + q.a);
            masked.push(*y + q.b);
        }
        let opened = self.open(net, Step::MultOpen, &masked).await?;
        let mut out = Vec::with_capacity(pairs.len());
        let mut at = 0;
        for (s, range) in &pieces {
            let q = &self.material.quintuple_segment(*s)[range.clone()];
            out.extend(self.finish_mul(q, &opened[2 * at..2 * (at + q.len())]));
            at += q.len();
        }
        Ok(out)
    }

    /// `[[z]] = τ(d)·[[τ(b)]] + τ(e)·[[τ(a)]] + τ(d)·τ(e) + [[c]]` for a whole layer, from the
    /// opened `(d, e)` pairs, [`MUL_CHUNK`] products at a time (so a large layer's columns stay in
    /// the caches between the passes over them).
    fn finish_mul(&self, quintuples: &[Quintuple], opened: &[u64]) -> Vec<RShare> {
        let mut out = Vec::with_capacity(quintuples.len());
        for (q, de) in quintuples.chunks(MUL_CHUNK).zip(opened.chunks(2 * MUL_CHUNK)) {
            out.extend(self.finish_mul_chunk(q, de));
        }
        out
    }

    /// [`finish_mul`](Self::finish_mul) on one chunk: each sum of products is reduced once, and
    /// every product of the chunk goes through one backend call per term.
    fn finish_mul_chunk(&self, quintuples: &[Quintuple], opened: &[u64]) -> Vec<RShare> {
        let p = &*self.params;
        let n = quintuples.len();
        let mut td: Vec<u64> = opened.iter().step_by(2).copied().collect();
        let mut te: Vec<u64> = opened.iter().skip(1).step_by(2).copied().collect();
        p.tau_public_in_place(&mut td);
        p.tau_public_in_place(&mut te);
        let column = |f: fn(&Quintuple) -> u64| quintuples.iter().map(f).collect::<Vec<u64>>();
        let mut acc = vec![0u128; n];
        let mut tde = vec![0u64; n];
        p.clmul_into(&td, &te, &mut acc);
        p.reduce_into(&acc, &mut tde);
        let mut values = vec![0u64; n];
        acc.fill(0);
        p.clmul_into(&td, &column(|q| q.tau_b.value), &mut acc);
        p.clmul_into(&te, &column(|q| q.tau_a.value), &mut acc);
        p.reduce_into(&acc, &mut values);
        let mut macs = vec![0u64; n];
        acc.fill(0);
        p.clmul_into(&td, &column(|q| q.tau_b.mac), &mut acc);
        p.clmul_into(&te, &column(|q| q.tau_a.mac), &mut acc);
        p.clmul_into(&vec![self.material.alpha; n], &tde, &mut acc);
        p.reduce_into(&acc, &mut macs);
        let public = if self.me == 0 { u64::MAX } else { 0 };
        quintuples
            .iter()
            .zip(values.iter().zip(&macs).zip(&tde))
            .map(|(q, ((&v, &m), &t))| RShare { value: v ^ q.c.value ^ (t & public), mac: m ^ q.c.mac })
            .collect()
    }

    /// SIMD constant multiplication (Fig. 11): lane-wise `ψ(x) ⊙ c` for public lanes c, one
    /// round for all.
    ///
    /// # Errors
    /// [`CoralError::BadInput`] if the lengths differ, [`CoralError::Limit`] if a constant has
    /// more than 14 lanes; material or network errors.
    pub async fn const_mul<N: Network>(
        &mut self,
        net: &mut N,
        xs: &[RShare],
        constants: &[Lanes],
    ) -> Result<Vec<RShare>, CoralError> {
        self.check_net(net)?;
        if xs.len() != constants.len() {
            return Err(CoralError::BadInput(format!(
                "{} sharings but {} constants",
                xs.len(),
                constants.len()
            )));
        }
        if let Some(&c) = constants.iter().find(|&&c| c > ALL_LANES) {
            return Err(CoralError::Limit {
                what: "lanes of a constant",
                found: (64 - c.leading_zeros()) as usize,
                limit: LANES,
            });
        }
        let encodings = self.material.take_encodings(xs.len())?;
        let masked: Vec<RShare> = xs.iter().zip(&encodings).map(|(x, e)| *x + e.r).collect();
        let opened = self.open(net, Step::ConstMulOpen, &masked).await?;
        let p = &*self.params;
        Ok(encodings
            .iter()
            .zip(opened)
            .zip(constants)
            .map(|((e, d), &c)| {
                e.tau_r.add_public(p, p.tau_public(d), self.me, self.material.alpha).scale(p, p.phi_public(c))
            })
            .collect())
    }

    /// The batched MAC check of everything opened so far (see [`super::checks`]).
    pub async fn check<N: Network>(&mut self, net: &mut N) -> Result<(), CoralError> {
        let alpha = self.material.alpha;
        mac_check(&self.params, &mut self.channel, net, &mut self.rng, alpha, &mut self.opened).await
    }

    /// Opens the lanes ψ(y) of every sharing to every party: MAC check of all earlier openings,
    /// masked opening with kernel elements, MAC check of the openings. Returns nothing unless
    /// both checks pass.
    pub async fn output<N: Network>(&mut self, net: &mut N, ys: &[RShare]) -> Result<Vec<Lanes>, CoralError> {
        let lanes = self.output_to(net, ys, &vec![None; ys.len()]).await?;
        lanes
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .ok_or(CoralError::BadInput("an output was withheld".into()))
    }

    /// Opens the lanes ψ(y) of `ys[i]` to party `recipients[i]` only, or to every party for
    /// `None` (see the module docs): MAC check of all earlier openings, masked opening (kernel
    /// elements for everybody's outputs, the recipient's input masks for private ones), MAC check
    /// of the openings. Returns nothing unless both checks pass; `None` for outputs of others.
    ///
    /// # Errors
    /// [`CoralError::BadInput`] if the lengths differ or a recipient is not a party;
    /// [`CoralError::CheckFailed`] if a party deviated; material or network errors.
    pub async fn output_to<N: Network>(
        &mut self,
        net: &mut N,
        ys: &[RShare],
        recipients: &[Option<PartyId>],
    ) -> Result<Vec<Option<Lanes>>, CoralError> {
        self.check_net(net)?;
        if ys.len() != recipients.len() {
            return Err(CoralError::BadInput(format!(
                "{} sharings but {} recipients",
                ys.len(),
                recipients.len()
            )));
        }
        let mut counts = vec![0usize; self.parties];
        for &p in recipients.iter().flatten() {
            *counts
                .get_mut(p)
                .ok_or(CoralError::BadInput(format!("output recipient {p} is not a party")))? += 1;
        }
        let public = recipients.iter().filter(|r| r.is_none()).count();
        let mut encodings = self.material.take_encodings(public)?.into_iter();
        let mut masks = Vec::with_capacity(self.parties);
        for (owner, &count) in counts.iter().enumerate() {
            masks.push(self.material.take_input_masks(owner, count)?.into_iter());
        }
        self.check(net).await?;
        let mut own_masks = Vec::with_capacity(counts[self.me]);
        let mut masked = Vec::with_capacity(ys.len());
        for (y, recipient) in ys.iter().zip(recipients) {
            masked.push(match *recipient {
                None => {
                    let e = encodings.next().expect("counted");
                    *y + e.r + e.tau_r
                }
                Some(p) => {
                    let mask = masks[p].next().expect("counted");
                    if p == self.me {
                        own_masks.push(
                            mask.value.ok_or(CoralError::BadInput("input mask without its value".into()))?,
                        );
                    }
                    *y + mask.share
                }
            });
        }
        let opened = self.open(net, Step::Output, &masked).await?;
        self.check(net).await?;
        let mut own_masks = own_masks.into_iter();
        Ok(opened
            .into_iter()
            .zip(recipients)
            .map(|(v, recipient)| match *recipient {
                None => Some(self.params.psi(v)),
                Some(p) if p == self.me => Some(self.params.psi(v ^ own_masks.next().expect("counted"))),
                Some(_) => None,
            })
            .collect())
    }
}
