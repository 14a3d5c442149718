//! The all-but-one OT of SoftSpoken's setup (Roy 2022: a GGM-tree punctured PRF), for one
//! block of `k` bits of `Δ`: the *holder* (the extension's receiver) expands a random root into
//! a binary GGM tree of depth `k` with the length-doubling PRG `G(s) = Prg(s)[0..2]`, and the
//! *puncturer* (the extension's sender) learns every leaf except the one at its secret point
//! `p = Δ_i ∈ {0..2^k − 1}`.
//!
//! **Bit order.** Level `l` (1..=k) of the tree branches on bit `k − l` of the leaf index: level 1
//! is the most significant bit, and node `v` of level `l` has children `2v` (left, bit 0) and
//! `2v + 1` (right, bit 1). Leaf `x` is node `x` of level `k`.
//!
//! **Transfer.** For every level the holder sends `(K_0 ⊕ m_0, K_1 ⊕ m_1)`, where `K_b` is the
//! XOR of all the level's nodes whose last branch is `b` and `(m_0, m_1)` is that level's random
//! base-OT pair. The puncturer's base-OT choice is the complement of its path bit `α_l`, so it
//! learns `K_{1−α_l}`; knowing every node of the level except the two children of its on-path
//! parent, it gets the off-path child as `K_{1−α_l}` minus the others of its side.
//!
//! **No secret-indexed access.** The point is a long-term secret. [`puncture`] touches every node
//! of every level in a fixed order and places or clears values with masks from constant-time
//! comparisons; [`shift_by_point`] re-indexes the leaves by `y = x ⊕ p` with `k` rounds of masked
//! swaps. Only the AES key schedules keyed by (secret) node values depend on secrets, as data.

use super::super::prg::Prg;
use super::super::Block;

/// `G(s)`: the two children of a node.
fn children(node: Block) -> [Block; 2] {
    let b = Prg::new(node).blocks(2);
    [b[0], b[1]]
}

/// An all-ones block if `a == b`, else zero, without a branch on either.
#[inline]
fn eq_mask(a: usize, b: usize) -> Block {
    let d = (a ^ b) as u64;
    // d | −d has its top bit set iff d ≠ 0.
    let nonzero = (d | d.wrapping_neg()) >> 63;
    0u128.wrapping_sub((nonzero ^ 1) as u128)
}

/// An all-ones block if `bit` is 1 (the low bit of `bit`), else zero.
#[inline]
fn bit_mask(bit: usize) -> Block {
    0u128.wrapping_sub((bit & 1) as u128)
}

/// The holder's side: the `2^k` leaves of the tree of `root`, and per level (1..=k, in order) the
/// XOR of its left and of its right nodes, `[K_0, K_1]`.
pub(crate) fn expand(root: Block, k: usize) -> (Vec<Block>, Vec<[Block; 2]>) {
    let mut nodes = vec![root];
    let mut sums = Vec::with_capacity(k);
    for _ in 0..k {
        let mut next = Vec::with_capacity(2 * nodes.len());
        let mut sum = [0; 2];
        for &n in &nodes {
            let c = children(n);
            sum[0] ^= c[0];
            sum[1] ^= c[1];
            next.extend_from_slice(&c);
        }
        sums.push(sum);
        nodes = next;
    }
    (nodes, sums)
}

/// The puncturer's base-OT choice bits for point `point`: per level (1..=k, in order) the
/// complement of the path bit, i.e. `1 − bit (k − l) of point`.
pub(crate) fn choices(point: usize, k: usize) -> Vec<bool> {
    (1..=k).map(|l| (point >> (k - l)) & 1 == 0).collect()
}

/// The puncturer's side: from the holder's masked level sums `masked[l − 1]` and its base-OT
/// outputs `keys[l − 1]` (the mask of the off-path side), all `2^k` leaves, with the one at
/// `point` set to zero (unknown). Touches every node at every level (see the module docs).
pub(crate) fn puncture(point: usize, k: usize, masked: &[[Block; 2]], keys: &[Block]) -> Vec<Block> {
    assert_eq!(masked.len(), k, "puncture: one masked pair per level");
    assert_eq!(keys.len(), k, "puncture: one base-OT key per level");
    // Level 0: the root, unknown; kept at zero.
    let mut nodes = vec![0 as Block];
    for l in 1..=k {
        let on_parent = point >> (k - l + 1);
        let alpha = (point >> (k - l)) & 1;
        let on = 2 * on_parent + alpha;
        let off = on ^ 1;
        let mut next = Vec::with_capacity(2 * nodes.len());
        for &n in &nodes {
            next.extend_from_slice(&children(n));
        }
        // The sums of the known nodes of each side (every node but the on-path parent's children).
        let mut known = [0 as Block; 2];
        for (v, &n) in next.iter().enumerate() {
            let keep = !(eq_mask(v, on) | eq_mask(v, off));
            known[v & 1] ^= n & keep;
        }
        // The off-path side is 1 − α: select its masked sum and known sum by mask.
        let a = bit_mask(alpha);
        let received = (masked[l - 1][1] & !a) | (masked[l - 1][0] & a);
        let others = (known[1] & !a) | (known[0] & a);
        let off_value = received ^ keys[l - 1] ^ others;
        for (v, n) in next.iter_mut().enumerate() {
            let (m_on, m_off) = (eq_mask(v, on), eq_mask(v, off));
            *n = (*n & !(m_on | m_off)) | (off_value & m_off);
        }
        nodes = next;
    }
    nodes
}

/// Re-indexes leaves by `y = x ⊕ point`: afterwards `leaves[y]` is what `leaves[y ⊕ point]` was
/// (so the punctured leaf is at index 0). `k` rounds of masked swaps, no secret-indexed access.
pub(crate) fn shift_by_point(leaves: &mut [Block], point: usize, k: usize) {
    assert_eq!(leaves.len(), 1 << k, "shift_by_point: 2^k leaves");
    for c in 0..k {
        let m = bit_mask(point >> c);
        let step = 1 << c;
        for x in 0..leaves.len() {
            if x & step == 0 {
                let t = (leaves[x] ^ leaves[x | step]) & m;
                leaves[x] ^= t;
                leaves[x | step] ^= t;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::seeded_rng;
    use rand_core::RngCore;

    fn block(rng: &mut impl RngCore) -> Block {
        rng.next_u64() as u128 | (rng.next_u64() as u128) << 64
    }

    /// One all-but-one OT in the clear: random base-OT pairs, the holder's masked sums, the
    /// puncturer's chosen keys.
    fn transfer(root: Block, point: usize, k: usize, seed: u64) -> (Vec<Block>, Vec<Block>) {
        let mut rng = seeded_rng(seed);
        let (leaves, sums) = expand(root, k);
        let pairs: Vec<[Block; 2]> = (0..k).map(|_| [block(&mut rng), block(&mut rng)]).collect();
        let masked: Vec<[Block; 2]> =
            sums.iter().zip(&pairs).map(|(s, m)| [s[0] ^ m[0], s[1] ^ m[1]]).collect();
        let keys: Vec<Block> = choices(point, k).iter().zip(&pairs).map(|(&c, m)| m[c as usize]).collect();
        (leaves, puncture(point, k, &masked, &keys))
    }

    #[test]
    fn punctured_leaves_equal_the_holders_everywhere_but_at_the_point() {
        for k in [1usize, 2, 4, 8] {
            for point in [0usize, 1, (1 << k) - 1, 0x5a % (1 << k), 0xa5 % (1 << k)] {
                let (full, punctured) = transfer(0x1234 + k as u128, point, k, 7 + point as u64);
                assert_eq!(full.len(), 1 << k);
                for x in 0..1 << k {
                    if x == point {
                        assert_eq!(punctured[x], 0, "k {k} point {point}: the punctured leaf stays unknown");
                        assert_ne!(full[x], 0);
                    } else {
                        assert_eq!(punctured[x], full[x], "k {k} point {point} leaf {x}");
                    }
                }
            }
        }
    }

    #[test]
    fn level_one_branches_on_the_most_significant_bit() {
        // Leaves 0..2^(k−1) descend from the root's left child, as the bit order says.
        let k = 4;
        let root = 99;
        let (leaves, sums) = expand(root, k);
        let [left, right] = children(root);
        assert_eq!(sums[0], [left, right]);
        let (left_leaves, _) = expand(left, k - 1);
        let (right_leaves, _) = expand(right, k - 1);
        assert_eq!(&leaves[..8], &left_leaves[..]);
        assert_eq!(&leaves[8..], &right_leaves[..]);
        assert_eq!(choices(0b1000, k), vec![false, true, true, true]);
    }

    #[test]
    fn distinct_leaves_and_a_wrong_key_corrupts_its_level_and_below() {
        let k = 3;
        let (leaves, sums) = expand(5, k);
        let mut sorted = leaves.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 1 << k);
        // Unmasked sums (zero base-OT pairs), point 0b010: a wrong key at the last level spoils
        // only the off-path leaf 0b011; at level 1 it spoils the off-path half and, through the
        // level sums below, every other leaf too.
        let point = 0b010;
        let mut keys = vec![0; k];
        keys[k - 1] = 1;
        let got = puncture(point, k, &sums, &keys);
        for x in (0..8).filter(|&x| x != point) {
            assert_eq!(got[x] == leaves[x], x != 0b011, "leaf {x}");
        }
        let mut keys = vec![0; k];
        keys[0] = 1;
        let got = puncture(point, k, &sums, &keys);
        assert!((0..8).filter(|&x| x != point).all(|x| got[x] != leaves[x]));
    }

    #[test]
    fn shifting_by_the_point_is_the_xor_permutation() {
        let k = 4;
        let leaves: Vec<Block> = (0..16u128).map(|x| x * 1000 + 7).collect();
        for point in 0..16 {
            let mut shifted = leaves.clone();
            shift_by_point(&mut shifted, point, k);
            for y in 0..16 {
                assert_eq!(shifted[y], leaves[y ^ point], "point {point}");
            }
        }
        assert_eq!(eq_mask(3, 3), !0);
        assert_eq!(eq_mask(3, 2), 0);
        assert_eq!(eq_mask(0, usize::MAX), 0);
    }
}
