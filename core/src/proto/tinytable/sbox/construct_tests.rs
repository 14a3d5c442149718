//! The §4 table construction from the ideal authenticated-bit functionality: the tables it builds
//! are valid authenticated S-box tables, give FIPS-197 / RustCrypto AES in the malicious online
//! phase, consume exactly the indicator tree's 247 triples per table, take 3 rounds, and abort on a tampered message.

use crate::aes::sbox::{inv_sbox_table, sbox_table};
use crate::aes::{Block, Direction};
use crate::field::clmul::Backend;
use crate::net::memory::run_session;
use crate::net::{NetStats, Network};
use crate::proto::tinytable::mac::linear::BYTE_TAG_MASK;
use crate::proto::tinytable::sbox::construct::{
    construct_malicious_aes_tables, AuthBitSource, IdealAuthBits, RANDOM_BITS_PER_BLOCK, TRIPLES_PER_BLOCK,
};
use crate::proto::tinytable::sbox::malicious::encrypt_batch;
use crate::proto::tinytable::sbox::prep::{entry_index, MaliciousAesPrep, PeerKeys};
use crate::proto::tinytable::sbox::tests::{reference, Tamper};
use crate::proto::tinytable::*;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

const HASH_KEY: [u8; 16] = [0x42; 16];

type Built = (Result<MaliciousAesPrep, TinyTableError>, NetStats, IdealAuthBits);
/// Party 1 alters its `.0`-th sent message with `.1`.
type Cheat = Option<(u64, fn(&mut Vec<u8>))>;

fn build(
    seed: u64,
    direction: Direction,
    key_owner: usize,
    reveal: Reveal,
    blocks: usize,
    tamper: Cheat,
) -> Vec<Built> {
    let sources = IdealAuthBits::pair_for_aes(&mut ChaCha20Rng::seed_from_u64(seed), blocks);
    run_session(2, |net| {
        let mut source = sources[net.party()].clone();
        async move {
            let party = net.party();
            let (r, stats) = match tamper {
                Some((target, edit)) if party == 1 => {
                    let mut net = Tamper::new(net, target, edit);
                    let r = construct_malicious_aes_tables(
                        &mut net,
                        &mut source,
                        direction,
                        key_owner,
                        false,
                        reveal,
                        blocks,
                        HASH_KEY,
                    )
                    .await;
                    (r, net.stats())
                }
                _ => {
                    let mut net = net;
                    let r = construct_malicious_aes_tables(
                        &mut net,
                        &mut source,
                        direction,
                        key_owner,
                        false,
                        reveal,
                        blocks,
                        HASH_KEY,
                    )
                    .await;
                    (r, net.stats())
                }
            };
            (r, stats, source)
        }
    })
}

fn online(preps: &[MaliciousAesPrep; 2], keys: &[Block], pts: &[Block]) -> Vec<Vec<Option<Block>>> {
    run_session(2, |mut net| async move {
        let prep = &preps[net.party()];
        let inputs = if net.party() == prep.key_owner() { keys } else { pts };
        encrypt_batch(&mut net, prep, inputs).await.expect("honest run")
    })
}

#[test]
fn constructed_tables_give_aes_and_use_the_indicator_trees_triples() {
    let (n, key_owner) = (2, 1);
    let built = build(1, Direction::Encrypt, key_owner, Reveal::Both, n, None);
    let mut preps = Vec::new();
    for (party, (r, stats, mut source)) in built.into_iter().enumerate() {
        let prep = r.unwrap_or_else(|e| panic!("party {party}: {e}"));
        assert_eq!(stats.rounds, 3);
        assert_eq!(TRIPLES_PER_BLOCK, 160 * 247);
        // The pools held exactly what n blocks need, and all of it was consumed.
        assert!(source.triples(1).is_err() && source.random_bits(1).is_err());
        // Per entry: its share and tag packed in 16 bytes, and the explicit 16-byte verifier key.
        assert_eq!(prep.table_and_mac_bytes(), n * 160 * 256 * (16 + 16));
        preps.push(prep);
    }
    let preps: [MaliciousAesPrep; 2] = preps.try_into().unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let (mut keys, mut pts) = (vec![[0u8; 16]; n], vec![[0u8; 16]; n]);
    keys.iter_mut().chain(pts.iter_mut()).for_each(|b| rng.fill_bytes(b));
    keys[0] = core::array::from_fn(|i| i as u8);
    pts[0] = core::array::from_fn(|i| (i as u8) * 0x11);
    let expected: Vec<Option<Block>> = keys.iter().zip(&pts).map(|(k, p)| Some(reference(k, p))).collect();
    assert_eq!(expected[0].unwrap()[..4], [0x69, 0xc4, 0xe0, 0xd8]);
    for out in online(&preps, &keys, &pts) {
        assert_eq!(out, expected);
    }
}

#[test]
fn constructed_material_is_masked_sbox_tables_with_valid_macs() {
    let built = build(2, Direction::Encrypt, 0, Reveal::To(0), 1, None);
    let preps: Vec<MaliciousAesPrep> = built.into_iter().map(|(r, _, _)| r.unwrap()).collect();
    let sbox = sbox_table();
    for t in [0, 17, 159] {
        let entry = |e: usize| preps[0].entry(entry_index(0, t, e)) ^ preps[1].entry(entry_index(0, t, e));
        // T[e] = S(e ⊕ m) ⊕ o for exactly one input mask m (and then o = T[0] ⊕ S(m)).
        let fits: Vec<usize> =
            (0..256).filter(|&m| (0..256).all(|e| entry(e) ^ entry(0) == sbox[e ^ m] ^ sbox[m])).collect();
        assert_eq!(fits.len(), 1, "table {t}");
    }
    for p in 0..2 {
        let (holder, verifier) = (&preps[p], &preps[1 - p]);
        let PeerKeys::Explicit { tables: keys, outputs } = &verifier.peer_keys else {
            panic!("explicit keys")
        };
        for (i, key) in keys.iter().enumerate() {
            let x = u64::from(holder.entry(i));
            assert_eq!(holder.tag(i), (Backend::Portable.clmul64(verifier.alpha, x) ^ key) & BYTE_TAG_MASK);
        }
        for (j, (&x, &tag)) in holder.output_mask_shares.iter().zip(&holder.output_mask_tags).enumerate() {
            assert_eq!(tag, Backend::Portable.clmul64(verifier.alpha, u64::from(x)) ^ outputs[j]);
        }
    }
    let out = online(&[preps[0].clone(), preps[1].clone()], &[[3; 16]], &[[4; 16]]);
    assert_eq!(out[0], vec![Some(reference(&[3; 16], &[4; 16]))]);
    assert_eq!(out[1], vec![None]);
}

#[test]
fn tampered_construction_messages_abort() {
    for (target, edit) in [
        (0u64, (|m: &mut Vec<u8>| m[0] ^= 1) as fn(&mut Vec<u8>)),
        (1, |m: &mut Vec<u8>| m[100] ^= 0x10),
        (2, |m: &mut Vec<u8>| *m.last_mut().unwrap() ^= 1),
    ] {
        let built = build(3, Direction::Encrypt, 0, Reveal::Both, 1, Some((target, edit)));
        let r = &built[0].0;
        assert!(
            matches!(r, Err(TinyTableError::AuthenticationFailed { party: 0, step: Step::TableConstruction(round) }) if *round == target as usize + 1),
            "target {target}: {:?}",
            r.as_ref().err()
        );
    }
}

#[test]
fn short_ideal_pool_is_a_typed_error() {
    let [mut a, _] = IdealAuthBits::pair(&mut ChaCha20Rng::seed_from_u64(4), RANDOM_BITS_PER_BLOCK - 1, 0);
    let mut nets = crate::net::memory::MemoryNetwork::session(2);
    let r = futures::executor::block_on(construct_malicious_aes_tables(
        &mut nets[0],
        &mut a,
        Direction::Encrypt,
        0,
        false,
        Reveal::Both,
        1,
        HASH_KEY,
    ));
    assert!(matches!(r, Err(TinyTableError::PrepMismatch { party: 0, .. })), "{r:?}");
}

#[test]
fn tables_built_from_ot_generated_bits_and_triples_give_fips197_both_ways() {
    // The real two-party source: TinyOT over OT extension fills each party's pool, then the §4
    // construction and the malicious online phase run as usual, for encryption and decryption.
    let key: Block = core::array::from_fn(|i| i as u8);
    let pt: Block =
        [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff];
    let ct = reference(&key, &pt);
    for (direction, input, output) in [(Direction::Encrypt, pt, ct), (Direction::Decrypt, ct, pt)] {
        let built = run_session(2, |mut net| async move {
            let rng = ChaCha20Rng::seed_from_u64(90 + net.party() as u64);
            let mut ot = OtTinyOt::<u64>::setup(&mut net, b"sbox-over-ot", rng).await.expect("OT setup");
            let mut pool =
                OtAuthBitPool::generate(&mut net, &mut ot, RANDOM_BITS_PER_BLOCK, TRIPLES_PER_BLOCK)
                    .await
                    .expect("pool");
            construct_malicious_aes_tables(
                &mut net,
                &mut pool,
                direction,
                0,
                false,
                Reveal::Both,
                1,
                HASH_KEY,
            )
            .await
            .expect("tables")
        });
        let preps: [MaliciousAesPrep; 2] = built.try_into().expect("two parties");
        for out in online(&preps, &[key], &[input]) {
            assert_eq!(out, vec![Some(output)], "{direction:?}");
        }
    }
}

/// Decryption material from the construction: every table is a masked inverse S-box table, and
/// the online phase decrypts random ciphertexts (and FIPS-197's) under random keys.
#[test]
fn constructed_decryption_tables_invert_aes() {
    let n = 2;
    let built = build(4, Direction::Decrypt, 1, Reveal::Both, n, None);
    let preps: Vec<MaliciousAesPrep> = built.into_iter().map(|(r, _, _)| r.unwrap()).collect();
    let inv = inv_sbox_table();
    for t in [0, 90, 159] {
        let entry = |e: usize| preps[0].entry(entry_index(0, t, e)) ^ preps[1].entry(entry_index(0, t, e));
        let fits: Vec<usize> =
            (0..256).filter(|&m| (0..256).all(|e| entry(e) ^ entry(0) == inv[e ^ m] ^ inv[m])).collect();
        assert_eq!(fits.len(), 1, "table {t}");
    }
    let preps: [MaliciousAesPrep; 2] = preps.try_into().unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(10);
    let (mut keys, mut pts) = (vec![[0u8; 16]; n], vec![[0u8; 16]; n]);
    keys.iter_mut().chain(pts.iter_mut()).for_each(|b| rng.fill_bytes(b));
    keys[0] = core::array::from_fn(|i| i as u8);
    pts[0] = core::array::from_fn(|i| (i as u8) * 0x11);
    let cts: Vec<Block> = keys.iter().zip(&pts).map(|(k, p)| reference(k, p)).collect();
    let expected: Vec<Option<Block>> = pts.iter().map(|p| Some(*p)).collect();
    for out in online(&preps, &keys, &cts) {
        assert_eq!(out, expected);
    }
}
