//! The semi-honest online protocols on (2,3) replicated shares (MAESTRO §2.4–§2.6): input
//! sharing, batched multiplication by local product plus resharing, and opening to chosen parties.
//!
//! Costs per party (ℓ = number of elements in the batch, one byte each):
//!
//! | operation | messages | bytes sent | rounds |
//! |---|---|---|---|
//! | [`Party::input`] | owner: 2, others: 0 | owner: 2ℓ | 1 |
//! | [`Party::mul`] | 1 | ℓ | 1 |
//! | [`Party::reveal`] to a set R | one per recipient | ℓ per recipient it serves | 1 |
//!
//! Multiplication (§2.6 "Local Multiplication", "Share Conversion", "Multiplication with Additive
//! Errors" without the malicious check): party i computes
//! zᵢ = xᵢyᵢ + xᵢyᵢ₊₁ + xᵢ₊₁yᵢ + αᵢ — the nine cross terms of (x₀+x₁+x₂)(y₀+y₁+y₂) split so each
//! party computes three — with αᵢ from a PRSS zero sharing, and sends zᵢ to party i−1, whose
//! share becomes (zᵢ₋₁, zᵢ). A batch of ℓ products is one message of ℓ bytes.

use super::error::{MaestroError, Step};
use super::msg::{recv_elements, send_elements};
use super::prss::Prss;
use super::rss::RssShare;
use crate::field::Gf256;
use crate::net::{Network, PartyId};
use rand_core::{CryptoRng, RngCore};

/// One party of a semi-honest MAESTRO session: its index and PRSS state.
#[derive(Debug)]
pub struct Party {
    prss: Prss,
}

fn next(i: PartyId) -> PartyId {
    (i + 1) % 3
}

fn prev(i: PartyId) -> PartyId {
    (i + 2) % 3
}

impl Party {
    /// Runs the one-time PRSS key setup ([`Prss::setup`]) with randomness from `rng`.
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        rng: &mut R,
    ) -> Result<Self, MaestroError> {
        Ok(Party { prss: Prss::setup(net, rng).await? })
    }

    /// A party from an existing PRSS state.
    pub fn from_prss(prss: Prss) -> Self {
        Party { prss }
    }

    /// This party's index.
    pub fn id(&self) -> PartyId {
        self.prss.party()
    }

    /// The PRSS state (for random and zero sharings).
    pub fn prss_mut(&mut self) -> &mut Prss {
        &mut self.prss
    }

    /// Shares `len` private values of party `owner`. The owner passes `Some(values)` with exactly
    /// `len` values; the others' `values` are ignored (they pass `None`).
    ///
    /// Components x_owner and x_owner+1 come from the PRSS input streams of the keys the owner
    /// shares with party owner−1 and owner+1 respectively; the owner sends the third component
    /// x_owner+2 = v − x_owner − x_owner+1 to both other parties (2ℓ bytes, one round). Each
    /// receiver misses one PRSS component, so it learns nothing about v.
    pub async fn input<N: Network>(
        &mut self,
        net: &mut N,
        owner: PartyId,
        values: Option<&[Gf256]>,
        len: usize,
    ) -> Result<Vec<RssShare>, MaestroError> {
        if owner > 2 {
            return Err(MaestroError::UnknownParty(owner));
        }
        let me = self.id();
        if me == owner {
            let values = values.filter(|v| v.len() == len).ok_or(MaestroError::BadInput {
                owner,
                expected: len,
                supplied: values.map(<[Gf256]>::len),
            })?;
            let x_own = self.prss.input_masks(me, len);
            let x_next = self.prss.input_masks(next(me), len);
            let x_last: Vec<Gf256> =
                values.iter().zip(&x_own).zip(&x_next).map(|((&v, &a), &b)| v - a - b).collect();
            send_elements(net, next(me), &x_last, Step::Input)?;
            send_elements(net, prev(me), &x_last, Step::Input)?;
            Ok(x_own.into_iter().zip(x_next).map(|(a, b)| RssShare::new(me, a, b)).collect())
        } else if me == next(owner) {
            // Holds (x_owner+1, x_owner+2): the first from the key shared with the owner.
            let x_first = self.prss.input_masks(me, len);
            let x_last = recv_elements(net, owner, len, Step::Input).await?;
            Ok(x_first.into_iter().zip(x_last).map(|(a, b)| RssShare::new(me, a, b)).collect())
        } else {
            // Holds (x_owner+2, x_owner): the second from the key shared with the owner.
            let x_second = self.prss.input_masks(owner, len);
            let x_last = recv_elements(net, owner, len, Step::Input).await?;
            Ok(x_last.into_iter().zip(x_second).map(|(a, b)| RssShare::new(me, a, b)).collect())
        }
    }

    /// Multiplies `a[k] · b[k]` for every k: one message of `a.len()` bytes to party i−1, one
    /// round.
    pub async fn mul<N: Network>(
        &mut self,
        net: &mut N,
        a: &[RssShare],
        b: &[RssShare],
    ) -> Result<Vec<RssShare>, MaestroError> {
        if a.len() != b.len() {
            return Err(MaestroError::OperandLengthMismatch { left: a.len(), right: b.len() });
        }
        let me = self.id();
        let mut z = self.prss.zero(a.len());
        for ((z, x), y) in z.iter_mut().zip(a).zip(b) {
            *z += x.first() * (y.first() + y.second()) + x.second() * y.first();
        }
        send_elements(net, prev(me), &z, Step::Multiply)?;
        let z_next = recv_elements(net, next(me), a.len(), Step::Multiply).await?;
        Ok(z.into_iter().zip(z_next).map(|(f, s)| RssShare::new(me, f, s)).collect())
    }

    /// Opens `shares` to the parties in `to` (one round): each recipient j gets its missing
    /// component from party j+1; a party not in `to` gets `None` and learns nothing.
    pub async fn reveal<N: Network>(
        &mut self,
        net: &mut N,
        shares: &[RssShare],
        to: &[PartyId],
    ) -> Result<Option<Vec<Gf256>>, MaestroError> {
        if let Some(&bad) = to.iter().find(|&&p| p > 2) {
            return Err(MaestroError::UnknownParty(bad));
        }
        let me = self.id();
        if to.contains(&prev(me)) {
            let seconds: Vec<Gf256> = shares.iter().map(|s| s.second()).collect();
            send_elements(net, prev(me), &seconds, Step::Reveal)?;
        }
        if !to.contains(&me) {
            return Ok(None);
        }
        let missing = recv_elements(net, next(me), shares.len(), Step::Reveal).await?;
        Ok(Some(shares.iter().zip(missing).map(|(s, m)| s.first() + s.second() + m).collect()))
    }

    /// Opens `shares` to all three parties (one round, ℓ bytes per party).
    pub async fn open<N: Network>(
        &mut self,
        net: &mut N,
        shares: &[RssShare],
    ) -> Result<Vec<Gf256>, MaestroError> {
        let opened = self.reveal(net, shares, &[0, 1, 2]).await?;
        Ok(opened.expect("every party is a recipient of an opening to all"))
    }
}
