//! Run-time CPU feature detection, done once per process.

use std::sync::OnceLock;

/// The instruction-set extensions the crate's fast paths use. On targets other than x86-64 every
/// flag is `false` (wasm32 SIMD is a compile-time target feature, chosen by `cfg`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cpu {
    /// SSSE3 (`pshufb`): nibble-table GF(2^8) multiplication.
    pub ssse3: bool,
    /// SSE4.1.
    pub sse41: bool,
    /// AVX2: 256-bit integer vectors.
    pub avx2: bool,
    /// AES-NI (`aesenc`).
    pub aes: bool,
    /// PCLMULQDQ: carry-less multiplication.
    pub pclmulqdq: bool,
    /// VPCLMULQDQ with AVX2: two carry-less products per 256-bit instruction.
    pub vpclmulqdq: bool,
    /// VAES with AVX-512F and AES-NI: four AES rounds per 512-bit instruction.
    pub vaes: bool,
}

impl Cpu {
    /// No extensions: every fast path takes its portable code.
    pub const PORTABLE: Cpu = Cpu {
        ssse3: false,
        sse41: false,
        avx2: false,
        aes: false,
        pclmulqdq: false,
        vpclmulqdq: false,
        vaes: false,
    };

    /// What this processor supports, ignoring the `force-portable` feature (for tests that
    /// cross-check every available backend against the portable one).
    pub fn detected() -> Cpu {
        static DETECTED: OnceLock<Cpu> = OnceLock::new();
        *DETECTED.get_or_init(Self::query)
    }

    #[cfg(target_arch = "x86_64")]
    fn query() -> Cpu {
        Cpu {
            ssse3: std::is_x86_feature_detected!("ssse3"),
            sse41: std::is_x86_feature_detected!("sse4.1"),
            avx2: std::is_x86_feature_detected!("avx2"),
            aes: std::is_x86_feature_detected!("aes"),
            pclmulqdq: std::is_x86_feature_detected!("pclmulqdq"),
            vpclmulqdq: std::is_x86_feature_detected!("vpclmulqdq")
                && std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("pclmulqdq"),
            vaes: std::is_x86_feature_detected!("vaes")
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("aes"),
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn query() -> Cpu {
        Cpu::PORTABLE
    }
}

/// The extensions fast paths may use: [`Cpu::detected`], or [`Cpu::PORTABLE`] under the
/// `force-portable` feature.
pub fn cpu() -> Cpu {
    if cfg!(feature = "force-portable") {
        Cpu::PORTABLE
    } else {
        Cpu::detected()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_is_stable_and_portable_under_the_feature() {
        assert_eq!(Cpu::detected(), Cpu::detected());
        if cfg!(feature = "force-portable") {
            assert_eq!(cpu(), Cpu::PORTABLE);
        } else {
            assert_eq!(cpu(), Cpu::detected());
        }
        // AVX2 and SSE4.1 imply SSSE3 on every x86-64 that has them.
        let c = Cpu::detected();
        assert!(!c.avx2 || c.ssse3);
        assert!(!c.sse41 || c.ssse3);
        assert!(!c.vpclmulqdq || (c.avx2 && c.pclmulqdq));
        assert!(!c.vaes || c.aes);
    }
}
