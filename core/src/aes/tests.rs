//! FIPS-197 vectors and cross-checks against the RustCrypto `aes` crate.

use super::linear::{self, AesByte};
use super::sbox::{inv_sbox_table, sbox_table};
use super::*;
use crate::field::Gf256;
use aes::cipher::{BlockDecrypt, BlockEncrypt, KeyInit};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;

fn h(s: &str) -> Vec<u8> {
    hex::decode(s).expect("valid hex in test vector")
}

fn block(s: &str) -> Block {
    h(s).try_into().expect("16-byte test block")
}

/// FIPS-197 Appendix B and Appendix C.1–C.3: (key, plaintext, ciphertext).
const FIPS197_VECTORS: [(&str, &str, &str); 4] = [
    (
        "2b7e151628aed2a6abf7158809cf4f3c",
        "3243f6a8885a308d313198a2e0370734",
        "3925841d02dc09fbdc118597196a0b32",
    ),
    (
        "000102030405060708090a0b0c0d0e0f",
        "00112233445566778899aabbccddeeff",
        "69c4e0d86a7b0430d8cdb78070b4c55a",
    ),
    (
        "000102030405060708090a0b0c0d0e0f1011121314151617",
        "00112233445566778899aabbccddeeff",
        "dda97ca4864cdfe06eaf70a0ec0d7191",
    ),
    (
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        "00112233445566778899aabbccddeeff",
        "8ea2b7ca516745bfeafc49904b496089",
    ),
];

#[test]
fn fips197_encrypt_and_decrypt() {
    for (key, pt, ct) in FIPS197_VECTORS {
        let aes = Aes::new(&h(key)).expect("valid key length");
        assert_eq!(aes.encrypt_block(&block(pt)), block(ct), "encrypt under key {key}");
        assert_eq!(aes.decrypt_block(&block(ct)), block(pt), "decrypt under key {key}");
    }
}

#[test]
fn fips197_appendix_a1_key_expansion() {
    let aes = Aes::new(&h("2b7e151628aed2a6abf7158809cf4f3c")).expect("valid key");
    let rk = aes.round_keys.round(1).map(|b| b.0);
    assert_eq!(rk.to_vec(), h("a0fafe1788542cb123a339392a6c7605"), "w[4..8]");
    let rk = aes.round_keys.round(10).map(|b| b.0);
    assert_eq!(rk.to_vec(), h("d014f9a8c9ee2589e13f0cc8b6630ca6"), "w[40..44]");
}

#[test]
fn sbox_known_values_and_inverse() {
    let s = sbox_table();
    let inv = inv_sbox_table();
    // FIPS-197 Figure 7 entries.
    assert_eq!(s[0x00], 0x63);
    assert_eq!(s[0x53], 0xed);
    assert_eq!(s[0xff], 0x16);
    // FIPS-197 Figure 14 entries.
    assert_eq!(inv[0x00], 0x52);
    assert_eq!(inv[0xff], 0x7d);
    for x in 0..=255u8 {
        assert_eq!(inv[s[x as usize] as usize], x, "InvSubBytes(SubBytes({x:#04x}))");
    }
    let mut seen = [false; 256];
    for &y in &s {
        seen[y as usize] = true;
    }
    assert!(seen.iter().all(|&b| b), "S-box is a permutation");
}

#[test]
fn sub_word_counts() {
    assert_eq!(KeySize::Aes128.sub_word_count(), 10);
    assert_eq!(KeySize::Aes192.sub_word_count(), 8);
    assert_eq!(KeySize::Aes256.sub_word_count(), 13);
    for ks in [KeySize::Aes128, KeySize::Aes192, KeySize::Aes256] {
        let key = vec![Gf256(0); ks.key_bytes()];
        let mut calls = 0;
        let _ = expand_key(ks, &key, |_| calls += 1);
        assert_eq!(calls, ks.sub_word_count(), "{ks:?}");
    }
}

#[test]
fn mul_public_matches_field_mul() {
    for c in 0..=255u8 {
        for x in 0..=255u8 {
            assert_eq!(Gf256(x).mul_public(c), Gf256(x) * Gf256(c), "{x:#04x}·{c:#04x}");
        }
    }
}

#[test]
fn linear_layer_inverses() {
    let mut rng = ChaCha20Rng::seed_from_u64(197);
    for _ in 0..100 {
        let original: [Gf256; 16] = core::array::from_fn(|_| Gf256(rng.gen()));
        let mut s = original;
        linear::shift_rows(&mut s);
        linear::mix_columns(&mut s);
        linear::inv_mix_columns(&mut s);
        linear::inv_shift_rows(&mut s);
        assert_eq!(s, original);
    }
}

#[test]
fn bad_key_length_is_an_error() {
    for len in [0usize, 1, 15, 17, 23, 31, 33, 64] {
        assert_eq!(Aes::new(&vec![0u8; len]).unwrap_err(), AesError::BadKeyLength(len));
    }
}

fn check_against_rustcrypto<C>(key_len: usize, rng: &mut ChaCha20Rng)
where
    C: KeyInit
        + BlockEncrypt
        + BlockDecrypt
        + aes::cipher::BlockSizeUser<BlockSize = aes::cipher::consts::U16>,
{
    let mut key = vec![0u8; key_len];
    rng.fill(key.as_mut_slice());
    let ours = Aes::new(&key).expect("valid key length");
    let theirs = C::new_from_slice(&key).expect("valid key length");
    for _ in 0..16 {
        let pt: Block = rng.gen();
        let mut expected = aes::Block::from(pt);
        theirs.encrypt_block(&mut expected);
        let ct = ours.encrypt_block(&pt);
        assert_eq!(ct.as_slice(), expected.as_slice(), "encrypt, key {}", hex::encode(&key));
        let mut back = expected;
        theirs.decrypt_block(&mut back);
        assert_eq!(ours.decrypt_block(&ct).as_slice(), back.as_slice());
    }
}

#[test]
fn random_keys_match_rustcrypto_aes() {
    let mut rng = ChaCha20Rng::seed_from_u64(0xae5);
    for _ in 0..8 {
        check_against_rustcrypto::<aes::Aes128>(16, &mut rng);
        check_against_rustcrypto::<aes::Aes192>(24, &mut rng);
        check_against_rustcrypto::<aes::Aes256>(32, &mut rng);
    }
}

#[test]
fn batch_api_matches_single_blocks() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let aes = Aes::new(&rng.gen::<[u8; 16]>()).expect("valid key");
    let blocks: Vec<Block> = (0..7).map(|_| rng.gen()).collect();
    let mut batch = blocks.clone();
    aes.encrypt_blocks(&mut batch);
    for (b, c) in blocks.iter().zip(&batch) {
        assert_eq!(aes.encrypt_block(b), *c);
    }
    aes.decrypt_blocks(&mut batch);
    assert_eq!(batch, blocks);
}

#[test]
fn debug_output_hides_key() {
    let aes = Aes::new(&h("2b7e151628aed2a6abf7158809cf4f3c")).expect("valid key");
    let shown = format!("{aes:?}");
    assert!(!shown.contains("2b") && shown.contains("Aes128"), "{shown}");
}
