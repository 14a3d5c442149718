//! Software prefetch for the online phases' reads of preprocessed material.
//!
//! The S-box online phases read one table entry (and, malicious, one tag) per state byte at an
//! index that is a public masked byte, in tables far larger than any cache: nearly every read is a
//! cache miss. All indices of a round are known once the previous round's message has arrived, so
//! the gathers ask for the entries of a block a few blocks ahead ([`AHEAD`]) while reading the
//! current one, which keeps more misses in flight than out-of-order execution finds on its own.
//! The binary malicious phase ([`crate::proto::tinytable::circuit::malicious`]) streams its MAC material and prefetches it a
//! fixed distance ahead.
//!
//! A prefetch is a hint: it never faults, changes no state visible to the program, and its address
//! is the one the later read uses (a public index), so it adds no secret-dependent access.
//! On targets without a prefetch instruction (wasm32) it is a no-op.

/// How many blocks ahead of the current one the gathers prefetch.
pub(crate) const AHEAD: usize = 4;

/// How many blocks ahead the S-box gathers touch a block's round tables to start their page walks
/// (under virtualization a page walk costs several memory accesses; a block's tables of one round
/// span one or two 4 KiB pages, so every block needs its own).
pub(crate) const PAGE_AHEAD: usize = 12;

/// Hints that `value` will be read soon (into all cache levels).
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let p = (value as *const T).cast::<i8>();
        // SAFETY: `_mm_prefetch` only needs SSE, part of the x86_64 baseline; it reads nothing
        // architecturally and cannot fault, and `p` points into a live reference anyway.
        unsafe { core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
