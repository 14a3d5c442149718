//! Shared test helpers: the reference circuits and an independent AES S-box.

use crate::circuit::Circuit;
use std::sync::OnceLock;

/// Reads a shared reference circuit; panics with a clear message if the file is missing, so a
/// missing file fails the tests instead of skipping them.
pub fn shared_circuit_text(name: &str) -> String {
    let path = format!("{}/../circuits/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("reference circuit {path} is required by these tests but cannot be read: {e}")
    })
}

/// A shared reference circuit, parsed once per test process (parsing is slow in debug builds).
pub fn shared_circuit(name: &str) -> &'static Circuit {
    static AES_128: OnceLock<Circuit> = OnceLock::new();
    static AES_256: OnceLock<Circuit> = OnceLock::new();
    let cell = match name {
        "aes_128.txt" => &AES_128,
        "aes_256.txt" => &AES_256,
        other => panic!("no cached reference circuit {other}"),
    };
    cell.get_or_init(|| Circuit::parse_bristol(&shared_circuit_text(name)).expect("reference circuit parses"))
}

/// The generated AES-128 circuit, built once per test process.
pub fn generated_aes128() -> &'static Circuit {
    static GENERATED: OnceLock<Circuit> = OnceLock::new();
    GENERATED.get_or_init(|| crate::circuit::aes_gen::aes128_circuit().expect("generated AES-128 circuit"))
}

fn gf256_mul(mut a: u8, mut b: u8) -> u8 {
    let mut product = 0;
    while b != 0 {
        if b & 1 == 1 {
            product ^= a;
        }
        a = (a << 1) ^ if a & 0x80 != 0 { 0x1b } else { 0 };
        b >>= 1;
    }
    product
}

/// The AES S-box from its definition (FIPS-197 §5.1.1): inversion in GF(2^8), then the affine map.
pub fn reference_sbox(x: u8) -> u8 {
    let inverse = (1..=255u8).find(|&y| gf256_mul(x, y) == 1).unwrap_or(0);
    let mut s = inverse;
    for shift in 1..5 {
        s ^= inverse.rotate_left(shift);
    }
    s ^ 0x63
}

/// AES encryption by the RustCrypto `aes` crate (128- or 256-bit key).
pub fn rustcrypto_aes(key: &[u8], plaintext: &[u8; 16]) -> [u8; 16] {
    use aes::cipher::{generic_array::GenericArray, BlockEncrypt, KeyInit};
    let mut block = GenericArray::clone_from_slice(plaintext);
    match key.len() {
        16 => aes::Aes128::new_from_slice(key).expect("16-byte key").encrypt_block(&mut block),
        32 => aes::Aes256::new_from_slice(key).expect("32-byte key").encrypt_block(&mut block),
        n => panic!("unsupported AES key length {n}"),
    }
    block.into()
}

/// Encrypts up to 64 (key, plaintext) pairs at once with a Bristol AES circuit, bit-sliced.
pub fn aes_bitsliced(circuit: &Circuit, pairs: &[(Vec<u8>, [u8; 16])]) -> Vec<[u8; 16]> {
    use crate::circuit::aes_bristol::{output_bytes, value_bits};
    use crate::circuit::{pack_lanes, unpack_lanes};
    let keys: Vec<Vec<bool>> = pairs.iter().map(|(k, _)| value_bits(k)).collect();
    let blocks: Vec<Vec<bool>> = pairs.iter().map(|(_, p)| value_bits(p)).collect();
    let inputs = [pack_lanes(&keys).expect("<= 64 lanes"), pack_lanes(&blocks).expect("<= 64 lanes")];
    let outputs = circuit.evaluate_bitsliced(&inputs).expect("AES circuit input widths");
    unpack_lanes(&outputs[0], pairs.len())
        .iter()
        .map(|bits| output_bytes(bits).expect("128 output bits"))
        .collect()
}

/// Encrypts one block with a Bristol AES circuit, bit by bit.
pub fn aes_bool(circuit: &Circuit, key: &[u8], plaintext: &[u8; 16]) -> [u8; 16] {
    use crate::circuit::aes_bristol::{input_bits, output_bytes};
    let outputs = circuit.evaluate(&input_bits(key, plaintext)).expect("AES circuit input widths");
    output_bytes(&outputs[0]).expect("128 output bits")
}

/// `count` random (key, plaintext) pairs from a seeded generator.
pub fn random_pairs(seed: u64, key_len: usize, count: usize) -> Vec<(Vec<u8>, [u8; 16])> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let key: Vec<u8> = (0..key_len).map(|_| rng.gen()).collect();
            (key, rng.gen())
        })
        .collect()
}

pub fn hex16(text: &str) -> [u8; 16] {
    hex::decode(text).expect("hex").try_into().expect("16 bytes")
}
