//! Packed vectors over GF(2), the share type of boolean protocols (TinyTable, MiniMac over F2).
//!
//! Bits live in `u64` words: bit i of the vector is bit `i % 64` of word `i / 64`. The unused high
//! bits of the last word are always zero (every operation keeps this invariant), so word-wise
//! operations, equality and [`BitVec::count_ones`] need no masking.
//!
//! Byte order ([`BitVec::from_bytes`], [`BitVec::to_bytes`]): bit i of the vector is bit `i % 8`
//! (least significant first) of byte `i / 8`.

use core::ops::{BitAnd, BitAndAssign, BitXor, BitXorAssign, Not};
use rand_core::RngCore;
use thiserror::Error;

/// Binary operations on vectors of different lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("bit vector length mismatch: {left} vs {right}")]
pub struct LengthMismatch {
    /// Length of the left operand.
    pub left: usize,
    /// Length of the right operand.
    pub right: usize,
}

/// A vector of bits over GF(2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BitVec {
    words: Vec<u64>,
    len: usize,
}

const fn words_for(len: usize) -> usize {
    len.div_ceil(64)
}

impl BitVec {
    /// `len` zero bits.
    pub fn zeros(len: usize) -> Self {
        BitVec { words: vec![0; words_for(len)], len }
    }

    /// `len` one bits.
    pub fn ones(len: usize) -> Self {
        let mut v = BitVec { words: vec![u64::MAX; words_for(len)], len };
        v.clear_unused_bits();
        v
    }

    /// `len` uniformly random bits.
    pub fn random<R: RngCore + ?Sized>(len: usize, rng: &mut R) -> Self {
        let mut v = BitVec { words: (0..words_for(len)).map(|_| rng.next_u64()).collect(), len };
        v.clear_unused_bits();
        v
    }

    /// The first `len` bits of `bytes` (bit i is bit `i % 8` of byte `i / 8`); `None` if `bytes`
    /// holds fewer than `len` bits. Bits of `bytes` beyond `len` are ignored.
    pub fn from_bytes(bytes: &[u8], len: usize) -> Option<Self> {
        if bytes.len() * 8 < len {
            return None;
        }
        let mut words = vec![0u64; words_for(len)];
        for (word, chunk) in words.iter_mut().zip(bytes.chunks(8)) {
            let mut buffer = [0u8; 8];
            buffer[..chunk.len()].copy_from_slice(chunk);
            *word = u64::from_le_bytes(buffer);
        }
        let mut v = BitVec { words, len };
        v.clear_unused_bits();
        Some(v)
    }

    /// The bits as `⌈len / 8⌉` bytes (bit i is bit `i % 8` of byte `i / 8`; padding bits are zero).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes: Vec<u8> = self.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes.truncate(self.len.div_ceil(8));
        bytes
    }

    /// The vector of the given bits.
    pub fn from_bits(bits: impl IntoIterator<Item = bool>) -> Self {
        let mut v = BitVec::zeros(0);
        for bit in bits {
            v.push(bit);
        }
        v
    }

    /// Appends one bit.
    pub fn push(&mut self, bit: bool) {
        if self.len.is_multiple_of(64) {
            self.words.push(0);
        }
        self.len += 1;
        self.set(self.len - 1, bit);
    }

    /// Number of bits.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` for the empty vector.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The backing words (unused high bits of the last word are zero).
    #[inline]
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Bit `i`, or `None` past the end.
    #[inline]
    pub fn get(&self, i: usize) -> Option<bool> {
        (i < self.len).then(|| (self.words[i / 64] >> (i % 64)) & 1 == 1)
    }

    /// Sets bit `i`.
    ///
    /// # Panics
    /// If `i >= len` (an index bug in the caller, not external input).
    #[inline]
    pub fn set(&mut self, i: usize, bit: bool) {
        assert!(i < self.len, "BitVec::set: index {i} out of range for length {}", self.len);
        let mask = 1u64 << (i % 64);
        let word = &mut self.words[i / 64];
        *word = (*word & !mask) | (0u64.wrapping_sub(bit as u64) & mask);
    }

    /// Number of one bits (the Hamming weight).
    pub fn count_ones(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The bits in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = bool> + '_ {
        (0..self.len).map(move |i| (self.words[i / 64] >> (i % 64)) & 1 == 1)
    }

    /// `self ^= other`.
    ///
    /// # Errors
    /// [`LengthMismatch`] if the lengths differ.
    pub fn try_xor_assign(&mut self, other: &BitVec) -> Result<(), LengthMismatch> {
        self.check_length(other)?;
        self.words.iter_mut().zip(&other.words).for_each(|(a, b)| *a ^= b);
        Ok(())
    }

    /// `self &= other`.
    ///
    /// # Errors
    /// [`LengthMismatch`] if the lengths differ.
    pub fn try_and_assign(&mut self, other: &BitVec) -> Result<(), LengthMismatch> {
        self.check_length(other)?;
        self.words.iter_mut().zip(&other.words).for_each(|(a, b)| *a &= b);
        Ok(())
    }

    /// Flips every bit in place.
    pub fn not_assign(&mut self) {
        self.words.iter_mut().for_each(|w| *w = !*w);
        self.clear_unused_bits();
    }

    fn check_length(&self, other: &BitVec) -> Result<(), LengthMismatch> {
        if self.len == other.len {
            Ok(())
        } else {
            Err(LengthMismatch { left: self.len, right: other.len })
        }
    }

    /// Restores the invariant that bits past `len` are zero.
    fn clear_unused_bits(&mut self) {
        if !self.len.is_multiple_of(64) {
            if let Some(last) = self.words.last_mut() {
                *last &= u64::MAX >> (64 - self.len % 64);
            }
        }
    }
}

/// Operators panic on a length mismatch (a programming error); use `try_*` for external data.
impl BitXorAssign<&BitVec> for BitVec {
    fn bitxor_assign(&mut self, rhs: &BitVec) {
        self.try_xor_assign(rhs).expect("BitVec ^=: length mismatch");
    }
}
impl BitAndAssign<&BitVec> for BitVec {
    fn bitand_assign(&mut self, rhs: &BitVec) {
        self.try_and_assign(rhs).expect("BitVec &=: length mismatch");
    }
}
impl BitXor for &BitVec {
    type Output = BitVec;
    fn bitxor(self, rhs: &BitVec) -> BitVec {
        let mut out = self.clone();
        out ^= rhs;
        out
    }
}
impl BitAnd for &BitVec {
    type Output = BitVec;
    fn bitand(self, rhs: &BitVec) -> BitVec {
        let mut out = self.clone();
        out &= rhs;
        out
    }
}
impl Not for &BitVec {
    type Output = BitVec;
    fn not(self) -> BitVec {
        let mut out = self.clone();
        out.not_assign();
        out
    }
}
impl Not for BitVec {
    type Output = BitVec;
    fn not(mut self) -> BitVec {
        self.not_assign();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn invariant_holds(v: &BitVec) -> bool {
        v.words.len() == words_for(v.len)
            && (v.len.is_multiple_of(64) || v.words.last().is_none_or(|w| w >> (v.len % 64) == 0))
    }

    #[test]
    fn byte_order_is_lsb_first() {
        let v = BitVec::from_bytes(&[0b0000_0101, 0x80], 16).unwrap();
        assert_eq!(v.iter().collect::<Vec<_>>()[..3], [true, false, true]);
        assert_eq!(v.get(15), Some(true));
        assert_eq!(v.get(16), None);
        assert_eq!(v.count_ones(), 3);
        assert!(BitVec::from_bytes(&[0xff], 9).is_none());
        // Bits beyond the length are dropped, keeping the invariant.
        let short = BitVec::from_bytes(&[0xff], 3).unwrap();
        assert_eq!(short.to_bytes(), vec![0b111]);
        assert!(invariant_holds(&short));
    }

    #[test]
    fn mismatched_lengths_are_errors() {
        let mut a = BitVec::zeros(10);
        assert_eq!(a.try_xor_assign(&BitVec::zeros(11)), Err(LengthMismatch { left: 10, right: 11 }));
        assert!(a.try_and_assign(&BitVec::zeros(9)).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, rng_seed: proptest::test_runner::RngSeed::Fixed(2), ..ProptestConfig::default() })]

        #[test]
        fn operations_match_bool_vectors(pairs in proptest::collection::vec(any::<(bool, bool)>(), 0..200)) {
            let (x, y): (Vec<bool>, Vec<bool>) = pairs.into_iter().unzip();
            let (a, b) = (BitVec::from_bits(x.clone()), BitVec::from_bits(y.clone()));
            let xor = &a ^ &b;
            let and = &a & &b;
            let not = !&a;
            for v in [&a, &b, &xor, &and, &not] {
                prop_assert!(invariant_holds(v));
            }
            prop_assert_eq!(xor.iter().collect::<Vec<_>>(), x.iter().zip(&y).map(|(p, q)| p ^ q).collect::<Vec<_>>());
            prop_assert_eq!(and.iter().collect::<Vec<_>>(), x.iter().zip(&y).map(|(p, q)| p & q).collect::<Vec<_>>());
            prop_assert_eq!(not.iter().collect::<Vec<_>>(), x.iter().map(|p| !p).collect::<Vec<_>>());
            prop_assert_eq!(not.count_ones(), x.len() - a.count_ones());
            prop_assert_eq!(a.count_ones(), x.iter().filter(|&&p| p).count());
            let round_trip = BitVec::from_bytes(&a.to_bytes(), a.len()).unwrap();
            prop_assert_eq!(&round_trip, &a);
            prop_assert_eq!(BitVec::ones(x.len()), !BitVec::zeros(x.len()));
        }

        #[test]
        fn set_get_and_random(len in 0usize..300, seed: u64, flips in proptest::collection::vec(any::<proptest::sample::Index>(), 0..20)) {
            use rand_core::SeedableRng;
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
            let mut v = BitVec::random(len, &mut rng);
            prop_assert!(invariant_holds(&v));
            if len > 0 {
                for index in flips {
                    let i = index.index(len);
                    let old = v.get(i).unwrap();
                    v.set(i, !old);
                    prop_assert_eq!(v.get(i), Some(!old));
                    prop_assert!(invariant_holds(&v));
                }
            }
        }
    }
}
