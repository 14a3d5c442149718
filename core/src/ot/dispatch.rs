//! The choice of OT extension behind correlated OTs: [`Extension`] names KOS15
//! ([`super::extension`]) or SoftSpoken with block size `k` ([`super::softspoken`]), gives the
//! exact bytes each costs (so protocol byte counts can be written by formula), and
//! [`ExtSender`] / [`ExtReceiver`] hold either behind one API. Both produce the same
//! correlation, `q_j = t_j ⊕ r_j·Δ`, and have the same check and trust model.

use rand_core::{CryptoRng, RngCore};

use super::extension::{padded_len, OtExtReceiver, OtExtSender, CHECK_BYTES, KAPPA};
use super::softspoken::{self, SoftSpokenReceiver, SoftSpokenSender};
use super::{Block, OtError};
use crate::net::{Network, PartyId};

/// Which OT extension to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extension {
    /// KOS15: 16 bytes of columns per OT, two AES blocks per 128 OTs per column.
    Kos15,
    /// SoftSpoken with `k` bits of `Δ` per small-field VOLE (`k` ∈ {1, 2, 4, 8}): `16/k` bytes
    /// of corrections per OT, about `2^k·16/k` AES blocks per OT and side.
    SoftSpoken {
        /// Bits per block; must be one of [`softspoken::SUPPORTED_K`].
        k: u8,
    },
}

/// Bytes the base OTs of a setup cost: the receiver of the base OTs sends 64 per OT, the sender
/// one 32-byte point.
const BASE_OT_RECEIVER_BYTES: usize = 64 * KAPPA;
const BASE_OT_SENDER_BYTES: usize = 32;
/// The sender's coin commitment (setup) and coin opening (every extension); the receiver's seed.
const COMMITMENT_BYTES: usize = 32;
const OPENING_BYTES: usize = 64;
const SEED_BYTES: usize = 32;

impl Extension {
    /// [`Ok`] if the parameters are supported, else an [`OtError::InvalidRequest`].
    pub fn validate(self) -> Result<(), OtError> {
        match self {
            Extension::Kos15 => Ok(()),
            Extension::SoftSpoken { k } => softspoken::check_k(k).map(|_| ()),
        }
    }

    /// The bytes of columns (KOS15) or corrections (SoftSpoken) the receiver sends in one
    /// extension of `count` OTs: `16·N'` or `(128/k)·N'/8` with `N'` = [`padded_len`]`(count)`.
    ///
    /// # Panics
    /// If the parameters are not supported (see [`validate`](Self::validate)).
    pub fn column_bytes(self, count: usize) -> usize {
        match self {
            Extension::Kos15 => KAPPA / 8 * padded_len(count),
            Extension::SoftSpoken { k } => {
                softspoken::correction_bytes(softspoken::check_k(k).expect("a supported k"), count)
            }
        }
    }

    /// `[sender, receiver]` bytes of one extension of `count` OTs: the sender's coin opening;
    /// the receiver's columns, its coin seed and its check message.
    pub fn extension_bytes(self, count: usize) -> [usize; 2] {
        [OPENING_BYTES, self.column_bytes(count) + SEED_BYTES + CHECK_BYTES]
    }

    /// `[sender, receiver]` bytes of the setup: the sender receives the base OTs and commits to
    /// its coin; the receiver sends the base OTs (and, for SoftSpoken, the GGM level sums).
    pub fn setup_bytes(self) -> [usize; 2] {
        let extra = match self {
            Extension::Kos15 => 0,
            Extension::SoftSpoken { .. } => softspoken::LEVEL_SUMS_BYTES,
        };
        [BASE_OT_RECEIVER_BYTES + COMMITMENT_BYTES, BASE_OT_SENDER_BYTES + extra]
    }
}

/// The sender side of either extension.
#[derive(Debug)]
pub enum ExtSender {
    /// KOS15 (both variants boxed: their sizes differ by hundreds of bytes).
    Kos15(Box<OtExtSender>),
    /// SoftSpoken.
    SoftSpoken(Box<SoftSpokenSender>),
}

/// The receiver side of either extension.
#[derive(Debug)]
pub enum ExtReceiver {
    /// KOS15 (both variants boxed: their sizes differ by hundreds of bytes).
    Kos15(Box<OtExtReceiver>),
    /// SoftSpoken.
    SoftSpoken(Box<SoftSpokenReceiver>),
}

impl ExtSender {
    /// The setup of `extension` with a chosen `Δ` (see
    /// [`OtExtSender::setup_with_delta`] and [`SoftSpokenSender::setup_with_delta`]).
    pub async fn setup_with_delta<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        peer: PartyId,
        session: &[u8],
        extension: Extension,
        delta: Block,
        rng: &mut R,
    ) -> Result<Self, OtError> {
        Ok(match extension {
            Extension::Kos15 => ExtSender::Kos15(Box::new(
                OtExtSender::setup_with_delta(net, peer, session, delta, rng).await?,
            )),
            Extension::SoftSpoken { k } => ExtSender::SoftSpoken(Box::new(
                SoftSpokenSender::setup_with_delta(net, peer, session, k, delta, rng).await?,
            )),
        })
    }

    /// `Δ`.
    pub fn delta(&self) -> Block {
        match self {
            ExtSender::Kos15(s) => s.delta(),
            ExtSender::SoftSpoken(s) => s.delta(),
        }
    }

    /// `count` correlated OTs (the sender's `q_j`).
    pub async fn extend_correlated<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<Vec<Block>, OtError> {
        match self {
            ExtSender::Kos15(s) => s.extend_correlated(net, count, rng).await,
            ExtSender::SoftSpoken(s) => s.extend_correlated(net, count, rng).await,
        }
    }
}

impl ExtReceiver {
    /// The setup of `extension` (see [`OtExtReceiver::setup`] and [`SoftSpokenReceiver::setup`]).
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        peer: PartyId,
        session: &[u8],
        extension: Extension,
        rng: &mut R,
    ) -> Result<Self, OtError> {
        Ok(match extension {
            Extension::Kos15 => {
                ExtReceiver::Kos15(Box::new(OtExtReceiver::setup(net, peer, session, rng).await?))
            }
            Extension::SoftSpoken { k } => ExtReceiver::SoftSpoken(Box::new(
                SoftSpokenReceiver::setup(net, peer, session, k, rng).await?,
            )),
        })
    }

    /// Correlated OTs with choice bits `choices` (the receiver's `t_j`).
    pub async fn extend_correlated<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        choices: &[bool],
        rng: &mut R,
    ) -> Result<Vec<Block>, OtError> {
        match self {
            ExtReceiver::Kos15(r) => r.extend_correlated(net, choices, rng).await,
            ExtReceiver::SoftSpoken(r) => r.extend_correlated(net, choices, rng).await,
        }
    }
}

/// Sets up `extension` in both directions with every peer of `net`: this party's sender towards
/// peer `j` holds `delta(j)` and the session tag `session(me, j)`, its receiver from `j` the tag
/// `session(j, me)`. SoftSpoken sets every pair up at once, one batch of public-key base OTs per
/// pair ([`softspoken::setup_with_peers`]); KOS15 one peer after the other, the lower index
/// setting up its sender first. Returns the ends indexed by peer (`None` at this party's index).
/// The two-party and the n-party TinyOT engines both set up through here.
pub async fn setup_with_peers<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    session: impl Fn(PartyId, PartyId) -> Vec<u8>,
    extension: Extension,
    delta: impl Fn(PartyId) -> Block,
    rng: &mut R,
) -> Result<Vec<Option<(ExtSender, ExtReceiver)>>, OtError> {
    if let Extension::SoftSpoken { k } = extension {
        let ends = softspoken::setup_with_peers(net, session, k, delta, rng).await?;
        return Ok(ends
            .into_iter()
            .map(|e| {
                e.map(|(s, r)| (ExtSender::SoftSpoken(Box::new(s)), ExtReceiver::SoftSpoken(Box::new(r))))
            })
            .collect());
    }
    let (me, n) = (net.party(), net.parties());
    let mut ends: Vec<Option<(ExtSender, ExtReceiver)>> = (0..n).map(|_| None).collect();
    for j in (0..n).filter(|&j| j != me) {
        ends[j] = Some(if me < j {
            let sender =
                ExtSender::setup_with_delta(net, j, &session(me, j), extension, delta(j), rng).await?;
            (sender, ExtReceiver::setup(net, j, &session(j, me), extension, rng).await?)
        } else {
            let receiver = ExtReceiver::setup(net, j, &session(j, me), extension, rng).await?;
            (ExtSender::setup_with_delta(net, j, &session(me, j), extension, delta(j), rng).await?, receiver)
        });
    }
    Ok(ends)
}
