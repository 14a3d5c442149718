//! Malicious (3,3) LUT-256 (MAESTRO §3.5, Protocol 7 with VerifySbox; Table 5 "⟨⟨·⟩⟩-LUT-256 +
//! Protocol 2"): the lookups of the semi-honest [`crate::proto::maestro::lut256_33`] layer with
//! every S-box checked by two GF(2^8) multiplication triples.
//!
//! - **Preprocessing** (Protocol 6 step 1 with Protocol 8 step 6): per S-box two length-16
//!   one-hot vectors from [`crate::proto::maestro::one_hot16`], each recorded for the Eq. (5)/(6)
//!   checks (2 triples per vector), then tensored into the length-256 lookup
//!   ([`TensorOneHot::from_pair`]). 22 bits per S-box and party, 2 rounds per batch.
//! - **Online**, per call on replicated bytes ⟦x⟧: open c = x + r from the replicated sharing
//!   (8 bits; c goes into the [`super::PublicView`], so inconsistent openings abort at the hash
//!   comparison of §2.4), look up ⟨⟨y⟩⟩ = Σⱼ ⟨⟨fⱼ⟩⟩ · T\[c ⊕ j\] locally (Protocol 6 step 7), then
//!   reshare ⟨⟨y⟩⟩ into ⟦y⟧ (Protocol 7 step 8, 8 bits, one round).
//! - **VerifySbox** (Protocol 7 step 10): with ŷ = A⁻¹(y) (the inverse affine map, local) the
//!   two GF(2^8) triples (x², ŷ, x) and (x, ŷ², ŷ) are recorded (squares are local). Both hold
//!   iff ŷ = x⁻¹ (x ≠ 0 forces ŷ = x⁻¹ by the first; x = 0 forces ŷ = 0 by the second), i.e. iff
//!   y = S(x). For InvSubBytes the roles swap: the output y = S⁻¹(x) is the S-box input, so the
//!   triples are (y², x̂, y) and (y, x̂², x̂) with x̂ = A⁻¹(x).
//! - **𝓕_verify** in its no-leakage form: the session's [`super::super::verify::verify_log`]
//!   (Protocol 2 ending in Protocol 1, whose final opening is re-randomised by a random ⟦r⟧), so
//!   only pass/fail is revealed, never the error x²ŷ − x (which would depend on x); challenges
//!   by coin tossing; then the hash comparison of every opened c.
//!
//! **Deviation from Protocol 7** (documented, tested): Protocol 7 keeps the state additive
//! between AES rounds (opening c from ⟨⟨x⟩⟩ for 16 bits) and recovers ⟦y⁽ⁱ⁻¹⁾⟧ =
//! L⁻¹(⟦x⁽ⁱ⁾⟧ − ⟦k⁽ⁱ⁾⟧) from the next layer's ⟦x⁽ⁱ⁾⟧ = ⟦r⟧ + c. This layer instead reshares
//! every output to ⟦y⟧ right away, so it needs no AES-aware driver and works under the generic
//! [`SboxLayer`]. Bits are the same — 8 (replicated opening) + 8 (resharing) = 16 bits per S-box,
//! 2560 bits per AES-128 block and party as in Table 1 — but each layer takes 2 rounds instead
//! of 1 (20 online rounds per block instead of 10/11).
//!
//! **Verification cost**: 6 GF(2^64) triples per S-box (4 preprocessing, 2 online); for N
//! triples, [`super::MaliciousSession::verify`] costs 24⌈log₂ N⌉ + 112 bytes in 2⌈log₂ N⌉ + 7
//! rounds per party — O(log N) (asserted in the tests).
//!
//! Secrets are never table indices or branch conditions (the table is indexed by the public c).

use super::{MaliciousSboxLayer, MaliciousSession};
use crate::net::Network;
use crate::proto::maestro::error::{MaestroError, Step};
use crate::proto::maestro::lut256_33::{tables, TensorOneHot};
use crate::proto::maestro::mixed_share::{self, AdditiveShare, MixedShare};
use crate::proto::maestro::one_hot16::{self, OneHot16};
use crate::proto::maestro::online::Party;
use crate::proto::maestro::pool::PreprocessedPool;
use crate::proto::maestro::rss::RssShare;
use crate::proto::maestro::sbox::{inv_affine, SboxLayer};
use crate::proto::maestro::tensor_lookup::TensorTable;

/// The maliciously secure (3,3) LUT-256 S-box layer: a session, its preprocessed lookups and
/// the S-box and inverse S-box tables.
#[derive(Debug)]
pub struct MaliciousAdditiveLut256Sbox {
    session: MaliciousSession,
    pool: PreprocessedPool<TensorOneHot>,
    table: &'static TensorTable,
    inv_table: &'static TensorTable,
}

/// Which table a lookup reads, and so which side of the S-box its input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Forward,
    Inverse,
}

impl MaliciousAdditiveLut256Sbox {
    /// Wraps a party (after its PRSS setup) with an empty pool.
    pub fn new(party: Party) -> Self {
        let (table, inv_table) = tables();
        MaliciousAdditiveLut256Sbox {
            session: MaliciousSession::new(party),
            pool: PreprocessedPool::default(),
            table,
            inv_table,
        }
    }

    /// Preprocessing: `count` lookups (one per future S-box) in two rounds, 22 bits per lookup
    /// and party; both length-16 one-hot vectors of each are recorded for verification.
    pub async fn preprocess<N: Network>(&mut self, net: &mut N, count: usize) -> Result<(), MaestroError> {
        let mut vectors = one_hot16::generate(&mut self.session.party, net, 2 * count).await?;
        for v in &vectors {
            self.session.log.record_one_hot(v);
        }
        self.deviate_vectors(&mut vectors);
        self.pool.extend(vectors.chunks_exact(2).map(|pair| TensorOneHot::from_pair(&pair[0], &pair[1])));
        Ok(())
    }

    /// Test hook: a corrupt party's local deviation on its share of a length-16 one-hot vector
    /// after it was recorded (no-op outside tests).
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

    /// Preprocessed lookups not used yet.
    pub fn available(&self) -> usize {
        self.pool.available()
    }

    /// One verified lookup layer: open c, look up additively, reshare, record the two triples.
    async fn lookup<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [RssShare],
        direction: Direction,
    ) -> Result<(), MaestroError> {
        let vectors = self.pool.take(bytes.len())?;
        self.session.deviate_input(bytes);
        let table = match direction {
            Direction::Forward => self.table,
            Direction::Inverse => self.inv_table,
        };
        let MaliciousSession { party, view, .. } = &mut self.session;
        let masked: Vec<RssShare> = bytes.iter().zip(&vectors).map(|(&x, v)| x + v.r).collect();
        let opened = party.open(net, &masked).await?;
        let packed: Vec<u8> = opened.iter().map(|c| c.0).collect();
        view.absorb(Step::LookupOpen, &packed);
        let me = party.id();
        let mut outputs: Vec<MixedShare> = opened
            .iter()
            .zip(&vectors)
            .map(|(c, v)| MixedShare::Additive(AdditiveShare::new(me, table.lookup(c.0, &v.f))))
            .collect();
        #[cfg(test)]
        if let Some(super::tamper::Deviation::LookupOutput { call, byte, delta }) = self.session.deviation {
            if call == self.session.sbox_calls {
                let k = byte % outputs.len();
                outputs[k] = MixedShare::Additive(AdditiveShare::new(
                    me,
                    outputs[k].to_additive().value() + crate::field::Gf256(delta),
                ));
            }
        }
        let MaliciousSession { party, log, .. } = &mut self.session;
        mixed_share::to_replicated(party, net, &mut outputs).await?;
        let outputs: Vec<RssShare> =
            outputs.iter().map(|o| o.as_replicated().expect("replicated after the resharing")).collect();
        let (sbox_in, sbox_out) = match direction {
            Direction::Forward => (bytes.to_vec(), outputs.clone()),
            Direction::Inverse => (outputs.clone(), bytes.to_vec()),
        };
        record_sbox(log, &sbox_in, &sbox_out);
        bytes.copy_from_slice(&outputs);
        self.session.deviate_output(bytes);
        Ok(())
    }
}

/// VerifySbox's two triples per S-box y = S(x): (x², ŷ, x) and (x, ŷ², ŷ) with ŷ = A⁻¹(y).
fn record_sbox(log: &mut crate::proto::maestro::verify::TripleLog, x: &[RssShare], y: &[RssShare]) {
    let y_hat = inv_affine(y);
    let x_squared: Vec<RssShare> = x.iter().map(|s| s.square()).collect();
    let y_hat_squared: Vec<RssShare> = y_hat.iter().map(|s| s.square()).collect();
    log.record_gf256(&x_squared, &y_hat, x);
    log.record_gf256(x, &y_hat_squared, &y_hat);
}

impl MaliciousSboxLayer for MaliciousAdditiveLut256Sbox {
    fn session(&mut self) -> &mut MaliciousSession {
        &mut self.session
    }
}

impl SboxLayer for MaliciousAdditiveLut256Sbox {
    type Share = RssShare;

    /// Consumes one preprocessed lookup per byte; fails with
    /// [`MaestroError::PreprocessingExhausted`] (before any communication) if too few are left.
    /// Outputs are replicated (16 bits per byte, 2 rounds).
    async fn sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [RssShare],
    ) -> Result<(), MaestroError> {
        self.lookup(net, bytes, Direction::Forward).await
    }

    /// The same verified lookup in the inverse S-box table.
    async fn inv_sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [RssShare],
    ) -> Result<(), MaestroError> {
        self.lookup(net, bytes, Direction::Inverse).await
    }
}
