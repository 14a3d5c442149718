//! Two-party tests of the semi-honest S-box table protocol (§2.3) over the in-memory network:
//! FIPS-197, batches against the `aes` crate, reveal sets, lanes, exact communication and round
//! counts, the material's serialization parts, and typed errors.

use crate::aes::Direction;
use crate::net::memory::run_session;
use crate::net::{NetStats, Network};
use crate::proto::tinytable::circuit::tests_malicious::dealer;
use crate::proto::tinytable::sbox::tables::{self, AesTablePrep, TABLES_PER_BLOCK, TABLE_ENTRIES};
use crate::proto::tinytable::*;
use ::aes::cipher::{BlockEncrypt, KeyInit};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use crate::aes::fips197::{CIPHERTEXT as FIPS_CT, KEY as FIPS_KEY, PLAINTEXT as FIPS_PT};

fn run_aes_tables(
    preps: &[Vec<AesTablePrep>; 2],
    keys: &[[u8; 16]],
    plaintexts: &[[u8; 16]],
    key_owner: usize,
) -> Vec<(Vec<Option<[u8; 16]>>, NetStats)> {
    run_session(2, |mut net| {
        let party = net.party();
        let prep = preps[party].clone();
        let inputs = if party == key_owner { keys.to_vec() } else { plaintexts.to_vec() };
        async move {
            let out = tables::encrypt_batch(&mut net, &prep, &inputs).await.expect("encryption");
            (out, net.stats())
        }
    })
}

#[test]
fn sbox_tables_fips197_sizes_and_communication() {
    for key_owner in [0, 1] {
        let preps = dealer(21 + key_owner as u64)
            .aes_tables_batch(Direction::Encrypt, key_owner, Reveal::Both, 1)
            .unwrap();
        for prep in preps.iter().flatten() {
            assert_eq!(prep.table_bytes(), TABLES_PER_BLOCK * TABLE_ENTRIES);
            assert_eq!(prep.table_bytes(), 40 * 1024, "Table 1: 40 KiB passive, optimized");
        }
        let results = run_aes_tables(&preps, &[FIPS_KEY], &[FIPS_PT], key_owner);
        for (party, (out, stats)) in results.iter().enumerate() {
            assert_eq!(out[0], Some(FIPS_CT), "party {party}");
            let input_bytes = if party == key_owner { 176 } else { 16 };
            assert_eq!(stats.bytes_sent, input_bytes + 10 * 16, "party {party}");
            assert_eq!(stats.rounds, 1 + 10, "one input round and 10 S-box rounds");
        }
    }
}

/// Decryption material (inverse S-box tables, the equivalent inverse cipher's linear layers and
/// keys): FIPS-197's ciphertext and RustCrypto ciphertexts decrypt with encryption's exact cost;
/// the material keeps its direction through its serialization parts.
#[test]
fn sbox_tables_decrypt_at_the_cost_of_encryption() {
    let preps = dealer(41).aes_tables_batch(Direction::Decrypt, 1, Reveal::Both, 1).unwrap();
    for (party, (out, stats)) in run_aes_tables(&preps, &[FIPS_KEY], &[FIPS_CT], 1).iter().enumerate() {
        assert_eq!(out[0], Some(FIPS_PT), "party {party}");
        let input_bytes = if party == 1 { 176 } else { 16 };
        assert_eq!((stats.bytes_sent, stats.rounds), (input_bytes + 10 * 16, 11), "party {party}");
    }
    let mut rng = ChaCha20Rng::seed_from_u64(42);
    let blocks = 150;
    let (mut keys, mut pts) = (vec![[0u8; 16]; blocks], vec![[0u8; 16]; blocks]);
    keys.iter_mut().chain(pts.iter_mut()).for_each(|b| rng.fill_bytes(b));
    let cts: Vec<[u8; 16]> = keys
        .iter()
        .zip(&pts)
        .map(|(k, p)| {
            let mut b = (*p).into();
            ::aes::Aes128::new(k.into()).encrypt_block(&mut b);
            b.into()
        })
        .collect();
    let mut preps = dealer(43).aes_tables_batch(Direction::Decrypt, 0, Reveal::Both, blocks).unwrap();
    for prep in preps.iter_mut().flatten().step_by(7) {
        *prep = rebuilt_from_parts(prep);
        assert_eq!(prep.direction(), Direction::Decrypt);
    }
    for (out, _) in run_aes_tables(&preps, &keys, &cts, 0) {
        assert_eq!(out, pts.iter().map(|p| Some(*p)).collect::<Vec<_>>());
    }
}

#[test]
fn sbox_tables_batch_matches_aes_and_respects_reveal() {
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let blocks = 5;
    let mut keys = vec![[0u8; 16]; blocks];
    let mut pts = vec![[0u8; 16]; blocks];
    keys.iter_mut().chain(pts.iter_mut()).for_each(|b| rng.fill_bytes(b));
    let preps = dealer(9).aes_tables_batch(Direction::Encrypt, 1, Reveal::To(0), blocks).unwrap();
    let results = run_aes_tables(&preps, &keys, &pts, 1);
    for i in 0..blocks {
        let mut want = ::aes::cipher::generic_array::GenericArray::clone_from_slice(&pts[i]);
        ::aes::Aes128::new_from_slice(&keys[i]).unwrap().encrypt_block(&mut want);
        assert_eq!(results[0].0[i].map(|c| c.to_vec()), Some(want.to_vec()), "block {i}");
        assert_eq!(results[1].0[i], None, "ciphertext hidden from party 1");
    }
    for (_, stats) in &results {
        assert_eq!(stats.messages_sent, 11, "one message per round for the whole batch");
    }
    assert_eq!(results[1].1.bytes_sent, (blocks * (176 + 160)) as u64);
}

/// `prep` rebuilt from its parts (all 160 tables stored, as material from outside the dealer).
pub(crate) fn rebuilt_from_parts(prep: &AesTablePrep) -> AesTablePrep {
    AesTablePrep::from_parts(
        prep.party(),
        prep.direction(),
        prep.key_owner(),
        prep.reveal(),
        prep.tables().to_vec(),
        prep.round_key_masks().map(<[_]>::to_vec),
        prep.plaintext_mask().copied(),
        prep.output_mask().copied(),
    )
    .unwrap()
}

#[test]
fn sbox_tables_large_batch_runs_in_two_lanes_with_the_same_bytes() {
    // 131 blocks: two lanes of 65 and 66 (crate::proto::tinytable::sbox::lanes), mixed with material
    // built from parts (all tables stored) for some blocks.
    let blocks = 131;
    let mut rng = ChaCha20Rng::seed_from_u64(13);
    let mut keys = vec![[0u8; 16]; blocks];
    let mut pts = vec![[0u8; 16]; blocks];
    keys.iter_mut().chain(pts.iter_mut()).for_each(|b| rng.fill_bytes(b));
    let mut preps = dealer(14).aes_tables_batch(Direction::Encrypt, 0, Reveal::Both, blocks).unwrap();
    for party_preps in preps.iter_mut() {
        for prep in party_preps.iter_mut().skip(60).take(10) {
            *prep = rebuilt_from_parts(prep);
        }
    }
    let results = run_aes_tables(&preps, &keys, &pts, 0);
    for (party, (out, stats)) in results.iter().enumerate() {
        for i in 0..blocks {
            let mut want = ::aes::cipher::generic_array::GenericArray::clone_from_slice(&pts[i]);
            ::aes::Aes128::new_from_slice(&keys[i]).unwrap().encrypt_block(&mut want);
            assert_eq!(out[i].map(|c| c.to_vec()), Some(want.to_vec()), "party {party}, block {i}");
        }
        let input_bytes = if party == 0 { 176 } else { 16 };
        assert_eq!(stats.bytes_sent, (blocks * (input_bytes + 160)) as u64, "party {party}");
        assert_eq!(stats.messages_sent, 2 * 11, "one message per lane for the inputs and each S-box round");
        // Both lanes' input messages in one round, then each lane's exchange of S-box rounds
        // 1..=10 counted on its own: 1 + 2 · 10.
        assert_eq!(stats.rounds, 1 + 2 * 10, "party {party}");
    }
}

#[test]
fn sbox_tables_batch_deals_the_blockwise_material() {
    // The batch dealer puts each party's tables in one shared slab; the material must be exactly
    // what dealing block by block from the same generator gives, and survive a round trip
    // through its parts (owned tables).
    let batch = dealer(5).aes_tables_batch(Direction::Encrypt, 0, Reveal::To(1), 3).unwrap();
    let mut single = dealer(5);
    for i in 0..3 {
        let blockwise = single.aes_tables(Direction::Encrypt, 0, Reveal::To(1)).unwrap();
        for (party, preps) in batch.iter().enumerate() {
            let prep = &preps[i];
            assert_eq!(prep, &blockwise[party], "party {party}, block {i}");
            assert_eq!(prep.table_bytes(), TABLES_PER_BLOCK * TABLE_ENTRIES);
            assert_eq!(prep.party(), party);
            assert_eq!(&rebuilt_from_parts(prep), prep);
        }
    }
    assert_ne!(batch[0][0].tables(), batch[0][1].tables(), "blocks get their own tables");
}

#[test]
fn sbox_tables_malformed_round_message_is_a_typed_error() {
    let preps = dealer(2).aes_tables_batch(Direction::Encrypt, 0, Reveal::Both, 1).unwrap();
    let results = run_session(2, |mut net| {
        let prep = preps[net.party()][0].clone();
        async move {
            if net.party() == 1 {
                net.send(0, vec![0; 16]).unwrap();
                net.send(0, vec![0; 15]).unwrap();
                for _ in 0..2 {
                    net.recv(0).await.unwrap();
                }
                return None;
            }
            Some(tables::encrypt(&mut net, &prep, &FIPS_KEY).await)
        }
    });
    assert!(
        matches!(
            results[0],
            Some(Err(TinyTableError::MalformedMessage {
                step: Step::SboxRound(1),
                expected: 16,
                actual: 15,
                ..
            }))
        ),
        "{:?}",
        results[0]
    );
    assert!(matches!(
        dealer(1).aes_tables(Direction::Encrypt, 2, Reveal::Both),
        Err(TinyTableError::BadIoSpec(_))
    ));
}
