//! Bit ordering of the Bristol Fashion AES circuits (`aes_128.txt`, `aes_192.txt`, `aes_256.txt` from
//! <https://nigelsmart.github.io/MPC-Circuits/>) and of this crate's own generated AES-128 circuit.
//!
//! Found by evaluating the published circuits on the FIPS-197 vectors (the tests in this module
//! family pin it down):
//! - input value 0 is the **key** (128 or 256 bits), input value 1 the **plaintext block** (128 bits);
//!   the single output value is the ciphertext block;
//! - each value is the byte string read as a **big-endian integer**, and wire `i` of the value holds
//!   bit `i` of that integer, least significant first. So wire `8 * j + b` is bit `b` (0 = least
//!   significant) of byte `n - 1 - j`, where `n` is the value's byte length: the first wire is the
//!   low bit of the **last** byte, the last wire is the high bit of the first byte.
//!
//! The common pitfall is to feed bytes in order with most significant bit first (as FIPS-197 writes
//! them); that gives a wrong ciphertext without any error, so always go through these helpers.

/// Bits of a byte string in Bristol Fashion value order (wire `8j + b` = bit `b` of byte `n-1-j`).
pub fn value_bits(bytes: &[u8]) -> Vec<bool> {
    bytes.iter().rev().flat_map(|&byte| (0..8).map(move |bit| byte >> bit & 1 == 1)).collect()
}

/// The inverse of [`value_bits`]; `None` if the number of bits is not a multiple of 8.
pub fn value_bytes(bits: &[bool]) -> Option<Vec<u8>> {
    if !bits.len().is_multiple_of(8) {
        return None;
    }
    let bytes =
        bits.chunks(8).rev().map(|chunk| chunk.iter().rev().fold(0u8, |acc, &bit| acc << 1 | u8::from(bit)));
    Some(bytes.collect())
}

/// The two input values (key, then plaintext block) of a Bristol Fashion AES circuit. The key length
/// (16 or 32 bytes) must match the circuit, which evaluation checks.
pub fn input_bits(key: &[u8], plaintext: &[u8; 16]) -> [Vec<bool>; 2] {
    [value_bits(key), value_bits(plaintext)]
}

/// The ciphertext block from the output value of a Bristol Fashion AES circuit; `None` if it is not
/// 128 bits.
pub fn output_bytes(bits: &[bool]) -> Option<[u8; 16]> {
    if bits.len() != 128 {
        return None;
    }
    value_bytes(bits).and_then(|bytes| bytes.try_into().ok())
}
