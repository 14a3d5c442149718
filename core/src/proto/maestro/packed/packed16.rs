//! [`Packed16`]: replicated GF(2^4) shares in the nibble-packed wire layout of
//! [`crate::proto::maestro::gf16_rss`], their resharing multiplication, and the tower
//! conversions between [`Packed`] GF(2^8) shares and pairs of them.

use super::{ByteLinear, Packed};
use crate::field::{Gf16, Gf256};
use crate::net::{Network, PartyId};
use crate::proto::maestro::error::{MaestroError, Step};
use crate::proto::maestro::msg::{recv_bytes, send_bytes};
use crate::proto::maestro::online::Party;
use crate::proto::maestro::par::for_chunks_mut;

/// Replicated GF(2^4) shares of one party in the nibble-packed wire layout (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed16 {
    /// The holding party.
    pub party: PartyId,
    /// Number of elements.
    pub len: usize,
    /// Components x_party, two per byte.
    pub first: Vec<u8>,
    /// Components x_party+1, two per byte.
    pub second: Vec<u8>,
}

/// Clears the unused high nibble after an odd number `len` of packed elements.
pub(in crate::proto::maestro) fn clear_padding(bytes: &mut [u8], len: usize) {
    if len % 2 == 1 {
        if let Some(last) = bytes.last_mut() {
            *last &= 0x0f;
        }
    }
}

/// Concatenates two nibble-packed vectors of `a_len` and `b_len` elements.
fn concat_nibbles(a: &[u8], a_len: usize, b: &[u8], b_len: usize) -> Vec<u8> {
    if a_len.is_multiple_of(2) {
        return [a, b].concat();
    }
    // Odd split: every element of b moves by one nibble.
    let mut out = a.to_vec();
    let last = out.pop().unwrap_or(0) & 0x0f;
    let mut carry = last;
    for &byte in b {
        out.push(carry | byte << 4);
        carry = byte >> 4;
    }
    if (a_len + b_len) % 2 == 1 {
        // b_len even: the final carry is the last element.
        out.push(carry);
    }
    out.truncate((a_len + b_len).div_ceil(2));
    out
}

/// The first `at` and the remaining elements of a nibble-packed vector of `len` elements.
fn split_nibbles(bytes: &[u8], len: usize, at: usize) -> (Vec<u8>, Vec<u8>) {
    let mut head = bytes[..at.div_ceil(2)].to_vec();
    clear_padding(&mut head, at);
    let tail = if at.is_multiple_of(2) {
        bytes[at / 2..].to_vec()
    } else {
        let mut tail: Vec<u8> = (at / 2..len.div_ceil(2))
            .map(|k| bytes[k] >> 4 | bytes.get(k + 1).map_or(0, |n| n << 4))
            .collect();
        tail.truncate((len - at).div_ceil(2));
        clear_padding(&mut tail, len - at);
        tail
    };
    (head, tail)
}

impl Packed16 {
    /// The shares one element at a time (for code that records products, e.g. the malicious
    /// variants' triple log).
    pub fn to_shares(&self) -> Vec<crate::proto::maestro::gf16_rss::Rss16> {
        let nibble = |bytes: &[u8], k: usize| crate::field::Gf16::new(bytes[k / 2] >> (4 * (k % 2)));
        (0..self.len)
            .map(|k| {
                crate::proto::maestro::gf16_rss::Rss16::new(
                    self.party,
                    nibble(&self.first, k),
                    nibble(&self.second, k),
                )
            })
            .collect()
    }

    /// Number of shared elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `self` followed by `other`.
    pub fn concat(&self, other: &Packed16) -> Packed16 {
        Packed16 {
            party: self.party,
            len: self.len + other.len,
            first: concat_nibbles(&self.first, self.len, &other.first, other.len),
            second: concat_nibbles(&self.second, self.len, &other.second, other.len),
        }
    }

    /// Splits into the first `at` elements and the rest.
    pub fn split_at(&self, at: usize) -> (Packed16, Packed16) {
        let (f0, f1) = split_nibbles(&self.first, self.len, at);
        let (s0, s1) = split_nibbles(&self.second, self.len, at);
        (
            Packed16 { party: self.party, len: at, first: f0, second: s0 },
            Packed16 { party: self.party, len: self.len - at, first: f1, second: s1 },
        )
    }

    /// Component-wise sum.
    pub fn add(&self, other: &Packed16) -> Packed16 {
        let xor = |a: &[u8], b: &[u8]| a.iter().zip(b).map(|(x, y)| x ^ y).collect();
        Packed16 {
            party: self.party,
            len: self.len,
            first: xor(&self.first, &other.first),
            second: xor(&self.second, &other.second),
        }
    }

    /// The shares of f(x) for an F2-linear map `f` on GF(2^4) (applied to both nibbles of each
    /// byte; the zero padding stays zero).
    pub fn map_linear(&self, f: &ByteLinear) -> Packed16 {
        Packed16 {
            party: self.party,
            len: self.len,
            first: f.apply(&self.first),
            second: f.apply(&self.second),
        }
    }
}

/// An F2-linear map f on GF(2^4) lifted to both nibbles of a byte.
pub fn nibble_linear(f: impl Fn(Gf16) -> Gf16) -> ByteLinear {
    ByteLinear::new(|b| f(Gf16::new(b & 0xf)).value() | f(Gf16::new(b >> 4)).value() << 4)
}

fn words(bytes: &[u8]) -> impl Iterator<Item = u64> + '_ {
    bytes.chunks(8).map(|c| {
        let mut w = [0u8; 8];
        w[..c.len()].copy_from_slice(c);
        u64::from_le_bytes(w)
    })
}

/// `z ^= x0·(y0 + y1) + x1·y0` on nibble-packed GF(2^4) elements, 16 per `u64`.
pub fn add_cross_terms16(z: &mut [u8], x: &Packed16, y: &Packed16) {
    #[inline]
    fn cross(x0: u64, x1: u64, y0: u64, y1: u64) -> u64 {
        Gf16::mul_packed(x0, y0 ^ y1) ^ Gf16::mul_packed(x1, y0)
    }
    for_chunks_mut(z, |offset, z| {
        let range = offset..offset + z.len();
        let (x0, x1, y0, y1) =
            (&x.first[range.clone()], &x.second[range.clone()], &y.first[range.clone()], &y.second[range]);
        let whole = z.len() / 8 * 8;
        let word = |b: &[u8], k: usize| u64::from_le_bytes(b[k..k + 8].try_into().expect("8 bytes"));
        for (k, zc) in (0..whole).step_by(8).zip(z[..whole].chunks_exact_mut(8)) {
            let t = cross(word(x0, k), word(x1, k), word(y0, k), word(y1, k));
            let old = u64::from_le_bytes((&*zc).try_into().expect("8 bytes"));
            zc.copy_from_slice(&(old ^ t).to_le_bytes());
        }
        let tail = |b: &[u8]| words(&b[whole..]).next().unwrap_or(0);
        let t = cross(tail(x0), tail(x1), tail(y0), tail(y1)).to_le_bytes();
        for (b, t) in z[whole..].iter_mut().zip(t) {
            *b ^= t;
        }
    });
}

/// [`crate::proto::maestro::gf16_rss::mul`] on nibble-packed shares: the same PRSS draws and the same message
/// (⌈ℓ/2⌉ bytes to party i−1, one round).
pub async fn mul16_packed<N: Network>(
    party: &mut Party,
    net: &mut N,
    a: &Packed16,
    b: &Packed16,
) -> Result<Packed16, MaestroError> {
    if a.len != b.len {
        return Err(MaestroError::OperandLengthMismatch { left: a.len, right: b.len });
    }
    let me = party.id();
    let bytes = a.len.div_ceil(2);
    let mut z = vec![0u8; bytes];
    party.prss_mut().zero_into(&mut z);
    add_cross_terms16(&mut z, a, b);
    clear_padding(&mut z, a.len);
    send_bytes(net, (me + 2) % 3, z.clone(), Step::Multiply)?;
    let from = (me + 1) % 3;
    let second = recv_bytes(net, from, bytes, Step::Multiply).await?;
    check_padding(&second, a.len, from, Step::Multiply)?;
    Ok(Packed16 { party: me, len: a.len, first: z, second })
}

/// Rejects a nibble-packed message of `len` elements whose unused high nibble is not zero.
pub(in crate::proto::maestro) fn check_padding(
    bytes: &[u8],
    len: usize,
    from: PartyId,
    step: Step,
) -> Result<(), MaestroError> {
    if len % 2 == 1 && bytes.last().is_some_and(|b| b >> 4 != 0) {
        return Err(MaestroError::NonzeroPadding { from, step });
    }
    Ok(())
}

/// Φ share-wise on contiguous GF(2^8) shares: nibble-packed shares of (a_h, a_l).
pub fn to_tower_packed(x: &Packed) -> (Packed16, Packed16) {
    let phi = ByteLinear::new(|b| crate::field::Gf16Squared::from_gf256(Gf256(b)).value());
    let split = |component: &[u8]| {
        let t = phi.apply(component);
        let half = t.len().div_ceil(2);
        let (mut high, mut low) = (vec![0u8; half], vec![0u8; half]);
        let pairs = t.chunks_exact(2);
        let last = pairs.remainder().first().copied();
        for ((h, l), pair) in high.iter_mut().zip(low.iter_mut()).zip(pairs) {
            (*h, *l) = (pair[0] >> 4 | pair[1] & 0xf0, pair[0] & 0x0f | pair[1] << 4);
        }
        if let Some(b) = last {
            (high[half - 1], low[half - 1]) = (b >> 4, b & 0x0f);
        }
        (high, low)
    };
    let (fh, fl) = split(&x.first);
    let (sh, sl) = split(&x.second);
    let n = x.len();
    (
        Packed16 { party: x.party, len: n, first: fh, second: sh },
        Packed16 { party: x.party, len: n, first: fl, second: sl },
    )
}

/// Φ⁻¹ share-wise on nibble-packed shares of (a_h, a_l).
pub fn from_tower_packed(high: &Packed16, low: &Packed16) -> Packed {
    let phi_inv = ByteLinear::new(|b| {
        crate::field::Gf16Squared::from_coefficients(Gf16::new(b >> 4), Gf16::new(b & 0xf)).to_gf256().0
    });
    let join = |h: &[u8], l: &[u8]| {
        let mut t = vec![0u8; 2 * h.len()];
        for ((pair, &h), &l) in t.chunks_exact_mut(2).zip(h).zip(l) {
            pair[0] = h << 4 | l & 0x0f;
            pair[1] = h & 0xf0 | l >> 4;
        }
        t.truncate(high.len);
        phi_inv.apply_in_place(&mut t);
        t
    };
    Packed {
        party: high.party,
        first: join(&high.first, &low.first),
        second: join(&high.second, &low.second),
    }
}
