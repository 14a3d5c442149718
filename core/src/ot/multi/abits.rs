//! Authenticated bits for n parties: pairwise correlated OT, then the cross-pair consistency
//! check (HSS17's n-party F_aBit; WRK17 §3 — see the [parent module](super)).
//!
//! **Pairwise.** For every peer j (all pairs at once), the two OT extensions with j run on this
//! party's random shares `x_1..x_m` as choice bits: this party learns `M_j[x_e]`, j learns
//! `K_j[x_e]` under its `Δ_j`; and the other way round for j's shares.
//!
//! **Check.** The batch carries [`MASK_BITS`] extra bits. After the extensions the parties toss
//! coins `χ_1..χ_m ∈ GF(2^128)` and give the extra bits the coefficients `X^0..X^127`; each party
//! broadcasts `y^i = Σ_e χ_e·x^i_e` (uniform: the extra bits mask it). The MACs combine the same
//! way, `M_j[y^i] = K_j[y^i] ⊕ y^i·Δ_j`, so with `y = ⊕_i y^i`
//!
//! `Z_i = (y ⊕ y^i)·Δ_i ⊕ ⊕_{j≠i} (M_j[y^i] ⊕ K_i[y^j])`
//!
//! XOR to zero over the parties (each key meets its MAC; each `y^i·Δ_j` with i ≠ j appears once
//! from a MAC and once in j's first term). The `Z_i` are compared by commit-then-open together
//! with each party's digest of the `y` it received (`commit`). A party that used shares
//! `x'` with peer h other than the `x` it used elsewhere must broadcast a `y^i` that equals both
//! combinations, or leave `(y^i ⊕ Σ χ_e x'_e)·Δ_h` in the sum — unknown to it while `Δ_h` is
//! secret; the coins come after the extensions, so two different share vectors give the same
//! combination with probability 2^-128. The extra bits are dropped afterwards, so the broadcast
//! `y^i` reveals nothing about the bits kept.

use std::borrow::Cow;

use rand_core::{CryptoRng, RngCore};

use super::commit::echo_digest;
use super::{peers, MultiTinyOt, NBits};
use crate::field::Gf128;
use crate::net::Network;
use crate::ot::block::{self, BLOCK_BYTES};
use crate::ot::prg::Prg;
use crate::ot::tinyot::mask;
use crate::ot::{Block, OtError};

/// Extra authenticated bits per batch that mask the broadcast combinations.
pub const MASK_BITS: usize = 128;

impl MultiTinyOt {
    /// Authenticated bits for the shares `bits`, without the consistency check.
    async fn raw_abits<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        bits: Vec<bool>,
        rng: &mut R,
    ) -> Result<NBits, OtError> {
        let (me, n) = (self.me, self.parties);
        #[allow(unused_mut)]
        let mut choices: Vec<Cow<'_, [bool]>> = (0..n).map(|_| Cow::Borrowed(&bits[..])).collect();
        #[cfg(test)]
        if let Some(super::Cheat::InconsistentBit { peer, index }) = self.cheat {
            choices[peer].to_mut()[index] ^= true;
        }
        let (keys, macs): (Vec<_>, Vec<_>) = self.pair_ots(net, &choices, rng).await?.into_iter().unzip();
        drop(choices);
        Ok(NBits::from_columns(me, bits, &macs, &keys))
    }

    /// `count` authenticated bits whose shares every party used consistently with all peers.
    pub(super) async fn checked_abits<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        count: usize,
        rng: &mut R,
    ) -> Result<NBits, OtError> {
        let (me, n) = (self.me, self.parties);
        let bits: Vec<bool> = (0..count + MASK_BITS).map(|_| rng.next_u32() & 1 == 1).collect();
        let mut raw = self.raw_abits(net, bits, rng).await?;
        let coins = self.coins(net, rng).await?;
        let mut chi = Prg::new(u128::from_le_bytes(coins[..16].try_into().expect("16 bytes"))).blocks(count);
        chi.extend((0..MASK_BITS).map(|m| 1u128 << m));

        let y = raw.shares().iter().zip(&chi).fold(0, |s, (&b, &c)| s ^ (c & mask(b)));
        for j in peers(me, n) {
            net.send(j, y.to_le_bytes().to_vec())?;
        }
        let mut ys = vec![y.to_le_bytes().to_vec(); n];
        for j in peers(me, n) {
            let got = net.recv(j).await?;
            block::check_blocks("n-party abit combination", &got, 1)?;
            ys[j] = got;
        }
        let y_sum = ys.iter().fold(0, |s, v| s ^ block::block_at(v, 0));
        let mut z = Gf128::mul_with(self.backend, Gf128::new(y_sum ^ y), Gf128::new(self.delta)).value();
        for j in peers(me, n) {
            let column: Vec<Block> = raw.macs_for(j).zip(raw.keys_for(j)).map(|(m, k)| m ^ k).collect();
            z ^= Gf128::reduce(self.backend.xor_sum_of_products128(&chi, &column)).value();
        }
        debug_assert_eq!(ys[me].len(), BLOCK_BYTES);
        self.sum_check(net, z, echo_digest(&ys), ["n-party abit consistency", "n-party abit broadcast"], rng)
            .await?;
        raw.truncate(count);
        Ok(raw)
    }
}
