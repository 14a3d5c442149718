//! Tests of the malicious (2,3) LUT-256: the generic suites of `tests.rs` (FIPS-197 and exact
//! costs, verify-before-reveal at the exact verification cost, reveal to one party, cheating
//! parties) with this variant's attacks — corrupted resharings at every level of Protocol 5,
//! corrupted openings of c, local deviations on one-hot vectors — and the chunked verification
//! of a long preparation.

use super::lut256::{TRIPLES_PER_SBOX, VERIFY_EVERY};
use super::tamper::{product_message, Deviation, MessageAttack, TamperNet};
use super::tests::{
    cheating_aborts, flip, honest_runs_reveal_after_verification, reveal_to_one_party, Attack, Kind,
    Malicious, Phases,
};
use super::*;
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::Network;
use crate::proto::maestro::tests::{aes_suite, Costs, Variant};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

impl Malicious for MaliciousLut256Sbox {
    /// One per Ohv level with at most 64 products, two for the 127 products of the last.
    const TRIPLES_PER_SBOX: usize = TRIPLES_PER_SBOX;
    /// One replicated opening of c per S-box layer.
    const ENCRYPTION_MESSAGES: usize = 10;
    /// One resharing per Ohv level.
    const PREPROCESSING_MESSAGES: usize = 7;
    fn create(party: Party) -> Self {
        Self::new(party)
    }
    async fn prepare<N: Network>(&mut self, net: &mut N, sboxes: usize) -> Result<(), MaestroError> {
        self.preprocess(net, sboxes).await
    }
}

/// The semi-honest layer's costs (Table 1, ⟦·⟧-LUT-256): 8 online bits in one round per S-box,
/// 247 preprocessing bits in 7 rounds.
impl Variant for MaliciousLut256Sbox {
    const COSTS: Costs = <crate::proto::maestro::Lut256Sbox as Variant>::COSTS;
    fn build(party: Party) -> Self {
        Self::new(party)
    }
    fn party(&mut self) -> &mut Party {
        self.session().party()
    }
    async fn preprocess(&mut self, net: &mut MemoryNetwork, sboxes: usize) {
        MaliciousLut256Sbox::preprocess(self, net, sboxes).await.expect("preprocessing");
    }
    /// Every chunk of [`VERIFY_EVERY`] S-boxes before the last: its 7 rounds and the
    /// verification of its 2^20 triples (24 · 20 + 112 bytes in 2 · 20 + 7 rounds).
    fn extra_preprocessing(sboxes: u64) -> (u64, u64) {
        let verified = sboxes.div_ceil(VERIFY_EVERY as u64) - 1;
        assert_eq!(VERIFY_EVERY * TRIPLES_PER_SBOX, 1 << 20);
        (verified * 8 * (24 * 20 + 112), verified * (7 + 2 * 20 + 7))
    }
}

#[test]
fn malicious_lut256_aes_suite() {
    aes_suite::<MaliciousLut256Sbox>();
}

#[test]
fn malicious_lut256_honest_runs_reveal_after_verification() {
    honest_runs_reveal_after_verification::<MaliciousLut256Sbox>();
}

#[test]
fn malicious_lut256_cheating_parties_are_caught() {
    cheating_aborts::<MaliciousLut256Sbox>(Kind::Lut256);
}

#[test]
fn malicious_lut256_reveals_to_one_party() {
    reveal_to_one_party::<MaliciousLut256Sbox>();
}

/// The (2,3) LUT-256's own attacks, located from the honest run's phase boundaries: the seven
/// preprocessing messages are the resharings of levels M = 2, 4, …, 128; every key-schedule
/// `SubWord` and every encryption layer sends one opening of c.
pub(super) fn attacks(honest: &[Phases; 3]) -> Vec<Attack> {
    let mut list = Vec::new();
    for (name, corrupt, level, byte, mask) in [
        ("one-hot resharing, level M = 2", 0, 0, 3, 0x01),
        ("one-hot resharing, level M = 4", 1, 1, 0, 0x80),
        ("one-hot resharing, level M = 32", 2, 4, 17, 0x04),
        ("one-hot resharing, level M = 128 (first 64 products)", 1, 6, 8, 0x01),
        ("one-hot resharing, level M = 128 (last 63 products)", 0, 6, 15, 0x40),
    ] {
        let message = flip(honest[corrupt].setup + level, byte, mask);
        list.push(Attack { name, corrupt, message, deviation: None });
    }
    // Additive errors in a product share before resharing (consistent sharings: caught by the
    // triple check alone), at levels M = 2, 64 and 128 (both words of the last).
    for (name, corrupt, level, count, vector, bit) in [
        ("additive error in a product, level M = 2", 1, 0, 1, 7, 0),
        ("additive error in a product, level M = 64", 0, 5, 63, 300, 62),
        ("additive error in a product, level M = 128 (first word)", 2, 6, 127, 0, 5),
        ("additive error in a product, level M = 128 (second word)", 1, 6, 127, 359, 126),
    ] {
        list.push(Attack {
            name,
            corrupt,
            message: Some(product_message(honest[corrupt].setup, level, count, vector, bit)),
            deviation: Some(Deviation::Product { count, vector, bit }),
        });
    }
    for (name, corrupt, index, byte, mask) in [
        ("replicated opening of c (key schedule)", 1, honest[1].inputs + 2, 1, 0x40),
        ("replicated opening of c (first layer)", 0, honest[0].key_schedule, 3, 0x01),
        ("replicated opening of c (last layer)", 2, honest[2].encryption - 1, 30, 0x80),
    ] {
        list.push(Attack { name, corrupt, message: flip(index, byte, mask), deviation: None });
    }
    list.push(Attack {
        name: "every opening of c in one layer",
        corrupt: 1,
        message: Some(MessageAttack {
            message: honest[1].key_schedule + 4,
            count: 1,
            byte: 0,
            mask: 0x11,
            also: Some(31),
        }),
        deviation: None,
    });
    for (name, corrupt, deviation) in [
        ("local one-hot vector share (entries 192-207)", 2, Deviation::OneHot { index: 44, bits: 0x0101 }),
        ("local one-hot vector share (entries 80-95)", 0, Deviation::OneHot { index: 101, bits: 0x8000 }),
        ("S-box input share (first layer)", 1, Deviation::SboxInput { call: 10, byte: 9, delta: 0x40 }),
        ("S-box output share (key schedule)", 2, Deviation::SboxOutput { call: 7, byte: 3, delta: 0x01 }),
    ] {
        list.push(Attack { name, corrupt, message: None, deviation: Some(deviation) });
    }
    list
}

/// A preparation longer than [`VERIFY_EVERY`] verifies its first chunk before making the next
/// (so the log never holds more than one chunk): exact bytes and rounds, the last chunk's
/// triples left for the final verification; a corrupted resharing in the first chunk aborts
/// the preparation itself at both honest parties.
#[test]
fn long_preparations_verify_chunk_by_chunk() {
    let count = VERIFY_EVERY + 3;
    for cheat in [false, true] {
        let results = run_session(3, |mut net| async move {
            let me = net.party();
            let mut rng = ChaCha20Rng::seed_from_u64(90 + me as u64);
            let mut sbox = MaliciousLut256Sbox::new(Party::setup(&mut net, &mut rng).await.unwrap());
            // Party 2 corrupts its fourth resharing (level M = 16) of the first chunk.
            let attack = (cheat && me == 2).then_some(MessageAttack {
                message: 3,
                count: 1,
                byte: 1000,
                mask: 0x20,
                also: None,
            });
            let mut net = TamperNet::new(net, attack);
            let before = net.stats();
            let result = sbox.preprocess(&mut net, count).await;
            (result, net.stats().since(&before), sbox.session().pending_triples(), sbox.available())
        });
        for (p, (result, stats, pending, available)) in results.into_iter().enumerate() {
            if cheat {
                if p != 2 {
                    assert!(
                        matches!(
                            result,
                            Err(MaestroError::VerificationFailed | MaestroError::OpeningMismatch { .. })
                        ),
                        "party {p}: {result:?}"
                    );
                }
                continue;
            }
            assert_eq!(result, Ok(()), "party {p}");
            // Level messages of the first chunk (whole bytes) and of 3 vectors
            // (⌈3(M − 1)/8⌉ bytes each), and one verification of N = 2^20 triples.
            let last_chunk: u64 = [1u64, 3, 7, 15, 31, 63, 127].iter().map(|m| (3 * m).div_ceil(8)).sum();
            let triples = (VERIFY_EVERY * TRIPLES_PER_SBOX) as u64;
            let halvings = u64::from(u64::BITS - (triples - 1).leading_zeros());
            assert_eq!(stats.bytes_sent, 247 * VERIFY_EVERY as u64 / 8 + last_chunk + 24 * halvings + 112);
            assert_eq!(stats.rounds, 7 + 2 * halvings + 7 + 7);
            assert_eq!((pending, available), (3 * TRIPLES_PER_SBOX, count));
        }
    }
}
