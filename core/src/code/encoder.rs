//! Choice between the two encoders of the (255, 85) code.

/// Which algorithm computes the redundancy of a codeword.
///
/// Both produce identical codewords (cross-checked in tests); the generator-matrix encoder exists
/// for every code, the FFT encoder only for the (255, 85) code of [`super::ReedSolomon::rs255_85`]
/// (and FFT membership for it and its Schur square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoder {
    /// Row-combination with the systematic generator matrix (paper §2.1): `k·(n-k)` products
    /// through [`crate::field::Gf256::mul_add_scalar_slice`].
    Matrix,
    /// Prime-factor FFT over GF(2^8)^* (paper §4.2): 4824 products for (255, 85).
    Fft,
}

impl Encoder {
    /// The encoder to use for the (255, 85) code on this platform.
    ///
    /// Measured with `cargo bench -p chorus-core --bench code` (criterion medians, one core of the
    /// project's x86-64 build machine, portable bulk field operations): see the table in the
    /// [`super`] module docs. The FFT needs about a third of the products and is the faster one
    /// there. wasm32 is not benchmarked by criterion; the FFT's advantage there rests on the same
    /// product count with the same scalar table lookups, so it is chosen as well. Re-measure when
    /// the SIMD bulk operations land: they speed up only the matrix encoder.
    pub const fn fastest_for_platform() -> Self {
        Encoder::Fft
    }

    /// A short name for messages and benchmark labels.
    pub const fn name(self) -> &'static str {
        match self {
            Encoder::Matrix => "matrix",
            Encoder::Fft => "fft",
        }
    }
}
