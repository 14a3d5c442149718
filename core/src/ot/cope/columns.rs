//! The column layer every COPE in Chorus is built on: the seeds of one ordered pair of parties
//! ([`PeerSeeds`]) and the expansion of one column ([`input_column`], [`key_column`]).
//!
//! MASCOT's Π_COPE (Keller–Orsini–Scholl, CCS 2016, Fig. 1) and Coral's vectorised COPEe (Coral
//! paper §4.3.3, Fig. 18 over Fig. 17's F_2-vOLE) are the same thing column by column: for each
//! bit `a_h` of the key holder's key vector, one random OT gives the key holder the seed
//! `k_h^{a_h}` and the input side both `k_h^0, k_h^1`; for a batch of `L` inputs the input side
//! expands `t^b_h = G(k_h^b)` and sends `u_h = t^0_h ⊕ t^1_h ⊕ E_h(x)`, the key holder computes
//! `q_h = G(k_h^{a_h}) ⊕ a_h·u_h = t^0_h ⊕ a_h·E_h(x)` — an F_2-vOLE with scalar `a_h`. What a
//! column carries differs per use and stays with it:
//!
//! - GF(2^128) ([`super::CopeSender`]): `E_h(x) = x` (one 128-bit lane per input), outputs
//!   `Σ_h X^h·q_h`;
//! - MiniMac's per-position GF(2^8) keys (`proto::minimac::prep::ot::cope`): column `(j, l)`
//!   carries byte `j` of every word, outputs `Σ_l 2^l·q_{(j,l)}` per position;
//! - Coral's MFE (`proto::coral::prep::ot::cope`): column `h` carries bit `h` of `σ(x)` of every
//!   input, outputs `ρ(q)`.
//!
//! Here a column is a run of 128-bit blocks (lanes packed little-endian: 128 one-bit, 16 one-byte
//! or one 128-bit lane per block) and `G` is the AES-CTR [`Prg`]; both ends of a seed draw the
//! same whole blocks. Seeds come from random base OTs ([`PeerSeeds::base_ots`]) or from
//! correlated OTs the caller hashes itself ([`PeerSeeds::new`]; MiniMac takes TinyOT's
//! authenticated bits). Key bits enter only as masks, never as branches or indices.
//!
//! The extension between every pair of parties in chunks is [`super::pairwise`]'s. How a frame
//! is tagged and the check of the inputs' consistency belong to each use: the GF(2^128) COPE and
//! Coral's COPE over Z_{2^(k+s)} run MASCOT's Π_Auth combination check on their own; MiniMac and
//! Coral's GF(2^42) COPE check the authenticated values inside their MAC checks (see their
//! modules), where the combination's openings join the protocol's own MAC log.

use rand_core::{CryptoRng, RngCore};

use super::super::prg::Prg;
use super::super::{base, Block, OtError};
use crate::net::{Network, PartyId};

/// One party's seeds with one peer: the key-holder side (one stream per bit of this party's key
/// vector, the one its bit chose) and the input side (both streams per bit of the peer's).
pub struct PeerSeeds {
    /// `G(k_h^{a_h})` per bit `h` of this party's key vector.
    pub chosen: Vec<Prg>,
    /// `G(k_h^0), G(k_h^1)` per bit `h` of the peer's key vector.
    pub pairs: Vec<[Prg; 2]>,
}

impl core::fmt::Debug for PeerSeeds {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PeerSeeds")
            .field("chosen", &self.chosen.len())
            .field("pairs", &self.pairs.len())
            .finish_non_exhaustive()
    }
}

impl PeerSeeds {
    /// Seeds from random OTs the caller already holds.
    pub fn new(chosen: impl IntoIterator<Item = Block>, pairs: impl IntoIterator<Item = [Block; 2]>) -> Self {
        PeerSeeds {
            chosen: chosen.into_iter().map(Prg::new).collect(),
            pairs: pairs.into_iter().map(|[a, b]| [Prg::new(a), Prg::new(b)]).collect(),
        }
    }

    /// Random base OTs with `peer` in both directions: this party receives with `choices` (its key
    /// bits, under `tags.0`) and sends `peer_bits` random pairs (under `tags.1`). The lower index
    /// receives first, so no two parties wait on each other whatever the order of their pairs.
    pub async fn base_ots<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        peer: PartyId,
        choices: &[bool],
        peer_bits: usize,
        tags: (&[u8], &[u8]),
        rng: &mut R,
    ) -> Result<Self, OtError> {
        let (chosen, pairs) = if net.party() < peer {
            let chosen = base::receive_random(net, peer, choices, tags.0, rng).await?;
            (chosen, base::send_random(net, peer, peer_bits, tags.1, rng).await?)
        } else {
            let pairs = base::send_random(net, peer, peer_bits, tags.1, rng).await?;
            (base::receive_random(net, peer, choices, tags.0, rng).await?, pairs)
        };
        Ok(PeerSeeds::new(chosen, pairs))
    }
}

/// Input side of one column: draws `t^0, t^1` (as many blocks as `x`, the column `E_h(x)`), writes
/// `t^0` to `t0` and `u_h = t^0 ⊕ t^1 ⊕ x` to `u`.
pub fn input_column(pair: &mut [Prg; 2], x: &[Block], t0: &mut [Block], u: &mut [Block]) {
    debug_assert!(t0.len() == x.len() && u.len() == x.len());
    let [g0, g1] = pair;
    g0.fill(t0);
    g1.fill(u);
    for ((u, &t), &x) in u.iter_mut().zip(t0.iter()).zip(x) {
        *u ^= t ^ x;
    }
}

/// Key side of one column: `q_h = G(k_h^{a_h}) ⊕ (mask & u_h)` into `q` (as many blocks as `u`),
/// `mask` all ones where the key bit `a_h` is 1.
pub fn key_column(chosen: &mut Prg, mask: Block, u: &[Block], q: &mut [Block]) {
    debug_assert_eq!(q.len(), u.len());
    chosen.fill(q);
    for (q, &u) in q.iter_mut().zip(u) {
        *q ^= u & mask;
    }
}

/// All ones if `bit`, else zero (a key bit as a mask).
pub fn mask(bit: bool) -> Block {
    0u128.wrapping_sub(u128::from(bit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    /// Both ends of one column: `q = t^0 ⊕ a·x` for either key bit, from the same seeds.
    #[test]
    fn a_column_gives_the_key_holder_t0_plus_its_bit_times_x() {
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        for a in [false, true] {
            let (k0, k1) = (rng.next_u64() as u128, rng.next_u64() as u128);
            let x: Vec<Block> =
                (0..5).map(|_| rng.next_u64() as u128 | (rng.next_u64() as u128) << 64).collect();
            let (mut t0, mut u, mut q) = (vec![0; 5], vec![0; 5], vec![0; 5]);
            input_column(&mut [Prg::new(k0), Prg::new(k1)], &x, &mut t0, &mut u);
            key_column(&mut Prg::new(if a { k1 } else { k0 }), mask(a), &u, &mut q);
            for j in 0..5 {
                assert_eq!(q[j], t0[j] ^ (x[j] & mask(a)), "lane block {j}, a = {a}");
            }
        }
    }
}
