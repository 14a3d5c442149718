//! Compiled F2-linear maps between bit strings: the fast path of every embedding map.
//!
//! φ, ψ, τ (RMFE), σ, ρ (MFE) and the composite ↔ binary conversion θ (Coral §2.2.3, §3.2, §3.3)
//! are all F_q-linear, hence F2-linear maps between bit strings of a few hundred bits at most. Coral
//! §3.4 speeds them up with lookup tables, precomputed small-field arithmetic and caches; we go one
//! step further: each map is evaluated once on the unit vectors through its algebraic definition
//! (the reference path) and stored as its matrix columns, from which two evaluation strategies are
//! derived:
//!
//! - [`Evaluation::ConstantTime`] (the default): for every input bit, XOR the column into the
//!   output under an all-ones/all-zeros mask derived from the bit. No branch and no memory address
//!   depends on the input, so it is suitable for secret shares. The mask bit passes through
//!   `core::hint::black_box` because LLVM otherwise rewrites the masked XOR into a branch for
//!   multi-word columns (seen in the x86-64 assembly); that barrier is best-effort, as in every
//!   Rust constant-time library.
//! - [`Evaluation::ByteTable`]: "method of four Russians" — for every input byte, a 256-entry table
//!   of output words indexed by the byte value, XORed together. About 8× fewer operations, but the
//!   table index is the (secret) input byte, so it is **not constant time** (cache-timing leaks);
//!   use it only on public data or where that leak is acceptable.
//!
//! Both strategies are plain portable Rust, so they behave the same natively and on wasm32.
//! Strategy selection happens in one place, [`LinearMap::apply`] / [`LinearMap::apply_word`].
//!
//! Bit conventions: a bit string of `n` bits is `⌈n/64⌉` little-endian `u64` words; bit `i` is bit
//! `i % 64` of word `i / 64`; bits at or above `n` are zero.

use core::hint::black_box;

use super::error::EmbedError;

/// How a compiled [`LinearMap`] is evaluated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Evaluation {
    /// Masked XOR of columns: constant time in the input (the default).
    #[default]
    ConstantTime,
    /// Byte-indexed lookup tables: faster, but the memory access pattern depends on the input.
    ByteTable,
}

/// An F2-linear map from `in_bits`-bit strings to `out_bits`-bit strings, stored as its columns
/// (the images of the unit vectors) and as byte-indexed tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearMap {
    in_bits: usize,
    out_bits: usize,
    out_words: usize,
    /// Column `i` (image of unit vector `e_i`) at `[i·out_words, (i+1)·out_words)`.
    columns: Vec<u64>,
    /// For input byte `p` and value `v`, the image of `v << 8p` at `[(p·256 + v)·out_words, ..)`.
    tables: Vec<u64>,
    evaluation: Evaluation,
}

/// All ones if bit 0 of `word` is set, else zero. The bit goes through [`black_box`] so that the
/// optimizer cannot see it is 0 or 1: without it, LLVM turns `column & mask` into a select and
/// then into a branch around the column load (observed for multi-word columns), which would make
/// the running time depend on the secret bit. `black_box` is a best-effort barrier, not a
/// guarantee (see its documentation).
#[inline(always)]
fn bit_mask(word: u64) -> u64 {
    black_box(word & 1).wrapping_neg()
}

/// Number of `u64` words holding `bits` bits.
pub(crate) const fn words_for(bits: usize) -> usize {
    bits.div_ceil(64)
}

/// Reads `len ≤ 64` bits starting at bit `start` of a word string.
pub(crate) fn read_bits(words: &[u64], start: usize, len: usize) -> u64 {
    if len == 0 {
        return 0;
    }
    let (word, offset) = (start / 64, start % 64);
    let mut value = words[word] >> offset;
    if offset != 0 && offset + len > 64 {
        value |= words[word + 1] << (64 - offset);
    }
    value & low_mask(len)
}

/// XORs `value` (of `len ≤ 64` bits) into a word string at bit `start`.
pub(crate) fn xor_bits(words: &mut [u64], start: usize, len: usize, value: u64) {
    if len == 0 {
        return;
    }
    let value = value & low_mask(len);
    let (word, offset) = (start / 64, start % 64);
    words[word] ^= value << offset;
    if offset != 0 && offset + len > 64 {
        words[word + 1] ^= value >> (64 - offset);
    }
}

/// The low `len ≤ 64` bits set.
pub(crate) const fn low_mask(len: usize) -> u64 {
    if len >= 64 {
        u64::MAX
    } else {
        (1u64 << len) - 1
    }
}

/// `Ok` iff `words` is a well-formed `bits`-bit string (right length, no bit at or above `bits`).
pub(crate) fn check_bit_string(words: &[u64], bits: usize, what: &'static str) -> Result<(), EmbedError> {
    let expected = words_for(bits);
    if words.len() != expected {
        return Err(EmbedError::LengthMismatch { what, expected, found: words.len() });
    }
    if let Some(&last) = words.last() {
        let used = bits - 64 * (expected - 1);
        if last & !low_mask(used) != 0 {
            return Err(EmbedError::InputOutOfRange { value: last, bits });
        }
    }
    Ok(())
}

impl LinearMap {
    /// The map whose column `i` is `image(i)`, the image of unit vector `e_i` as `⌈out_bits/64⌉`
    /// words.
    ///
    /// # Errors
    /// [`EmbedError::LengthMismatch`] or [`EmbedError::InputOutOfRange`] if an image is not a
    /// well-formed `out_bits`-bit string.
    pub fn from_images(
        in_bits: usize,
        out_bits: usize,
        mut image: impl FnMut(usize) -> Result<Vec<u64>, EmbedError>,
    ) -> Result<Self, EmbedError> {
        let out_words = words_for(out_bits);
        let mut columns = Vec::with_capacity(in_bits * out_words);
        for i in 0..in_bits {
            let column = image(i)?;
            check_bit_string(&column, out_bits, "column image")?;
            columns.extend_from_slice(&column);
        }
        let tables = byte_tables(in_bits, out_words, &columns);
        Ok(LinearMap { in_bits, out_bits, out_words, columns, tables, evaluation: Evaluation::default() })
    }

    /// Bits of the domain.
    pub fn in_bits(&self) -> usize {
        self.in_bits
    }

    /// Bits of the codomain.
    pub fn out_bits(&self) -> usize {
        self.out_bits
    }

    /// Words of an input bit string.
    pub fn in_words(&self) -> usize {
        words_for(self.in_bits)
    }

    /// Words of an output bit string.
    pub fn out_words(&self) -> usize {
        self.out_words
    }

    /// The evaluation strategy in use.
    pub fn evaluation(&self) -> Evaluation {
        self.evaluation
    }

    /// Selects the evaluation strategy (see the module docs for the constant-time caveat).
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = evaluation;
    }

    /// Column `i`: the image of unit vector `e_i`.
    pub fn column(&self, i: usize) -> &[u64] {
        &self.columns[i * self.out_words..(i + 1) * self.out_words]
    }

    /// Applies the map with the selected strategy.
    ///
    /// # Errors
    /// [`EmbedError::LengthMismatch`] if `input` or `output` has the wrong number of words,
    /// [`EmbedError::InputOutOfRange`] if `input` has bits at or above `in_bits`.
    pub fn apply(&self, input: &[u64], output: &mut [u64]) -> Result<(), EmbedError> {
        check_bit_string(input, self.in_bits, "linear map input")?;
        if output.len() != self.out_words {
            return Err(EmbedError::LengthMismatch {
                what: "linear map output",
                expected: self.out_words,
                found: output.len(),
            });
        }
        self.apply_unchecked(input, output);
        Ok(())
    }

    /// Applies the map to a well-formed input (lengths checked by the caller).
    #[inline]
    pub(crate) fn apply_unchecked(&self, input: &[u64], output: &mut [u64]) {
        match self.evaluation {
            Evaluation::ConstantTime => self.apply_constant_time(input, output),
            Evaluation::ByteTable => self.apply_byte_table(input, output),
        }
    }

    /// Applies a map with at most 64 input and output bits to one word with the selected strategy.
    /// Callers check that the map has one-word domain and codomain and that `x` fits.
    #[inline]
    pub(crate) fn apply_word(&self, x: u64) -> u64 {
        match self.evaluation {
            Evaluation::ConstantTime => self.apply_word_constant_time(x),
            Evaluation::ByteTable => self.apply_word_byte_table(x),
        }
    }

    /// [`apply_word`](Self::apply_word) on every word of `words`, in place (same preconditions).
    /// Byte-table maps of 33 to 64 input bits use a kernel with the number of input bytes fixed
    /// at compile time (unrolled, no bounds checks).
    pub(crate) fn apply_words_in_place(&self, words: &mut [u64]) {
        match (self.evaluation, self.out_words, self.in_bits.div_ceil(8)) {
            (Evaluation::ByteTable, 1, 5) => self.byte_table_words::<5>(words),
            (Evaluation::ByteTable, 1, 6) => self.byte_table_words::<6>(words),
            (Evaluation::ByteTable, 1, 7) => self.byte_table_words::<7>(words),
            (Evaluation::ByteTable, 1, 8) => self.byte_table_words::<8>(words),
            _ => words.iter_mut().for_each(|w| *w = self.apply_word(*w)),
        }
    }

    fn byte_table_words<const B: usize>(&self, words: &mut [u64]) {
        let tables: [&[u64; 256]; B] = core::array::from_fn(|p| {
            self.tables[p * 256..(p + 1) * 256].try_into().expect("one table of 256 words per input byte")
        });
        for w in words {
            let x = *w;
            *w = (0..B).fold(0, |acc, p| acc ^ tables[p][usize::from((x >> (8 * p)) as u8)]);
        }
    }

    /// Masked-XOR evaluation: constant time in `input`. `output` is overwritten. Output widths of
    /// up to four words use kernels with the width fixed at compile time (fully unrolled).
    pub(crate) fn apply_constant_time(&self, input: &[u64], output: &mut [u64]) {
        match self.out_words {
            1 => self.constant_time_kernel::<1>(input, output),
            2 => self.constant_time_kernel::<2>(input, output),
            3 => self.constant_time_kernel::<3>(input, output),
            4 => self.constant_time_kernel::<4>(input, output),
            _ => {
                output.fill(0);
                for (i, column) in self.columns.chunks_exact(self.out_words).enumerate() {
                    let mask = bit_mask(input[i / 64] >> (i % 64));
                    for (o, &c) in output.iter_mut().zip(column) {
                        *o ^= c & mask;
                    }
                }
            }
        }
    }

    /// Two interleaved accumulators halve the XOR dependency chain (the loop is latency-bound).
    #[inline]
    fn constant_time_kernel<const W: usize>(&self, input: &[u64], output: &mut [u64]) {
        let mut even = [0u64; W];
        let mut odd = [0u64; W];
        for (&word, columns) in input.iter().zip(self.columns.chunks(64 * W)) {
            let mut remaining = word;
            let mut pairs = columns.chunks_exact(2 * W);
            for pair in &mut pairs {
                let (first, second) = pair.split_at(W);
                let mask_first = bit_mask(remaining);
                let mask_second = bit_mask(remaining >> 1);
                remaining >>= 2;
                for k in 0..W {
                    even[k] ^= first[k] & mask_first;
                    odd[k] ^= second[k] & mask_second;
                }
            }
            for (k, &c) in pairs.remainder().iter().enumerate() {
                even[k] ^= c & bit_mask(remaining);
            }
        }
        for (o, (e, d)) in output.iter_mut().zip(even.iter().zip(&odd)) {
            *o = e ^ d;
        }
    }

    /// Byte-table evaluation: NOT constant time (input bytes are table indices).
    pub(crate) fn apply_byte_table(&self, input: &[u64], output: &mut [u64]) {
        match self.out_words {
            1 => self.byte_table_kernel::<1>(input, output),
            2 => self.byte_table_kernel::<2>(input, output),
            3 => self.byte_table_kernel::<3>(input, output),
            4 => self.byte_table_kernel::<4>(input, output),
            _ => {
                output.fill(0);
                let ow = self.out_words;
                for p in 0..self.in_bits.div_ceil(8) {
                    let byte = ((input[p / 8] >> (8 * (p % 8))) & 0xff) as usize;
                    let row = &self.tables[(p * 256 + byte) * ow..(p * 256 + byte + 1) * ow];
                    for (o, &t) in output.iter_mut().zip(row) {
                        *o ^= t;
                    }
                }
            }
        }
    }

    #[inline]
    fn byte_table_kernel<const W: usize>(&self, input: &[u64], output: &mut [u64]) {
        let mut acc = [0u64; W];
        for (p, table) in self.tables.chunks_exact(256 * W).enumerate() {
            let byte = ((input[p / 8] >> (8 * (p % 8))) & 0xff) as usize;
            for (a, &t) in acc.iter_mut().zip(&table[byte * W..(byte + 1) * W]) {
                *a ^= t;
            }
        }
        output.copy_from_slice(&acc);
    }

    #[inline]
    fn apply_word_constant_time(&self, x: u64) -> u64 {
        let mut remaining = x;
        self.columns.iter().fold(0, |acc, &c| {
            let mask = bit_mask(remaining);
            remaining >>= 1;
            acc ^ (c & mask)
        })
    }

    #[inline]
    fn apply_word_byte_table(&self, x: u64) -> u64 {
        (0..self.in_bits.div_ceil(8))
            .fold(0, |acc, p| acc ^ self.tables[p * 256 + ((x >> (8 * p)) & 0xff) as usize])
    }

    /// `next ∘ self`. Both must have compatible widths (checked).
    ///
    /// # Errors
    /// [`EmbedError::LengthMismatch`] if `self.out_bits() != next.in_bits()`.
    pub fn then(&self, next: &LinearMap) -> Result<LinearMap, EmbedError> {
        if self.out_bits != next.in_bits {
            return Err(EmbedError::LengthMismatch {
                what: "composed map domain",
                expected: self.out_bits,
                found: next.in_bits,
            });
        }
        LinearMap::from_images(self.in_bits, next.out_bits, |i| {
            let mut out = vec![0u64; next.out_words];
            next.apply_constant_time(self.column(i), &mut out);
            Ok(out)
        })
    }

    /// The inverse of a square map of at most 64 bits, or `None` if it is singular or too wide.
    pub fn inverse(&self) -> Option<LinearMap> {
        let n = self.in_bits;
        if n != self.out_bits || n > 64 {
            return None;
        }
        // Gauss–Jordan on pairs (M·v, v): reduce the columns to unit vectors while tracking which
        // combination of inputs produced each; the pair (e_j, v) says M^{-1} e_j = v.
        let mut pairs: Vec<(u64, u64)> = (0..n).map(|i| (self.columns[i], 1u64 << i)).collect();
        for pivot in 0..n {
            let bit = 1u64 << pivot;
            let row = (pivot..n).find(|&r| pairs[r].0 & bit != 0)?;
            pairs.swap(pivot, row);
            let (image, source) = pairs[pivot];
            for (r, pair) in pairs.iter_mut().enumerate() {
                if r != pivot && pair.0 & bit != 0 {
                    pair.0 ^= image;
                    pair.1 ^= source;
                }
            }
        }
        LinearMap::from_images(n, n, |j| Ok(vec![pairs[j].1])).ok()
    }
}

/// Builds the byte tables: entry `v` of byte `p` is the XOR of the columns `8p + b` for the set
/// bits `b` of `v`, filled incrementally from the entry without `v`'s lowest set bit.
fn byte_tables(in_bits: usize, out_words: usize, columns: &[u64]) -> Vec<u64> {
    let bytes = in_bits.div_ceil(8);
    let mut tables = vec![0u64; bytes * 256 * out_words];
    for p in 0..bytes {
        for v in 1..256usize {
            let low = v.trailing_zeros() as usize;
            let rest = v & (v - 1);
            let bit = 8 * p + low;
            for w in 0..out_words {
                let column_word = if bit < in_bits { columns[bit * out_words + w] } else { 0 };
                tables[(p * 256 + v) * out_words + w] =
                    tables[(p * 256 + rest) * out_words + w] ^ column_word;
            }
        }
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    fn random_map(rng: &mut ChaCha20Rng, in_bits: usize, out_bits: usize) -> LinearMap {
        LinearMap::from_images(in_bits, out_bits, |_| {
            let mut column: Vec<u64> = (0..words_for(out_bits)).map(|_| rng.next_u64()).collect();
            let last = column.len() - 1;
            column[last] &= low_mask(out_bits - 64 * last);
            Ok(column)
        })
        .unwrap()
    }

    fn random_input(rng: &mut ChaCha20Rng, bits: usize) -> Vec<u64> {
        let mut v: Vec<u64> = (0..words_for(bits)).map(|_| rng.next_u64()).collect();
        let last = v.len() - 1;
        v[last] &= low_mask(bits - 64 * last);
        v
    }

    /// Naive reference: XOR of the columns of set bits, with a branch.
    fn naive(map: &LinearMap, input: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64; map.out_words()];
        for i in 0..map.in_bits() {
            if read_bits(input, i, 1) == 1 {
                for (o, &c) in out.iter_mut().zip(map.column(i)) {
                    *o ^= c;
                }
            }
        }
        out
    }

    #[test]
    fn both_strategies_match_the_naive_product() {
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        for &(inb, outb) in
            &[(14, 42), (42, 14), (42, 195), (195, 42), (7, 3), (64, 64), (130, 129), (42, 42), (36, 50)]
        {
            let mut map = random_map(&mut rng, inb, outb);
            for _ in 0..50 {
                let x = random_input(&mut rng, inb);
                let expected = naive(&map, &x);
                let mut out = vec![0u64; map.out_words()];
                map.apply_constant_time(&x, &mut out);
                assert_eq!(out, expected);
                map.apply_byte_table(&x, &mut out);
                assert_eq!(out, expected);
                if inb <= 64 && outb <= 64 {
                    for evaluation in [Evaluation::ConstantTime, Evaluation::ByteTable] {
                        map.set_evaluation(evaluation);
                        assert_eq!(map.apply_word(x[0]), expected[0]);
                        let mut words = [x[0], 0, x[0]];
                        map.apply_words_in_place(&mut words);
                        assert_eq!(words, [expected[0], 0, expected[0]], "{inb}→{outb} bits, {evaluation:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn bit_string_helpers_round_trip_across_word_boundaries() {
        let mut words = vec![0u64; 3];
        xor_bits(&mut words, 60, 15, 0x5a5a);
        assert_eq!(read_bits(&words, 60, 15), 0x5a5a & 0x7fff);
        assert_eq!(read_bits(&words, 0, 60), 0);
        xor_bits(&mut words, 128, 64, u64::MAX);
        assert_eq!(read_bits(&words, 128, 64), u64::MAX);
    }

    #[test]
    fn malformed_inputs_are_rejected() {
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        let map = random_map(&mut rng, 70, 10);
        let mut out = [0u64; 1];
        assert!(matches!(map.apply(&[0], &mut out), Err(EmbedError::LengthMismatch { .. })));
        assert!(matches!(map.apply(&[0, 1 << 6], &mut out), Err(EmbedError::InputOutOfRange { .. })));
        assert!(matches!(map.apply(&[0, 0], &mut []), Err(EmbedError::LengthMismatch { .. })));
        assert!(map.apply(&[u64::MAX, 0x3f], &mut out).is_ok());
    }

    #[test]
    fn inverse_and_composition_give_the_identity() {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let mut found = 0;
        while found < 5 {
            let map = random_map(&mut rng, 42, 42);
            let Some(inv) = map.inverse() else { continue };
            found += 1;
            let identity = map.then(&inv).unwrap();
            for i in 0..42 {
                assert_eq!(identity.column(i), &[1u64 << i]);
            }
        }
        let singular = LinearMap::from_images(3, 3, |i| Ok(vec![[1, 2, 3][i]])).unwrap();
        assert!(singular.inverse().is_none());
    }
}
