//! Pseudo-random secret sharing (MAESTRO §2.5, after Cramer–Damgård–Ishai \[22\]): after a one-time
//! exchange of PRF keys, replicated random sharings (𝓕_rand) and additive zero sharings (𝓕_zero)
//! are generated without communication.
//!
//! **Setup.** Party i samples a 32-byte key kᵢ from the caller's cryptographic RNG and sends it to
//! party i−1, so party i holds (kᵢ, kᵢ₊₁) — the same index pattern as its replicated shares, and
//! each key is known to exactly two parties. One round, 32 bytes per party.
//!
//! **Expansion.** Each key seeds ChaCha12 (`rand_chacha::ChaCha12Rng`: the ChaCha stream cipher
//! with 12 rounds, 64-bit block counter and 64-bit stream id) with three independent streams
//! (domain separation):
//! - random sharings: component j of the next random value is the next byte of kⱼ's stream, so
//!   party i gets (rᵢ, rᵢ₊₁) of r = r₀ + r₁ + r₂, unknown to every single party;
//! - zero sharings: αᵢ = Fᵢ − Fᵢ₊₁ where Fⱼ is the next byte of kⱼ's stream, so α₀+α₁+α₂ = 0 and
//!   each αᵢ looks random to the other parties (used to re-randomize products before resharing);
//! - input masks: the components an input owner shares with one neighbour (see
//!   [`super::Party::input`]).
//!
//! The two holders of a key draw from its streams in the same order because every party runs the
//! same sequence of protocol steps (the protocols are deterministic in their public parameters).
//!
//! **Why ChaCha12.** PRSS needs a PRF keyed by kⱼ; the keystream of a stream cipher, indexed by
//! (stream, position), is one. ChaCha12 is the round count of `rand`'s `StdRng`; the best
//! published attacks on ChaCha reach 7 rounds (far from practical), so 12 rounds keep a wide
//! margin, while costing 12/20 of ChaCha20's work (PRSS expansion was about an eighth of the
//! semi-honest GF(2^8)-circuit AES's CPU time with ChaCha20). Every party — native or WASM — must
//! expand the keys identically, so the PRG is one fixed algorithm on all targets (no per-target
//! choice). Draws fill the destination buffers directly: a zero sharing draws kᵢ's stream into
//! the output and XORs kᵢ₊₁'s stream into it through a small stack buffer, with no temporary
//! vector.

use super::error::{MaestroError, Step};
use super::msg::{recv_bytes, send_bytes};
use super::par::{for_chunks_mut, parallel_now};
use super::rss::RssShare;
use crate::field::Gf256;
use crate::net::{Network, PartyId};
use rand_chacha::ChaCha12Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};

/// Length of a PRF key in bytes.
pub const KEY_BYTES: usize = 32;

const STREAM_RANDOM: u64 = 0;
const STREAM_ZERO: u64 = 1;
const STREAM_INPUT: u64 = 2;

/// The three ChaCha12 streams expanded from one PRF key.
struct KeyStreams {
    random: ChaCha12Rng,
    zero: ChaCha12Rng,
    input: ChaCha12Rng,
}

impl KeyStreams {
    fn new(key: [u8; KEY_BYTES]) -> Self {
        let stream = |s| {
            let mut rng = ChaCha12Rng::from_seed(key);
            rng.set_stream(s);
            rng
        };
        KeyStreams { random: stream(STREAM_RANDOM), zero: stream(STREAM_ZERO), input: stream(STREAM_INPUT) }
    }
}

/// How a draw combines the stream with the destination buffer.
#[derive(Clone, Copy)]
enum Draw {
    /// Overwrite the buffer with the stream.
    Fill,
    /// XOR the stream into the buffer.
    Xor,
}

/// Bytes of stream generated per step of an XOR draw (a multiple of 4, so consecutive steps
/// leave the generator exactly where one long draw would).
const XOR_STEP: usize = 1024;

/// Combines the next `out.len()` bytes of `rng`'s stream with `out` as `draw` says.
fn draw_into(rng: &mut ChaCha12Rng, out: &mut [u8], draw: Draw) {
    match draw {
        Draw::Fill => rng.fill_bytes(out),
        Draw::Xor => {
            let mut stream = [0u8; XOR_STEP];
            for piece in out.chunks_mut(XOR_STEP) {
                let stream = &mut stream[..piece.len()];
                rng.fill_bytes(stream);
                for (o, s) in piece.iter_mut().zip(stream.iter()) {
                    *o ^= s;
                }
            }
        }
    }
}

/// Combines the next `out.len()` bytes of `rng`'s stream with `out` (overwriting or XORing),
/// leaving `rng` where `fill_bytes` would (a started 32-bit word is consumed whole). Long draws
/// are split at word positions and generated in parallel under the `rayon` feature, with
/// identical output.
fn stream_into(rng: &mut ChaCha12Rng, out: &mut [u8], draw: Draw) {
    if !parallel_now(out.len()) {
        draw_into(rng, out, draw);
        return;
    }
    let start = rng.get_word_pos();
    let base: &ChaCha12Rng = rng;
    for_chunks_mut(out, |offset, piece| {
        let mut piece_rng = base.clone();
        // Pieces are a multiple of 4 bytes long (par::CHUNK), so each starts on a word boundary.
        piece_rng.set_word_pos(start + (offset / 4) as u128);
        draw_into(&mut piece_rng, piece, draw);
    });
    rng.set_word_pos(start + out.len().div_ceil(4) as u128);
}

/// Fills `out` with the next `out.len()` bytes of `rng`'s stream ([`stream_into`]).
fn fill_stream(rng: &mut ChaCha12Rng, out: &mut [u8]) {
    stream_into(rng, out, Draw::Fill);
}

fn next_elements(rng: &mut ChaCha12Rng, n: usize) -> Vec<Gf256> {
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
        self.random_packed(n).to_shares()
    }

    /// This party's parts of `n` additive sharings of zero (𝓕_zero).
    pub fn zero(&mut self, n: usize) -> Vec<Gf256> {
        let mut alpha = vec![0u8; n];
        self.zero_into(&mut alpha);
        alpha.into_iter().map(Gf256).collect()
    }

    /// [`Prss::zero`] written into `out` (the same draws): this party's parts of `out.len()`
    /// additive sharings of zero, as bytes. αᵢ = Fᵢ − Fᵢ₊₁ is Fᵢ ⊕ Fᵢ₊₁ in characteristic 2.
    pub fn zero_into(&mut self, out: &mut [u8]) {
        stream_into(&mut self.own.zero, out, Draw::Fill);
        stream_into(&mut self.next.zero, out, Draw::Xor);
    }

    /// [`Prss::zero_into`] as a new buffer of `n` bytes (the same draws), written once: both
    /// streams are drawn a step at a time into stack buffers and their sum appended.
    pub fn zero_bytes(&mut self, n: usize) -> Vec<u8> {
        if parallel_now(n) {
            let mut out = vec![0u8; n];
            self.zero_into(&mut out);
            return out;
        }
        let mut out = Vec::with_capacity(n);
        let (mut own, mut next) = ([0u8; XOR_STEP], [0u8; XOR_STEP]);
        while out.len() < n {
            let step = (n - out.len()).min(XOR_STEP);
            let (own, next) = (&mut own[..step], &mut next[..step]);
            // Steps are a multiple of 4 bytes except the last, so the streams end where one
            // long draw would leave them.
            self.own.zero.fill_bytes(own);
            self.next.zero.fill_bytes(next);
            for (a, b) in own.iter_mut().zip(next.iter()) {
                *a ^= b;
            }
            out.extend_from_slice(own);
        }
        out
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

    /// The ChaCha12 stream `stream` of `key`, straight from `rand_chacha` (the reference the
    /// PRSS draws are checked against).
    fn reference_stream(key: [u8; KEY_BYTES], stream: u64) -> ChaCha12Rng {
        let mut rng = ChaCha12Rng::from_seed(key);
        rng.set_stream(stream);
        rng
    }

    fn reference_draw(rng: &mut ChaCha12Rng, n: usize) -> Vec<u8> {
        let mut out = vec![0u8; n];
        rng.fill_bytes(&mut out);
        out
    }

    #[test]
    fn draws_are_the_chacha12_streams_of_the_keys_at_the_right_positions() {
        let (own, next) = ([7u8; KEY_BYTES], [8u8; KEY_BYTES]);
        let mut prss = Prss::from_keys(1, own, next);
        let (mut own_zero, mut next_zero) =
            (reference_stream(own, STREAM_ZERO), reference_stream(next, STREAM_ZERO));
        let (mut own_random, mut next_random) =
            (reference_stream(own, STREAM_RANDOM), reference_stream(next, STREAM_RANDOM));
        let (mut own_input, mut next_input) =
            (reference_stream(own, STREAM_INPUT), reference_stream(next, STREAM_INPUT));
        // Lengths around the XOR step and the parallel split (2 · CHUNK), and not multiples of a
        // word (a started word is consumed whole, as one `fill_bytes` call would).
        for n in [3, XOR_STEP - 1, XOR_STEP + 1, 2 * CHUNK + 5, 70_001] {
            let expected: Vec<u8> = reference_draw(&mut own_zero, n)
                .iter()
                .zip(reference_draw(&mut next_zero, n))
                .map(|(a, b)| a ^ b)
                .collect();
            let mut z = vec![0xa5u8; n];
            prss.zero_into(&mut z);
            assert_eq!(z, expected, "zero_into, n {n}");
            let expected: Vec<u8> = reference_draw(&mut own_zero, n)
                .iter()
                .zip(reference_draw(&mut next_zero, n))
                .map(|(a, b)| a ^ b)
                .collect();
            assert_eq!(prss.zero_bytes(n), expected, "zero_bytes, n {n}");
            let expected_zero: Vec<u8> = reference_draw(&mut own_zero, n)
                .iter()
                .zip(reference_draw(&mut next_zero, n))
                .map(|(a, b)| a ^ b)
                .collect();
            assert_eq!(Gf256::as_bytes(&prss.zero(n)), &expected_zero[..], "zero, n {n}");

            let (first, second) = (reference_draw(&mut own_random, n), reference_draw(&mut next_random, n));
            let packed = prss.random_packed(n);
            assert_eq!((&packed.first, &packed.second), (&first, &second), "random_packed, n {n}");
            let (first, second) = (reference_draw(&mut own_random, n), reference_draw(&mut next_random, n));
            let expected: Vec<RssShare> =
                first.iter().zip(&second).map(|(&a, &b)| RssShare::new(1, Gf256(a), Gf256(b))).collect();
            assert_eq!(prss.random(n), expected, "random, n {n}");

            let masks = prss.input_masks(1, n);
            assert_eq!(Gf256::as_bytes(&masks), &reference_draw(&mut own_input, n)[..], "own masks, n {n}");
            let masks = prss.input_masks(2, n);
            assert_eq!(Gf256::as_bytes(&masks), &reference_draw(&mut next_input, n)[..], "next masks, n {n}");
        }
        // Every stream stands exactly where the reference stands.
        assert_eq!(
            [&mut prss.own.zero, &mut prss.next.zero, &mut prss.own.random, &mut prss.next.random]
                .map(|r| r.next_u32()),
            [own_zero.next_u32(), next_zero.next_u32(), own_random.next_u32(), next_random.next_u32()]
        );
        assert_eq!(
            (prss.own.input.next_u32(), prss.next.input.next_u32()),
            (own_input.next_u32(), next_input.next_u32())
        );
    }

    #[test]
    fn split_draws_match_one_long_draw() {
        for draw in [Draw::Fill, Draw::Xor] {
            let mut direct = ChaCha12Rng::from_seed([9; 32]);
            let mut split = direct.clone();
            let n = 3 * CHUNK + 7;
            let start: Vec<u8> = (0..n).map(|k| (k * 31) as u8).collect();
            let mut expected = reference_draw(&mut direct, n);
            if let Draw::Xor = draw {
                expected.iter_mut().zip(&start).for_each(|(e, s)| *e ^= s);
            }
            let mut y = start.clone();
            stream_into(&mut split, &mut y, draw);
            assert_eq!((expected, direct.next_u32()), (y, split.next_u32()));
            #[cfg(all(feature = "rayon", not(target_arch = "wasm32")))]
            {
                let mut sequential = split.clone();
                let mut parallel = split.clone();
                let (mut a, mut b) = (start.clone(), start.clone());
                crate::proto::maestro::par::sequentially(|| stream_into(&mut sequential, &mut a, draw));
                stream_into(&mut parallel, &mut b, draw);
                assert_eq!((a, sequential.next_u32()), (b, parallel.next_u32()));
            }
        }
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
