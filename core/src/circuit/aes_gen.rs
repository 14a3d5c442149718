//! The project's own AES-128 boolean circuit, built with [`CircuitBuilder`] from the Boyar–Peralta
//! S-box ([`sbox_bp`](super::sbox_bp)).
//!
//! AES-128 as in FIPS-197 §5.1 and §5.2: the key expansion runs inside the circuit (40 S-boxes on key
//! words, RotWord as rewiring, Rcon as INV gates), then AddRoundKey, 9 rounds of SubBytes, ShiftRows
//! (rewiring), MixColumns (XORs; multiplication by `x` is a rewiring plus three XORs) and
//! AddRoundKey, and a final round without MixColumns. Only the 200 S-boxes (160 in the rounds, 40 in
//! the key schedule) hold AND gates: 200 × 32 = 6400, the same count as the reference
//! `aes_128.txt`. The inputs and output follow the reference circuit's conventions (key, then
//! plaintext; see [`aes_bristol`](super::aes_bristol)), so the two are interchangeable.
//!
//! Measured (pinned by tests): 6400 AND, 24040 XOR and 816 INV gates (the reference has 6400 AND,
//! 28176 XOR, 2087 INV), 31512 wires, AND-depth 60 (6 per round, the key schedule's S-boxes running
//! in parallel with the round's), with the same per-layer AND counts as the reference.

use super::builder::{CircuitBuilder, Wire};
use super::error::CircuitError;
use super::repr::Circuit;
use super::sbox_bp::sbox;

/// A byte on wires, bit 0 (least significant) first.
type Byte = [Wire; 8];

/// Round constants of the AES-128 key schedule (FIPS-197 §5.2).
const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// Splits a Bristol Fashion 128-bit value into its 16 bytes in byte order (see
/// [`aes_bristol`](super::aes_bristol): wire `8j + b` is bit `b` of byte `15 - j`).
fn bytes_of_value(wires: &[Wire]) -> [Byte; 16] {
    std::array::from_fn(|byte| std::array::from_fn(|bit| wires[8 * (15 - byte) + bit]))
}

fn value_of_bytes(bytes: &[Byte; 16]) -> Vec<Wire> {
    (0..128).map(|wire| bytes[15 - wire / 8][wire % 8]).collect()
}

fn xor_bytes(b: &mut CircuitBuilder, x: Byte, y: Byte) -> Byte {
    std::array::from_fn(|i| b.xor(x[i], y[i]))
}

fn xor_constant(b: &mut CircuitBuilder, x: Byte, constant: u8) -> Byte {
    std::array::from_fn(|i| if constant >> i & 1 == 1 { b.not(x[i]) } else { x[i] })
}

/// Multiplication by `x` in GF(2^8) modulo `x^8 + x^4 + x^3 + x + 1`.
fn xtime(b: &mut CircuitBuilder, x: Byte) -> Byte {
    let high = x[7];
    [high, b.xor(x[0], high), x[1], b.xor(x[2], high), b.xor(x[3], high), x[4], x[5], x[6]]
}

/// Round keys 0..=10 as 16 bytes each, in FIPS-197 byte order.
fn expand_key(b: &mut CircuitBuilder, key: [Byte; 16]) -> Vec<[Byte; 16]> {
    let mut words: Vec<[Byte; 4]> = (0..4).map(|w| std::array::from_fn(|i| key[4 * w + i])).collect();
    for i in 4..44 {
        let previous = words[i - 1];
        let temp = if i % 4 == 0 {
            let rotated = [previous[1], previous[2], previous[3], previous[0]];
            let substituted = rotated.map(|byte| sbox(b, byte));
            let first = xor_constant(b, substituted[0], RCON[i / 4 - 1]);
            [first, substituted[1], substituted[2], substituted[3]]
        } else {
            previous
        };
        let back = words[i - 4];
        words.push(std::array::from_fn(|j| xor_bytes(b, back[j], temp[j])));
    }
    words.chunks(4).map(|round| std::array::from_fn(|byte| round[byte / 4][byte % 4])).collect()
}

/// State bytes are in FIPS-197 input order: byte `r + 4c` is row `r`, column `c`.
fn shift_rows(state: [Byte; 16]) -> [Byte; 16] {
    std::array::from_fn(|i| {
        let (row, column) = (i % 4, i / 4);
        state[row + 4 * ((column + row) % 4)]
    })
}

fn mix_columns(b: &mut CircuitBuilder, state: [Byte; 16]) -> [Byte; 16] {
    let mut out = state;
    for column in 0..4 {
        let a: [Byte; 4] = std::array::from_fn(|row| state[4 * column + row]);
        let sum01 = xor_bytes(b, a[0], a[1]);
        let sum23 = xor_bytes(b, a[2], a[3]);
        let all = xor_bytes(b, sum01, sum23);
        for row in 0..4 {
            // out_r = a_r ^ (a_0 ^ a_1 ^ a_2 ^ a_3) ^ 2 (a_r ^ a_{r+1}) = 2 a_r ^ 3 a_{r+1} ^ a_{r+2} ^ a_{r+3}.
            let pair = xor_bytes(b, a[row], a[(row + 1) % 4]);
            let doubled = xtime(b, pair);
            let partial = xor_bytes(b, a[row], all);
            out[4 * column + row] = xor_bytes(b, partial, doubled);
        }
    }
    out
}

/// Builds the AES-128 encryption circuit: inputs key (128 bits) and plaintext (128 bits), output the
/// ciphertext (128 bits), all in the Bristol Fashion bit order of [`aes_bristol`](super::aes_bristol).
pub fn aes128_circuit() -> Result<Circuit, CircuitError> {
    let mut b = CircuitBuilder::new();
    let key = bytes_of_value(&b.input(128));
    let plaintext = bytes_of_value(&b.input(128));
    let round_keys = expand_key(&mut b, key);
    let mut state: [Byte; 16] = std::array::from_fn(|i| xor_bytes(&mut b, plaintext[i], round_keys[0][i]));
    for (round, round_key) in round_keys.iter().enumerate().skip(1) {
        let substituted = state.map(|byte| sbox(&mut b, byte));
        let shifted = shift_rows(substituted);
        let mixed = if round < 10 { mix_columns(&mut b, shifted) } else { shifted };
        state = std::array::from_fn(|i| xor_bytes(&mut b, mixed[i], round_key[i]));
    }
    b.finish(&[value_of_bytes(&state)])
}
