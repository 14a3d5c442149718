//! Joining batches of material by instances, the inverse of [`super::split`]: a batch made in
//! consecutive chunks (so that making it never holds more than one chunk's working memory) is
//! gathered into one batch of all their instances ([`Gather`]), as if it had been made at once.
//!
//! Instances of a batch are independent in Fig. 8's material (see [`super::split`]), so the
//! material of chunks of `n₁, n₂, …` instances, placed one after another, is exactly the
//! material of a batch of `n₁ + n₂ + …`. [`Gather`] allocates the whole batch when the first
//! chunk arrives and copies each chunk into place, so it holds the whole batch and one chunk at a
//! time; a batch made in one chunk is moved, not copied.

use super::malicious_prep::{MaliciousPrep, TableKeys};
use super::slice::{lane_words, SlicedPrep};
use crate::net::PartyId;
use crate::proto::tinytable::error::TinyTableError;

/// A batch of per-instance material that chunks can be joined into.
pub trait Batch: Sized {
    /// Instances held.
    fn instances(&self) -> usize;
    /// The party the material belongs to.
    fn party(&self) -> PartyId;
    /// A batch of the same shape (party, inputs, outputs, gates) for `total` instances, every
    /// entry zero.
    fn blank(&self, total: usize) -> Result<Self, TinyTableError>;
    /// Writes `part`'s instances as instances `at..at + part.instances()` of `self`.
    fn place(&mut self, part: &Self, at: usize) -> Result<(), TinyTableError>;
}

/// A batch of `total` instances gathered from chunks pushed in instance order.
pub struct Gather<B> {
    party: PartyId,
    total: usize,
    at: usize,
    whole: Option<B>,
}

impl<B: Batch> Gather<B> {
    /// Gathers `total` instances of `party`'s material.
    pub fn new(party: PartyId, total: usize) -> Self {
        Gather { party, total, at: 0, whole: None }
    }

    /// Adds the next chunk (its instances follow those pushed before).
    pub fn push(&mut self, part: B) -> Result<(), TinyTableError> {
        let n = part.instances();
        if self.at + n > self.total {
            return Err(mismatch(
                self.party,
                format!("a chunk of {n} instances after {} of {}", self.at, self.total),
            ));
        }
        if part.party() != self.party {
            return Err(mismatch(self.party, format!("a chunk of party {}'s material", part.party())));
        }
        match &mut self.whole {
            None if n == self.total => self.whole = Some(part),
            None => {
                let mut whole = part.blank(self.total)?;
                whole.place(&part, 0)?;
                self.whole = Some(whole);
            }
            Some(whole) => whole.place(&part, self.at)?,
        }
        self.at += n;
        Ok(())
    }

    /// The gathered batch (an error unless exactly `total` instances were pushed).
    pub fn finish(self) -> Result<B, TinyTableError> {
        match self.whole {
            Some(whole) if self.at == self.total => Ok(whole),
            _ => Err(mismatch(self.party, format!("{} of {} instances gathered", self.at, self.total))),
        }
    }
}

fn mismatch(party: PartyId, reason: String) -> TinyTableError {
    TinyTableError::PrepMismatch { party, reason }
}

/// Rows of `n` instances each (`lane_words(n)` words, high bits zero) in a vector of `rows` rows.
fn row_count(words: &[u64], n: usize) -> usize {
    words.len().checked_div(lane_words(n)).unwrap_or(0)
}

/// ORs the bit-sliced rows of `src` (`n` instances each; its unused high bits are ignored) into
/// the rows of `dst` (`total` instances each) at instance `at` (the bits there must be zero).
fn place_rows(dst: &mut [u64], total: usize, src: &[u64], n: usize, at: usize) {
    let (l, ls) = (lane_words(total), lane_words(n));
    if ls == 0 {
        return;
    }
    let (first, shift) = (at / 64, at % 64);
    let padding = if n.is_multiple_of(64) { u64::MAX } else { (1u64 << (n % 64)) - 1 };
    for (row, part) in dst.chunks_exact_mut(l).zip(src.chunks_exact(ls)) {
        for (k, &word) in part.iter().enumerate() {
            // A part's padding bits (any value) must not reach the instances after it.
            let word = if k + 1 == ls { word & padding } else { word };
            row[first + k] |= word << shift;
            if shift != 0 {
                if let Some(next) = row.get_mut(first + k + 1) {
                    *next |= word >> (64 - shift);
                }
            }
        }
    }
}

/// Copies the groups of `src` (`n·per` entries each, in instance order) into the groups of `dst`
/// (`total·per` entries each) at instance `at`.
fn place_groups<T: Copy>(dst: &mut [T], total: usize, src: &[T], n: usize, per: usize, at: usize) {
    if n == 0 || per == 0 {
        return;
    }
    for (group, part) in dst.chunks_exact_mut(total * per).zip(src.chunks_exact(n * per)) {
        group[at * per..(at + n) * per].copy_from_slice(part);
    }
}

/// Whether `part` has the shape of `whole` (party, inputs and outputs, gates, rows of each kind).
fn same_shape(whole: (&SlicedPrep, usize), part: (&SlicedPrep, usize)) -> bool {
    let rows = |p: &SlicedPrep, n| {
        [row_count(&p.tables, n), row_count(&p.input_masks, n), row_count(&p.output_masks, n)]
    };
    let ((w, wn), (p, pn)) = (whole, part);
    w.party == p.party && w.io == p.io && w.and_gates == p.and_gates && rows(w, wn) == rows(p, pn)
}

impl Batch for SlicedPrep {
    fn instances(&self) -> usize {
        self.instances
    }

    fn party(&self) -> PartyId {
        self.party
    }

    fn blank(&self, total: usize) -> Result<Self, TinyTableError> {
        let (n, l) = (self.instances, lane_words(total));
        let zeros = |words: &[u64]| vec![0u64; row_count(words, n) * l];
        Ok(SlicedPrep {
            party: self.party,
            io: self.io.clone(),
            instances: total,
            and_gates: self.and_gates,
            tables: zeros(&self.tables),
            input_masks: zeros(&self.input_masks),
            output_masks: zeros(&self.output_masks),
        })
    }

    fn place(&mut self, part: &Self, at: usize) -> Result<(), TinyTableError> {
        let (total, n) = (self.instances, part.instances);
        if at + n > total || !same_shape((self, total), (part, n)) {
            return Err(mismatch(
                self.party,
                format!("a chunk of {n} instances does not fit at {at} of {total}"),
            ));
        }
        place_rows(&mut self.tables, total, &part.tables, n, at);
        place_rows(&mut self.input_masks, total, &part.input_masks, n, at);
        place_rows(&mut self.output_masks, total, &part.output_masks, n, at);
        Ok(())
    }
}

impl<M: Copy + Default> Batch for MaliciousPrep<M> {
    fn instances(&self) -> usize {
        self.instances
    }

    fn party(&self) -> PartyId {
        self.party
    }

    fn blank(&self, total: usize) -> Result<Self, TinyTableError> {
        let (n, l) = (self.instances.max(1), lane_words(total));
        let TableKeys::Explicit(keys) = &self.peer_keys else {
            return Err(mismatch(
                self.party,
                "material with seeded verification strings cannot be joined".into(),
            ));
        };
        let rows = |words: &[u64]| vec![0u64; row_count(words, self.instances) * l];
        let groups = |v: &[M]| vec![M::default(); v.len() / n * total];
        Ok(MaliciousPrep {
            party: self.party,
            io: self.io.clone(),
            instances: total,
            and_gates: self.and_gates,
            tables: rows(&self.tables),
            input_masks: rows(&self.input_masks),
            own_macs: groups(&self.own_macs),
            peer_keys: TableKeys::Explicit(groups(keys)),
            out_shares: rows(&self.out_shares),
            out_macs: groups(&self.out_macs),
            out_keys: groups(&self.out_keys),
        })
    }

    fn place(&mut self, part: &Self, at: usize) -> Result<(), TinyTableError> {
        let (total, n) = (self.instances, part.instances);
        let (TableKeys::Explicit(keys), TableKeys::Explicit(part_keys)) =
            (&mut self.peer_keys, &part.peer_keys)
        else {
            return Err(mismatch(
                self.party,
                "material with seeded verification strings cannot be joined".into(),
            ));
        };
        let per_instance = |v: &[M], n: usize| v.len().checked_div(n);
        let fits = at + n <= total
            && self.party == part.party
            && self.io == part.io
            && self.and_gates == part.and_gates
            && row_count(&self.tables, total) == row_count(&part.tables, n)
            && row_count(&self.input_masks, total) == row_count(&part.input_masks, n)
            && row_count(&self.out_shares, total) == row_count(&part.out_shares, n)
            && per_instance(&self.own_macs, total) == per_instance(&part.own_macs, n)
            && per_instance(keys, total) == per_instance(part_keys, n)
            && per_instance(&self.out_macs, total) == per_instance(&part.out_macs, n)
            && per_instance(&self.out_keys, total) == per_instance(&part.out_keys, n);
        if !fits {
            return Err(mismatch(
                self.party,
                format!("a chunk of {n} instances does not fit at {at} of {total}"),
            ));
        }
        place_rows(&mut self.tables, total, &part.tables, n, at);
        place_rows(&mut self.input_masks, total, &part.input_masks, n, at);
        place_rows(&mut self.out_shares, total, &part.out_shares, n, at);
        place_groups(&mut self.own_macs, total, &part.own_macs, n, 4, at);
        place_groups(keys, total, part_keys, n, 8, at);
        place_groups(&mut self.out_macs, total, &part.out_macs, n, 1, at);
        place_groups(&mut self.out_keys, total, &part.out_keys, n, 2, at);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::testing::random_circuit;
    use crate::proto::tinytable::spec::{IoSpec, Reveal};
    use crate::proto::tinytable::TrustedDealer;
    use proptest::prelude::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    /// Cuts `whole` into consecutive chunks of `sizes` instances (`range(whole, start, len)`)
    /// and gathers them again.
    fn split_and_gather<B: Batch>(whole: &B, sizes: &[usize], range: impl Fn(&B, usize, usize) -> B) -> B {
        let (mut start, mut gather) = (0, Gather::new(whole.party(), whole.instances()));
        for &m in sizes {
            gather.push(range(whole, start, m)).expect("the chunk fits");
            start += m;
        }
        gather.finish().expect("every instance gathered")
    }

    /// Clears the unused high bits of rows of `n` instances (the dealer leaves them random; a
    /// split clears them).
    fn clear_padding(words: &mut [u64], n: usize) {
        for row in words.chunks_exact_mut(lane_words(n)) {
            if !n.is_multiple_of(64) {
                row[row.len() - 1] &= (1u64 << (n % 64)) - 1;
            }
        }
    }

    #[test]
    fn chunks_split_from_a_batch_gather_into_the_same_batch() {
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        let circuit = random_circuit(&mut rng, 4, 60, 3);
        let io = IoSpec {
            input_owners: vec![0, 1, 1, 0],
            reveal: vec![Reveal::Both, Reveal::To(0), Reveal::To(1)],
        };
        let mut dealer = TrustedDealer::new(rng);
        for sizes in [vec![130], vec![64, 66], vec![1, 63, 64, 2], vec![65, 1, 64]] {
            let total = sizes.iter().sum();
            for party in 0..2 {
                let mut sliced = dealer.sliced_batch(&circuit, &io, total).expect("dealer")[party].clone();
                for rows in [&mut sliced.tables, &mut sliced.input_masks, &mut sliced.output_masks] {
                    clear_padding(rows, total);
                }
                let gathered =
                    split_and_gather(&sliced, &sizes, |b, at, m| b.instances_range(at, m).expect("range"));
                assert!(gathered == sliced, "semi-honest, chunks {sizes:?}, party {party}");
                let mut malicious =
                    dealer.malicious_batch::<u64>(&circuit, &io, total).expect("dealer")[party].clone();
                for rows in [&mut malicious.tables, &mut malicious.input_masks, &mut malicious.out_shares] {
                    clear_padding(rows, total);
                }
                let gathered =
                    split_and_gather(&malicious, &sizes, |b, at, m| b.instances_range(at, m).expect("range"));
                assert!(gathered == malicious, "malicious, chunks {sizes:?}, party {party}");
            }
        }
    }

    #[test]
    fn a_chunk_of_another_shape_party_or_count_is_refused() {
        let mut rng = ChaCha20Rng::seed_from_u64(8);
        let circuit = random_circuit(&mut rng, 2, 30, 2);
        let other = random_circuit(&mut rng, 2, 90, 2);
        assert_ne!(other.gate_counts().and, circuit.gate_counts().and, "the other shape differs");
        let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both, Reveal::Both] };
        let mut dealer = TrustedDealer::new(rng);
        let [a, b] = dealer.sliced_batch(&circuit, &io, 10).expect("dealer");
        let mut gather = Gather::new(0, 20);
        gather.push(a.clone()).expect("first chunk");
        assert!(matches!(gather.push(b), Err(TinyTableError::PrepMismatch { party: 0, .. })));
        let [c, _] = dealer.sliced_batch(&other, &io, 10).expect("dealer");
        assert!(matches!(gather.push(c), Err(TinyTableError::PrepMismatch { .. })));
        gather.push(a.clone()).expect("second chunk");
        assert!(matches!(gather.push(a.clone()), Err(TinyTableError::PrepMismatch { .. })), "past the total");
        let mut short = Gather::new(0, 11);
        short.push(a).expect("first chunk");
        assert!(matches!(short.finish(), Err(TinyTableError::PrepMismatch { .. })), "an instance missing");
        let seeded = dealer.malicious_batch_seeded::<u64>(&circuit, &io, 3).expect("dealer")[0].clone();
        let mut gather = Gather::new(0, 6);
        assert!(matches!(gather.push(seeded), Err(TinyTableError::PrepMismatch { .. })), "seeded strings");
    }

    fn bit(row: &[u64], i: usize) -> bool {
        row[i / 64] >> (i % 64) & 1 == 1
    }

    /// `rows` rows of `n` pseudo-random instance bits (high bits zero).
    fn rows_of(n: usize, rows: usize, seed: u64) -> Vec<u64> {
        let l = lane_words(n);
        let mut words: Vec<u64> = (0..rows * l)
            .map(|i| seed.rotate_left(i as u32 * 13) ^ (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        clear_padding(&mut words, n);
        words
    }

    proptest! {
        #[test]
        fn placed_rows_hold_every_chunk_bit_in_order(sizes in proptest::collection::vec(1usize..150, 1..5), seed: u64) {
            let rows = 3;
            let total: usize = sizes.iter().sum();
            let l = lane_words(total);
            let mut whole = vec![0u64; rows * l];
            let chunks: Vec<Vec<u64>> = sizes.iter().enumerate().map(|(c, &n)| rows_of(n, rows, seed ^ c as u64)).collect();
            let mut at = 0;
            for (chunk, &n) in chunks.iter().zip(&sizes) {
                place_rows(&mut whole, total, chunk, n, at);
                at += n;
            }
            for r in 0..rows {
                let row = &whole[r * l..(r + 1) * l];
                let mut i = 0;
                for (chunk, &n) in chunks.iter().zip(&sizes) {
                    let part = &chunk[r * lane_words(n)..(r + 1) * lane_words(n)];
                    for j in 0..n {
                        prop_assert_eq!(bit(row, i + j), bit(part, j));
                    }
                    i += n;
                }
                for j in total..l * 64 {
                    prop_assert!(!bit(row, j), "padding bit {} set", j);
                }
            }
        }

        #[test]
        fn placed_groups_hold_every_entry_in_order(sizes in proptest::collection::vec(1usize..20, 1..5), per in 1usize..9, groups in 0usize..4) {
            let total: usize = sizes.iter().sum();
            let mut whole = vec![u32::MAX; groups * total * per];
            let mut at = 0;
            for (c, &n) in sizes.iter().enumerate() {
                let part: Vec<u32> = (0..groups * n * per).map(|j| (c * 1000 + j) as u32).collect();
                place_groups(&mut whole, total, &part, n, per, at);
                for g in 0..groups {
                    for i in 0..n {
                        for e in 0..per {
                            prop_assert_eq!(whole[(g * total + at + i) * per + e], part[(g * n + i) * per + e]);
                        }
                    }
                }
                at += n;
            }
            prop_assert!(whole.iter().all(|&v| v != u32::MAX));
        }
    }
}
