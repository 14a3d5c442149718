//! Reverse multiplication-friendly embeddings (RMFE) and multiplication-friendly embeddings (MFE)
//! as Coral uses them (placeholder docs, expanded below).

mod composite;
mod conversion;
mod error;
mod linear_map;
mod mfe;
mod poly;
mod rmfe;

pub use composite::CompositeField;
pub use conversion::FieldIsomorphism;
pub use error::EmbedError;
pub use linear_map::{Evaluation, LinearMap};
pub use mfe::BasicMfe;
pub use rmfe::BasicRmfe;
