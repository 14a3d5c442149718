//! The project's own AES boolean circuits, built with [`CircuitBuilder`] from the Boyar–Peralta
//! S-box ([`sbox_bp`](super::sbox_bp)): AES-128, -192 and -256, encryption and decryption.
//!
//! Encryption as in FIPS-197 §5.1 and §5.2: the key expansion runs inside the circuit (`SubWord`
//! S-boxes on key words, RotWord as rewiring, Rcon as INV gates), then AddRoundKey, Nr − 1 rounds
//! of SubBytes, ShiftRows (rewiring), MixColumns (XORs; multiplication by `x` is a rewiring plus
//! three XORs) and AddRoundKey, and a final round without MixColumns. Decryption is the inverse
//! cipher of §5.3 on the same round keys: InvShiftRows (rewiring), InvSubBytes (the S-box between
//! two inverse affine maps, [`inv_sbox`]) and InvMixColumns (MixColumns after two doublings per
//! column pair). Only the S-boxes hold AND gates, 32 each: AES-128 has 200 (160 in the rounds, 40
//! in the key schedule), 6400 ANDs, the same count as the reference `aes_128.txt`. The inputs and
//! output follow the reference circuit's conventions (key, then the input block; see
//! [`aes_bristol`](super::aes_bristol)), so the two are interchangeable.
//!
//! Measured (pinned by tests) for AES-128 encryption: 6400 AND, 24040 XOR and 816 INV gates (the
//! reference has 6400 AND, 28176 XOR, 2087 INV), 31512 wires, AND-depth 60 (6 per round, the key
//! schedule's S-boxes running in parallel with the round's), with the same per-layer AND counts as
//! the reference.

use super::builder::{CircuitBuilder, Wire};
use super::error::CircuitError;
use super::repr::Circuit;
use super::sbox_bp::sbox;
use crate::aes::KeySize;

/// A byte on wires, bit 0 (least significant) first.
type Byte = [Wire; 8];

/// Round constants of the key schedule (FIPS-197 §5.2).
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

/// Round keys 0..=Nr as 16 bytes each, in FIPS-197 byte order (§5.2: `SubWord` after `RotWord`
/// and `Rcon` every Nk words, and `SubWord` alone at `i mod Nk = 4` when Nk = 8).
fn expand_key(b: &mut CircuitBuilder, key_size: KeySize, key: &[Byte]) -> Vec<[Byte; 16]> {
    let nk = key_size.key_words();
    let mut words: Vec<[Byte; 4]> = (0..nk).map(|w| std::array::from_fn(|i| key[4 * w + i])).collect();
    for i in nk..4 * (key_size.rounds() + 1) {
        let previous = words[i - 1];
        let temp = if i % nk == 0 {
            let rotated = [previous[1], previous[2], previous[3], previous[0]];
            let substituted = rotated.map(|byte| sbox(b, byte));
            let first = xor_constant(b, substituted[0], RCON[i / nk - 1]);
            [first, substituted[1], substituted[2], substituted[3]]
        } else if nk > 6 && i % nk == 4 {
            previous.map(|byte| sbox(b, byte))
        } else {
            previous
        };
        let back = words[i - nk];
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

/// The inverse of ShiftRows: row `r` rotated right by `r`.
fn inv_shift_rows(state: [Byte; 16]) -> [Byte; 16] {
    std::array::from_fn(|i| {
        let (row, column) = (i % 4, i / 4);
        state[row + 4 * ((column + 4 - row) % 4)]
    })
}

/// InvMixColumns as MixColumns after a cheap first step (Daemen–Rijmen, "The Design of Rijndael"
/// §4.1.3): `[0e 0b 0d 09]` = `[02 03 01 01] · [05 00 04 00]`, and multiplying a column by the
/// second matrix adds `4·(a₀ ⊕ a₂)` to rows 0 and 2 and `4·(a₁ ⊕ a₃)` to rows 1 and 3.
fn inv_mix_columns(b: &mut CircuitBuilder, state: [Byte; 16]) -> [Byte; 16] {
    let mut out = state;
    for column in 0..4 {
        let a: [Byte; 4] = std::array::from_fn(|row| state[4 * column + row]);
        let even = xor_bytes(b, a[0], a[2]);
        let even = xtime(b, even);
        let u = xtime(b, even);
        let odd = xor_bytes(b, a[1], a[3]);
        let odd = xtime(b, odd);
        let v = xtime(b, odd);
        for row in 0..4 {
            let add = if row % 2 == 0 { u } else { v };
            out[4 * column + row] = xor_bytes(b, a[row], add);
        }
    }
    mix_columns(b, out)
}

/// The inverse of the S-box's affine map without its constant: bit `i` of the result is
/// `v_{i+2} ⊕ v_{i+5} ⊕ v_{i+7}` (indices mod 8; FIPS-197 §5.3.2).
fn inv_affine_linear(b: &mut CircuitBuilder, v: Byte) -> Byte {
    std::array::from_fn(|i| {
        let pair = b.xor(v[(i + 2) % 8], v[(i + 5) % 8]);
        b.xor(pair, v[(i + 7) % 8])
    })
}

/// The inverse S-box from the forward one: with `S(z) = A·z⁻¹ ⊕ 63`, `S⁻¹(y) = (A⁻¹(y ⊕ 63))⁻¹ =
/// A⁻¹(S(A⁻¹(y ⊕ 63)) ⊕ 63)`, and `A⁻¹(v ⊕ 63) = L(v) ⊕ 05` for the linear part `L`
/// ([`inv_affine_linear`]). The same 32 AND gates as the S-box; the rest is XOR and INV.
pub(crate) fn inv_sbox(b: &mut CircuitBuilder, y: Byte) -> Byte {
    let linear = inv_affine_linear(b, y);
    let z = xor_constant(b, linear, 0x05);
    let s = sbox(b, z);
    let linear = inv_affine_linear(b, s);
    xor_constant(b, linear, 0x05)
}

/// Builds the AES-128 encryption circuit: inputs key (128 bits) and plaintext (128 bits), output the
/// ciphertext (128 bits), all in the Bristol Fashion bit order of [`aes_bristol`](super::aes_bristol).
pub fn aes128_circuit() -> Result<Circuit, CircuitError> {
    aes_circuit(KeySize::Aes128, false)
}

/// Builds the AES circuit of `key_size`: inputs the key (128, 192 or 256 bits) and the input block,
/// output the block encrypted (FIPS-197 §5.1) or, if `decrypt`, decrypted with the inverse cipher
/// (§5.3), in the Bristol Fashion bit order of [`aes_bristol`](super::aes_bristol). The key
/// schedule runs inside; AND gates: 32 per S-box, `16·Nr` S-boxes in the rounds and the key
/// schedule's (40, 32 and 52 for the three key sizes), in either direction.
pub fn aes_circuit(key_size: KeySize, decrypt: bool) -> Result<Circuit, CircuitError> {
    let mut b = CircuitBuilder::new();
    let key_value = b.input(8 * key_size.key_bytes());
    let key: Vec<Byte> =
        key_value.chunks_exact(8).rev().map(|bits| std::array::from_fn(|i| bits[i])).collect();
    let input = bytes_of_value(&b.input(128));
    let round_keys = expand_key(&mut b, key_size, &key);
    let rounds = key_size.rounds();
    let add = |b: &mut CircuitBuilder, state: [Byte; 16], key: &[Byte; 16]| -> [Byte; 16] {
        std::array::from_fn(|i| xor_bytes(b, state[i], key[i]))
    };
    let state = if decrypt {
        let mut state = add(&mut b, input, &round_keys[rounds]);
        for round in (0..rounds).rev() {
            let shifted = inv_shift_rows(state);
            let substituted = shifted.map(|byte| inv_sbox(&mut b, byte));
            state = add(&mut b, substituted, &round_keys[round]);
            if round > 0 {
                state = inv_mix_columns(&mut b, state);
            }
        }
        state
    } else {
        let mut state = add(&mut b, input, &round_keys[0]);
        for (round, round_key) in round_keys.iter().enumerate().skip(1) {
            let substituted = state.map(|byte| sbox(&mut b, byte));
            let shifted = shift_rows(substituted);
            let mixed = if round < rounds { mix_columns(&mut b, shifted) } else { shifted };
            state = add(&mut b, mixed, round_key);
        }
        state
    };
    b.finish(&[value_of_bytes(&state)])
}
