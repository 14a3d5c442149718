//! Operating-system memory hints for large buffers of preprocessed material.
//!
//! The online phases of the table protocols read tables and tags at random positions of hundreds
//! of MiB; with 4 KiB pages nearly every such read also misses the TLB, so their buffers are
//! allocated through [`large_zeroed`], which asks Linux for transparent huge pages before the
//! memory is first touched. The hint never changes contents; elsewhere it is a no-op.

/// Asks the kernel to back `v` with transparent huge pages (Linux; call before first writing it).
/// The online phase reads tables and tags at random positions of hundreds of MiB, and with 4 KiB
/// pages nearly every such read also misses the TLB.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(v: &[T]) {
    const PAGE: usize = 4096;
    let start = v.as_ptr() as usize;
    let end = start + core::mem::size_of_val(v);
    let aligned = start.next_multiple_of(PAGE);
    if end > aligned + PAGE {
        // SAFETY: the range lies inside the live allocation of `v`; MADV_HUGEPAGE is advice about
        // how to back those pages and never changes their contents. Failure only means no advice.
        let _ = unsafe {
            libc::madvise(aligned as *mut libc::c_void, (end - aligned) / PAGE * PAGE, libc::MADV_HUGEPAGE)
        };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_: &[T]) {}

/// A zeroed vector of `len` elements, advised to use huge pages before it is touched.
pub fn large_zeroed<T: Clone + Default>(len: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(len);
    // Nothing is written yet: the spare capacity is the whole allocation.
    advise_huge_pages(v.spare_capacity_mut());
    v.resize(len, T::default());
    v
}
