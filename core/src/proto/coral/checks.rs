//! The checks behind Coral's malicious security: an n-party commit-and-open coin toss and the
//! batched SPDZ MAC check of every partially opened value (§2.2.1; the rOpen / rCheck commands
//! of Fig. 13, as in MASCOT).
//!
//! **Coin toss.** Each party samples a 256-bit seed, broadcasts `SHA-256(tag, party, seed)`, then
//! its seed; every party checks every opening against its commitment ([`Check::CoinCommitment`])
//! and derives the coins from `SHA-256(tag, seed_0, …, seed_{n−1})` through ChaCha20. No party
//! knows anything of the coins before every commitment is fixed, so a single honest party makes
//! them uniform.
//!
//! **MAC check.** With opened values x_1..x_N, MAC shares m_{i,·} and coins χ_1..χ_N ∈ GF(2^42)
//! tossed *after* the openings, party i computes `σ_i = Σ_l χ_l m_{i,l} − α_i · Σ_l χ_l x_l`,
//! commits to σ_i (hash with a 256-bit nonce), opens it, and everyone checks `Σ_i σ_i = 0`
//! ([`Check::Mac`]). A wrong opening survives with probability ≤ 2/2^42. The check runs before
//! any output is opened and again after the (masked) outputs are opened; on failure the honest
//! parties return the error and no output. The χ are many (two per packed AND gate), so they
//! are drawn from AES-128-CTR ([`Prg`], AES-NI natively) keyed by the tossed coins, a chunk at a
//! time as the sums are formed: each 128-bit block gives three χ, from its disjoint 42-bit slices
//! (bits 0–41, 42–83, 84–125), so every χ is still an independent uniform element and the bound
//! above is unchanged, for a third fewer AES blocks than one χ per 64-bit half (WASM runs this
//! AES in software).

use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};
use sha2::{Digest, Sha256};

use crate::net::Network;
use crate::ot::prg::Prg;
use crate::ot::Block;

use super::error::{Check, CoralError};
use super::messages::{field_bytes, pack_elements, unpack_elements, Channel, Step};
use super::share::{CoralParams, FIELD_BITS};

const COIN_COMMIT_TAG: &[u8] = b"chorus/coral/coin/commit/v1";
const COIN_STREAM_TAG: &[u8] = b"chorus/coral/coin/stream/v1";
const MAC_COMMIT_TAG: &[u8] = b"chorus/coral/mac-check/commit/v1";

fn commitment(tag: &[u8], party: usize, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(tag);
    h.update((party as u64).to_le_bytes());
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().into()
}

fn fixed<const L: usize>(bytes: &[u8], peer: usize, step: Step) -> Result<[u8; L], CoralError> {
    bytes.try_into().map_err(|_| {
        CoralError::malformed(peer, step.name(), format!("expected {L} bytes, got {}", bytes.len()))
    })
}

/// A public random coin stream agreed by all parties (two rounds, 64 bytes per party to each
/// other party).
pub async fn coin_toss<N: Network, R: RngCore + CryptoRng>(
    channel: &mut Channel,
    net: &mut N,
    rng: &mut R,
) -> Result<ChaCha20Rng, CoralError> {
    let me = net.party();
    let mut seed = [0u8; 32];
    rng.fill_bytes(&mut seed);
    let own = commitment(COIN_COMMIT_TAG, me, &[&seed]);
    let commitments = channel.broadcast(net, Step::CoinCommit, own.to_vec()).await?;
    let commitments: Vec<[u8; 32]> = commitments
        .iter()
        .enumerate()
        .map(|(p, c)| fixed::<32>(c, p, Step::CoinCommit))
        .collect::<Result<_, _>>()?;
    let seeds = channel.broadcast(net, Step::CoinOpen, seed.to_vec()).await?;
    let mut stream = Sha256::new();
    stream.update(COIN_STREAM_TAG);
    for (p, s) in seeds.iter().enumerate() {
        let s = fixed::<32>(s, p, Step::CoinOpen)?;
        if commitment(COIN_COMMIT_TAG, p, &[&s]) != commitments[p] {
            return Err(CoralError::failed(Check::CoinCommitment));
        }
        stream.update(s);
    }
    Ok(ChaCha20Rng::from_seed(stream.finalize().into()))
}

/// The partially opened values awaiting a batched MAC check, with this party's MAC shares: field
/// elements of GF(2^42) here (`u64`), ring elements of Z_{2^(k+s)} in Spdz2k (`u128`).
#[derive(Debug, Clone)]
pub struct OpenedLog<T = u64> {
    pub(super) values: Vec<T>,
    pub(super) macs: Vec<T>,
}

impl<T> Default for OpenedLog<T> {
    fn default() -> Self {
        OpenedLog { values: Vec::new(), macs: Vec::new() }
    }
}

impl<T: Copy> OpenedLog<T> {
    /// Records an opened value and this party's MAC share of it.
    #[inline]
    pub fn push(&mut self, value: T, mac: T) {
        self.values.push(value);
        self.macs.push(mac);
    }

    /// Records opened values and this party's MAC shares of them, in order.
    pub fn extend(&mut self, values: &[T], macs: impl ExactSizeIterator<Item = T>) {
        debug_assert_eq!(values.len(), macs.len());
        self.values.extend_from_slice(values);
        self.macs.extend(macs);
    }

    /// Makes room for `n` more values.
    pub fn reserve(&mut self, n: usize) {
        self.values.reserve(n);
        self.macs.reserve(n);
    }

    /// Number of values awaiting the check.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether nothing awaits the check.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Empties the log.
    pub fn clear(&mut self) {
        self.values.clear();
        self.macs.clear();
    }
}

/// The last two rounds of a MAC check: every party commits to its `value` (SHA-256 under `tag`
/// with a 256-bit nonce), then opens it; every opening must have `value.len()` bytes and match
/// its commitment ([`Check::MacCommitment`]). Returns every party's value, this party's at its
/// index.
pub(super) async fn commit_and_open<N: Network, R: RngCore + CryptoRng>(
    channel: &mut Channel,
    net: &mut N,
    rng: &mut R,
    tag: &[u8],
    value: Vec<u8>,
) -> Result<Vec<Vec<u8>>, CoralError> {
    let me = net.party();
    let width = value.len();
    let mut nonce = [0u8; 32];
    rng.fill_bytes(&mut nonce);
    let own = commitment(tag, me, &[&nonce, &value]);
    let commitments = channel.broadcast(net, Step::MacCommit, own.to_vec()).await?;
    let commitments: Vec<[u8; 32]> = commitments
        .iter()
        .enumerate()
        .map(|(p, c)| fixed::<32>(c, p, Step::MacCommit))
        .collect::<Result<_, _>>()?;
    let mut opening = value;
    opening.extend_from_slice(&nonce);
    let openings = channel.broadcast(net, Step::MacOpen, opening).await?;
    let mut values = Vec::with_capacity(openings.len());
    for (p, mut o) in openings.into_iter().enumerate() {
        if o.len() != width + 32 {
            return Err(CoralError::malformed(
                p,
                Step::MacOpen.name(),
                format!("expected {} bytes, got {}", width + 32, o.len()),
            ));
        }
        let nonce = o.split_off(width);
        if commitment(tag, p, &[&nonce, &o]) != commitments[p] {
            return Err(CoralError::failed(Check::MacCommitment));
        }
        values.push(o);
    }
    Ok(values)
}

/// χ cut from one 128-bit block of the coin stream: disjoint `FIELD_BITS`-bit slices.
const CHI_PER_BLOCK: usize = 128 / FIELD_BITS;
const _: () = assert!(CHI_PER_BLOCK == 3);

/// Coins drawn and combined at a time by [`mac_check`] (a whole number of blocks).
const COIN_CHUNK: usize = CHI_PER_BLOCK * 342;

/// Bytes of the σ opening (σ and a 32-byte nonce).
pub const MAC_OPEN_BYTES: usize = field_bytes(1) + 32;

/// The batched MAC check of everything in `log` (which it empties). Four rounds: coin
/// commitment, coin opening, σ commitment, σ opening. Does nothing if `log` is empty.
pub async fn mac_check<N: Network, R: RngCore + CryptoRng>(
    params: &CoralParams,
    channel: &mut Channel,
    net: &mut N,
    rng: &mut R,
    alpha: u64,
    log: &mut OpenedLog,
) -> Result<(), CoralError> {
    if log.is_empty() {
        return Ok(());
    }
    let mut coins = coin_toss(channel, net, rng).await?;
    let field = params.field();
    // χ_{3j+s} is bits 42s..42s+41 of block j of AES-128-CTR keyed by the coin stream's first
    // 16 bytes (block j read as a little-endian integer). The coins come a chunk at a time, so
    // no list of all χ is kept.
    let mut key = [0u8; 16];
    coins.fill_bytes(&mut key);
    let mut prg = Prg::new(Block::from_le_bytes(key));
    let (mut v, mut mu) = (0u64, 0u64);
    let mut blocks = [0 as Block; COIN_CHUNK / CHI_PER_BLOCK];
    let mut chi = [0u64; COIN_CHUNK];
    for (values, macs) in log.values.chunks(COIN_CHUNK).zip(log.macs.chunks(COIN_CHUNK)) {
        let blocks = &mut blocks[..values.len().div_ceil(CHI_PER_BLOCK)];
        prg.fill(blocks);
        for (slices, b) in chi.chunks_exact_mut(CHI_PER_BLOCK).zip(blocks.iter()) {
            for (s, x) in slices.iter_mut().enumerate() {
                *x = field.from_random_bits((*b >> (s * FIELD_BITS)) as u64);
            }
        }
        let chi = &chi[..values.len()];
        v ^= field.inner_product(chi, values);
        mu ^= field.inner_product(chi, macs);
    }
    let sigma = mu ^ field.mul(alpha, v);
    log.clear();
    let sigmas = commit_and_open(channel, net, rng, MAC_COMMIT_TAG, pack_elements(&[sigma])).await?;
    let mut total = 0u64;
    for (p, s) in sigmas.iter().enumerate() {
        total ^= unpack_elements(s, 1, p, Step::MacOpen)?[0];
    }
    if total != 0 {
        return Err(CoralError::failed(Check::Mac));
    }
    Ok(())
}
