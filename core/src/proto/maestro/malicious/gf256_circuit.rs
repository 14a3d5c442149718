//! GF(2^8)-circuit \[21\] + Protocol 2 (MAESTRO Table 5, "GF(2^8)-Circuit (\[21\] + Protocol 2)"):
//! the semi-honest x²⁵⁴ circuit ([`crate::proto::maestro::gf256_circuit`]) with its four
//! products per S-box recorded as GF(2^8) triples, lifted with Table 2's ψ at verification.
//!
//! Online cost is the semi-honest one (32 bits, 3 rounds per S-box); the verification adds
//! O(log N) rounds for N = 4 × (number of S-boxes) triples ([`crate::proto::maestro::verify`]).

use super::{MaliciousSboxLayer, MaliciousSession};
use crate::net::Network;
use crate::proto::maestro::error::MaestroError;
use crate::proto::maestro::gf256_circuit::inverse_observed;
use crate::proto::maestro::online::Party;
use crate::proto::maestro::rss::RssShare;

/// The maliciously secure GF(2^8)-circuit S-box layer.
#[derive(Debug)]
pub struct MaliciousGf256CircuitSbox {
    session: MaliciousSession,
}

impl MaliciousGf256CircuitSbox {
    /// Wraps a party (after its PRSS setup).
    pub fn new(party: Party) -> Self {
        MaliciousGf256CircuitSbox { session: MaliciousSession::new(party) }
    }
}

impl MaliciousSboxLayer for MaliciousGf256CircuitSbox {
    fn session(&mut self) -> &mut MaliciousSession {
        &mut self.session
    }
}

impl MaliciousGf256CircuitSbox {
    /// x⁻¹ for every x, its four products per byte recorded in the log.
    async fn invert<N: Network>(
        &mut self,
        net: &mut N,
        mut x: Vec<RssShare>,
    ) -> Result<Vec<RssShare>, MaestroError> {
        self.session.deviate_input(&mut x);
        let MaliciousSession { party, log, .. } = &mut self.session;
        inverse_observed(party, net, &x, &mut |a, b, z| log.record_gf256_packed(a, b, z)).await
    }
}

inversion_sbox_layer!(MaliciousGf256CircuitSbox);
