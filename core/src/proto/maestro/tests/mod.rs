//! Three-party tests over the in-memory network: correctness against plain AES (FIPS-197 and the
//! RustCrypto `aes` crate), exact communication and round counts, inputs from different parties,
//! partial openings, and typed errors for misbehaving or vanished peers.

mod driver;
mod rss_ops;
mod suite;
mod variants;

use super::aes::{decrypt_blocks, encrypt_blocks, expand_key, round_keys_from_shares, to_blocks};
use super::sbox::gf256_circuit;
use super::*;
use crate::aes::sbox::{inv_sbox_table, sbox_table};
use crate::aes::{Aes, AesByte, Block, KeySize};
use crate::field::{Field, Gf256};
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::{NetError, NetStats, Network};
use ::aes::cipher::{BlockDecrypt, BlockEncrypt, KeyInit};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

pub(in crate::proto::maestro) use suite::{aes_suite, Costs, Variant};
use suite::{to_replicated, to_shares};

async fn setup(net: &mut MemoryNetwork, seed: u64) -> Party {
    let mut rng = ChaCha20Rng::seed_from_u64(seed.wrapping_mul(3) + net.party() as u64);
    Party::setup(net, &mut rng).await.expect("PRSS setup")
}

fn gf(bytes: &[u8]) -> Vec<Gf256> {
    bytes.iter().map(|&b| Gf256(b)).collect()
}

fn reconstruct_all(per_party: &[Vec<RssShare>]) -> Vec<Gf256> {
    (0..per_party[0].len())
        .map(|k| {
            RssShare::reconstruct(&[per_party[0][k], per_party[1][k], per_party[2][k]])
                .expect("consistent sharing")
        })
        .collect()
}

fn random_bytes(rng: &mut ChaCha20Rng, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rng.fill_bytes(&mut v);
    v
}

use crate::aes::fips197::{CIPHERTEXT as FIPS_CT, KEY as FIPS_KEY, PLAINTEXT as FIPS_PT};

/// How the AES key enters the computation.
#[derive(Clone, Copy, Debug)]
enum KeyInput {
    /// One party inputs the whole key.
    Party(usize),
    /// The key is k_a ⊕ k_b with k_a input by the first party and k_b by the second.
    XorShares(usize, usize),
}

/// What [`run_aes`] computes on the input blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Encrypt,
    Decrypt,
    /// Encryption, then decryption of the still-shared ciphertext.
    RoundTrip,
}

struct AesRun {
    /// The revealed output blocks (ciphertext, plaintext or the round trip's plaintext).
    output: Option<Vec<u8>>,
    preprocessing: NetStats,
    key_schedule: NetStats,
    /// The cipher calls (both for a round trip), without the key schedule.
    cipher: NetStats,
}

/// Runs MPC AES-128: key per `key_input`, input blocks from `pt_owner`, `direction`
/// applied, the output revealed to `reveal_to`; returns each party's view.
fn run_aes<S: Variant>(
    key: &[u8],
    blocks: &[Block],
    direction: Direction,
    key_input: KeyInput,
    pt_owner: usize,
    reveal_to: &[usize],
    seed: u64,
) -> Vec<AesRun> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let key_a = random_bytes(&mut rng, key.len());
    let key_b: Vec<u8> = key.iter().zip(&key_a).map(|(k, a)| k ^ a).collect();
    let plaintext: Vec<u8> = blocks.iter().flatten().copied().collect();
    run_session(3, |mut net| {
        let (key_a, key_b, plaintext) = (gf(&key_a), gf(&key_b), gf(&plaintext));
        let key = gf(key);
        async move {
            let me = net.party();
            let mut sbox = S::build(setup(&mut net, seed).await);
            // Preprocessing is input-independent, so it runs first: the key schedule's S-boxes
            // (4 per SubWord) and 16 per block per round.
            let (sub_words, rounds) = match key.len() {
                16 => (10, 10),
                24 => (8, 12),
                _ => (13, 14),
            };
            let passes = if direction == Direction::RoundTrip { 2 } else { 1 };
            let before = net.stats();
            sbox.preprocess(&mut net, 4 * sub_words + 16 * rounds * passes * plaintext.len() / 16).await;
            let preprocessing = net.stats().since(&before);
            let key_shares: Vec<RssShare> = match key_input {
                KeyInput::Party(owner) => sbox
                    .party()
                    .input(&mut net, owner, (me == owner).then_some(&key[..]), key.len())
                    .await
                    .unwrap(),
                KeyInput::XorShares(a, b) => {
                    let n = key.len();
                    let sa =
                        sbox.party().input(&mut net, a, (me == a).then_some(&key_a[..]), n).await.unwrap();
                    let sb =
                        sbox.party().input(&mut net, b, (me == b).then_some(&key_b[..]), n).await.unwrap();
                    sa.into_iter().zip(sb).map(|(x, y)| x + y).collect()
                }
            };
            let pt = (me == pt_owner).then_some(&plaintext[..]);
            let pt_shares = sbox.party().input(&mut net, pt_owner, pt, plaintext.len()).await.unwrap();
            let mut state = to_blocks(&to_shares::<S::Share>(pt_shares)).unwrap();

            let before = net.stats();
            let round_keys = expand_key(&mut sbox, &mut net, &to_shares(key_shares)).await.unwrap();
            let key_schedule = net.stats().since(&before);
            let before = net.stats();
            if direction != Direction::Decrypt {
                encrypt_blocks(&mut sbox, &mut net, &round_keys, &mut state).await.unwrap();
            }
            if direction != Direction::Encrypt {
                decrypt_blocks(&mut sbox, &mut net, &round_keys, &mut state).await.unwrap();
            }
            let cipher = net.stats().since(&before);

            let out =
                sbox.party().reveal(&mut net, &to_replicated(state.as_flattened()), reveal_to).await.unwrap();
            AesRun {
                output: out.map(|v| v.iter().map(|b| b.0).collect()),
                preprocessing,
                key_schedule,
                cipher,
            }
        }
    })
}
