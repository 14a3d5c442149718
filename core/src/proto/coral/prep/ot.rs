//! The place of Coral's two-party OT-based preprocessing: TinyOT triples from the KOS15 / TinyOT
//! engine of `crate::ot` and §4.3.3's vectorised MFE-based COPE for input authentication, feeding
//! Π_rQuintuple ([`super::quintuple`], implemented). **Not implemented**: [`OtProvider`] returns
//! [`CoralError::NotAvailable`] so that a caller selecting it fails with a typed error instead of
//! running with missing material.

use crate::net::Network;
use crate::proto::coral::error::CoralError;

use super::{CoralMaterial, Demand, Preprocessing};

/// The OT-based provider (not available yet, see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct OtProvider;

/// The reason [`OtProvider`] gives.
pub const OT_PROVIDER_MISSING: &str =
    "Coral's OT-based preprocessing (Fig. 7 quintuples, §4.3.3 MFE input authentication) is not implemented; use the trusted dealer";

impl Preprocessing for OtProvider {
    fn name(&self) -> &'static str {
        "ot"
    }

    async fn material<N: Network>(
        &mut self,
        _net: &mut N,
        _demand: &Demand,
    ) -> Result<CoralMaterial, CoralError> {
        Err(CoralError::NotAvailable(OT_PROVIDER_MISSING))
    }
}
