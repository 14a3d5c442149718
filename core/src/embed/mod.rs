//! Reverse multiplication-friendly embeddings (RMFE) and multiplication-friendly embeddings (MFE)
//! as Coral uses them (placeholder docs, expanded below).

mod composite;
mod concat;
mod conversion;
mod error;
mod linear_map;
mod mfe;
mod params;
mod poly;
mod rmfe;
#[cfg(test)]
mod tests;

pub use composite::CompositeField;
pub use concat::{Mfe, Rmfe};
pub use conversion::FieldIsomorphism;
pub use error::EmbedError;
pub use linear_map::{Evaluation, LinearMap};
pub use mfe::BasicMfe;
pub use params::{
    CoralEmbedding, MfeStageSpec, ParamSet, RmfeStageSpec, CORAL_SETS, CORAL_SET_1, CORAL_SET_2, CORAL_SET_3,
    FIGURE_2_EXAMPLE, GF2_42_MODULUS_LOW, GF2_48_MODULUS_LOW,
};
pub use rmfe::BasicRmfe;
