//! COPE over F = GF(2^42) between the two parties, in both directions at once: the vectorised
//! COPEe of the paper (§4.3.3, Fig. 16 functionality, Fig. 18 protocol over the vOLE of Fig. 17)
//! instantiated with the trivial "MFE" σ = bit decomposition, ρ = Σ_i X^i·(·), t = m = 42 —
//! i.e. MASCOT's IKNP-style COPE of Fig. 1, carried out directly in Coral's MAC field.
//!
//! **Setup.** Party P holds its key share α_P ∈ F. For each of the 42 bits α_P[i] the parties run
//! one random base OT (Masny–Rindal, [`crate::ot::base`]) in which P is the *receiver* with choice
//! bit α_P[i]: P learns the seed `k_i^{α_P[i]}`, the peer learns both seeds `(k_i^0, k_i^1)`. Both
//! directions are set up (84 base OTs in all); the choice bits enter only masks, never branches.
//!
//! **Extension** (Fig. 18 step 2, one vOLE per column i with scalar α_P[i] ∈ F_2 and a vector in
//! F^L): the peer (the receiver of the correlation, inputs `x_1..x_L`) expands
//! `t^b_{ij} = G(k_i^b)_j` and sends `u_{ij} = t^0_{ij} + t^1_{ij} + x_j`; P computes
//! `q_{ij} = t^{α_P[i]}_{ij} + α_P[i]·u_{ij} = t^0_{ij} + α_P[i]·x_j`. Step 3 (ρ):
//! `q_j = Σ_i X^i q_{ij}`, `t_j = Σ_i X^i t^0_{ij}` give `q_j = t_j + α_P·x_j`. One frame
//! ([`Step::CopeColumns`]) per direction and chunk of [`CHUNK`] elements carries
//! 42 · 42 bits per element; a truncated or padded frame is a typed
//! [`CoralError::Malformed`], a replayed one an [`CoralError::UnexpectedFrame`].
//!
//! **What this alone guarantees** (Fig. 16, "with errors"): a corrupt receiver may use a
//! different x in every column, i.e. input a 42-bit matrix X; the honest P then holds
//! `q_j = t_j + Σ_i X^i α_P[i] X_{ij}`, not necessarily of the form `α_P·x'`. A corrupt P can only
//! pick its own α_P (the base OT choices fix it). The inconsistency is caught by the
//! authentication check of [`super::auth`] (Π_Auth), not here.

use rand_core::{CryptoRng, RngCore};

use crate::net::Network;
use crate::ot::base;
use crate::ot::prg::Prg;
use crate::proto::coral::error::CoralError;
use crate::proto::coral::messages::{pack_elements, unpack_elements, Channel, Step};
use crate::proto::coral::share::{CoralParams, FIELD_BITS};

const BASE_TAG: &[u8] = b"chorus/coral/prep/cope/base/v1";
const MASK: u64 = (1 << FIELD_BITS) - 1;

/// Elements per frame of columns (bounds the memory of one exchange).
pub const CHUNK: usize = 1 << 13;

/// One party's COPE state with its peer (both directions).
pub(crate) struct Cope {
    alpha: u64,
    /// Key-holder side: the seed `k_i^{α[i]}` of each column.
    chosen: Vec<Prg>,
    /// Input side: both seeds of each of the peer's columns.
    pairs: Vec<[Prg; 2]>,
}

impl core::fmt::Debug for Cope {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Cope(..)")
    }
}

/// The outputs of one extension at one party.
pub(crate) struct CopeOutput {
    /// `t_j` for this party's inputs (the peer holds `q_j = t_j + α_peer·x_j`).
    pub own: Vec<u64>,
    /// `q_j` for the peer's inputs (the peer holds `t_j` with `q_j = t_j + α_self·x_j`).
    pub peer: Vec<u64>,
}

impl Cope {
    /// Base OTs in both directions; `alpha` is this party's key share. Both parties use the same
    /// `session` tag, fresh per run.
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        session: &[u8],
        alpha: u64,
        rng: &mut R,
    ) -> Result<Self, CoralError> {
        let me = net.party();
        let peer = 1 - me;
        let choices: Vec<bool> = (0..FIELD_BITS).map(|i| (alpha >> i) & 1 == 1).collect();
        let tag = |key_holder: usize| [BASE_TAG, session, &[key_holder as u8]].concat();
        let (chosen, pairs) = if me == 0 {
            let c = base::receive_random(net, peer, &choices, &tag(0), rng).await?;
            (c, base::send_random(net, peer, FIELD_BITS, &tag(1), rng).await?)
        } else {
            let p = base::send_random(net, peer, FIELD_BITS, &tag(0), rng).await?;
            (base::receive_random(net, peer, &choices, &tag(1), rng).await?, p)
        };
        Ok(Cope {
            alpha,
            chosen: chosen.into_iter().map(Prg::new).collect(),
            pairs: pairs.into_iter().map(|[a, b]| [Prg::new(a), Prg::new(b)]).collect(),
        })
    }

    /// Authenticates this party's `own` elements under the peer's key and the peer's
    /// `peer_count` elements under this party's key, in ⌈max/[`CHUNK`]⌉ exchanges.
    pub async fn extend<N: Network>(
        &mut self,
        params: &CoralParams,
        channel: &mut Channel,
        net: &mut N,
        own: &[u64],
        peer_count: usize,
    ) -> Result<CopeOutput, CoralError> {
        let peer = 1 - net.party();
        let rounds = own.len().max(peer_count).div_ceil(CHUNK);
        let mut out = CopeOutput { own: Vec::with_capacity(own.len()), peer: Vec::with_capacity(peer_count) };
        for k in 0..rounds {
            let mine = &own[(k * CHUNK).min(own.len())..((k + 1) * CHUNK).min(own.len())];
            let theirs = ((k + 1) * CHUNK).min(peer_count).saturating_sub(k * CHUNK);
            let (u, t) = self.columns(params, mine);
            out.own.extend(t);
            let all = channel.broadcast(net, Step::CopeColumns, pack_elements(&u)).await?;
            let u = unpack_elements(&all[peer], FIELD_BITS * theirs, peer, Step::CopeColumns)?;
            out.peer.extend(self.keys(params, &u, theirs));
        }
        Ok(out)
    }

    /// Input side: the columns `u` (column-major) and `t_j`.
    fn columns(&mut self, params: &CoralParams, x: &[u64]) -> (Vec<u64>, Vec<u64>) {
        let l = x.len();
        let (mut b0, mut b1) = (vec![0u128; l], vec![0u128; l]);
        let mut acc = vec![0u128; l];
        let mut u = Vec::with_capacity(FIELD_BITS * l);
        for (i, [g0, g1]) in self.pairs.iter_mut().enumerate() {
            g0.fill(&mut b0);
            g1.fill(&mut b1);
            for (((&a, &b), &x), acc) in b0.iter().zip(&b1).zip(x).zip(acc.iter_mut()) {
                let t0 = a as u64 & MASK;
                u.push(t0 ^ (b as u64 & MASK) ^ (x & MASK));
                *acc ^= u128::from(t0) << i;
            }
        }
        (u, acc.into_iter().map(|a| params.reduce(a)).collect())
    }

    /// Key side: `q_j` from the peer's columns `u` (column-major, `m` per column).
    fn keys(&mut self, params: &CoralParams, u: &[u64], m: usize) -> Vec<u64> {
        let mut b = vec![0u128; m];
        let mut acc = vec![0u128; m];
        for (i, g) in self.chosen.iter_mut().enumerate() {
            g.fill(&mut b);
            let mask = 0u64.wrapping_sub((self.alpha >> i) & 1);
            for ((&t, &u), acc) in b.iter().zip(&u[i * m..(i + 1) * m]).zip(acc.iter_mut()) {
                *acc ^= u128::from((t as u64 & MASK) ^ (u & mask)) << i;
            }
        }
        acc.into_iter().map(|a| params.reduce(a)).collect()
    }
}
