//! Three-party tests over the in-memory network: correctness against plain AES (FIPS-197 and the
//! RustCrypto `aes` crate), exact communication and round counts, inputs from different parties,
//! partial openings, and typed errors for misbehaving or vanished peers.

use super::aes::{decrypt_blocks, encrypt_blocks, expand_key, round_keys_from_shares, to_blocks};
use super::gf256_circuit;
use super::*;
use crate::aes::sbox::{inv_sbox_table, sbox_table};
use crate::aes::{Aes, AesByte, Block, KeySize};
use crate::field::{Field, Gf256};
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::{NetError, NetStats, Network};
use ::aes::cipher::{BlockDecrypt, BlockEncrypt, KeyInit};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

/// A variant's share type as the suite handles it: built from replicated shares (inputs, dealt
/// values) and read back as replicated shares (after [`SboxLayer::to_replicated`]).
pub(super) trait TestShare: crate::aes::AesByte + From<RssShare> {
    fn replicated(self) -> RssShare;
}

impl TestShare for RssShare {
    fn replicated(self) -> RssShare {
        self
    }
}

impl TestShare for MixedShare {
    fn replicated(self) -> RssShare {
        self.as_replicated().expect("a replicated share after to_replicated")
    }
}

fn to_shares<T: TestShare>(shares: Vec<RssShare>) -> Vec<T> {
    shares.into_iter().map(T::from).collect()
}

fn to_replicated<T: TestShare>(shares: &[T]) -> Vec<RssShare> {
    shares.iter().map(|&s| s.replicated()).collect()
}

/// An S-box variant under the generic AES test suite.
pub(super) trait Variant: SboxLayer<Share: TestShare> + Sized {
    /// Per S-box and party in the online phase: bits sent and rounds.
    const COSTS: Costs;
    fn build(party: Party) -> Self;
    fn party(&mut self) -> &mut Party;
    /// Input-independent preprocessing for `sboxes` later S-box evaluations (none by default).
    async fn preprocess(&mut self, _net: &mut MemoryNetwork, _sboxes: usize) {}
}

/// Online cost of one S-box per party: every `sub_bytes` (or `inv_sub_bytes`) call of n
/// replicated bytes sends n · `bits` bits (n a multiple of 4, so nibble packing has no padding)
/// in `rounds` rounds and `messages` messages.
#[derive(Clone, Copy, Debug)]
pub(super) struct Costs {
    pub(super) bits: u64,
    pub(super) rounds: u64,
    /// Messages each party sends per `sub_bytes` call.
    pub(super) messages: u64,
    /// Preprocessing bits per S-box (one batch of any size, `pre_rounds` rounds).
    pub(super) pre_bits: u64,
    pub(super) pre_rounds: u64,
    /// For a layer that leaves its output in another sharing than replicated; `None`: the output
    /// is replicated, chained calls cost the same and `to_replicated` is free.
    pub(super) mixed: Option<MixedCosts>,
}

/// Costs of a layer with non-replicated output ((3,3) LUT-256): a call on the previous call's
/// output (in `rounds` rounds), and `to_replicated` (one round and one message).
#[derive(Clone, Copy, Debug)]
pub(super) struct MixedCosts {
    pub(super) chained_bits: u64,
    pub(super) chained_messages: u64,
    pub(super) reshare_bits: u64,
}

impl Costs {
    /// Bits and messages per S-box of a call on the previous call's output.
    fn chained(&self) -> (u64, u64) {
        self.mixed.map_or((self.bits, self.messages), |m| (m.chained_bits, m.chained_messages))
    }

    /// Bits per byte and rounds (= messages) of `to_replicated`.
    fn reshare(&self) -> (u64, u64) {
        self.mixed.map_or((0, 0), |m| (m.reshare_bits, 1))
    }

    /// Bits, rounds and messages of one cipher call on `blocks` blocks with `nr` rounds: the first
    /// layer on replicated input, the others chained, then the output resharing.
    fn cipher(&self, nr: u64, blocks: u64) -> (u64, u64, u64) {
        let ((chained_bits, chained_messages), (reshare_bits, reshare_rounds)) =
            (self.chained(), self.reshare());
        let bits = 16 * blocks * (self.bits + (nr - 1) * chained_bits + reshare_bits);
        (
            bits,
            nr * self.rounds + reshare_rounds,
            self.messages + (nr - 1) * chained_messages + reshare_rounds,
        )
    }

    /// Bits, rounds and messages of one key-schedule `SubWord` (4 S-boxes and their resharing).
    fn sub_word(&self) -> (u64, u64, u64) {
        let (reshare_bits, reshare_rounds) = self.reshare();
        (4 * (self.bits + reshare_bits), self.rounds + reshare_rounds, self.messages + reshare_rounds)
    }
}

impl Variant for Gf256CircuitSbox {
    /// Table 1, GF(2^8)-circuit: 5120 bits and 30 rounds per block = 32 bits, 3 rounds per S-box.
    const COSTS: Costs = Costs { bits: 32, rounds: 3, messages: 3, pre_bits: 0, pre_rounds: 0, mixed: None };
    fn build(party: Party) -> Self {
        Gf256CircuitSbox::new(party)
    }
    fn party(&mut self) -> &mut Party {
        Gf256CircuitSbox::party(self)
    }
}

impl Variant for Gf16CircuitSbox {
    /// Table 1, GF(2^4)-circuit: 3200 bits per block = 20 bits per S-box; 4 rounds per S-box (40
    /// per block, not Table 1's 30: see the module docs of `gf16_circuit`).
    const COSTS: Costs = Costs { bits: 20, rounds: 4, messages: 4, pre_bits: 0, pre_rounds: 0, mixed: None };
    fn build(party: Party) -> Self {
        Gf16CircuitSbox::new(party)
    }
    fn party(&mut self) -> &mut Party {
        Gf16CircuitSbox::party(self)
    }
}

impl Variant for Lut16Sbox {
    /// Table 1, GF(2^4)-LUT-16: 1760 preprocessing bits in 2 rounds and 2560 online bits in 20
    /// rounds per block = 11 and 16 bits, 2 rounds per S-box.
    const COSTS: Costs = Costs { bits: 16, rounds: 2, messages: 3, pre_bits: 11, pre_rounds: 2, mixed: None };
    fn build(party: Party) -> Self {
        Lut16Sbox::new(party)
    }
    fn party(&mut self) -> &mut Party {
        Lut16Sbox::party(self)
    }
    async fn preprocess(&mut self, net: &mut MemoryNetwork, sboxes: usize) {
        Lut16Sbox::preprocess(self, net, sboxes).await.expect("preprocessing");
    }
}

impl Variant for Lut256Sbox {
    /// Table 1, ⟦·⟧-LUT-256: 39520 preprocessing bits and 1280 online bits in 10 rounds per block
    /// = 247 and 8 bits, 1 round per S-box; preprocessing in 7 rounds (log 256 − 1, §3.4; Table 1
    /// prints 6: see the module docs of `lut256`).
    const COSTS: Costs = Costs { bits: 8, rounds: 1, messages: 1, pre_bits: 247, pre_rounds: 7, mixed: None };
    fn build(party: Party) -> Self {
        Lut256Sbox::new(party)
    }
    fn party(&mut self) -> &mut Party {
        Lut256Sbox::party(self)
    }
    async fn preprocess(&mut self, net: &mut MemoryNetwork, sboxes: usize) {
        Lut256Sbox::preprocess(self, net, sboxes).await.expect("preprocessing");
    }
}

impl Variant for AdditiveLut256Sbox {
    /// Table 1, ⟨⟨·⟩⟩-LUT-256: 3520 preprocessing bits in 2 rounds = 22 bits per S-box; online
    /// 8 bits per S-box on replicated input, 16 on the additive output of the previous layer and
    /// 8 per byte to reshare the output: 16 · (8 + 9 · 16 + 8) = 2560 bits per AES-128 block, as
    /// in Table 1, in 10 + 1 rounds (the resharing round is not in Table 1's 10: see the module
    /// docs of `lut256_33`).
    const COSTS: Costs = Costs {
        bits: 8,
        rounds: 1,
        messages: 1,
        pre_bits: 22,
        pre_rounds: 2,
        mixed: Some(MixedCosts { chained_bits: 16, chained_messages: 2, reshare_bits: 8 }),
    };
    fn build(party: Party) -> Self {
        AdditiveLut256Sbox::new(party)
    }
    fn party(&mut self) -> &mut Party {
        AdditiveLut256Sbox::party(self)
    }
    async fn preprocess(&mut self, net: &mut MemoryNetwork, sboxes: usize) {
        AdditiveLut256Sbox::preprocess(self, net, sboxes).await.expect("preprocessing");
    }
}

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

#[test]
fn input_from_each_owner_costs_two_elements_per_value_from_the_owner_only() {
    let values = gf(&(0..=255u8).collect::<Vec<_>>());
    for owner in 0..3 {
        let results = run_session(3, |mut net| {
            let values = &values;
            async move {
                let mut party = setup(&mut net, 1).await;
                let before = net.stats();
                let mine = (net.party() == owner).then_some(&values[..]);
                let shares = party.input(&mut net, owner, mine, values.len()).await.unwrap();
                (shares, net.stats().since(&before))
            }
        });
        let shares: Vec<Vec<RssShare>> = results.iter().map(|r| r.0.clone()).collect();
        assert_eq!(reconstruct_all(&shares), values, "owner {owner}");
        for (p, (_, stats)) in results.iter().enumerate() {
            let expected_bytes = if p == owner { 2 * 256 } else { 0 };
            assert_eq!(stats.bytes_sent, expected_bytes, "owner {owner}, party {p}");
        }
        // Non-owners' shares of different inputs are not the input itself (masked by PRSS).
        assert_ne!(shares[(owner + 1) % 3].iter().map(|s| s.second()).collect::<Vec<_>>(), values);
    }
}

#[test]
fn input_errors_are_typed() {
    let results = run_session(3, |mut net| async move {
        let mut party = setup(&mut net, 2).await;
        let me = net.party();
        let wrong_len = party.input(&mut net, me, Some(&[Gf256(1)]), 2).await;
        let missing = party.input(&mut net, me, None, 1).await;
        let unknown = party.input(&mut net, 3, None, 1).await;
        (me, wrong_len, missing, unknown)
    });
    for (p, wrong_len, missing, unknown) in results {
        assert_eq!(wrong_len, Err(MaestroError::BadInput { owner: p, expected: 2, supplied: Some(1) }));
        assert_eq!(missing, Err(MaestroError::BadInput { owner: p, expected: 1, supplied: None }));
        assert_eq!(unknown, Err(MaestroError::UnknownParty(3)));
    }
}

#[test]
fn batched_multiplication_is_correct_with_one_message_per_party() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let n = 500;
    let x: Vec<Gf256> = (0..n).map(|_| Gf256::random(&mut rng)).collect();
    let y: Vec<Gf256> = (0..n).map(|_| Gf256::random(&mut rng)).collect();
    let dealt: Vec<[Vec<RssShare>; 2]> = {
        let mut per_party: Vec<[Vec<RssShare>; 2]> = (0..3).map(|_| [Vec::new(), Vec::new()]).collect();
        for (a, b) in x.iter().zip(&y) {
            let (sa, sb) = (RssShare::deal(*a, &mut rng), RssShare::deal(*b, &mut rng));
            for p in 0..3 {
                per_party[p][0].push(sa[p]);
                per_party[p][1].push(sb[p]);
            }
        }
        per_party
    };
    let results = run_session(3, |mut net| {
        let dealt = &dealt;
        async move {
            let mut party = setup(&mut net, 3).await;
            let before = net.stats();
            let [a, b] = &dealt[net.party()];
            let z = party.mul(&mut net, a, b).await.unwrap();
            (z, net.stats().since(&before))
        }
    });
    let z: Vec<Vec<RssShare>> = results.iter().map(|r| r.0.clone()).collect();
    let expected: Vec<Gf256> = x.iter().zip(&y).map(|(a, b)| *a * *b).collect();
    assert_eq!(reconstruct_all(&z), expected);
    for (_, stats) in &results {
        assert_eq!((stats.bytes_sent, stats.messages_sent, stats.rounds), (n as u64, 1, 1));
    }
}

#[test]
fn mismatched_operands_are_an_error() {
    let results = run_session(3, |mut net| async move {
        let mut party = setup(&mut net, 4).await;
        let a = vec![RssShare::zero(net.party()); 3];
        party.mul(&mut net, &a, &a[..2]).await.map(|_| ())
    });
    for r in results {
        assert_eq!(r, Err(MaestroError::OperandLengthMismatch { left: 3, right: 2 }));
    }
}

#[test]
fn gf256_inversion_is_exhaustively_correct_in_three_rounds() {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let dealt: Vec<[RssShare; 3]> = (0..=255u8).map(|v| RssShare::deal(Gf256(v), &mut rng)).collect();
    let results = run_session(3, |mut net| {
        let x: Vec<RssShare> = dealt.iter().map(|d| d[net.party()]).collect();
        async move {
            let mut party = setup(&mut net, 5).await;
            let before = net.stats();
            let inv = gf256_circuit::inverse(&mut party, &mut net, &x).await.unwrap();
            (inv, net.stats().since(&before))
        }
    });
    let inv = reconstruct_all(&results.iter().map(|r| r.0.clone()).collect::<Vec<_>>());
    for (v, inv) in inv.iter().enumerate() {
        assert_eq!(*inv, Gf256(v as u8).inverse(), "inverse of {v:#04x}");
    }
    for r in &results {
        // 4 multiplications per S-box, one byte each, in three rounds.
        assert_eq!((r.1.bytes_sent, r.1.rounds), (4 * 256, 3));
    }
}

/// All 256 bytes through `sub_bytes` and `inv_sub_bytes` on replicated input, and
/// `inv_sub_bytes` chained on `sub_bytes`' output: every output is S(x), S⁻¹(x), respectively x,
/// each call at the variant's exact cost.
fn sbox_is_exhaustively_correct<S: Variant>() {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let dealt: Vec<[RssShare; 3]> = (0..=255u8).map(|v| RssShare::deal(Gf256(v), &mut rng)).collect();
    let results = run_session(3, |mut net| {
        let x: Vec<S::Share> = dealt.iter().map(|d| d[net.party()].into()).collect();
        async move {
            let mut sbox = S::build(setup(&mut net, 5).await);
            sbox.preprocess(&mut net, 768).await;
            let mut costs = Vec::new();
            let mut measure = |net: &MemoryNetwork, before: NetStats| {
                let stats = net.stats().since(&before);
                costs.push((stats.bytes_sent * 8, stats.rounds, stats.messages_sent));
            };
            let mut forward = x.clone();
            let before = net.stats();
            sbox.sub_bytes(&mut net, &mut forward).await.unwrap();
            measure(&net, before);
            let mut back = forward.clone();
            let before = net.stats();
            sbox.to_replicated(&mut net, &mut forward).await.unwrap();
            measure(&net, before);
            let before = net.stats();
            sbox.inv_sub_bytes(&mut net, &mut back).await.unwrap();
            measure(&net, before);
            sbox.to_replicated(&mut net, &mut back).await.unwrap();
            let mut inverse = x;
            let before = net.stats();
            sbox.inv_sub_bytes(&mut net, &mut inverse).await.unwrap();
            measure(&net, before);
            sbox.to_replicated(&mut net, &mut inverse).await.unwrap();
            let outputs = [forward, back, inverse].map(|v| to_replicated(&v));
            (outputs, costs)
        }
    });
    let opened: Vec<Vec<Gf256>> = (0..3)
        .map(|k| reconstruct_all(&results.iter().map(|r| r.0[k].clone()).collect::<Vec<_>>()))
        .collect();
    let (table, inv_table) = (sbox_table(), inv_sbox_table());
    for v in 0..256 {
        assert_eq!(opened[0][v].0, table[v], "S-box of {v:#04x}");
        assert_eq!(opened[1][v].0, v as u8, "inverse S-box of the S-box of {v:#04x}");
        assert_eq!(opened[2][v].0, inv_table[v], "inverse S-box of {v:#04x}");
    }
    let c = S::COSTS;
    let ((chained_bits, chained_messages), (reshare_bits, reshare_rounds)) = (c.chained(), c.reshare());
    let expected = vec![
        (256 * c.bits, c.rounds, c.messages),
        (256 * reshare_bits, reshare_rounds, reshare_rounds),
        (256 * chained_bits, c.rounds, chained_messages),
        (256 * c.bits, c.rounds, c.messages),
    ];
    for r in &results {
        assert_eq!(
            r.1, expected,
            "(bits, rounds, messages) of sub_bytes, to_replicated, chained and replicated inv_sub_bytes"
        );
    }
}

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

/// Checks the per-party costs of [`run_aes`] against the variant's [`Costs`]; the plaintext input
/// by `pt_owner` is the last step before the key schedule. `passes` is 1 for encryption or
/// decryption and 2 for a round trip: decryption costs exactly what encryption costs.
fn assert_aes_costs<S: Variant>(runs: &[AesRun], blocks: usize, passes: u64, pt_owner: usize) {
    let Costs { pre_bits, pre_rounds, .. } = S::COSTS;
    let (bits, rounds, messages) = S::COSTS.cipher(10, blocks as u64);
    let (word_bits, word_rounds, word_messages) = S::COSTS.sub_word();
    for (p, run) in runs.iter().enumerate() {
        // Preprocessing: 40 key-schedule S-boxes and 160 per block and pass, one batch.
        assert_eq!(
            run.preprocessing.bytes_sent * 8,
            pre_bits * (40 + 160 * passes * blocks as u64),
            "party {p}"
        );
        assert_eq!(run.preprocessing.rounds, pre_rounds, "party {p}");
        // Table 1 counts bits per party per block without the key schedule (160 S-boxes); all
        // blocks of a round share the rounds.
        assert_eq!(run.cipher.bytes_sent * 8, bits * passes, "party {p}");
        assert_eq!(run.cipher.rounds, rounds * passes, "party {p}");
        assert_eq!(run.cipher.messages_sent, messages * passes, "party {p}");
        // Key schedule: 40 S-boxes in 10 SubWords.
        assert_eq!(run.key_schedule.bytes_sent * 8, 10 * word_bits, "party {p}");
        // The plaintext owner only sends in its input step, so its first key-schedule message
        // leaves in the same round (nothing to wait for in between): it counts one round less.
        let expected_rounds = if p == pt_owner { 10 * word_rounds - 1 } else { 10 * word_rounds };
        assert_eq!(run.key_schedule.rounds, expected_rounds, "party {p}");
        assert_eq!(run.key_schedule.messages_sent, 10 * word_messages, "party {p}");
    }
}

const FIPS_KEY: Block =
    [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f];
const FIPS_PT: Block =
    [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff];
const FIPS_CT: Block =
    [0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a];

fn fips197_key_from_party0_plaintext_from_party1_batches_1_and_7<S: Variant>() {
    for batch in [1usize, 7] {
        let blocks = vec![FIPS_PT; batch];
        let runs = run_aes::<S>(&FIPS_KEY, &blocks, Direction::Encrypt, KeyInput::Party(0), 1, &[0, 1, 2], 6);
        for run in &runs {
            let expected: Vec<u8> = FIPS_CT.repeat(batch);
            assert_eq!(run.output.as_deref(), Some(&expected[..]));
        }
        assert_aes_costs::<S>(&runs, batch, 1, 1);
    }
}

/// FIPS-197 Appendix C.1 backwards: the ciphertext decrypts to the plaintext.
fn fips197_decryption_batches_1_and_7<S: Variant>() {
    for batch in [1usize, 7] {
        let blocks = vec![FIPS_CT; batch];
        let runs =
            run_aes::<S>(&FIPS_KEY, &blocks, Direction::Decrypt, KeyInput::Party(0), 1, &[0, 1, 2], 26);
        for run in &runs {
            let expected: Vec<u8> = FIPS_PT.repeat(batch);
            assert_eq!(run.output.as_deref(), Some(&expected[..]));
        }
        assert_aes_costs::<S>(&runs, batch, 1, 1);
    }
}

/// Encrypting and then decrypting the still-shared ciphertext gives the plaintext back, at twice
/// the cost of one direction.
fn encrypt_then_decrypt_round_trip<S: Variant>() {
    let mut rng = ChaCha20Rng::seed_from_u64(27);
    let key = random_bytes(&mut rng, 16);
    let blocks: Vec<Block> = (0..7).map(|_| random_bytes(&mut rng, 16).try_into().unwrap()).collect();
    let runs =
        run_aes::<S>(&key, &blocks, Direction::RoundTrip, KeyInput::XorShares(0, 1), 2, &[0, 1, 2], 28);
    let expected: Vec<u8> = blocks.iter().flatten().copied().collect();
    for run in &runs {
        assert_eq!(run.output.as_deref(), Some(&expected[..]));
    }
    assert_aes_costs::<S>(&runs, blocks.len(), 2, 2);
}

/// Random keys and blocks, batches 1, 7 and 1000, in `direction` against RustCrypto's `aes`.
fn random_keys_and_1000_blocks_match_rustcrypto<S: Variant>(direction: Direction) {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for (batch, seed) in [(1usize, 70u64), (7, 71), (1000, 72)] {
        let key: Block = random_bytes(&mut rng, 16).try_into().unwrap();
        let blocks: Vec<Block> = (0..batch).map(|_| random_bytes(&mut rng, 16).try_into().unwrap()).collect();
        let reference = ::aes::Aes128::new(&key.into());
        let expected: Vec<u8> = blocks
            .iter()
            .flat_map(|b| {
                let mut g = (*b).into();
                match direction {
                    Direction::Encrypt => reference.encrypt_block(&mut g),
                    Direction::Decrypt => reference.decrypt_block(&mut g),
                    Direction::RoundTrip => {}
                }
                g.to_vec()
            })
            .collect();
        let runs = run_aes::<S>(&key, &blocks, direction, KeyInput::Party(2), 0, &[0, 1, 2], seed);
        for run in &runs {
            assert_eq!(run.output.as_deref(), Some(&expected[..]), "{direction:?}, batch {batch}");
        }
        let passes = if direction == Direction::RoundTrip { 2 } else { 1 };
        assert_aes_costs::<S>(&runs, batch, passes, 0);
    }
}

#[test]
fn key_as_xor_shares_of_two_parties() {
    let runs = run_aes::<Gf256CircuitSbox>(
        &FIPS_KEY,
        &[FIPS_PT, FIPS_PT],
        Direction::Encrypt,
        KeyInput::XorShares(0, 2),
        1,
        &[0, 1, 2],
        8,
    );
    for run in &runs {
        assert_eq!(run.output.as_deref(), Some(&FIPS_CT.repeat(2)[..]));
    }
}

#[test]
fn reveal_to_party_2_only() {
    let runs = run_aes::<Gf256CircuitSbox>(
        &FIPS_KEY,
        &[FIPS_PT],
        Direction::Encrypt,
        KeyInput::Party(0),
        1,
        &[2],
        9,
    );
    assert_eq!(runs[0].output, None);
    assert_eq!(runs[1].output, None);
    assert_eq!(runs[2].output.as_deref(), Some(&FIPS_CT[..]));
}

#[test]
fn reveal_costs_and_unknown_recipient() {
    let results = run_session(3, |mut net| async move {
        let mut party = setup(&mut net, 10).await;
        let shares = party.prss_mut().random(10);
        let before = net.stats();
        let to_two = party.reveal(&mut net, &shares, &[2]).await.unwrap();
        let reveal_stats = net.stats().since(&before);
        let cost_to_two = (reveal_stats.bytes_sent, reveal_stats.bytes_received);
        let to_all = party.open(&mut net, &shares).await.unwrap();
        let bad = party.reveal(&mut net, &shares, &[0, 5]).await;
        (to_two, cost_to_two, to_all, bad)
    });
    // Only party 0 serves party 2 (it sends its second component x₁); parties 0 and 1 receive
    // nothing, so they learn nothing beyond their own shares.
    assert_eq!(results.iter().map(|r| r.1).collect::<Vec<_>>(), vec![(10, 0), (0, 0), (0, 10)]);
    assert_eq!(results[2].0.as_ref(), Some(&results[0].2));
    for r in &results {
        assert_eq!(r.2, results[0].2);
        assert_eq!(r.3, Err(MaestroError::UnknownParty(5)));
    }
}

#[test]
fn supplied_shared_round_keys_encrypt_and_decrypt() {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    let plain = Aes::new(&FIPS_KEY).unwrap();
    let round_keys_plain = crate::aes::expand_key(KeySize::Aes128, &gf(&FIPS_KEY), |w| {
        for b in w.iter_mut() {
            *b = crate::aes::sbox::sbox(*b);
        }
    });
    // Deal every round-key byte: per_party[p][r][j].
    let mut per_party: Vec<Vec<[RssShare; 16]>> = vec![Vec::new(); 3];
    for rk in round_keys_plain.as_slice() {
        let dealt: Vec<[RssShare; 3]> = rk.iter().map(|b| RssShare::deal(*b, &mut rng)).collect();
        for (p, keys) in per_party.iter_mut().enumerate() {
            keys.push(core::array::from_fn(|j| dealt[j][p]));
        }
    }
    let dealt_pt: Vec<[RssShare; 3]> = FIPS_PT.iter().map(|&b| RssShare::deal(Gf256(b), &mut rng)).collect();
    let pt: Vec<[RssShare; 16]> = (0..3).map(|p| core::array::from_fn(|j| dealt_pt[j][p])).collect();
    let results = run_session(3, |mut net| {
        let keys = per_party[net.party()].clone();
        let pt = &pt;
        async move {
            let mut sbox = Gf256CircuitSbox::new(setup(&mut net, 11).await);
            let me = net.party();
            let mut state = vec![pt[me]];
            let short = round_keys_from_shares(KeySize::Aes128, keys[..10].to_vec()).map(|_| ());
            let round_keys = round_keys_from_shares(KeySize::Aes128, keys).unwrap();
            let before = net.stats();
            encrypt_blocks(&mut sbox, &mut net, &round_keys, &mut state).await.unwrap();
            let stats = net.stats().since(&before);
            let ct = sbox.party().open(&mut net, state.as_flattened()).await.unwrap();
            let before = net.stats();
            decrypt_blocks(&mut sbox, &mut net, &round_keys, &mut state).await.unwrap();
            let dec_stats = net.stats().since(&before);
            let back = sbox.party().open(&mut net, state.as_flattened()).await.unwrap();
            (ct, stats, short, back, dec_stats)
        }
    });
    for (ct, stats, short, back, dec_stats) in results {
        assert_eq!(ct, gf(&plain.encrypt_block(&FIPS_PT)));
        assert_eq!((stats.bytes_sent * 8, stats.rounds), (5120, 30));
        assert_eq!(short, Err(MaestroError::BadRoundKeyCount { expected: 11, actual: 10 }));
        assert_eq!(back, gf(&FIPS_PT), "decryption with the supplied round keys");
        assert_eq!((dec_stats.bytes_sent * 8, dec_stats.rounds), (5120, 30));
    }
}

#[test]
fn bad_key_length_is_an_error() {
    let results = run_session(3, |mut net| async move {
        let mut sbox = Gf256CircuitSbox::new(setup(&mut net, 12).await);
        let key = vec![RssShare::zero(net.party()); 15];
        expand_key(&mut sbox, &mut net, &key).await.map(|_| ())
    });
    for r in results {
        assert_eq!(r, Err(MaestroError::BadKeyLength(15)));
    }
}

#[test]
fn short_multiplication_message_names_sender_and_lengths() {
    let results = run_session(3, |mut net| async move {
        let mut party = setup(&mut net, 13).await;
        let me = net.party();
        let a = party.prss_mut().random(8);
        if me == 1 {
            // Party 1 cheats: its resharing message to party 0 is one byte short.
            net.send(0, vec![0; 7]).unwrap();
            return None;
        }
        Some(party.mul(&mut net, &a, &a).await.map(|_| ()))
    });
    assert_eq!(
        results[0],
        Some(Err(MaestroError::MalformedMessage { from: 1, step: Step::Multiply, expected: 8, actual: 7 }))
    );
}

#[test]
fn vanished_peer_is_a_network_error_with_step_and_round() {
    let results = run_session(3, |mut net| async move {
        let mut party = setup(&mut net, 14).await;
        if net.party() == 1 {
            return None;
        }
        let a = party.prss_mut().random(4);
        Some(party.mul(&mut net, &a, &a).await.map(|_| ()))
    });
    // Party 0 waits for party 1's resharing message; party 1 left after the setup round.
    assert_eq!(
        results[0],
        Some(Err(MaestroError::Network { step: Step::Multiply, round: 2, source: NetError::PeerLeft(1) }))
    );
}

/// FIPS-197 Appendix C.3 (AES-256) in both directions.
fn aes256_fips197_c3_through_the_same_driver<S: Variant>() {
    let key: Vec<u8> = (0..32).collect();
    let ciphertext: Block = hex::decode("8ea2b7ca516745bfeafc49904b496089").unwrap().try_into().unwrap();
    for (direction, input, expected) in
        [(Direction::Encrypt, FIPS_PT, ciphertext), (Direction::Decrypt, ciphertext, FIPS_PT)]
    {
        let runs = run_aes::<S>(&key, &[input], direction, KeyInput::XorShares(1, 2), 0, &[0, 1, 2], 15);
        let (bits, rounds, messages) = S::COSTS.cipher(14, 1);
        let (word_bits, _, word_messages) = S::COSTS.sub_word();
        for (p, run) in runs.iter().enumerate() {
            assert_eq!(run.output.as_deref(), Some(&expected[..]), "{direction:?}");
            // 14 rounds × 16 S-boxes; key schedule: 13 SubWords = 52 S-boxes.
            let cipher = (run.cipher.bytes_sent * 8, run.cipher.rounds, run.cipher.messages_sent);
            assert_eq!(cipher, (bits, rounds, messages), "{direction:?}, party {p}");
            let key_schedule = (run.key_schedule.bytes_sent * 8, run.key_schedule.messages_sent);
            assert_eq!(key_schedule, (13 * word_bits, 13 * word_messages), "{direction:?}, party {p}");
        }
    }
}

fn key_schedule_alone_matches_plain_expansion<S: Variant>() {
    let mut rng = ChaCha20Rng::seed_from_u64(16);
    let key = random_bytes(&mut rng, 16);
    let dealt: Vec<[RssShare; 3]> = key.iter().map(|&b| RssShare::deal(Gf256(b), &mut rng)).collect();
    let results = run_session(3, |mut net| {
        let key: Vec<S::Share> = dealt.iter().map(|d| d[net.party()].into()).collect();
        async move {
            let mut sbox = S::build(setup(&mut net, 16).await);
            sbox.preprocess(&mut net, 40).await;
            let before = net.stats();
            let round_keys = expand_key(&mut sbox, &mut net, &key).await.unwrap();
            (round_keys, net.stats().since(&before))
        }
    });
    let plain = crate::aes::expand_key(KeySize::Aes128, &gf(&key), |w| {
        for b in w.iter_mut() {
            *b = crate::aes::sbox::sbox(*b);
        }
    });
    for r in 0..=10 {
        for j in 0..16 {
            let shares = [0, 1, 2].map(|p| results[p].0.round(r)[j].replicated());
            assert_eq!(RssShare::reconstruct(&shares), Some(plain.round(r)[j]), "round key {r}, byte {j}");
        }
    }
    for (_, stats) in &results {
        // 40 S-boxes in 10 SubWords.
        let (word_bits, word_rounds, _) = S::COSTS.sub_word();
        assert_eq!((stats.bytes_sent * 8, stats.rounds), (10 * word_bits, 10 * word_rounds));
    }
}

#[test]
fn property_multiplication_and_linear_combinations_open_correctly() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    // Deterministic runner: a failing case reproduces on every run.
    let mut runner = TestRunner::new_with_rng(
        Config { cases: 48, ..Config::default() },
        proptest::test_runner::TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
    );
    let strategy = (proptest::collection::vec((any::<u8>(), any::<u8>()), 0..24), any::<u8>(), any::<u64>());
    runner
        .run(&strategy, |(pairs, c, seed)| {
            let mut rng = ChaCha20Rng::seed_from_u64(seed);
            let dealt: Vec<([RssShare; 3], [RssShare; 3])> = pairs
                .iter()
                .map(|&(x, y)| (RssShare::deal(Gf256(x), &mut rng), RssShare::deal(Gf256(y), &mut rng)))
                .collect();
            let results = run_session(3, |mut net| {
                let p = net.party();
                let x: Vec<RssShare> = dealt.iter().map(|d| d.0[p]).collect();
                let y: Vec<RssShare> = dealt.iter().map(|d| d.1[p]).collect();
                async move {
                    let mut party = setup(&mut net, seed).await;
                    let xy = party.mul(&mut net, &x, &y).await.unwrap();
                    // x·y + c·x + y + c, all local after the product.
                    let combined: Vec<RssShare> = xy
                        .iter()
                        .zip(&x)
                        .zip(&y)
                        .map(|((&xy, &x), &y)| xy + x.mul_public(c) + y.add_public(c))
                        .collect();
                    party.open(&mut net, &combined).await.unwrap()
                }
            });
            let expected: Vec<Gf256> = pairs
                .iter()
                .map(|&(x, y)| Gf256(x) * Gf256(y) + Gf256(x) * Gf256(c) + Gf256(y) + Gf256(c))
                .collect();
            for opened in results {
                prop_assert_eq!(&opened, &expected);
            }
            Ok(())
        })
        .unwrap();
}

/// The FIPS-197 / RustCrypto / cost suite every S-box variant runs, encryption and decryption,
/// with its exact costs.
pub(super) fn aes_suite<S: Variant>() {
    sbox_is_exhaustively_correct::<S>();
    key_schedule_alone_matches_plain_expansion::<S>();
    fips197_key_from_party0_plaintext_from_party1_batches_1_and_7::<S>();
    fips197_decryption_batches_1_and_7::<S>();
    random_keys_and_1000_blocks_match_rustcrypto::<S>(Direction::Encrypt);
    random_keys_and_1000_blocks_match_rustcrypto::<S>(Direction::Decrypt);
    encrypt_then_decrypt_round_trip::<S>();
    aes256_fips197_c3_through_the_same_driver::<S>();
}

#[test]
fn gf256_circuit_aes_suite() {
    aes_suite::<Gf256CircuitSbox>();
}

#[test]
fn gf16_circuit_aes_suite() {
    aes_suite::<Gf16CircuitSbox>();
}

#[test]
fn lut16_aes_suite() {
    aes_suite::<Lut16Sbox>();
}

#[test]
fn lut16_without_enough_preprocessing_is_a_typed_error_before_sending() {
    let results = run_session(3, |mut net| async move {
        let mut sbox = Lut16Sbox::new(setup(&mut net, 17).await);
        sbox.preprocess(&mut net, 3).await.unwrap();
        let mut bytes = sbox.party().prss_mut().random(4);
        let before = net.stats();
        let err = sbox.sub_bytes(&mut net, &mut bytes).await;
        (err, sbox.available(), net.stats().since(&before).bytes_sent)
    });
    for r in results {
        assert_eq!(r, (Err(MaestroError::PreprocessingExhausted { needed: 4, available: 3 }), 3, 0));
    }
}

#[test]
fn lut16_malformed_lookup_opening_names_sender() {
    let results = run_session(3, |mut net| async move {
        let mut sbox = Lut16Sbox::new(setup(&mut net, 18).await);
        sbox.preprocess(&mut net, 3).await.unwrap();
        let mut bytes = sbox.party().prss_mut().random(3);
        if net.party() == 2 {
            // Party 2 sends party 0 a padded opening with a nonzero padding nibble.
            net.send(0, vec![0, 0xf0]).unwrap();
            return None;
        }
        Some(sbox.sub_bytes(&mut net, &mut bytes).await)
    });
    assert_eq!(results[0], Some(Err(MaestroError::NonzeroPadding { from: 2, step: Step::LookupOpen })));
}

#[test]
fn lut256_aes_suite() {
    aes_suite::<Lut256Sbox>();
}

#[test]
fn lut256_33_aes_suite() {
    aes_suite::<AdditiveLut256Sbox>();
}

#[test]
fn lut256_33_without_enough_preprocessing_is_a_typed_error_before_sending() {
    let results = run_session(3, |mut net| async move {
        let mut sbox = AdditiveLut256Sbox::new(setup(&mut net, 19).await);
        sbox.preprocess(&mut net, 3).await.unwrap();
        let mut bytes: Vec<MixedShare> = to_shares(sbox.party().prss_mut().random(4));
        let before = net.stats();
        let err = sbox.inv_sub_bytes(&mut net, &mut bytes).await;
        (err, sbox.available(), net.stats().since(&before).bytes_sent)
    });
    for r in results {
        assert_eq!(r, (Err(MaestroError::PreprocessingExhausted { needed: 4, available: 3 }), 3, 0));
    }
}

/// With the `rayon` feature, every bulk step split over threads gives exactly the shares (and
/// messages) of the in-order computation: PRSS streams, products, S-box layers, preprocessing.
#[cfg(all(feature = "rayon", not(target_arch = "wasm32")))]
#[test]
fn rayon_split_gives_identical_shares() {
    use super::packed::Packed;
    use super::par::sequentially;
    let run = || {
        run_session(3, |mut net| async move {
            let mut party = setup(&mut net, 90).await;
            let x = party.prss_mut().random_packed(3001);
            let mut out = vec![x.clone()];
            out.push(
                party
                    .mul_packed(
                        &mut net,
                        &x,
                        &x.map_linear(&super::packed::ByteLinear::new(|b| b.rotate_left(1))),
                    )
                    .await
                    .unwrap(),
            );
            out.push(super::gf256_circuit::inverse_packed(&mut party, &mut net, &x).await.unwrap());
            out.push(super::gf16_circuit::inverse_packed(&mut party, &mut net, &x).await.unwrap());
            let one_hot16 = super::one_hot16::generate(&mut party, &mut net, 1500).await.unwrap();
            let one_hot256 = super::lut256::generate(&mut party, &mut net, 700).await.unwrap();
            let mut bytes = x.to_shares();
            let mut lut = Lut16Sbox::new(party);
            lut.preprocess(&mut net, bytes.len()).await.unwrap();
            lut.sub_bytes(&mut net, &mut bytes).await.unwrap();
            out.push(Packed::from_shares(net.party(), &bytes));
            (out, one_hot16, one_hot256, net.stats())
        })
    };
    let parallel = run();
    let in_order = sequentially(run);
    assert!(parallel == in_order, "the rayon split changed shares or messages");
}
