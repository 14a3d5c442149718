//! COPE, the "correlated oblivious product evaluation" of MASCOT (Keller–Orsini–Scholl, CCS 2016,
//! Π_COPE), written once for every COPE in Chorus: [`columns`] is the seed-and-column layer and
//! [`pairwise`] the extension between every ordered pair of parties in frames, on which this
//! module's GF(2^128) COPE, MiniMac's per-position GF(2^8) keys, Coral's MFE-vectorised COPEe
//! over GF(2^42) and Coral's COPE over Z_{2^(k+s)} for Spdz2k all run. Each use adds only what its
//! columns carry, how outputs are read from them, how its frames are tagged, and its check.
//!
//! This module's own instance: correlated OT over GF(2^128), with the random-combination check of
//! MASCOT's Π_Auth, between two parties.
//!
//! The **sender** holds `Δ ∈ GF(2^128)`; the **receiver** inputs `x_1..x_n ∈ GF(2^128)`. Afterwards
//! the sender holds `q_j` and the receiver `t_j` with `q_j = t_j + Δ·x_j` — additive shares of
//! `Δ·x_j`, i.e. `x_j` authenticated under the sender's key (the "VOLE-style" correlation of the
//! Coral paper, §2.2.2 / §4.3.3).
//!
//! **Protocol.** Setup: 128 base OTs ([`super::base`]) in which the sender is the receiver with
//! the bits `Δ_i` of `Δ`, so it holds one seed `k_i^{Δ_i}` of each pair `(k_i^0, k_i^1)` of the
//! receiver; the sender commits to its first coin ([`super::coins`]). Authenticating `n` elements:
//! the receiver appends one random element `x_{n+1}` (it masks the check), and for each column `i`
//! and element `j` with `t^b_{ij} = G(k_i^b)_j` sends `u_{ij} = t^0_{ij} + t^1_{ij} + x_j`; the
//! sender computes `q_{ij} = t^{Δ_i}_{ij} + Δ_i·u_{ij} = t^0_{ij} + Δ_i·x_j` ([`columns`], one
//! 128-bit lane per element). With the basis `X^i`,
//! `q_j = Σ_i X^i·q_{ij}` and `t_j = Σ_i X^i·t^0_{ij}` give `q_j = t_j + Δ·x_j`.
//!
//! **Check** (MASCOT Π_Auth): coins `r_1..r_{n+1}` (fixed after the receiver's columns); the
//! receiver sends `y = Σ r_j·x_j` and `m = Σ r_j·t_j`, and the sender checks `Σ r_j·q_j = m + Δ·y`,
//! aborting with [`OtError::CheckFailed`] otherwise. A receiver that used different `x_j` in
//! different columns passes only by guessing the bits of `Δ` where they differ; `x_{n+1}` keeps
//! `y` independent of the real inputs.
//!
//! **Costs.** `2048·(n + 1)` bytes of columns (128 field elements per input, one frame without a
//! header: [`pairwise`] with one chunk over [`RawFrames`]), 32 + 32 bytes of coin and check from
//! the receiver, 64 bytes of coin opening from the sender; three flights.
//!
//! Trust model: either party may be malicious; after any error the instance refuses further use.

pub mod columns;
pub mod pairwise;
#[cfg(test)]
mod tests;

use rand_core::{CryptoRng, RngCore};

use super::coins::{ReceiverCoins, SenderCoins};
use super::{base, block, Block, OtError};
use crate::field::clmul::Backend;
use crate::field::Gf128;
use crate::net::{yield_now, Network, PartyId};
use columns::{input_column, key_column, mask, PeerSeeds};
use pairwise::{ColumnWire, Pairwise, PeerColumns};

const BASE_TAG: &[u8] = b"chorus/ot/cope/base/v1";

/// `Σ_i X^i·v_i` in GF(2^128) for the 128 column values `v_i` of one element.
fn combine(values: impl Iterator<Item = Block>) -> Gf128 {
    let (mut lo, mut hi) = (0u128, 0u128);
    for (i, v) in values.enumerate() {
        lo ^= v << i;
        if i > 0 {
            hi ^= v >> (128 - i);
        }
    }
    Gf128::reduce([lo, hi])
}

/// `Σ r_j·v_j` in GF(2^128) (one reduction).
fn inner(backend: Backend, r: &[Block], v: &[Gf128]) -> Gf128 {
    let v: Vec<Block> = v.iter().map(|x| x.value()).collect();
    Gf128::reduce(backend.xor_sum_of_products128(r, &v))
}

/// The columns of this COPE with its peer (`E_h(x) = x`, one 128-bit lane per element): the
/// sender holds the chosen seeds and its key bits as masks, the receiver the seed pairs.
struct Gf128Columns {
    masks: Vec<Block>,
    seeds: PeerSeeds,
}

impl PeerColumns for Gf128Columns {
    type Input = Gf128;
    type Output = Gf128;
    type Error = OtError;

    /// Receiver: the columns `u_i` (column-major, 16 bytes per element) and `t_j = Σ_i X^i·t^0_{ij}`.
    fn columns(&mut self, x: &[Gf128]) -> (Vec<u8>, Vec<Gf128>) {
        let m = x.len();
        let lanes: Vec<Block> = x.iter().map(|x| x.value()).collect();
        let mut t0 = vec![0u128; 128 * m];
        let mut u = vec![0u128; 128 * m];
        for ((pair, col), u) in
            self.seeds.pairs.iter_mut().zip(t0.chunks_exact_mut(m.max(1))).zip(u.chunks_exact_mut(m.max(1)))
        {
            input_column(pair, &lanes, col, u);
        }
        let mut msg = Vec::new();
        block::put_blocks(&mut msg, &u);
        (msg, (0..m).map(|j| combine((0..128).map(|i| t0[i * m + j]))).collect())
    }

    /// Sender: `q_j = Σ_i X^i·q_{ij}` from the receiver's columns for `m` elements.
    fn keys(&mut self, u: &[u8], m: usize, _peer: PartyId) -> Result<Vec<Gf128>, OtError> {
        let u = block::get_blocks("cope columns", u, self.seeds.chosen.len() * m)?;
        let mut cols = vec![0u128; 128 * m];
        for ((prg, &mask), (col, u)) in self
            .seeds
            .chosen
            .iter_mut()
            .zip(&self.masks)
            .zip(cols.chunks_exact_mut(m.max(1)).zip(u.chunks_exact(m.max(1))))
        {
            key_column(prg, mask, u, col);
        }
        Ok((0..m).map(|j| combine((0..128).map(|i| cols[i * m + j]))).collect())
    }
}

/// This COPE's frames: the columns as they are, one frame per direction that has elements
/// (two parties in lockstep need no tags; a wrong length is [`OtError::Malformed`]).
pub(crate) struct RawFrames;

impl ColumnWire for RawFrames {
    type Error = OtError;

    async fn exchange<N: Network>(
        &mut self,
        net: &mut N,
        frames: Vec<Option<Vec<u8>>>,
        sent: usize,
        received: &[usize],
    ) -> Result<Vec<Vec<u8>>, OtError> {
        if sent > 0 {
            for (p, frame) in frames.into_iter().enumerate() {
                if let Some(frame) = frame {
                    net.send(p, frame)?;
                }
            }
            yield_now().await;
        }
        let mut all = vec![Vec::new(); received.len()];
        for (p, &count) in received.iter().enumerate() {
            if count > 0 {
                all[p] = net.recv(p).await?;
            }
        }
        Ok(all)
    }
}

/// A COPE of this party with `peer` alone, in one frame per extension.
fn one_peer(net: &impl Network, peer: PartyId, columns: Gf128Columns) -> Pairwise<Gf128Columns> {
    let mut peers: Vec<Option<Gf128Columns>> = (0..net.parties()).map(|_| None).collect();
    peers[peer] = Some(columns);
    Pairwise::from_peers(peers, usize::MAX)
}

/// The sender of COPE: holds `Δ`, learns `q_j = t_j + Δ·x_j`.
pub struct CopeSender {
    peer: PartyId,
    delta: Gf128,
    pairs: Pairwise<Gf128Columns>,
    coins: SenderCoins,
    backend: Backend,
    failed: bool,
}

/// The receiver of COPE: inputs `x_j`, learns `t_j`.
pub struct CopeReceiver {
    peer: PartyId,
    pairs: Pairwise<Gf128Columns>,
    coins: ReceiverCoins,
    backend: Backend,
    failed: bool,
}

impl core::fmt::Debug for CopeSender {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CopeSender").field("peer", &self.peer).finish_non_exhaustive()
    }
}

impl core::fmt::Debug for CopeReceiver {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CopeReceiver").field("peer", &self.peer).finish_non_exhaustive()
    }
}

impl CopeSender {
    /// Setup with `peer` (running [`CopeReceiver::setup`] with the same `session`), with a random `Δ`.
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        peer: PartyId,
        session: &[u8],
        rng: &mut R,
    ) -> Result<Self, OtError> {
        net.check_peer(peer)?;
        let delta = rng.next_u64() as u128 | (rng.next_u64() as u128) << 64;
        let choices: Vec<bool> = (0..128).map(|i| (delta >> i) & 1 == 1).collect();
        let seeds = base::receive_random(net, peer, &choices, &[BASE_TAG, session].concat(), rng).await?;
        let masks = choices.iter().map(|&bit| mask(bit)).collect();
        let backend = Backend::detect();
        let columns = Gf128Columns { masks, seeds: PeerSeeds::new(seeds, []) };
        let (coins, commitment) = SenderCoins::new(session, rng);
        net.send(peer, commitment)?;
        yield_now().await;
        let pairs = one_peer(net, peer, columns);
        Ok(CopeSender { peer, delta: Gf128::new(delta), pairs, coins, backend, failed: false })
    }

    /// `Δ`.
    pub fn delta(&self) -> Gf128 {
        self.delta
    }

    /// The sender's side of authenticating `n` receiver elements: `q_j` for each.
    pub async fn authenticate<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        n: usize,
        rng: &mut R,
    ) -> Result<Vec<Gf128>, OtError> {
        super::begin_step(&mut self.failed, "COPE instance")?;
        let m = n + 1;
        let mut counts = vec![0; net.parties()];
        counts[self.peer] = m;
        let q =
            core::mem::take(&mut self.pairs.extend(&mut RawFrames, net, &[], &counts).await?.peer[self.peer]);

        let (open, mut coins) = self.coins.open(&net.recv(self.peer).await?, "cope receiver coin", rng)?;
        net.send(self.peer, open)?;
        let r = coins.blocks(m);
        let check = block::get_blocks("cope check", &net.recv(self.peer).await?, 2)?;
        let (y, mac) = (Gf128::new(check[0]), Gf128::new(check[1]));
        if inner(self.backend, &r, &q) != mac + self.delta * y {
            return Err(OtError::CheckFailed { check: "cope random-combination check" });
        }
        self.failed = false;
        Ok(q[..n].to_vec())
    }
}

impl CopeReceiver {
    /// Setup with `peer` (running [`CopeSender::setup`] with the same `session`).
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        peer: PartyId,
        session: &[u8],
        rng: &mut R,
    ) -> Result<Self, OtError> {
        net.check_peer(peer)?;
        let pairs = base::send_random(net, peer, 128, &[BASE_TAG, session].concat(), rng).await?;
        let backend = Backend::detect();
        let columns = Gf128Columns { masks: Vec::new(), seeds: PeerSeeds::new([], pairs) };
        let coins = ReceiverCoins::new(session, &net.recv(peer).await?, "cope coin commitment")?;
        Ok(CopeReceiver { peer, pairs: one_peer(net, peer, columns), coins, backend, failed: false })
    }

    /// Authenticates `xs` under the sender's `Δ`: returns `t_j` with `q_j = t_j + Δ·x_j`.
    pub async fn authenticate<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        xs: &[Gf128],
        rng: &mut R,
    ) -> Result<Vec<Gf128>, OtError> {
        super::begin_step(&mut self.failed, "COPE instance")?;
        let mut x: Vec<Gf128> = xs.to_vec();
        x.push(Gf128::new(rng.next_u64() as u128 | (rng.next_u64() as u128) << 64));
        let m = x.len();
        let counts = vec![0; net.parties()];
        let t =
            core::mem::take(&mut self.pairs.extend(&mut RawFrames, net, &x, &counts).await?.own[self.peer]);

        let seed = ReceiverCoins::fresh(rng);
        net.send(self.peer, seed.to_vec())?;
        let opening = net.recv(self.peer).await?;
        let r =
            self.coins.verify(&opening, &seed, "cope coin opening", "cope sender coin commitment")?.blocks(m);
        let mut check = Vec::new();
        block::put_blocks(
            &mut check,
            &[inner(self.backend, &r, &x).value(), inner(self.backend, &r, &t).value()],
        );
        net.send(self.peer, check)?;
        self.failed = false;
        Ok(t[..xs.len()].to_vec())
    }
}
