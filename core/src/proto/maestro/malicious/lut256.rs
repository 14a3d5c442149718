//! Malicious (2,3) LUT-256: the semi-honest [`crate::proto::maestro::sbox::lut256`] (Protocol 4
//! on replicated input with Protocol 5's length-256 one-hot vectors, Table 1 "⟦·⟧-LUT-256") made
//! secure with abort by Protocol 2. The paper names this variant but does not evaluate it with
//! malicious security (§6, footnote 3: its preprocessing is costly); the construction below uses
//! only the pieces the paper's other variants use.
//!
//! - **Preprocessing** (Protocol 5 with 𝓕_weakMult and 𝓕_verify): the semi-honest Ohv recursion,
//!   7 rounds and 247 bits per S-box and party. Every reshared product r_{k−1}·fᵢ (the M − 1 of
//!   level M) is recorded; the products of one level of one vector share the left factor
//!   r_{k−1}, a bit, so up to 64 of them are checked as **one** GF(2^64) triple
//!   ([`crate::proto::maestro::verify::TripleLog::record_bit_products`]): 1 triple for each of
//!   the levels M = 2..64 and 2 for M = 128, **8 triples per S-box**. The last product of each
//!   level, r_{k−1} − Σ of the others, is local and correct whenever the others are (f sums to
//!   one by induction), so once every recorded product is verified, e is the one-hot vector of r.
//! - **Online** (Protocol 4, Lemma 3.3): open c = x + r from the replicated input (8 bits, one
//!   round per S-box layer) and look up ⟦S(x)⟧ = Σⱼ ⟦e_{c⊕j}⟧ · S\[j\] locally. A replicated
//!   opening can only be changed by sending one honest party a wrong component, which the other
//!   holder of that component does not confirm: every opened c goes into the session's
//!   [`super::PublicView`], compared by hash (§2.4) before any output. The lookup is linear in
//!   the verified e and the agreed c, so it needs no triple of its own: the online phase costs
//!   what the semi-honest one does (1280 bits in 10 rounds per AES-128 block and party).
//! - **Memory bound**: the log holds 8 triples of 17 bytes per component and S-box. A
//!   preparation of more than [`VERIFY_EVERY`] S-boxes is made in chunks of that many and every
//!   chunk but the last is verified before the next is made (2⌈log₂ N⌉ + 7 rounds each); the last
//!   chunk's triples wait for the verification before the output, as in the other variants.
//!
//! Secrets are never branch conditions or table indices: c is public, and the lookup selects
//! with masks ([`crate::proto::maestro::sbox::lut256`]).

use super::{MaliciousSboxLayer, MaliciousSession};
use crate::aes::sbox::{inv_sbox_table, sbox_table};
use crate::field::Gf256;
use crate::net::Network;
use crate::proto::maestro::error::{MaestroError, Step};
use crate::proto::maestro::online::Party;
use crate::proto::maestro::pool::PreprocessedPool;
use crate::proto::maestro::rss::RssShare;
use crate::proto::maestro::sbox::lut256::{
    generate_observed, lookup, output_bit_masks, BitProducts, Bits256, OneHot256,
};
use crate::proto::maestro::sbox::SboxLayer;
use crate::proto::maestro::verify::TripleLog;

/// GF(2^64) triples recorded per S-box: one per level of the Ohv recursion with at most 64
/// products (M = 2..64), two for the 127 products of M = 128.
pub const TRIPLES_PER_SBOX: usize = 8;

/// S-boxes prepared between two verifications of a long preparation (2^20 triples, about 36 MB
/// of log per party).
pub const VERIFY_EVERY: usize = (1 << 20) / TRIPLES_PER_SBOX;

/// The maliciously secure (2,3) LUT-256 S-box layer: a session, its pool of one-hot vectors and
/// the output-bit masks of the S-box and inverse S-box tables.
#[derive(Debug)]
pub struct MaliciousLut256Sbox {
    session: MaliciousSession,
    pool: PreprocessedPool<OneHot256>,
    masks: [Bits256; 8],
    inv_masks: [Bits256; 8],
}

/// Records one level's products of one vector as 64-product triples.
fn record(log: &mut TripleLog, p: &BitProducts) {
    for w in 0..p.count.div_ceil(64) {
        let n = (p.count - 64 * w).min(64);
        log.record_bit_products(p.left, (p.right.0[w], p.right.1[w]), (p.products.0[w], p.products.1[w]), n);
    }
}

impl MaliciousLut256Sbox {
    /// Wraps a party (after its PRSS setup) with an empty pool.
    pub fn new(party: Party) -> Self {
        MaliciousLut256Sbox {
            session: MaliciousSession::new(party),
            pool: PreprocessedPool::default(),
            masks: output_bit_masks(&sbox_table()),
            inv_masks: output_bit_masks(&inv_sbox_table()),
        }
    }

    /// Preprocessing: `count` random one-hot vectors of length 256 (seven rounds and 247 bits
    /// per vector and party), every reshared bit product recorded for verification; chunks of
    /// [`VERIFY_EVERY`] vectors before the last are verified at once.
    pub async fn preprocess<N: Network>(&mut self, net: &mut N, count: usize) -> Result<(), MaestroError> {
        let mut done = 0;
        while done < count {
            let chunk = (count - done).min(VERIFY_EVERY);
            #[cfg(test)]
            let deviation = self.session.deviation;
            let MaliciousSession { party, log, .. } = &mut self.session;
            let mut observe = |p: &mut BitProducts| {
                #[cfg(test)]
                super::tamper::deviate_product(deviation, done, p);
                record(log, p)
            };
            let mut vectors = generate_observed(party, net, chunk, &mut observe).await?;
            self.deviate_vectors(done, &mut vectors);
            self.pool.extend(vectors);
            done += chunk;
            if done < count {
                self.session.verify(net).await?;
            }
        }
        Ok(())
    }

    /// Preprocessed vectors not used yet.
    pub fn available(&self) -> usize {
        self.pool.available()
    }

    /// One lookup layer on `bytes` through the table with output-bit masks `masks` (the
    /// S-box's or its inverse's); the opened c go into the view.
    async fn lookup_layer<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [RssShare],
        inverse: bool,
    ) -> Result<(), MaestroError> {
        self.session.deviate_input(bytes);
        let masks = if inverse { &self.inv_masks } else { &self.masks };
        let MaliciousSession { party, view, .. } = &mut self.session;
        let mut absorb =
            |c: &[Gf256]| view.absorb(Step::LookupOpen, &c.iter().map(|b| b.0).collect::<Vec<u8>>());
        lookup(party, &mut self.pool, net, bytes, masks, &mut absorb).await?;
        self.session.deviate_output(bytes);
        Ok(())
    }

    /// Test hook: a corrupt party's local deviation on its first component of vector `index`
    /// (counted over the whole preparation) after its products were recorded: `bits` flipped
    /// in entries 16·(index mod 16) .. +15 (no-op outside tests).
    fn deviate_vectors(&mut self, first: usize, vectors: &mut [OneHot256]) {
        #[cfg(test)]
        if let Some(super::tamper::Deviation::OneHot { index, bits }) = self.session.deviation {
            if let Some(v) = index.checked_sub(first).and_then(|i| vectors.get_mut(i)) {
                let at = 16 * (index % 16);
                v.e.0[at / 64] ^= u64::from(bits) << (at % 64);
            }
        }
        #[cfg(not(test))]
        let _ = (first, vectors);
    }
}

impl MaliciousSboxLayer for MaliciousLut256Sbox {
    fn session(&mut self) -> &mut MaliciousSession {
        &mut self.session
    }
}

impl SboxLayer for MaliciousLut256Sbox {
    type Share = RssShare;

    /// Consumes one preprocessed vector per byte; fails with
    /// [`MaestroError::PreprocessingExhausted`] (before any communication) if too few are left.
    async fn sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [RssShare],
    ) -> Result<(), MaestroError> {
        self.lookup_layer(net, bytes, false).await
    }

    /// The same lookup in the inverse S-box table, at the same cost.
    async fn inv_sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [RssShare],
    ) -> Result<(), MaestroError> {
        self.lookup_layer(net, bytes, true).await
    }
}
