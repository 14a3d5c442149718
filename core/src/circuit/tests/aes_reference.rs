//! The shared Bristol Fashion AES circuits against FIPS-197 and RustCrypto, which also pins down the
//! bit ordering documented in `aes_bristol`.

use super::support::{aes_bitsliced, aes_bool, hex16, random_pairs, rustcrypto_aes, shared_circuit};
use crate::circuit::aes_bristol::{input_bits, output_bytes, value_bits, value_bytes};

use crate::aes::fips197;

#[test]
fn aes128_reference_matches_fips197_appendix_c1() {
    let circuit = shared_circuit("aes_128.txt");
    let ciphertext = aes_bool(circuit, &fips197::KEY, &fips197::PLAINTEXT);
    assert_eq!(ciphertext, fips197::CIPHERTEXT);
}

#[test]
fn aes128_reference_matches_fips197_appendix_b() {
    let circuit = shared_circuit("aes_128.txt");
    let key = hex::decode("2b7e151628aed2a6abf7158809cf4f3c").unwrap();
    let ciphertext = aes_bool(circuit, &key, &hex16("3243f6a8885a308d313198a2e0370734"));
    assert_eq!(hex::encode(ciphertext), "3925841d02dc09fbdc118597196a0b32");
}

#[test]
fn aes256_reference_matches_fips197_appendix_c3() {
    let circuit = shared_circuit("aes_256.txt");
    let key = hex::decode("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f").unwrap();
    let ciphertext = aes_bool(circuit, &key, &fips197::PLAINTEXT);
    assert_eq!(hex::encode(ciphertext), "8ea2b7ca516745bfeafc49904b496089");
}

#[test]
fn reference_circuits_equal_rustcrypto_on_random_inputs() {
    for (name, key_len, seed) in [("aes_128.txt", 16, 1), ("aes_256.txt", 32, 2)] {
        let circuit = shared_circuit(name);
        let pairs = random_pairs(seed, key_len, 64);
        let ciphertexts = aes_bitsliced(circuit, &pairs);
        for ((key, plaintext), ciphertext) in pairs.iter().zip(&ciphertexts) {
            assert_eq!(*ciphertext, rustcrypto_aes(key, plaintext), "{name}, key {}", hex::encode(key));
        }
    }
}

#[test]
fn bool_and_bitsliced_evaluation_agree() {
    let circuit = shared_circuit("aes_128.txt");
    let pairs = random_pairs(3, 16, 64);
    let sliced = aes_bitsliced(circuit, &pairs);
    // Every lane is compared with a bool evaluation, on a few lanes spread over the word.
    for lane in [0, 1, 17, 38, 63] {
        let (key, plaintext) = &pairs[lane];
        assert_eq!(sliced[lane], aes_bool(circuit, key, plaintext), "lane {lane}");
    }
}

#[test]
fn the_naive_msb_first_byte_order_is_wrong() {
    // Documents the pitfall: feeding bytes in order, most significant bit first, gives garbage.
    let circuit = shared_circuit("aes_128.txt");
    let msb_first = |bytes: &[u8]| -> Vec<bool> {
        bytes.iter().flat_map(|&b| (0..8).rev().map(move |i| b >> i & 1 == 1)).collect()
    };
    let outputs = circuit.evaluate(&[msb_first(&fips197::KEY), msb_first(&fips197::PLAINTEXT)]).unwrap();
    assert_ne!(output_bytes(&outputs[0]).unwrap(), fips197::CIPHERTEXT);
}

#[test]
fn bit_order_helpers_follow_the_documented_layout() {
    let bytes = [0x80u8, 0x00, 0x01];
    let bits = value_bits(&bytes);
    // Wire 0 is the low bit of the last byte, the last wire the high bit of the first byte.
    assert!(bits[0]);
    assert!(bits[23]);
    assert_eq!(bits.iter().filter(|&&b| b).count(), 2);
    assert_eq!(value_bytes(&bits).unwrap(), bytes);
    assert_eq!(value_bytes(&bits[..7]), None);
    assert_eq!(output_bytes(&bits), None);
    let [key, block] = input_bits(&[7; 32], &[9; 16]);
    assert_eq!((key.len(), block.len()), (256, 128));
}

#[test]
fn reference_circuit_statistics() {
    let aes128 = shared_circuit("aes_128.txt");
    let counts = aes128.gate_counts();
    assert_eq!((counts.and, counts.xor, counts.inv), (6400, 28176, 2087));
    assert_eq!(
        (aes128.num_wires(), aes128.input_widths(), aes128.output_widths()),
        (36919, &[128, 128][..], &[128][..])
    );
    let aes256 = shared_circuit("aes_256.txt");
    assert_eq!(aes256.gate_counts().and, 8832);
    // Layers partition the AND gates.
    assert_eq!(aes128.and_layers().map(<[_]>::len).sum::<usize>(), 6400);
    assert_eq!(aes128.and_layers().count(), aes128.and_depth());
    assert!(aes128.and_depth() > 0);
}
