//! The project's own SHA-256 compression circuit, built with [`CircuitBuilder`]: the circuit of
//! Coral's Table 6 (there called SHA-256 with 22,573 AND gates, Bristol Fashion's `sha256.txt`).
//!
//! One application of the SHA-256 compression function (FIPS 180-4 §6.2.2, steps 1–4): the
//! message schedule W_0..W_63, 64 rounds, and the addition of the chaining value. Σ, σ and the
//! rotations are XORs and rewiring; Ch(e, f, g) = g ⊕ (e ∧ (f ⊕ g)) and
//! Maj(a, b, c) = b ⊕ ((a ⊕ b) ∧ (b ⊕ c)) take one AND per bit; every addition modulo 2^32 is a
//! ripple-carry adder with one AND per carry, `c_{i+1} = c_i ⊕ ((x_i ⊕ c_i) ∧ (y_i ⊕ c_i))`, so 31
//! per addition (constants K_t included: they enter as constant wires).
//!
//! Interface: input 0 is the 512-bit message block, input 1 the 256-bit chaining value, output 0
//! the next chaining value. Each value is its byte string (the block's 64 bytes; the chaining
//! value's eight words H_0..H_7, big-endian) read as a big-endian integer, wire `i` holding bit `i`
//! — the convention of [`aes_bristol`](super::aes_bristol), whose `value_bits` and `value_bytes`
//! convert.
//!
//! AND gates (pinned by a test): 64 rounds × (2 × 32 for Ch and Maj + 7 additions × 31) + 48
//! schedule words × 3 × 31 + 8 × 31 = 22,696, 0.5 % more than the reference's 22,573.

use super::builder::{CircuitBuilder, Wire};
use super::error::CircuitError;
use super::repr::Circuit;

/// A 32-bit word on wires, bit 0 (least significant) first.
type Word = [Wire; 32];

/// The round constants K_0..K_63 (FIPS 180-4 §4.2.2).
const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// Word `j` of a value of `words` big-endian words (word 0 most significant).
fn word_of_value(wires: &[Wire], words: usize, j: usize) -> Word {
    std::array::from_fn(|k| wires[32 * (words - 1 - j) + k])
}

/// XOR of the given wires (at least one).
fn xor_all(b: &mut CircuitBuilder, wires: &[Wire]) -> Wire {
    wires[1..].iter().fold(wires[0], |acc, &w| b.xor(acc, w))
}

/// `x` rotated right by `n`, as wires of bit `i` (no gates).
fn rotr(x: &Word, n: usize, i: usize) -> Wire {
    x[(i + n) % 32]
}

/// Σ_0, Σ_1 (`shift = None`) and σ_0, σ_1 (`shift = Some(s)`): rotations by `r0`, `r1` XORed with
/// a rotation by `r2` or a right shift by `s`.
fn sigma(b: &mut CircuitBuilder, x: &Word, r0: usize, r1: usize, last: (usize, bool)) -> Word {
    let (r2, is_shift) = last;
    std::array::from_fn(|i| {
        let mut terms = vec![rotr(x, r0, i), rotr(x, r1, i)];
        if !is_shift {
            terms.push(rotr(x, r2, i));
        } else if i + r2 < 32 {
            terms.push(x[i + r2]);
        }
        xor_all(b, &terms)
    })
}

/// `x + y mod 2^32` (31 AND gates).
fn add(b: &mut CircuitBuilder, x: &Word, y: &Word) -> Word {
    let mut sum = [x[0]; 32];
    sum[0] = b.xor(x[0], y[0]);
    let mut carry = b.and(x[0], y[0]);
    for i in 1..32 {
        let xy = b.xor(x[i], y[i]);
        sum[i] = b.xor(xy, carry);
        if i < 31 {
            let xc = b.xor(x[i], carry);
            let yc = b.xor(y[i], carry);
            let t = b.and(xc, yc);
            carry = b.xor(carry, t);
        }
    }
    sum
}

fn constant_word(b: &mut CircuitBuilder, value: u32) -> Word {
    std::array::from_fn(|i| b.constant(value >> i & 1 == 1))
}

/// Ch(e, f, g) = g ⊕ (e ∧ (f ⊕ g)).
fn ch(b: &mut CircuitBuilder, e: &Word, f: &Word, g: &Word) -> Word {
    std::array::from_fn(|i| {
        let fg = b.xor(f[i], g[i]);
        let t = b.and(e[i], fg);
        b.xor(g[i], t)
    })
}

/// Maj(a, b, c) = b ⊕ ((a ⊕ b) ∧ (b ⊕ c)).
fn maj(bld: &mut CircuitBuilder, a: &Word, b: &Word, c: &Word) -> Word {
    std::array::from_fn(|i| {
        let ab = bld.xor(a[i], b[i]);
        let bc = bld.xor(b[i], c[i]);
        let t = bld.and(ab, bc);
        bld.xor(b[i], t)
    })
}

/// The SHA-256 compression circuit (see the module documentation for its interface).
///
/// # Errors
/// Only if the builder rejects the circuit, which would be a bug here.
pub fn sha256_compression_circuit() -> Result<Circuit, CircuitError> {
    let mut b = CircuitBuilder::new();
    let block = b.input(512);
    let chaining = b.input(256);
    let mut w: Vec<Word> = (0..16).map(|j| word_of_value(&block, 16, j)).collect();
    for t in 16..64 {
        let s1 = sigma(&mut b, &w[t - 2], 17, 19, (10, true));
        let s0 = sigma(&mut b, &w[t - 15], 7, 18, (3, true));
        let x = add(&mut b, &s1, &w[t - 7]);
        let y = add(&mut b, &s0, &w[t - 16]);
        let next = add(&mut b, &x, &y);
        w.push(next);
    }
    let h: Vec<Word> = (0..8).map(|j| word_of_value(&chaining, 8, j)).collect();
    let mut s: [Word; 8] = std::array::from_fn(|j| h[j]);
    for (t, w_t) in w.iter().enumerate() {
        let [a, bb, c, d, e, f, g, hh] = s;
        let big_s1 = sigma(&mut b, &e, 6, 11, (25, false));
        let choose = ch(&mut b, &e, &f, &g);
        let k = constant_word(&mut b, K[t]);
        let kw = add(&mut b, &k, w_t);
        let t1 = add(&mut b, &hh, &big_s1);
        let t1 = add(&mut b, &t1, &choose);
        let t1 = add(&mut b, &t1, &kw);
        let big_s0 = sigma(&mut b, &a, 2, 13, (22, false));
        let majority = maj(&mut b, &a, &bb, &c);
        let t2 = add(&mut b, &big_s0, &majority);
        let new_e = add(&mut b, &d, &t1);
        let new_a = add(&mut b, &t1, &t2);
        s = [new_a, a, bb, c, new_e, e, f, g];
    }
    let next: Vec<Word> = (0..8).map(|j| add(&mut b, &h[j], &s[j])).collect();
    // Output value: word 0 most significant, so wire 32·(7 − j) + k is bit k of word j.
    let output: Vec<Wire> = (0..256).map(|wire| next[7 - wire / 32][wire % 32]).collect();
    b.finish(&[output])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::aes_bristol::{value_bits, value_bytes};
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};
    use sha2::digest::generic_array::GenericArray;

    /// FIPS 180-4 §5.3.3.
    const IV: [u32; 8] =
        [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

    fn state_bytes(state: &[u32; 8]) -> Vec<u8> {
        state.iter().flat_map(|w| w.to_be_bytes()).collect()
    }

    fn compress(circuit: &Circuit, state: &[u32; 8], block: &[u8; 64]) -> Vec<u8> {
        let out = circuit.evaluate(&[value_bits(block), value_bits(&state_bytes(state))]).expect("evaluates");
        value_bytes(&out[0]).expect("256 bits")
    }

    #[test]
    fn the_circuit_hashes_abc_as_fips_180_4_does() {
        let circuit = sha256_compression_circuit().unwrap();
        // "abc", padded to one block (FIPS 180-4 §5.1.1, example in its appendix B.1).
        let mut block = [0u8; 64];
        block[..3].copy_from_slice(b"abc");
        block[3] = 0x80;
        block[63] = 24;
        assert_eq!(
            compress(&circuit, &IV, &block),
            hex::decode("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad").unwrap()
        );
    }

    #[test]
    fn the_circuit_matches_the_sha2_crate_on_random_blocks_and_states() {
        let circuit = sha256_compression_circuit().unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(256);
        for _ in 0..8 {
            let mut block = [0u8; 64];
            rng.fill_bytes(&mut block);
            let state: [u32; 8] = std::array::from_fn(|_| rng.next_u32());
            let mut expected = state;
            sha2::compress256(&mut expected, &[*GenericArray::from_slice(&block)]);
            assert_eq!(compress(&circuit, &state, &block), state_bytes(&expected));
        }
    }

    #[test]
    fn gate_counts_and_interface() {
        let circuit = sha256_compression_circuit().unwrap();
        assert_eq!(circuit.input_widths(), [512, 256]);
        assert_eq!(circuit.output_widths(), [256]);
        assert_eq!(circuit.gate_counts().and, 64 * (2 * 32 + 7 * 31) + 48 * 3 * 31 + 8 * 31);
        assert_eq!(circuit.gate_counts().and, 22_696);
    }
}
