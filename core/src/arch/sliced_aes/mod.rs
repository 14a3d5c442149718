//! AES-128 encryption bit-sliced across 128-bit registers, eight blocks at a time: the software
//! AES of the WASM build, where there is no AES instruction and the `aes` crate's portable
//! fixslicing works on 32-bit words (two blocks at a time).
//!
//! **Layout** (after Käsper and Schwabe, "Faster and timing-attack resistant AES-GCM", CHES 2009,
//! §4): eight blocks become eight registers, register `i` holding bit `i` of every state byte of
//! every block — byte `p` of the register is state byte `p` (FIPS-197 input order), its bit `b`
//! belongs to block `b`. The conversion is an 8×8 bit transpose inside every byte position
//! ([`transpose`], three layers of masked swaps; it is its own inverse). In this layout:
//! - SubBytes is the S-box circuit of [`crate::circuit::sbox_bp`] (Boyar–Peralta, 32 AND and 83
//!   XOR/XNOR gates) with each gate one register instruction over all 128 bytes;
//! - ShiftRows and the row rotations of MixColumns are fixed byte shuffles of each register;
//! - MixColumns is `2·(a ⊕ ρ(a)) ⊕ ρ(a) ⊕ ρ²(a ⊕ ρ(a))` with `ρ` the rotation of each column by
//!   one row, and the doubling a fixed mixing of the eight registers (FIPS-197 §4.2.1 `xtime`);
//! - AddRoundKey XORs round keys kept in the same layout (each byte `0x00` or `0xff`).
//!
//! The key schedule (FIPS-197 §5.2, [`crate::aes::expand_key`]) runs its `SubWord` steps through
//! the same S-box circuit. Every operation is a fixed sequence of bitwise instructions and byte
//! shuffles: no branch or memory index depends on the key or the data, so keyed uses (seeded PRGs,
//! TinyTable's MAC-key PRF) are constant time.
//!
//! The algorithm is written once over [`Lane`]. `u128` is its portable register (the native tests
//! cross-check the algorithm with it against the `aes` crate); `v128` on wasm32 with `simd128`
//! (`wasm`) is the one the WASM build runs. [`super::many_aes`] chooses where it is used.

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod wasm;

use crate::aes::{expand_key, KeySize};
use crate::circuit::sbox_bp::{self, Gates};
use crate::field::Gf256;

/// Blocks encrypted per pass: one bit of every byte of a register per block.
pub(crate) const BLOCKS: usize = 8;

/// A 128-bit register of the bit-sliced layout.
pub(crate) trait Lane: Copy {
    /// The 16 bytes of `block` (little-endian), as a register.
    fn load(block: u128) -> Self;
    /// The register as 16 little-endian bytes.
    fn store(self) -> u128;
    /// Every byte `b`.
    fn splat(b: u8) -> Self;
    fn xor(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn not(self) -> Self;
    /// Logical right shift of each 64-bit half by `n` (callers mask the bits that cross bytes).
    fn shr(self, n: u32) -> Self;
    /// Logical left shift of each 64-bit half by `n` (applied to masked values only).
    fn shl(self, n: u32) -> Self;
    /// Byte `p` of the result is byte `SHIFT_ROWS[p]` of `self`.
    fn shift_rows(self) -> Self;
    /// Byte `p` of the result is byte `ROTATE_1[p]` of `self`.
    fn rotate_rows_1(self) -> Self;
    /// Byte `p` of the result is byte `ROTATE_2[p]` of `self`.
    fn rotate_rows_2(self) -> Self;
}

/// ShiftRows as a byte permutation: state byte `4c + r` takes byte `4((c + r) mod 4) + r`.
pub(crate) const SHIFT_ROWS: [usize; 16] = [0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11];
/// Each column rotated by one row: byte `4c + r` takes byte `4c + (r + 1) mod 4`.
pub(crate) const ROTATE_1: [usize; 16] = [1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12];
/// Each column rotated by two rows.
pub(crate) const ROTATE_2: [usize; 16] = [2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13];

/// The byte permutation `table` of `x` on the portable register.
fn permute(x: u128, table: &[usize; 16]) -> u128 {
    let bytes = x.to_le_bytes();
    u128::from_le_bytes(core::array::from_fn(|p| bytes[table[p]]))
}

impl Lane for u128 {
    fn load(block: u128) -> Self {
        block
    }
    fn store(self) -> u128 {
        self
    }
    fn splat(b: u8) -> Self {
        u128::from_le_bytes([b; 16])
    }
    fn xor(self, other: Self) -> Self {
        self ^ other
    }
    fn and(self, other: Self) -> Self {
        self & other
    }
    fn not(self) -> Self {
        !self
    }
    fn shr(self, n: u32) -> Self {
        // Bits crossing the middle are masked away by every caller, so one 128-bit shift suffices.
        self >> n
    }
    fn shl(self, n: u32) -> Self {
        self << n
    }
    fn shift_rows(self) -> Self {
        permute(self, &SHIFT_ROWS)
    }
    fn rotate_rows_1(self) -> Self {
        permute(self, &ROTATE_1)
    }
    fn rotate_rows_2(self) -> Self {
        permute(self, &ROTATE_2)
    }
}

/// Eight registers of the bit-sliced layout: register `i` is bit `i` of every byte.
type State<L> = [L; 8];

/// Swaps bits `n..` of the masked groups of `a` with bits `..n` of those of `b` (a "swap-move").
#[inline(always)]
fn swap_move<L: Lane>(a: &mut L, b: &mut L, n: u32, mask: L) {
    let t = a.shr(n).xor(*b).and(mask);
    *b = b.xor(t);
    *a = a.xor(t.shl(n));
}

/// The 8×8 bit transpose inside every byte position: bit `c` of byte `p` of register `r` moves to
/// bit `r` of byte `p` of register `c`. Its own inverse.
#[inline(always)]
pub(crate) fn transpose<L: Lane>(x: &mut State<L>) {
    for (n, mask, stride) in [(1, 0x55, 1), (2, 0x33, 2), (4, 0x0f, 4)] {
        let mask = L::splat(mask);
        for base in 0..8 {
            if base & stride == 0 {
                let (lo, hi) = x.split_at_mut(base + stride);
                swap_move(&mut lo[base], &mut hi[0], n, mask);
            }
        }
    }
}

/// The gates of the S-box circuit on registers.
struct Sliced<L>(core::marker::PhantomData<L>);

impl<L: Lane> Gates for Sliced<L> {
    type Bit = L;
    #[inline(always)]
    fn xor(&mut self, a: L, b: L) -> L {
        a.xor(b)
    }
    #[inline(always)]
    fn xnor(&mut self, a: L, b: L) -> L {
        a.xor(b).not()
    }
    #[inline(always)]
    fn and(&mut self, a: L, b: L) -> L {
        a.and(b)
    }
}

#[inline(always)]
fn sub_bytes<L: Lane>(s: State<L>) -> State<L> {
    sbox_bp::sbox(&mut Sliced(core::marker::PhantomData), s)
}

#[inline(always)]
fn mix_columns<L: Lane>(s: State<L>) -> State<L> {
    let r1 = s.map(L::rotate_rows_1);
    let t: State<L> = core::array::from_fn(|i| s[i].xor(r1[i]));
    let r2 = t.map(L::rotate_rows_2);
    // `xtime(t)`: multiplication by x modulo x^8 + x^4 + x^3 + x + 1, bit by bit.
    let x = [t[7], t[0].xor(t[7]), t[1], t[2].xor(t[7]), t[3].xor(t[7]), t[4], t[5], t[6]];
    core::array::from_fn(|i| x[i].xor(r1[i]).xor(r2[i]))
}

#[inline(always)]
fn add_round_key<L: Lane>(s: State<L>, k: &State<L>) -> State<L> {
    core::array::from_fn(|i| s[i].xor(k[i]))
}

/// The AES-128 round keys of one key in the bit-sliced layout.
#[derive(Clone)]
pub(crate) struct SlicedKey<L> {
    rounds: [State<L>; 11],
}

impl<L: Lane> SlicedKey<L> {
    /// Expands `key` (FIPS-197 §5.2), its `SubWord` steps through the bit-sliced S-box.
    pub(crate) fn new(key: &[u8; 16]) -> Self {
        let key: Vec<Gf256> = key.iter().map(|&b| Gf256(b)).collect();
        let expanded = expand_key(KeySize::Aes128, &key, |word| {
            // Bit `i` of word byte `p` spread over byte `p` of register `i`.
            let mut planes: State<L> = core::array::from_fn(|i| {
                L::load(u128::from_le_bytes(core::array::from_fn(|p| {
                    if p < 4 {
                        0u8.wrapping_sub((word[p].0 >> i) & 1)
                    } else {
                        0
                    }
                })))
            });
            planes = sub_bytes(planes);
            let planes = planes.map(|r| r.store().to_le_bytes());
            for (p, w) in word.iter_mut().enumerate() {
                w.0 = (0..8).fold(0u8, |acc, i| acc | ((planes[i][p] & 1) << i));
            }
        });
        SlicedKey {
            rounds: core::array::from_fn(|r| {
                let bytes = u128::from_le_bytes(expanded.round(r).map(|b| b.0));
                let mut planes = [L::load(bytes); 8];
                transpose(&mut planes);
                planes
            }),
        }
    }

    /// Encrypts every block of `blocks` in place, eight per pass (the last pass padded).
    #[inline]
    pub(crate) fn encrypt(&self, blocks: &mut [u128]) {
        let mut full = blocks.chunks_exact_mut(BLOCKS);
        for chunk in &mut full {
            let out = self.encrypt8(core::array::from_fn(|b| chunk[b]));
            chunk.copy_from_slice(&out);
        }
        let rest = full.into_remainder();
        if !rest.is_empty() {
            let out = self.encrypt8(core::array::from_fn(|b| rest.get(b).copied().unwrap_or(0)));
            let n = rest.len();
            rest.copy_from_slice(&out[..n]);
        }
    }

    /// The encryptions of eight blocks.
    #[inline(always)]
    fn encrypt8(&self, blocks: [u128; BLOCKS]) -> [u128; BLOCKS] {
        let mut s: State<L> = blocks.map(L::load);
        transpose(&mut s);
        s = add_round_key(s, &self.rounds[0]);
        for k in &self.rounds[1..10] {
            s = sub_bytes(s).map(L::shift_rows);
            s = add_round_key(mix_columns(s), k);
        }
        s = add_round_key(sub_bytes(s).map(L::shift_rows), &self.rounds[10]);
        transpose(&mut s);
        s.map(L::store)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aes::cipher::{BlockEncrypt, KeyInit};
    use rand::{Rng, SeedableRng};

    fn reference(key: &[u8; 16], x: u128) -> u128 {
        let mut b = aes::Block::from(x.to_le_bytes());
        aes::Aes128::new(key.into()).encrypt_block(&mut b);
        u128::from_le_bytes(b.into())
    }

    #[test]
    fn transpose_moves_bit_c_of_register_r_to_bit_r_of_register_c_and_is_an_involution() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        let x: State<u128> = core::array::from_fn(|_| rng.gen());
        let mut y = x;
        transpose(&mut y);
        let bit = |v: u128, byte: usize, b: usize| (v >> (8 * byte + b)) & 1;
        for p in 0..16 {
            for (r, &xr) in x.iter().enumerate() {
                for (c, &yc) in y.iter().enumerate() {
                    assert_eq!(bit(xr, p, c), bit(yc, p, r), "byte {p} row {r} column {c}");
                }
            }
        }
        transpose(&mut y);
        assert_eq!(x, y);
    }

    #[test]
    fn fips197_appendix_c1() {
        let key: [u8; 16] = core::array::from_fn(|i| i as u8);
        let plain = u128::from_le_bytes(core::array::from_fn(|i| (i as u8) * 0x11));
        let mut blocks = [plain];
        SlicedKey::<u128>::new(&key).encrypt(&mut blocks);
        let want =
            [0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a];
        assert_eq!(blocks[0].to_le_bytes(), want);
    }

    #[test]
    fn equals_the_aes_crate_for_random_keys_and_any_count() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2);
        for n in [0usize, 1, 7, 8, 9, 23] {
            let key: [u8; 16] = rng.gen();
            let plain: Vec<u128> = (0..n).map(|_| rng.gen()).collect();
            let mut got = plain.clone();
            SlicedKey::<u128>::new(&key).encrypt(&mut got);
            let want: Vec<u128> = plain.iter().map(|&x| reference(&key, x)).collect();
            assert_eq!(got, want, "{n} blocks");
        }
    }
}
