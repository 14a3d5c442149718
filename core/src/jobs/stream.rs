//! Streaming a circuit job's instances through chunks, so a job of any instance count holds the
//! preprocessing material of one chunk at a time.
//!
//! A protocol's material grows with instances × AND gates; a batch of thousands of instances of
//! a large circuit made at once would not fit in a browser tab. The runners of TinyTable (over OT)
//! and Coral therefore split a job's instances into consecutive chunks: each chunk's material is
//! made, the chunk is evaluated, its outputs are kept, and its material is dropped before the next
//! chunk's is made. The chunk size comes from an estimate of the material's bytes per instance and
//! [`MATERIAL_BUDGET_BYTES`], in whole units of the protocol's own packing (64 instances per
//! bit-sliced word for TinyTable, 14 per RMFE pack for Coral); MiniMac already works in codeword
//! batches of 960 or 680 instances. Chunking costs rounds (each chunk's AND layers run on their
//! own), never correctness: chunks are independent instances of the same agreed job.

use core::ops::Range;

/// Bytes of preprocessing material a party holds at once while a job streams its instances.
pub const MATERIAL_BUDGET_BYTES: usize = 256 << 20;

/// Instances per chunk for material of about `bytes_per_instance` bytes, in whole `granule`s (at
/// least one), and never more than `instances`.
pub fn chunk_size(bytes_per_instance: usize, granule: usize, instances: usize) -> usize {
    let granule = granule.max(1);
    let fit = MATERIAL_BUDGET_BYTES / bytes_per_instance.max(1);
    let granules = (fit / granule).max(1);
    (granules * granule).min(instances.max(1))
}

/// The consecutive ranges of `instances` instances, `per_chunk` at a time (the last may be
/// shorter).
pub fn chunks(instances: usize, per_chunk: usize) -> impl Iterator<Item = Range<usize>> {
    let per_chunk = per_chunk.max(1);
    (0..instances.div_ceil(per_chunk)).map(move |c| c * per_chunk..((c + 1) * per_chunk).min(instances))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_every_instance_once_in_order() {
        let ranges: Vec<_> = chunks(2000, 960).collect();
        assert_eq!(ranges, vec![0..960, 960..1920, 1920..2000]);
        assert_eq!(chunks(13, 14).collect::<Vec<_>>(), vec![0..13]);
        assert_eq!(chunks(0, 14).count(), 0);
    }

    #[test]
    fn chunk_sizes_are_whole_granules_within_the_budget() {
        // A small circuit: everything in one chunk.
        assert_eq!(chunk_size(1000, 64, 2000), 2000);
        // A large one: whole granules, at least one.
        let per = MATERIAL_BUDGET_BYTES / 100;
        assert_eq!(chunk_size(per, 14, 10_000), 98);
        assert_eq!(chunk_size(usize::MAX, 64, 10_000), 64);
        assert_eq!(chunk_size(usize::MAX, 64, 5), 5);
    }
}
