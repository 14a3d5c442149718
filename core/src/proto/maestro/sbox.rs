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

use super::error::MaestroError;
use super::rss::RssShare;
use crate::aes::sbox::{affine_linear, inv_affine_linear, AFFINE_CONSTANT, INV_AFFINE_CONSTANT};
use crate::aes::AesByte;
use crate::net::Network;
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
    /// cipher output. Only the (3,3) LUT-256 layer, whose lookups output additive shares
    /// (Protocol 7 step 8), communicates here; by default it does nothing.
    fn to_replicated<N: Network>(
        &mut self,
        _net: &mut N,
        _bytes: &mut [Self::Share],
    ) -> impl Future<Output = Result<(), MaestroError>> {
        async { Ok(()) }
    }

    /// One encryption round on every block after the previous round's AddRoundKey: SubBytes
    /// ([`SboxLayer::sub_bytes`] on all 16·s bytes, one call) and then the round's linear part
    /// ([`AesByte::round_linear`]: ShiftRows, MixColumns unless `last`, AddRoundKey with
    /// `round_key`). The AES driver calls this once per round. A layer whose S-box output is in
    /// a faster layout than `[Self::Share]` may override it to run the same linear maps there
    /// before writing the shares back; the messages are those of `sub_bytes`.
    fn sub_bytes_and_round_linear<N: Network>(
        &mut self,
        net: &mut N,
        blocks: &mut [[Self::Share; 16]],
        round_key: &[Self::Share; 16],
        last: bool,
    ) -> impl Future<Output = Result<(), MaestroError>> {
        async move {
            self.sub_bytes(net, blocks.as_flattened_mut()).await?;
            for block in blocks.iter_mut() {
                AesByte::round_linear(block, round_key, last);
            }
            Ok(())
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
