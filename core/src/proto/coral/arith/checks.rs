//! Spdz2k's batched MAC check (Spdz2k §3, "MACCheck" on a batch; the rCheck of Coral's Fig. 13
//! with S = Z_{2^(k+s)}).
//!
//! With opened values x̃_1..x̃_N (each modulo 2^(k+s)), party i's MAC shares m_{i,·} and public
//! coins χ_1..χ_N ∈ Z_{2^s} tossed *after* the openings (the n-party commit-and-open toss of
//! [`super::super::checks::coin_toss`]), party i computes
//! `z_i = Σ_l χ_l m_{i,l} − α_i · Σ_l χ_l x̃_l` modulo 2^(k+s), commits to it (hash with a 256-bit
//! nonce), opens it, and everyone checks `Σ_i z_i ≡ 0 (mod 2^(k+s))` ([`Check::ArithMac`]). An
//! opening wrong in its low k bits survives with probability ≤ 2^(−s + log2(s + 1)) (Spdz2k's
//! batch-check lemma; s = 48, so below 2^-42). Honest z_i are uniform shares of zero: each holds
//! fresh randomness of the MAC shares, so opening them reveals nothing.
//!
//! Four rounds (coin commitment, coin opening, z commitment, z opening); the log is emptied.
//! [`open`], the partial opening, fills the log.

use rand_core::{CryptoRng, RngCore};

use crate::net::Network;
use crate::ot::prg::Prg;
use crate::ot::Block;

use super::super::checks::{coin_toss, commit_and_open, OpenedLog};
use super::super::error::{Check, CoralError};
use super::super::messages::{Channel, Step};
use super::ring::{ArithRing, S};
use super::share::AShare;

const MAC_COMMIT_TAG: &[u8] = b"chorus/coral/spdz2k/mac-check/commit/v1";

/// The partially opened ring elements awaiting the batched check, with this party's MAC shares.
pub type RingLog = OpenedLog<u128>;

/// Opens `xs` to everybody (one broadcast of this party's value shares); the values, reduced,
/// join `log` with this party's MAC shares for the next batched check.
pub async fn open<N: Network>(
    ring: ArithRing,
    channel: &mut Channel,
    net: &mut N,
    step: Step,
    xs: &[AShare],
    log: &mut RingLog,
) -> Result<Vec<u128>, CoralError> {
    let own: Vec<u128> = xs.iter().map(|x| x.value).collect();
    let all = channel.broadcast(net, step, ring.pack(&own)).await?;
    let mut values = vec![0u128; xs.len()];
    for (p, payload) in all.iter().enumerate() {
        for (v, s) in values.iter_mut().zip(ring.unpack(payload, xs.len(), p, step)?) {
            *v = v.wrapping_add(s);
        }
    }
    let values: Vec<u128> = values.into_iter().map(|v| ring.reduce(v)).collect();
    log.extend(&values, xs.iter().map(|x| x.mac));
    Ok(values)
}

/// Coins drawn at a time.
const COIN_CHUNK: usize = 1024;

/// The batched check of everything in `log` (which it empties); nothing if `log` is empty.
pub async fn mac_check<N: Network, R: RngCore + CryptoRng>(
    ring: ArithRing,
    channel: &mut Channel,
    net: &mut N,
    rng: &mut R,
    alpha: u128,
    log: &mut RingLog,
) -> Result<(), CoralError> {
    if log.is_empty() {
        return Ok(());
    }
    let mut coins = coin_toss(channel, net, rng).await?;
    // χ_l: the l-th u64 of AES-128-CTR keyed by the coin stream, reduced to s bits.
    let mut key = [0u8; 16];
    coins.fill_bytes(&mut key);
    let mut prg = Prg::new(Block::from_le_bytes(key));
    let (mut y, mut m) = (0u128, 0u128);
    let mut blocks = [0 as Block; COIN_CHUNK / 2];
    let chi_mask = (1u128 << S) - 1;
    for (values, macs) in log.values.chunks(COIN_CHUNK).zip(log.macs.chunks(COIN_CHUNK)) {
        let blocks = &mut blocks[..values.len().div_ceil(2)];
        prg.fill(blocks);
        let chis = blocks.iter().flat_map(|b| [b & chi_mask, (b >> 64) & chi_mask]);
        for ((chi, &x), &mac) in chis.zip(values).zip(macs) {
            y = y.wrapping_add(chi.wrapping_mul(x));
            m = m.wrapping_add(chi.wrapping_mul(mac));
        }
    }
    let z = ring.reduce(m.wrapping_sub(alpha.wrapping_mul(y)));
    log.clear();
    let zs = commit_and_open(channel, net, rng, MAC_COMMIT_TAG, ring.pack(&[z])).await?;
    let mut total = 0u128;
    for (p, zp) in zs.iter().enumerate() {
        total = total.wrapping_add(ring.unpack(zp, 1, p, Step::MacOpen)?[0]);
    }
    if ring.reduce(total) != 0 {
        return Err(CoralError::failed(Check::ArithMac));
    }
    Ok(())
}
