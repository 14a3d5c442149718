//! Inputs and checks shared by the TCP and relay tests: the FIPS-197 Appendix C.1 vector with the
//! key split into two XOR shares (held by parties 0 and 1) and the plaintext from party 2.

use chorus_core::jobs::maestro_aes::AesJobInput;

pub const FIPS_KEY: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
pub const FIPS_PT: &str = "00112233445566778899aabbccddeeff";
/// The FIPS-197 C.1 ciphertext.
pub const FIPS_CT: &str = "69c4e0d86a7b0430d8cdb78070b4c55a";
pub const SECRET: &[u8] = b"a test session secret, 32 bytes.";

/// Party `p`'s input: XOR shares of the FIPS key for 0 and 1, the FIPS plaintext for 2.
pub fn fips_input(p: usize) -> AesJobInput {
    let mask = [0xa5u8; 16];
    match p {
        0 => AesJobInput { key_share: Some(mask.to_vec()), plaintext: None },
        1 => AesJobInput {
            key_share: Some(FIPS_KEY.iter().zip(mask).map(|(k, m)| k ^ m).collect()),
            plaintext: None,
        },
        _ => AesJobInput { key_share: None, plaintext: Some(hex::decode(FIPS_PT).unwrap()) },
    }
}

/// Checks what party `p` reports for the one-block FIPS job revealed to all: the ciphertext and,
/// for the AES rounds alone, bytes sent and received and rounds.
pub fn check_fips_report(
    p: usize,
    ciphertext: Option<&[u8]>,
    aes_sent: u64,
    aes_received: u64,
    aes_rounds: u64,
) {
    assert_eq!(hex::encode(ciphertext.expect("revealed to every party")), FIPS_CT, "party {p}");
    // The default job is malicious LUT-16. MAESTRO Table 1 (LUT-16 online): 2560 bits = 320 bytes
    // per party per block in 20 rounds; the verification comes after the AES rounds.
    assert_eq!((aes_sent, aes_received, aes_rounds), (320, 320, 20), "party {p}");
}
