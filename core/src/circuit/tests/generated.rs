//! The Boyar–Peralta S-box and the generated AES-128 circuit.

use super::support::{
    aes_bitsliced, aes_bool, generated_aes128, hex16, random_pairs, reference_sbox, rustcrypto_aes,
    shared_circuit,
};
use crate::circuit::sbox_bp::sbox;
use crate::circuit::{Circuit, CircuitBuilder};

fn sbox_circuit() -> Circuit {
    let mut b = CircuitBuilder::new();
    let input = b.input(8);
    let output = sbox(&mut b, input.clone().try_into().unwrap());
    b.finish(&[output.to_vec()]).unwrap()
}

#[test]
fn reference_sbox_helper_matches_fips197_table_entries() {
    // FIPS-197 Figure 7 entries, so the exhaustive check below compares against the right table.
    for (x, s) in [(0x00, 0x63), (0x01, 0x7c), (0x53, 0xed), (0xff, 0x16), (0x10, 0xca), (0xc9, 0xdd)] {
        assert_eq!(reference_sbox(x), s, "S({x:#04x})");
    }
}

#[test]
fn sbox_matches_fips197_on_all_256_inputs() {
    let circuit = sbox_circuit();
    for x in 0..=255u8 {
        let bits: Vec<bool> = (0..8).map(|i| x >> i & 1 == 1).collect();
        let out = circuit.evaluate(&[bits]).unwrap();
        let s = out[0].iter().enumerate().fold(0u8, |acc, (i, &bit)| acc | u8::from(bit) << i);
        assert_eq!(s, reference_sbox(x), "S({x:#04x})");
    }
}

#[test]
fn sbox_gate_counts_and_depth() {
    let circuit = sbox_circuit();
    let counts = circuit.gate_counts();
    assert_eq!((counts.and, counts.xor, counts.inv, counts.copy, counts.constant), (32, 83, 4, 0, 0));
    assert_eq!(circuit.and_depth(), 6);
}

#[test]
fn generated_aes128_matches_fips197() {
    let circuit = generated_aes128();
    let fips = crate::aes::fips197::CIPHERTEXT;
    let ciphertext = aes_bool(circuit, &crate::aes::fips197::KEY, &crate::aes::fips197::PLAINTEXT);
    assert_eq!(ciphertext, fips);
    let key = hex::decode("2b7e151628aed2a6abf7158809cf4f3c").unwrap();
    let ciphertext = aes_bool(circuit, &key, &hex16("3243f6a8885a308d313198a2e0370734"));
    assert_eq!(hex::encode(ciphertext), "3925841d02dc09fbdc118597196a0b32");
}

#[test]
fn generated_aes128_bristol_round_trip_equals_reference_and_rustcrypto() {
    let generated = generated_aes128();
    let reparsed = Circuit::parse_bristol(&generated.to_bristol()).unwrap();
    assert_eq!(&reparsed, generated);
    let reference = shared_circuit("aes_128.txt");
    assert_eq!(reparsed.input_widths(), reference.input_widths());
    assert_eq!(reparsed.output_widths(), reference.output_widths());
    let pairs = random_pairs(4, 16, 64);
    let ours = aes_bitsliced(&reparsed, &pairs);
    assert_eq!(ours, aes_bitsliced(reference, &pairs));
    for ((key, plaintext), ciphertext) in pairs.iter().zip(&ours) {
        assert_eq!(*ciphertext, rustcrypto_aes(key, plaintext));
    }
}

#[test]
fn generated_aes128_statistics() {
    let circuit = generated_aes128();
    let counts = circuit.gate_counts();
    // 200 S-boxes (160 in the rounds, 40 in the key schedule) of 32 AND gates each.
    assert_eq!(counts.and, 200 * 32);
    assert_eq!(counts.and, shared_circuit("aes_128.txt").gate_counts().and);
    // Rcon adds INV gates to the 4 XNORs of each S-box; no copies or constants are needed.
    let rcon_bits: usize = [0x01u8, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36]
        .iter()
        .map(|c| c.count_ones() as usize)
        .sum();
    assert_eq!(counts.inv, 200 * 4 + rcon_bits);
    assert_eq!((counts.copy, counts.constant), (0, 0));
    assert_eq!(circuit.and_depth(), 60);
    assert_eq!((counts.xor, circuit.num_wires()), (24040, 31512));
    // Per round, the 16 state S-boxes and the 4 key S-boxes of the next round key share six AND
    // layers; the reference circuit has exactly the same layer profile.
    let profile: Vec<usize> = circuit.and_layers().map(<[_]>::len).collect();
    let round = [180, 20, 40, 140, 100, 160];
    assert_eq!(profile, round.repeat(10));
    let reference: Vec<usize> = shared_circuit("aes_128.txt").and_layers().map(<[_]>::len).collect();
    assert_eq!(profile, reference);
}
