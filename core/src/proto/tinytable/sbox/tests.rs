//! Malicious S-box-table AES: FIPS-197 and batches against RustCrypto, exact rounds and sizes, and
//! cheating tests — a deviating party (tampered material or a [`Tamper`] network that alters one
//! sent message) makes the honest party abort with a typed error before any ciphertext is revealed.

use crate::aes::{Block, Direction};
use crate::field::clmul::Backend;
use crate::net::memory::run_session;
use crate::net::{NetError, NetStats, Network, PartyId};
use crate::proto::tinytable::mac::linear::{MacParams, BYTE_TAG_MASK, K64};
use crate::proto::tinytable::sbox::malicious::encrypt_batch;
use crate::proto::tinytable::sbox::prep::{entry_index, MaliciousAesPrep};
use crate::proto::tinytable::sbox::tables::{AesTablePrep, TABLES_PER_BLOCK, TABLE_ENTRIES};
use crate::proto::tinytable::*;
use ::aes::cipher::{BlockEncrypt, KeyInit};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use crate::aes::fips197::{CIPHERTEXT as FIPS_CT, KEY as FIPS_KEY, PLAINTEXT as FIPS_PT};

type Edit = fn(&mut Vec<u8>);

/// A network that applies `edit` to the `target`-th message this party sends (from 0).
pub(crate) struct Tamper<N> {
    pub(crate) inner: N,
    pub(crate) target: u64,
    pub(crate) edit: Edit,
    sent: u64,
}

impl<N> Tamper<N> {
    pub(crate) fn new(inner: N, target: u64, edit: Edit) -> Self {
        Tamper { inner, target, edit, sent: 0 }
    }
}

impl<N: Network> Network for Tamper<N> {
    fn party(&self) -> PartyId {
        self.inner.party()
    }
    fn parties(&self) -> usize {
        self.inner.parties()
    }
    fn send(&mut self, to: PartyId, mut msg: Vec<u8>) -> Result<(), NetError> {
        if self.sent == self.target {
            (self.edit)(&mut msg);
        }
        self.sent += 1;
        self.inner.send(to, msg)
    }
    fn recv(&mut self, from: PartyId) -> impl core::future::Future<Output = Result<Vec<u8>, NetError>> {
        self.inner.recv(from)
    }
    fn stats(&self) -> NetStats {
        self.inner.stats()
    }
}

pub(crate) fn reference(key: &Block, pt: &Block) -> Block {
    let cipher = ::aes::Aes128::new(key.into());
    let mut b = (*pt).into();
    cipher.encrypt_block(&mut b);
    b.into()
}

type Outcome = (Result<Vec<Option<Block>>, TinyTableError>, NetStats);

/// Runs both parties; party `cheat.0` sends through a [`Tamper`] network if `cheat` is set.
fn run(
    preps: &[MaliciousAesPrep; 2],
    keys: &[Block],
    pts: &[Block],
    cheat: Option<(PartyId, u64, Edit)>,
) -> Vec<Outcome> {
    run_session(2, |net| async move {
        let party = net.party();
        let prep = &preps[party];
        let inputs = if party == prep.key_owner() { keys } else { pts };
        match cheat {
            Some((p, target, edit)) if p == party => {
                let mut net = Tamper::new(net, target, edit);
                let r = encrypt_batch(&mut net, prep, inputs).await;
                let stats = net.stats();
                drop(net);
                (r, stats)
            }
            _ => {
                let mut net = net;
                let r = encrypt_batch(&mut net, prep, inputs).await;
                let stats = net.stats();
                drop(net);
                (r, stats)
            }
        }
    })
}

fn dealer(seed: u64) -> TrustedDealer<ChaCha20Rng> {
    TrustedDealer::new(ChaCha20Rng::seed_from_u64(seed))
}

fn fips_preps(seed: u64) -> [MaliciousAesPrep; 2] {
    dealer(seed).malicious_aes_tables(Direction::Encrypt, 0, Reveal::Both, 1).unwrap()
}

/// The honest party 0 aborted with `step`'s MAC failure, after exactly `sent` messages (so the
/// output-mask share was never sent when `sent` is 11).
fn assert_abort(outcomes: &[Outcome], step: Step, sent: u64) {
    assert_abort_at(outcomes, 0, step, sent);
}

/// As [`assert_abort`] for honest party `honest`.
fn assert_abort_at(outcomes: &[Outcome], honest: PartyId, step: Step, sent: u64) {
    let (r, stats) = &outcomes[honest];
    assert_eq!(r, &Err(TinyTableError::AuthenticationFailed { party: honest, step }), "honest party result");
    assert_eq!(stats.messages_sent, sent, "honest party sent its output share");
}

#[test]
fn fips197_every_role_and_reveal_set_with_exact_rounds_and_bytes() {
    for key_owner in 0..2 {
        for reveal in [Reveal::Both, Reveal::To(0), Reveal::To(1)] {
            let preps = dealer(3 + key_owner as u64)
                .malicious_aes_tables(Direction::Encrypt, key_owner, reveal, 1)
                .unwrap();
            let out = run(&preps, &[FIPS_KEY], &[FIPS_PT], None);
            for (party, (r, stats)) in out.iter().enumerate() {
                let expected = reveal.includes(party).then_some(FIPS_CT);
                assert_eq!(r.as_ref().unwrap(), &vec![expected], "{key_owner} {reveal:?} {party}");
                // 1 input round + 10 lookup rounds (+ the output round for a sender of mask shares).
                let sends_output = reveal.includes(1 - party);
                assert_eq!(stats.rounds, 11 + u64::from(sends_output));
                let input = if party == key_owner { 176 } else { 16 };
                let output = if sends_output { 16 + 16 } else { 0 };
                assert_eq!(stats.bytes_sent, input + 10 * 16 + 16 + output);
            }
        }
    }
}

/// Decryption material: FIPS-197's ciphertext and a batch of RustCrypto ciphertexts decrypt
/// under the same rounds and bytes as encryption; encryption material does not decrypt.
#[test]
fn decryption_tables_invert_rustcrypto_at_the_cost_of_encryption() {
    let preps = dealer(31).malicious_aes_tables(Direction::Decrypt, 0, Reveal::Both, 1).unwrap();
    assert_eq!(preps[0].direction(), Direction::Decrypt);
    for (party, (r, stats)) in run(&preps, &[FIPS_KEY], &[FIPS_CT], None).iter().enumerate() {
        assert_eq!(r.as_ref().unwrap(), &vec![Some(FIPS_PT)], "party {party}");
        let input = if party == 0 { 176 } else { 16 };
        assert_eq!((stats.rounds, stats.bytes_sent), (12, input + 10 * 16 + 16 + 32));
    }
    let mut rng = ChaCha20Rng::seed_from_u64(78);
    let n = 9;
    let (mut keys, mut pts) = (vec![[0u8; 16]; n], vec![[0u8; 16]; n]);
    keys.iter_mut().chain(pts.iter_mut()).for_each(|b| rng.fill_bytes(b));
    let cts: Vec<Block> = keys.iter().zip(&pts).map(|(k, p)| reference(k, p)).collect();
    let preps = dealer(32).malicious_aes_tables(Direction::Decrypt, 1, Reveal::To(1), n).unwrap();
    let out = run(&preps, &keys, &cts, None);
    assert_eq!(out[0].0.as_ref().unwrap(), &vec![None; n]);
    assert_eq!(out[1].0.as_ref().unwrap(), &pts.iter().map(|p| Some(*p)).collect::<Vec<_>>());
    let forward = dealer(33).malicious_aes_tables(Direction::Encrypt, 0, Reveal::Both, 1).unwrap();
    assert_ne!(run(&forward, &[FIPS_KEY], &[FIPS_CT], None)[0].0.as_ref().unwrap(), &vec![Some(FIPS_PT)]);
}

#[test]
fn batches_match_rustcrypto() {
    let mut rng = ChaCha20Rng::seed_from_u64(77);
    let n = 21;
    let mut keys = vec![[0u8; 16]; n];
    let mut pts = vec![[0u8; 16]; n];
    keys.iter_mut().chain(pts.iter_mut()).for_each(|b| rng.fill_bytes(b));
    let preps = dealer(5).malicious_aes_tables(Direction::Encrypt, 1, Reveal::Both, n).unwrap();
    let out = run(&preps, &keys, &pts, None);
    let expected: Vec<Option<Block>> = keys.iter().zip(&pts).map(|(k, p)| Some(reference(k, p))).collect();
    for (r, stats) in &out {
        assert_eq!(r.as_ref().unwrap(), &expected);
        assert_eq!(stats.rounds, 12);
    }
    let empty = dealer(6).malicious_aes_tables(Direction::Encrypt, 0, Reveal::Both, 0).unwrap();
    for (r, _) in run(&empty, &[], &[], None) {
        assert_eq!(r.unwrap(), Vec::<Option<Block>>::new());
    }
}

#[test]
fn sizes_match_table1_formulas() {
    // Passive "Optimized": 160 tables × 256 one-byte entries = 40 KiB per party and block.
    let passive = dealer(1).aes_tables(Direction::Encrypt, 0, Reveal::Both).unwrap();
    assert_eq!(passive[0].table_bytes(), 40 * 1024);
    assert_eq!(TABLES_PER_BLOCK * TABLE_ENTRIES, 40 * 1024);
    // Each party holds all 40 KiB but stores half: the other half comes from its seed.
    for p in &passive {
        assert_eq!(p.stored_table_bytes(), 20 * 1024);
        assert_eq!(p.tables().len(), 40 * 1024);
    }
    // Malicious, linear MAC k = 64: §5's 2k bits of tag per entry would make 17 bytes per entry;
    // the tag of a byte needs only 2k − 1 − 56 = 71 bits, so entry and tag share 16 bytes.
    let k = K64::K as usize;
    assert_eq!(BYTE_TAG_MASK.count_ones() as usize, k + 8 - 1);
    assert!(BYTE_TAG_MASK.count_ones() + 8 <= 128);
    for blocks in [1, 3] {
        let preps = dealer(2).malicious_aes_tables(Direction::Encrypt, 0, Reveal::Both, blocks).unwrap();
        for p in &preps {
            assert_eq!(p.table_and_mac_bytes(), blocks * 160 * 256 * 16);
        }
    }
    assert_eq!(160 * 256 * 16, 640 * 1024);
}

#[test]
fn seed_derived_tables_reproduce_masked_sbox_tables() {
    // Expanded from the seeds, every table's two shares XOR to S(e ⊕ m_in) ⊕ m_out for some masks
    // (found by trying all m_in), and the stored and derived halves alternate between the parties.
    let sbox = crate::aes::sbox::sbox_table();
    let [a, b] = dealer(12).aes_tables_batch(Direction::Encrypt, 1, Reveal::Both, 2).unwrap();
    for (block, (a, b)) in a.iter().zip(&b).enumerate() {
        let (ta, tb) = (a.tables(), b.tables());
        for t in 0..TABLES_PER_BLOCK {
            let table: Vec<u8> = (0..TABLE_ENTRIES).map(|e| ta[256 * t + e] ^ tb[256 * t + e]).collect();
            let masked = (0..=255u8).any(|m_in| {
                let m_out = table[0] ^ sbox[usize::from(m_in)];
                (0..TABLE_ENTRIES).all(|e| table[e] == sbox[e ^ usize::from(m_in)] ^ m_out)
            });
            assert!(masked, "block {block}, table {t} is not a masked S-box");
        }
        // Built from its expanded parts (all tables stored), the material is equal and encrypts alike.
        let rebuilt = crate::proto::tinytable::sbox::tests_tables::rebuilt_from_parts(b);
        assert_eq!(&rebuilt, b);
        assert_eq!(rebuilt.stored_table_bytes(), 40 * 1024);
    }
    assert_ne!(a[0].tables(), a[1].tables());
}

#[test]
fn mixed_stored_and_seed_derived_material_encrypts() {
    // One party runs on fully stored tables (e.g. decoded from a dealer process), the other on
    // seed-derived ones; both forms must give the same lookups.
    let mut rng = ChaCha20Rng::seed_from_u64(13);
    let n = 40;
    let (mut keys, mut pts) = (vec![[0u8; 16]; n], vec![[0u8; 16]; n]);
    keys.iter_mut().chain(pts.iter_mut()).for_each(|b| rng.fill_bytes(b));
    let [a, b] = dealer(14).aes_tables_batch(Direction::Encrypt, 0, Reveal::Both, n).unwrap();
    let stored: Vec<AesTablePrep> = b
        .iter()
        .map(|p| {
            AesTablePrep::from_parts(
                1,
                Direction::Encrypt,
                0,
                Reveal::Both,
                p.tables().into_owned(),
                None,
                p.plaintext_mask().copied(),
                p.output_mask().copied(),
            )
            .unwrap()
        })
        .collect();
    let preps = [a, stored];
    let outs = run_session(2, |mut net| {
        let party = net.party();
        let prep = preps[party].clone();
        let inputs = if party == 0 { keys.clone() } else { pts.clone() };
        async move {
            crate::proto::tinytable::sbox::tables::encrypt_batch(&mut net, &prep, &inputs).await.unwrap()
        }
    });
    for out in &outs {
        for i in 0..n {
            assert_eq!(out[i], Some(reference(&keys[i], &pts[i])), "block {i}");
        }
    }
}

#[test]
fn wrong_table_entry_aborts() {
    let mut preps = fips_preps(10);
    for e in 0..256 {
        let i = entry_index(0, 37, e);
        preps[1].set_entry(i, preps[1].entry(i) ^ 0x10);
    }
    assert_abort(&run(&preps, &[FIPS_KEY], &[FIPS_PT], None), Step::SboxMacCheck, 11);
}

#[test]
fn wrong_mac_aborts() {
    let mut preps = fips_preps(11);
    for e in 0..256 {
        let i = entry_index(0, 150, e);
        preps[1].set_tag(i, preps[1].tag(i) ^ 1 << 70);
    }
    assert_abort(&run(&preps, &[FIPS_KEY], &[FIPS_PT], None), Step::SboxMacCheck, 11);
}

#[test]
fn wrong_hash_in_batched_opening_aborts() {
    let preps = fips_preps(12);
    let flip_last: Edit = |m| *m.last_mut().unwrap() ^= 1;
    assert_abort(&run(&preps, &[FIPS_KEY], &[FIPS_PT], Some((1, 10, flip_last))), Step::SboxMacCheck, 11);
}

#[test]
fn different_hash_key_aborts() {
    let mut preps = fips_preps(13);
    preps[1].hash_key[0] ^= 1;
    assert_abort(&run(&preps, &[FIPS_KEY], &[FIPS_PT], None), Step::SboxMacCheck, 11);
}

#[test]
fn forged_table_shares_with_old_tags_abort() {
    let mut preps = fips_preps(14);
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for i in 0..preps[1].entries.len() {
        preps[1].set_entry(i, rng.next_u32() as u8);
    }
    assert_abort(&run(&preps, &[FIPS_KEY], &[FIPS_PT], None), Step::SboxMacCheck, 11);
}

#[test]
fn valid_entry_tag_pairs_from_the_wrong_index_abort() {
    // Entries permuted inside every table together with their tags: each sent (entry, tag) is a
    // genuine pair, but for another index, so the verifier's key β_i does not fit.
    let mut preps = fips_preps(15);
    for t in 0..TABLES_PER_BLOCK {
        for e in (0..256).step_by(2) {
            let (a, b) = (entry_index(0, t, e), entry_index(0, t, e + 1));
            preps[1].entries.swap(a, b);
        }
    }
    assert_abort(&run(&preps, &[FIPS_KEY], &[FIPS_PT], None), Step::SboxMacCheck, 11);
}

#[test]
fn tampered_lookup_messages_abort_at_every_round() {
    let first: Edit = |m| m[0] ^= 0x80;
    let fifteenth: Edit = |m| m[15] ^= 0x01;
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let (mut keys, mut pts) = (vec![[0u8; 16]; 3], vec![[0u8; 16]; 3]);
    keys.iter_mut().chain(pts.iter_mut()).for_each(|b| rng.fill_bytes(b));
    for round in 1..=10 {
        for (cheater_edit, seed) in [(first, 20), (fifteenth, 21)] {
            let preps =
                dealer(seed + round).malicious_aes_tables(Direction::Encrypt, 0, Reveal::Both, 3).unwrap();
            assert_abort(&run(&preps, &keys, &pts, Some((1, round, cheater_edit))), Step::SboxMacCheck, 11);
        }
    }
}

#[test]
fn additive_attack_needs_alpha() {
    // Flipping an entry bit and adding α'·δ to its tag passes only for the verifier's real α.
    let preps = fips_preps(16);
    let alpha = preps[0].alpha;
    for (guess, accepted) in [(alpha ^ 1, false), (alpha, true)] {
        let mut forged = preps.clone();
        for e in 0..256 {
            let i = entry_index(0, 0, e);
            forged[1].set_entry(i, forged[1].entry(i) ^ 0x01);
            forged[1].set_tag(i, forged[1].tag(i) ^ K64::mul(Backend::Portable, guess, 1));
        }
        let out = run(&forged, &[FIPS_KEY], &[FIPS_PT], None);
        if accepted {
            // Only a party knowing α could do this: the fault then goes through undetected.
            assert_ne!(out[0].0.as_ref().unwrap()[0], Some(FIPS_CT));
        } else {
            assert_abort(&out, Step::SboxMacCheck, 11);
        }
    }
}

#[test]
fn tampered_or_wrong_output_mask_share_aborts() {
    let preps = fips_preps(17);
    let flip: Edit = |m| m[3] ^= 0x04;
    let out = run(&preps, &[FIPS_KEY], &[FIPS_PT], Some((1, 11, flip)));
    assert_abort(&out, Step::OutputOpening, 12);
    let mut preps = fips_preps(18);
    preps[1].output_mask_shares[9] ^= 0x40;
    assert_abort(&run(&preps, &[FIPS_KEY], &[FIPS_PT], None), Step::OutputOpening, 12);
    let flip_hash: Edit = |m| *m.last_mut().unwrap() ^= 0x02;
    let preps = fips_preps(19);
    assert_abort(&run(&preps, &[FIPS_KEY], &[FIPS_PT], Some((1, 11, flip_hash))), Step::OutputOpening, 12);
}

#[test]
fn material_from_another_dealer_run_aborts() {
    let mut preps = fips_preps(30);
    let other = fips_preps(31);
    preps[1] = other[1].clone();
    let out = run(&preps, &[FIPS_KEY], &[FIPS_PT], None);
    assert!(matches!(out[0].0, Err(TinyTableError::AuthenticationFailed { party: 0, .. })), "{:?}", out[0].0);
}

#[test]
fn truncated_message_is_a_typed_error() {
    let preps = fips_preps(32);
    let cut: Edit = |m| {
        m.pop();
    };
    let out = run(&preps, &[FIPS_KEY], &[FIPS_PT], Some((1, 4, cut)));
    assert!(
        matches!(
            out[0].0,
            Err(TinyTableError::MalformedMessage {
                party: 0,
                step: Step::SboxRound(4),
                expected: 16,
                actual: 15,
                ..
            })
        ),
        "{:?}",
        out[0].0
    );
}

#[test]
fn input_changes_are_input_substitution_or_abort() {
    // The masked inputs carry no MACs (§2.3, Fig. 8 step 4): a wrong plaintext mask used
    // consistently is the ideal functionality with another plaintext, and is accepted.
    let mut substituted = FIPS_PT;
    substituted[5] ^= 0x21;
    let mut preps = fips_preps(41);
    preps[1].input_masks[5] ^= 0x21;
    let out = run(&preps, &[FIPS_KEY], &[FIPS_PT], None);
    for (r, _) in &out {
        assert_eq!(r.as_ref().unwrap(), &vec![Some(reference(&FIPS_KEY, &substituted))]);
    }
    // A masked input altered on the wire only: the sender keeps its own view, so the two parties
    // look up different entries and the honest party's check fails.
    let flip: Edit = |m| m[5] ^= 0x21;
    let preps = fips_preps(40);
    assert_abort(&run(&preps, &[FIPS_KEY], &[FIPS_PT], Some((1, 0, flip))), Step::SboxMacCheck, 11);
    // The same on the key owner's masked round keys (round key 7).
    let flip_key: Edit = |m| m[16 * 7 + 2] ^= 0x01;
    assert_abort_at(&run(&preps, &[FIPS_KEY], &[FIPS_PT], Some((0, 0, flip_key))), 1, Step::SboxMacCheck, 11);
}

#[test]
fn bad_setup_is_a_typed_error() {
    let preps = fips_preps(50);
    let swapped = [preps[1].clone(), preps[0].clone()];
    let out = run(&swapped, &[FIPS_KEY], &[FIPS_PT], None);
    assert!(matches!(out[0].0, Err(TinyTableError::PrepMismatch { party: 0, .. })));
    let out = run(&preps, &[FIPS_KEY, FIPS_KEY], &[FIPS_PT, FIPS_PT], None);
    assert!(matches!(out[0].0, Err(TinyTableError::BadInput { party: 0, .. })));
    let mut short = preps.clone();
    short[0].entries.pop();
    let out = run(&short, &[FIPS_KEY], &[FIPS_PT], None);
    assert!(matches!(out[0].0, Err(TinyTableError::PrepMismatch { party: 0, .. })));
    assert!(matches!(
        dealer(1).malicious_aes_tables(Direction::Encrypt, 2, Reveal::Both, 1),
        Err(TinyTableError::BadIoSpec(_))
    ));
}
