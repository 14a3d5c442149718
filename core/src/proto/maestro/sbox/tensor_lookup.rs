//! The local steps of Protocol 6 (MAESTRO §3.5.1) for a table of 256 bytes: the additive share
//! of the tensor-product one-hot vector (step 6, `MultLocal`) and the lookup Σⱼ fⱼ · T\[c ⊕ j\]
//! (step 7).
//!
//! **Step 6** ([`tensor_share`]): with f = e⁽ʳ⁾ ⊗ e⁽ʳ'⁾ (f_j = e_{j mod 16} · e'_{j div 16}), party
//! i's additive share is the local product of its replicated components,
//! fᵢ,ⱼ = aᵢ\[l\]·(bᵢ + bᵢ₊₁)\[h\] + aᵢ₊₁\[l\]·bᵢ\[h\] (j = l + 16h). It does not depend on the
//! input, so it is computed once at the end of preprocessing and stored as 256 bits.
//!
//! **Step 7** ([`TensorTable::lookup`]): write c = c_l + 16c_h. Substituting h ↦ h ⊕ c_h,
//! Σⱼ fⱼ T\[c ⊕ j\] = Σⱼ gⱼ T\[c_l ⊕ j\] with g the vector f whose 16-entry chunks are permuted
//! by h ↦ h ⊕ c_h (word and 16-bit-lane swaps chosen by the public c_h). The table is stored
//! bit-sliced for the 16 values of c_l — the 256-bit plane P_{c_l},b has bit j = bit b of
//! T\[c_l ⊕ j\] (4 KiB per table, so it stays in L1) — and tᵢ has bit b = parity(g ∧ P_{c_l},b):
//! 8 × 4 word ANDs and XOR folds per lookup. The public c only selects planes and permutes
//! words; the secret share bits of f are only moved, ANDed and XORed (no secret-dependent
//! branch or index).

use crate::field::Gf256;

/// A party's additive share of a length-256 one-hot vector: bit j of word j / 64 is entry j.
pub type Bits256 = [u64; 4];

/// Bits 4w..4w+3 of `bits` as four 16-bit lanes of all ones or all zeros (branch-free).
#[inline]
fn lane_masks(bits: u16, w: usize) -> u64 {
    let nibble = u64::from((bits >> (4 * w)) & 0xf);
    // Lane k holds nibble bit k alone (at most 8, so adding 0x7fff sets bit 15 exactly when the
    // lane is nonzero and never carries into the next lane).
    let isolated = (nibble * 0x0001_0001_0001_0001) & 0x0008_0004_0002_0001;
    (((isolated + 0x7fff_7fff_7fff_7fff) & 0x8000_8000_8000_8000) >> 15) * 0xffff
}

/// This party's additive share of e⁽ʳ⁾ ⊗ e⁽ʳ'⁾ from its (first, second) components of the
/// one-hot vectors of the low (`low`) and high (`high`) nibble of the mask (module docs).
pub fn tensor_share(low: (u16, u16), high: (u16, u16)) -> Bits256 {
    let spread = 0x0001_0001_0001_0001u64;
    let (a0, a1) = (u64::from(low.0) * spread, u64::from(low.1) * spread);
    let cross = high.0 ^ high.1;
    core::array::from_fn(|w| (a0 & lane_masks(cross, w)) ^ (a1 & lane_masks(high.0, w)))
}

/// A 256-entry byte table, bit-sliced for every low nibble of the public index mask (module
/// docs).
#[derive(Clone)]
pub struct TensorTable {
    /// `planes[c_l][b]`: bit j is bit b of T\[c_l ⊕ j\].
    planes: Box<[[Bits256; 8]; 16]>,
}

impl core::fmt::Debug for TensorTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TensorTable").finish_non_exhaustive()
    }
}

impl TensorTable {
    /// Slices `table` for every low nibble c_l.
    pub fn new(table: &[u8; 256]) -> Self {
        let mut planes = Box::new([[[0u64; 4]; 8]; 16]);
        for (c, per_bit) in planes.iter_mut().enumerate() {
            for (b, plane) in per_bit.iter_mut().enumerate() {
                for j in 0..256 {
                    plane[j / 64] |= u64::from((table[c ^ j] >> b) & 1) << (j % 64);
                }
            }
        }
        TensorTable { planes }
    }

    /// This party's additive share Σⱼ fⱼ · T\[c ⊕ j\] of the lookup, for its share `f` of the
    /// one-hot vector and the public masked index `c`.
    #[inline]
    pub fn lookup(&self, c: u8, f: &Bits256) -> Gf256 {
        let c_high = usize::from(c >> 4);
        // g: chunk h of f moved to h ⊕ c_h. Chunk h is lane h mod 4 of word h div 4.
        let g: Bits256 = core::array::from_fn(|w| {
            let mut x = f[w ^ (c_high >> 2)];
            if c_high & 1 == 1 {
                x = ((x & 0x0000_ffff_0000_ffff) << 16) | ((x >> 16) & 0x0000_ffff_0000_ffff);
            }
            if c_high & 2 == 2 {
                x = x.rotate_left(32);
            }
            x
        });
        let planes = &self.planes[usize::from(c & 0x0f)];
        // Byte b of `folded` has the parity of g ∧ P_{c_l},b.
        let mut folded = 0u64;
        for (b, p) in planes.iter().enumerate() {
            let mut x = (g[0] & p[0]) ^ (g[1] & p[1]) ^ (g[2] & p[2]) ^ (g[3] & p[3]);
            x ^= x >> 32;
            x ^= x >> 16;
            x ^= x >> 8;
            folded |= (x & 0xff) << (8 * b);
        }
        folded ^= folded >> 4;
        folded ^= folded >> 2;
        folded ^= folded >> 1;
        // Gathers the low bit of byte b into bit b of the top byte.
        Gf256(((folded & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::sbox::{inv_sbox_table, sbox_table};
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    fn bit(x: u16, k: usize) -> u64 {
        u64::from((x >> k) & 1)
    }

    #[test]
    fn tensor_share_is_the_entrywise_local_product() {
        let mut rng = ChaCha20Rng::seed_from_u64(90);
        for _ in 0..200 {
            let mut w = || (rng.next_u32() & 0xffff) as u16;
            let (low, high) = ((w(), w()), (w(), w()));
            let f = tensor_share(low, high);
            for j in 0..256 {
                let (l, h) = (j % 16, j / 16);
                let expected =
                    (bit(low.0, l) & (bit(high.0, h) ^ bit(high.1, h))) ^ (bit(low.1, l) & bit(high.0, h));
                assert_eq!((f[j / 64] >> (j % 64)) & 1, expected, "entry {j}");
            }
        }
    }

    #[test]
    fn lookup_is_the_selected_sum_for_every_c() {
        for table in [sbox_table(), inv_sbox_table()] {
            let tensor = TensorTable::new(&table);
            let mut rng = ChaCha20Rng::seed_from_u64(91);
            for c in 0..=255u8 {
                for _ in 0..4 {
                    let f: Bits256 = core::array::from_fn(|_| rng.next_u64());
                    let expected = (0..256usize)
                        .filter(|&j| (f[j / 64] >> (j % 64)) & 1 == 1)
                        .fold(0u8, |acc, j| acc ^ table[usize::from(c) ^ j]);
                    assert_eq!(tensor.lookup(c, &f).0, expected, "c {c:#04x}");
                }
            }
        }
    }

    #[test]
    fn shares_of_one_hot_vectors_look_up_the_unmasked_entry() {
        let table = sbox_table();
        let tensor = TensorTable::new(&table);
        let mut rng = ChaCha20Rng::seed_from_u64(92);
        // Replicated components of e⁽ʳ⁾ and e⁽ʳ'⁾ for every r + 16r'; the parties' outputs sum
        // to T[c ⊕ (r + 16 r')].
        for r in 0..256usize {
            let share = |value: u16, rng: &mut ChaCha20Rng| {
                let (a, b) = ((rng.next_u32() & 0xffff) as u16, (rng.next_u32() & 0xffff) as u16);
                let x = [a, b, value ^ a ^ b];
                [0, 1, 2].map(|p| (x[p], x[(p + 1) % 3]))
            };
            let low = share(1 << (r % 16), &mut rng);
            let high = share(1 << (r / 16), &mut rng);
            let f = [0, 1, 2].map(|p| tensor_share(low[p], high[p]));
            let mut expected = [0u64; 4];
            expected[r / 64] = 1 << (r % 64);
            assert_eq!(
                core::array::from_fn::<u64, 4, _>(|w| f[0][w] ^ f[1][w] ^ f[2][w]),
                expected,
                "one-hot at {r}"
            );
            let c = (rng.next_u32() & 0xff) as u8;
            let sum = (0..3).fold(0u8, |acc, p| acc ^ tensor.lookup(c, &f[p]).0);
            assert_eq!(sum, table[usize::from(c) ^ r], "r {r}, c {c}");
        }
    }
}
