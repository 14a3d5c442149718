//! Coral's parameter sets (Table 1) and the Figure 2 example, as values describing a composition.
//!
//! A [`ParamSet`] lists RMFE stages and MFE stages, innermost (over GF(2)) first. Each stage names
//! its extension modulus over the previous stage's binary field (GF(2) for the first stage) and the
//! binary field its composite field is converted to (§3.2). [`ParamSet::build`] constructs and
//! validates everything and checks that the RMFE output field and the MFE input field are the same
//! F_{2^m} (§3.1).
//!
//! Polynomial choices (Coral does not print its polynomials apart from Figure 2's toy example; the
//! paper takes binary ones from Hansen–Mullen's tables, §3.2):
//! - small binary fields follow Figure 2 where legible: F_4 = x^2+x+1, F_8 = x^3+x^2+1,
//!   F_64 = x^6+x+1; F_16 = x^4+x+1;
//! - the 42- and 48-bit fields use the first primitive pentanomials in lexicographic order of the
//!   middle exponents, x^42+x^29+x^2+x+1 and x^48+x^28+x^3+x+1 (primitivity is checked in tests);
//! - each extension modulus over a small field is the first irreducible polynomial in the order
//!   "fewest non-zero terms, then lowest positions, then smallest coefficients".

use crate::field::BinaryField;

use super::composite::CompositeField;
use super::concat::{Mfe, Rmfe};
use super::error::EmbedError;
use super::linear_map::Evaluation;
use super::mfe::BasicMfe;
use super::rmfe::BasicRmfe;

/// One RMFE stage: a (k, d)_q-RMFE over the previous stage's field, d = degree of the modulus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RmfeStageSpec {
    /// Packing size of this stage.
    pub k: usize,
    /// Monic extension modulus over the stage's base field, lowest coefficient first.
    pub extension_modulus: &'static [u64],
    /// Low part of the modulus `x^(r·d) + …` of the binary field this stage converts to.
    pub binary_modulus_low: u64,
}

/// One MFE stage: a (2d−1, d)_q-MFE over the previous stage's field, d = degree of the modulus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MfeStageSpec {
    /// Monic extension modulus over the stage's base field, lowest coefficient first.
    pub extension_modulus: &'static [u64],
    /// Low part of the modulus of the binary field this stage converts to.
    pub binary_modulus_low: u64,
}

/// An RMFE/MFE parameter set, e.g. a row group of Coral's Table 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSet {
    /// A short human-readable name.
    pub name: &'static str,
    /// RMFE stages, innermost first.
    pub rmfe: &'static [RmfeStageSpec],
    /// MFE stages, innermost first.
    pub mfe: &'static [MfeStageSpec],
}

/// An RMFE and an MFE that share their field F_{2^m}.
#[derive(Clone, Debug)]
pub struct CoralEmbedding {
    /// The (k, m)_2-RMFE.
    pub rmfe: Rmfe,
    /// The (t, m)_2-MFE on the same field.
    pub mfe: Mfe,
}

impl CoralEmbedding {
    /// Selects the evaluation strategy of all five maps (constant time by default).
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.rmfe.set_evaluation(evaluation);
        self.mfe.set_evaluation(evaluation);
    }
}

const GF4_LOW: u64 = 0b11;
const GF8_LOW: u64 = 0b101;
const GF16_LOW: u64 = 0b0011;
const GF64_LOW: u64 = 0b11;
/// x^42 + x^29 + x^2 + x + 1.
pub const GF2_42_MODULUS_LOW: u64 = (1 << 29) | 0b111;
/// x^48 + x^28 + x^3 + x + 1.
pub const GF2_48_MODULUS_LOW: u64 = (1 << 28) | 0b1011;

/// Y^14 + Y^5 + 1 over F_8.
const GF8_DEGREE_14: [u64; 15] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1];
/// Y^16 + 4Y^3 + 2Y + 1 over F_8.
const GF8_DEGREE_16: [u64; 17] = [1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
/// Y^12 + 3Y^3 + 2Y + 1 over F_16.
const GF16_DEGREE_12: [u64; 13] = [1, 2, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 1];
/// Y^7 + x over F_64.
const GF64_DEGREE_7: [u64; 8] = [2, 0, 0, 0, 0, 0, 0, 1];
/// Y^8 + 2Y^3 + Y + 1 over F_64.
const GF64_DEGREE_8: [u64; 9] = [1, 1, 0, 2, 0, 0, 0, 0, 1];

/// (2, 3)_2-RMFE into F_8.
const RMFE_2_3: RmfeStageSpec =
    RmfeStageSpec { k: 2, extension_modulus: &[1, 0, 1, 1], binary_modulus_low: GF8_LOW };
/// (3, 2)_2-MFE on F_4, then (5, 3)_4-MFE on F_64 = F_4\[Y\]/(Y^3 + x): a (15, 6)_2-MFE.
const MFE_15_6: [MfeStageSpec; 2] = [
    MfeStageSpec { extension_modulus: &[1, 1, 1], binary_modulus_low: GF4_LOW },
    MfeStageSpec { extension_modulus: &[2, 0, 0, 1], binary_modulus_low: GF64_LOW },
];

/// Table 1, Example Param. 1: (14, 42)_2-RMFE = (2, 3)_2 ∘ (7, 14)_8 and
/// (195, 42)_2-MFE = (3, 2)_2 ∘ (5, 3)_4 ∘ (13, 7)_64.
pub const CORAL_SET_1: ParamSet = ParamSet {
    name: "coral-1: (14,42)-RMFE, (195,42)-MFE",
    rmfe: &[
        RMFE_2_3,
        RmfeStageSpec { k: 7, extension_modulus: &GF8_DEGREE_14, binary_modulus_low: GF2_42_MODULUS_LOW },
    ],
    mfe: &[
        MFE_15_6[0],
        MFE_15_6[1],
        MfeStageSpec { extension_modulus: &GF64_DEGREE_7, binary_modulus_low: GF2_42_MODULUS_LOW },
    ],
};

/// (225, 48)_2-MFE = (3, 2)_2 ∘ (5, 3)_4 ∘ (15, 8)_64, shared by Example Param. 2 and 3.
const MFE_225_48: [MfeStageSpec; 3] = [
    MFE_15_6[0],
    MFE_15_6[1],
    MfeStageSpec { extension_modulus: &GF64_DEGREE_8, binary_modulus_low: GF2_48_MODULUS_LOW },
];

/// Table 1, Example Param. 2: (12, 48)_2-RMFE = (2, 4)_2 ∘ (6, 12)_16 and (225, 48)_2-MFE.
pub const CORAL_SET_2: ParamSet = ParamSet {
    name: "coral-2: (12,48)-RMFE, (225,48)-MFE",
    rmfe: &[
        RmfeStageSpec { k: 2, extension_modulus: &[1, 1, 0, 0, 1], binary_modulus_low: GF16_LOW },
        RmfeStageSpec { k: 6, extension_modulus: &GF16_DEGREE_12, binary_modulus_low: GF2_48_MODULUS_LOW },
    ],
    mfe: &MFE_225_48,
};

/// Table 1, Example Param. 3: (16, 48)_2-RMFE = (2, 3)_2 ∘ (8, 16)_8 and (225, 48)_2-MFE.
pub const CORAL_SET_3: ParamSet = ParamSet {
    name: "coral-3: (16,48)-RMFE, (225,48)-MFE",
    rmfe: &[
        RMFE_2_3,
        RmfeStageSpec { k: 8, extension_modulus: &GF8_DEGREE_16, binary_modulus_low: GF2_48_MODULUS_LOW },
    ],
    mfe: &MFE_225_48,
};

/// Figure 2's toy example (insecure, for illustration): (2, 6)_2-RMFE = (2, 3)_2 ∘ (1, 2)_8 and
/// (15, 6)_2-MFE = (3, 2)_2 ∘ (5, 3)_4 on F_64 = x^6 + x + 1. The RMFE's composite modulus is the
/// figure's y^2 + (1 + x^2)·y + x over F_8; the MFE's is our Y^3 + x over F_4 (the figure's is not
/// fully legible in our copy of the paper).
pub const FIGURE_2_EXAMPLE: ParamSet = ParamSet {
    name: "figure-2: (2,6)-RMFE, (15,6)-MFE",
    rmfe: &[RMFE_2_3, RmfeStageSpec { k: 1, extension_modulus: &[2, 5, 1], binary_modulus_low: GF64_LOW }],
    mfe: &MFE_15_6,
};

/// Coral's three Table 1 sets.
pub const CORAL_SETS: [ParamSet; 3] = [CORAL_SET_1, CORAL_SET_2, CORAL_SET_3];

fn binary_field(base: &BinaryField, degree: usize, low: u64) -> Result<BinaryField, EmbedError> {
    let bits = base.m() as usize * degree;
    if bits > 64 {
        return Err(EmbedError::TooWide { what: "binary field", bits });
    }
    Ok(BinaryField::new(bits as u32, low)?)
}

impl ParamSet {
    /// Builds the (concatenated) RMFE.
    ///
    /// # Errors
    /// Any construction error of the stages (see [`EmbedError`]); [`EmbedError::EmptyChain`] if
    /// there is no stage.
    pub fn build_rmfe(&self) -> Result<Rmfe, EmbedError> {
        let mut base = BinaryField::new(1, 0)?;
        let mut rmfe: Option<Rmfe> = None;
        for stage in self.rmfe {
            let extension = CompositeField::new(base, stage.extension_modulus)?;
            let field = binary_field(&base, extension.degree(), stage.binary_modulus_low)?;
            let basic = BasicRmfe::new(stage.k, extension)?;
            rmfe = Some(match rmfe {
                None => Rmfe::basic(basic, field)?,
                Some(inner) => inner.concat(basic, field)?,
            });
            base = field;
        }
        rmfe.ok_or(EmbedError::EmptyChain { what: "RMFE" })
    }

    /// Builds the (concatenated) MFE.
    ///
    /// # Errors
    /// Any construction error of the stages; [`EmbedError::EmptyChain`] if there is no stage.
    pub fn build_mfe(&self) -> Result<Mfe, EmbedError> {
        let mut base = BinaryField::new(1, 0)?;
        let mut mfe: Option<Mfe> = None;
        for stage in self.mfe {
            let extension = CompositeField::new(base, stage.extension_modulus)?;
            let field = binary_field(&base, extension.degree(), stage.binary_modulus_low)?;
            let basic = BasicMfe::new(extension)?;
            mfe = Some(match mfe {
                None => Mfe::basic(basic, field)?,
                Some(inner) => inner.concat(basic, field)?,
            });
            base = field;
        }
        mfe.ok_or(EmbedError::EmptyChain { what: "MFE" })
    }

    /// Builds both and checks that the RMFE output field is the MFE input field (§3.1).
    ///
    /// # Errors
    /// Any construction error; [`EmbedError::FieldMismatch`] if the two fields differ.
    pub fn build(&self) -> Result<CoralEmbedding, EmbedError> {
        let rmfe = self.build_rmfe()?;
        let mfe = self.build_mfe()?;
        if rmfe.field() != mfe.field() {
            return Err(EmbedError::FieldMismatch {
                context: "RMFE output field vs MFE input field",
                expected_bits: rmfe.field().m(),
                expected_low: rmfe.field().modulus_low(),
                found_bits: mfe.field().m(),
                found_low: mfe.field().modulus_low(),
            });
        }
        Ok(CoralEmbedding { rmfe, mfe })
    }
}
