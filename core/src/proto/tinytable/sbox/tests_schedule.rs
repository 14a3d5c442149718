//! An XOR-shared key on the malicious S-box-table path ([`super::schedule`]): FIPS-197 and
//! RustCrypto in both directions from key shares, for every plaintext owner and reveal set, with
//! the exact rounds and bytes; the material from the trusted dealer and from the §4 construction
//! alike; and a cheating party — a forged schedule entry, an altered schedule message or hash —
//! makes the honest party abort at the key-schedule MAC check before the cipher's rounds, with no
//! output.

use crate::aes::{Block, Direction};
use crate::net::memory::run_session;
use crate::net::{NetStats, Network, PartyId};
use crate::proto::tinytable::sbox::construct::{
    construct_malicious_aes_tables, per_block, IdealAuthBits, TRIPLES_PER_TABLE,
};
use crate::proto::tinytable::sbox::lanes::MIN_LANE_BLOCKS;
use crate::proto::tinytable::sbox::malicious::{encrypt_batch, encrypt_batch_shared_key, HASH_BYTES};
use crate::proto::tinytable::sbox::prep::{entry_of, MaliciousAesPrep};
use crate::proto::tinytable::sbox::schedule::{schedule_index, SCHEDULE_ENTRIES_PER_BLOCK};
use crate::proto::tinytable::sbox::tests::{reference, Tamper};
use crate::proto::tinytable::*;
use ::aes::cipher::{BlockDecrypt, KeyInit};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use crate::aes::fips197::{CIPHERTEXT as FIPS_CT, KEY as FIPS_KEY, PLAINTEXT as FIPS_PT};

type Outcome = (Result<Vec<Option<Block>>, TinyTableError>, NetStats);
/// Party `.0` alters its `.1`-th sent message with `.2`.
type Cheat = Option<(PartyId, u64, fn(&mut Vec<u8>))>;

fn dealer(seed: u64) -> TrustedDealer<ChaCha20Rng> {
    TrustedDealer::new(ChaCha20Rng::seed_from_u64(seed))
}

/// XOR shares of `keys`: party 0's are random, party 1's the rest.
fn split(keys: &[Block], seed: u64) -> [Vec<Block>; 2] {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let first: Vec<Block> = keys
        .iter()
        .map(|_| {
            let mut b = [0u8; 16];
            rng.fill_bytes(&mut b);
            b
        })
        .collect();
    let second = keys.iter().zip(&first).map(|(k, s)| core::array::from_fn(|j| k[j] ^ s[j])).collect();
    [first, second]
}

/// Both parties with key shares `shares` and `inputs` at the plaintext owner; party `cheat.0`
/// alters its `cheat.1`-th sent message with `cheat.2`.
fn run(
    preps: &[MaliciousAesPrep; 2],
    shares: &[Vec<Block>; 2],
    inputs: &[Block],
    cheat: Cheat,
) -> Vec<Outcome> {
    run_session(2, |net| async move {
        let party = net.party();
        let prep = &preps[party];
        let pts: &[Block] = if party == prep.key_owner() { &[] } else { inputs };
        let (target, edit) = match cheat {
            Some((p, target, edit)) if p == party => (target, edit),
            _ => (u64::MAX, (|_: &mut Vec<u8>| {}) as fn(&mut Vec<u8>)),
        };
        let mut net = Tamper::new(net, target, edit);
        let r = encrypt_batch_shared_key(&mut net, prep, &shares[party], pts).await;
        (r, net.stats())
    })
}

fn decrypt(key: &Block, ct: &Block) -> Block {
    let mut b = (*ct).into();
    ::aes::Aes128::new(key.into()).decrypt_block(&mut b);
    b.into()
}

#[test]
fn fips197_from_key_shares_both_ways_every_role_and_reveal_with_exact_costs() {
    let shares = split(&[FIPS_KEY], 1);
    for direction in [Direction::Encrypt, Direction::Decrypt] {
        let (input, output) = match direction {
            Direction::Encrypt => (FIPS_PT, FIPS_CT),
            Direction::Decrypt => (FIPS_CT, FIPS_PT),
        };
        for pt_owner in 0..2 {
            for reveal in [Reveal::Both, Reveal::To(0), Reveal::To(1)] {
                let preps = dealer(10 + pt_owner as u64)
                    .malicious_aes_tables_shared_key(direction, pt_owner, reveal, 1)
                    .expect("dealer");
                assert!(preps.iter().all(|p| p.shared_key() && p.key_owner() == 1 - pt_owner));
                let what = format!("{direction:?}, plaintext owner {pt_owner}, {reveal:?}");
                for (party, (r, stats)) in run(&preps, &shares, &[input], None).iter().enumerate() {
                    let expected = reveal.includes(party).then_some(output);
                    assert_eq!(r.as_ref().expect("honest run"), &vec![expected], "{what}, party {party}");
                    // 1 input round, 10 key-schedule rounds, 10 cipher rounds (+ the output round for
                    // a sender of mask shares).
                    let sends_output = reveal.includes(1 - party);
                    assert_eq!(stats.rounds, 21 + u64::from(sends_output), "{what}");
                    let input_bytes = if party == pt_owner { 32 } else { 16 };
                    let schedule = 10 * 4 + HASH_BYTES as u64;
                    let output = if sends_output { 16 + HASH_BYTES as u64 } else { 0 };
                    assert_eq!(
                        stats.bytes_sent,
                        input_bytes + schedule + 10 * 16 + HASH_BYTES as u64 + output,
                        "{what}, party {party}"
                    );
                }
            }
        }
    }
}

#[test]
fn batches_over_two_lanes_with_a_key_per_block_match_rustcrypto() {
    let n = 2 * MIN_LANE_BLOCKS + 3;
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let (mut keys, mut pts) = (vec![[0u8; 16]; n], vec![[0u8; 16]; n]);
    keys.iter_mut().chain(pts.iter_mut()).for_each(|b| rng.fill_bytes(b));
    let shares = split(&keys, 3);
    for direction in [Direction::Encrypt, Direction::Decrypt] {
        let preps =
            dealer(4).malicious_aes_tables_shared_key(direction, 1, Reveal::To(1), n).expect("dealer");
        let want: Vec<Option<Block>> = keys
            .iter()
            .zip(&pts)
            .map(|(k, p)| {
                Some(match direction {
                    Direction::Encrypt => reference(k, p),
                    Direction::Decrypt => decrypt(k, p),
                })
            })
            .collect();
        let out = run(&preps, &shares, &pts, None);
        assert_eq!(out[0].0.as_ref().expect("party 0"), &vec![None; n], "{direction:?}");
        assert_eq!(out[1].0.as_ref().expect("party 1"), &want, "{direction:?}");
    }
}

/// The honest party 0 aborted at the key-schedule MAC check after its input and 10 schedule
/// messages: no cipher round ran, no output-mask share was sent.
fn assert_schedule_abort(out: &[Outcome], what: &str) {
    let (r, stats) = &out[0];
    assert_eq!(
        r,
        &Err(TinyTableError::AuthenticationFailed { party: 0, step: Step::KeyScheduleMacCheck }),
        "{what}"
    );
    assert_eq!(stats.messages_sent, 1 + 10, "{what}");
}

#[test]
fn a_cheating_party_in_the_key_schedule_is_caught_before_the_cipher_rounds() {
    let shares = split(&[FIPS_KEY], 5);
    let preps =
        dealer(6).malicious_aes_tables_shared_key(Direction::Encrypt, 1, Reveal::Both, 1).expect("dealer");
    // Party 1's material: every entry of one schedule table replaced (tags kept), in round 1, 5
    // and 10 — whichever entry the run opens is wrong.
    for table in [0, 17, 39] {
        let mut forged = preps.clone();
        let schedule = forged[1].schedule.as_mut().expect("shared key");
        for e in 0..256 {
            let i = schedule_index(0, table, e);
            let w = schedule.entries[i];
            schedule.entries[i] = crate::proto::tinytable::sbox::prep::pack_entry(entry_of(w) ^ 0x10, w);
        }
        assert_schedule_abort(&run(&forged, &shares, &[FIPS_PT], None), &format!("forged table {table}"));
    }
    let flip_first = |m: &mut Vec<u8>| m[0] ^= 1;
    let flip_last = |m: &mut Vec<u8>| {
        if let Some(b) = m.last_mut() {
            *b ^= 0x80;
        }
    };
    // An altered schedule entry on the wire in rounds 1 and 4, and an altered hash in round 10.
    for (target, edit, what) in [
        (1, flip_first as fn(&mut Vec<u8>), "round 1 entry"),
        (4, flip_first, "round 4 entry"),
        (10, flip_last, "hash"),
    ] {
        assert_schedule_abort(&run(&preps, &shares, &[FIPS_PT], Some((1, target, edit))), what);
    }
    // A cheating party 0 (the key owner) against the honest plaintext owner.
    let out = run(&preps, &shares, &[FIPS_PT], Some((0, 7, flip_first)));
    assert_eq!(
        out[1].0,
        Err(TinyTableError::AuthenticationFailed { party: 1, step: Step::KeyScheduleMacCheck }),
        "cheating key owner"
    );
    // A wrong key share is input substitution: both parties get the encryption under that key.
    let wrong = [vec![[0u8; 16]], shares[1].clone()];
    let out = run(&preps, &wrong, &[FIPS_PT], None);
    assert_eq!(
        out[0].0.as_ref().expect("substituted share"),
        &vec![Some(reference(&shares[1][0], &FIPS_PT))]
    );
    // The cipher's rounds still check their own entries (message 11 is cipher round 1).
    let out = run(&preps, &shares, &[FIPS_PT], Some((1, 11, flip_first)));
    assert_eq!(out[0].0, Err(TinyTableError::AuthenticationFailed { party: 0, step: Step::SboxMacCheck }));
}

#[test]
fn material_of_the_other_key_kind_or_wrong_inputs_are_typed_errors() {
    let shared =
        dealer(7).malicious_aes_tables_shared_key(Direction::Encrypt, 1, Reveal::Both, 2).expect("dealer");
    let expanded = dealer(8).malicious_aes_tables(Direction::Encrypt, 0, Reveal::Both, 2).expect("dealer");
    let shares = split(&[FIPS_KEY; 2], 9);
    let outcomes = run_session(2, |mut net| {
        let (shared, expanded, shares) = (shared.clone(), expanded.clone(), shares.clone());
        async move {
            let p = net.party();
            let blocks = [FIPS_PT; 2];
            let a = encrypt_batch(&mut net, &shared[p], &blocks).await;
            let b = encrypt_batch_shared_key(&mut net, &expanded[p], &shares[p], &[]).await;
            // The plaintext owner without plaintexts, the key owner with some.
            let pts: &[Block] = if p == 1 { &[] } else { &blocks };
            let c = encrypt_batch_shared_key(&mut net, &shared[p], &shares[p], pts).await;
            let d = encrypt_batch_shared_key(&mut net, &shared[p], &shares[p][..1], &blocks[..1]).await;
            [a, b, c, d]
        }
    });
    for (party, results) in outcomes.iter().enumerate() {
        assert!(
            matches!(&results[0], Err(TinyTableError::PrepMismatch { reason, .. }) if reason.contains("XOR-shared"))
        );
        assert!(
            matches!(&results[1], Err(TinyTableError::PrepMismatch { reason, .. }) if reason.contains("expanded"))
        );
        assert!(
            matches!(&results[2], Err(TinyTableError::BadInput { party: p, reason, .. }) if *p == party && reason.contains("plaintext")),
            "{:?}",
            results[2]
        );
        assert!(matches!(&results[3], Err(TinyTableError::BadInput { .. })), "{:?}", results[3]);
    }
}

#[test]
fn constructed_shared_key_material_gives_fips197_both_ways() {
    // The §4 construction with the schedule's 40 tables, from the ideal authenticated bits.
    let (bits, triples) = per_block(true);
    assert_eq!(triples, 200 * TRIPLES_PER_TABLE);
    assert_eq!(bits, 3 * 128 + 10 * 32 + 10 * 128);
    let shares = split(&[FIPS_KEY], 11);
    for (direction, input, output) in
        [(Direction::Encrypt, FIPS_PT, FIPS_CT), (Direction::Decrypt, FIPS_CT, FIPS_PT)]
    {
        let sources = IdealAuthBits::pair(&mut ChaCha20Rng::seed_from_u64(12), bits, triples);
        let built = run_session(2, |mut net| {
            let mut source = sources[net.party()].clone();
            async move {
                let r = construct_malicious_aes_tables(
                    &mut net,
                    &mut source,
                    direction,
                    1,
                    true,
                    Reveal::Both,
                    1,
                    [3; 16],
                )
                .await;
                (r, net.stats())
            }
        });
        let mut preps = Vec::new();
        for (party, (r, stats)) in built.into_iter().enumerate() {
            let prep = r.unwrap_or_else(|e| panic!("party {party}: {e}"));
            assert_eq!(stats.rounds, 3, "the construction's rounds do not grow");
            // Cipher and schedule entries, each packed with its tag and with a stored verifier key.
            assert_eq!(prep.table_and_mac_bytes(), (160 * 256 + SCHEDULE_ENTRIES_PER_BLOCK) * 32);
            preps.push(prep);
        }
        let preps: [MaliciousAesPrep; 2] = preps.try_into().expect("two parties");
        for (r, _) in run(&preps, &shares, &[input], None) {
            assert_eq!(r.expect("honest run"), vec![Some(output)], "{direction:?}");
        }
        // Taken as a range and moved out whole, the material keeps its schedule.
        let mut front = preps.clone();
        for p in &mut front {
            let range = p.blocks_range(0, 1).expect("range");
            let all = p.take_all();
            assert!(p.blocks() == 0 && all.schedule == range.schedule);
            *p = range;
        }
        assert!(front.iter().zip(&preps).all(|(a, b)| a.schedule == b.schedule));
    }
}
