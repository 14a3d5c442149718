//! Splitting a batch of material by instances: [`MaliciousPrep::split_front`] (and
//! [`SlicedPrep::split_front`] for the passive material) gives the
//! first `m` instances of a batch as a batch of their own and keeps the rest, so material made
//! ahead of time for many instances (Fig. 8 over one TinyOT batch, the cheapest way to make it)
//! can be consumed by several later jobs, each instance once.
//!
//! Instances of a batch are independent in Fig. 8's material: every table entry, mask and
//! authentication string belongs to one instance, and the online phase reads stored strings by
//! position (it derives none from an instance index), so the first `m` instances of a batch are
//! exactly the material of a batch of `m`. Only explicit verification strings (Fig. 8's form) can
//! be split: a dealer's seeded strings are derived from a per-batch seed and entry positions.

use super::malicious_prep::{MaliciousPrep, TableKeys};
use super::slice::{lane_words, SlicedPrep};
use crate::proto::tinytable::error::TinyTableError;

/// Splits `rows` bit-sliced rows of `n` instances (`lane_words(n)` words each) into the rows of
/// instances `0..m` and of `m..n`, unused high bits zero.
fn split_rows(words: &[u64], n: usize, m: usize) -> (Vec<u64>, Vec<u64>) {
    let (l, lf, lb) = (lane_words(n), lane_words(m), lane_words(n - m));
    let rows = words.len().checked_div(l).unwrap_or(0);
    let (mut front, mut back) = (Vec::with_capacity(rows * lf), Vec::with_capacity(rows * lb));
    let tail = |bits: usize| if bits.is_multiple_of(64) { u64::MAX } else { (1u64 << (bits % 64)) - 1 };
    for row in words.chunks_exact(l) {
        front.extend_from_slice(&row[..lf]);
        if let Some(last) = front.last_mut() {
            *last &= tail(m);
        }
        let shift = m % 64;
        for w in 0..lb {
            let at = m / 64 + w;
            let low = row[at] >> shift;
            let high = match (shift, row.get(at + 1)) {
                (0, _) | (_, None) => 0,
                (s, Some(&next)) => next << (64 - s),
            };
            back.push(low | high);
        }
        if let Some(last) = back.last_mut() {
            *last &= tail(n - m);
        }
    }
    (front, back)
}

/// Splits a vector of `groups` groups, each holding `per` entries for each of `n` instances in
/// instance order, into the entries of instances `0..m` and of `m..n`.
fn split_groups<T: Copy>(v: &[T], n: usize, per: usize, m: usize) -> (Vec<T>, Vec<T>) {
    let group = n * per;
    let groups = v.len().checked_div(group).unwrap_or(0);
    let (mut front, mut back) =
        (Vec::with_capacity(groups * m * per), Vec::with_capacity(groups * (n - m) * per));
    for g in v.chunks_exact(group) {
        front.extend_from_slice(&g[..m * per]);
        back.extend_from_slice(&g[m * per..]);
    }
    (front, back)
}

impl<M: Copy> MaliciousPrep<M> {
    /// Removes the first `m` instances (`1 ≤ m ≤ instances`) from this batch and returns them as
    /// a batch of their own; `self` keeps the others (none if `m` is all of them).
    pub fn split_front(&mut self, m: usize) -> Result<MaliciousPrep<M>, TinyTableError> {
        let n = self.instances;
        let refuse = |reason: String| Err(TinyTableError::PrepMismatch { party: self.party, reason });
        if m == 0 || m > n {
            return refuse(format!("cannot take {m} instances from a batch of {n}"));
        }
        let TableKeys::Explicit(keys) = &self.peer_keys else {
            return refuse("material with seeded verification strings cannot be split".into());
        };
        if m == n {
            // All of it: moved, not copied.
            let empty = MaliciousPrep {
                party: self.party,
                io: self.io.clone(),
                instances: 0,
                and_gates: self.and_gates,
                tables: Vec::new(),
                input_masks: Vec::new(),
                own_macs: Vec::new(),
                peer_keys: TableKeys::Explicit(Vec::new()),
                out_shares: Vec::new(),
                out_macs: Vec::new(),
                out_keys: Vec::new(),
            };
            return Ok(core::mem::replace(self, empty));
        }
        let (tables, rest_tables) = split_rows(&self.tables, n, m);
        let (input_masks, rest_inputs) = split_rows(&self.input_masks, n, m);
        let (out_shares, rest_shares) = split_rows(&self.out_shares, n, m);
        let (own_macs, rest_macs) = split_groups(&self.own_macs, n, 4, m);
        let (keys, rest_keys) = split_groups(keys, n, 8, m);
        let (out_macs, rest_out_macs) = split_groups(&self.out_macs, n, 1, m);
        let (out_keys, rest_out_keys) = split_groups(&self.out_keys, n, 2, m);
        let front = MaliciousPrep {
            party: self.party,
            io: self.io.clone(),
            instances: m,
            and_gates: self.and_gates,
            tables,
            input_masks,
            own_macs,
            peer_keys: TableKeys::Explicit(keys),
            out_shares,
            out_macs,
            out_keys,
        };
        self.instances = n - m;
        self.tables = rest_tables;
        self.input_masks = rest_inputs;
        self.out_shares = rest_shares;
        self.own_macs = rest_macs;
        self.peer_keys = TableKeys::Explicit(rest_keys);
        self.out_macs = rest_out_macs;
        self.out_keys = rest_out_keys;
        Ok(front)
    }
}

impl SlicedPrep {
    /// Removes the first `m` instances (`1 ≤ m ≤ instances`) from this batch and returns them as
    /// a batch of their own; `self` keeps the others (none if `m` is all of them). Every row of
    /// the passive material (table entries, input and output masks) is per instance.
    pub fn split_front(&mut self, m: usize) -> Result<SlicedPrep, TinyTableError> {
        let n = self.instances;
        if m == 0 || m > n {
            return Err(TinyTableError::PrepMismatch {
                party: self.party,
                reason: format!("cannot take {m} instances from a batch of {n}"),
            });
        }
        // This batch's party, IoSpec and gate count with other rows.
        let rows = |instances, tables, input_masks, output_masks| SlicedPrep {
            party: self.party,
            io: self.io.clone(),
            instances,
            and_gates: self.and_gates,
            tables,
            input_masks,
            output_masks,
        };
        if m == n {
            // All of it: moved, not copied.
            let empty = rows(0, Vec::new(), Vec::new(), Vec::new());
            return Ok(core::mem::replace(self, empty));
        }
        let (tables, rest_tables) = split_rows(&self.tables, n, m);
        let (input_masks, rest_inputs) = split_rows(&self.input_masks, n, m);
        let (output_masks, rest_outputs) = split_rows(&self.output_masks, n, m);
        let front = rows(m, tables, input_masks, output_masks);
        self.instances = n - m;
        self.tables = rest_tables;
        self.input_masks = rest_inputs;
        self.output_masks = rest_outputs;
        Ok(front)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn bit(row: &[u64], i: usize) -> bool {
        row[i / 64] >> (i % 64) & 1 == 1
    }

    proptest! {
        #[test]
        fn split_rows_keeps_every_instance_bit(n in 1usize..200, cut in 0usize..200, seed: u64) {
            let m = cut % n + 1;
            let l = lane_words(n);
            let rows = 3;
            let mut words: Vec<u64> = (0..rows * l)
                .map(|i| seed.rotate_left(i as u32 * 7) ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .collect();
            for row in words.chunks_exact_mut(l) {
                if n % 64 != 0 {
                    row[l - 1] &= (1u64 << (n % 64)) - 1;
                }
            }
            let (front, back) = split_rows(&words, n, m);
            prop_assert_eq!(front.len(), rows * lane_words(m));
            prop_assert_eq!(back.len(), rows * lane_words(n - m));
            for r in 0..rows {
                let row = &words[r * l..(r + 1) * l];
                let f = &front[r * lane_words(m)..(r + 1) * lane_words(m)];
                for i in 0..m {
                    prop_assert_eq!(bit(f, i), bit(row, i));
                }
                for i in m..lane_words(m) * 64 {
                    prop_assert!(!bit(f, i), "front padding bit {} set", i);
                }
                let b = &back[r * lane_words(n - m)..(r + 1) * lane_words(n - m)];
                for i in 0..n - m {
                    prop_assert_eq!(bit(b, i), bit(row, m + i));
                }
                for i in n - m..lane_words(n - m) * 64 {
                    prop_assert!(!bit(b, i), "back padding bit {} set", i);
                }
            }
        }

        #[test]
        fn split_groups_keeps_every_entry(n in 1usize..20, cut in 0usize..20, per in 1usize..9, groups in 0usize..5) {
            let m = cut % n + 1;
            let v: Vec<u32> = (0..(groups * n * per) as u32).collect();
            let (front, back) = split_groups(&v, n, per, m);
            for g in 0..groups {
                for i in 0..n {
                    for e in 0..per {
                        let want = v[(g * n + i) * per + e];
                        let got = if i < m { front[(g * m + i) * per + e] } else { back[(g * (n - m) + i - m) * per + e] };
                        prop_assert_eq!(got, want);
                    }
                }
            }
        }
    }
}
