//! Tests specific to the malicious (3,3) LUT-256 (Protocol 7): verified decryption and AES-256
//! in both directions (so the driver's inverse linear layers recover the right outputs), errors
//! in inverse lookups, additive inputs and recovered shares, and out-of-order calls that would
//! leave S-boxes unverified. The generic suites and attacks are in `tests.rs`.

use super::tamper::Deviation;
use super::tests::{expected_ciphertext, random_blocks, FIPS_KEY, FIPS_PT};
use super::*;
use crate::aes::Block;
use crate::field::Gf256;
use crate::net::memory::run_session;
use crate::net::Network;
use crate::proto::maestro::aes::{decrypt_blocks, encrypt_blocks, expand_key, to_blocks};
use crate::proto::maestro::MixedShare;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

/// Malicious AES with the (3,3) LUT-256 layer (AES-128 or AES-256 by the key length): key
/// from party 0, blocks from party 1, encryption or decryption, verified opening. `corrupt`
/// applies `deviation`.
fn lut256_33_job(
    key: &[u8],
    blocks: &[Block],
    decrypt: bool,
    corrupt: usize,
    deviation: Option<Deviation>,
) -> Vec<Result<Vec<u8>, MaestroError>> {
    let input: Vec<Gf256> = blocks.iter().flatten().map(|&b| Gf256(b)).collect();
    let key: Vec<Gf256> = key.iter().map(|&b| Gf256(b)).collect();
    let (sub_words, rounds) = if key.len() == 16 { (10, 10) } else { (13, 14) };
    run_session(3, |mut net| {
        let me = net.party();
        let (key, input) = (key.clone(), input.clone());
        async move {
            let mut rng = ChaCha20Rng::seed_from_u64(77 + me as u64);
            let mut sbox = MaliciousAdditiveLut256Sbox::new(Party::setup(&mut net, &mut rng).await?);
            if me == corrupt {
                sbox.session().deviation = deviation;
            }
            sbox.preprocess(&mut net, 4 * sub_words + 16 * rounds * input.len() / 16).await?;
            let key_shares =
                sbox.session().input(&mut net, 0, (me == 0).then_some(&key[..]), key.len()).await?;
            let in_shares =
                sbox.session().input(&mut net, 1, (me == 1).then_some(&input[..]), input.len()).await?;
            let key_shares: Vec<MixedShare> = key_shares.into_iter().map(MixedShare::from).collect();
            let round_keys = expand_key(&mut sbox, &mut net, &key_shares).await?;
            let in_shares: Vec<MixedShare> = in_shares.into_iter().map(MixedShare::from).collect();
            let mut state = to_blocks(&in_shares).expect("whole blocks");
            if decrypt {
                decrypt_blocks(&mut sbox, &mut net, &round_keys, &mut state).await?;
            } else {
                encrypt_blocks(&mut sbox, &mut net, &round_keys, &mut state).await?;
            }
            let opened = sbox.session().open(&mut net, state.as_flattened()).await?;
            Ok(opened.iter().map(|b| b.0).collect())
        }
    })
}

/// Both honest parties abort with a typed error (and the run reveals nothing).
fn assert_aborts(runs: &[Result<Vec<u8>, MaestroError>], corrupt: usize, what: &str) {
    for (p, run) in runs.iter().enumerate().filter(|(p, _)| *p != corrupt) {
        assert!(
            matches!(run, Err(MaestroError::VerificationFailed | MaestroError::OpeningMismatch { .. })),
            "{what}: party {p} got {run:?}"
        );
    }
}

/// Decryption is verified like encryption: honest runs reveal the plaintext (so the recovery
/// through MixColumns ∘ ShiftRows, the inverse of decryption's linear layer, is right), and an
/// error in any inverse lookup, additive input or recovered output makes both honest parties
/// abort.
#[test]
fn malicious_lut256_33_decryption_is_verified() {
    let plaintext = random_blocks(3, 60);
    let ciphertext: Vec<Block> = expected_ciphertext(&FIPS_KEY, &plaintext)
        .chunks_exact(16)
        .map(|c| c.try_into().expect("16 bytes"))
        .collect();
    let expected: Vec<u8> = plaintext.iter().flatten().copied().collect();
    for run in lut256_33_job(&FIPS_KEY, &ciphertext, true, 0, None) {
        assert_eq!(run, Ok(expected.clone()));
    }
    // Call 10 is the first InvSubBytes layer (after the 10 key-schedule calls).
    for (corrupt, deviation) in [
        (1, Deviation::LookupOutput { call: 10, byte: 7, delta: 0x10 }),
        (2, Deviation::LookupOutput { call: 19, byte: 7, delta: 0x10 }),
        (0, Deviation::SboxInput { call: 13, byte: 40, delta: 0x02 }),
        (1, Deviation::Recovered { call: 16, byte: 5, delta: 0x80 }),
    ] {
        let runs = lut256_33_job(&FIPS_KEY, &ciphertext, true, corrupt, Some(deviation));
        assert_aborts(&runs, corrupt, &format!("{deviation:?}"));
    }
}

/// AES-256 (14 layers, 13 recoveries) in both directions, FIPS-197 Appendix C.3, passes the
/// verification; an additive-input error in its last layer aborts.
#[test]
fn malicious_lut256_33_aes256_is_verified_in_both_directions() {
    let key: Vec<u8> = (0..32).collect();
    let ciphertext: Block = hex::decode("8ea2b7ca516745bfeafc49904b496089").unwrap().try_into().unwrap();
    for (decrypt, input, expected) in [(false, FIPS_PT, ciphertext), (true, ciphertext, FIPS_PT)] {
        for run in lut256_33_job(&key, &[input, input], decrypt, 0, None) {
            assert_eq!(run, Ok([expected, expected].concat()), "decrypt: {decrypt}");
        }
        // Calls 13–26 are the cipher's layers after the 13 SubWords.
        let deviation = Deviation::SboxInput { call: 26, byte: 17, delta: 0x01 };
        assert_aborts(&lut256_33_job(&key, &[input, input], decrypt, 2, Some(deviation)), 2, "AES-256");
    }
}

/// Out-of-order calls cannot skip verification: an output never reshared nor recovered makes
/// the verified opening fail before any communication, and a second call on additive input
/// before the recovery fails before sending.
#[test]
fn malicious_lut256_33_unrecorded_outputs_are_a_typed_error() {
    let results = run_session(3, |mut net| async move {
        let mut rng = ChaCha20Rng::seed_from_u64(90 + net.party() as u64);
        let mut sbox = MaliciousAdditiveLut256Sbox::new(Party::setup(&mut net, &mut rng).await.unwrap());
        sbox.preprocess(&mut net, 48).await.unwrap();
        let mut bytes: Vec<MixedShare> =
            sbox.session().party().prss_mut().random(16).into_iter().map(MixedShare::from).collect();
        sbox.sub_bytes(&mut net, &mut bytes).await.unwrap();
        let before = net.stats();
        let verify = sbox.session().verify(&mut net).await;
        let open = sbox.session().open(&mut net, &bytes).await.map(|_| ());
        let open_sent = net.stats().since(&before).bytes_sent;
        // Chained without recovery: the second additive call must be refused.
        sbox.sub_bytes(&mut net, &mut bytes).await.unwrap();
        let before = net.stats();
        let third = sbox.sub_bytes(&mut net, &mut bytes).await;
        ((verify, open), open_sent, third, net.stats().since(&before).bytes_sent, sbox.available())
    });
    for r in results {
        let not_replicated = Err(MaestroError::NotReplicated { index: 0 });
        assert_eq!(r.0, (Err(MaestroError::UnverifiedSboxes { count: 16 }), not_replicated));
        assert_eq!(r.1, 0);
        assert_eq!(r.2, Err(MaestroError::UnverifiedSboxes { count: 32 }));
        assert_eq!((r.3, r.4), (0, 16));
    }
}
