//! The GF(2^8)-circuit S-box of Chida et al. \[21\] (MAESTRO §1.2 "Warm up", Table 1 row
//! "GF(2^8)-circuit \[21\]", semi-honest): x⁻¹ = x²⁵⁴ with four multiplications in three rounds,
//! then the affine map share-wise.
//!
//! Squarings are F2-linear and local (§2.6 "Free Squaring"), so only these products need
//! communication:
//! 1. x³ = x² · x;
//! 2. x¹⁴ = x¹² · x² and x¹⁵ = x¹² · x³ (one batch), where x¹² = (x³)⁴;
//! 3. x²⁵⁴ = x²⁴⁰ · x¹⁴, where x²⁴⁰ = (x¹⁵)¹⁶.
//!
//! Per S-box: 4 bytes sent per party in 3 rounds, i.e. 32 bits; an AES-128 block (160 S-boxes)
//! costs 5120 bits and 30 rounds per party, as in Table 1. The powers x², x⁴, x¹⁶ are constant-time
//! bit-matrix products ([`super::frobenius`]; no secret-indexed tables).
//!
//! InvSubBytes runs the inverse affine map share-wise and then the same [`inverse`] routine, at
//! the same cost.

use super::super::error::MaestroError;
use super::super::online::Party;
use super::super::packed::{ByteLinear, Packed};
use super::super::rss::RssShare;
use super::frobenius::{POW16, POW4, SQUARE};
use super::Gf256Inversion;
use crate::net::{Network, PartyId};

/// Shares of x²⁵⁴ (= x⁻¹, with 0 ↦ 0) for every x, in three rounds of batched multiplications.
pub async fn inverse<N: Network>(
    party: &mut Party,
    net: &mut N,
    x: &[RssShare],
) -> Result<Vec<RssShare>, MaestroError> {
    Ok(inverse_packed(party, net, &Packed::from_shares(party.id(), x)).await?.to_shares())
}

/// [`inverse`], calling `observe(a, b, a·b)` on the packed shares after each of its three
/// batched multiplications, in order: x²·x, then [x¹², x¹²]·[x², x³] as one batch of 2n, then
/// x²⁴⁰·x¹⁴ (the malicious variant records them for verification).
pub(in crate::proto::maestro) async fn inverse_observed<N: Network>(
    party: &mut Party,
    net: &mut N,
    x: &[RssShare],
    observe: &mut impl FnMut(&Packed, &Packed, &Packed),
) -> Result<Vec<RssShare>, MaestroError> {
    let x = Packed::from_shares(party.id(), x);
    Ok(inverse_packed_observed(party, net, &x, Some(observe)).await?.to_shares())
}

/// [`inverse`] on contiguous shares (the same messages).
pub async fn inverse_packed<N: Network>(
    party: &mut Party,
    net: &mut N,
    x: &Packed,
) -> Result<Packed, MaestroError> {
    inverse_packed_observed(party, net, x, None::<&mut fn(&Packed, &Packed, &Packed)>).await
}

/// The circuit. Round 2's batch is multiplied from the parts of its operands in place
/// ([`Party::mul_packed_batches`]); the concatenated operands are built only for an observer.
async fn inverse_packed_observed<N: Network>(
    party: &mut Party,
    net: &mut N,
    x: &Packed,
    mut observe: Option<&mut impl FnMut(&Packed, &Packed, &Packed)>,
) -> Result<Packed, MaestroError> {
    let n = x.len();
    let me = party.id();
    let x2 = x.map_linear(&ByteLinear::new(|b| SQUARE.apply(b)));
    let x3 = party.mul_packed(net, &x2, x).await?;
    if let Some(observe) = observe.as_mut() {
        observe(&x2, x, &x3);
    }
    let x12 = x3.map_linear(&ByteLinear::new(|b| POW4.apply(b)));
    // Round 2: [x¹² · x², x¹² · x³] as one batch.
    let products = party.mul_packed_batches(net, &[(x12.view(), x2.view()), (x12.view(), x3.view())]).await?;
    if let Some(observe) = observe.as_mut() {
        observe(&x12.concat(&x12), &x2.concat(&x3), &products);
    }
    let (x14, x15) = (products.view_range(0..n), products.view_range(n..2 * n));
    let x240 = x15.map_linear(me, &ByteLinear::new(|b| POW16.apply(b)));
    let inverse = party.mul_packed_batches(net, &[(x240.view(), x14)]).await?;
    if let Some(observe) = observe.as_mut() {
        observe(&x240, &x14.to_packed(me), &inverse);
    }
    Ok(inverse)
}

/// The semi-honest GF(2^8)-circuit S-box layer over a [`Party`].
#[derive(Debug)]
pub struct Gf256CircuitSbox {
    party: Party,
}

impl Gf256CircuitSbox {
    /// Wraps a party (after its PRSS setup).
    pub fn new(party: Party) -> Self {
        Gf256CircuitSbox { party }
    }

    /// The party, for inputs, openings and other operations around the AES calls.
    pub fn party(&mut self) -> &mut Party {
        &mut self.party
    }

    /// Unwraps the party.
    pub fn into_party(self) -> Party {
        self.party
    }
}

impl Gf256Inversion for Gf256CircuitSbox {
    fn party_id(&self) -> PartyId {
        self.party.id()
    }

    async fn invert<N: Network>(&mut self, net: &mut N, x: &Packed) -> Result<Packed, MaestroError> {
        inverse_packed(&mut self.party, net, x).await
    }
}
