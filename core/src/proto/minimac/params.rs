//! The two codes of the paper (§2.1, §4.2) with their Schur squares, and the run options.

use crate::code::ReedSolomon;
use std::sync::OnceLock;

/// Which Reed-Solomon code MiniMac runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeChoice {
    /// The (255, 85) code over GF(2^8)^* with FFT encoding (§4.2): 680 instances per batch,
    /// `d* = 87`.
    Rs255_85,
    /// The (256, 120) code with matrix encoding (§2.1): 960 instances per batch, `d* = 18`.
    Rs256_120,
}

impl CodeChoice {
    /// The default code: (256, 120), which gives more AES per second than (255, 85) in
    /// `chorus-bench-minimac` on x86-64 (its 960 instances per batch outweigh the FFT, which
    /// MiniMac's online phase barely uses: opened values are encoded bit plane by bit plane, and
    /// membership is checked once per batch, see the module docs of [`super`]).
    pub const DEFAULT: CodeChoice = CodeChoice::Rs256_120;

    /// Both codes.
    pub const ALL: [CodeChoice; 2] = [CodeChoice::Rs256_120, CodeChoice::Rs255_85];

    /// A short name for messages and benchmark labels.
    pub const fn name(self) -> &'static str {
        match self {
            CodeChoice::Rs255_85 => "rs255-85-fft",
            CodeChoice::Rs256_120 => "rs256-120-matrix",
        }
    }

    /// The code called `name` (see [`Self::name`]).
    pub fn from_name(name: &str) -> Option<CodeChoice> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The code pair `(C, C*)`, built once per process.
    pub fn code(self) -> &'static MiniMacCode {
        static CODES: [OnceLock<MiniMacCode>; 2] = [OnceLock::new(), OnceLock::new()];
        let (slot, build): (usize, fn() -> ReedSolomon) = match self {
            CodeChoice::Rs255_85 => (0, ReedSolomon::rs255_85),
            CodeChoice::Rs256_120 => (1, ReedSolomon::rs256_120),
        };
        CODES[slot].get_or_init(|| {
            let c = build();
            let star = c.schur_square();
            MiniMacCode { choice: self, c, star }
        })
    }
}

/// A code `C` and its Schur square `C*` (§2: `C*` = span of coordinate-wise products).
#[derive(Debug)]
pub struct MiniMacCode {
    choice: CodeChoice,
    /// `C`: the code of input values and of the bit-decomposed triple parts.
    pub c: ReedSolomon,
    /// `C*`: the code every product lives in (§4.3 keeps all values there).
    pub star: ReedSolomon,
}

impl MiniMacCode {
    /// Which code this is.
    pub fn choice(&self) -> CodeChoice {
        self.choice
    }

    /// Codeword length `n`.
    pub fn n(&self) -> usize {
        self.c.n()
    }

    /// Dimension `k` of `C` (the data positions of every codeword, in `C` and `C*`).
    pub fn k(&self) -> usize {
        self.c.k()
    }

    /// Instances per batch with the bit-packing trick (§4.3): `8·k`.
    pub fn instances(&self) -> usize {
        8 * self.k()
    }

    /// `-log2` of the probability that a cheating party passes one batched check:
    /// `min(8·ρ, 8·d*) - 1` for `ρ` = [`COMBINATIONS`] (see the module docs of [`super`]).
    pub fn security_bits(&self) -> usize {
        (8 * COMBINATIONS).min(8 * self.star.min_distance()) - 1
    }
}

/// Number `ρ` of independent random linear combinations in each batched check: a deviation
/// survives all of them with probability at most `256^-ρ + 256^-d*`.
pub const COMBINATIONS: usize = 17;

/// Switches of the paper's optimisations that can be turned off at run time.
///
/// The bit-packing trick (§4.3) and zero-degree constants (§4.5: products stay in `C*`, constants
/// are constant codewords) are the protocol itself here and have no switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Options {
    /// Simultaneous multiplications (§4.4): all AND gates of one AND layer in one round. When
    /// off, every AND gate gets its own round (the streaming evaluation of §4.3).
    pub simultaneous: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { simultaneous: true }
    }
}
