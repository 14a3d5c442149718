//! LUT-16 + Protocol 2 (MAESTRO Table 5 "LUT-16 + Protocol 2"): the semi-honest LUT-16 S-box
//! ([`crate::proto::maestro::sbox::lut16`]) with
//! - **preprocessing** (Protocol 8 with step 6): the 11 bit products of each one-hot vector
//!   checked as the two GF(2^64) triples of Eq. (5) and Eq. (6) (Appendix A, Lemma A.2);
//! - **online** (Protocol 3): one Eq. (3) triple per S-box covering a_h·a_l (through
//!   ⟦v⟧ = c + ⟦r⟧, so an error d_v in the opened c is caught, Lemma 3.2), a'_h and a'_l. The
//!   opened c values go into the view, so a party that sends different masked shares to the two
//!   others is caught by the hash comparison.
//!
//! Per S-box: 3 GF(2^64) triples (2 preprocessing, 1 online) instead of 14.

use super::{MaliciousSboxLayer, MaliciousSession};
use crate::field::{Gf16, Gf16Squared};
use crate::net::Network;
use crate::proto::maestro::error::{MaestroError, Step};
use crate::proto::maestro::gf16_rss::{pack_nibbles, Rss16};
use crate::proto::maestro::online::Party;
use crate::proto::maestro::packed::{nibble_linear, to_tower_packed, Packed, Packed16};
use crate::proto::maestro::pool::PreprocessedPool;
use crate::proto::maestro::rss::RssShare;
use crate::proto::maestro::sbox::lut16::inverse_observed;
use crate::proto::maestro::sbox::one_hot16::{self, OneHot16};

/// The maliciously secure LUT-16 S-box layer: a session and its pool of one-hot vectors.
#[derive(Debug)]
pub struct MaliciousLut16Sbox {
    session: MaliciousSession,
    pool: PreprocessedPool<OneHot16>,
}

impl MaliciousLut16Sbox {
    /// Wraps a party (after its PRSS setup) with an empty pool.
    pub fn new(party: Party) -> Self {
        MaliciousLut16Sbox { session: MaliciousSession::new(party), pool: PreprocessedPool::default() }
    }

    /// Preprocessing: `count` random one-hot vectors (two rounds, 11 bits per vector and party),
    /// each recorded for the Eq. (5)/(6) checks.
    pub async fn preprocess<N: Network>(&mut self, net: &mut N, count: usize) -> Result<(), MaestroError> {
        let mut vectors = one_hot16::generate(&mut self.session.party, net, count).await?;
        for v in &vectors {
            self.session.log.record_one_hot(v);
        }
        self.deviate_vectors(&mut vectors);
        self.pool.extend(vectors);
        Ok(())
    }

    /// Preprocessed vectors not used yet.
    pub fn available(&self) -> usize {
        self.pool.available()
    }

    /// Test hook: a corrupt party's local deviation on its share of a one-hot vector after it
    /// was recorded (no-op outside tests).
    fn deviate_vectors(&mut self, vectors: &mut [OneHot16]) {
        #[cfg(test)]
        if let Some(super::tamper::Deviation::OneHot { index, bits }) = self.session.deviation {
            if let Some(v) = vectors.get_mut(index) {
                v.e.0 ^= bits;
            }
        }
        #[cfg(not(test))]
        let _ = vectors;
    }
}

impl MaliciousSboxLayer for MaliciousLut16Sbox {
    fn session(&mut self) -> &mut MaliciousSession {
        &mut self.session
    }
}

/// Adds the public c to component 0 of a GF(2^4) sharing (party 0's first, party 2's second).
fn add_public(s: Rss16, c: Gf16) -> Rss16 {
    let zero = Gf16::new(0);
    let (f, sec) = match s.party() {
        0 => (c, zero),
        2 => (zero, c),
        _ => (zero, zero),
    };
    Rss16::new(s.party(), s.first() + f, s.second() + sec)
}

impl MaliciousLut16Sbox {
    /// x⁻¹ for every x through one preprocessed vector each (taken before any communication),
    /// the masked openings added to the view and one Eq. (3) triple per byte recorded.
    async fn invert<N: Network>(
        &mut self,
        net: &mut N,
        mut x: Vec<RssShare>,
    ) -> Result<Vec<RssShare>, MaestroError> {
        let vectors = self.pool.take(x.len())?;
        self.session.deviate_input(&mut x);
        let n = x.len();
        let mut masked: Vec<Gf16> = Vec::new();
        let mut products: Vec<(Packed16, Packed16)> = Vec::new();
        let MaliciousSession { party, log, view, .. } = &mut self.session;
        let me = party.id();
        let inverses =
            inverse_observed(party, net, &x, &vectors, &mut |c| masked = c.to_vec(), &mut |_, b, z| {
                products.push((b.clone(), z.clone()))
            })
            .await?;
        let (right, outputs) = products.pop().expect("LUT-16 multiplies once");
        let packed: Vec<u8> = masked.iter().map(|c| c.value()).collect();
        view.absorb(Step::LookupOpen, &packed);
        // ⟦a_h·a_l⟧ = ⟦v⟧ + {E}⟦a_h²⟧ + ⟦a_l²⟧ with ⟦v⟧ = c + ⟦r⟧ (Protocol 3 step 9).
        let (high, low) = to_tower_packed(&Packed::from_shares(me, &x));
        let v: Vec<Rss16> = vectors.iter().zip(&masked).map(|(v, &c)| add_public(v.r, c)).collect();
        let v = Packed16 {
            party: me,
            len: n,
            first: pack_nibbles(&v.iter().map(|s| s.first()).collect::<Vec<_>>()),
            second: pack_nibbles(&v.iter().map(|s| s.second()).collect::<Vec<_>>()),
        };
        let high_low = v
            .add(&high.map_linear(&nibble_linear(|a| a * a * Gf16Squared::E)))
            .add(&low.map_linear(&nibble_linear(|a| a * a)));
        log.record_tower_packed(&high, &low, &right, &high_low, &outputs);
        Ok(inverses)
    }
}

inversion_sbox_layer!(MaliciousLut16Sbox);
