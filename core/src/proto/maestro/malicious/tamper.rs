//! Test harness for cheating parties: a [`Network`] wrapper that corrupts one sent message, and
//! local deviations a corrupt party applies to its own shares through hooks in the malicious
//! layers.

use crate::field::Gf256;
use crate::net::{NetError, NetStats, Network, PartyId};
use crate::proto::maestro::mixed_share::{AdditiveShare, MixedShare};
use crate::proto::maestro::rss::RssShare;
use crate::proto::maestro::sbox::lut256::BitProducts;

/// A corrupt party's deviation on its own shares.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Deviation {
    /// Adds `delta` to the first component of its share of S-box input `byte` in `sub_bytes`
    /// call `call`.
    SboxInput { call: usize, byte: usize, delta: u8 },
    /// Adds `delta` to the first component of its share of S-box output `byte` in call `call`.
    SboxOutput { call: usize, byte: usize, delta: u8 },
    /// Adds `delta` to its additive share of lookup output `byte` in call `call`, before the
    /// resharing ((3,3) LUT-256).
    LookupOutput { call: usize, byte: usize, delta: u8 },
    /// Flips `bits` of its first component of preprocessed one-hot vector `index` (LUT-16 and
    /// (3,3) LUT-256; (2,3) LUT-256: of entries 16·(index mod 16) to 16·(index mod 16) + 15).
    OneHot { index: usize, bits: u16 },
    /// Adds `delta` to the first component of its share of output `byte` of call `call` when
    /// that output is recovered from the next call's input ((3,3) LUT-256, Protocol 7 step 6).
    Recovered { call: usize, byte: usize, delta: u8 },
    /// Flips product `bit` of its own component of the level with `count` products of vector
    /// `vector` ((2,3) LUT-256 preprocessing). With the same bit flipped in the message that
    /// carries it ([`product_message`]), this is an additive error in its share of the product
    /// before resharing: the sharing stays consistent, and only the triple check can catch it.
    Product { count: usize, vector: usize, bit: usize },
}

/// The flip of the sent message matching [`Deviation::Product`]: the resharing of the level
/// with `count` products is the preprocessing's message `level` (0-based) after `first`.
pub(crate) fn product_message(
    first: usize,
    level: usize,
    count: usize,
    vector: usize,
    bit: usize,
) -> MessageAttack {
    let pos = vector * count + bit;
    MessageAttack { message: first + level, count: 1, byte: pos / 8, mask: 1 << (pos % 8), also: None }
}

/// Applies a [`Deviation::Product`] to the products of vector `first + p.vector` it names.
pub(crate) fn deviate_product(deviation: Option<Deviation>, first: usize, p: &mut BitProducts) {
    if let Some(Deviation::Product { count, vector, bit }) = deviation {
        if p.count == count && first + p.vector == vector {
            p.products.0[bit / 64] ^= 1 << (bit % 64);
        }
    }
}

/// Adds `delta` to the first component of a share.
pub(crate) fn add_to_first(share: &mut RssShare, delta: u8) {
    *share = RssShare::new(share.party(), share.first() + Gf256(delta), share.second());
}

/// Adds `delta` to a state byte: to the first component of a replicated share, to the value of
/// an additive one.
pub(crate) fn add_to_mixed(share: &mut MixedShare, delta: u8) {
    *share = match *share {
        MixedShare::Replicated(mut s) => {
            add_to_first(&mut s, delta);
            MixedShare::Replicated(s)
        }
        MixedShare::Additive(a) => {
            MixedShare::Additive(AdditiveShare::new(a.party(), a.value() + Gf256(delta)))
        }
    };
}

/// XORs `mask` into byte `byte` (and byte `also`, if any; both modulo the length) of this
/// party's sent messages number `message` to `message + count − 1`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MessageAttack {
    pub(crate) message: usize,
    pub(crate) count: usize,
    pub(crate) byte: usize,
    pub(crate) mask: u8,
    pub(crate) also: Option<usize>,
}

/// A network that counts this party's sent messages and applies an optional [`MessageAttack`].
#[derive(Debug)]
pub(crate) struct TamperNet<N> {
    inner: N,
    sent: usize,
    attack: Option<MessageAttack>,
}

impl<N: Network> TamperNet<N> {
    pub(crate) fn new(inner: N, attack: Option<MessageAttack>) -> Self {
        TamperNet { inner, sent: 0, attack }
    }

    /// Messages sent so far.
    pub(crate) fn sent(&self) -> usize {
        self.sent
    }
}

impl<N: Network> Network for TamperNet<N> {
    fn party(&self) -> PartyId {
        self.inner.party()
    }

    fn parties(&self) -> usize {
        self.inner.parties()
    }

    fn send(&mut self, to: PartyId, mut msg: Vec<u8>) -> Result<(), NetError> {
        if let Some(a) =
            self.attack.filter(|a| (a.message..a.message + a.count).contains(&self.sent) && !msg.is_empty())
        {
            let len = msg.len();
            msg[a.byte % len] ^= a.mask;
            if let Some(also) = a.also {
                msg[also % len] ^= a.mask;
            }
        }
        self.sent += 1;
        self.inner.send(to, msg)
    }

    async fn recv(&mut self, from: PartyId) -> Result<Vec<u8>, NetError> {
        self.inner.recv(from).await
    }

    fn stats(&self) -> NetStats {
        self.inner.stats()
    }
}
