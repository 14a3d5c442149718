//! The TinyOT engine under MiniMac's OT provider, for any number of parties: between two parties
//! the two-party engine ([`TinyOt`], its half-gate leaky AND), among three or more the n-party one
//! ([`MultiTinyOt`], WRK17's n-party leaky AND). Both hand their bits over in the n-party format
//! ([`NBits`]: per bit this party's share, its MAC under every peer's `Δ` and its key for every
//! peer's share), so the provider's contributions and checks are written once for every n.

use crate::net::Network;
use crate::ot::multi::{MultiTinyOt, NBits, MAX_TRIPLES};
use crate::ot::{Block, Extension, OtError, TinyOt};
use rand_core::{CryptoRng, RngCore};

/// The OT extension under the n-party engine (the two-party engine keeps KOS15, whose exact
/// costs the provider's byte-count tests pin).
const EXTENSION: Extension = Extension::SoftSpoken { k: crate::ot::tinyot::SOFTSPOKEN_K };

/// One party's TinyOT engine for a provider run.
pub(super) enum Tiny {
    Two(TinyOt),
    Many(MultiTinyOt),
}

impl Tiny {
    /// Sets up the engine for the session's parties (the same `session` tag at every party).
    pub(super) async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        session: &[u8],
        rng: &mut R,
    ) -> Result<Self, OtError> {
        Ok(if net.parties() == 2 {
            Tiny::Two(TinyOt::setup(net, session, rng).await?)
        } else {
            Tiny::Many(MultiTinyOt::setup(net, session, EXTENSION, rng).await?)
        })
    }

    /// This party's global key `Δ`.
    pub(super) fn delta(&self) -> Block {
        match self {
            Tiny::Two(e) => e.delta(),
            Tiny::Many(e) => e.delta(),
        }
    }

    /// Most AND triples of one [`and_triples`](Self::and_triples) call (`None`: no bound but
    /// the caller's chunks).
    pub(super) fn most_triples(&self) -> Option<usize> {
        match self {
            Tiny::Two(_) => None,
            Tiny::Many(_) => Some(MAX_TRIPLES),
        }
    }

    /// `count` random authenticated bits.
    pub(super) async fn abits<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<NBits, OtError> {
        match self {
            Tiny::Two(e) => {
                Ok(NBits::from_two_party(net.party(), e.abits(net, count, rng).await?.into_iter()))
            }
            Tiny::Many(e) => e.abits(net, count, rng).await,
        }
    }

    /// `count` AND triples `⟨x⟩, ⟨y⟩, ⟨z = x·y⟩`.
    pub(super) async fn and_triples<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<[NBits; 3], OtError> {
        match self {
            Tiny::Two(e) => {
                let me = net.party();
                let triples = e.and_triples(net, count, rng).await?;
                Ok([0, 1, 2].map(|w| NBits::from_two_party(me, triples.iter().map(|t| t[w]))))
            }
            Tiny::Many(e) => e.and_triples(net, count, rng).await,
        }
    }
}
