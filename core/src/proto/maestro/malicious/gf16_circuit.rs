//! GF(2^4)-circuit + Protocol 2 with the single check of Eq. (3) (MAESTRO §3.2 "Reducing the
//! number of multiplication checks", §5, Table 5 "GF(2^4)-Circuit + Protocol 2").
//!
//! The semi-honest circuit ([`crate::proto::maestro::sbox::gf16_circuit`]) multiplies five times per
//! S-box: a_h·a_l, v²·v⁴, v⁶·v⁸, a_h·v⁻¹ and (a_h + a_l)·v⁻¹. The first and the last two are
//! checked together as one Eq. (3) triple over K = (GF(2^4))^4; v⁶ and v⁻¹ = v¹⁴ as two GF(2^4)
//! triples: 3 GF(2^64) triples per S-box instead of 5.

use super::{MaliciousSboxLayer, MaliciousSession};
use crate::net::Network;
use crate::proto::maestro::error::MaestroError;
use crate::proto::maestro::online::Party;
use crate::proto::maestro::packed::Packed16;
use crate::proto::maestro::rss::RssShare;
use crate::proto::maestro::sbox::gf16_circuit::inverse_observed;

/// The maliciously secure GF(2^4)-circuit S-box layer.
#[derive(Debug)]
pub struct MaliciousGf16CircuitSbox {
    session: MaliciousSession,
}

impl MaliciousGf16CircuitSbox {
    /// Wraps a party (after its PRSS setup).
    pub fn new(party: Party) -> Self {
        MaliciousGf16CircuitSbox { session: MaliciousSession::new(party) }
    }
}

impl MaliciousSboxLayer for MaliciousGf16CircuitSbox {
    fn session(&mut self) -> &mut MaliciousSession {
        &mut self.session
    }
}

/// One observed batched multiplication: (a, b, a·b).
type Observed = (Packed16, Packed16, Packed16);

impl MaliciousGf16CircuitSbox {
    /// x⁻¹ for every x, its products recorded in the log as three triples per byte.
    async fn invert<N: Network>(
        &mut self,
        net: &mut N,
        mut x: Vec<RssShare>,
    ) -> Result<Vec<RssShare>, MaestroError> {
        self.session.deviate_input(&mut x);
        let mut calls: Vec<Observed> = Vec::with_capacity(4);
        let MaliciousSession { party, log, .. } = &mut self.session;
        let inverses = inverse_observed(party, net, &x, &mut |a, b, z| {
            calls.push((a.clone(), b.clone(), z.clone()));
        })
        .await?;
        let [(high, low, high_low), (v2, v4, v6), (_, v8, v_inv), (_, _, outputs)]: [Observed; 4] =
            calls.try_into().expect("the GF(2^4) circuit multiplies four times");
        log.record_gf16_packed(&v2, &v4, &v6);
        log.record_gf16_packed(&v6, &v8, &v_inv);
        log.record_tower_packed(&high, &low, &v_inv, &high_low, &outputs);
        Ok(inverses)
    }
}

inversion_sbox_layer!(MaliciousGf16CircuitSbox);
