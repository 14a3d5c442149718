//! The one place that decides whether MAESTRO's bulk local work runs in parallel: with the
//! `rayon` feature (native targets only) buffers of at least [`PARALLEL_MIN`] elements are split
//! into [`CHUNK`]-element pieces processed on rayon's pool; otherwise the same pieces run in
//! order on the calling thread. Every piece is computed by the same code from the same inputs and
//! offset, so the results do not depend on the feature.

/// Elements per piece (small enough that a piece's temporaries stay in L1).
pub(crate) const CHUNK: usize = 4096;

/// Buffers shorter than this are never split across threads (thread hand-off costs more).
#[cfg(all(feature = "rayon", not(target_arch = "wasm32")))]
pub(crate) const PARALLEL_MIN: usize = 1 << 16;

/// Whether bulk work may run on several threads in this build.
pub(crate) const PARALLEL: bool = cfg!(all(feature = "rayon", not(target_arch = "wasm32")));

/// Calls `f(offset, piece)` for consecutive [`CHUNK`]-element pieces of `dst`, where `offset` is
/// the index of the piece's first element.
pub(crate) fn for_chunks_mut<T: Send>(dst: &mut [T], f: impl Fn(usize, &mut [T]) + Sync + Send) {
    #[cfg(all(feature = "rayon", not(target_arch = "wasm32")))]
    if dst.len() >= PARALLEL_MIN {
        use rayon::prelude::*;
        dst.par_chunks_mut(CHUNK).enumerate().for_each(|(k, piece)| f(k * CHUNK, piece));
        return;
    }
    for (k, piece) in dst.chunks_mut(CHUNK).enumerate() {
        f(k * CHUNK, piece);
    }
}
