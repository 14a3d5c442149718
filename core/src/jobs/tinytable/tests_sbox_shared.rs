//! The S-box-table AES path with an XOR-shared key (`key_holders: [0, 1]`): the key schedule on
//! 40 more tables per block ([`crate::proto::tinytable::sbox::schedule`]). FIPS-197 in both
//! directions with every source of tables — the §4 construction over OT and the dealer, at both
//! security levels — at the same online cost, and tables for a shared key prepared ahead and
//! consumed by later jobs.

use super::aes::{self, AesPath, TinyTableAesInput, TinyTableAesSpec};
use super::tests::{aes_spec, connect, FIPS_CT, FIPS_KEY, FIPS_PT};
use super::tests_malicious::run as dealer_run;
use super::tests_ot::run_two;
use super::*;
use crate::aes::Direction;
use crate::jobs::prepared::{Prepared, PreparedUse};
use crate::net::memory::run_session;
use crate::rng::seeded_rng;

/// Party 0's key share (party 1's is the rest of FIPS-197's key).
const SHARE_0: [u8; 16] = [0x5a; 16];

fn shared_spec(
    preprocessing: Preprocessing,
    security: Security,
    direction: Direction,
    blocks: usize,
) -> TinyTableAesSpec {
    TinyTableAesSpec {
        path: AesPath::SboxTables,
        preprocessing,
        security,
        mac_bits: MacBits::K64,
        direction,
        ..aes_spec(blocks, vec![0, 1], 1, vec![0, 1])
    }
}

/// Both key shares, and `input` (repeated `blocks` times) at party 1.
fn inputs(input: &[u8; 16], blocks: usize) -> [TinyTableAesInput; 2] {
    let share_1: Vec<u8> = FIPS_KEY.iter().zip(SHARE_0).map(|(k, s)| k ^ s).collect();
    [
        TinyTableAesInput { key_share: Some(SHARE_0.to_vec()), plaintext: None },
        TinyTableAesInput { key_share: Some(share_1), plaintext: Some(input.repeat(blocks)) },
    ]
}

#[test]
fn fips197_both_ways_from_key_shares_with_every_source_of_tables() {
    for direction in [Direction::Encrypt, Direction::Decrypt] {
        let (input, output) = match direction {
            Direction::Encrypt => (FIPS_PT, FIPS_CT),
            Direction::Decrypt => (FIPS_CT, FIPS_PT),
        };
        for security in [Security::SemiHonest, Security::Malicious] {
            let ot = shared_spec(Preprocessing::Ot, security, direction, 1);
            assert_eq!(ot.validate(), Ok(()));
            let [a, b] = inputs(&input, 1);
            let from_ot = run_two(&ot, [a.clone(), b.clone()], None);
            let dealt = dealer_run(
                &shared_spec(Preprocessing::Dealer, security, direction, 1),
                [a, b, TinyTableAesInput::default()],
                None,
            );
            for (p, (out, dealt)) in from_ot.iter().zip(&dealt).enumerate() {
                let what = format!("{direction:?} {security:?} party {p}");
                let out = out.as_ref().unwrap_or_else(|e| panic!("{what}: {e}"));
                let dealt = dealt.as_ref().unwrap_or_else(|e| panic!("dealer {what}: {e}"));
                assert_eq!(out.ciphertext.as_deref(), Some(&output[..]), "{what}");
                assert_eq!(dealt.ciphertext.as_deref(), Some(&output[..]), "dealer {what}");
                // Input, 10 key-schedule rounds, 10 cipher rounds, output opening; the input is the
                // masked key share (and the masked plaintext at party 1), the schedule 4 bytes a
                // round and one hash.
                assert_eq!(out.online_stats.rounds, 22, "{what}");
                let input_bytes = if p == 1 { 32 } else { 16 };
                let bytes = input_bytes + (10 * 4 + 16) + (10 * 16 + 16) + (16 + 16);
                assert_eq!(out.online_stats.bytes_sent, bytes, "{what}");
                assert_eq!(dealt.online_stats.bytes_sent, bytes, "dealer {what}");
            }
        }
    }
    // A shared key is part of what the members agree on.
    let one = TinyTableAesSpec {
        key_holders: vec![0],
        ..shared_spec(Preprocessing::Ot, Security::Malicious, Direction::Encrypt, 1)
    };
    assert_ne!(
        one.encode(),
        shared_spec(Preprocessing::Ot, Security::Malicious, Direction::Encrypt, 1).encode()
    );
}

#[test]
fn tables_for_a_shared_key_are_prepared_and_consumed_by_later_jobs() {
    let spec = |blocks| shared_spec(Preprocessing::Ot, Security::Malicious, Direction::Encrypt, blocks);
    let outs = run_session(2, |inner| {
        let me = inner.party();
        async move {
            let mut net = connect(inner).await?;
            let mut rng = seeded_rng(700 + me as u64);
            let mut store = Prepared::default();
            let made = aes::prepare(&mut net, &spec(2), &mut rng, &mut store).await?;
            let input = |blocks| inputs(&FIPS_PT, blocks)[me].clone();
            let first =
                aes::run_prepared(&mut net, &spec(1), input(1), &mut rng, &mut store, PreparedUse::Require)
                    .await?;
            // The remaining block is for a shared key: a one-holder job does not take it.
            let one = TinyTableAesSpec { key_holders: vec![0], ..spec(1) };
            let other_kind = aes::uses_prepared(&one, &store, PreparedUse::Require);
            let second =
                aes::run_prepared(&mut net, &spec(1), input(1), &mut rng, &mut store, PreparedUse::Require)
                    .await?;
            Ok::<_, JobError>((made, first, other_kind, second, store.consumed()))
        }
    });
    for (p, out) in outs.into_iter().enumerate() {
        let (made, first, other_kind, second, consumed) = out.unwrap_or_else(|e| panic!("party {p}: {e}"));
        assert_eq!((made.instances, made.available), (2, 2), "party {p}");
        for job in [&first, &second] {
            assert_eq!(job.ciphertext.as_deref(), Some(&FIPS_CT[..]), "party {p}");
            // Only the spec digest besides the online phase.
            assert_eq!(job.stats.bytes_sent, job.online_stats.bytes_sent + 32, "party {p}");
        }
        assert!(
            matches!(other_kind, Err(JobError::InvalidSpec { field: "usePrepared", .. })),
            "party {p}: {other_kind:?}"
        );
        assert_eq!(consumed, 2, "party {p}");
    }
}
