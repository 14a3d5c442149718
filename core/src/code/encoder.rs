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
    /// The encoder to use for the (255, 85) code on this platform: the FFT everywhere.
    ///
    /// The FFT needs a third of the products (4824 against 14450) and was the faster one in
    /// `cargo bench -p chorus-core --bench code` with and without the `force-portable` feature
    /// (the code path wasm32 runs; figures in `docs/performance.md`). This is a build-time choice,
    /// not a run-time race;
    /// re-measure when the SIMD bulk operations land, because they speed up the matrix encoder
    /// (and only the twist of the FFT).
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
