//! Spdz2k triples from OT (Spdz2k §4 Π_Triple, after MASCOT's Multiply / Combine / Sacrifice):
//! the unauthenticated products here, the sacrifice after [`super::cope`] authenticated them.
//!
//! **Multiply.** Per triple each party samples τ bits `a^i_1..a^i_τ` and `b^i ∈ Z_{2^(k+s)}`.
//! The cross products `a^i_l · b^j` (every ordered pair i ≠ j) come from random OT: party i is
//! the receiver with choice
//! bit `a^i_l` (keys `H(q)`, `H(q ⊕ Δ)` of a correlated OT, hashed with the tweakable
//! correlation-robust hash), party j the sender with messages `(m_0, m_1)`; j sends
//! `d = m_0 − m_1 + b^j`, i keeps `m_{a} + a·d = m_0 + a·b^j` and j keeps `−m_0` (modulo
//! 2^(k+s); the choice bit enters as a mask). So `c_l = a_l·b` for `a_l = Σ_i a^i_l` (an
//! integer 0..n) and `b = Σ_i b^i`. Correlated OTs: SoftSpoken ([`crate::ot::softspoken`]).
//!
//! **Combine.** Public coefficients `r_l, r̂_l ∈ Z_{2^(k+s)}` tossed after the products give
//! two triples with the same b: `a = Σ r_l a_l`, `c = Σ r_l c_l` and `â = Σ r̂_l a_l`,
//! `ĉ = Σ r̂_l c_l`. A corrupt OT sender can make `c_l` wrong depending on an honest bit
//! `a^h_l` and learn that bit from whether the sacrifice fails (probability 1/2 per bit). The
//! map `x ↦ (Σ r_l x_l, Σ r̂_l x_l)` on {0,1}^τ is universal (two bit vectors differ by ±1 in
//! some coordinate, a unit), so by the leftover hash lemma (a, â) stays within 2^-41 of uniform
//! when τ = 2(k+s) + 120 and at most 40 honest bits leaked — and leaking more than 40 passes
//! the sacrifice with probability below 2^-40.
//!
//! **Sacrifice** (after authentication): coins `t ∈ Z_{2^s}` per triple; open `ρ = t·a − â`
//! (uniform: â is), then `σ = t·c − ĉ − ρ·b`, and require σ ≡ 0 modulo 2^(k+s)
//! ([`Check::ArithSacrifice`]); the batched MAC check covers both openings. With c = ab + e and
//! ĉ = âb + ê, σ = t·e − ê: an e wrong in its low k bits passes for at most one t in 2^s.

use rand_core::{CryptoRng, RngCore};

use crate::net::Network;
use crate::ot::prg::{Prg, TccrHash};
use crate::ot::tinyot::SOFTSPOKEN_K;
use crate::ot::{Block, ExtReceiver, ExtSender, Extension};
use crate::proto::coral::checks::coin_toss;
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::{Channel, Step};

use super::super::checks::{open, RingLog};
use super::super::ring::{ArithRing, S};
use super::super::share::AShare;

/// The OT extension behind the products.
pub const EXTENSION: Extension = Extension::SoftSpoken { k: SOFTSPOKEN_K };

/// Statistical slack of the combine step (see the module docs).
const SLACK: usize = 120;

/// Triples per chunk of OTs (bounds the memory of one extension).
pub const CHUNK: usize = 256;

/// τ, the bits per triple.
pub fn tau(ring: ArithRing) -> usize {
    2 * ring.share_bits() as usize + SLACK
}

/// Both directions of correlated OT with one peer.
struct PeerOt {
    sender: ExtSender,
    receiver: ExtReceiver,
    sent: u128,
    received: u128,
}

/// Correlated OT with every peer, both directions.
pub struct Multiplier {
    peers: Vec<Option<PeerOt>>,
    hash: TccrHash,
}

impl core::fmt::Debug for Multiplier {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Multiplier(..)")
    }
}

/// One party's unauthenticated shares of combined triples.
#[derive(Debug, Default)]
pub struct RawTriples {
    /// `a` of every triple.
    pub a: Vec<u128>,
    /// `â`.
    pub a_hat: Vec<u128>,
    /// `b`.
    pub b: Vec<u128>,
    /// `c`.
    pub c: Vec<u128>,
    /// `ĉ`.
    pub c_hat: Vec<u128>,
}

impl Multiplier {
    /// OT-extension setups with every peer in both directions (pairs in the order of
    /// [`super::cope::RingCope::setup`], the lower index sending first).
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        session: &[u8],
        rng: &mut R,
    ) -> Result<Self, CoralError> {
        let me = net.party();
        let tag = |sender: usize, receiver: usize| {
            [b"chorus/coral/spdz2k/mult/".as_slice(), session, &[sender as u8, receiver as u8]].concat()
        };
        let mut peers = Vec::with_capacity(net.parties());
        for peer in 0..net.parties() {
            if peer == me {
                peers.push(None);
                continue;
            }
            let delta = u128::from(rng.next_u64()) | u128::from(rng.next_u64()) << 64;
            let (sender, receiver) = if me < peer {
                let s = ExtSender::setup_with_delta(net, peer, &tag(me, peer), EXTENSION, delta, rng).await?;
                (s, ExtReceiver::setup(net, peer, &tag(peer, me), EXTENSION, rng).await?)
            } else {
                let r = ExtReceiver::setup(net, peer, &tag(peer, me), EXTENSION, rng).await?;
                (ExtSender::setup_with_delta(net, peer, &tag(me, peer), EXTENSION, delta, rng).await?, r)
            };
            peers.push(Some(PeerOt { sender, receiver, sent: 0, received: 0 }));
        }
        Ok(Multiplier { peers, hash: TccrHash::default() })
    }

    /// This party's shares of `a_l·b` summed over every cross term it takes part in, for the
    /// bits `bits` (τ per triple) and elements `bs` (one per triple), one chunk.
    async fn products<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        ring: ArithRing,
        channel: &mut Channel,
        net: &mut N,
        bits: &[bool],
        bs: &[u128],
        rng: &mut R,
    ) -> Result<Vec<u128>, CoralError> {
        let me = net.party();
        let n = self.peers.len();
        let tau = bits.len() / bs.len();
        let count = bits.len();
        let mut shares = vec![0u128; count];
        let mut payloads = vec![Vec::new(); n];
        let mut received = vec![Vec::new(); n];
        let mut pairs: Vec<[Block; 2]> = Vec::with_capacity(count);
        for (peer, state) in self.peers.iter_mut().enumerate() {
            let Some(state) = state else { continue };
            let (q, t) = if me < peer {
                let q = state.sender.extend_correlated(net, count, rng).await?;
                (q, state.receiver.extend_correlated(net, bits, rng).await?)
            } else {
                let t = state.receiver.extend_correlated(net, bits, rng).await?;
                (state.sender.extend_correlated(net, count, rng).await?, t)
            };
            // Sender role: the corrections d and this party's shares −m_0.
            pairs.clear();
            self.hash.hash_pairs_into(state.sent, &q, state.sender.delta(), &mut pairs);
            state.sent = state.sent.wrapping_add(count as u128);
            let mut d = Vec::with_capacity(count);
            for (j, ([m0, m1], share)) in pairs.iter().zip(shares.iter_mut()).enumerate() {
                d.push(m0.wrapping_sub(*m1).wrapping_add(bs[j / tau]));
                *share = share.wrapping_sub(*m0);
            }
            payloads[peer] = ring.pack(&d);
            // Receiver role: the keys m_a, combined with the peer's corrections below.
            let mut keys = t;
            self.hash.hash_in_place(state.received, &mut keys);
            state.received = state.received.wrapping_add(count as u128);
            received[peer] = keys;
        }
        let all = channel.pairwise(net, Step::ArithOtMultiply, payloads).await?;
        for (peer, keys) in received.iter().enumerate().filter(|(p, _)| *p != me) {
            let d = ring.unpack(&all[peer], count, peer, Step::ArithOtMultiply)?;
            for ((share, key), (&bit, &d)) in shares.iter_mut().zip(keys).zip(bits.iter().zip(&d)) {
                let mask = 0u128.wrapping_sub(u128::from(bit));
                *share = share.wrapping_add(*key).wrapping_add(d & mask);
            }
        }
        Ok(shares)
    }

    /// `count` combined triples (Multiply and Combine), unauthenticated.
    pub async fn triples<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        ring: ArithRing,
        channel: &mut Channel,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<RawTriples, CoralError> {
        let tau = tau(ring);
        let mut out = RawTriples::default();
        let mut done = 0;
        while done < count {
            let n = CHUNK.min(count - done);
            let words: Vec<u64> = (0..(n * tau).div_ceil(64)).map(|_| rng.next_u64()).collect();
            let bits: Vec<bool> = (0..n * tau).map(|i| (words[i / 64] >> (i % 64)) & 1 == 1).collect();
            let bs: Vec<u128> = (0..n)
                .map(|_| ring.from_random(u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())))
                .collect();
            let cross = self.products(ring, channel, net, &bits, &bs, rng).await?;
            // The coefficients come after the products are fixed.
            let mut coins = coin_toss(channel, net, rng).await?;
            let mut key = [0u8; 16];
            coins.fill_bytes(&mut key);
            let mut prg = Prg::new(Block::from_le_bytes(key));
            let mut r = vec![0 as Block; 2 * tau];
            for j in 0..n {
                prg.fill(&mut r);
                let (mut a, mut a_hat, mut c, mut c_hat) = (0u128, 0u128, 0u128, 0u128);
                for l in 0..tau {
                    let bit = 0u128.wrapping_sub(u128::from(bits[j * tau + l]));
                    // This party's share of c_l: its own a_l·b plus the cross terms.
                    let c_l = (bs[j] & bit).wrapping_add(cross[j * tau + l]);
                    let (rl, rh) = (r[2 * l], r[2 * l + 1]);
                    a = a.wrapping_add(rl & bit);
                    a_hat = a_hat.wrapping_add(rh & bit);
                    c = c.wrapping_add(rl.wrapping_mul(c_l));
                    c_hat = c_hat.wrapping_add(rh.wrapping_mul(c_l));
                }
                out.a.push(ring.reduce(a));
                out.a_hat.push(ring.reduce(a_hat));
                out.b.push(bs[j]);
                out.c.push(ring.reduce(c));
                out.c_hat.push(ring.reduce(c_hat));
            }
            done += n;
        }
        Ok(out)
    }
}

/// The sacrifice of authenticated triples `(a, b, c)` against `(â, b, ĉ)`: opens ρ and σ into
/// `log` (the caller runs the batched MAC check after) and checks σ ≡ 0.
pub async fn sacrifice<N: Network, R: RngCore + CryptoRng>(
    ring: ArithRing,
    channel: &mut Channel,
    net: &mut N,
    rng: &mut R,
    triples: &[[AShare; 5]],
    log: &mut RingLog,
) -> Result<(), CoralError> {
    let mut coins = coin_toss(channel, net, rng).await?;
    let mut key = [0u8; 16];
    coins.fill_bytes(&mut key);
    let ts: Vec<u128> = Prg::new(Block::from_le_bytes(key))
        .blocks(triples.len())
        .into_iter()
        .map(|b| b & ((1u128 << S) - 1))
        .collect();
    let rho: Vec<AShare> = triples.iter().zip(&ts).map(|([a, a_hat, ..], &t)| a.scale(t) - *a_hat).collect();
    let rho = open(ring, channel, net, Step::ArithSacrifice, &rho, log).await?;
    let sigma: Vec<AShare> = triples
        .iter()
        .zip(&ts)
        .zip(&rho)
        .map(|(([_, _, b, c, c_hat], &t), &rho)| c.scale(t) - *c_hat - b.scale(rho))
        .collect();
    let sigma = open(ring, channel, net, Step::ArithSacrifice, &sigma, log).await?;
    if sigma.iter().any(|&s| s != 0) {
        return Err(CoralError::failed(Check::ArithSacrifice));
    }
    Ok(())
}
