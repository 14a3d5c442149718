//! The generic S-box suite every MAESTRO variant runs: exhaustive S-box checks, FIPS-197 and
//! RustCrypto comparisons in both directions, and exact costs against each variant's [`Costs`].

use super::*;

/// A variant's share type as the suite handles it: built from replicated shares (inputs, dealt
/// values) and read back as replicated shares (after [`SboxLayer::to_replicated`]).
pub(in crate::proto::maestro) trait TestShare:
    crate::aes::AesByte + From<RssShare>
{
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

pub(super) fn to_shares<T: TestShare>(shares: Vec<RssShare>) -> Vec<T> {
    shares.into_iter().map(T::from).collect()
}

pub(super) fn to_replicated<T: TestShare>(shares: &[T]) -> Vec<RssShare> {
    shares.iter().map(|&s| s.replicated()).collect()
}

/// An S-box variant under the generic AES test suite.
pub(in crate::proto::maestro) trait Variant:
    SboxLayer<Share: TestShare> + Sized
{
    /// Per S-box and party in the online phase: bits sent and rounds.
    const COSTS: Costs;
    fn build(party: Party) -> Self;
    fn party(&mut self) -> &mut Party;
    /// Input-independent preprocessing for `sboxes` later S-box evaluations (none by default).
    async fn preprocess(&mut self, _net: &mut MemoryNetwork, _sboxes: usize) {}
    /// Preprocessing cost for `sboxes` S-boxes beyond `pre_bits` each in `pre_rounds` rounds,
    /// as (bits, rounds) per party: none by default.
    fn extra_preprocessing(_sboxes: u64) -> (u64, u64) {
        (0, 0)
    }
}

/// Online cost of one S-box per party: every `sub_bytes` (or `inv_sub_bytes`) call of n
/// replicated bytes sends n · `bits` bits (n a multiple of 4, so nibble packing has no padding)
/// in `rounds` rounds and `messages` messages.
#[derive(Clone, Copy, Debug)]
pub(in crate::proto::maestro) struct Costs {
    pub(in crate::proto::maestro) bits: u64,
    pub(in crate::proto::maestro) rounds: u64,
    /// Messages each party sends per `sub_bytes` call.
    pub(in crate::proto::maestro) messages: u64,
    /// Preprocessing bits per S-box (one batch of any size, `pre_rounds` rounds).
    pub(in crate::proto::maestro) pre_bits: u64,
    pub(in crate::proto::maestro) pre_rounds: u64,
    /// For a layer that leaves its output in another sharing than replicated; `None`: the output
    /// is replicated, chained calls cost the same and `to_replicated` is free.
    pub(in crate::proto::maestro) mixed: Option<MixedCosts>,
}

/// Costs of a layer with non-replicated output ((3,3) LUT-256): a call on the previous call's
/// output (in `rounds` rounds), and `to_replicated` (one round and one message).
#[derive(Clone, Copy, Debug)]
pub(in crate::proto::maestro) struct MixedCosts {
    pub(in crate::proto::maestro) chained_bits: u64,
    pub(in crate::proto::maestro) chained_messages: u64,
    pub(in crate::proto::maestro) reshare_bits: u64,
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

/// All 256 bytes through `sub_bytes` and `inv_sub_bytes` on replicated input, and
/// `inv_sub_bytes` chained on `sub_bytes`' output: every output is S(x), S⁻¹(x), respectively x,
/// each call at the variant's exact cost.
pub(super) fn sbox_is_exhaustively_correct<S: Variant>() {
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

/// Checks the per-party costs of [`run_aes`] against the variant's [`Costs`]; the plaintext input
/// by `pt_owner` is the last step before the key schedule. `passes` is 1 for encryption or
/// decryption and 2 for a round trip: decryption costs exactly what encryption costs.
pub(super) fn assert_aes_costs<S: Variant>(runs: &[AesRun], blocks: usize, passes: u64, pt_owner: usize) {
    let Costs { pre_bits, pre_rounds, .. } = S::COSTS;
    let (bits, rounds, messages) = S::COSTS.cipher(10, blocks as u64);
    let (word_bits, word_rounds, word_messages) = S::COSTS.sub_word();
    let sboxes = 40 + 160 * passes * blocks as u64;
    let (extra_bits, extra_rounds) = S::extra_preprocessing(sboxes);
    for (p, run) in runs.iter().enumerate() {
        // Preprocessing: 40 key-schedule S-boxes and 160 per block and pass, one batch.
        assert_eq!(run.preprocessing.bytes_sent * 8, pre_bits * sboxes + extra_bits, "party {p}");
        assert_eq!(run.preprocessing.rounds, pre_rounds + extra_rounds, "party {p}");
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

pub(super) fn fips197_key_from_party0_plaintext_from_party1_batches_1_and_7<S: Variant>() {
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
pub(super) fn fips197_decryption_batches_1_and_7<S: Variant>() {
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
pub(super) fn encrypt_then_decrypt_round_trip<S: Variant>() {
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
pub(super) fn random_keys_and_1000_blocks_match_rustcrypto<S: Variant>(direction: Direction) {
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

/// FIPS-197 Appendix C.3 (AES-256) in both directions.
pub(super) fn aes256_fips197_c3_through_the_same_driver<S: Variant>() {
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

pub(super) fn key_schedule_alone_matches_plain_expansion<S: Variant>() {
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

/// The FIPS-197 / RustCrypto / cost suite every S-box variant runs, encryption and decryption,
/// with its exact costs.
pub(in crate::proto::maestro) fn aes_suite<S: Variant>() {
    sbox_is_exhaustively_correct::<S>();
    key_schedule_alone_matches_plain_expansion::<S>();
    fips197_key_from_party0_plaintext_from_party1_batches_1_and_7::<S>();
    fips197_decryption_batches_1_and_7::<S>();
    random_keys_and_1000_blocks_match_rustcrypto::<S>(Direction::Encrypt);
    random_keys_and_1000_blocks_match_rustcrypto::<S>(Direction::Decrypt);
    encrypt_then_decrypt_round_trip::<S>();
    aes256_fips197_c3_through_the_same_driver::<S>();
}
