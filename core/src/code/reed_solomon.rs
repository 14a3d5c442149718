//! Systematic Reed-Solomon codes over GF(2^8) (paper §2.1) with their Schur squares.

use super::bit_encode::{BitEncoder, PlaneTables};
use super::encoder::Encoder;
use super::error::CodeError;
use super::fft255::{self, Fft255};
use super::matrix::SystematicGenerator;
use crate::field::Gf256;

/// A systematic Reed-Solomon code `C` of length `n` and dimension `k` over GF(2^8).
///
/// Position `j` of a codeword is the value at evaluation point `points()[j]` of a polynomial of
/// degree `< k`; the first `k` positions carry the message. Minimum distance `n - k + 1` (MDS).
#[derive(Clone, Debug)]
pub struct ReedSolomon {
    points: Vec<Gf256>,
    k: usize,
    generator: SystematicGenerator,
    bits: BitEncoder,
    /// Subset tables for [`Self::encode_public_planes`], built on first use.
    planes: std::sync::OnceLock<PlaneTables>,
    /// Present when `points` are GF(2^8)^* in the order of [`fft255::group_point`].
    fft: Option<Box<Fft255>>,
}

impl ReedSolomon {
    /// The code of dimension `k` with the given evaluation points (distinct, at most 256).
    pub fn new(points: Vec<Gf256>, k: usize) -> Result<Self, CodeError> {
        let n = points.len();
        if n == 0 || n > 256 {
            return Err(CodeError::InvalidParameters { reason: "length must be between 1 and 256" });
        }
        if k == 0 || k > n {
            return Err(CodeError::InvalidParameters { reason: "dimension must be between 1 and n" });
        }
        let mut seen = [false; 256];
        for p in &points {
            if std::mem::replace(&mut seen[p.0 as usize], true) {
                return Err(CodeError::InvalidParameters { reason: "evaluation points repeat" });
            }
        }
        let fft_order =
            n == fft255::N && points.iter().enumerate().all(|(j, &p)| p == fft255::group_point(j));
        Ok(Self::build(points, k, fft_order.then(|| Box::new(Fft255::new()))))
    }

    fn build(points: Vec<Gf256>, k: usize, fft: Option<Box<Fft255>>) -> Self {
        let generator = SystematicGenerator::from_points(&points, k);
        let bits = BitEncoder::new(&generator, k, points.len() - k);
        ReedSolomon { points, k, generator, bits, planes: std::sync::OnceLock::new(), fft }
    }

    /// The (256, 120) code of §2.1, evaluated at every element: position `j` ↦ point `Gf256(j)`.
    pub fn rs256_120() -> Self {
        Self::build((0..=255u8).map(Gf256).collect(), 120, None)
    }

    /// The (255, 85) code of §4.2 over GF(2^8)^*, in the FFT position order of
    /// [`fft255::group_point`]; both [`Encoder`]s are available.
    pub fn rs255_85() -> Self {
        let points = (0..fft255::N).map(fft255::group_point).collect();
        Self::build(points, fft255::K, Some(Box::new(Fft255::new())))
    }

    /// The Schur square `C* = span{c1 ∗ c2}`: the same points, dimension `min(2k - 1, n)`.
    ///
    /// A product of codewords of `C` is the evaluation of a product of polynomials of degree
    /// `< k`, hence of degree `≤ 2k - 2`; it lies in `C*`, and its first `k` positions are the
    /// coordinate-wise product of the two messages.
    pub fn schur_square(&self) -> Self {
        let k = (2 * self.k - 1).min(self.n());
        Self::build(self.points.clone(), k, self.fft.clone())
    }

    /// Length `n`.
    pub fn n(&self) -> usize {
        self.points.len()
    }

    /// Dimension `k`.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Minimum distance `n - k + 1` (Reed-Solomon codes are MDS).
    pub fn min_distance(&self) -> usize {
        self.n() - self.k + 1
    }

    /// `-log2` of the probability of forging a MAC on a codeword of this code, `8·d`
    /// (§2.1: a forger must change at least `d` positions and guess the key there, `256^{-d}`).
    pub fn mac_forgery_bits(&self) -> usize {
        8 * self.min_distance()
    }

    /// The evaluation points, position by position.
    pub fn points(&self) -> &[Gf256] {
        &self.points
    }

    /// Whether the FFT encoder is available for this code.
    pub fn has_fft_encoder(&self) -> bool {
        self.fft.is_some() && self.k == fft255::K
    }

    /// The systematic generator row `i` (the codeword of the `i`-th unit message).
    pub fn generator_row(&self, i: usize) -> Result<Vec<Gf256>, CodeError> {
        if i >= self.k {
            return Err(CodeError::InvalidParameters { reason: "generator row index must be below k" });
        }
        let mut row = vec![Gf256(0); self.n()];
        row[i] = Gf256(1);
        row[self.k..].copy_from_slice(self.generator.parity_row(i));
        Ok(row)
    }

    fn check_len(what: &'static str, expected: usize, actual: usize) -> Result<(), CodeError> {
        if expected == actual {
            Ok(())
        } else {
            Err(CodeError::WrongLength { what, expected, actual })
        }
    }

    /// The codeword of `message` (length `k`), by the platform's fastest encoder for this code.
    pub fn encode(&self, message: &[Gf256]) -> Result<Vec<Gf256>, CodeError> {
        let mut out = vec![Gf256(0); self.n()];
        self.encode_into(message, &mut out)?;
        Ok(out)
    }

    /// Writes the codeword of `message` into `out` (length `n`) by the platform's fastest encoder.
    pub fn encode_into(&self, message: &[Gf256], out: &mut [Gf256]) -> Result<(), CodeError> {
        let encoder = if self.has_fft_encoder() { Encoder::fastest_for_platform() } else { Encoder::Matrix };
        self.encode_with(encoder, message, out)
    }

    /// Writes the codeword of `message` into `out` with the chosen encoder.
    pub fn encode_with(
        &self,
        encoder: Encoder,
        message: &[Gf256],
        out: &mut [Gf256],
    ) -> Result<(), CodeError> {
        Self::check_len("message", self.k, message.len())?;
        Self::check_len("output", self.n(), out.len())?;
        match (encoder, &self.fft) {
            (Encoder::Matrix, _) => self.generator.encode_into(message, out),
            (Encoder::Fft, Some(fft)) if self.k == fft255::K => fft.encode_into(message, out),
            (Encoder::Fft, _) => {
                return Err(CodeError::EncoderUnavailable { encoder: encoder.name(), n: self.n(), k: self.k })
            }
        }
        Ok(())
    }

    /// `Ok(())` if `word` is a codeword, else [`CodeError::NotACodeword`] naming the first
    /// redundancy position that disagrees with the re-encoding of the first `k` symbols (so a
    /// single corrupted symbol at `p ≥ k` is reported at `p`; one at `p < k` changes every
    /// redundancy symbol and is reported at `k`).
    ///
    /// Uses the FFT degree test (§4.2) where available and falls back to the matrix re-encoding
    /// (§2.1) only to locate the position of a rejected word.
    pub fn check(&self, word: &[Gf256]) -> Result<(), CodeError> {
        let encoder = if self.fft.is_some() { Encoder::fastest_for_platform() } else { Encoder::Matrix };
        self.check_with(encoder, word)
    }

    /// [`Self::check`] with a chosen algorithm for the accept path.
    pub fn check_with(&self, encoder: Encoder, word: &[Gf256]) -> Result<(), CodeError> {
        Self::check_len("codeword", self.n(), word.len())?;
        let accepted = match (encoder, &self.fft) {
            (Encoder::Fft, Some(fft)) => fft.is_member(word, self.k),
            (Encoder::Fft, None) => {
                return Err(CodeError::EncoderUnavailable { encoder: encoder.name(), n: self.n(), k: self.k })
            }
            (Encoder::Matrix, _) => self.generator.first_mismatch(word).is_none(),
        };
        if accepted {
            return Ok(());
        }
        let position = self.generator.first_mismatch(word).unwrap_or(self.k);
        Err(CodeError::NotACodeword { position })
    }

    /// The message (first `k` symbols) of `word` after checking that it is a codeword.
    ///
    /// For a Schur square `C*` of dimension `2k - 1` this returns all `2k - 1` systematic symbols;
    /// the first `k` of them are what §4.3 calls `C*^{-1}`, the product of the two `C` messages.
    pub fn decode(&self, word: &[Gf256]) -> Result<Vec<Gf256>, CodeError> {
        self.check(word)?;
        Ok(word[..self.k].to_vec())
    }

    /// `C(u) ∗ word` for a public vector `u` (length `k`) and a word of this code (length `n`):
    /// the codeword of `u ∗ x` in the Schur square when `word = C(x)` (§2, multiplication by a
    /// public constant; apply it to each share, MAC and key alike).
    pub fn multiply_by_public(&self, word: &[Gf256], public: &[Gf256]) -> Result<Vec<Gf256>, CodeError> {
        Self::check_len("codeword", self.n(), word.len())?;
        let encoded = self.encode(public)?;
        super::schur_product(word, &encoded)
    }

    /// The codeword of a vector with entries 0 or 1 (length `k`) by XOR of generator rows (§4.5).
    pub fn encode_bits(&self, bits: &[Gf256]) -> Result<Vec<Gf256>, CodeError> {
        Self::check_len("bit vector", self.k, bits.len())?;
        if let Some(position) = bits.iter().position(|b| b.0 > 1) {
            return Err(CodeError::NotABit { position, value: bits[position].0 });
        }
        let mut out = vec![Gf256(0); self.n()];
        out[..self.k].copy_from_slice(bits);
        self.bits.redundancy_into(bits.iter().map(|b| b.0), &mut out[self.k..]);
        Ok(out)
    }

    /// The codeword of bit plane `bit` of `message`, i.e. of the 0/1 vector `(m_j >> bit) & 1`
    /// (the `C(C*^{-1}(δ)↓i)` of §4.3), by XOR of generator rows (§4.5).
    pub fn encode_bit_plane(&self, message: &[Gf256], bit: u32) -> Result<Vec<Gf256>, CodeError> {
        Self::check_len("message", self.k, message.len())?;
        if bit >= 8 {
            return Err(CodeError::InvalidParameters { reason: "bit plane index must be below 8" });
        }
        let mut out = vec![Gf256(0); self.n()];
        for (o, m) in out.iter_mut().zip(message) {
            *o = Gf256((m.0 >> bit) & 1);
        }
        self.bits.redundancy_into(message.iter().map(|m| (m.0 >> bit) & 1), &mut out[self.k..]);
        Ok(out)
    }

    /// The codewords of the eight bit planes of a **public** `message` (length `k`): plane `i`,
    /// the 0/1 vector `(m_j >> i) & 1` (the `C(C*^{-1}(δ)↓i)` of §4.3), is written to
    /// `out[i·n .. (i+1)·n]` (`out` has `8·n` symbols).
    ///
    /// Same result as eight calls of [`Self::encode_bit_plane`], by table lookups on groups of four
    /// message bits (§4.5's XOR of generator rows, four rows per lookup). **Variable time** in the
    /// message: use it for opened values only, never for secrets.
    pub fn encode_public_planes(&self, message: &[Gf256], out: &mut [Gf256]) -> Result<(), CodeError> {
        Self::check_len("message", self.k, message.len())?;
        Self::check_len("output", 8 * self.n(), out.len())?;
        let tables = self.planes.get_or_init(|| PlaneTables::new(&self.bits, self.k));
        tables.planes_into(Gf256::as_bytes(message), Gf256::as_bytes_mut(out));
        Ok(())
    }

    /// The codeword of a **public** `message` (length `k`) written to `out` (length `n`), as
    /// `Σ_i x^i · C(message↓i)` from [`Self::encode_public_planes`]; `scratch` holds `8·n` symbols.
    /// Variable time in the message, like that function.
    pub fn encode_public_into(
        &self,
        message: &[Gf256],
        out: &mut [Gf256],
        scratch: &mut [Gf256],
    ) -> Result<(), CodeError> {
        Self::check_len("output", self.n(), out.len())?;
        self.encode_public_planes(message, scratch)?;
        out.fill(Gf256(0));
        for (i, plane) in scratch.chunks_exact(self.n()).enumerate() {
            Gf256::mul_add_scalar_slice(out, plane, Gf256(1 << i));
        }
        Ok(())
    }
}
