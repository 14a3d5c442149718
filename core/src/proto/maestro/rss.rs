//! (2,3) replicated secret sharing over GF(2^8) (MAESTRO §2.4 with n = 3, t = 2).
//!
//! A secret x is split into three components x = x₀ + x₁ + x₂; party i holds the pair
//! (xᵢ, xᵢ₊₁) (indices mod 3), so any two parties can reconstruct and any single party's pair is
//! uniformly random. Linear operations (addition, multiplication by public constants, squaring
//! and every other F2-linear map, §2.6 "Linear Operations", "Free Squaring") are applied to both
//! components locally.
//!
//! **Public constants.** Adding a public c must add it to exactly one component. The convention
//! here: c goes into component x₀, which party 0 holds as its *first* component and party 2 as its
//! *second*; party 1 does nothing. [`RssShare`] carries its party index for this.

use super::sbox::frobenius::{self, BitMatrix};
use crate::aes::linear::round_linear_bytes;
use crate::aes::AesByte;
use crate::field::{Field, Gf256};
use crate::net::PartyId;
use core::ops::{Add, AddAssign};
use rand_core::RngCore;

/// Party `party`'s share (x_party, x_party+1) of a replicated-shared GF(2^8) element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RssShare {
    first: Gf256,
    second: Gf256,
    party: u8,
}

impl RssShare {
    /// The share of party `party` (0, 1 or 2) with components (x_party, x_party+1).
    ///
    /// # Panics
    /// If `party > 2` (a programming error: party indices come from a validated session).
    #[inline]
    pub fn new(party: PartyId, first: Gf256, second: Gf256) -> Self {
        assert!(party < 3, "RssShare: party {party} is not 0, 1 or 2");
        RssShare { first, second, party: party as u8 }
    }

    /// [`RssShare::new`] for a party index already known to be 0, 1 or 2 (checked in debug
    /// builds only), for bulk conversions from contiguous buffers.
    #[inline]
    pub(super) fn from_components(party: PartyId, first: u8, second: u8) -> Self {
        debug_assert!(party < 3, "RssShare: party {party} is not 0, 1 or 2");
        RssShare { first: Gf256(first), second: Gf256(second), party: party as u8 }
    }

    /// The share of 0 (both components zero).
    #[inline]
    pub fn zero(party: PartyId) -> Self {
        Self::new(party, Gf256::ZERO, Gf256::ZERO)
    }

    /// The share of a public constant, following the component-0 convention of the module docs.
    #[inline]
    pub fn constant(party: PartyId, c: Gf256) -> Self {
        Self::zero(party).add_public(c.0)
    }

    /// Component x_party.
    #[inline]
    pub fn first(self) -> Gf256 {
        self.first
    }

    /// Component x_party+1.
    #[inline]
    pub fn second(self) -> Gf256 {
        self.second
    }

    /// The party holding this share.
    #[inline]
    pub fn party(self) -> PartyId {
        self.party as PartyId
    }

    /// Multiplication by a public field element (local).
    #[inline]
    pub fn scale(self, c: Gf256) -> Self {
        RssShare { first: self.first * c, second: self.second * c, party: self.party }
    }

    /// The share of x² (squaring is F2-linear, so it is applied to each component).
    #[inline]
    pub fn square(self) -> Self {
        self.map_frobenius(&frobenius::SQUARE)
    }

    /// The share of x⁴.
    #[inline]
    pub fn pow4(self) -> Self {
        self.map_frobenius(&frobenius::POW4)
    }

    /// The share of x¹⁶.
    #[inline]
    pub fn pow16(self) -> Self {
        self.map_frobenius(&frobenius::POW16)
    }

    #[inline]
    fn map_frobenius(self, m: &BitMatrix) -> Self {
        self.map_linear(|b| m.apply(b))
    }

    /// The share of L(x) for an F2-linear map `linear` on bytes (e.g. the linear part of the AES
    /// affine map). `linear` must be linear (L(a + b) = L(a) + L(b)), otherwise the result is
    /// not a sharing of L(x).
    #[inline]
    pub fn map_linear(self, linear: impl Fn(u8) -> u8) -> Self {
        RssShare {
            first: Gf256(linear(self.first.0)),
            second: Gf256(linear(self.second.0)),
            party: self.party,
        }
    }

    /// Splits `secret` into the three parties' shares with fresh randomness: a trusted-dealer
    /// helper for tests and benchmarks (protocols share inputs with
    /// [`super::Party::input`]).
    pub fn deal<R: RngCore + ?Sized>(secret: Gf256, rng: &mut R) -> [RssShare; 3] {
        let x0 = Gf256::random(rng);
        let x1 = Gf256::random(rng);
        let x = [x0, x1, secret + x0 + x1];
        core::array::from_fn(|i| RssShare::new(i, x[i], x[(i + 1) % 3]))
    }

    /// Reconstructs the secret from all three parties' shares, or `None` if they are
    /// inconsistent (a component held by two parties differs, or a share is in the wrong slot).
    pub fn reconstruct(shares: &[RssShare; 3]) -> Option<Gf256> {
        let consistent =
            (0..3).all(|i| shares[i].party() == i && shares[i].second == shares[(i + 1) % 3].first);
        consistent.then(|| shares[0].first + shares[1].first + shares[2].first)
    }
}

impl Add for RssShare {
    type Output = Self;
    #[inline]
    fn add(self, rhs: Self) -> Self {
        debug_assert_eq!(self.party, rhs.party, "adding shares of different parties");
        RssShare { first: self.first + rhs.first, second: self.second + rhs.second, party: self.party }
    }
}

impl AddAssign for RssShare {
    #[inline]
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl AesByte for RssShare {
    #[inline]
    fn xtime(self) -> Self {
        RssShare { first: self.first.xtime(), second: self.second.xtime(), party: self.party }
    }

    /// Adds `c` to component x₀: party 0's first component, party 2's second component.
    #[inline]
    fn add_public(self, c: u8) -> Self {
        // Branch-free on the (public) party index, so the code path is the same for all parties.
        let first_mask = 0u8.wrapping_sub((self.party == 0) as u8);
        let second_mask = 0u8.wrapping_sub((self.party == 2) as u8);
        RssShare {
            first: Gf256(self.first.0 ^ (c & first_mask)),
            second: Gf256(self.second.0 ^ (c & second_mask)),
            party: self.party,
        }
    }

    #[inline]
    fn mul_public(self, c: u8) -> Self {
        self.scale(Gf256(c))
    }

    /// The word-parallel round ([`round_linear_bytes`]) on each component: every map of the
    /// round is linear, so component j of the result depends only on component j of the state
    /// and of the round key.
    #[inline]
    fn round_linear(state: &mut [Self; 16], round_key: &[Self; 16], last: bool) {
        let party = state[0].party;
        debug_assert!(state.iter().chain(round_key).all(|s| s.party == party), "shares of different parties");
        let (mut first, mut second) = (state.map(|s| s.first.0), state.map(|s| s.second.0));
        round_linear_bytes(&mut first, &round_key.map(|k| k.first.0), last);
        round_linear_bytes(&mut second, &round_key.map(|k| k.second.0), last);
        *state =
            core::array::from_fn(|j| RssShare { first: Gf256(first[j]), second: Gf256(second[j]), party });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::sbox::affine_linear;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    fn open(s: [RssShare; 3]) -> Gf256 {
        RssShare::reconstruct(&s).expect("consistent sharing")
    }

    fn map3(s: [RssShare; 3], f: impl Fn(RssShare) -> RssShare) -> [RssShare; 3] {
        s.map(f)
    }

    #[test]
    fn deal_and_reconstruct_every_byte() {
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        for v in 0..=255u8 {
            assert_eq!(open(RssShare::deal(Gf256(v), &mut rng)), Gf256(v));
        }
    }

    #[test]
    fn inconsistent_shares_are_rejected() {
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        let mut s = RssShare::deal(Gf256(7), &mut rng);
        s[1].second += Gf256(1);
        assert_eq!(RssShare::reconstruct(&s), None);
        let s = RssShare::deal(Gf256(7), &mut rng);
        assert_eq!(RssShare::reconstruct(&[s[1], s[0], s[2]]), None);
    }

    #[test]
    fn add_public_touches_component_zero_exactly_once() {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        for v in 0..=255u8 {
            let c = v.wrapping_mul(37).wrapping_add(11);
            let s = RssShare::deal(Gf256(v), &mut rng);
            let t = map3(s, |x| x.add_public(c));
            assert_eq!(open(t), Gf256(v ^ c));
            // Party 1 is unchanged; parties 0 and 2 changed exactly the slot holding x₀.
            assert_eq!(t[1], s[1]);
            assert_eq!((t[0].first.0 ^ s[0].first.0, t[0].second), (c, s[0].second));
            assert_eq!((t[2].first, t[2].second.0 ^ s[2].second.0), (s[2].first, c));
            assert_eq!(open(core::array::from_fn(|i| RssShare::constant(i, Gf256(c)))), Gf256(c));
        }
    }

    #[test]
    fn round_linear_matches_the_generic_maps_on_shares() {
        use crate::aes::linear::{add_round_key, mix_columns, shift_rows};
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        for _ in 0..100 {
            let state: [[RssShare; 3]; 16] =
                core::array::from_fn(|_| RssShare::deal(Gf256::random(&mut rng), &mut rng));
            let key: [[RssShare; 3]; 16] =
                core::array::from_fn(|_| RssShare::deal(Gf256::random(&mut rng), &mut rng));
            for last in [false, true] {
                for p in 0..3 {
                    let (mut fast, mut generic) = (state.map(|s| s[p]), state.map(|s| s[p]));
                    let key = key.map(|k| k[p]);
                    RssShare::round_linear(&mut fast, &key, last);
                    shift_rows(&mut generic);
                    if !last {
                        mix_columns(&mut generic);
                    }
                    add_round_key(&mut generic, &key);
                    assert_eq!(fast, generic, "party {p}, last {last}");
                }
            }
        }
    }

    #[test]
    fn local_linear_operations_match_plain_exhaustively() {
        let mut rng = ChaCha20Rng::seed_from_u64(4);
        for v in 0..=255u8 {
            let x = Gf256(v);
            let y = Gf256::random(&mut rng);
            let (sx, sy) = (RssShare::deal(x, &mut rng), RssShare::deal(y, &mut rng));
            assert_eq!(open(core::array::from_fn(|i| sx[i] + sy[i])), x + y);
            assert_eq!(open(map3(sx, |s| s.xtime())), x.xtime());
            assert_eq!(open(map3(sx, |s| s.mul_public(0x57))), x * Gf256(0x57));
            assert_eq!(open(map3(sx, |s| s.square())), x * x);
            assert_eq!(open(map3(sx, |s| s.pow4())), x * x * x * x);
            assert_eq!(open(map3(sx, |s| s.pow16())), (0..4).fold(x, |a, _| a * a));
            assert_eq!(open(map3(sx, |s| s.map_linear(affine_linear))), Gf256(affine_linear(v)));
        }
    }
}
