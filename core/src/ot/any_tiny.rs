//! The TinyOT engine for any number of parties, as MiniMac's and Coral's OT providers use it:
//! between two parties the two-party engine ([`TinyOt`], its half-gate leaky AND, over the OT
//! extension the caller picks), among three or more the n-party one ([`MultiTinyOt`], WRK17's
//! n-party leaky AND, over SoftSpoken). Their bits ([`Bits`], [`Triples`]) are read the same way —
//! a share, and towards each peer the two-party view ([`ABit`]: the MAC under its key, the key for
//! its share) — so a provider's contributions and checks are written once for every n, and the
//! two-party engine's bits are used as they come.

use crate::net::Network;
use crate::net::PartyId;
use crate::ot::multi::{MultiTinyOt, NBit, NBits, MAX_PARTIES, MAX_TRIPLES};
use crate::ot::{ABit, Block, Extension, OtError, TinyOt};
use rand_core::{CryptoRng, RngCore};

/// The OT extension under the n-party engine.
const EXTENSION: Extension = Extension::SoftSpoken { k: crate::ot::tinyot::SOFTSPOKEN_K };

/// One party's TinyOT engine.
pub(crate) enum Tiny {
    Two(TinyOt),
    Many(MultiTinyOt),
}

impl Tiny {
    /// Sets up the engine for the session's parties (the same `session` tag at every party);
    /// between two parties over the OT extension `two`.
    pub(crate) async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        session: &[u8],
        two: Extension,
        rng: &mut R,
    ) -> Result<Self, OtError> {
        Ok(if net.parties() == 2 {
            Tiny::Two(TinyOt::setup_with(net, session, two, rng).await?)
        } else {
            Tiny::Many(MultiTinyOt::setup(net, session, EXTENSION, rng).await?)
        })
    }

    /// This party's global key `Δ`.
    pub(crate) fn delta(&self) -> Block {
        match self {
            Tiny::Two(e) => e.delta(),
            Tiny::Many(e) => e.delta(),
        }
    }

    /// Most AND triples of one [`and_triples`](Self::and_triples) call (`None`: no bound but
    /// the caller's chunks).
    pub(crate) fn most_triples(&self) -> Option<usize> {
        match self {
            Tiny::Two(_) => None,
            Tiny::Many(_) => Some(MAX_TRIPLES),
        }
    }

    /// `count` random authenticated bits.
    pub(crate) async fn abits<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<Bits, OtError> {
        Ok(match self {
            Tiny::Two(e) => Bits::Two(e.abits(net, count, rng).await?),
            Tiny::Many(e) => Bits::Many(e.abits(net, count, rng).await?),
        })
    }

    /// `count` AND triples `⟨x⟩, ⟨y⟩, ⟨z = x·y⟩`.
    pub(crate) async fn and_triples<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<Triples, OtError> {
        Ok(match self {
            Tiny::Two(e) => Triples::Two(e.and_triples(net, count, rng).await?),
            Tiny::Many(e) => Triples::Many(Box::new(e.and_triples(net, count, rng).await?)),
        })
    }
}

/// A batch of one party's authenticated bits from either engine.
pub(crate) enum Bits {
    Two(Vec<ABit>),
    Many(NBits),
}

impl Bits {
    pub(crate) fn len(&self) -> usize {
        match self {
            Bits::Two(b) => b.len(),
            Bits::Many(b) => b.len(),
        }
    }

    /// This party's share of bit `e`.
    #[inline]
    pub(crate) fn bit(&self, e: usize) -> bool {
        match self {
            Bits::Two(b) => b[e].bit,
            Bits::Many(b) => b.bit(e),
        }
    }

    /// Bit `e` towards peer `q` (between two parties, `q` is the peer).
    #[inline]
    pub(crate) fn pair(&self, e: usize, q: PartyId) -> ABit {
        match self {
            Bits::Two(b) => b[e],
            Bits::Many(b) => b.pair(e, q),
        }
    }

    /// The batch in the n-party layout ([`NBits`]) of party `me` (between two parties, the
    /// two-party bits with the peer's slot filled).
    pub(crate) fn into_nbits(self, me: PartyId) -> NBits {
        match self {
            Bits::Two(b) => two_party_nbits(me, b.iter().copied()),
            Bits::Many(b) => b,
        }
    }
}

/// Two-party authenticated bits of party `me` in the n-party layout.
fn two_party_nbits(me: PartyId, bits: impl ExactSizeIterator<Item = ABit>) -> NBits {
    let peer = 1 - me;
    let mut out = NBits::with_capacity(2, me, bits.len());
    for b in bits {
        let mut x = NBit { bit: b.bit, macs: [0; MAX_PARTIES], keys: [0; MAX_PARTIES] };
        x.macs[peer] = b.mac;
        x.keys[peer] = b.key;
        out.push(&x);
    }
    out
}

/// A batch of one party's AND triples `x, y, z` from either engine.
pub(crate) enum Triples {
    Two(Vec<[ABit; 3]>),
    Many(Box<[NBits; 3]>),
}

impl Triples {
    /// No triples.
    pub(crate) fn none() -> Self {
        Triples::Two(Vec::new())
    }

    /// This party's share of component `which` (0: x, 1: y, 2: z) of triple `e`.
    #[inline]
    pub(crate) fn bit(&self, which: usize, e: usize) -> bool {
        match self {
            Triples::Two(t) => t[e][which].bit,
            Triples::Many(t) => t[which].bit(e),
        }
    }

    /// The triples' three components in the n-party layout ([`NBits`]) of party `me`.
    pub(crate) fn into_nbits(self, me: PartyId) -> [NBits; 3] {
        match self {
            Triples::Two(t) => {
                core::array::from_fn(|which| two_party_nbits(me, t.iter().map(|triple| triple[which])))
            }
            Triples::Many(t) => *t,
        }
    }
}
