//! AES on shared bytes, written once over any [`SboxLayer`] (GUIDE §3; MAESTRO §2.2 and Fig. 9's
//! round structure): the linear layer ([`crate::aes::linear`]) and the key schedule state machine
//! ([`KeyExpansion`]) of the plain cipher are reused unchanged on shares.
//!
//! Each encryption round is one [`SboxLayer::sub_bytes_and_round_linear`] call: SubBytes, then
//! the round's linear part ([`crate::aes::AesByte::round_linear`], the word-parallel
//! [`crate::aes::linear::round_linear_bytes`] for replicated shares), which a layer may run on
//! its own share layout.
//!
//! Batching: encrypting s blocks passes all 16·s state bytes of a round to one
//! [`SboxLayer::sub_bytes`] call, and each key-schedule `SubWord` is one call of 4 bytes, so the
//! round count is independent of s. The key schedule is computed once per key, however many
//! blocks are then encrypted under it.
//!
//! Decryption ([`decrypt_blocks`]) is FIPS-197 §5.3's InvCipher (Fig. 12) with the same round
//! keys: InvShiftRows and InvMixColumns are local, and each round's InvSubBytes is one
//! [`SboxLayer::inv_sub_bytes`] call, so it costs what encryption costs.
//!
//! Round keys and cipher outputs are always replicated: the driver calls
//! [`SboxLayer::to_replicated`] after each `SubWord` and on the output of the last S-box layer,
//! before the last round's linear layer (free for every variant but the (3,3) LUT-256, which
//! carries the state additively between S-box layers; MAESTRO Protocol 7 step 8 reshares
//! ⟨⟨y⁽⁹⁾⟩⟩ and then computes the last round on ⟦y⁽⁹⁾⟧). After every S-box layer that follows
//! another, the driver offers the layer the inverse of the linear layer and round-key addition
//! in between ([`SboxLayer::recover_previous_outputs`], Protocol 7 step 6), so that the
//! malicious (3,3) LUT-256 can recover replicated shares of the previous layer's outputs from
//! the replicated shares of its inputs.

use super::error::MaestroError;
use super::sbox::{LinearStep, SboxLayer};
use crate::aes::linear::{add_round_key, inv_mix_columns, inv_shift_rows};
use crate::aes::{KeyExpansion, KeySize, RoundKeys};
use crate::net::Network;

/// Expands a shared key (16, 24 or 32 bytes) into shared round keys in MPC: one `sub_bytes` call
/// of 4 S-boxes per `SubWord` (10 calls, 40 S-boxes for AES-128).
pub async fn expand_key<S: SboxLayer, N: Network>(
    sbox: &mut S,
    net: &mut N,
    key: &[S::Share],
) -> Result<RoundKeys<S::Share>, MaestroError> {
    let key_size = KeySize::from_key_len(key.len()).ok_or(MaestroError::BadKeyLength(key.len()))?;
    let mut expansion = KeyExpansion::new(key_size, key);
    while let Some(mut word) = expansion.pending_sub_word() {
        sbox.sub_bytes(net, &mut word).await?;
        sbox.to_replicated(net, &mut word).await?;
        expansion.supply_sub_word(word);
    }
    Ok(expansion.finish().expect("every SubWord was supplied"))
}

/// Round keys supplied as shares (e.g. expanded earlier), checked to be Nr + 1 for `key_size`.
pub fn round_keys_from_shares<B: crate::aes::AesByte>(
    key_size: KeySize,
    keys: Vec<[B; 16]>,
) -> Result<RoundKeys<B>, MaestroError> {
    let actual = keys.len();
    RoundKeys::from_round_keys(key_size, keys)
        .ok_or(MaestroError::BadRoundKeyCount { expected: key_size.rounds() + 1, actual })
}

/// Encrypts every shared block in place (FIPS-197 §5.1) with one `sub_bytes` call per round.
pub async fn encrypt_blocks<S: SboxLayer, N: Network>(
    sbox: &mut S,
    net: &mut N,
    round_keys: &RoundKeys<S::Share>,
    blocks: &mut [[S::Share; 16]],
) -> Result<(), MaestroError> {
    let rounds = round_keys.rounds();
    for block in blocks.iter_mut() {
        add_round_key(block, round_keys.round(0));
    }
    for r in 1..=rounds {
        // The previous layer's output y and this layer's input x are related by
        // x = MixColumns(ShiftRows(y)) + k⁽ʳ⁻¹⁾.
        let previous_key = (r > 1).then(|| round_keys.round(r - 1));
        sbox.sub_bytes_and_round_linear(net, blocks, round_keys.round(r), previous_key, r == rounds).await?;
    }
    Ok(())
}

/// Decrypts every shared block in place (FIPS-197 §5.3, the InvCipher of Fig. 12) with one
/// `inv_sub_bytes` call per round.
pub async fn decrypt_blocks<S: SboxLayer, N: Network>(
    sbox: &mut S,
    net: &mut N,
    round_keys: &RoundKeys<S::Share>,
    blocks: &mut [[S::Share; 16]],
) -> Result<(), MaestroError> {
    let rounds = round_keys.rounds();
    for block in blocks.iter_mut() {
        add_round_key(block, round_keys.round(rounds));
        inv_shift_rows(block);
    }
    for r in (0..rounds).rev() {
        sbox.inv_sub_bytes(net, blocks.as_flattened_mut()).await?;
        if r + 1 < rounds {
            // This call's input is InvShiftRows(InvMixColumns(y + k⁽ʳ⁺¹⁾)) of the previous output y.
            sbox.recover_previous_outputs(LinearStep::Decryption, round_keys.round(r + 1))?;
        }
        if r == 0 {
            sbox.to_replicated(net, blocks.as_flattened_mut()).await?;
        }
        for block in blocks.iter_mut() {
            add_round_key(block, round_keys.round(r));
            if r != 0 {
                inv_mix_columns(block);
                inv_shift_rows(block);
            }
        }
    }
    Ok(())
}

/// Groups a flat vector of shared bytes into 16-byte blocks, or `None` if its length is not a
/// multiple of 16.
pub fn to_blocks<B: Copy>(bytes: &[B]) -> Option<Vec<[B; 16]>> {
    bytes
        .len()
        .is_multiple_of(16)
        .then(|| bytes.chunks_exact(16).map(|c| core::array::from_fn(|j| c[j])).collect())
}
