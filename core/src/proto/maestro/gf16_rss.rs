//! (2,3) replicated sharing over GF(2^4) and its batched multiplication, for the tower-field
//! S-boxes (MAESTRO §2.1, Protocol 3): the same index pattern and component-0 constant
//! convention as [`super::rss`], with nibble components.
//!
//! **Wire format.** Table 1 counts bits, so a message of ℓ GF(2^4) elements is ⌈ℓ/2⌉ bytes:
//! element 2k in the low nibble of byte k, element 2k+1 in its high nibble. When ℓ is odd the
//! unused high nibble of the last byte must be zero; a receiver rejects anything else as
//! [`MaestroError::NonzeroPadding`] (and a wrong length as [`MaestroError::MalformedMessage`]).
//!
//! **Multiplication** is [`super::Party::mul`]'s resharing over GF(2^4): party i sends
//! zᵢ = xᵢyᵢ + xᵢyᵢ₊₁ + xᵢ₊₁yᵢ + αᵢ to party i−1, with αᵢ the nibbles of a byte zero sharing
//! from the PRSS (each nibble of a byte zero sharing is itself a zero sharing). A batch of ℓ
//! products costs ⌈ℓ/2⌉ bytes and one round per party.

use super::error::{MaestroError, Step};
use super::msg::{recv_bytes, send_bytes};
use super::online::Party;
use super::rss::RssShare;
use crate::field::{Gf16, Gf16Squared, Gf256};
use crate::net::{Network, PartyId};

/// Party `party`'s share (x_party, x_party+1) of a replicated-shared GF(2^4) element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rss16 {
    first: Gf16,
    second: Gf16,
    party: u8,
}

impl Rss16 {
    /// The share of party `party` (0, 1 or 2) with components (x_party, x_party+1).
    ///
    /// # Panics
    /// If `party > 2` (a programming error: party indices come from a validated session).
    #[inline]
    pub fn new(party: PartyId, first: Gf16, second: Gf16) -> Self {
        assert!(party < 3, "Rss16: party {party} is not 0, 1 or 2");
        Rss16 { first, second, party: party as u8 }
    }

    /// Component x_party.
    #[inline]
    pub fn first(self) -> Gf16 {
        self.first
    }

    /// Component x_party+1.
    #[inline]
    pub fn second(self) -> Gf16 {
        self.second
    }

    /// The party holding this share.
    #[inline]
    pub fn party(self) -> PartyId {
        self.party as PartyId
    }

    /// The share of f(x) for an F2-linear map f on GF(2^4) (squaring, scaling by a constant).
    #[inline]
    pub fn map_linear(self, f: impl Fn(Gf16) -> Gf16) -> Self {
        Rss16 { first: f(self.first), second: f(self.second), party: self.party }
    }

    /// The share of x².
    #[inline]
    pub fn square(self) -> Self {
        self.map_linear(|c| c * c)
    }

    /// Multiplication by a public element.
    #[inline]
    pub fn scale(self, c: Gf16) -> Self {
        self.map_linear(|x| x * c)
    }

    /// Reconstructs the secret from all three parties' shares, or `None` if they are inconsistent.
    pub fn reconstruct(shares: &[Rss16; 3]) -> Option<Gf16> {
        let consistent =
            (0..3).all(|i| shares[i].party() == i && shares[i].second == shares[(i + 1) % 3].first);
        consistent.then(|| shares[0].first + shares[1].first + shares[2].first)
    }
}

impl core::ops::Add for Rss16 {
    type Output = Self;
    #[inline]
    fn add(self, rhs: Self) -> Self {
        debug_assert_eq!(self.party, rhs.party, "adding shares of different parties");
        Rss16 { first: self.first + rhs.first, second: self.second + rhs.second, party: self.party }
    }
}

/// Φ applied share-wise (F2-linear, hence local): shares of the tower coefficients (a_h, a_l).
pub fn to_tower(x: RssShare) -> (Rss16, Rss16) {
    let f = Gf16Squared::from_gf256(x.first());
    let s = Gf16Squared::from_gf256(x.second());
    let p = x.party();
    (Rss16::new(p, f.high(), s.high()), Rss16::new(p, f.low(), s.low()))
}

/// Φ⁻¹ applied share-wise to shares of (a_h, a_l).
pub fn from_tower(high: Rss16, low: Rss16) -> RssShare {
    debug_assert_eq!(high.party, low.party, "combining shares of different parties");
    let f = Gf16Squared::from_coefficients(high.first, low.first).to_gf256();
    let s = Gf16Squared::from_coefficients(high.second, low.second).to_gf256();
    RssShare::new(high.party(), f, s)
}

/// Packs GF(2^4) elements two per byte (low nibble first).
pub fn pack_nibbles(elements: &[Gf16]) -> Vec<u8> {
    elements.chunks(2).map(|c| c[0].value() | c.get(1).map_or(0, |h| h.value() << 4)).collect()
}

/// Unpacks `count` GF(2^4) elements from a message of `from`, checking its length and padding.
pub fn unpack_nibbles(
    bytes: &[u8],
    count: usize,
    from: PartyId,
    step: Step,
) -> Result<Vec<Gf16>, MaestroError> {
    let expected = count.div_ceil(2);
    if bytes.len() != expected {
        return Err(MaestroError::MalformedMessage { from, step, expected, actual: bytes.len() });
    }
    if count % 2 == 1 && bytes[expected - 1] >> 4 != 0 {
        return Err(MaestroError::NonzeroPadding { from, step });
    }
    let mut out = Vec::with_capacity(count);
    for &b in bytes {
        out.push(Gf16::new(b));
        out.push(Gf16::new(b >> 4));
    }
    out.truncate(count);
    Ok(out)
}

/// `n` zero-sharing parts over GF(2^4), two per PRSS byte.
pub(crate) fn zero_nibbles(party: &mut Party, n: usize) -> Vec<Gf16> {
    let bytes: Vec<Gf256> = party.prss_mut().zero(n.div_ceil(2));
    let mut out: Vec<Gf16> = bytes.iter().flat_map(|b| [Gf16::new(b.0), Gf16::new(b.0 >> 4)]).collect();
    out.truncate(n);
    out
}

/// Multiplies `a[k] · b[k]` over GF(2^4) for every k: one message of ⌈ℓ/2⌉ bytes to party i−1,
/// one round.
pub async fn mul<N: Network>(
    party: &mut Party,
    net: &mut N,
    a: &[Rss16],
    b: &[Rss16],
) -> Result<Vec<Rss16>, MaestroError> {
    if a.len() != b.len() {
        return Err(MaestroError::OperandLengthMismatch { left: a.len(), right: b.len() });
    }
    let me = party.id();
    let mut z = zero_nibbles(party, a.len());
    for ((z, x), y) in z.iter_mut().zip(a).zip(b) {
        *z += x.first * (y.first + y.second) + x.second * y.first;
    }
    send_bytes(net, (me + 2) % 3, pack_nibbles(&z), Step::Multiply)?;
    let from = (me + 1) % 3;
    let bytes = recv_bytes(net, from, a.len().div_ceil(2), Step::Multiply).await?;
    let z_next = unpack_nibbles(&bytes, a.len(), from, Step::Multiply)?;
    Ok(z.into_iter().zip(z_next).map(|(f, s)| Rss16::new(me, f, s)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::Field;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    #[test]
    fn nibble_packing_roundtrips_and_rejects_bad_messages() {
        let v: Vec<Gf16> = (0..33u8).map(|i| Gf16::new(i.wrapping_mul(7))).collect();
        for len in [0, 1, 2, 15, 16, 33] {
            let bytes = pack_nibbles(&v[..len]);
            assert_eq!(bytes.len(), len.div_ceil(2));
            assert_eq!(unpack_nibbles(&bytes, len, 2, Step::Multiply).unwrap(), &v[..len]);
        }
        assert_eq!(
            unpack_nibbles(&[0x21], 3, 1, Step::Multiply),
            Err(MaestroError::MalformedMessage { from: 1, step: Step::Multiply, expected: 2, actual: 1 })
        );
        assert_eq!(
            unpack_nibbles(&[0x21, 0x13], 3, 1, Step::Reveal),
            Err(MaestroError::NonzeroPadding { from: 1, step: Step::Reveal })
        );
    }

    #[test]
    fn tower_maps_on_shares_match_plain_exhaustively() {
        let mut rng = ChaCha20Rng::seed_from_u64(40);
        for v in 0..=255u8 {
            let shares = RssShare::deal(Gf256(v), &mut rng);
            let tower = shares.map(to_tower);
            let high = Rss16::reconstruct(&tower.map(|t| t.0)).expect("consistent");
            let low = Rss16::reconstruct(&tower.map(|t| t.1)).expect("consistent");
            let phi = Gf16Squared::from_gf256(Gf256(v));
            assert_eq!((high, low), (phi.high(), phi.low()), "Φ on shares of {v:#04x}");
            let back = tower.map(|(h, l)| from_tower(h, l));
            assert_eq!(RssShare::reconstruct(&back), Some(Gf256(v)));
            let sq = tower.map(|t| t.0.square().scale(Gf16Squared::E));
            assert_eq!(Rss16::reconstruct(&sq), Some(phi.high().square() * Gf16Squared::E));
        }
    }
}
