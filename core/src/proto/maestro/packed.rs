//! Contiguous ("structure of arrays") replicated shares and the bulk local arithmetic the S-box
//! layers run on: one byte buffer per component instead of one small struct per element, so
//! products use the SIMD backends of [`Gf256Backend`], F2-linear maps run eight bytes at a time,
//! and a message is a component buffer as it is (no encoding pass).
//!
//! - [`Packed`]: GF(2^8) shares, component j of element k at byte k of buffer j;
//! - [`Packed16`]: GF(2^4) shares in the wire layout of [`super::gf16_rss`] (element 2k in the
//!   low nibble of byte k, element 2k+1 in its high nibble, a zero high nibble after an odd last
//!   element), so GF(2^4) products run 16 lanes per `u64` ([`Gf16::mul_packed`]);
//! - [`ByteLinear`]: an F2-linear map on bytes applied SWAR-style (per-bit masks, no table);
//! - [`Party::mul_packed`] / [`mul16_packed`]: the resharing multiplication of
//!   [`Party::mul`] / [`super::gf16_rss::mul`] on these buffers, with the same PRSS consumption
//!   and the same messages, so the two forms interoperate.
//!
//! Everything here is constant time in the shared values: products are masked shift-and-add or
//! in-register nibble shuffles, linear maps are masked XORs. Large buffers are processed in
//! chunks ([`super::par::for_chunks_mut`]), in parallel under the `rayon` feature.

use super::error::{MaestroError, Step};
use super::msg::{recv_bytes, send_bytes};
use super::online::Party;
use super::par::{for_chunks_mut, parallel_now, CHUNK};
use super::rss::RssShare;
use crate::aes::linear::round_linear_bytes;
use crate::field::{Gf16, Gf256, Gf256Backend};
use crate::net::{Network, PartyId};

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
        assert!(self.len() % 16 == 0 && self.len() == out.len(), "Packed::write_round_linear: lengths");
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

/// An F2-linear map on bytes. Portable path: eight bytes per `u64` by masked XORs of its
/// columns. x86-64 with AVX2 (detected at run time, off under the `force-portable` feature):
/// L(b) = L(b & 0x0f) ⊕ L(b & 0xf0), both halves looked up in 16-entry tables held in registers
/// (`vpshufb`), 32 bytes per step — constant time, since the table never leaves the register.
#[derive(Clone, Copy, Debug)]
pub struct ByteLinear {
    /// Column i (the image of bit i) repeated in every byte lane.
    columns: [u64; 8],
    /// L(i) for the low nibble i (the SIMD path's register table).
    #[cfg(target_arch = "x86_64")]
    low: [u8; 16],
    /// L(i << 4) for the high nibble i.
    #[cfg(target_arch = "x86_64")]
    high: [u8; 16],
}

const LANE_LSBS: u64 = 0x0101_0101_0101_0101;

impl ByteLinear {
    /// The map with `linear(1 << i)` as column i; `linear` must be F2-linear.
    pub fn new(linear: impl Fn(u8) -> u8) -> Self {
        let columns: [u8; 8] = core::array::from_fn(|i| linear(1 << i));
        #[cfg(target_arch = "x86_64")]
        let combine = |bits: usize, shift: usize| {
            (0..4).filter(|j| bits >> j & 1 == 1).fold(0u8, |acc, j| acc ^ columns[j + shift])
        };
        ByteLinear {
            columns: columns.map(|c| u64::from(c) * LANE_LSBS),
            #[cfg(target_arch = "x86_64")]
            low: core::array::from_fn(|i| combine(i, 0)),
            #[cfg(target_arch = "x86_64")]
            high: core::array::from_fn(|i| combine(i, 4)),
        }
    }

    #[inline]
    fn apply_word(&self, w: u64) -> u64 {
        let mut acc = 0;
        for (i, col) in self.columns.iter().enumerate() {
            // Bit i of each byte spread over its byte: a mask per lane.
            acc ^= ((w >> i) & LANE_LSBS).wrapping_mul(0xff) & col;
        }
        acc
    }

    /// L(b) for one byte.
    #[inline]
    pub fn apply_byte(&self, b: u8) -> u8 {
        self.apply_word(u64::from(b)) as u8
    }

    /// L applied to every byte of `src`.
    pub fn apply(&self, src: &[u8]) -> Vec<u8> {
        if parallel_now(src.len()) {
            let mut out = vec![0u8; src.len()];
            self.apply_into(&mut out, src);
            return out;
        }
        // Mapped piece by piece through a buffer that stays in L1 and appended, so the output
        // is written once (no zero fill of a large buffer first).
        let simd = simd_available();
        let mut out = Vec::with_capacity(src.len());
        let mut staging = [0u8; CHUNK];
        for piece in src.chunks(CHUNK) {
            let staged = &mut staging[..piece.len()];
            self.apply_piece(simd, staged, piece);
            out.extend_from_slice(staged);
        }
        out
    }

    /// `dst[k] = L(src[k])`.
    pub fn apply_into(&self, dst: &mut [u8], src: &[u8]) {
        let simd = simd_available();
        for_chunks_mut(dst, |offset, d| self.apply_piece(simd, d, &src[offset..offset + d.len()]));
    }

    /// `dst[k] = L(src[k])` on one piece, by the SIMD path if `simd` and the portable path for
    /// what it leaves.
    #[inline]
    fn apply_piece(&self, simd: bool, dst: &mut [u8], src: &[u8]) {
        let done = if simd { self.apply_simd(dst, src) } else { 0 };
        self.apply_portable(&mut dst[done..], &src[done..]);
    }

    /// `bytes[k] = L(bytes[k])`.
    pub fn apply_in_place(&self, bytes: &mut [u8]) {
        let simd = simd_available();
        for_chunks_mut(bytes, |_, d| {
            let done = if simd { self.apply_simd_in_place(d) } else { 0 };
            let tail = &mut d[done..];
            for b in tail.iter_mut() {
                *b = self.apply_byte(*b);
            }
        });
    }

    /// The portable path (SWAR), also the reference the SIMD path is tested against.
    fn apply_portable(&self, dst: &mut [u8], src: &[u8]) {
        let mut d8 = dst.chunks_exact_mut(8);
        let mut s8 = src.chunks_exact(8);
        for (d, s) in (&mut d8).zip(&mut s8) {
            let w = u64::from_le_bytes(s.try_into().expect("8-byte chunk"));
            d.copy_from_slice(&self.apply_word(w).to_le_bytes());
        }
        for (d, &s) in d8.into_remainder().iter_mut().zip(s8.remainder()) {
            *d = self.apply_byte(s);
        }
    }

    /// The SIMD path on the longest prefix it handles; returns that prefix's length.
    #[inline]
    fn apply_simd(&self, dst: &mut [u8], src: &[u8]) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: only called when `simd_available` detected AVX2.
            unsafe { simd::apply_avx2(&self.low, &self.high, dst, src) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (dst, src);
            0
        }
    }

    #[inline]
    fn apply_simd_in_place(&self, bytes: &mut [u8]) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: only called when `simd_available` detected AVX2.
            unsafe { simd::apply_avx2_in_place(&self.low, &self.high, bytes) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = bytes;
            0
        }
    }
}

/// Whether [`ByteLinear`] uses its SIMD path (the one place this is decided).
#[inline]
fn simd_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        !cfg!(feature = "force-portable") && std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The AVX2 nibble-table path of [`ByteLinear`].
#[cfg(target_arch = "x86_64")]
mod simd {
    use core::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    #[inline]
    fn map32(low: __m256i, high: __m256i, mask: __m256i, v: __m256i) -> __m256i {
        let lo = _mm256_and_si256(v, mask);
        let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), mask);
        _mm256_xor_si256(_mm256_shuffle_epi8(low, lo), _mm256_shuffle_epi8(high, hi))
    }

    /// Maps the first ⌊len/32⌋·32 bytes; returns how many.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn apply_avx2(low: &[u8; 16], high: &[u8; 16], dst: &mut [u8], src: &[u8]) -> usize {
        let n = dst.len().min(src.len()) / 32 * 32;
        // SAFETY: loads and stores stay below n ≤ both lengths; tables are 16 bytes.
        unsafe {
            let low = _mm256_broadcastsi128_si256(_mm_loadu_si128(low.as_ptr().cast()));
            let high = _mm256_broadcastsi128_si256(_mm_loadu_si128(high.as_ptr().cast()));
            let mask = _mm256_set1_epi8(0x0f);
            let mut k = 0;
            while k < n {
                let v = _mm256_loadu_si256(src.as_ptr().add(k).cast());
                _mm256_storeu_si256(dst.as_mut_ptr().add(k).cast(), map32(low, high, mask, v));
                k += 32;
            }
        }
        n
    }

    /// [`apply_avx2`] in place.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn apply_avx2_in_place(low: &[u8; 16], high: &[u8; 16], bytes: &mut [u8]) -> usize {
        let n = bytes.len() / 32 * 32;
        // SAFETY: as in `apply_avx2`.
        unsafe {
            let low = _mm256_broadcastsi128_si256(_mm_loadu_si128(low.as_ptr().cast()));
            let high = _mm256_broadcastsi128_si256(_mm_loadu_si128(high.as_ptr().cast()));
            let mask = _mm256_set1_epi8(0x0f);
            let mut k = 0;
            while k < n {
                let p = bytes.as_mut_ptr().add(k).cast();
                _mm256_storeu_si256(p, map32(low, high, mask, _mm256_loadu_si256(p)));
                k += 32;
            }
        }
        n
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
pub(super) fn clear_padding(bytes: &mut [u8], len: usize) {
    if len % 2 == 1 {
        if let Some(last) = bytes.last_mut() {
            *last &= 0x0f;
        }
    }
}

/// Concatenates two nibble-packed vectors of `a_len` and `b_len` elements.
fn concat_nibbles(a: &[u8], a_len: usize, b: &[u8], b_len: usize) -> Vec<u8> {
    if a_len % 2 == 0 {
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
    let tail = if at % 2 == 0 {
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
    pub fn to_shares(&self) -> Vec<super::gf16_rss::Rss16> {
        let nibble = |bytes: &[u8], k: usize| crate::field::Gf16::new(bytes[k / 2] >> (4 * (k % 2)));
        (0..self.len)
            .map(|k| super::gf16_rss::Rss16::new(self.party, nibble(&self.first, k), nibble(&self.second, k)))
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

/// [`super::gf16_rss::mul`] on nibble-packed shares: the same PRSS draws and the same message
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
pub(super) fn check_padding(bytes: &[u8], len: usize, from: PartyId, step: Step) -> Result<(), MaestroError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::Gf16Squared;
    use crate::proto::maestro::frobenius::SQUARE;
    use crate::proto::maestro::gf16_rss::{from_tower, pack_nibbles, to_tower, Rss16};
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    fn random_shares(rng: &mut ChaCha20Rng, party: PartyId, n: usize) -> Vec<RssShare> {
        (0..n)
            .map(|_| RssShare::new(party, Gf256(rng.next_u32() as u8), Gf256(rng.next_u32() as u8)))
            .collect()
    }

    #[test]
    fn byte_linear_matches_the_bit_matrix_exhaustively() {
        let square = ByteLinear::new(|b| SQUARE.apply(b));
        let all: Vec<u8> = (0..=255).collect();
        let expected: Vec<u8> = all.iter().map(|&b| SQUARE.apply(b)).collect();
        assert_eq!(square.apply(&all), expected);
        for len in [0, 1, 7, 9, 33] {
            assert_eq!(square.apply(&all[..len]), &expected[..len], "len {len}");
        }
    }

    #[test]
    fn byte_linear_simd_path_matches_the_portable_path() {
        let mut rng = ChaCha20Rng::seed_from_u64(72);
        let maps = [
            ByteLinear::new(|b| SQUARE.apply(b)),
            ByteLinear::new(crate::aes::sbox::affine_linear),
            nibble_linear(|v| v * v * Gf16Squared::E),
        ];
        for map in &maps {
            for len in [0, 1, 31, 32, 33, 100, CHUNK + 45] {
                let mut src = vec![0u8; len];
                rng.fill_bytes(&mut src);
                let mut expected = vec![0u8; len];
                map.apply_portable(&mut expected, &src);
                let mut out = vec![0u8; len];
                let done = map.apply_simd(&mut out, &src);
                map.apply_portable(&mut out[done..], &src[done..]);
                assert_eq!(out, expected, "len {len}");
                assert_eq!(map.apply(&src), expected, "len {len}");
                let mut in_place = src.clone();
                map.apply_in_place(&mut in_place);
                assert_eq!(in_place, expected, "len {len}");
                if simd_available() {
                    assert_eq!(done, len / 32 * 32);
                }
            }
        }
    }

    #[test]
    fn packed_round_linear_matches_the_share_round() {
        let mut rng = ChaCha20Rng::seed_from_u64(73);
        for blocks in [1, 3, 40] {
            let shares = random_shares(&mut rng, 2, 16 * blocks);
            let key: [RssShare; 16] = random_shares(&mut rng, 2, 16).try_into().expect("16 shares");
            for last in [false, true] {
                let mut out = vec![RssShare::zero(2); shares.len()];
                Packed::from_shares(2, &shares).write_round_linear(&key, last, &mut out);
                let mut expected: Vec<[RssShare; 16]> =
                    shares.chunks_exact(16).map(|c| c.try_into().expect("16 shares")).collect();
                for block in expected.iter_mut() {
                    crate::aes::linear::shift_rows(block);
                    if !last {
                        crate::aes::linear::mix_columns(block);
                    }
                    crate::aes::linear::add_round_key(block, &key);
                }
                assert_eq!(out, expected.as_flattened(), "blocks {blocks}, last {last}");
            }
        }
    }

    #[test]
    fn cross_terms_match_the_scalar_formula() {
        let mut rng = ChaCha20Rng::seed_from_u64(70);
        for n in [0, 1, 31, 1000, CHUNK + 3] {
            let x = random_shares(&mut rng, 1, n);
            let y = random_shares(&mut rng, 1, n);
            let mut z = vec![0u8; n];
            add_cross_terms(&mut z, &Packed::from_shares(1, &x), &Packed::from_shares(1, &y));
            let expected: Vec<u8> = x
                .iter()
                .zip(&y)
                .map(|(x, y)| (x.first() * (y.first() + y.second()) + x.second() * y.first()).0)
                .collect();
            assert_eq!(z, expected, "n {n}");
        }
    }

    #[test]
    fn tower_maps_and_nibble_ops_match_the_per_element_forms() {
        let mut rng = ChaCha20Rng::seed_from_u64(71);
        for n in [1, 2, 5, 16, 33, 2 * CHUNK + 37] {
            let x = random_shares(&mut rng, 2, n);
            let packed = Packed::from_shares(2, &x);
            let (high, low) = to_tower_packed(&packed);
            let (h, l): (Vec<Rss16>, Vec<Rss16>) = x.iter().map(|&s| to_tower(s)).unzip();
            let pack = |v: &[Rss16], first: bool| {
                pack_nibbles(
                    &v.iter().map(|s| if first { s.first() } else { s.second() }).collect::<Vec<_>>(),
                )
            };
            assert_eq!((&high.first, &high.second), (&pack(&h, true), &pack(&h, false)), "n {n}");
            assert_eq!((&low.first, &low.second), (&pack(&l, true), &pack(&l, false)), "n {n}");
            let back: Vec<RssShare> = h.iter().zip(&l).map(|(&h, &l)| from_tower(h, l)).collect();
            assert_eq!(from_tower_packed(&high, &low).to_shares(), back);

            let scale = nibble_linear(|v| v * v * Gf16Squared::E);
            let mapped = high.map_linear(&scale);
            let expected: Vec<Rss16> = h.iter().map(|s| s.square().scale(Gf16Squared::E)).collect();
            assert_eq!(mapped.first, pack(&expected, true));

            let mut z = vec![0u8; n.div_ceil(2)];
            add_cross_terms16(&mut z, &high, &low);
            let cross: Vec<Gf16> = h
                .iter()
                .zip(&l)
                .map(|(x, y)| x.first() * (y.first() + y.second()) + x.second() * y.first())
                .collect();
            assert_eq!(z, pack_nibbles(&cross));

            for at in 0..=n {
                let (a, b) = high.split_at(at);
                assert_eq!((a.len, b.len), (at, n - at));
                assert_eq!(a.concat(&b), high, "n {n}, split at {at}");
            }
        }
    }
}
