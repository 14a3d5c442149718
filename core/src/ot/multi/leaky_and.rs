//! The n-party leaky AND (WRK17 §4, its F_LaAND for n parties; see the [parent module](super)).
//!
//! From `⟨x⟩, ⟨y⟩, ⟨r⟩`, for each index t (dropped below), this party i:
//! 1. **Half-authenticated ANDs.** For every peer j, with its key `K = K_i[x^j]` and tweaks unique
//!    to (i, j, t): sends the bit `lsb H₀(K) ⊕ lsb H₀(K ⊕ Δ_i) ⊕ y^i`, keeps `s = lsb H₀(K)`; and
//!    sends the block `U = H₁(K) ⊕ H₁(K ⊕ Δ_i) ⊕ Φ_i`, keeps `H₁(K)`, where `Φ_i` is its share
//!    of `y·Δ⊕` ([`super::NBit::delta_share`]). From j's bit `h` and block `U'` it takes, with
//!    its MAC `M = M_j[x^i]`, `lsb H₀(M) ⊕ x^i·h = s_j ⊕ x^i·y^j` and `H₁(M) ⊕ x^i·U' = H₁(K_j)
//!    ⊕ x^i·Φ_j` (the `Δ_j` in `M` selects the other hash exactly when `x^i = 1`).
//! 2. **z.** `v^i` = the XOR of its kept `s` and its received `s_j ⊕ x^i·y^j`, so `⊕_i v^i =
//!    ⊕_{i≠j} x^i·y^j`; it broadcasts `e^i = x^i·y^i ⊕ v^i ⊕ r^i`, and with `e = ⊕ e^i = x·y ⊕ r`
//!    sets `⟨z⟩ = ⟨r⟩ ⊕ e`.
//! 3. **Check.** `H_i = x^i·Φ_i ⊕ (its received x^i·Φ_j terms) ⊕ (its kept H₁(K)) ⊕ (its share of
//!    z·Δ⊕)` XOR to `x·y·Δ⊕ ⊕ z·Δ⊕` over the parties: zero exactly when `z = x·y`, and otherwise
//!    a multiple of the honest parties' secret `Δ`s. One sum check of `Σ_t χ_t·H_{i,t}` (coins
//!    tossed after every message above) covers the batch, with each party's digest of the `e`
//!    bits it received.
//!
//! A corrupt party's wrong bit or block towards an honest party i changes i's share only where
//! `x^i = 1`, so whether the check passes may reveal `x^i` — the leak the bucketing absorbs.

use rand_core::{CryptoRng, RngCore};

use super::commit::echo_digest;
use super::{peers, MultiTinyOt, NBits};
use crate::field::Gf128;
use crate::net::{Network, PartyId};
use crate::ot::block::{self, BLOCK_BYTES};
use crate::ot::prg::Prg;
use crate::ot::tinyot::{mask, pack};
use crate::ot::{Block, OtError};

/// The hash tweak of gate `gate` for the pair (key holder `holder`, share owner `owner`) and
/// hash `phase` (0: the AND bit, 1: the check block); unique per session instance.
fn tweak(holder: PartyId, owner: PartyId, phase: u8, gate: u64) -> u128 {
    (holder as u128) << 120 | (owner as u128) << 112 | (phase as u128) << 104 | gate as u128
}

fn lsb(b: Block) -> bool {
    b & 1 == 1
}

impl MultiTinyOt {
    /// Turns `r` into `⟨z⟩` with `z = x·y` if the check passes (leaky; see the module docs).
    pub(super) async fn leaky_and<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        x: &NBits,
        y: &NBits,
        mut r: NBits,
        rng: &mut R,
    ) -> Result<NBits, OtError> {
        let (me, n, len, delta) = (self.me, self.parties, x.len(), self.delta);
        let gate = self.gates;
        self.gates += len as u64;
        let phi: Vec<Block> = (0..len).map(|t| y.delta_share(t, delta)).collect();
        let bits_len = len.div_ceil(8);

        // Step 1 as key holder: one message to each peer; `v` and `check` collect what is kept.
        let mut v = vec![false; len];
        let mut check = vec![0 as Block; len];
        for j in peers(me, n) {
            let keys: Vec<Block> = x.keys_for(j).collect();
            let flipped: Vec<Block> = keys.iter().map(|k| k ^ delta).collect();
            let hashed = |phase: u8, mut b: Vec<Block>| {
                self.hash.hash_in_place(tweak(me, j, phase, gate), &mut b);
                b
            };
            let (a0, a1) = (hashed(0, keys.clone()), hashed(0, flipped.clone()));
            let (b0, b1) = (hashed(1, keys), hashed(1, flipped));
            #[allow(unused_mut)]
            let mut and_bits: Vec<bool> = (0..len).map(|t| lsb(a0[t]) ^ lsb(a1[t]) ^ y.bit(t)).collect();
            #[allow(unused_mut)]
            let mut offset = 0 as Block;
            #[cfg(test)]
            match self.cheat {
                Some(super::Cheat::HalfAnd { peer }) if peer == j => {
                    and_bits.iter_mut().for_each(|b| *b ^= true)
                }
                Some(super::Cheat::Product { peer }) if peer == j => offset = 1 << 77,
                _ => {}
            }
            let mut msg = pack(and_bits.into_iter(), len);
            msg.reserve(len * BLOCK_BYTES);
            for t in 0..len {
                v[t] ^= lsb(a0[t]);
                check[t] ^= b0[t];
                msg.extend_from_slice(&(b0[t] ^ b1[t] ^ phi[t] ^ offset).to_le_bytes());
            }
            net.send(j, msg)?;
        }
        // Step 1 as owner of the shares the peers hold keys for.
        for j in peers(me, n) {
            let msg = net.recv(j).await?;
            if msg.len() != bits_len + len * BLOCK_BYTES {
                return Err(OtError::malformed(
                    "n-party leaky-AND products",
                    format!("expected {} bytes, got {}", bits_len + len * BLOCK_BYTES, msg.len()),
                ));
            }
            let macs: Vec<Block> = x.macs_for(j).collect();
            let mut a = macs.clone();
            self.hash.hash_in_place(tweak(j, me, 0, gate), &mut a);
            let mut b = macs;
            self.hash.hash_in_place(tweak(j, me, 1, gate), &mut b);
            for t in 0..len {
                let xt = x.bit(t);
                let h = (msg[t / 8] >> (t % 8)) & 1 == 1;
                v[t] ^= lsb(a[t]) ^ (xt & h);
                let u = block::block_at(&msg[bits_len..], t);
                check[t] ^= b[t] ^ (u & mask(xt));
            }
        }

        // Step 2: broadcast e^i, then ⟨z⟩ = ⟨r⟩ ⊕ e.
        let e_mine: Vec<bool> = (0..len).map(|t| (x.bit(t) & y.bit(t)) ^ v[t] ^ r.bit(t)).collect();
        let packed = pack(e_mine.iter().copied(), len);
        for j in peers(me, n) {
            #[allow(unused_mut)]
            let mut sent = packed.clone();
            #[cfg(test)]
            if let Some(super::Cheat::EquivocateE { peer, index }) = self.cheat {
                if peer == j {
                    sent[index / 8] ^= 1 << (index % 8);
                }
            }
            net.send(j, sent)?;
        }
        let mut views = vec![packed; n];
        for j in peers(me, n) {
            let got = net.recv(j).await?;
            if got.len() != bits_len {
                return Err(OtError::malformed(
                    "n-party leaky-AND openings",
                    format!("expected {bits_len} bytes, got {}", got.len()),
                ));
            }
            views[j] = got;
        }
        for t in 0..len {
            let e = views.iter().fold(false, |s, v| s ^ ((v[t / 8] >> (t % 8)) & 1 == 1));
            r.add_public(t, e, delta);
        }

        // Step 3: the check.
        for (t, c) in check.iter_mut().enumerate() {
            *c ^= (phi[t] & mask(x.bit(t))) ^ r.delta_share(t, delta);
        }
        let coins = self.coins(net, rng).await?;
        let chi = Prg::new(u128::from_le_bytes(coins[..16].try_into().expect("16 bytes"))).blocks(len);
        let share = Gf128::reduce(self.backend.xor_sum_of_products128(&chi, &check)).value();
        self.sum_check(
            net,
            share,
            echo_digest(&views),
            ["n-party leaky-AND check", "n-party leaky-AND openings"],
            rng,
        )
        .await?;
        Ok(r)
    }
}
