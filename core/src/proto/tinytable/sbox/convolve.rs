//! Step 4 of the §4 table construction ([`super::construct`]): from the authenticated indicators
//! `δ_y = [m = y]` of one table, the authenticated entries `T[e] = ⊕_y δ_y·S(e ⊕ y)`, bit by bit
//! `T_i = δ ∗ S_i`, an XOR-convolution over `Z_2^8` with the public coordinate functions `S_i`
//! (S the S-box, or the inverse S-box for decryption material).
//!
//! Computed directly that is 256 entries × 8 bits × |supp S_i| ≈ 128 XORs of authenticated bits.
//! Here the convolution runs in the group algebra `GF(2)[Z_2^8] = GF(2)[x_1..x_8]/(x_j² − 1)` in
//! the basis `u_j = 1 + x_j`, where `u_j² = 0`: the change of basis is the superset-sum transform
//! ([`superset_sums`], its own inverse over GF(2)), and a product becomes a disjoint-union
//! (subset) convolution `(â ⊛ b̂)_C = ⊕_{A ⊔ B = C} â_A·b̂_B`. The public side `Ŝ_i` is fixed, so the
//! pairs `(C, A)` with `Ŝ_i(C ∖ A) = 1`, `A ⊆ C`, are listed once ([`pairs`]), and the eight
//! results are combined into bytes (`X^i` scaling of the tags) before the one inverse transform.
//! Everything is XOR of public-index entries: no secret-dependent branch or index.

use super::construct::AuthBit;
use super::direction::table;
use crate::aes::Direction;
use crate::proto::tinytable::mac::linear::mul_by_x_power;
use std::sync::OnceLock;

/// Entries of a table.
const N: usize = 256;

/// `v[B] ← ⊕_{y ⊇ B} v[y]` for every `B`, in place; applied twice it is the identity.
pub(crate) fn superset_sums<T: Copy + core::ops::BitXor<Output = T>>(v: &mut [T; N]) {
    for bit in 0..8 {
        let h = 1 << bit;
        for b in 0..N {
            if b & h == 0 {
                v[b] = v[b] ^ v[b | h];
            }
        }
    }
}

/// Per output bit, the `(C, A)` pairs of [`pairs`].
type Pairs = [Vec<(u8, u8)>; 8];

/// For each output bit `i` of the direction's table: the pairs `(C, A)` of the subset
/// convolution with `Ŝ_i`, i.e. `A ⊆ C` and `Ŝ_i(C ∖ A) = 1`, where `Ŝ_i` is `S_i` in the `u`
/// basis. Listed once per process and direction.
fn pairs(direction: Direction) -> &'static Pairs {
    static PAIRS: [OnceLock<Pairs>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = match direction {
        Direction::Encrypt => 0,
        Direction::Decrypt => 1,
    };
    PAIRS[slot].get_or_init(|| {
        let sbox = table(direction);
        core::array::from_fn(|i| {
            let mut s_hat: [u8; N] = core::array::from_fn(|z| sbox[z] >> i & 1);
            superset_sums(&mut s_hat);
            let mut out = Vec::new();
            for c in 0..N {
                // B runs over the subsets of C; A = C ∖ B.
                let mut b = c;
                loop {
                    if s_hat[b] == 1 {
                        out.push((c as u8, (c & !b) as u8));
                    }
                    if b == 0 {
                        break;
                    }
                    b = (b - 1) & c;
                }
            }
            out
        })
    })
}

/// One authenticated table entry: share byte, its tag, and the key for the peer's byte.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct AuthEntry {
    pub(crate) share: u8,
    pub(crate) tag: u128,
    pub(crate) key: u128,
}

impl core::ops::BitXor for AuthEntry {
    type Output = AuthEntry;
    #[inline]
    fn bitxor(self, o: AuthEntry) -> AuthEntry {
        AuthEntry { share: self.share ^ o.share, tag: self.tag ^ o.tag, key: self.key ^ o.key }
    }
}

/// The 256 entries `⊕_y δ_y·S(e ⊕ y)` (bit `i` of the share from bit `i` of `S`, its tag and key
/// scaled by `X^i`) of one table of `direction` from its indicators `delta` (module docs).
pub(crate) fn sbox_entries(direction: Direction, delta: &[AuthBit]) -> [AuthEntry; N] {
    let mut hat: [AuthBit; N] = core::array::from_fn(|y| delta[y]);
    superset_sums(&mut hat);
    let mut out = [AuthEntry::default(); N];
    for (i, list) in pairs(direction).iter().enumerate() {
        let mut acc = [AuthBit::default(); N];
        for &(c, a) in list {
            acc[c as usize] = acc[c as usize] ^ hat[a as usize];
        }
        for (o, b) in out.iter_mut().zip(&acc) {
            o.share |= u8::from(b.share) << i;
            o.tag ^= mul_by_x_power(b.tag, i as u32);
            o.key ^= mul_by_x_power(b.key, i as u32);
        }
    }
    superset_sums(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The direct sum, as the construction computed it before.
    fn direct(direction: Direction, delta: &[AuthBit]) -> [AuthEntry; N] {
        let sbox = table(direction);
        core::array::from_fn(|e| {
            let mut out = AuthEntry::default();
            for i in 0..8 {
                let mut bit = AuthBit::default();
                for z in (0..N).filter(|&z| sbox[z] >> i & 1 == 1) {
                    bit = bit ^ delta[e ^ z];
                }
                out.share |= u8::from(bit.share) << i;
                out.tag ^= mul_by_x_power(bit.tag, i as u32);
                out.key ^= mul_by_x_power(bit.key, i as u32);
            }
            out
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn the_transformed_convolution_equals_the_direct_sum(seed in any::<u64>()) {
            use rand_core::{RngCore, SeedableRng};
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
            // Tags and keys below 2^127 (the MAC field's elements), as the construction's are.
            let delta: Vec<AuthBit> = (0..N)
                .map(|_| AuthBit {
                    share: rng.next_u32() & 1 == 1,
                    tag: (u128::from(rng.next_u64()) << 63) ^ u128::from(rng.next_u64()),
                    key: (u128::from(rng.next_u64()) << 63) ^ u128::from(rng.next_u64()),
                })
                .collect();
            for direction in [Direction::Encrypt, Direction::Decrypt] {
                prop_assert_eq!(sbox_entries(direction, &delta), direct(direction, &delta));
            }
        }
    }

    #[test]
    fn a_unit_indicator_gives_the_shifted_sbox() {
        for direction in [Direction::Encrypt, Direction::Decrypt] {
            let sbox = table(direction);
            for m in [0usize, 1, 0x53, 0xff] {
                let delta: Vec<AuthBit> =
                    (0..N).map(|y| AuthBit { share: y == m, ..AuthBit::default() }).collect();
                let entries = sbox_entries(direction, &delta);
                assert!((0..N).all(|e| entries[e].share == sbox[e ^ m]), "{direction:?}, mask {m:#x}");
            }
        }
    }

    #[test]
    fn superset_sums_is_an_involution() {
        let mut v: [u8; N] = core::array::from_fn(|i| (i * 37 + 11) as u8);
        let before = v;
        superset_sums(&mut v);
        assert_ne!(v, before);
        superset_sums(&mut v);
        assert_eq!(v, before);
    }
}
