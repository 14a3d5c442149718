//! GF(2^4)-circuit + Protocol 2 with the single check of Eq. (3) (MAESTRO §3.2 "Reducing the
//! number of multiplication checks", §5, Table 5 "GF(2^4)-Circuit + Protocol 2").
//!
//! The semi-honest circuit ([`crate::proto::maestro::gf16_circuit`]) multiplies five times per
//! S-box: a_h·a_l, v²·v⁴, v⁶·v⁸, a_h·v⁻¹ and (a_h + a_l)·v⁻¹. The first and the last two are
//! checked together as one Eq. (3) triple over K = (GF(2^4))^4; v⁶ and v⁻¹ = v¹⁴ as two GF(2^4)
//! triples: 3 GF(2^64) triples per S-box instead of 5.

use super::{MaliciousSboxLayer, MaliciousSession};
use crate::net::Network;
use crate::proto::maestro::error::MaestroError;
use crate::proto::maestro::gf16_circuit::inverse_observed;
use crate::proto::maestro::gf16_rss::Rss16;
use crate::proto::maestro::online::Party;
use crate::proto::maestro::rss::RssShare;

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
type Observed = (Vec<Rss16>, Vec<Rss16>, Vec<Rss16>);

impl MaliciousGf16CircuitSbox {
    /// x⁻¹ for every x, its products recorded in the log as three triples per byte.
    async fn invert<N: Network>(
        &mut self,
        net: &mut N,
        mut x: Vec<RssShare>,
    ) -> Result<Vec<RssShare>, MaestroError> {
        self.session.deviate_input(&mut x);
        let n = x.len();
        let mut calls: Vec<Observed> = Vec::with_capacity(4);
        let MaliciousSession { party, log, .. } = &mut self.session;
        let inverses = inverse_observed(party, net, &x, &mut |a, b, z| {
            calls.push((a.to_vec(), b.to_vec(), z.to_vec()));
        })
        .await?;
        let [(high, low, high_low), (v2, v4, v6), (_, v8, v_inv), (_, _, outputs)]: [Observed; 4] =
            calls.try_into().expect("the GF(2^4) circuit multiplies four times");
        log.record_gf16(&v2, &v4, &v6);
        log.record_gf16(&v6, &v8, &v_inv);
        for k in 0..n {
            log.record_tower(high[k], low[k], v_inv[k], high_low[k], outputs[k], outputs[n + k]);
        }
        Ok(inverses)
    }
}

inversion_sbox_layer!(MaliciousGf16CircuitSbox);
