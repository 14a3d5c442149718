//! Replicated shares over GF(2^64) for the verification phase (MAESTRO §2.7: small-field triples
//! are lifted into GF(2^64) = F2\[Y\]/(Y^64 + Y^4 + Y^3 + Y + 1) for soundness), and the three
//! interactive primitives Protocols 1–2 need on them:
//! - [`random`]: 𝓕_rand over GF(2^64) from the PRSS (eight byte sharings concatenated; XOR
//!   sharing commutes with concatenation), no communication;
//! - [`reshare`]: the resharing of 𝓕_weakMult / 𝓕_weakDotProduct (§2.6): this party's additive
//!   share of a product or inner product, re-randomised with a PRSS zero sharing, sent to party
//!   i−1 (8 bytes per value, one round);
//! - [`open`]: Reconst of §2.4, optimistic (party j receives its missing component from j+1); the
//!   opened values go into the [`PublicView`] whose hashes are compared before anything is output.
//!
//! Elements are `u64` bit patterns (bit i = coefficient of Y^i); products go through the detected
//! carry-less backend with one reduction per inner product (lazy reduction, MAESTRO §4).

use super::view::PublicView;
use crate::field::clmul::Backend;
use crate::field::Gf64;
use crate::net::{Network, PartyId};
use crate::proto::maestro::error::{MaestroError, Step};
use crate::proto::maestro::msg::{recv_bytes, send_bytes};
use crate::proto::maestro::online::Party;

/// This party's components (x_i, x_i+1) of a replicated GF(2^64) sharing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rss64 {
    /// Component x_i.
    pub first: u64,
    /// Component x_i+1.
    pub second: u64,
}

impl core::ops::Add for Rss64 {
    type Output = Self;

    /// Component-wise sum (the share of x + y).
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Rss64 { first: self.first ^ rhs.first, second: self.second ^ rhs.second }
    }
}

impl Rss64 {
    /// The share of c·x for a public c.
    #[inline(always)]
    pub fn scale(self, backend: Backend, c: u64) -> Self {
        let [first, second] = mul2(backend, [self.first, self.second], [c, c]);
        Rss64 { first, second }
    }
}

/// The reduced product a·b in GF(2^64).
#[inline(always)]
pub fn mul(backend: Backend, a: u64, b: u64) -> u64 {
    Gf64::reduce(backend.clmul64(a, b)).0
}

/// The reduced products `[a[0]·b[0], a[1]·b[1]]` in GF(2^64), multiplied (and reduced) together
/// where the backend shares work between two products ([`Backend::gf64_mul_pair`]).
#[inline(always)]
pub fn mul2(backend: Backend, a: [u64; 2], b: [u64; 2]) -> [u64; 2] {
    backend.gf64_mul_pair(a, b)
}

/// This party's unreduced additive share of x·y (the three cross terms it can compute:
/// xᵢ(yᵢ + yᵢ₊₁) + xᵢ₊₁yᵢ, §2.6 "Local Multiplication"), for accumulating inner products.
#[inline(always)]
pub fn local_product(backend: Backend, x: Rss64, y: Rss64) -> u128 {
    let [p, q] = backend.clmul64x2([x.first, x.second], [y.first ^ y.second, y.first]);
    p ^ q
}

fn words(bytes: &[u8]) -> impl Iterator<Item = u64> + '_ {
    bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8-byte chunk")))
}

fn to_bytes(values: impl IntoIterator<Item = u64>) -> Vec<u8> {
    values.into_iter().flat_map(u64::to_le_bytes).collect()
}

fn next(i: PartyId) -> PartyId {
    (i + 1) % 3
}

fn prev(i: PartyId) -> PartyId {
    (i + 2) % 3
}

/// `n` replicated sharings of uniformly random GF(2^64) elements (𝓕_rand).
pub fn random(party: &mut Party, n: usize) -> Vec<Rss64> {
    let bytes = party.prss_mut().random(8 * n);
    let first: Vec<u8> = bytes.iter().map(|s| s.first().0).collect();
    let second: Vec<u8> = bytes.iter().map(|s| s.second().0).collect();
    words(&first).zip(words(&second)).map(|(first, second)| Rss64 { first, second }).collect()
}

/// Resharing (𝓕_weakMult's communication): `local[k]` is this party's additive share of value k;
/// returns replicated shares. One message of 8·ℓ bytes to party i−1, one round.
pub async fn reshare<N: Network>(
    party: &mut Party,
    net: &mut N,
    local: &[u64],
    step: Step,
) -> Result<Vec<Rss64>, MaestroError> {
    let me = party.id();
    let zero = party.prss_mut().zero(8 * local.len());
    let zero: Vec<u8> = zero.iter().map(|b| b.0).collect();
    let own: Vec<u64> = local.iter().zip(words(&zero)).map(|(&v, a)| v ^ a).collect();
    send_bytes(net, prev(me), to_bytes(own.iter().copied()), step)?;
    let received = recv_bytes(net, next(me), 8 * local.len(), step).await?;
    Ok(own.into_iter().zip(words(&received)).map(|(first, second)| Rss64 { first, second }).collect())
}

/// Opens `shares` to all parties (one round, 8 bytes per value to party i−1) and records the
/// results in `view`, whose hash comparison later confirms every party opened the same values.
pub async fn open<N: Network>(
    party: &mut Party,
    net: &mut N,
    view: &mut PublicView,
    shares: &[Rss64],
    step: Step,
) -> Result<Vec<u64>, MaestroError> {
    let me = party.id();
    send_bytes(net, prev(me), to_bytes(shares.iter().map(|s| s.second)), step)?;
    let received = recv_bytes(net, next(me), 8 * shares.len(), step).await?;
    let values: Vec<u64> =
        shares.iter().zip(words(&received)).map(|(s, missing)| s.first ^ s.second ^ missing).collect();
    view.absorb(step, &to_bytes(values.iter().copied()));
    Ok(values)
}
