//! The Spdz2k online phase over Z_{2^(k+s)} (Spdz2k §3 Π_Online; the arithmetic half of Coral's
//! mixed circuits, Coral paper §4.3.1): an [`ArithParty`] holds its material, MAC-key share and
//! the log of partially opened values, and offers input, multiplication, and output.
//!
//! - **Input**: the owner of a mask `[r]` (it knows r modulo 2^(k+s)) broadcasts `d = x − r`,
//!   uniform because r is; everyone sets `[x] = [r] + d`. Whatever d a corrupt owner sends
//!   defines its input as `(r + d) mod 2^k`.
//! - **Linear operations** are local ([`super::share::AShare`]).
//! - **Multiplication** (Beaver, one round for a whole layer) with a triple `([a], [b], [c])`:
//!   open `ε = x − a` and `ρ = y − b` — uniform modulo 2^(k+s), so the upper s bits of x and y,
//!   which depend on earlier products, stay hidden — then `[xy] = [c] + ε[b] + ρ[a] + ερ`.
//!   Both openings go into the log of the batched MAC check.
//! - **Output**: first the batched MAC check of everything opened so far (a wrong opening could
//!   otherwise make the output a function that reveals an honest input), then open
//!   `y + 2^k·r` with a random `[r]` — the opening shows y mod 2^k and uniform upper bits, where
//!   a plain opening would leak the upper bits of products — then the MAC check of the output
//!   openings. A party returns outputs only after both checks passed.
//! - **Private output** to party P ([`ArithParty::output_to`]): the same two checks around the
//!   opening of `y − r` with one of P's input masks `[r]` — uniform modulo 2^(k+s) to everyone
//!   else, so only P, who knows r, learns `y = (y − r) + r` modulo 2^k (SPDZ's output to one
//!   party, with the input masks the material already has).
//!
//! Secure with abort against n − 1 malicious parties given honest material, any n ≥ 2.

use rand_chacha::ChaCha20Rng;

use crate::net::{Network, PartyId};

use super::super::error::CoralError;
use super::super::messages::{Channel, Step};
use super::checks::{mac_check, open, RingLog};
use super::prep::ArithMaterial;
use super::ring::ArithRing;
use super::share::AShare;

/// One party of a Spdz2k session.
#[derive(Debug)]
pub struct ArithParty {
    ring: ArithRing,
    me: PartyId,
    parties: usize,
    material: ArithMaterial,
    rng: ChaCha20Rng,
    channel: Channel,
    opened: RingLog,
}

impl ArithParty {
    /// Party `me` of `parties` with its `material`.
    ///
    /// # Errors
    /// [`CoralError::MaterialMismatch`] if the material is for another party or session size.
    pub fn new(
        me: PartyId,
        parties: usize,
        material: ArithMaterial,
        rng: ChaCha20Rng,
    ) -> Result<Self, CoralError> {
        if material.party != me || material.parties != parties || material.input_masks.len() != parties {
            return Err(CoralError::MaterialMismatch {
                party: me,
                parties,
                found_party: material.party,
                found_parties: material.parties,
            });
        }
        Ok(ArithParty {
            ring: material.ring,
            me,
            parties,
            material,
            rng,
            channel: Channel::default(),
            opened: RingLog::default(),
        })
    }

    /// The ring.
    pub fn ring(&self) -> ArithRing {
        self.ring
    }

    /// This party.
    pub fn party(&self) -> PartyId {
        self.me
    }

    /// Parties of the session.
    pub fn parties(&self) -> usize {
        self.parties
    }

    /// The material left.
    pub fn material(&self) -> &ArithMaterial {
        &self.material
    }

    /// Values opened and not yet checked.
    pub fn unchecked(&self) -> usize {
        self.opened.len()
    }

    /// `[c]` for a public constant (reduced modulo 2^k).
    pub fn constant(&self, c: u64) -> AShare {
        AShare::public(u128::from(self.ring.value(u128::from(c))), self.me, self.material.alpha)
    }

    /// `[x] + c` for a public c.
    pub fn add_public(&self, x: AShare, c: u128) -> AShare {
        x.add_public(c, self.me, self.material.alpha)
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

    /// Inputs: `owners[i]` owns input i; `own` holds this party's values (each below 2^k) in
    /// order. One round (parties without inputs send an empty payload).
    ///
    /// # Errors
    /// [`CoralError::BadInput`] if an owner is not a party, this party's count differs, or a
    /// value is wider than k bits; material or network errors.
    pub async fn input<N: Network>(
        &mut self,
        net: &mut N,
        owners: &[PartyId],
        own: &[u64],
    ) -> Result<Vec<AShare>, CoralError> {
        self.input_at(net, Step::ArithInput, owners, own).await
    }

    /// [`Self::input`] with the frames tagged `step`.
    pub(in crate::proto::coral) async fn input_at<N: Network>(
        &mut self,
        net: &mut N,
        step: Step,
        owners: &[PartyId],
        own: &[u64],
    ) -> Result<Vec<AShare>, CoralError> {
        self.check_net(net)?;
        let mut counts = vec![0usize; self.parties];
        for &o in owners {
            *counts.get_mut(o).ok_or(CoralError::BadInput(format!("input owner {o} is not a party")))? += 1;
        }
        if own.len() != counts[self.me] {
            return Err(CoralError::BadInput(format!(
                "party {} owns {} inputs but gave {}",
                self.me,
                counts[self.me],
                own.len()
            )));
        }
        if let Some((i, v)) = own.iter().enumerate().find(|(_, &v)| v & !self.ring.value_bits().mask() != 0) {
            return Err(CoralError::BadInput(format!(
                "input {i} of party {}: {v} does not fit in {} bits",
                self.me,
                self.ring.k()
            )));
        }
        let mut masks = Vec::with_capacity(self.parties);
        for (owner, &count) in counts.iter().enumerate() {
            masks.push(self.material.take_input_masks(owner, count)?.into_iter());
        }
        let mut own_values = own.iter();
        let mut deltas = Vec::with_capacity(own.len());
        let mut shares = Vec::with_capacity(owners.len());
        for &owner in owners {
            let mask = masks[owner].next().expect("counted");
            if owner == self.me {
                let r = mask.value.ok_or(CoralError::BadInput("input mask without its value".into()))?;
                deltas.push(u128::from(*own_values.next().expect("counted")).wrapping_sub(r));
            }
            shares.push(mask.share);
        }
        let all = self.channel.broadcast(net, step, self.ring.pack(&deltas)).await?;
        let deltas: Vec<Vec<u128>> = all
            .iter()
            .enumerate()
            .map(|(p, payload)| self.ring.unpack(payload, counts[p], p, step))
            .collect::<Result<_, _>>()?;
        let mut next = vec![0usize; self.parties];
        for (&owner, share) in owners.iter().zip(shares.iter_mut()) {
            *share = self.add_public(*share, deltas[owner][next[owner]]);
            next[owner] += 1;
        }
        Ok(shares)
    }

    /// `[x]·[y]` for every pair, one round for all.
    ///
    /// # Errors
    /// Material exhausted, a malformed or unexpected frame, network errors.
    pub async fn mul<N: Network>(
        &mut self,
        net: &mut N,
        pairs: &[(AShare, AShare)],
    ) -> Result<Vec<AShare>, CoralError> {
        self.check_net(net)?;
        if pairs.is_empty() {
            return Ok(Vec::new());
        }
        let triples = self.material.take_triples(pairs.len())?;
        let masked: Vec<AShare> =
            pairs.iter().zip(&triples).flat_map(|(&(x, y), t)| [x - t.a, y - t.b]).collect();
        let opened =
            open(self.ring, &mut self.channel, net, Step::ArithMultOpen, &masked, &mut self.opened).await?;
        Ok(triples
            .iter()
            .zip(opened.chunks_exact(2))
            .map(|(t, er)| {
                let (e, r) = (er[0], er[1]);
                let z = t.c + t.b.scale(e) + t.a.scale(r);
                self.add_public(z, e.wrapping_mul(r))
            })
            .collect())
    }

    /// The batched MAC check of every value opened so far (four rounds; nothing if none).
    pub async fn check<N: Network>(&mut self, net: &mut N) -> Result<(), CoralError> {
        self.check_net(net)?;
        mac_check(self.ring, &mut self.channel, net, &mut self.rng, self.material.alpha, &mut self.opened)
            .await
    }

    /// Opens `ys` to everybody: check, masked opening, check (see the module docs). The values
    /// modulo 2^k, returned only after both checks passed.
    pub async fn output<N: Network>(&mut self, net: &mut N, ys: &[AShare]) -> Result<Vec<u64>, CoralError> {
        let values = self.output_to(net, ys, &vec![None; ys.len()]).await?;
        Ok(values.into_iter().map(|v| v.expect("a public output")).collect())
    }

    /// Opens every `ys[i]` to `to[i]` — `None`: everybody, as [`ArithParty::output`]; `Some(p)`:
    /// party p alone, masked by one of p's input masks (see the module docs). One opening round
    /// between the two MAC checks; returns what this party learns, after both passed.
    ///
    /// # Errors
    /// [`CoralError::BadInput`] if `to` and `ys` differ in length or a recipient is not a party
    /// (before anything is sent); material, check and network errors.
    pub async fn output_to<N: Network>(
        &mut self,
        net: &mut N,
        ys: &[AShare],
        to: &[Option<PartyId>],
    ) -> Result<Vec<Option<u64>>, CoralError> {
        self.check_net(net)?;
        if to.len() != ys.len() {
            return Err(CoralError::BadInput(format!("{} recipients for {} outputs", to.len(), ys.len())));
        }
        if let Some(p) = to.iter().flatten().find(|&&p| p >= self.parties) {
            return Err(CoralError::BadInput(format!("output recipient {p} is not a party")));
        }
        self.check(net).await?;
        let public = to.iter().filter(|t| t.is_none()).count();
        let mut output_masks = self.material.take_output_masks(public)?.into_iter();
        let mut input_masks = Vec::with_capacity(self.parties);
        for p in 0..self.parties {
            let count = to.iter().filter(|&&t| t == Some(p)).count();
            input_masks.push(self.material.take_input_masks(p, count)?.into_iter());
        }
        let shift = 1u128 << self.ring.k();
        // Per output: the masked sharing, and r if this party is its recipient.
        let mut own_masks = Vec::with_capacity(ys.len());
        let masked: Vec<AShare> = ys
            .iter()
            .zip(to)
            .map(|(&y, t)| match *t {
                None => {
                    own_masks.push(None);
                    y + output_masks.next().expect("one output mask per public output").scale(shift)
                }
                Some(p) => {
                    let r = input_masks[p].next().expect("one input mask per private output");
                    own_masks.push(r.value);
                    y - r.share
                }
            })
            .collect();
        let opened =
            open(self.ring, &mut self.channel, net, Step::ArithOutput, &masked, &mut self.opened).await?;
        self.check(net).await?;
        Ok(opened
            .into_iter()
            .zip(to)
            .zip(own_masks)
            .map(|((z, t), r)| match (*t, r) {
                (None, _) => Some(self.ring.value(z)),
                (Some(p), Some(r)) if p == self.me => Some(self.ring.value(z.wrapping_add(r))),
                _ => None,
            })
            .collect())
    }

    /// Opens `ys` modulo 2^k with their upper s bits masked: `y + 2^k·r` for one output mask
    /// `[r]` each, one round. The openings join the MAC log; nothing is checked here.
    pub(in crate::proto::coral) async fn open_low<N: Network>(
        &mut self,
        net: &mut N,
        step: Step,
        ys: &[AShare],
    ) -> Result<Vec<u64>, CoralError> {
        self.check_net(net)?;
        let masks = self.material.take_output_masks(ys.len())?;
        let shift = 1u128 << self.ring.k();
        let masked: Vec<AShare> = ys.iter().zip(&masks).map(|(y, r)| *y + r.scale(shift)).collect();
        let opened = open(self.ring, &mut self.channel, net, step, &masked, &mut self.opened).await?;
        Ok(opened.into_iter().map(|v| self.ring.value(v)).collect())
    }

    /// This party's CSPRNG (its own random contributions, e.g. to random bits).
    pub(in crate::proto::coral) fn rng(&mut self) -> &mut ChaCha20Rng {
        &mut self.rng
    }
}
