//! The share ring Z_{2^(k+s)} of Spdz2k (Cramer–Damgård–Escudero–Scholl–Xing, CRYPTO 2018; the
//! arithmetic half of Coral's mixed circuits, Coral paper §2.2.1 "SPDZ-style MACs" with
//! S = Z_{2^ℓ}, §4.3.1).
//!
//! Values live in Z_{2^k} (k = 32 or 64, [`RingBits`]); shares and MACs in Z_{2^(k+s)} with
//! s = [`S`] = 48 and the MAC key α ∈ Z_{2^s}. Spdz2k's batched MAC check with coefficients in
//! Z_{2^s} catches an error in the low k bits of an opened value except with probability
//! 2^(−s + log2(s + 1)) = 2^-42.4 here, so 40-bit statistical security as everywhere in Chorus;
//! errors in the upper s bits do not change the value and need not be caught.
//!
//! Elements are `u128` with wrapping arithmetic: 2^(k+s) divides 2^128, so every sum and product
//! is right modulo 2^(k+s) and only [`ArithRing::reduce`] (before a value is sent, compared or
//! stored) drops the upper bits. On the wire an element is (k+s)/8 little-endian bytes (10 or 14),
//! the upper bits of the last byte zero by construction.

use crate::circuit::mixed::RingBits;
use crate::net::PartyId;

use super::super::error::CoralError;
use super::super::messages::Step;

/// Spdz2k's statistical parameter s: the MAC key's bits and the shares' extra bits.
pub const S: u32 = 48;

/// Z_{2^(k+s)} for one choice of k.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArithRing {
    bits: RingBits,
}

impl ArithRing {
    /// The ring for values of `bits`.
    pub const fn new(bits: RingBits) -> Self {
        ArithRing { bits }
    }

    /// The values' ring Z_{2^k}.
    pub const fn value_bits(self) -> RingBits {
        self.bits
    }

    /// k.
    pub const fn k(self) -> u32 {
        match self.bits {
            RingBits::K32 => 32,
            RingBits::K64 => 64,
        }
    }

    /// k + s, the bits of a share.
    pub const fn share_bits(self) -> u32 {
        self.k() + S
    }

    /// Bytes of one element on the wire.
    pub const fn element_bytes(self) -> usize {
        (self.share_bits() / 8) as usize
    }

    /// `x` modulo 2^(k+s).
    #[inline]
    pub const fn reduce(self, x: u128) -> u128 {
        x & ((1u128 << self.share_bits()) - 1)
    }

    /// `x` modulo 2^k: the value a share stands for.
    #[inline]
    pub const fn value(self, x: u128) -> u64 {
        (x & ((1u128 << self.k()) - 1)) as u64
    }

    /// A uniform element of Z_{2^(k+s)} from 128 random bits.
    #[inline]
    pub const fn from_random(self, bits: u128) -> u128 {
        self.reduce(bits)
    }

    /// A uniform MAC-key share in Z_{2^s} from 128 random bits.
    #[inline]
    pub const fn key_from_random(bits: u128) -> u128 {
        bits & ((1u128 << S) - 1)
    }

    /// Bytes of `count` elements.
    pub const fn bytes(self, count: usize) -> usize {
        count * self.element_bytes()
    }

    /// The elements, reduced, (k+s)/8 little-endian bytes each.
    pub fn pack(self, values: &[u128]) -> Vec<u8> {
        let width = self.element_bytes();
        let mut out = Vec::with_capacity(values.len() * width);
        for &v in values {
            out.extend_from_slice(&self.reduce(v).to_le_bytes()[..width]);
        }
        out
    }

    /// Exactly `count` elements from `peer`'s payload at `step`, else a typed
    /// [`CoralError::Malformed`].
    pub fn unpack(
        self,
        bytes: &[u8],
        count: usize,
        peer: PartyId,
        step: Step,
    ) -> Result<Vec<u128>, CoralError> {
        let width = self.element_bytes();
        if bytes.len() != self.bytes(count) {
            return Err(CoralError::malformed(
                peer,
                step.name(),
                format!(
                    "expected {} bytes for {count} elements of Z_2^{}, got {}",
                    self.bytes(count),
                    self.share_bits(),
                    bytes.len()
                ),
            ));
        }
        Ok(bytes
            .chunks_exact(width)
            .map(|c| {
                let mut w = [0u8; 16];
                w[..width].copy_from_slice(c);
                u128::from_le_bytes(w)
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_round_trip_at_both_sizes_and_bad_lengths_are_typed() {
        for (bits, width) in [(RingBits::K32, 10), (RingBits::K64, 14)] {
            let ring = ArithRing::new(bits);
            assert_eq!(ring.element_bytes(), width);
            let values: Vec<u128> = (0..9u128)
                .map(|i| ring.reduce(i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)))
                .collect();
            let bytes = ring.pack(&values);
            assert_eq!(bytes.len(), 9 * width);
            assert_eq!(ring.unpack(&bytes, 9, 1, Step::ArithInput).unwrap(), values);
            let err = ring.unpack(&bytes[1..], 9, 1, Step::ArithInput).unwrap_err();
            assert!(matches!(err, CoralError::Malformed { peer: 1, .. }), "{err}");
            // Packing reduces: the upper bits of a u128 never reach the wire.
            assert_eq!(ring.pack(&[u128::MAX]), ring.pack(&[ring.reduce(u128::MAX)]));
        }
    }

    #[test]
    fn wrapping_u128_arithmetic_is_arithmetic_modulo_2_to_the_k_plus_s() {
        let ring = ArithRing::new(RingBits::K64);
        let (a, b) = (ring.reduce(u128::MAX - 12345), ring.reduce(0xdead_beef_u128 << 70));
        let m = 1u128 << ring.share_bits();
        // Reference: schoolbook modulo 2^112 on split halves.
        let expected = {
            let (a_lo, a_hi) = (a & ((1 << 56) - 1), a >> 56);
            let (b_lo, b_hi) = (b & ((1 << 56) - 1), b >> 56);
            (a_lo * b_lo + (((a_lo * b_hi + a_hi * b_lo) % (m >> 56)) << 56)) % m
        };
        assert_eq!(ring.reduce(a.wrapping_mul(b)), expected);
        assert_eq!(ring.value(a.wrapping_add(b)), (a as u64).wrapping_add(b as u64));
    }
}
