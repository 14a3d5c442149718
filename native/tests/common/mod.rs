//! Inputs and checks shared by the TCP and relay tests: the FIPS-197 Appendix C.1 vector with the
//! key split into two XOR shares (held by parties 0 and 1) and the plaintext from party 2.

use chorus_core::jobs::maestro_aes::AesJobInput;
use chorus_native::job::PartyOutcome;

pub const FIPS_KEY: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
pub const FIPS_PT: &str = "00112233445566778899aabbccddeeff";
pub const FIPS_CT: &str = "69c4e0d86a7b0430d8cdb78070b4c55a";
pub const SECRET: &[u8] = b"a test session secret, 32 bytes.";

/// Party `p`'s input: XOR shares of the FIPS key for 0 and 1, the FIPS plaintext for 2.
pub fn fips_input(p: usize) -> AesJobInput {
    let mask = [0xa5u8; 16];
    match p {
        0 => AesJobInput { key_share: Some(mask.to_vec()), plaintext: None },
        1 => AesJobInput { key_share: Some(FIPS_KEY.iter().zip(mask).map(|(k, m)| k ^ m).collect()), plaintext: None },
        _ => AesJobInput { key_share: None, plaintext: Some(hex::decode(FIPS_PT).unwrap()) },
    }
}

/// Checks one party's outcome of the one-block FIPS job revealed to all.
pub fn check_fips_outcome(p: usize, outcome: &PartyOutcome) {
    let out = &outcome.output;
    assert_eq!(hex::encode(out.ciphertext.as_ref().expect("revealed to every party")), FIPS_CT, "party {p}");
    // MAESTRO Table 1 (GF(2^8)-circuit): 5120 bits = 640 bytes per party per block, 30 rounds.
    assert_eq!(out.rounds_stats.bytes_sent, 640, "party {p}");
    assert_eq!(out.rounds_stats.bytes_received, 640, "party {p}");
    assert_eq!(out.rounds_stats.rounds, 30, "party {p}");
    assert!(out.stats.bytes_sent > out.rounds_stats.bytes_sent, "party {p}: whole job counts setup too");
    assert!(outcome.transport.bytes_sent > out.stats.bytes_sent, "party {p}: transport adds channel overhead");
}
