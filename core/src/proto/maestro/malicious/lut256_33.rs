//! Malicious (3,3) LUT-256: MAESTRO §3.5.3 Protocol 7 (Table 5 "⟨⟨·⟩⟩-LUT-256 + Protocol 2"), the
//! AES state kept additive between S-box layers as in the semi-honest
//! [`crate::proto::maestro::sbox::lut256_33`], every S-box pair checked by VerifySbox's two GF(2^8)
//! triples, and the replicated shares those triples need recovered from the next layer instead
//! of resharing every layer.
//!
//! - **Preprocessing** (Protocol 6 step 1 with Protocol 8 step 6): per S-box two length-16
//!   one-hot vectors from [`crate::proto::maestro::sbox::one_hot16`], each recorded for the Eq. (5)/(6)
//!   checks (2 triples per vector), then tensored into the length-256 lookup
//!   ([`TensorOneHot::from_pair`]). 22 bits per S-box and party, 2 rounds per batch.
//! - **Step 2** (first layer, replicated input ⟦x⁽⁰⁾⟧; also every key-schedule `SubWord`): open
//!   c = x + r from the replicated sharing (8 bits, the ⟦·⟧ ↦ ⟨⟨·⟩⟩ variant of Protocol 6), look
//!   up ⟨⟨y⟩⟩ = Σⱼ ⟨⟨fⱼ⟩⟩ · T\[c ⊕ j\] locally (Protocol 6 step 7).
//! - **Steps 4–5** (every later layer): the driver computes ⟨⟨x⁽ⁱ⁾⟩⟩ = Lᵢ(⟨⟨y⁽ⁱ⁻¹⁾⟩⟩) + ⟨⟨k⁽ⁱ⁾⟩⟩
//!   locally ([`MixedShare`]); each party sends xⱼ + rⱼ + αⱼ (α a PRSS zero sharing) to both
//!   others (Protocol 6 step 4, 16 bits), looks up ⟨⟨y⁽ⁱ⁾⟩⟩ and keeps ⟦x⁽ⁱ⁾⟧ = ⟦r⟧ + c (step 5).
//!   Every opened c, replicated or additive, goes into the [`super::PublicView`], so a party
//!   that sends different values to the two others is caught by the §2.4 hash comparison; one
//!   that sends the same wrong value to both only shifts x⁽ⁱ⁾, which the next item exposes.
//! - **Step 6**: ⟦y⁽ⁱ⁻¹⁾⟧ = Lᵢ⁻¹(⟦x⁽ⁱ⁾⟧ − ⟦k⁽ⁱ⁾⟧), local, through
//!   [`SboxLayer::recover_previous_outputs`] (the driver names the step, [`LinearStep`], and the round key:
//!   InvShiftRows ∘ InvMixColumns after adding k⁽ⁱ⁾ when encrypting, MixColumns ∘ ShiftRows
//!   then adding the round key when decrypting). An error added to any share of ⟨⟨x⁽ⁱ⁾⟩⟩ or of
//!   c therefore lands in the recovered y⁽ⁱ⁻¹⁾, which then is not S(x⁽ⁱ⁻¹⁾).
//! - **Step 8**: the last layer's output ⟨⟨y⁽⁹⁾⟩⟩ (and each `SubWord` output) is reshared once
//!   ([`SboxLayer::to_replicated`], 8 bits); the driver then computes the last round on ⟦y⁽⁹⁾⟧.
//! - **Step 10, VerifySbox**: with ŷ = A⁻¹(y) (the inverse affine map, local) the two GF(2^8)
//!   triples (x², ŷ, x) and (x, ŷ², ŷ) are recorded for every pair (x, y) as soon as ⟦y⟧ is
//!   known (squares are local). Both hold iff ŷ = x⁻¹ (x ≠ 0 forces ŷ = x⁻¹ by the first; x = 0
//!   forces ŷ = 0 by the second), i.e. iff y = S(x). For InvSubBytes the roles swap: the output
//!   y = S⁻¹(x) is the S-box input, so the triples are (y², x̂, y) and (y, x̂², x̂) with x̂ = A⁻¹(x).
//! - **Step 11, 𝓕_verify** in its no-leakage form: the session's
//!   [`super::super::verify::verify_log`] (Protocol 2 ending in Protocol 1, whose final opening
//!   is re-randomised by a random ⟦r⟧), so only pass/fail is revealed, never the error x²ŷ − x
//!   (which would depend on x); challenges by coin tossing; then the hash comparison of every
//!   opened c. [`super::MaliciousSession::verify`] refuses to run (typed
//!   [`MaestroError::UnverifiedSboxes`]) while some lookup outputs were neither recovered nor
//!   reshared, so no output is opened before every S-box is checked.
//!
//! **Online cost per AES-128 block and party** (encryption or decryption, key schedule
//! excluded): 16 × (8 + 9 × 16 + 8) = 2560 bits, as in Table 1, in 11 rounds (the 10 lookup
//! rounds plus the resharing of step 8) and 20 messages; the verification and the verified
//! opening come on top (below). Each key-schedule `SubWord` costs 4 × (8 + 8) bits in 2 rounds.
//!
//! **Verification cost**: 6 GF(2^64) triples per S-box (4 preprocessing, 2 online); for N
//! triples, [`super::MaliciousSession::verify`] costs 24⌈log₂ N⌉ + 112 bytes in 2⌈log₂ N⌉ + 7
//! rounds per party — O(log N) (asserted in the tests).
//!
//! **Call order** the layer relies on (the AES driver's): a call on additive input follows the
//! call whose outputs it was computed from and is followed by
//! [`SboxLayer::recover_previous_outputs`]; [`SboxLayer::to_replicated`] receives the last
//! call's outputs unchanged. A call on replicated input while earlier outputs are still
//! additive, or a second additive call before the recovery, is
//! [`MaestroError::UnverifiedSboxes`] before any communication.
//!
//! Secrets are never table indices or branch conditions (the table is indexed by the public c;
//! which form a byte is in follows the public control flow).

use super::{MaliciousSboxLayer, MaliciousSession};
use crate::aes::AesByte;
use crate::net::Network;
use crate::proto::maestro::error::{MaestroError, Step};
use crate::proto::maestro::mixed_share::{self, AdditiveShare, MixedShare};
use crate::proto::maestro::online::Party;
use crate::proto::maestro::pool::PreprocessedPool;
use crate::proto::maestro::rss::RssShare;
use crate::proto::maestro::sbox::lut256_33::{open_masked, tables, TensorOneHot};
use crate::proto::maestro::sbox::one_hot16::{self, OneHot16};
use crate::proto::maestro::sbox::tensor_lookup::TensorTable;
use crate::proto::maestro::sbox::{inv_affine, LinearStep, SboxLayer};
use crate::proto::maestro::verify::TripleLog;

/// The maliciously secure (3,3) LUT-256 S-box layer: a session, its preprocessed lookups, the
/// S-box and inverse S-box tables, and the lookup calls whose outputs are still additive.
#[derive(Debug)]
pub struct MaliciousAdditiveLut256Sbox {
    session: MaliciousSession,
    pool: PreprocessedPool<TensorOneHot>,
    table: &'static TensorTable,
    inv_table: &'static TensorTable,
    /// The last call, whose outputs are still additive.
    last: Option<Lookup>,
    /// The call before it, whose outputs the driver recovers from `last`'s inputs.
    awaiting: Option<Lookup>,
}

/// Which table a lookup reads, and so which side of the S-box its input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Forward,
    Inverse,
}

/// A lookup call whose S-box pairs are not recorded yet: its direction and replicated inputs.
#[derive(Debug)]
struct Lookup {
    direction: Direction,
    inputs: Vec<RssShare>,
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
            last: None,
            awaiting: None,
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

    /// Preprocessed lookups not used yet.
    pub fn available(&self) -> usize {
        self.pool.available()
    }

    fn unverified(&self) -> MaestroError {
        MaestroError::UnverifiedSboxes { count: self.session.unverified_sboxes }
    }

    /// One lookup layer (Protocol 7 step 2 on replicated input, steps 4–5 on additive input):
    /// open c, look up ⟨⟨y⟩⟩ additively, keep ⟦x⟧ until ⟦y⟧ is recovered or reshared.
    async fn lookup<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [MixedShare],
        direction: Direction,
    ) -> Result<(), MaestroError> {
        let additive_input = bytes.iter().any(|b| !b.is_replicated());
        if self.awaiting.is_some() || (!additive_input && self.last.is_some()) {
            return Err(self.unverified());
        }
        let vectors = self.pool.take(bytes.len())?;
        self.deviate_input(bytes);
        let table = match direction {
            Direction::Forward => self.table,
            Direction::Inverse => self.inv_table,
        };
        let MaliciousSession { party, view, .. } = &mut self.session;
        let opened = open_masked(party, net, bytes, &vectors).await?;
        let packed: Vec<u8> = opened.iter().map(|c| c.0).collect();
        view.absorb(Step::LookupOpen, &packed);
        // Step 2 verifies the given ⟦x⁽⁰⁾⟧; step 5 obtains ⟦x⁽ⁱ⁾⟧ = ⟦r⟧ + c.
        let inputs: Vec<RssShare> = if additive_input {
            vectors.iter().zip(&opened).map(|(v, c)| v.r.add_public(c.0)).collect()
        } else {
            bytes.iter().map(|b| b.as_replicated().expect("every input byte is replicated")).collect()
        };
        let me = party.id();
        for ((b, c), v) in bytes.iter_mut().zip(&opened).zip(&vectors) {
            *b = MixedShare::Additive(AdditiveShare::new(me, table.lookup(c.0, &v.f)));
        }
        self.deviate_output(bytes);
        self.awaiting = if additive_input { self.last.take() } else { None };
        self.last = Some(Lookup { direction, inputs });
        self.session.unverified_sboxes += bytes.len();
        Ok(())
    }

    /// Records VerifySbox's triples for the pairs of `call`, whose outputs are now replicated.
    fn record(&mut self, call: &Lookup, outputs: &[RssShare]) {
        let log = &mut self.session.log;
        match call.direction {
            Direction::Forward => record_sbox(log, &call.inputs, outputs),
            Direction::Inverse => record_sbox(log, outputs, &call.inputs),
        }
        self.session.unverified_sboxes -= outputs.len();
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

    /// Test hook: a corrupt party's local deviation on its shares of S-box inputs, before the
    /// opening of c (no-op outside tests).
    fn deviate_input(&mut self, bytes: &mut [MixedShare]) {
        #[cfg(test)]
        if let Some(super::tamper::Deviation::SboxInput { call, byte, delta }) = self.session.deviation {
            if call == self.session.sbox_calls {
                super::tamper::add_to_mixed(&mut bytes[byte % bytes.len()], delta);
            }
        }
        #[cfg(not(test))]
        let _ = bytes;
    }

    /// Test hook: a corrupt party's local deviation on its additive shares of lookup outputs
    /// (no-op outside tests); counts the calls.
    fn deviate_output(&mut self, bytes: &mut [MixedShare]) {
        #[cfg(test)]
        {
            use super::tamper::Deviation;
            if let Some(
                Deviation::SboxOutput { call, byte, delta } | Deviation::LookupOutput { call, byte, delta },
            ) = self.session.deviation
            {
                if call == self.session.sbox_calls {
                    super::tamper::add_to_mixed(&mut bytes[byte % bytes.len()], delta);
                }
            }
            self.session.sbox_calls += 1;
        }
        #[cfg(not(test))]
        let _ = bytes;
    }

    /// Test hook: a corrupt party's local deviation on its recovered shares of the outputs of
    /// call `sbox_calls − 2` (no-op outside tests).
    fn deviate_recovered(&mut self, outputs: &mut [RssShare]) {
        #[cfg(test)]
        if let Some(super::tamper::Deviation::Recovered { call, byte, delta }) = self.session.deviation {
            if call + 2 == self.session.sbox_calls {
                super::tamper::add_to_first(&mut outputs[byte % outputs.len()], delta);
            }
        }
        #[cfg(not(test))]
        let _ = outputs;
    }
}

/// VerifySbox's two triples per S-box y = S(x): (x², ŷ, x) and (x, ŷ², ŷ) with ŷ = A⁻¹(y).
fn record_sbox(log: &mut TripleLog, x: &[RssShare], y: &[RssShare]) {
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
    type Share = MixedShare;

    /// Consumes one preprocessed lookup per byte; fails with
    /// [`MaestroError::PreprocessingExhausted`] (before any communication) if too few are left.
    /// Outputs are additive: 8 bits per byte on replicated input, 16 on additive input, 1 round.
    async fn sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [MixedShare],
    ) -> Result<(), MaestroError> {
        self.lookup(net, bytes, Direction::Forward).await
    }

    /// The same lookup in the inverse S-box table.
    async fn inv_sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [MixedShare],
    ) -> Result<(), MaestroError> {
        self.lookup(net, bytes, Direction::Inverse).await
    }

    /// Protocol 7 step 8: reshares the last call's outputs (8 bits per byte, one round) and
    /// records their S-box pairs. Nothing is sent for replicated bytes if no lookup is pending.
    async fn to_replicated<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [MixedShare],
    ) -> Result<(), MaestroError> {
        let Some(last) = self.last.take() else {
            return match bytes.iter().all(|b| b.is_replicated()) {
                true => Ok(()),
                false => Err(self.unverified()),
            };
        };
        if last.inputs.len() != bytes.len() || bytes.iter().any(|b| b.is_replicated()) {
            self.last = Some(last);
            return Err(self.unverified());
        }
        mixed_share::to_replicated(&mut self.session.party, net, bytes).await?;
        let outputs: Vec<RssShare> =
            bytes.iter().map(|b| b.as_replicated().expect("replicated after the resharing")).collect();
        self.record(&last, &outputs);
        Ok(())
    }

    /// Protocol 7 step 6: ⟦y⁽ⁱ⁻¹⁾⟧ = L⁻¹(⟦x⁽ⁱ⁾⟧ − ⟦k⁽ⁱ⁾⟧) block by block from the last call's
    /// replicated inputs (on [`RssShare`]s directly), then VerifySbox on the previous call's
    /// pairs. Local; a round key that is not replicated is [`MaestroError::NotReplicated`].
    fn recover_previous_outputs(
        &mut self,
        step: LinearStep,
        round_key: &[MixedShare; 16],
    ) -> Result<(), MaestroError> {
        let Some(previous) = self.awaiting.take() else { return Ok(()) };
        let x = &self.last.as_ref().expect("a call awaiting recovery has a successor").inputs;
        if x.len() != previous.inputs.len() || !x.len().is_multiple_of(16) {
            self.awaiting = Some(previous);
            return Err(self.unverified());
        }
        let key: [RssShare; 16] =
            mixed_share::replicated_shares(round_key)?.try_into().expect("16 round-key bytes");
        let mut outputs = Vec::with_capacity(x.len());
        for chunk in x.chunks_exact(16) {
            let mut block: [RssShare; 16] = core::array::from_fn(|j| chunk[j]);
            step.invert(&mut block, &key);
            outputs.extend_from_slice(&block);
        }
        self.deviate_recovered(&mut outputs);
        self.record(&previous, &outputs);
        Ok(())
    }
}
