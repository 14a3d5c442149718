//! Contiguous ("structure of arrays") replicated shares and the bulk local arithmetic the S-box
//! layers run on: one byte buffer per component instead of one small struct per element, so
//! products use the SIMD backends of [`Gf256Backend`], F2-linear maps run eight bytes at a time,
//! and a message is a component buffer as it is (no encoding pass).
//!
//! - [`Packed`]: GF(2^8) shares, component j of element k at byte k of buffer j;
//! - [`Packed16`]: GF(2^4) shares in the wire layout of [`super::gf16_rss`] (element 2k in the
//!   low nibble of byte k, element 2k+1 in its high nibble, a zero high nibble after an odd last
//!   element), so GF(2^4) products run 16 lanes per `u64` ([`crate::field::Gf16::mul_packed`]);
//! - [`ByteLinear`]: an F2-linear map on bytes applied SWAR-style (per-bit masks, no table);
//! - [`Party::mul_packed`] / [`mul16_packed`]: the resharing multiplication of
//!   [`Party::mul`] / [`super::gf16_rss::mul`] on these buffers, with the same PRSS consumption
//!   and the same messages, so the two forms interoperate.
//!
//! Everything here is constant time in the shared values: products are masked shift-and-add or
//! in-register nibble shuffles, linear maps are masked XORs. Large buffers are processed in
//! chunks (`par::for_chunks_mut`), in parallel under the `rayon` feature.
use super::error::{MaestroError, Step};
use super::msg::{recv_bytes, send_bytes};
use super::online::Party;
use super::par::{for_chunks_mut, CHUNK};
use super::rss::RssShare;
use crate::aes::linear::round_linear_bytes;
use crate::field::Gf256Backend;
use crate::net::{Network, PartyId};

mod byte_linear;
mod packed16;
#[cfg(test)]
mod tests;

pub use byte_linear::ByteLinear;
pub use packed16::{
    add_cross_terms16, from_tower_packed, mul16_packed, nibble_linear, to_tower_packed, Packed16,
};
pub(super) use packed16::{check_padding, clear_padding};

/// Replicated GF(2^8) shares of one party, one buffer per component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    /// The holding party.
    pub party: PartyId,
    /// Components x_party of every element.
    pub first: Vec<u8>,
    /// Components x_party+1 of every element.
    pub second: Vec<u8>,
}

impl Packed {
    /// The buffers of `shares` (all of party `party`).
    pub fn from_shares(party: PartyId, shares: &[RssShare]) -> Self {
        // Collected straight from the shares: no zero-filled buffer to overwrite.
        let first = shares.iter().map(|s| s.first().0).collect();
        let second = shares.iter().map(|s| s.second().0).collect();
        Packed { party, first, second }
    }

    /// Both component buffers, borrowed.
    pub(super) fn view(&self) -> Components<'_> {
        Components { first: &self.first, second: &self.second }
    }

    /// The components of elements `range`, borrowed.
    pub(super) fn view_range(&self, range: core::ops::Range<usize>) -> Components<'_> {
        Components { first: &self.first[range.clone()], second: &self.second[range] }
    }

    /// The shares as [`RssShare`] values.
    pub fn to_shares(&self) -> Vec<RssShare> {
        assert!(self.party < 3, "Packed: party {} is not 0, 1 or 2", self.party);
        self.first
            .iter()
            .zip(&self.second)
            .map(|(&a, &b)| RssShare::from_components(self.party, a, b))
            .collect()
    }

    /// Writes the shares into `out` (of the same length).
    pub fn write_to(&self, out: &mut [RssShare]) {
        assert!(self.party < 3, "Packed: party {} is not 0, 1 or 2", self.party);
        for ((o, &a), &b) in out.iter_mut().zip(&self.first).zip(&self.second) {
            *o = RssShare::from_components(self.party, a, b);
        }
    }

    /// Number of shared elements.
    pub fn len(&self) -> usize {
        self.first.len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.first.is_empty()
    }

    /// The shares of L(x) for every x (L F2-linear), component-wise.
    pub fn map_linear(&self, linear: &ByteLinear) -> Packed {
        self.view().map_linear(self.party, linear)
    }

    /// [`Packed::map_linear`] in place.
    pub fn map_linear_in_place(&mut self, linear: &ByteLinear) {
        linear.apply_in_place(&mut self.first);
        linear.apply_in_place(&mut self.second);
    }

    /// Adds the public constant `c` to every element (component 0, as [`RssShare::constant`]:
    /// party 0's first component, party 2's second; the party index is public).
    pub fn add_public(&mut self, c: u8) {
        let component = match self.party {
            0 => &mut self.first,
            2 => &mut self.second,
            _ => return,
        };
        component.iter_mut().for_each(|b| *b ^= c);
    }

    /// The linear part of an AES encryption round ([`crate::aes::AesByte::round_linear`]) on
    /// every 16-element block of AES states, with the shared `round_key`, written into `out` as
    /// [`RssShare`] values: the maps are linear, so each block of each component goes through the
    /// word-parallel [`round_linear_bytes`] with the same component of the key, and the result
    /// is stored straight into `out` (no pass back over the buffers).
    ///
    /// # Panics
    /// If the length is not a multiple of 16 or not `out.len()`, or `round_key` is held by
    /// another party.
    pub fn write_round_linear(&self, round_key: &[RssShare; 16], last: bool, out: &mut [RssShare]) {
        assert!(self.party < 3, "Packed: party {} is not 0, 1 or 2", self.party);
        assert!(
            self.len().is_multiple_of(16) && self.len() == out.len(),
            "Packed::write_round_linear: lengths"
        );
        assert!(round_key.iter().all(|k| k.party() == self.party), "round key of another party");
        let (key_first, key_second) = (round_key.map(|k| k.first().0), round_key.map(|k| k.second().0));
        let blocks = self.first.chunks_exact(16).zip(self.second.chunks_exact(16));
        for ((first, second), out) in blocks.zip(out.chunks_exact_mut(16)) {
            let mut first: [u8; 16] = first.try_into().expect("16-byte chunk");
            let mut second: [u8; 16] = second.try_into().expect("16-byte chunk");
            round_linear_bytes(&mut first, &key_first, last);
            round_linear_bytes(&mut second, &key_second, last);
            for ((o, &a), &b) in out.iter_mut().zip(&first).zip(&second) {
                *o = RssShare::from_components(self.party, a, b);
            }
        }
    }

    /// `self` followed by `other`.
    pub fn concat(&self, other: &Packed) -> Packed {
        Packed {
            party: self.party,
            first: [&self.first[..], &other.first].concat(),
            second: [&self.second[..], &other.second].concat(),
        }
    }

    /// Splits into the first `at` elements and the rest.
    pub fn split_at(mut self, at: usize) -> (Packed, Packed) {
        let rest =
            Packed { party: self.party, first: self.first.split_off(at), second: self.second.split_off(at) };
        (self, rest)
    }
}

/// Borrowed component buffers of replicated GF(2^8) shares (a [`Packed`] or a range of one), so
/// the S-box layers can multiply parts of a buffer without copying them out.
#[derive(Clone, Copy, Debug)]
pub(super) struct Components<'a> {
    /// Components x_party.
    pub(super) first: &'a [u8],
    /// Components x_party+1.
    pub(super) second: &'a [u8],
}

impl Components<'_> {
    /// Number of shared elements.
    pub(super) fn len(&self) -> usize {
        self.first.len()
    }

    /// The shares of L(x) for every x, as new buffers of party `party`.
    pub(super) fn map_linear(&self, party: PartyId, linear: &ByteLinear) -> Packed {
        Packed { party, first: linear.apply(self.first), second: linear.apply(self.second) }
    }

    /// The shares as new buffers of party `party`.
    pub(super) fn to_packed(self, party: PartyId) -> Packed {
        Packed { party, first: self.first.to_vec(), second: self.second.to_vec() }
    }
}
/// `z[k] ^= x0[k]·(y0[k] + y1[k]) + x1[k]·y0[k]` over GF(2^8): this party's three cross terms of
/// each product (§2.6 "Local Multiplication").
pub fn add_cross_terms(z: &mut [u8], x: &Packed, y: &Packed) {
    add_cross_terms_of(z, x.view(), y.view());
}

/// [`add_cross_terms`] on borrowed components.
fn add_cross_terms_of(z: &mut [u8], x: Components<'_>, y: Components<'_>) {
    let backend = Gf256Backend::detect();
    for_chunks_mut(z, |offset, z| {
        let range = offset..offset + z.len();
        let (x0, x1, y0, y1) =
            (&x.first[range.clone()], &x.second[range.clone()], &y.first[range.clone()], &y.second[range]);
        let mut sum = [0u8; CHUNK];
        let mut product = [0u8; CHUNK];
        let (sum, product) = (&mut sum[..z.len()], &mut product[..z.len()]);
        for ((s, &a), &b) in sum.iter_mut().zip(y0).zip(y1) {
            *s = a ^ b;
        }
        backend.mul_slices(product, x0, sum);
        backend.mul_slices(sum, x1, y0);
        for ((z, &p), &s) in z.iter_mut().zip(product.iter()).zip(sum.iter()) {
            *z ^= p ^ s;
        }
    });
}

impl Party {
    /// [`Party::mul`] on contiguous shares: the same PRSS draws and the same message (one of ℓ
    /// bytes to party i−1, one round).
    pub async fn mul_packed<N: Network>(
        &mut self,
        net: &mut N,
        a: &Packed,
        b: &Packed,
    ) -> Result<Packed, MaestroError> {
        self.mul_packed_batches(net, &[(a.view(), b.view())]).await
    }

    /// Several batches of products `a[k] · b[k]` in one message: the result (and the message) is
    /// the products of the first pair followed by those of the next, exactly what
    /// [`Party::mul_packed`] gives for the concatenated operands, without building them.
    pub(super) async fn mul_packed_batches<N: Network>(
        &mut self,
        net: &mut N,
        batches: &[(Components<'_>, Components<'_>)],
    ) -> Result<Packed, MaestroError> {
        if let Some((a, b)) = batches.iter().find(|(a, b)| a.len() != b.len()) {
            return Err(MaestroError::OperandLengthMismatch { left: a.len(), right: b.len() });
        }
        let me = self.id();
        let total = batches.iter().map(|(a, _)| a.len()).sum();
        let mut z = self.prss_mut().zero_bytes(total);
        let mut offset = 0;
        for (a, b) in batches {
            add_cross_terms_of(&mut z[offset..offset + a.len()], *a, *b);
            offset += a.len();
        }
        // The network takes the message by value and z stays this party's first component.
        send_bytes(net, (me + 2) % 3, z.clone(), Step::Multiply)?;
        let second = recv_bytes(net, (me + 1) % 3, total, Step::Multiply).await?;
        Ok(Packed { party: me, first: z, second })
    }
}
