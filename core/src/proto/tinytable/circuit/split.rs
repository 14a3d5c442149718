//! Taking instances out of a batch of material: [`MaliciousPrep::instances_range`] (and
//! [`SlicedPrep::instances_range`] for the passive material) copies instances `start..start + len`
//! of a batch into a batch of their own (and `take_all` moves a whole batch out), so material made
//! ahead of time for many instances (Fig. 8 over one TinyOT batch, the cheapest way to make it)
//! can be consumed by several later jobs, each instance once.
//!
//! Instances of a batch are independent in Fig. 8's material: every table entry, mask and
//! authentication string belongs to one instance, and the online phase reads stored strings by
//! position (it derives none from an instance index), so instances `start..start + len` of a batch
//! are exactly the material of a batch of `len`. Only explicit verification strings (Fig. 8's
//! form) can be taken apart: a dealer's seeded strings are derived from a per-batch seed and entry
//! positions.
//!
//! **Cost.** A range costs its own size: a store that hands out a large batch a few instances at
//! a time takes ranges and compacts now and then ([`crate::jobs::prepared`]), rather than
//! splitting off the front and copying the rest on every job.

use super::malicious_prep::{MaliciousPrep, TableKeys};
use super::slice::{lane_words, SlicedPrep};
use crate::proto::tinytable::error::TinyTableError;

/// The bit-sliced rows of instances `start..start + len` of rows of `n` instances each
/// (`lane_words(n)` words per row): `lane_words(len)` words per row, unused high bits zero.
fn rows_range(words: &[u64], n: usize, start: usize, len: usize) -> Vec<u64> {
    debug_assert!(start + len <= n);
    let (l, lr) = (lane_words(n), lane_words(len));
    let rows = words.len().checked_div(l).unwrap_or(0);
    let mut out = Vec::with_capacity(rows * lr);
    let tail = if len.is_multiple_of(64) { u64::MAX } else { (1u64 << (len % 64)) - 1 };
    let shift = start % 64;
    for row in words.chunks_exact(l) {
        for w in 0..lr {
            let at = start / 64 + w;
            let low = row[at] >> shift;
            let high = match (shift, row.get(at + 1)) {
                (0, _) | (_, None) => 0,
                (s, Some(&next)) => next << (64 - s),
            };
            out.push(low | high);
        }
        if let Some(last) = out.last_mut() {
            *last &= tail;
        }
    }
    out
}

/// The entries of instances `start..start + len` of a vector of groups, each holding `per`
/// entries for each of `n` instances in instance order.
fn groups_range<T: Copy>(v: &[T], n: usize, per: usize, start: usize, len: usize) -> Vec<T> {
    let group = n * per;
    let groups = v.len().checked_div(group).unwrap_or(0);
    let mut out = Vec::with_capacity(groups * len * per);
    for g in v.chunks_exact(group) {
        out.extend_from_slice(&g[start * per..(start + len) * per]);
    }
    out
}

/// Why `start..start + len` is not a range to take from a batch of `n` (none if it is).
fn bad_range(start: usize, len: usize, n: usize) -> Option<String> {
    match start.checked_add(len) {
        Some(end) if len > 0 && end <= n => None,
        _ => Some(format!("cannot take instances {start}..{start}+{len} from a batch of {n}")),
    }
}

impl<M: Copy> MaliciousPrep<M> {
    /// A copy of instances `start..start + len` (`len ≥ 1`) as a batch of their own.
    pub fn instances_range(&self, start: usize, len: usize) -> Result<MaliciousPrep<M>, TinyTableError> {
        let n = self.instances;
        let refuse = |reason: String| Err(TinyTableError::PrepMismatch { party: self.party, reason });
        if let Some(reason) = bad_range(start, len, n) {
            return refuse(reason);
        }
        let TableKeys::Explicit(keys) = &self.peer_keys else {
            return refuse("material with seeded verification strings cannot be split".into());
        };
        Ok(MaliciousPrep {
            party: self.party,
            io: self.io.clone(),
            instances: len,
            and_gates: self.and_gates,
            tables: rows_range(&self.tables, n, start, len),
            input_masks: rows_range(&self.input_masks, n, start, len),
            own_macs: groups_range(&self.own_macs, n, 4, start, len),
            peer_keys: TableKeys::Explicit(groups_range(keys, n, 8, start, len)),
            out_shares: rows_range(&self.out_shares, n, start, len),
            out_macs: groups_range(&self.out_macs, n, 1, start, len),
            out_keys: groups_range(&self.out_keys, n, 2, start, len),
        })
    }

    /// Moves the whole batch out, leaving an empty one (no instances) of the same shape.
    pub fn take_all(&mut self) -> MaliciousPrep<M> {
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
        core::mem::replace(self, empty)
    }
}

impl SlicedPrep {
    /// A copy of instances `start..start + len` (`len ≥ 1`) as a batch of their own. Every row of
    /// the passive material (table entries, input and output masks) is per instance.
    pub fn instances_range(&self, start: usize, len: usize) -> Result<SlicedPrep, TinyTableError> {
        let n = self.instances;
        if let Some(reason) = bad_range(start, len, n) {
            return Err(TinyTableError::PrepMismatch { party: self.party, reason });
        }
        Ok(self.with_rows(
            len,
            rows_range(&self.tables, n, start, len),
            rows_range(&self.input_masks, n, start, len),
            rows_range(&self.output_masks, n, start, len),
        ))
    }

    /// This batch's party, IoSpec and gate count with other rows.
    fn with_rows(
        &self,
        instances: usize,
        tables: Vec<u64>,
        input_masks: Vec<u64>,
        output_masks: Vec<u64>,
    ) -> Self {
        SlicedPrep {
            party: self.party,
            io: self.io.clone(),
            instances,
            and_gates: self.and_gates,
            tables,
            input_masks,
            output_masks,
        }
    }

    /// Moves the whole batch out, leaving an empty one (no instances) of the same shape.
    pub fn take_all(&mut self) -> SlicedPrep {
        let empty = self.with_rows(0, Vec::new(), Vec::new(), Vec::new());
        core::mem::replace(self, empty)
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
        fn rows_range_keeps_every_instance_bit(n in 1usize..200, a in 0usize..200, b in 0usize..200, seed: u64) {
            let start = a % n;
            let len = b % (n - start) + 1;
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
            let got = rows_range(&words, n, start, len);
            let lr = lane_words(len);
            prop_assert_eq!(got.len(), rows * lr);
            for r in 0..rows {
                let row = &words[r * l..(r + 1) * l];
                let part = &got[r * lr..(r + 1) * lr];
                for i in 0..len {
                    prop_assert_eq!(bit(part, i), bit(row, start + i));
                }
                for i in len..lr * 64 {
                    prop_assert!(!bit(part, i), "padding bit {} set", i);
                }
            }
        }

        #[test]
        fn groups_range_keeps_every_entry(n in 1usize..20, a in 0usize..20, b in 0usize..20, per in 1usize..9, groups in 0usize..5) {
            let start = a % n;
            let len = b % (n - start) + 1;
            let v: Vec<u32> = (0..(groups * n * per) as u32).collect();
            let got = groups_range(&v, n, per, start, len);
            prop_assert_eq!(got.len(), groups * len * per);
            for g in 0..groups {
                for i in 0..len {
                    for e in 0..per {
                        prop_assert_eq!(got[(g * len + i) * per + e], v[(g * n + start + i) * per + e]);
                    }
                }
            }
        }
    }

    #[test]
    fn ranges_outside_the_batch_are_refused() {
        assert!(bad_range(0, 1, 1).is_none());
        assert!(bad_range(3, 2, 5).is_none());
        assert!(bad_range(0, 0, 5).is_some());
        assert!(bad_range(4, 2, 5).is_some());
        assert!(bad_range(usize::MAX, 2, 5).is_some());
    }
}
