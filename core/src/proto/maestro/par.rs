//! The one place that decides whether MAESTRO's bulk local work runs in parallel: with the
//! `rayon` feature (native targets only) buffers of at least [`PARALLEL_MIN`] elements are split
//! into [`CHUNK`]-element pieces processed on rayon's pool; otherwise the same pieces run in
//! order on the calling thread. Every piece is computed by the same code from the same inputs and
//! offset, so the results do not depend on the feature.

/// Elements per piece (small enough that a piece's temporaries stay in L1; a multiple of 64 so
/// pieces start on word boundaries). Tests use small pieces so small batches are split too.
pub(crate) const CHUNK: usize = if cfg!(test) { 256 } else { 4096 };

/// Buffers shorter than this are never split across threads (thread hand-off costs more).
#[cfg(all(feature = "rayon", not(target_arch = "wasm32")))]
pub(crate) const PARALLEL_MIN: usize = if cfg!(test) { 2 * CHUNK } else { 1 << 16 };

#[cfg(all(test, feature = "rayon", not(target_arch = "wasm32")))]
std::thread_local! {
    /// Test override: run the pieces in order on this thread even in a `rayon` build.
    static SEQUENTIAL: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Runs `f` with the parallel split switched off on this thread (tests compare both paths).
#[cfg(all(test, feature = "rayon", not(target_arch = "wasm32")))]
pub(crate) fn sequentially<T>(f: impl FnOnce() -> T) -> T {
    SEQUENTIAL.with(|s| s.set(true));
    let out = f();
    SEQUENTIAL.with(|s| s.set(false));
    out
}

/// Whether this call may split work over threads.
#[inline]
pub(crate) fn parallel_now(len: usize) -> bool {
    #[cfg(all(feature = "rayon", not(target_arch = "wasm32")))]
    {
        #[cfg(test)]
        if SEQUENTIAL.with(|s| s.get()) {
            return false;
        }
        len >= PARALLEL_MIN
    }
    #[cfg(not(all(feature = "rayon", not(target_arch = "wasm32"))))]
    {
        let _ = len;
        false
    }
}

/// Calls `f(offset, piece)` for consecutive [`CHUNK`]-element pieces of `dst`, where `offset` is
/// the index of the piece's first element.
pub(crate) fn for_chunks_mut<T: Send>(dst: &mut [T], f: impl Fn(usize, &mut [T]) + Sync + Send) {
    #[cfg(all(feature = "rayon", not(target_arch = "wasm32")))]
    if parallel_now(dst.len()) {
        use rayon::prelude::*;
        dst.par_chunks_mut(CHUNK).enumerate().for_each(|(k, piece)| f(k * CHUNK, piece));
        return;
    }
    for (k, piece) in dst.chunks_mut(CHUNK).enumerate() {
        f(k * CHUNK, piece);
    }
}
