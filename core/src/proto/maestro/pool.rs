//! The pool of preprocessed material an S-box layer consumes in its online phase (one item per
//! S-box), shared by the lookup-table variants (LUT-16, LUT-256).

use super::error::MaestroError;
use std::collections::VecDeque;

/// Preprocessed items, consumed in the order they were produced.
#[derive(Debug)]
pub(super) struct PreprocessedPool<T> {
    items: VecDeque<T>,
}

impl<T> Default for PreprocessedPool<T> {
    fn default() -> Self {
        PreprocessedPool { items: VecDeque::new() }
    }
}

impl<T> PreprocessedPool<T> {
    /// Adds freshly preprocessed items.
    pub(super) fn extend(&mut self, items: impl IntoIterator<Item = T>) {
        self.items.extend(items);
    }

    /// Items not used yet.
    pub(super) fn available(&self) -> usize {
        self.items.len()
    }

    /// Takes the next `needed` items, or fails with [`MaestroError::PreprocessingExhausted`]
    /// without taking any, so a layer can refuse before it communicates.
    pub(super) fn take(&mut self, needed: usize) -> Result<Vec<T>, MaestroError> {
        if self.items.len() < needed {
            return Err(MaestroError::PreprocessingExhausted { needed, available: self.items.len() });
        }
        Ok(self.items.drain(..needed).collect())
    }
}
