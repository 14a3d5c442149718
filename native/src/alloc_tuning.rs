//! Allocator settings for the party processes.
//!
//! The protocols allocate and free many buffers of a few hundred kilobytes to a few megabytes per
//! round (shares, products, messages). glibc's malloc serves such sizes with fresh `mmap`s, or
//! gives freed heap memory back to the kernel, so every round pays page faults and page clearing
//! for memory it just released (about a tenth of the CPU time of a MAESTRO job). Raising the mmap
//! and trim thresholds keeps that memory in the process for reuse. Elsewhere this does nothing.

/// Keeps freed memory of up to 32 MiB per allocation in the process for reuse (glibc on Linux;
/// a no-op elsewhere). Call once at the start of `main`, before threads are spawned.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::raw::c_int;
        extern "C" {
            fn mallopt(param: c_int, value: c_int) -> c_int;
        }
        // glibc's <malloc.h>: M_TRIM_THRESHOLD = -1, M_MMAP_THRESHOLD = -3; the mmap threshold is
        // capped at 32 MiB on 64-bit targets.
        const M_TRIM_THRESHOLD: c_int = -1;
        const M_MMAP_THRESHOLD: c_int = -3;
        // SAFETY: mallopt only changes allocator parameters; both values are in range, and it is
        // called before the parties' threads allocate.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, 32 << 20);
            mallopt(M_TRIM_THRESHOLD, 512 << 20);
        }
    }
}
