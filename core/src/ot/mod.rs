//! The oblivious-transfer engine every two-party preprocessing in Chorus builds on (TinyOT bits
//! for TinyTable, and later MiniMac and Coral): base OT, OT extension, and the correlated OTs
//! derived from it. I/O-free, async over [`Network`](crate::net::Network) like the protocols.
//!
//! - [`base`]: maliciously secure base OT over Ristretto255 (Masny–Rindal, "Endemic Oblivious
//!   Transfer", CCS 2019), one round for a whole batch.
//! - [`extension`]: maliciously secure OT extension (KOS15): correlated, random and
//!   chosen-message OT in batches of any size, columns streamed in bounded chunks.
//! - [`softspoken`]: maliciously secure OT extension with fewer bytes (SoftSpoken OT, Roy 2022,
//!   with KOS15's check): the same correlated OTs for `16/k` bytes per OT, `k` ∈ {1, 2, 4, 8}.
//! - [`Extension`] ([`dispatch`]): the choice between the two, their exact byte costs, and
//!   [`ExtSender`] / [`ExtReceiver`] holding either.
//! - [`cope`]: correlated OT over GF(2^128) (MASCOT's COPE with its check) for authenticating
//!   field elements.
//! - [`tinyot`]: TinyOT authenticated bits and AND triples (WRK17 / KRRW18 leaky AND with
//!   bucketing) for two parties, from either extension.
//! - [`multi`]: TinyOT authenticated bits and AND triples for any n ≥ 2 parties (pairwise MACs,
//!   WRK17 / HSS17), from pairwise correlated OT.
//! - [`prg`]: the AES-CTR PRG and the fixed-key-AES correlation-robust hash.
//! - [`transpose`]: the bit-matrix transpose of the extension.
//! - [`block`]: the 128-bit block type and its byte encoding.
//!
//! Trust model: every party but one may be malicious (two parties for the pairwise pieces, up
//! to n − 1 of n in [`multi`]); every check failure is an [`OtError::CheckFailed`] and the batch
//! must be discarded.

pub(crate) mod any_tiny;
pub mod base;
pub mod block;
mod coins;
pub mod cope;
pub mod dispatch;
mod error;
pub mod extension;
pub mod multi;
pub mod prg;
pub mod softspoken;
pub mod tinyot;
pub mod transpose;

pub use block::Block;
pub use cope::{CopeReceiver, CopeSender};
pub use dispatch::{ExtReceiver, ExtSender, Extension};
pub(crate) use error::begin_step;
pub use error::OtError;
pub use extension::{OtExtReceiver, OtExtSender};
pub use softspoken::{SoftSpokenReceiver, SoftSpokenSender};
pub use tinyot::{ABit, TinyOt};
