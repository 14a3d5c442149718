//! COPE over Z_{2^(k+s)} between every pair of parties, both directions at once: authenticating
//! ring elements under each peer's s-bit MAC-key share (the `[[·]]` of Spdz2k §4, MASCOT's Π_COPE with
//! the key's bits as choices — the ring form of [`crate::ot::cope`] and of Coral's
//! [`crate::proto::coral::prep::ot::cope`]).
//!
//! **Setup.** For every ordered pair, the key holder P (key α_P ∈ Z_{2^s}) is the receiver of s
//! random base OTs with the bits α_{P,l} of its key as choices: it learns one seed `k_l^{α_l}`,
//! the input side both (the shared seed layer, [`crate::ot::cope::columns::PeerSeeds`]). The
//! columns are ring elements, not F_2-vectors, so their expansion is this module's own.
//!
//! **Extension.** For elements x_1..x_L of the input side (one frame to each peer per chunk), column l of element e uses
//! `t^b_{l,e}` = the e-th block of `G(k_l^b)` reduced modulo 2^(k+s). The input side sends
//! `u_{l,e} = t^0_{l,e} − t^1_{l,e} + x_e`; the key holder computes
//! `q_{l,e} = t^{α_l}_{l,e} + α_l·u_{l,e} = t^0_{l,e} + α_l·x_e` (α_l enters as a mask, not a branch).
//! With `q_e = Σ_l 2^l q_{l,e}` and the input side's `t_e = −Σ_l 2^l t^0_{l,e}`,
//! `q_e + t_e = α_P·x_e` modulo 2^(k+s): additive shares of the MAC. Column l only matters
//! modulo 2^(k+s−l), so it is sent with ⌈(k+s−l)/8⌉ bytes per element.
//!
//! **What this alone guarantees.** A corrupt input side may use a different x in each column;
//! the key holder's share then carries an error `Σ_l 2^l α_l δ_l` that depends on its key bits.
//! The check in [`super`] (Π_Auth's random combination) catches inconsistent columns; what it
//! cannot exclude is a guess of a few key bits, each halving the chance of passing — the
//! selective-failure leakage MASCOT and Spdz2k accept (the MAC then forges with probability
//! 2^-(s−ℓ) after a guess of ℓ bits that succeeded with probability 2^-ℓ).

use rand_core::{CryptoRng, RngCore};

use crate::net::{Network, PartyId};
use crate::ot::cope::pairwise::{Pairwise, PairwiseOutput, PeerColumns};
use crate::proto::coral::error::CoralError;
use crate::proto::coral::messages::{Channel, ColumnFrames, Step};

use super::super::ring::{ArithRing, S};
use crate::ot::prg::Prg;

const BASE_TAG: &[u8] = b"chorus/coral/spdz2k/cope/base/v1";

/// Elements per frame of columns (bounds the memory of one exchange).
pub const CHUNK: usize = 1 << 12;

/// Bytes of column l for one element.
fn column_width(ring: ArithRing, l: u32) -> usize {
    (ring.share_bits() - l).div_ceil(8) as usize
}

/// Bytes of the columns of `count` elements.
pub fn column_bytes(ring: ArithRing, count: usize) -> usize {
    (0..S).map(|l| column_width(ring, l)).sum::<usize>() * count
}

/// COPE state with one peer (both directions).
struct PeerCope {
    ring: ArithRing,
    /// Key-holder side: all ones where α_l = 1.
    masks: Vec<u128>,
    /// Key-holder side: the seed `k_l^{α_l}` of each column.
    chosen: Vec<Prg>,
    /// Input side: both seeds of each of the peer's columns.
    pairs: Vec<[Prg; 2]>,
}

/// One party's COPE state with every other party.
pub struct RingCope(Pairwise<PeerCope>);

impl core::fmt::Debug for RingCope {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("RingCope(..)")
    }
}

/// The outputs of one extension at one party, per peer (empty at this party's own index):
/// `own[j][e]` is `t_e` for this party's element e under peer j's key (j holds
/// `q_e = α_j·x_e − t_e`); `peer[j][e]` is `q_e` for peer j's element e under this party's key
/// (j holds `t_e` with `q_e + t_e = α_self·x_e`).
pub type RingCopeOutput = PairwiseOutput<u128>;

impl PairwiseOutput<u128> {
    /// This party's share of `Σ_{j≠i} (α_j·x_i + α_i·x_j)` for element e: every COPE output of
    /// that element summed.
    pub fn cross_mac(&self, e: usize) -> u128 {
        self.own
            .iter()
            .chain(&self.peer)
            .filter(|v| !v.is_empty())
            .fold(0u128, |acc, v| acc.wrapping_add(v[e]))
    }
}

impl RingCope {
    /// Base OTs with every peer in both directions, this party's key `alpha` (< 2^s) as its
    /// choices ([`Pairwise::setup`]). All parties use the same `session` tag, fresh per run.
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        ring: ArithRing,
        session: &[u8],
        alpha: u128,
        rng: &mut R,
    ) -> Result<Self, CoralError> {
        let bits: Vec<bool> = (0..S).map(|l| (alpha >> l) & 1 == 1).collect();
        let masks: Vec<u128> = bits.iter().map(|&b| 0u128.wrapping_sub(u128::from(b))).collect();
        let inner = Pairwise::setup(net, BASE_TAG, session, &bits, S as usize, CHUNK, rng, |seeds| {
            PeerCope { ring, masks: masks.clone(), chosen: seeds.chosen, pairs: seeds.pairs }
        })
        .await?;
        Ok(RingCope(inner))
    }

    /// Authenticates this party's elements `own` under every peer's key, and every peer's as many
    /// elements under this party's key (all parties contribute vectors of the same length), in
    /// ⌈len/[`CHUNK`]⌉ exchanges.
    pub async fn extend<N: Network>(
        &mut self,
        channel: &mut Channel,
        net: &mut N,
        own: &[u128],
    ) -> Result<RingCopeOutput, CoralError> {
        let counts = vec![own.len(); net.parties()];
        self.0.extend(&mut ColumnFrames { channel, step: Step::ArithCopeColumns }, net, own, &counts).await
    }
}

impl PeerColumns for PeerCope {
    type Input = u128;
    type Output = u128;
    type Error = CoralError;

    /// Input side: the columns `u_l` (column by column, each element in ⌈(k+s−l)/8⌉ bytes) and
    /// the shares `t_e`.
    fn columns(&mut self, x: &[u128]) -> (Vec<u8>, Vec<u128>) {
        let ring = self.ring;
        let mut t = vec![0u128; x.len()];
        let (mut t0, mut t1) = (vec![0u128; x.len()], vec![0u128; x.len()]);
        let mut packed = Vec::with_capacity(column_bytes(ring, x.len()));
        for (l, [g0, g1]) in self.pairs.iter_mut().enumerate() {
            g0.fill(&mut t0);
            g1.fill(&mut t1);
            let width = column_width(ring, l as u32);
            for ((&a, &b), (&xe, te)) in t0.iter().zip(&t1).zip(x.iter().zip(t.iter_mut())) {
                let u = a.wrapping_sub(b).wrapping_add(xe);
                packed.extend_from_slice(&u.to_le_bytes()[..width]);
                *te = te.wrapping_sub(a << l);
            }
        }
        (packed, t.into_iter().map(|v| ring.reduce(v)).collect())
    }

    /// Key side: `q_e` from the peer's columns.
    fn keys(&mut self, u: &[u8], count: usize, peer: PartyId) -> Result<Vec<u128>, CoralError> {
        let ring = self.ring;
        if u.len() != column_bytes(ring, count) {
            return Err(CoralError::malformed(
                peer,
                Step::ArithCopeColumns.name(),
                format!(
                    "expected {} bytes of columns for {count} elements, got {}",
                    column_bytes(ring, count),
                    u.len()
                ),
            ));
        }
        let mut q = vec![0u128; count];
        let mut t = vec![0u128; count];
        let mut at = 0;
        for (l, (g, &mask)) in self.chosen.iter_mut().zip(&self.masks).enumerate() {
            g.fill(&mut t);
            let width = column_width(ring, l as u32);
            for (qe, &te) in q.iter_mut().zip(&t) {
                let mut w = [0u8; 16];
                w[..width].copy_from_slice(&u[at..at + width]);
                at += width;
                let column = te.wrapping_add(u128::from_le_bytes(w) & mask);
                *qe = qe.wrapping_add(column << l);
            }
        }
        Ok(q.into_iter().map(|v| ring.reduce(v)).collect())
    }
}
