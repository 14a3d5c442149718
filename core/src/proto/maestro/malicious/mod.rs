//! MAESTRO with malicious security with abort (§2.7 and Table 5's "+ Protocol 2" rows): the
//! semi-honest S-box layers with every multiplication recorded in a [`TripleLog`] and checked in
//! one batch by Protocol 2, openings confirmed by hash comparison (§2.4), and outputs revealed
//! only after both passed.
//!
//! - [`MaliciousSession`]: a [`Party`] with its triple log and [`PublicView`]; inputs, the final
//!   verification and the verified opening of outputs;
//! - [`MaliciousSboxLayer`]: the extension of [`SboxLayer`] every malicious variant implements;
//! - [`gf256_circuit`]: GF(2^8)-circuit \[21\] + Protocol 2 (3 triples per S-box instead of 4:
//!   the two products sharing the factor x¹² are checked as one, in the style of Eq. (3));
//! - [`gf16_circuit`]: GF(2^4)-circuit + Protocol 2 with Eq. (3) (3 triples per S-box instead
//!   of 5: Eq. (3) for a_h·a_l, a'_h, a'_l, plus v² · v⁴ and v⁶ · v⁸);
//! - [`lut16`]: LUT-16 + Protocol 2 with Eq. (3) (1 triple per S-box online) and the two
//!   Eq. (5)/(6) checks per one-hot vector (2 triples instead of 11);
//! - [`lut256_33`]: (3,3) LUT-256 as Protocol 7: the state additive between layers, each
//!   layer's replicated outputs recovered from the next layer's replicated inputs through the
//!   inverse linear layer, one resharing at the end, and VerifySbox (two GF(2^8) triples per
//!   S-box) with the Eq. (5)/(6) checks of both length-16 one-hot vectors of each lookup (2560
//!   online bits in 11 rounds per AES-128 block and party).
//!
//! - [`lut256`]: (2,3) LUT-256 (Protocol 4 with Protocol 5's length-256 one-hot vectors): the
//!   247 bit products of each vector's preprocessing checked as 8 GF(2^64) triples (products
//!   with a common bit factor, 64 per triple), the online lookup at its semi-honest cost (1280
//!   bits in 10 rounds per AES-128 block and party) with the opened c in the view.
//!
//! **Running a malicious job end to end** (every party runs the same code):
//! 1. `let party = Party::setup(net, rng)`, `let mut sbox = MaliciousLut16Sbox::new(party)` (or
//!    another variant); LUT-16 and both LUT-256 variants also call `sbox.preprocess(net, sboxes)`;
//! 2. inputs through `sbox.session().input(net, owner, values, len)` (the third input component
//!    goes into the view, so an owner who sends different components is caught);
//! 3. [`super::aes::expand_key`] / [`super::aes::encrypt_blocks`] unchanged on `sbox` (inputs
//!    converted with `S::Share::from`: the (3,3) LUT-256's share type is [`MixedShare`](super::MixedShare));
//! 4. `sbox.session().open(net, &ciphertext_shares)`: runs [`MaliciousSession::verify`]
//!    (Protocol 2 on all recorded triples + hash comparison of every opening so far) and only if
//!    it passes opens the outputs, then compares the hashes of the opened outputs before
//!    returning them; `sbox.session().reveal(net, &shares, &to)` does the same for a subset of
//!    recipients. Any deviation ends in a typed error and no output.
//!
//! Verification cost per party for N recorded GF(2^64) triples: 2⌈log₂ N⌉ + 7 rounds and
//! 24⌈log₂ N⌉ + 112 bytes (tested exactly); the verified opening of ℓ output bytes adds ℓ + 64
//! bytes in two rounds. Triples per S-box: 3 (GF(2^8)-circuit), 3 (GF(2^4)-circuit), 3 (LUT-16:
//! 1 online + 2 preprocessing), 6 ((3,3) LUT-256: 2 online + 4 preprocessing), 8 ((2,3) LUT-256,
//! all preprocessing).

/// [`SboxLayer`] for a malicious inversion-based layer with a recording
/// `invert(&mut self, net, x: Vec<RssShare>)`: SubBytes is the inversion then the affine map,
/// InvSubBytes the inverse affine map then the same inversion (FIPS-197 §5.1.1, §5.3.2), both
/// followed by the test hook on outputs. A layer with preprocessing consumes one vector per byte
/// in `invert` and fails with [`MaestroError::PreprocessingExhausted`] before any communication.
macro_rules! inversion_sbox_layer {
    ($t:ty) => {
        impl crate::proto::maestro::sbox::SboxLayer for $t {
            type Share = crate::proto::maestro::rss::RssShare;

            async fn sub_bytes<N: crate::net::Network>(
                &mut self,
                net: &mut N,
                bytes: &mut [crate::proto::maestro::rss::RssShare],
            ) -> Result<(), crate::proto::maestro::error::MaestroError> {
                let inverses = self.invert(net, bytes.to_vec()).await?;
                crate::proto::maestro::sbox::apply_affine(bytes, inverses);
                self.session.deviate_output(bytes);
                Ok(())
            }

            async fn inv_sub_bytes<N: crate::net::Network>(
                &mut self,
                net: &mut N,
                bytes: &mut [crate::proto::maestro::rss::RssShare],
            ) -> Result<(), crate::proto::maestro::error::MaestroError> {
                let inverses = self.invert(net, crate::proto::maestro::sbox::inv_affine(bytes)).await?;
                bytes.copy_from_slice(&inverses);
                self.session.deviate_output(bytes);
                Ok(())
            }
        }
    };
}

pub mod gf16_circuit;
pub mod gf256_circuit;
pub mod lut16;
pub mod lut256;
pub mod lut256_33;

#[cfg(test)]
mod tamper;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_lut256;
#[cfg(test)]
mod tests_lut256_33;

pub use gf16_circuit::MaliciousGf16CircuitSbox;
pub use gf256_circuit::MaliciousGf256CircuitSbox;
pub use lut16::MaliciousLut16Sbox;
pub use lut256::MaliciousLut256Sbox;
pub use lut256_33::MaliciousAdditiveLut256Sbox;

use super::error::{MaestroError, Step};
use super::mixed_share::{replicated_shares, StateShare};
use super::msg::{recv_bytes, send_bytes};
use super::online::Party;
use super::rss::RssShare;
use super::sbox::SboxLayer;
use super::verify::view::DIGEST_BYTES;
use super::verify::{verify_log, PublicView, TripleLog};
use crate::field::Gf256;
use crate::net::{Network, PartyId};
use sha2::{Digest, Sha256};

/// A party of a malicious session: its [`Party`], the multiplications to verify and the values
/// opened since the last hash comparison.
#[derive(Debug)]
pub struct MaliciousSession {
    pub(super) party: Party,
    pub(super) log: TripleLog,
    pub(super) view: PublicView,
    /// S-boxes whose outputs are still only additively shared: neither reshared nor recovered
    /// from the next layer ((3,3) LUT-256, Protocol 7 steps 6 and 8), so not yet recorded.
    pub(super) unverified_sboxes: usize,
    #[cfg(test)]
    pub(super) deviation: Option<tamper::Deviation>,
    #[cfg(test)]
    pub(super) sbox_calls: usize,
}

impl MaliciousSession {
    /// A session over a party (after its PRSS setup), with an empty log and view.
    pub fn new(party: Party) -> Self {
        MaliciousSession {
            party,
            log: TripleLog::new(),
            view: PublicView::new(),
            unverified_sboxes: 0,
            #[cfg(test)]
            deviation: None,
            #[cfg(test)]
            sbox_calls: 0,
        }
    }

    /// The underlying party (for local operations; its `open`/`reveal` are the semi-honest ones —
    /// use [`MaliciousSession::open`] for outputs).
    pub fn party(&mut self) -> &mut Party {
        &mut self.party
    }

    /// The triple log (e.g. to record multiplications of further computation).
    pub fn log(&mut self) -> &mut TripleLog {
        &mut self.log
    }

    /// Multiplications recorded and not verified yet, as GF(2^64) triples.
    pub fn pending_triples(&self) -> usize {
        self.log.len()
    }

    /// [`Party::input`], with the third component the owner sends to both others added to the
    /// view, so inconsistent components abort at the next hash comparison.
    pub async fn input<N: Network>(
        &mut self,
        net: &mut N,
        owner: PartyId,
        values: Option<&[Gf256]>,
        len: usize,
    ) -> Result<Vec<RssShare>, MaestroError> {
        let shares = self.party.input(net, owner, values, len).await?;
        let me = self.party.id();
        let third: Vec<u8> = if me == owner {
            let values = values.expect("the owner's values were checked by Party::input");
            values.iter().zip(&shares).map(|(&v, s)| (v - s.first() - s.second()).0).collect()
        } else if me == (owner + 1) % 3 {
            shares.iter().map(|s| s.second().0).collect()
        } else {
            shares.iter().map(|s| s.first().0).collect()
        };
        self.view.absorb(Step::Input, &third);
        Ok(shares)
    }

    /// Verifies every multiplication since the last verification (Protocol 2, see
    /// [`super::verify::inner_product`]) and compares the hashes of all openings so far. Returns
    /// [`MaestroError::OpeningMismatch`] or [`MaestroError::VerificationFailed`] on cheating; the
    /// caller must then abort. Fails with [`MaestroError::UnverifiedSboxes`] before any
    /// communication if some S-box outputs could not be recorded yet.
    pub async fn verify<N: Network>(&mut self, net: &mut N) -> Result<(), MaestroError> {
        if self.unverified_sboxes > 0 {
            return Err(MaestroError::UnverifiedSboxes { count: self.unverified_sboxes });
        }
        let result = verify_log(&mut self.party, net, &mut self.view, &self.log).await;
        self.log.clear();
        result
    }

    /// Opens `shares` to all parties, maliciously secure: first [`MaliciousSession::verify`],
    /// then the optimistic opening (ℓ bytes, one round), then the hash comparison of the opened
    /// values (64 bytes, one round). Nothing is returned unless every check passed; shares that
    /// are not replicated are [`MaestroError::NotReplicated`] before any communication.
    pub async fn open<N: Network, T: StateShare>(
        &mut self,
        net: &mut N,
        shares: &[T],
    ) -> Result<Vec<Gf256>, MaestroError> {
        let shares = replicated_shares(shares)?;
        self.verify(net).await?;
        let values = self.party.open(net, &shares).await?;
        let bytes: Vec<u8> = values.iter().map(|v| v.0).collect();
        self.view.absorb(Step::Reveal, &bytes);
        self.view.compare(net).await?;
        Ok(values)
    }

    /// Reveals `shares` to the parties in `to` only, maliciously secure: first
    /// [`MaliciousSession::verify`], then [`Party::reveal`] (each recipient j receives its
    /// missing component from j+1), then j+2 — the other holder of that component — sends j the
    /// SHA-256 of it (§2.4), which j compares before returning the values. Recipients get
    /// `Some(values)`, the others `None`. Cost after the verification: ℓ bytes and 32 bytes per
    /// recipient served, two rounds.
    pub async fn reveal<N: Network, T: StateShare>(
        &mut self,
        net: &mut N,
        shares: &[T],
        to: &[PartyId],
    ) -> Result<Option<Vec<Gf256>>, MaestroError> {
        if let Some(&bad) = to.iter().find(|&&p| p > 2) {
            return Err(MaestroError::UnknownParty(bad));
        }
        let shares = &replicated_shares(shares)?[..];
        self.verify(net).await?;
        let me = self.party.id();
        let (next, prev) = ((me + 1) % 3, (me + 2) % 3);
        let values = self.party.reveal(net, shares, to).await?;
        if to.contains(&next) {
            let firsts: Vec<u8> = shares.iter().map(|s| s.first().0).collect();
            send_bytes(net, next, Sha256::digest(&firsts).to_vec(), Step::ViewCompare)?;
        }
        let Some(values) = values else { return Ok(None) };
        let missing: Vec<u8> =
            values.iter().zip(shares).map(|(&v, s)| (v - s.first() - s.second()).0).collect();
        let confirmation = recv_bytes(net, prev, DIGEST_BYTES, Step::ViewCompare).await?;
        if confirmation[..] != Sha256::digest(&missing)[..] {
            return Err(MaestroError::OpeningMismatch { peer: prev });
        }
        Ok(Some(values))
    }

    /// Test hook: a corrupt party's local deviation on S-box inputs (no-op outside tests).
    fn deviate_input(&mut self, bytes: &mut [RssShare]) {
        #[cfg(test)]
        if let Some(tamper::Deviation::SboxInput { call, byte, delta }) = self.deviation {
            if call == self.sbox_calls {
                tamper::add_to_first(&mut bytes[byte % bytes.len()], delta);
            }
        }
        #[cfg(not(test))]
        let _ = bytes;
    }

    /// Test hook: a corrupt party's local deviation on S-box outputs (no-op outside tests).
    fn deviate_output(&mut self, bytes: &mut [RssShare]) {
        #[cfg(test)]
        {
            if let Some(tamper::Deviation::SboxOutput { call, byte, delta }) = self.deviation {
                if call == self.sbox_calls {
                    tamper::add_to_first(&mut bytes[byte % bytes.len()], delta);
                }
            }
            self.sbox_calls += 1;
        }
        #[cfg(not(test))]
        let _ = bytes;
    }
}

/// An S-box layer with malicious security: its multiplications go to its session's log, which
/// [`MaliciousSession::open`] verifies before revealing anything.
pub trait MaliciousSboxLayer: SboxLayer<Share: StateShare> {
    /// The session: inputs, verification and verified openings.
    fn session(&mut self) -> &mut MaliciousSession;
}
