//! The "S-box black box" the AES driver ([`super::aes`]) is written over.
//!
//! Every MAESTRO variant (Table 1: GF(2^8)-circuit, GF(2^4)-circuit, LUT-16, LUT-256, their
//! malicious versions) differs only in how it evaluates SubBytes on shared bytes; the linear
//! layer and key schedule are local and shared. A variant implements [`SboxLayer`] and gets AES
//! encryption and decryption (and its test suite) for free.
//!
//! The inverse S-box (FIPS-197 §5.3.2) is S⁻¹(y) = (A⁻¹(y))⁻¹ with A⁻¹ the inverse affine map, so
//! the inversion-based variants run the local inverse affine map (`inv_affine`) and then
//! the same inversion routine as the forward S-box; table-lookup variants look up the inverse
//! table instead.

pub mod frobenius;
pub mod gf16_circuit;
pub mod gf256_circuit;
pub mod lut16;
pub mod lut256;
pub mod lut256_33;
pub mod one_hot16;
pub mod tensor_lookup;

use super::error::MaestroError;
use super::packed::Packed;
use super::rss::RssShare;
use crate::aes::linear::{add_round_key, inv_mix_columns, inv_shift_rows, mix_columns, shift_rows};
use crate::aes::sbox::{affine_linear, inv_affine_linear, AFFINE_CONSTANT, INV_AFFINE_CONSTANT};
use crate::aes::AesByte;
use crate::net::{Network, PartyId};
use core::future::Future;

/// Oblivious evaluation of the AES S-box on a batch of shared bytes.
///
/// Implementations must evaluate the whole batch in the protocol's minimum number of rounds
/// (one message per party per round for all bytes together), since the driver passes all 16·s
/// S-boxes of an AES round — or the 4 of a key-schedule `SubWord` — in one call.
pub trait SboxLayer {
    /// The share type of the state bytes (its linear operations are local).
    type Share: AesByte;

    /// Replaces every byte b of `bytes` by a sharing of S(b).
    fn sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [Self::Share],
    ) -> impl Future<Output = Result<(), MaestroError>>;

    /// Replaces every byte y of `bytes` by a sharing of S⁻¹(y) (InvSubBytes, FIPS-197 §5.3.2),
    /// with the same communication and rounds as [`SboxLayer::sub_bytes`].
    fn inv_sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [Self::Share],
    ) -> impl Future<Output = Result<(), MaestroError>>;

    /// Brings bytes that `sub_bytes`/`inv_sub_bytes` left in a cheaper intermediate sharing
    /// back to replicated form. The driver calls it after each key-schedule `SubWord` and on the
    /// output of the cipher's last S-box layer. Only the (3,3) LUT-256 layers, whose lookups output
    /// additive shares (Protocol 7 step 8), communicate here; by default it does nothing.
    fn to_replicated<N: Network>(
        &mut self,
        _net: &mut N,
        _bytes: &mut [Self::Share],
    ) -> impl Future<Output = Result<(), MaestroError>> {
        async { Ok(()) }
    }

    /// One encryption round on every block after the previous round's AddRoundKey: SubBytes
    /// ([`SboxLayer::sub_bytes`] on all 16·s bytes, one call), the Protocol 7 hooks, and then the
    /// round's linear part ([`AesByte::round_linear`]: ShiftRows, MixColumns unless `last`,
    /// AddRoundKey with `round_key`). The AES driver calls this once per round; `previous_key` is
    /// the key k⁽ʳ⁻¹⁾ of the linear step between the previous S-box layer and this one (`None`
    /// in round 1). The hooks, in order: [`SboxLayer::recover_previous_outputs`] (if there was a
    /// previous layer) and, in the last round, [`SboxLayer::to_replicated`] before the final
    /// linear part. A layer whose S-box output is in a faster layout than `[Self::Share]` may
    /// override this to run the same linear maps there (the messages are those of `sub_bytes`);
    /// an override must keep the hooks unless they do nothing for that layer.
    fn sub_bytes_and_round_linear<N: Network>(
        &mut self,
        net: &mut N,
        blocks: &mut [[Self::Share; 16]],
        round_key: &[Self::Share; 16],
        previous_key: Option<&[Self::Share; 16]>,
        last: bool,
    ) -> impl Future<Output = Result<(), MaestroError>> {
        async move {
            self.sub_bytes(net, blocks.as_flattened_mut()).await?;
            if let Some(key) = previous_key {
                self.recover_previous_outputs(LinearStep::Encryption, key)?;
            }
            if last {
                self.to_replicated(net, blocks.as_flattened_mut()).await?;
            }
            for block in blocks.iter_mut() {
                AesByte::round_linear(block, round_key, last);
            }
            Ok(())
        }
    }

    /// Protocol 7 step 6 (⟦y⁽ⁱ⁻¹⁾⟧ = L⁻¹(⟦x⁽ⁱ⁾⟧ − ⟦k⁽ⁱ⁾⟧)): the driver calls it right after each
    /// S-box call whose input it computed from the previous call's output, naming the linear
    /// step and round key it applied in between, so that [`LinearStep::invert`] maps each
    /// 16-byte block of the last call's input back to the previous call's output (local). A
    /// layer that obtained replicated shares of its inputs while keeping its outputs in a cheaper
    /// sharing (the malicious (3,3) LUT-256) recovers replicated shares of the previous outputs
    /// this way; by default it does nothing.
    fn recover_previous_outputs(
        &mut self,
        _step: LinearStep,
        _round_key: &[Self::Share; 16],
    ) -> Result<(), MaestroError> {
        Ok(())
    }
}

/// What an inversion-based S-box variant contributes: shares of x⁻¹ (0 ↦ 0) for contiguous
/// shares x, in the variant's rounds. SubBytes is S(x) = affine(x⁻¹) (FIPS-197 §5.1.1) and
/// InvSubBytes S⁻¹(y) = (A⁻¹(y))⁻¹ (§5.3.2), so every type implementing it is an [`SboxLayer`] on
/// replicated shares with the same glue: the affine maps share-wise around the inversion, and the
/// round's linear part run on the contiguous shares as they are written back
/// ([`Packed::write_round_linear`]). The GF(2^8)-circuit, GF(2^4)-circuit and LUT-16 variants
/// implement it; the table-lookup variants (LUT-256) implement [`SboxLayer`] themselves.
pub trait Gf256Inversion {
    /// This party's index (the layout of its contiguous shares).
    fn party_id(&self) -> PartyId;

    /// Shares of x⁻¹ for every x of `x`, one batch for all of them.
    fn invert<N: Network>(
        &mut self,
        net: &mut N,
        x: &Packed,
    ) -> impl Future<Output = Result<Packed, MaestroError>>;
}

impl<T: Gf256Inversion> SboxLayer for T {
    type Share = RssShare;

    async fn sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [RssShare],
    ) -> Result<(), MaestroError> {
        let x = Packed::from_shares(self.party_id(), bytes);
        let inverses = self.invert(net, &x).await?;
        apply_affine_packed(bytes, inverses);
        Ok(())
    }

    /// SubBytes and the round's linear part on the contiguous shares (word-parallel per
    /// component) as they are written back: one pass fewer over the state than the default. The
    /// default's Protocol 7 hooks do nothing for these layers (their outputs are replicated
    /// already), so `_previous_key` is not needed.
    async fn sub_bytes_and_round_linear<N: Network>(
        &mut self,
        net: &mut N,
        blocks: &mut [[RssShare; 16]],
        round_key: &[RssShare; 16],
        _previous_key: Option<&[RssShare; 16]>,
        last: bool,
    ) -> Result<(), MaestroError> {
        let bytes = blocks.as_flattened_mut();
        let x = Packed::from_shares(self.party_id(), bytes);
        let mut state = self.invert(net, &x).await?;
        affine_in_place(&mut state);
        state.write_round_linear(round_key, last, bytes);
        Ok(())
    }

    async fn inv_sub_bytes<N: Network>(
        &mut self,
        net: &mut N,
        bytes: &mut [RssShare],
    ) -> Result<(), MaestroError> {
        let x = Packed::from_shares(self.party_id(), &inv_affine(bytes));
        self.invert(net, &x).await?.write_to(bytes);
        Ok(())
    }
}

/// The linear step between two S-box layers of the AES driver, with round key k.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinearStep {
    /// Encryption (FIPS-197 §5.1): x = MixColumns(ShiftRows(y)) + k.
    Encryption,
    /// Decryption (FIPS-197 §5.3): x = InvShiftRows(InvMixColumns(y + k)).
    Decryption,
}

impl LinearStep {
    /// Maps a layer's input block x back to the previous layer's output y: InvShiftRows ∘
    /// InvMixColumns after adding k when encrypting, MixColumns ∘ ShiftRows then adding k when
    /// decrypting.
    pub fn invert<B: AesByte>(self, block: &mut [B; 16], round_key: &[B; 16]) {
        match self {
            LinearStep::Encryption => {
                add_round_key(block, round_key);
                inv_mix_columns(block);
                inv_shift_rows(block);
            }
            LinearStep::Decryption => {
                shift_rows(block);
                mix_columns(block);
                add_round_key(block, round_key);
            }
        }
    }
}

/// Finishes SubBytes after an inversion: writes affine(x⁻¹) into each byte (FIPS-197 §5.1.1), the
/// linear part share-wise and the constant once. Every inversion-based variant ends this way
/// (the semi-honest ones through [`apply_affine_packed`]).
#[allow(dead_code, reason = "the per-element form kept for variants on RssShare vectors")]
pub(super) fn apply_affine(bytes: &mut [RssShare], inverses: impl IntoIterator<Item = RssShare>) {
    for (b, inv) in bytes.iter_mut().zip(inverses) {
        *b = inv.map_linear(affine_linear).add_public(AFFINE_CONSTANT);
    }
}

/// Starts InvSubBytes before an inversion: A⁻¹(y) for each byte y (FIPS-197 §5.3.2), the linear
/// part share-wise and the constant once. Returns new shares, so that `bytes` stay unchanged if
/// the inversion then fails.
pub(super) fn inv_affine(bytes: &[RssShare]) -> Vec<RssShare> {
    bytes.iter().map(|b| b.map_linear(inv_affine_linear).add_public(INV_AFFINE_CONSTANT)).collect()
}

/// [`apply_affine`] for contiguous inverses: the linear part eight bytes at a time.
pub(super) fn apply_affine_packed(bytes: &mut [RssShare], mut inverses: super::packed::Packed) {
    affine_in_place(&mut inverses);
    inverses.write_to(bytes);
}

/// affine(x) for every contiguous share x, in place (the end of SubBytes, FIPS-197 §5.1.1).
pub(super) fn affine_in_place(x: &mut super::packed::Packed) {
    x.map_linear_in_place(&super::packed::ByteLinear::new(affine_linear));
    x.add_public(AFFINE_CONSTANT);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::linear::{inv_mix_columns, inv_shift_rows, mix_columns, shift_rows};
    use crate::field::Gf256;
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    /// [`LinearStep::invert`] undoes the driver's linear step in both directions.
    #[test]
    fn linear_step_inversion_undoes_the_drivers_step() {
        let mut rng = ChaCha20Rng::seed_from_u64(41);
        let mut random_block = || -> [Gf256; 16] { core::array::from_fn(|_| Gf256(rng.next_u32() as u8)) };
        for _ in 0..200 {
            let (y, key) = (random_block(), random_block());
            let mut x = y;
            shift_rows(&mut x);
            mix_columns(&mut x);
            add_round_key(&mut x, &key);
            LinearStep::Encryption.invert(&mut x, &key);
            assert_eq!(x, y);
            let mut x = y;
            add_round_key(&mut x, &key);
            inv_mix_columns(&mut x);
            inv_shift_rows(&mut x);
            LinearStep::Decryption.invert(&mut x, &key);
            assert_eq!(x, y);
        }
    }
}
