//! The cipher direction of S-box-table material. Decryption runs FIPS-197 §5.3.5's *equivalent
//! inverse cipher*, which has the cipher's shape — AddRoundKey, then ten rounds of a table layer,
//! the linear layer (without the column mixing in the last round) and AddRoundKey — with
//! InvSubBytes, InvShiftRows, InvMixColumns and round keys of its own: the cipher's round keys in
//! reverse order, InvMixColumns applied to those of rounds 1–9. So decrypting is the same protocol
//! on other tables, another linear layer and other round keys; the masking (§2.3), the lanes, the
//! seed-derived tables, the §3 MACs and the §4 construction are unchanged. The key owner expands
//! its key locally in either direction.

use super::schedule::direction_keys;
use super::tables::ROUND_KEYS;
use crate::aes::linear::{
    inv_mix_columns, inv_round_linear_bytes, inv_shift_rows, mix_columns, round_linear_bytes, shift_rows,
    AesByte,
};
use crate::aes::sbox::{inv_sbox_table, sbox, sbox_table};
use crate::aes::{expand_key, Block, Direction, KeySize};
use crate::field::Gf256;

/// The 256-entry table of the direction's S-box layer: S, or S⁻¹.
pub(crate) fn table(direction: Direction) -> [u8; 256] {
    match direction {
        Direction::Encrypt => sbox_table(),
        Direction::Decrypt => inv_sbox_table(),
    }
}

/// The round after the table layer, on plain bytes (masked states, masks and XOR-shares alike:
/// it is GF(2)-linear): (Inv)ShiftRows, (Inv)MixColumns unless `last`, AddRoundKey.
#[inline]
pub(crate) fn round_linear(direction: Direction, state: &mut [u8; 16], round_key: &[u8], last: bool) {
    match direction {
        Direction::Encrypt => round_linear_bytes(state, round_key, last),
        Direction::Decrypt => inv_round_linear_bytes(state, round_key, last),
    }
}

/// [`round_linear`] without the round key, on any [`AesByte`] (the §4 construction's
/// authenticated masks).
pub(crate) fn linear_layer<B: AesByte>(direction: Direction, state: &mut [B; 16], last: bool) {
    match direction {
        Direction::Encrypt => {
            shift_rows(state);
            if !last {
                mix_columns(state);
            }
        }
        Direction::Decrypt => {
            inv_shift_rows(state);
            if !last {
                inv_mix_columns(state);
            }
        }
    }
}

/// The 11 round keys the direction's rounds add, from an AES-128 key (FIPS-197 §5.2; for
/// decryption the equivalent inverse cipher's, §5.3.5).
pub(crate) fn round_keys(direction: Direction, key: &Block) -> [[u8; 16]; ROUND_KEYS] {
    let expanded = expand_key(KeySize::Aes128, &key.map(Gf256), |word| *word = word.map(sbox));
    let forward: [[Gf256; 16]; ROUND_KEYS] = core::array::from_fn(|r| *expanded.round(r));
    direction_keys(direction, &forward).map(|k| k.map(|b| b.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::fips197;

    /// Both directions in the protocols' shape — AddRoundKey, then ten rounds of the table and
    /// the linear layer — give FIPS-197 Appendix C.1 (each the other's inverse).
    #[test]
    fn both_directions_in_the_table_shape_match_fips197() {
        let run = |direction: Direction, input: &Block| {
            let keys = round_keys(direction, &fips197::KEY);
            let t = table(direction);
            let mut s: Block = core::array::from_fn(|j| input[j] ^ keys[0][j]);
            for (round, key) in keys.iter().enumerate().skip(1) {
                s = s.map(|b| t[usize::from(b)]);
                round_linear(direction, &mut s, key, round == ROUND_KEYS - 1);
            }
            s
        };
        assert_eq!(run(Direction::Encrypt, &fips197::PLAINTEXT), fips197::CIPHERTEXT);
        assert_eq!(run(Direction::Decrypt, &fips197::CIPHERTEXT), fips197::PLAINTEXT);
        // The generic layer on bytes is the byte form without the key.
        for direction in [Direction::Encrypt, Direction::Decrypt] {
            for last in [false, true] {
                let state: Block = core::array::from_fn(|j| (37 * j + 5) as u8);
                let mut generic = state.map(Gf256);
                linear_layer(direction, &mut generic, last);
                let mut bytes = state;
                round_linear(direction, &mut bytes, &[0; 16], last);
                assert_eq!(generic.map(|b| b.0), bytes, "{direction:?}, last {last}");
            }
        }
    }
}
