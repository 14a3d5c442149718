//! Byte maps by two 16-entry nibble tables in AVX2 registers (`vpshufb`): `L(b) = low[b & 0xf] ⊕
//! high[b >> 4]`, 32 bytes per step — for any map that splits that way, such as an F2-linear one
//! (MAESTRO's packed S-box maps, `proto::maestro::packed::byte_linear`).
//!
//! Constant time: the tables never leave their registers, so the bytes mapped (which may be
//! secret shares) select no memory address. The caller keeps a portable path; the SIMD one is
//! reached only through an [`Avx2`] token, which exists only after [`Avx2::detect`] found AVX2 via
//! [`super::cpu`] (never under `force-portable`, never off x86-64), so these functions are safe.

/// Proof that this CPU has AVX2 (only [`Avx2::detect`] makes one).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The token, if [`super::cpu`] reports AVX2.
    #[inline]
    pub(crate) fn detect() -> Option<Self> {
        (cfg!(target_arch = "x86_64") && super::cpu().avx2).then_some(Avx2(()))
    }

    /// `dst[k] = low[src[k] & 0xf] ^ high[src[k] >> 4]` on the first ⌊len/32⌋·32 bytes (len the
    /// shorter length); returns how many.
    #[inline]
    pub(crate) fn map(self, low: &[u8; 16], high: &[u8; 16], dst: &mut [u8], src: &[u8]) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `self` proves AVX2 was detected.
            unsafe { x86::map(low, high, dst, src) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (low, high, dst, src);
            0
        }
    }

    /// [`Avx2::map`] in place.
    #[inline]
    pub(crate) fn map_in_place(self, low: &[u8; 16], high: &[u8; 16], bytes: &mut [u8]) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `self` proves AVX2 was detected.
            unsafe { x86::map_in_place(low, high, bytes) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (low, high, bytes);
            0
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    #[inline]
    fn map32(low: __m256i, high: __m256i, mask: __m256i, v: __m256i) -> __m256i {
        let lo = _mm256_and_si256(v, mask);
        let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), mask);
        _mm256_xor_si256(_mm256_shuffle_epi8(low, lo), _mm256_shuffle_epi8(high, hi))
    }

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn map(low: &[u8; 16], high: &[u8; 16], dst: &mut [u8], src: &[u8]) -> usize {
        let n = dst.len().min(src.len()) / 32 * 32;
        // SAFETY: loads and stores stay below n ≤ both lengths; tables are 16 bytes.
        unsafe {
            let low = _mm256_broadcastsi128_si256(_mm_loadu_si128(low.as_ptr().cast()));
            let high = _mm256_broadcastsi128_si256(_mm_loadu_si128(high.as_ptr().cast()));
            let mask = _mm256_set1_epi8(0x0f);
            let mut k = 0;
            while k < n {
                let v = _mm256_loadu_si256(src.as_ptr().add(k).cast());
                _mm256_storeu_si256(dst.as_mut_ptr().add(k).cast(), map32(low, high, mask, v));
                k += 32;
            }
        }
        n
    }

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn map_in_place(low: &[u8; 16], high: &[u8; 16], bytes: &mut [u8]) -> usize {
        let n = bytes.len() / 32 * 32;
        // SAFETY: as in `map`.
        unsafe {
            let low = _mm256_broadcastsi128_si256(_mm_loadu_si128(low.as_ptr().cast()));
            let high = _mm256_broadcastsi128_si256(_mm_loadu_si128(high.as_ptr().cast()));
            let mask = _mm256_set1_epi8(0x0f);
            let mut k = 0;
            while k < n {
                let p = bytes.as_mut_ptr().add(k).cast();
                _mm256_storeu_si256(p, map32(low, high, mask, _mm256_loadu_si256(p)));
                k += 32;
            }
        }
        n
    }
}
