//! The local table lookup of Protocol 6 (MAESTRO §3.5.1, steps 6–7) for a table of 256 bytes and
//! a one-hot vector given as the tensor product of two replicated length-16 one-hot vectors.
//!
//! With f = e⁽ʳ⁾ ⊗ e⁽ʳ'⁾ (f_j = e_{j mod 16} · e'_{j div 16}) and the public masked index c, party
//! i's additive share of T\[c ⊕ r + 16 r'\] is tᵢ = Σⱼ fᵢ,ⱼ · T\[c ⊕ j\], where fᵢ,ⱼ is the local
//! product of its replicated components (`MultLocal`): fᵢ = aᵢ·(bᵢ + bᵢ₊₁) + aᵢ₊₁·bᵢ. Grouping by
//! the high index h:
//!
//! tᵢ = Σ_h (bᵢ + bᵢ₊₁)\[h\] · U₀\[h\] + bᵢ\[h\] · U₁\[h\], with U_k\[h\] = Σ_l a_k\[l\] · T\[c ⊕ (l + 16h)\],
//!
//! so a lookup costs 2 × 16 selections of a 16-byte column plus 2 × 16 byte selections, instead
//! of 256 × 3 products. [`TensorTable`] stores, for each public high nibble c_h, the columns
//! col\[l\]\[h\] = T\[l + 16(h ⊕ c_h)\] as one `u128` each, so the public index only picks a
//! column; the secret share bits only enter as all-zero/all-one masks (no secret-dependent
//! branch or index).

use crate::field::Gf256;

/// A 256-entry byte table laid out for [`TensorTable::lookup`].
#[derive(Clone)]
pub struct TensorTable {
    /// `columns[c_h][l]`: byte h is T\[l + 16(h ⊕ c_h)\].
    columns: Box<[[u128; 16]; 16]>,
}

impl core::fmt::Debug for TensorTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TensorTable").finish_non_exhaustive()
    }
}

/// Bit k of `bits` (k < 16) as an all-ones or all-zeros 16-byte mask.
#[inline]
fn bit_mask(bits: u16, k: usize) -> u128 {
    0u128.wrapping_sub(u128::from((bits >> k) & 1))
}

/// Byte h of the result is 0xff if bit h of `bits` is set, else 0 (branch-free).
#[inline]
fn byte_masks(bits: u16) -> u128 {
    // Each byte of the product holds one copy of the low byte; the AND isolates bit h in byte h.
    let spread = |b: u8| -> u64 {
        let isolated = (u64::from(b) * 0x0101_0101_0101_0101) & 0x8040_2010_0804_0201;
        // Nonzero bytes → 0x80 (bytewise, no carry across bytes), then to 0xff.
        let high = ((isolated & 0x7f7f_7f7f_7f7f_7f7f) + 0x7f7f_7f7f_7f7f_7f7f) | isolated;
        ((high & 0x8080_8080_8080_8080) >> 7) * 0xff
    };
    u128::from(spread(bits as u8)) | (u128::from(spread((bits >> 8) as u8)) << 64)
}

/// XOR of the 16 bytes of `x`.
#[inline]
fn fold_bytes(x: u128) -> u8 {
    let x = (x as u64) ^ ((x >> 64) as u64);
    let x = x ^ (x >> 32);
    let x = x ^ (x >> 16);
    let x = x ^ (x >> 8);
    x as u8
}

impl TensorTable {
    /// Lays out `table` for every public high nibble.
    pub fn new(table: &[u8; 256]) -> Self {
        let mut columns = Box::new([[0u128; 16]; 16]);
        for (c_high, cols) in columns.iter_mut().enumerate() {
            for (l, col) in cols.iter_mut().enumerate() {
                *col =
                    (0..16).fold(0u128, |acc, h| acc | u128::from(table[l + 16 * (h ^ c_high)]) << (8 * h));
            }
        }
        TensorTable { columns }
    }

    /// This party's additive share tᵢ = Σⱼ fᵢ,ⱼ · T\[c ⊕ j\] of the lookup (module docs): `low`
    /// and `high` are its (first, second) components of the one-hot vectors for bits 0–3 and 4–7
    /// of the mask (bit j of a component = entry j).
    #[inline]
    pub fn lookup(&self, c: u8, low: (u16, u16), high: (u16, u16)) -> Gf256 {
        let columns = &self.columns[usize::from(c >> 4)];
        let c_low = usize::from(c & 0x0f);
        let (mut u0, mut u1) = (0u128, 0u128);
        for l in 0..16 {
            let col = columns[l ^ c_low];
            u0 ^= bit_mask(low.0, l) & col;
            u1 ^= bit_mask(low.1, l) & col;
        }
        let selected = (byte_masks(high.0 ^ high.1) & u0) ^ (byte_masks(high.0) & u1);
        Gf256(fold_bytes(selected))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::sbox::sbox_table;
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    /// Σⱼ fⱼ T\[c ⊕ j\] with fⱼ = a₀\[l\](b₀ + b₁)\[h\] + a₁\[l\]b₀\[h\], entry by entry.
    fn naive(table: &[u8; 256], c: u8, low: (u16, u16), high: (u16, u16)) -> u8 {
        let bit = |x: u16, k: usize| (x >> k) & 1;
        (0..256usize).fold(0u8, |acc, j| {
            let (l, h) = (j % 16, j / 16);
            let f = (bit(low.0, l) & (bit(high.0, h) ^ bit(high.1, h))) ^ (bit(low.1, l) & bit(high.0, h));
            acc ^ if f == 1 { table[usize::from(c) ^ j] } else { 0 }
        })
    }

    #[test]
    fn byte_masks_expand_every_bit() {
        for bits in [0u16, 1, 0x8000, 0xffff, 0xa5c3, 0x0180] {
            let m = byte_masks(bits);
            for h in 0..16 {
                let byte = (m >> (8 * h)) as u8;
                assert_eq!(byte, if (bits >> h) & 1 == 1 { 0xff } else { 0 }, "bits {bits:#x}, byte {h}");
            }
        }
    }

    #[test]
    fn lookup_matches_the_entrywise_sum_for_random_components() {
        let table = sbox_table();
        let tensor = TensorTable::new(&table);
        let mut rng = ChaCha20Rng::seed_from_u64(90);
        for c in 0..=255u8 {
            for _ in 0..8 {
                let mut w = || (rng.next_u32() & 0xffff) as u16;
                let (low, high) = ((w(), w()), (w(), w()));
                assert_eq!(tensor.lookup(c, low, high).0, naive(&table, c, low, high), "c {c:#04x}");
            }
        }
    }

    #[test]
    fn shares_of_one_hot_vectors_look_up_the_unmasked_entry() {
        let table = sbox_table();
        let tensor = TensorTable::new(&table);
        let mut rng = ChaCha20Rng::seed_from_u64(91);
        // Replicated components of e⁽ʳ⁾ and e⁽ʳ'⁾ for every r, r'; the parties' outputs sum to
        // T[c ⊕ (r + 16 r')].
        for r in 0..256usize {
            let share = |value: u16, rng: &mut ChaCha20Rng| {
                let (a, b) = ((rng.next_u32() & 0xffff) as u16, (rng.next_u32() & 0xffff) as u16);
                let x = [a, b, value ^ a ^ b];
                [0, 1, 2].map(|p| (x[p], x[(p + 1) % 3]))
            };
            let low = share(1 << (r % 16), &mut rng);
            let high = share(1 << (r / 16), &mut rng);
            let c = (rng.next_u32() & 0xff) as u8;
            let sum = (0..3).fold(0u8, |acc, p| acc ^ tensor.lookup(c, low[p], high[p]).0);
            assert_eq!(sum, table[usize::from(c) ^ r], "r {r}, c {c}");
        }
    }
}
