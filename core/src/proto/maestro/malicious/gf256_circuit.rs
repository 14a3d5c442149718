//! GF(2^8)-circuit \[21\] + Protocol 2 (MAESTRO Table 5, "GF(2^8)-Circuit (\[21\] + Protocol 2)"):
//! the semi-honest x²⁵⁴ circuit ([`crate::proto::maestro::sbox::gf256_circuit`]) with its four
//! products per S-box recorded for verification, lifted with Table 2's ψ at verification.
//!
//! The two products of round 2 share the factor x¹² (x¹⁴ = x¹²·x² and x¹⁵ = x¹²·x³), so they
//! are checked as one GF(2^64) triple ψ(x¹²)·(ψ(x²) + Aψ(x³)) = ψ(x¹⁴) + Aψ(x¹⁵), as §3.2's
//! Eq. (3) merges the tower-field products
//! ([`crate::proto::maestro::verify::TripleLog::record_gf256_shared_packed`]); x³ = x²·x and
//! x²⁵⁴ = x²⁴⁰·x¹⁴ are one triple each: 3 triples per S-box instead of 4.
//!
//! Online cost is the semi-honest one (32 bits, 3 rounds per S-box); the verification adds
//! O(log N) rounds for N = 3 × (number of S-boxes) triples ([`crate::proto::maestro::verify`]).

use super::{MaliciousSboxLayer, MaliciousSession};
use crate::net::Network;
use crate::proto::maestro::error::MaestroError;
use crate::proto::maestro::online::Party;
use crate::proto::maestro::rss::RssShare;
use crate::proto::maestro::sbox::gf256_circuit::inverse_observed;

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
    /// x⁻¹ for every x, its four products per byte recorded in the log as three triples.
    async fn invert<N: Network>(
        &mut self,
        net: &mut N,
        mut x: Vec<RssShare>,
    ) -> Result<Vec<RssShare>, MaestroError> {
        self.session.deviate_input(&mut x);
        let MaliciousSession { party, log, .. } = &mut self.session;
        // The circuit's batches in order: x²·x, [x¹², x¹²]·[x², x³], x²⁴⁰·x¹⁴.
        let mut batch = 0;
        inverse_observed(party, net, &x, &mut |a, b, z| {
            if batch == 1 {
                log.record_gf256_shared_packed(a, b, z);
            } else {
                log.record_gf256_packed(a, b, z);
            }
            batch += 1;
        })
        .await
    }
}

inversion_sbox_layer!(MaliciousGf256CircuitSbox);
