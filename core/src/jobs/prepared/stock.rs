//! The two shapes of prepared material ([`super`]): per instance (TinyTable) and per unit
//! (MiniMac codeword batches, Coral pack runs, or a dealer's record of the units it dealt).

use crate::jobs::tinytable::ot_prep::Material;
use crate::jobs::JobError;
use crate::proto::coral::CoralMaterial;
use crate::proto::minimac::PartyPrep;
use std::collections::VecDeque;

/// One preparation's material.
pub(crate) enum Stock {
    /// TinyTable's: a job takes any number of instances; `bytes_per_instance` estimates its size.
    Instances { material: Box<Material>, bytes_per_instance: usize },
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
    /// Instances the stock still serves.
    pub(crate) fn instances(&self) -> usize {
        match self {
            Stock::Instances { material, .. } => material.instances(),
            Stock::Units(units) => units.iter().map(|u| u.lanes).sum(),
        }
    }

    /// The estimated bytes of its material.
    pub(crate) fn bytes(&self) -> usize {
        match self {
            Stock::Instances { material, bytes_per_instance } => material.instances() * bytes_per_instance,
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
            Stock::Instances { material, .. } => (material.instances() >= needs).then_some(needs),
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
    pub(crate) fn take(&mut self, take: usize) -> Result<Stock, JobError> {
        match self {
            Stock::Instances { material, bytes_per_instance } => Ok(Stock::Instances {
                material: Box::new(material.take(take)?),
                bytes_per_instance: *bytes_per_instance,
            }),
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
