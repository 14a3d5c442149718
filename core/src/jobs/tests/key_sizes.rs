//! AES-192, AES-256 and decryption on the two-party protocols, which run them as the generated AES
//! circuit of the spec's key size and direction ([`crate::jobs::keyed_aes`]): TinyTable's circuit
//! path, MiniMac and Coral, with the key XOR-shared by parties 0 and 1, against the plain cipher.
//! TinyTable's S-box-table path names what it does not run.

use super::*;
use crate::aes::Aes;

/// `blocks` random blocks under a random key of `key_size`, the key XOR-shared by parties 0 and 1
/// and the blocks at party 1; and what the plain cipher gives in `direction`.
fn inputs(key_size: KeySize, direction: Direction, blocks: usize, seed: u64) -> (Vec<AesInput>, Vec<u8>) {
    let mut rng = seeded_rng(seed);
    let mut bytes = |n: usize| {
        let mut v = vec![0u8; n];
        rng.fill_bytes(&mut v);
        v
    };
    let (key, mask, data) = (bytes(key_size.key_bytes()), bytes(key_size.key_bytes()), bytes(16 * blocks));
    let aes = Aes::new(&key).unwrap();
    let mut expected: Vec<[u8; 16]> = data.chunks_exact(16).map(|c| c.try_into().unwrap()).collect();
    match direction {
        Direction::Encrypt => aes.encrypt_blocks(&mut expected),
        Direction::Decrypt => aes.decrypt_blocks(&mut expected),
    }
    let share1: Vec<u8> = key.iter().zip(&mask).map(|(k, m)| k ^ m).collect();
    let inputs = vec![
        AesInput { key_share: Some(mask), plaintext: None },
        AesInput { key_share: Some(share1), plaintext: Some(data) },
        AesInput::default(),
    ];
    (inputs, expected.concat())
}

fn check(protocol: AesProtocol, key_size: KeySize, direction: Direction, seed: u64) {
    let blocks = 2;
    let s = AesSpec { key_size, direction, blocks, ..spec(protocol, vec![0, 1], 1, vec![0, 1]) };
    let (mut inputs, expected) = inputs(key_size, direction, blocks, seed);
    inputs.truncate(protocol.members());
    for (p, out) in run_all(&s, inputs, honest).into_iter().enumerate().take(2) {
        let out =
            out.unwrap_or_else(|e| panic!("{} {key_size:?} {direction:?}, party {p}: {e}", protocol.name()));
        assert_eq!(
            out.ciphertext.expect("revealed"),
            expected,
            "{} {key_size:?} {direction:?}",
            protocol.name()
        );
    }
}

#[test]
fn circuit_protocols_run_every_key_size_in_both_directions() {
    let protocols = [
        AesProtocol::TinyTable {
            path: AesPath::BinaryCircuit,
            preprocessing: Preprocessing::Dealer,
            security: Security::SemiHonest,
            mac_bits: MacBits::K64,
        },
        MINIMAC,
        AesProtocol::Coral { preprocessing: Preprocessing::Dealer },
    ];
    let mut seed = 900;
    for protocol in protocols {
        for (key_size, direction) in [
            (KeySize::Aes128, Direction::Decrypt),
            (KeySize::Aes192, Direction::Encrypt),
            (KeySize::Aes192, Direction::Decrypt),
            (KeySize::Aes256, Direction::Encrypt),
            (KeySize::Aes256, Direction::Decrypt),
        ] {
            seed += 1;
            check(protocol, key_size, direction, seed);
        }
    }
}

#[test]
fn malicious_tinytable_over_ot_decrypts_with_a_256_bit_key() {
    let protocol = AesProtocol::TinyTable {
        path: AesPath::BinaryCircuit,
        preprocessing: Preprocessing::Ot,
        security: Security::Malicious,
        mac_bits: MacBits::K64,
    };
    check(protocol, KeySize::Aes256, Direction::Decrypt, 950);
}

#[test]
fn the_sbox_table_path_decrypts_and_names_the_key_sizes_it_does_not_run() {
    let protocol = AesProtocol::TinyTable {
        path: AesPath::SboxTables,
        preprocessing: Preprocessing::Dealer,
        security: Security::SemiHonest,
        mac_bits: MacBits::K64,
    };
    let base = spec(protocol, vec![0], 1, vec![0, 1]);
    base.validate().unwrap();
    AesSpec { direction: Direction::Decrypt, ..base.clone() }.validate().unwrap();
    for (s, field) in [
        (AesSpec { key_size: KeySize::Aes192, ..base.clone() }, "keyBits"),
        (AesSpec { key_size: KeySize::Aes256, direction: Direction::Decrypt, ..base.clone() }, "keyBits"),
    ] {
        match s.validate() {
            Err(JobError::NotAvailable { option, .. }) => assert_eq!(option, field),
            other => panic!("{field}: expected NotAvailable, got {other:?}"),
        }
    }
}
