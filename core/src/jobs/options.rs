//! The options of the jobs' protocols that specs and front ends name: MAESTRO's S-box variant and
//! direction, TinyTable's AES path and MAC width (with [`Security`], [`Preprocessing`] and
//! MiniMac's [`CodeChoice`](crate::proto::minimac::CodeChoice) beside them). They live here, below
//! both the job specs and the protocol runners, so that neither imports the other for a type: the
//! specs ([`crate::jobs::AesSpec`]) hold them, the runners read them, and the dispatch sits above
//! both ([`crate::jobs::run_aes`]).
//!
//! [`Preprocessing`]: crate::jobs::Preprocessing

use super::security::Security;
pub use crate::aes::Direction;

/// The S-box variant of the SDK's default AES job: LUT-16 (Table 1: 2560 online bits in 20
/// rounds per block, 11 preprocessing bits and, malicious, 3 verified triples per S-box). The
/// (3,3) LUT-256 needs fewer online rounds (11, Protocol 7) for the same bits, at twice the
/// preprocessing bits (22) and verified triples (6) per S-box; the circuits need 30 and 40.
pub const DEFAULT_VARIANT: SboxVariant = SboxVariant::Lut16;

/// The security level of the SDK's default AES job: malicious with abort, so that a deviating
/// party makes the job fail instead of changing or learning the output.
pub const DEFAULT_SECURITY: Security = Security::Malicious;

/// The MAESTRO S-box evaluation a job uses (Table 1's rows); [`DEFAULT_VARIANT`] by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum SboxVariant {
    /// GF(2^8)-circuit (\[21\], three rounds per S-box layer, no preprocessing).
    Gf256Circuit,
    /// GF(2^4)-circuit (§5, four rounds per S-box layer, no preprocessing).
    Gf16Circuit,
    /// GF(2^4)-LUT-16 (Protocols 3, 4, 8; preprocessing of one length-16 one-hot vector per S-box).
    #[default]
    Lut16,
    /// (2,3) LUT-256 (Protocols 4, 5; preprocessing of one length-256 one-hot vector per S-box);
    /// malicious, Protocol 5's bit products are checked by Protocol 2 (see
    /// [`MaliciousLut256Sbox`](crate::proto::maestro::malicious::MaliciousLut256Sbox)).
    Lut256,
    /// (3,3) LUT-256 (§3.5, Protocols 6/7; two length-16 one-hot vectors per S-box): additive
    /// shares between rounds and one resharing of the last layer's output, 2560 bits in 11
    /// online rounds per block at both security levels; malicious, Protocol 7 recovers each
    /// layer's replicated output from the next layer and checks every S-box by VerifySbox (see
    /// [`MaliciousAdditiveLut256Sbox`](crate::proto::maestro::malicious::MaliciousAdditiveLut256Sbox)).
    Lut256Additive,
}

impl SboxVariant {
    /// Every variant, in Table 1's order.
    pub const ALL: [SboxVariant; 5] = [
        SboxVariant::Gf256Circuit,
        SboxVariant::Gf16Circuit,
        SboxVariant::Lut16,
        SboxVariant::Lut256,
        SboxVariant::Lut256Additive,
    ];

    /// The variant's name on command lines and in benchmark output (`gf256-circuit`,
    /// `gf16-circuit`, `lut16`, `lut256`, `lut256-33`).
    pub fn name(self) -> &'static str {
        match self {
            SboxVariant::Gf256Circuit => "gf256-circuit",
            SboxVariant::Gf16Circuit => "gf16-circuit",
            SboxVariant::Lut16 => "lut16",
            SboxVariant::Lut256 => "lut256",
            SboxVariant::Lut256Additive => "lut256-33",
        }
    }

    /// The variant called `name` (see [`SboxVariant::name`]), if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }

    /// Whether the variant needs input-independent preprocessing before the online phase.
    pub fn preprocesses(self) -> bool {
        matches!(self, SboxVariant::Lut16 | SboxVariant::Lut256 | SboxVariant::Lut256Additive)
    }

    /// The variant's byte in the MAESTRO job's spec encoding.
    pub(crate) fn code(self) -> u8 {
        match self {
            SboxVariant::Gf256Circuit => 0,
            SboxVariant::Gf16Circuit => 1,
            SboxVariant::Lut16 => 2,
            SboxVariant::Lut256 => 3,
            SboxVariant::Lut256Additive => 4,
        }
    }
}

/// How the S-box is evaluated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum AesPath {
    /// 256-entry S-box tables (§2.3): one key owner (see the module docs).
    SboxTables,
    /// The boolean AES-128 circuit with AND tables (Fig. 7).
    #[default]
    BinaryCircuit,
}

impl AesPath {
    /// `sbox-tables` or `circuit` (the SDK's names).
    pub fn name(self) -> &'static str {
        match self {
            AesPath::SboxTables => "sbox-tables",
            AesPath::BinaryCircuit => "circuit",
        }
    }

    /// The path called `name` (see [`Self::name`]).
    pub fn from_name(name: &str) -> Option<AesPath> {
        [AesPath::SboxTables, AesPath::BinaryCircuit].into_iter().find(|p| p.name() == name)
    }
}

/// Width `k` of the authentication strings of malicious binary-circuit TinyTable (Fig. 3/5): a
/// cheater escapes detection with probability `2^-k`; `k = 32` halves the material.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum MacBits {
    /// k = 64 (`u64` strings).
    #[default]
    K64,
    /// k = 32 (`u32` strings).
    K32,
}

impl MacBits {
    /// 64 or 32.
    pub fn bits(self) -> u32 {
        match self {
            MacBits::K64 => 64,
            MacBits::K32 => 32,
        }
    }

    /// The width of `bits` bits (64 or 32).
    pub fn from_bits(bits: u32) -> Option<MacBits> {
        [MacBits::K64, MacBits::K32].into_iter().find(|m| m.bits() == bits)
    }
}
