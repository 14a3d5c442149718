//! The two shapes of prepared material ([`super`]): per instance (TinyTable) and per unit
//! (MiniMac codeword batches, Coral pack runs, or a dealer's record of the units it dealt).

use crate::jobs::tinytable::ot_prep::Material;
use crate::jobs::JobError;
use crate::proto::coral::CoralMaterial;
use crate::proto::minimac::PartyPrep;
use std::collections::VecDeque;

/// One preparation's material.
pub(crate) enum Stock {
    /// TinyTable's: a job takes any number of instances. `material` is one batch of which the
    /// first `taken` instances were handed out already; `bytes_per_instance` estimates the size
    /// of one (see [`Stock::take`]). Built by [`Stock::per_instance`].
    Instances { material: Box<Material>, taken: usize, bytes_per_instance: usize },
    /// A SIMD protocol's: a job takes whole units from the front.
    Units(VecDeque<Unit>),
}

/// Material evaluated once for up to `lanes` instances.
pub(crate) struct Unit {
    /// Instances the unit serves.
    pub lanes: usize,
    /// The estimated bytes of its material.
    pub bytes: usize,
    /// Its material.
    pub material: UnitMaterial,
}

/// A unit's material.
pub(crate) enum UnitMaterial {
    /// A MiniMac batch.
    MiniMac(Box<PartyPrep>),
    /// Coral packs.
    Coral(Box<CoralMaterial>),
    /// The dealer's record of a unit it dealt: it holds no material, only takes part in plans.
    Dealt,
}

impl Stock {
    /// TinyTable's stock of `material`, each instance about `bytes_per_instance` bytes as held.
    pub(crate) fn per_instance(material: Material, bytes_per_instance: usize) -> Stock {
        Stock::Instances { material: Box::new(material), taken: 0, bytes_per_instance }
    }

    /// Instances the stock still serves.
    pub(crate) fn instances(&self) -> usize {
        match self {
            Stock::Instances { material, taken, .. } => material.instances() - taken,
            Stock::Units(units) => units.iter().map(|u| u.lanes).sum(),
        }
    }

    /// The estimated bytes of its material as held: per instance, the instances handed out but
    /// not yet compacted away count too (see [`Stock::take`]).
    pub(crate) fn bytes(&self) -> usize {
        match self {
            Stock::Instances { material, bytes_per_instance, .. } => {
                material.instances() * bytes_per_instance
            }
            Stock::Units(units) => units.iter().map(|u| u.bytes).sum(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.instances() == 0
    }

    /// How much of the stock a job of `needs` instances takes (instances, or units from the
    /// front), if the stock covers it.
    pub(crate) fn covering(&self, needs: usize) -> Option<usize> {
        match self {
            Stock::Instances { .. } => (self.instances() >= needs).then_some(needs),
            Stock::Units(units) => {
                let mut lanes = 0;
                for (count, unit) in units.iter().enumerate() {
                    lanes += unit.lanes;
                    if lanes >= needs {
                        return Some(count + 1);
                    }
                }
                None
            }
        }
    }

    /// Removes `take` instances or units from the front.
    ///
    /// Instances are copied out of the batch as a range, at the cost of the range alone; the
    /// batch keeps the instances handed out until they are more than half of it, and then
    /// compacts to the rest (each compaction copies less than half of what the one before left,
    /// so all of them copy fewer instances than the batch first held). A batch held for jobs of
    /// one instance each thus costs every job about its own instance, not a copy of the rest (as
    /// splitting off the front did). A job that takes all of
    /// a batch of which nothing was handed out moves it; a batch handed out entirely is freed.
    pub(crate) fn take(&mut self, take: usize) -> Result<Stock, JobError> {
        match self {
            Stock::Instances { material, taken, bytes_per_instance } => {
                let (held, left) = (material.instances(), material.instances() - *taken);
                if take == 0 || take > left {
                    return Err(JobError::Internal("took more prepared instances than there are"));
                }
                if *taken == 0 && take == held {
                    return Ok(Stock::per_instance(material.take_all(), *bytes_per_instance));
                }
                let part = material.range(*taken, take)?;
                *taken += take;
                if *taken == held {
                    drop(material.take_all());
                    *taken = 0;
                } else if 2 * *taken > held {
                    **material = material.range(*taken, held - *taken)?;
                    *taken = 0;
                }
                Ok(Stock::per_instance(part, *bytes_per_instance))
            }
            Stock::Units(units) => {
                if take == 0 || take > units.len() {
                    return Err(JobError::Internal("took more prepared units than there are"));
                }
                Ok(Stock::Units(units.drain(..take).collect()))
            }
        }
    }

    /// The per-instance material, for a job of the per-instance kind.
    pub(crate) fn into_material(self) -> Result<Material, JobError> {
        match self {
            Stock::Instances { material, .. } => Ok(*material),
            Stock::Units(_) => Err(JobError::Internal("prepared material of another kind")),
        }
    }

    /// The units, for a job of a unit kind.
    pub(crate) fn into_units(self) -> Result<VecDeque<Unit>, JobError> {
        match self {
            Stock::Units(units) => Ok(units),
            Stock::Instances { .. } => Err(JobError::Internal("prepared material of another kind")),
        }
    }
}
