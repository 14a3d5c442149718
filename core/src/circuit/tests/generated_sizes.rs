//! The generated AES circuits of every key size, both directions: FIPS-197 Appendix C, the plain
//! AES of [`crate::aes`] on random keys and blocks, the inverse S-box on all 256 inputs, and the
//! AND-gate counts (32 per S-box).

use super::support::{aes_bitsliced, hex16, random_pairs, reference_sbox};
use crate::aes::{Aes, KeySize};
use crate::circuit::aes_gen::{aes_circuit, inv_sbox};
use crate::circuit::{Circuit, CircuitBuilder};

const SIZES: [KeySize; 3] = [KeySize::Aes128, KeySize::Aes192, KeySize::Aes256];

/// FIPS-197 Appendix C: the key `00 01 … ` of each size encrypts `00 11 … ff` to these.
fn appendix_c(key_size: KeySize) -> [u8; 16] {
    hex16(match key_size {
        KeySize::Aes128 => "69c4e0d86a7b0430d8cdb78070b4c55a",
        KeySize::Aes192 => "dda97ca4864cdfe06eaf70a0ec0d7191",
        KeySize::Aes256 => "8ea2b7ca516745bfeafc49904b496089",
    })
}

#[test]
fn inverse_sbox_inverts_the_sbox_on_all_256_inputs() {
    let mut b = CircuitBuilder::new();
    let input = b.input(8);
    let output = inv_sbox(&mut b, input.clone().try_into().unwrap());
    let circuit = b.finish(&[output.to_vec()]).unwrap();
    assert_eq!(circuit.gate_counts().and, 32);
    for x in 0..=255u8 {
        let bits: Vec<bool> = (0..8).map(|i| reference_sbox(x) >> i & 1 == 1).collect();
        let out = circuit.evaluate(&[bits]).unwrap();
        let y = out[0].iter().enumerate().fold(0u8, |acc, (i, &bit)| acc | u8::from(bit) << i);
        assert_eq!(y, x, "S⁻¹(S({x:#04x}))");
    }
}

#[test]
fn every_key_size_encrypts_and_decrypts_fips197_appendix_c() {
    let plaintext = hex16("00112233445566778899aabbccddeeff");
    for key_size in SIZES {
        let key: Vec<u8> = (0..key_size.key_bytes() as u8).collect();
        let ciphertext = appendix_c(key_size);
        let encrypt = aes_circuit(key_size, false).unwrap();
        let decrypt = aes_circuit(key_size, true).unwrap();
        assert_eq!(aes_bitsliced(&encrypt, &[(key.clone(), plaintext)]), vec![ciphertext], "{key_size:?}");
        assert_eq!(aes_bitsliced(&decrypt, &[(key, ciphertext)]), vec![plaintext], "{key_size:?} decryption");
    }
}

#[test]
fn every_key_size_matches_plain_aes_both_ways_on_random_blocks() {
    for (seed, key_size) in SIZES.into_iter().enumerate() {
        let pairs = random_pairs(40 + seed as u64, key_size.key_bytes(), 64);
        let (encrypt, decrypt) =
            (aes_circuit(key_size, false).unwrap(), aes_circuit(key_size, true).unwrap());
        let expected = |decrypting: bool| -> Vec<[u8; 16]> {
            pairs
                .iter()
                .map(|(key, block)| {
                    let aes = Aes::new(key).unwrap();
                    if decrypting {
                        aes.decrypt_block(block)
                    } else {
                        aes.encrypt_block(block)
                    }
                })
                .collect()
        };
        assert_eq!(aes_bitsliced(&encrypt, &pairs), expected(false), "{key_size:?}");
        assert_eq!(aes_bitsliced(&decrypt, &pairs), expected(true), "{key_size:?} decryption");
    }
}

#[test]
fn and_gates_are_32_per_sbox_of_the_rounds_and_the_key_schedule() {
    for key_size in SIZES {
        let sboxes = 16 * key_size.rounds() + 4 * key_size.sub_word_count();
        for decrypt in [false, true] {
            let circuit: Circuit = aes_circuit(key_size, decrypt).unwrap();
            assert_eq!(circuit.gate_counts().and, 32 * sboxes, "{key_size:?}, decrypt {decrypt}");
            assert_eq!(circuit.input_widths(), &[8 * key_size.key_bytes() as u32, 128]);
            assert_eq!(circuit.output_widths(), &[128]);
        }
    }
}
