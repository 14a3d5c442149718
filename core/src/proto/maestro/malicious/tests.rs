//! Tests of the malicious variants: the generic AES suite (FIPS-197, RustCrypto, exact online
//! costs), honest end-to-end runs with verify-before-reveal at the exact verification cost, and
//! cheating parties — corrupted messages at every protocol position and local deviations on
//! shares — after which both honest parties abort with a typed error and output nothing.

use super::tamper::{Deviation, MessageAttack, TamperNet};
use super::*;
use crate::aes::Block;
use crate::field::Gf256;
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::{NetError, NetStats, Network};
use crate::proto::maestro::aes::{encrypt_blocks, expand_key, to_blocks};
use crate::proto::maestro::mixed_share::replicated_shares;
use crate::proto::maestro::tests::{aes_suite, Costs, Variant};
use ::aes::cipher::{BlockEncrypt, KeyInit};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

/// A malicious variant under test.
pub(super) trait Malicious: MaliciousSboxLayer + Sized {
    /// GF(2^64) triples recorded per S-box (online and preprocessing together).
    const TRIPLES_PER_SBOX: usize;
    /// Messages each party sends in one AES-128 encryption (10 S-box layers).
    const ENCRYPTION_MESSAGES: usize;
    /// Messages each party sends in preprocessing.
    const PREPROCESSING_MESSAGES: usize = 0;
    fn create(party: Party) -> Self;
    async fn prepare<N: Network>(&mut self, _net: &mut N, _sboxes: usize) -> Result<(), MaestroError> {
        Ok(())
    }
}

impl Malicious for MaliciousGf256CircuitSbox {
    /// x²·x and x²⁴⁰·x¹⁴, plus x¹²·x² and x¹²·x³ checked as one shared-factor triple.
    const TRIPLES_PER_SBOX: usize = 3;
    const ENCRYPTION_MESSAGES: usize = 10 * 3;
    fn create(party: Party) -> Self {
        Self::new(party)
    }
}

impl Malicious for MaliciousGf16CircuitSbox {
    const TRIPLES_PER_SBOX: usize = 3;
    const ENCRYPTION_MESSAGES: usize = 10 * 4;
    fn create(party: Party) -> Self {
        Self::new(party)
    }
}

impl Malicious for MaliciousLut16Sbox {
    const TRIPLES_PER_SBOX: usize = 3;
    const ENCRYPTION_MESSAGES: usize = 10 * 3;
    const PREPROCESSING_MESSAGES: usize = 2;
    fn create(party: Party) -> Self {
        Self::new(party)
    }
    async fn prepare<N: Network>(&mut self, net: &mut N, sboxes: usize) -> Result<(), MaestroError> {
        self.preprocess(net, sboxes).await
    }
}

impl Malicious for MaliciousAdditiveLut256Sbox {
    /// 2 VerifySbox triples online, 2 × 2 Eq. (5)/(6) triples for the two one-hot vectors.
    const TRIPLES_PER_SBOX: usize = 6;
    /// The first layer's replicated opening of c (one message), the additive openings of the
    /// nine others (to both peers), and the resharing of the last layer's output (Protocol 7).
    const ENCRYPTION_MESSAGES: usize = 1 + 9 * 2 + 1;
    const PREPROCESSING_MESSAGES: usize = 2;
    fn create(party: Party) -> Self {
        Self::new(party)
    }
    async fn prepare<N: Network>(&mut self, net: &mut N, sboxes: usize) -> Result<(), MaestroError> {
        self.preprocess(net, sboxes).await
    }
}

impl Variant for MaliciousGf256CircuitSbox {
    const COSTS: Costs = Costs { bits: 32, rounds: 3, messages: 3, pre_bits: 0, pre_rounds: 0, mixed: None };
    fn build(party: Party) -> Self {
        Self::new(party)
    }
    fn party(&mut self) -> &mut Party {
        self.session().party()
    }
}

impl Variant for MaliciousGf16CircuitSbox {
    const COSTS: Costs = Costs { bits: 20, rounds: 4, messages: 4, pre_bits: 0, pre_rounds: 0, mixed: None };
    fn build(party: Party) -> Self {
        Self::new(party)
    }
    fn party(&mut self) -> &mut Party {
        self.session().party()
    }
}

impl Variant for MaliciousLut16Sbox {
    const COSTS: Costs = Costs { bits: 16, rounds: 2, messages: 3, pre_bits: 11, pre_rounds: 2, mixed: None };
    fn build(party: Party) -> Self {
        Self::new(party)
    }
    fn party(&mut self) -> &mut Party {
        self.session().party()
    }
    async fn preprocess(&mut self, net: &mut MemoryNetwork, sboxes: usize) {
        MaliciousLut16Sbox::preprocess(self, net, sboxes).await.expect("preprocessing");
    }
}

/// Protocol 7's online costs, those of the semi-honest layer: 8 bits to open c from replicated
/// input, 16 bits (two messages) from the additive output of the previous layer, one round each,
/// and 8 bits per byte to reshare the last output: 16 · (8 + 9 · 16 + 8) = 2560 bits per AES-128
/// block in 10 + 1 rounds; 22 preprocessing bits (two length-16 one-hot vectors) in 2 rounds.
impl Variant for MaliciousAdditiveLut256Sbox {
    const COSTS: Costs = <crate::proto::maestro::AdditiveLut256Sbox as Variant>::COSTS;
    fn build(party: Party) -> Self {
        Self::new(party)
    }
    fn party(&mut self) -> &mut Party {
        self.session().party()
    }
    async fn preprocess(&mut self, net: &mut MemoryNetwork, sboxes: usize) {
        MaliciousAdditiveLut256Sbox::preprocess(self, net, sboxes).await.expect("preprocessing");
    }
}

#[test]
fn malicious_lut256_33_aes_suite() {
    aes_suite::<MaliciousAdditiveLut256Sbox>();
}

#[test]
fn malicious_gf256_circuit_aes_suite() {
    aes_suite::<MaliciousGf256CircuitSbox>();
}

#[test]
fn malicious_gf16_circuit_aes_suite() {
    aes_suite::<MaliciousGf16CircuitSbox>();
}

#[test]
fn malicious_lut16_aes_suite() {
    aes_suite::<MaliciousLut16Sbox>();
}

/// Messages a party had sent at the end of each phase of [`job`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Phases {
    pub(super) setup: usize,
    pub(super) preprocessing: usize,
    pub(super) inputs: usize,
    pub(super) key_schedule: usize,
    pub(super) encryption: usize,
    /// End of the verified opening (verification, output shares, output hashes).
    pub(super) open: usize,
}

struct JobRun {
    output: Result<Vec<u8>, MaestroError>,
    phases: Phases,
    /// Communication of the verified opening (verification + output opening + hash comparison).
    open_stats: NetStats,
}

/// One AES-128 job with malicious security: key from party 0, `blocks` from party 1, all outputs
/// opened with [`MaliciousSession::open`]. `corrupt` runs `attack` / `deviation`.
fn job<S: Malicious>(
    key: Block,
    blocks: &[Block],
    corrupt: usize,
    attack: Option<MessageAttack>,
    deviation: Option<Deviation>,
    seed: u64,
) -> Vec<JobRun> {
    let plaintext: Vec<Gf256> = blocks.iter().flatten().map(|&b| Gf256(b)).collect();
    let key: Vec<Gf256> = key.iter().map(|&b| Gf256(b)).collect();
    run_session(3, |net| {
        let me = net.party();
        let mut net = TamperNet::new(net, if me == corrupt { attack } else { None });
        let (key, plaintext) = (key.clone(), plaintext.clone());
        async move {
            let mut phases = Phases::default();
            let mut open_stats = NetStats::default();
            let output = async {
                let mut rng = ChaCha20Rng::seed_from_u64(seed * 3 + me as u64);
                let mut sbox = S::create(Party::setup(&mut net, &mut rng).await?);
                if me == corrupt {
                    sbox.session().deviation = deviation;
                }
                phases.setup = net.sent();
                sbox.prepare(&mut net, 40 + 160 * plaintext.len() / 16).await?;
                phases.preprocessing = net.sent();
                let key_shares = sbox.session().input(&mut net, 0, (me == 0).then_some(&key[..]), 16).await?;
                let pt = (me == 1).then_some(&plaintext[..]);
                let pt_shares = sbox.session().input(&mut net, 1, pt, plaintext.len()).await?;
                let key_shares: Vec<S::Share> = key_shares.into_iter().map(S::Share::from).collect();
                let pt_shares: Vec<S::Share> = pt_shares.into_iter().map(S::Share::from).collect();
                phases.inputs = net.sent();
                let round_keys = expand_key(&mut sbox, &mut net, &key_shares).await?;
                phases.key_schedule = net.sent();
                let mut state = to_blocks(&pt_shares).expect("whole blocks");
                encrypt_blocks(&mut sbox, &mut net, &round_keys, &mut state).await?;
                phases.encryption = net.sent();
                let before = net.stats();
                let opened = sbox.session().open(&mut net, state.as_flattened()).await?;
                open_stats = net.stats().since(&before);
                phases.open = net.sent();
                Ok(opened.iter().map(|b| b.0).collect())
            }
            .await;
            JobRun { output, phases, open_stats }
        }
    })
}

pub(super) fn expected_ciphertext(key: &Block, blocks: &[Block]) -> Vec<u8> {
    let reference = ::aes::Aes128::new(&(*key).into());
    blocks
        .iter()
        .flat_map(|b| {
            let mut g = (*b).into();
            reference.encrypt_block(&mut g);
            g.to_vec()
        })
        .collect()
}

pub(super) const FIPS_KEY: Block = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
pub(super) const FIPS_PT: Block =
    [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff];

pub(super) fn random_blocks(n: usize, seed: u64) -> Vec<Block> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut b = [0u8; 16];
            rng.fill_bytes(&mut b);
            b
        })
        .collect()
}

/// Honest runs reveal the right ciphertext; the verified opening costs exactly Protocol 2 on
/// N = TRIPLES_PER_SBOX × (40 + 160 × blocks) triples (24⌈log₂ N⌉ + 112 bytes, 2⌈log₂ N⌉ + 7
/// rounds) plus the output opening (16 bytes per block, one round) and its hash comparison (64
/// bytes, one round).
pub(super) fn honest_runs_reveal_after_verification<S: Malicious>() {
    for (blocks, seed) in [(vec![FIPS_PT], 1u64), (random_blocks(9, 2), 3)] {
        let runs = job::<S>(FIPS_KEY, &blocks, 0, None, None, seed);
        let expected = expected_ciphertext(&FIPS_KEY, &blocks);
        let triples = S::TRIPLES_PER_SBOX * (40 + 160 * blocks.len());
        let halvings = (usize::BITS - (triples - 1).leading_zeros()) as u64;
        for (p, run) in runs.iter().enumerate() {
            assert_eq!(run.output.as_ref(), Ok(&expected), "party {p}");
            let s = run.open_stats;
            assert_eq!(s.bytes_sent, 24 * halvings + 112 + 16 * blocks.len() as u64 + 64, "party {p}");
            assert_eq!(s.rounds, 2 * halvings + 7 + 2, "party {p}");
            let ph = run.phases;
            assert_eq!(ph.preprocessing - ph.setup, S::PREPROCESSING_MESSAGES);
            assert_eq!(ph.encryption - ph.key_schedule, S::ENCRYPTION_MESSAGES);
        }
    }
}

#[test]
fn malicious_gf256_circuit_honest_runs_reveal_after_verification() {
    honest_runs_reveal_after_verification::<MaliciousGf256CircuitSbox>();
}

#[test]
fn malicious_gf16_circuit_honest_runs_reveal_after_verification() {
    honest_runs_reveal_after_verification::<MaliciousGf16CircuitSbox>();
}

#[test]
fn malicious_lut256_33_honest_runs_reveal_after_verification() {
    honest_runs_reveal_after_verification::<MaliciousAdditiveLut256Sbox>();
}

#[test]
fn malicious_lut16_honest_runs_reveal_after_verification() {
    honest_runs_reveal_after_verification::<MaliciousLut16Sbox>();
}

/// Which variant-specific attacks [`attacks`] adds to the common ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Circuit,
    /// The GF(2^8) circuit, whose round-2 batch [x¹²·x², x¹²·x³] is checked as one triple.
    Gf256Circuit,
    Lut16,
    /// The (2,3) LUT-256 (attacks in `tests_lut256.rs`).
    Lut256,
    /// The (3,3) LUT-256.
    Lut256Additive,
}

/// A named attack: a corrupted message of `corrupt`, or a local deviation.
pub(super) struct Attack {
    pub(super) name: &'static str,
    pub(super) corrupt: usize,
    pub(super) message: Option<MessageAttack>,
    pub(super) deviation: Option<Deviation>,
}

pub(super) fn flip(message: usize, byte: usize, mask: u8) -> Option<MessageAttack> {
    Some(MessageAttack { message, count: 1, byte, mask, also: None })
}

/// Attacks at every protocol position of [`job`], located from the honest run's phase
/// boundaries of the corrupt party (0 or 1).
fn attacks<S: Malicious>(honest: [Phases; 3], kind: Kind) -> Vec<Attack> {
    let mut list = Vec::new();
    let mut message = |name, corrupt: usize, index: fn(&Phases) -> usize, byte, mask| {
        list.push(Attack {
            name,
            corrupt,
            message: flip(index(&honest[corrupt]), byte, mask),
            deviation: None,
        });
    };
    // Party 0 owns the key: its third input component to party 1 only.
    message("key input component", 0, |p| p.preprocessing, 3, 0x01);
    message("first key-schedule resharing", 1, |p| p.inputs, 0, 0x80);
    message("last key-schedule message", 0, |p| p.key_schedule - 1, 2, 0x10);
    message("first encryption message", 1, |p| p.key_schedule, 17, 0x04);
    message("middle encryption message", 0, |p| p.key_schedule + 13, 40, 0x20);
    message("last encryption message", 1, |p| p.encryption - 1, 5, 0x02);
    message("verification: batch coin share", 0, |p| p.encryption, 0, 0x01);
    message("verification: first halving reshare", 1, |p| p.encryption + 1, 9, 0x40);
    message("verification: middle halving coin", 0, |p| p.encryption + 6, 7, 0x08);
    message("verification: base-case weak multiplication", 1, |p| p.open - 10, 0, 0x01);
    message("verification: opening of rho", 0, |p| p.open - 8, 4, 0x01);
    message("verification: opening of sigma", 1, |p| p.open - 6, 0, 0x01);
    message("verification: view hash", 0, |p| p.open - 5, 31, 0x01);
    message("output share", 1, |p| p.open - 3, 6, 0x01);
    if kind == Kind::Lut256Additive {
        message("one-hot preprocessing round 1", 1, |p| p.setup, 0, 0x01);
        message("one-hot preprocessing round 2", 0, |p| p.setup + 1, 33, 0x04);
        // Key schedule: each SubWord sends the replicated opening of c, then the resharing.
        message("replicated opening of c (key schedule)", 1, |p| p.inputs + 2, 1, 0x40);
        message("output resharing (key schedule)", 2, |p| p.inputs + 1, 0, 0x01);
        // Encryption (Protocol 7): message 0 is the first layer's replicated opening, 2j − 1 and
        // 2j layer j's additive opening to party i+1 and to party i−1, 19 the final resharing.
        message("replicated opening of c (first layer)", 0, |p| p.key_schedule, 3, 0x01);
        message("additive opening of c to party i+1 only", 0, |p| p.key_schedule + 3, 3, 0x01);
        message("additive opening of c to party i-1 only", 1, |p| p.key_schedule + 8, 9, 0x08);
        message("additive opening of c to one party (last layer)", 2, |p| p.key_schedule + 18, 4, 0x20);
        message("final resharing of y^9", 1, |p| p.encryption - 1, 30, 0x80);
    }
    if kind == Kind::Lut16 {
        message("one-hot preprocessing round 1", 1, |p| p.setup, 0, 0x01);
        message("one-hot preprocessing round 2", 0, |p| p.setup + 1, 33, 0x04);
        // Each LUT-16 call sends c to party i+1, c to party i−1, then the resharing.
        message("lookup opening to party i+1", 0, |p| p.key_schedule + 3, 2, 0x01);
        message("lookup opening to party i-1", 1, |p| p.key_schedule + 7, 5, 0x10);
        list.push(Attack {
            name: "same error in both lookup openings",
            corrupt: 1,
            message: Some(MessageAttack {
                message: honest[1].key_schedule + 6,
                count: 2,
                byte: 5,
                mask: 0x10,
                also: None,
            }),
            deviation: None,
        });
        list.push(Attack {
            name: "local one-hot vector share",
            corrupt: 2,
            message: None,
            deviation: Some(Deviation::OneHot { index: 45, bits: 0x0101 }),
        });
    }
    if kind == Kind::Gf256Circuit {
        // Encryption calls cover 2 blocks: round 2 (message 3k + 1 of call k) carries x¹⁴ of the
        // 32 bytes, then x¹⁵ — the two halves of the merged check.
        for (name, corrupt, index, byte, mask) in [
            ("merged batch: x^14 half (key schedule)", 0, honest[0].inputs + 4, 1, 0x08),
            ("merged batch: x^15 half (encryption)", 1, honest[1].key_schedule + 7, 40, 0x04),
        ] {
            list.push(Attack { name, corrupt, message: flip(index, byte, mask), deviation: None });
        }
        list.push(Attack {
            name: "merged batch: same error in x^14 and x^15",
            corrupt: 0,
            message: Some(MessageAttack {
                message: honest[0].key_schedule + 16,
                count: 1,
                byte: 7,
                mask: 0x21,
                also: Some(32 + 7),
            }),
            deviation: None,
        });
    }
    if kind == Kind::Lut256Additive {
        // The same error in both copies of an additive opening gives a consistent c + e, i.e.
        // x + e: caught through the recovered output of the layer before.
        for (name, corrupt, layer) in [
            ("same error in both additive openings of c", 1, 3),
            ("same error in both additive openings of c (last layer)", 0, 9),
        ] {
            list.push(Attack {
                name,
                corrupt,
                message: Some(MessageAttack {
                    message: honest[corrupt].key_schedule + 2 * layer - 1,
                    count: 2,
                    byte: 9,
                    mask: 0x08,
                    also: None,
                }),
                deviation: None,
            });
        }
        list.push(Attack {
            name: "same error in the whole final resharing",
            corrupt: 2,
            message: Some(MessageAttack {
                message: honest[2].encryption - 1,
                count: 1,
                byte: 0,
                mask: 0xff,
                also: Some(16),
            }),
            deviation: None,
        });
        for (name, corrupt, deviation) in [
            ("local one-hot vector share (low nibble)", 2, Deviation::OneHot { index: 44, bits: 0x0101 }),
            ("local one-hot vector share (high nibble)", 0, Deviation::OneHot { index: 101, bits: 0x8000 }),
            (
                "lookup output share (key schedule)",
                0,
                Deviation::LookupOutput { call: 3, byte: 2, delta: 0x55 },
            ),
            (
                "lookup output share (encryption)",
                2,
                Deviation::LookupOutput { call: 14, byte: 30, delta: 0x01 },
            ),
            // Calls 10–19 are the encryption layers; 11–19 open c from additive shares.
            (
                "S-box input share (first layer, replicated)",
                1,
                Deviation::SboxInput { call: 10, byte: 9, delta: 0x40 },
            ),
            (
                "additive share of x before opening (last layer)",
                0,
                Deviation::SboxInput { call: 19, byte: 3, delta: 0x07 },
            ),
            (
                "recovered share of y (second layer)",
                1,
                Deviation::Recovered { call: 11, byte: 20, delta: 0x10 },
            ),
            (
                "recovered share of y (ninth layer)",
                2,
                Deviation::Recovered { call: 18, byte: 0, delta: 0x01 },
            ),
        ] {
            list.push(Attack { name, corrupt, message: None, deviation: Some(deviation) });
        }
    }
    if kind == Kind::Lut256 {
        list.extend(super::tests_lut256::attacks(&honest));
    }
    list.push(Attack {
        name: "local S-box input share",
        corrupt: 2,
        message: None,
        deviation: Some(Deviation::SboxInput { call: 12, byte: 5, delta: 0x31 }),
    });
    list.push(Attack {
        name: "local S-box output share (key schedule)",
        corrupt: 0,
        message: None,
        deviation: Some(Deviation::SboxOutput { call: 2, byte: 1, delta: 0x02 }),
    });
    list.push(Attack {
        name: "local S-box output share (encryption)",
        corrupt: 1,
        message: None,
        deviation: Some(Deviation::SboxOutput { call: 15, byte: 17, delta: 0x80 }),
    });
    list
}

/// Every attack makes both honest parties abort with a typed error and reveal nothing.
///
/// The one exception is the last message of the protocol, the output hash: a corrupt party can
/// always send a wrong hash to one honest party only (security with abort is not fair). That
/// party aborts; the other, whose checks all passed, outputs the correct ciphertext.
pub(super) fn cheating_aborts<S: Malicious>(kind: Kind) {
    let blocks = random_blocks(2, 50);
    let honest = job::<S>(FIPS_KEY, &blocks, 0, None, None, 51);
    let expected = expected_ciphertext(&FIPS_KEY, &blocks);
    let phases: [Phases; 3] = core::array::from_fn(|p| {
        assert_eq!(honest[p].output.as_ref(), Ok(&expected));
        honest[p].phases
    });
    let last_hash = flip(phases[0].open - 2, 0, 0x01);
    let runs = job::<S>(FIPS_KEY, &blocks, 0, last_hash, None, 51);
    assert_eq!(runs[1].output, Err(MaestroError::OpeningMismatch { peer: 0 }));
    assert_eq!(runs[2].output.as_ref(), Ok(&expected));
    let list = attacks::<S>(phases, kind);
    assert!(list.len() >= 10);
    for attack in list {
        if let Some(m) = attack.message {
            assert!(m.message < phases[attack.corrupt].open, "{}: no such message", attack.name);
        }
        let runs = job::<S>(FIPS_KEY, &blocks, attack.corrupt, attack.message, attack.deviation, 51);
        for (p, run) in runs.iter().enumerate().filter(|(p, _)| *p != attack.corrupt) {
            // A wrong verification hash reaches one honest party only; the other then sees it
            // leave (the first party's abort) before any output.
            let may_leave = attack.name == "verification: view hash";
            match &run.output {
                Ok(_) => panic!("{}: honest party {p} revealed an output", attack.name),
                Err(MaestroError::VerificationFailed | MaestroError::OpeningMismatch { .. }) => {}
                Err(MaestroError::Network { source: NetError::PeerLeft(_), .. }) if may_leave => {}
                Err(other) => panic!("{}: party {p} failed with an unexpected error {other}", attack.name),
            }
        }
    }
}

#[test]
fn malicious_gf256_circuit_cheating_parties_are_caught() {
    cheating_aborts::<MaliciousGf256CircuitSbox>(Kind::Gf256Circuit);
}

#[test]
fn malicious_gf16_circuit_cheating_parties_are_caught() {
    cheating_aborts::<MaliciousGf16CircuitSbox>(Kind::Circuit);
}

#[test]
fn malicious_lut16_cheating_parties_are_caught() {
    cheating_aborts::<MaliciousLut16Sbox>(Kind::Lut16);
}

#[test]
fn malicious_lut256_33_cheating_parties_are_caught() {
    cheating_aborts::<MaliciousAdditiveLut256Sbox>(Kind::Lut256Additive);
}

/// Reveal to a subset: only the recipient learns the ciphertext, after verification and the
/// hash confirmation of its received component; a corrupted output share aborts it.
pub(super) fn reveal_to_one_party<S: Malicious>() {
    let blocks = random_blocks(3, 60);
    let expected = expected_ciphertext(&FIPS_KEY, &blocks);
    for cheat in [false, true] {
        let plaintext: Vec<Gf256> = blocks.iter().flatten().map(|&b| Gf256(b)).collect();
        let key: Vec<Gf256> = FIPS_KEY.iter().map(|&b| Gf256(b)).collect();
        let results = run_session(3, |net| {
            let me = net.party();
            let (key, plaintext) = (key.clone(), plaintext.clone());
            async move {
                let mut net = TamperNet::new(net, None);
                let mut rng = ChaCha20Rng::seed_from_u64(61 + me as u64);
                let mut sbox = S::create(Party::setup(&mut net, &mut rng).await?);
                sbox.prepare(&mut net, 40 + 160 * 3).await?;
                let k = sbox.session().input(&mut net, 0, (me == 0).then_some(&key[..]), 16).await?;
                let pt = (me == 1).then_some(&plaintext[..]);
                let p = sbox.session().input(&mut net, 1, pt, plaintext.len()).await?;
                let k: Vec<S::Share> = k.into_iter().map(S::Share::from).collect();
                let p: Vec<S::Share> = p.into_iter().map(S::Share::from).collect();
                let rk = expand_key(&mut sbox, &mut net, &k).await?;
                let mut state = to_blocks(&p).expect("whole blocks");
                encrypt_blocks(&mut sbox, &mut net, &rk, &mut state).await?;
                let mut shares = replicated_shares(state.as_flattened())?;
                // Party 0 sends party 2 its missing component (its own second one); cheating, it
                // sends a wrong one, which party 1's hash of the same component exposes.
                if cheat && me == 0 {
                    shares[3] = RssShare::new(0, shares[3].first(), shares[3].second() + Gf256(1));
                }
                sbox.session().reveal(&mut net, &shares, &[2]).await
            }
        });
        if !cheat {
            assert_eq!(results[0], Ok(None));
            assert_eq!(results[1], Ok(None));
            let revealed =
                results[2].as_ref().map(|v| v.as_ref().map(|v| v.iter().map(|b| b.0).collect::<Vec<u8>>()));
            assert_eq!(revealed, Ok(Some(expected.clone())));
        } else {
            assert_eq!(results[2], Err(MaestroError::OpeningMismatch { peer: 1 }));
        }
    }
}

#[test]
fn malicious_variants_reveal_to_one_party() {
    reveal_to_one_party::<MaliciousGf256CircuitSbox>();
    reveal_to_one_party::<MaliciousGf16CircuitSbox>();
    reveal_to_one_party::<MaliciousLut16Sbox>();
    reveal_to_one_party::<MaliciousAdditiveLut256Sbox>();
}
