//! MPC protocols over the [`crate::net::Network`] abstraction.
//!
//! - [`coral`]: RMFE-packed boolean circuits (Coral), malicious security with a dishonest
//!   majority, any n ≥ 2, trusted-dealer preprocessing.
//! - [`maestro`]: three-party honest-majority AES from MAESTRO (Morita et al., USENIX Security
//!   2025) on (2,3) replicated secret sharing over GF(2^8); currently the semi-honest
//!   GF(2^8)-circuit S-box variant.
//! - [`minimac`]: MiniMac (Damgård–Zakarias) with the MiniTrix improvements of Damgård–Lauritsen–
//!   Toft: n ≥ 2 parties, malicious security with abort, bit-packed AND gates over Reed-Solomon
//!   codewords, trusted-dealer preprocessing.
//! - [`tinyot`]: multi-party TinyOT (GMW with pairwise MACs and Beaver triples): any circuit
//!   among n ≥ 2 parties, malicious security with a dishonest majority, material over OT.
//! - [`tinytable`]: two-party TinyTable (Damgård et al., CRYPTO 2017) with trusted-dealer
//!   preprocessing; semi-honest online phase for Bristol circuits and table-based AES.
//!
//! `frame` holds the message framing (kind byte, sequence number) that MiniMac and Coral share.

pub mod coral;
pub(crate) mod frame;
pub mod maestro;
pub mod minimac;
pub mod tinyot;
pub mod tinytable;
