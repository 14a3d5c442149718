//! Pseudo-random secret sharing (MAESTRO §2.5, after Cramer–Damgård–Ishai \[22\]): after a one-time
//! exchange of PRF keys, replicated random sharings (𝓕_rand) and additive zero sharings (𝓕_zero)
//! are generated without communication.
//!
//! **Setup.** Party i samples a 32-byte key kᵢ from the caller's cryptographic RNG and sends it to
//! party i−1, so party i holds (kᵢ, kᵢ₊₁) — the same index pattern as its replicated shares, and
//! each key is known to exactly two parties. One round, 32 bytes per party.
//!
//! **Expansion.** Each key seeds ChaCha20 with three independent streams (domain separation):
//! - random sharings: component j of the next random value is the next byte of kⱼ's stream, so
//!   party i gets (rᵢ, rᵢ₊₁) of r = r₀ + r₁ + r₂, unknown to every single party;
//! - zero sharings: αᵢ = Fᵢ − Fᵢ₊₁ where Fⱼ is the next byte of kⱼ's stream, so α₀+α₁+α₂ = 0 and
//!   each αᵢ looks random to the other parties (used to re-randomize products before resharing);
//! - input masks: the components an input owner shares with one neighbour (see
//!   [`super::Party::input`]).
//!
//! The two holders of a key draw from its streams in the same order because every party runs the
//! same sequence of protocol steps (the protocols are deterministic in their public parameters).

use super::error::{MaestroError, Step};
use super::msg::{recv_bytes, send_bytes};
use super::par::{for_chunks_mut, parallel_now};
use super::rss::RssShare;
use crate::field::Gf256;
use crate::net::{Network, PartyId};
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};

/// Length of a PRF key in bytes.
pub const KEY_BYTES: usize = 32;

const STREAM_RANDOM: u64 = 0;
const STREAM_ZERO: u64 = 1;
const STREAM_INPUT: u64 = 2;

/// The three ChaCha20 streams expanded from one PRF key.
struct KeyStreams {
    random: ChaCha20Rng,
    zero: ChaCha20Rng,
    input: ChaCha20Rng,
}

impl KeyStreams {
    fn new(key: [u8; KEY_BYTES]) -> Self {
        let stream = |s| {
            let mut rng = ChaCha20Rng::from_seed(key);
            rng.set_stream(s);
            rng
        };
        KeyStreams { random: stream(STREAM_RANDOM), zero: stream(STREAM_ZERO), input: stream(STREAM_INPUT) }
    }
}

/// Fills `out` with the next `out.len()` bytes of `rng`'s stream, leaving `rng` where
/// `fill_bytes` would (a started 32-bit word is consumed whole). Long fills are split at word
/// positions and generated in parallel under the `rayon` feature, with identical output.
fn fill_stream(rng: &mut ChaCha20Rng, out: &mut [u8]) {
    if !parallel_now(out.len()) {
        rng.fill_bytes(out);
        return;
    }
    let start = rng.get_word_pos();
    let base: &ChaCha20Rng = rng;
    for_chunks_mut(out, |offset, piece| {
        let mut piece_rng = base.clone();
        // Pieces are a multiple of 4 bytes long (par::CHUNK), so each starts on a word boundary.
        piece_rng.set_word_pos(start + (offset / 4) as u128);
        piece_rng.fill_bytes(piece);
    });
    rng.set_word_pos(start + out.len().div_ceil(4) as u128);
}

fn next_elements(rng: &mut ChaCha20Rng, n: usize) -> Vec<Gf256> {
    let mut bytes = vec![0u8; n];
    fill_stream(rng, &mut bytes);
    bytes.into_iter().map(Gf256).collect()
}

/// One party's PRSS state: the streams of its own key kᵢ and of its neighbour's key kᵢ₊₁.
pub struct Prss {
    party: PartyId,
    own: KeyStreams,
    next: KeyStreams,
}

impl core::fmt::Debug for Prss {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never print key material.
        f.debug_struct("Prss").field("party", &self.party).finish_non_exhaustive()
    }
}

impl Prss {
    /// The one-time key setup (one round, [`KEY_BYTES`] bytes sent per party).
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        rng: &mut R,
    ) -> Result<Self, MaestroError> {
        if net.parties() != 3 {
            return Err(MaestroError::NotThreeParties(net.parties()));
        }
        let party = net.party();
        let mut own = [0u8; KEY_BYTES];
        rng.fill_bytes(&mut own);
        send_bytes(net, (party + 2) % 3, own.to_vec(), Step::PrssSetup)?;
        let received = recv_bytes(net, (party + 1) % 3, KEY_BYTES, Step::PrssSetup).await?;
        let mut next = [0u8; KEY_BYTES];
        next.copy_from_slice(&received);
        Ok(Self::from_keys(party, own, next))
    }

    /// PRSS state from already distributed keys: party `party` holds k_party (`own`) and
    /// k_party+1 (`next`).
    ///
    /// # Panics
    /// If `party > 2`.
    pub fn from_keys(party: PartyId, own: [u8; KEY_BYTES], next: [u8; KEY_BYTES]) -> Self {
        assert!(party < 3, "Prss: party {party} is not 0, 1 or 2");
        Prss { party, own: KeyStreams::new(own), next: KeyStreams::new(next) }
    }

    /// This party's index.
    pub fn party(&self) -> PartyId {
        self.party
    }

    /// `n` replicated sharings of independent uniformly random values (𝓕_rand).
    pub fn random(&mut self, n: usize) -> Vec<RssShare> {
        let first = next_elements(&mut self.own.random, n);
        let second = next_elements(&mut self.next.random, n);
        first.into_iter().zip(second).map(|(a, b)| RssShare::new(self.party, a, b)).collect()
    }

    /// This party's parts of `n` additive sharings of zero (𝓕_zero).
    pub fn zero(&mut self, n: usize) -> Vec<Gf256> {
        let mut alpha = next_elements(&mut self.own.zero, n);
        let next = next_elements(&mut self.next.zero, n);
        for (a, b) in alpha.iter_mut().zip(next) {
            *a -= b;
        }
        alpha
    }

    /// [`Prss::zero`] written into `out` (the same draws): this party's parts of `out.len()`
    /// additive sharings of zero, as bytes.
    pub fn zero_into(&mut self, out: &mut [u8]) {
        fill_stream(&mut self.own.zero, out);
        let mut next = vec![0u8; out.len()];
        fill_stream(&mut self.next.zero, &mut next);
        for (a, b) in out.iter_mut().zip(next) {
            *a ^= b;
        }
    }

    /// [`Prss::random`] as contiguous components (the same draws).
    pub fn random_packed(&mut self, n: usize) -> super::packed::Packed {
        let mut first = vec![0u8; n];
        let mut second = vec![0u8; n];
        fill_stream(&mut self.own.random, &mut first);
        fill_stream(&mut self.next.random, &mut second);
        super::packed::Packed { party: self.party, first, second }
    }

    /// The next `n` input-mask elements of key k_`component`.
    ///
    /// # Panics
    /// If this party does not hold k_`component` (only `component` = party or party+1 are held;
    /// [`super::Party::input`] asks only for those).
    pub(crate) fn input_masks(&mut self, component: PartyId, n: usize) -> Vec<Gf256> {
        if component == self.party {
            next_elements(&mut self.own.input, n)
        } else {
            assert_eq!(
                component,
                (self.party + 1) % 3,
                "PRSS key {component} is not held by party {}",
                self.party
            );
            next_elements(&mut self.next.input, n)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::memory::run_session;
    use crate::proto::maestro::par::CHUNK;
    use rand_chacha::ChaCha20Rng;

    fn setup_all(seed: u64) -> Vec<Prss> {
        run_session(3, |mut net| async move {
            let mut rng = ChaCha20Rng::seed_from_u64(seed + net.party() as u64);
            let prss = Prss::setup(&mut net, &mut rng).await.unwrap();
            let stats = net.stats();
            assert_eq!((stats.bytes_sent, stats.rounds), (KEY_BYTES as u64, 1));
            prss
        })
    }

    #[test]
    fn random_sharings_are_consistent_and_vary() {
        let mut prss = setup_all(10);
        let shares: Vec<Vec<RssShare>> = prss.iter_mut().map(|p| p.random(200)).collect();
        let values: Vec<Gf256> = (0..200)
            .map(|k| RssShare::reconstruct(&[shares[0][k], shares[1][k], shares[2][k]]).expect("consistent"))
            .collect();
        let distinct: std::collections::HashSet<u8> = values.iter().map(|v| v.0).collect();
        assert!(distinct.len() > 100, "random values should spread over GF(2^8): {}", distinct.len());
    }

    #[test]
    fn zero_sharings_sum_to_zero_and_parts_are_not_zero() {
        let mut prss = setup_all(20);
        let alphas: Vec<Vec<Gf256>> = prss.iter_mut().map(|p| p.zero(200)).collect();
        for ((a0, a1), a2) in alphas[0].iter().zip(&alphas[1]).zip(&alphas[2]) {
            assert_eq!(*a0 + *a1 + *a2, Gf256(0));
        }
        assert!(alphas[0].iter().filter(|a| a.0 != 0).count() > 150);
    }

    #[test]
    fn streams_are_independent() {
        let mut prss = setup_all(30);
        let r = prss[0].random(64);
        let z = prss[0].zero(64);
        let firsts: Vec<Gf256> = r.iter().map(|s| s.first()).collect();
        assert_ne!(firsts, z);
    }

    #[test]
    fn bulk_draws_match_the_element_draws_and_stream_positions() {
        let mut a = setup_all(40);
        let mut b = setup_all(40);
        // Lengths around the parallel split (2 · CHUNK) and not multiples of a word.
        for n in [3, 2 * CHUNK + 5, 70_001] {
            let z = a[1].zero(n);
            let mut zb = vec![0u8; n];
            b[1].zero_into(&mut zb);
            assert_eq!(Gf256::as_bytes(&z), &zb[..], "zero, n {n}");
            let r = a[1].random(n);
            assert_eq!(b[1].random_packed(n).to_shares(), r, "random, n {n}");
        }
        let mut direct = ChaCha20Rng::from_seed([9; 32]);
        let mut split = direct.clone();
        let mut x = vec![0u8; 3 * CHUNK + 7];
        let mut y = x.clone();
        direct.fill_bytes(&mut x);
        fill_stream(&mut split, &mut y);
        assert_eq!((x, direct.next_u32()), (y, split.next_u32()));
    }

    #[test]
    fn short_key_message_is_a_typed_error() {
        let results = run_session(3, |mut net| async move {
            let mut rng = ChaCha20Rng::seed_from_u64(net.party() as u64);
            if net.party() == 1 {
                // Party 1 sends a short key to party 0 and stops.
                net.send(0, vec![0; 5]).unwrap();
                return None;
            }
            Some(Prss::setup(&mut net, &mut rng).await.map(|_| ()))
        });
        assert_eq!(
            results[0],
            Some(Err(MaestroError::MalformedMessage {
                from: 1,
                step: Step::PrssSetup,
                expected: KEY_BYTES,
                actual: 5
            }))
        );
    }
}
