//! Malicious security with abort for MAESTRO (§2.4, §2.5, §2.7, §3.2 Eq. (3), Appendix A
//! Eq. (5)/(6)): the pieces a malicious S-box layer ([`super::malicious`]) runs on top of the
//! semi-honest protocols.
//!
//! - [`coin`]: 𝓕_coin as Reconst of a PRSS random sharing (§2.5), no Fiat–Shamir;
//! - [`embed`]: the Table 2 / Appendix A lifts as masked bases applied to many words at once;
//! - [`rss64`]: replicated GF(2^64) shares, 𝓕_rand, weak multiplication's resharing, openings;
//! - [`triples`]: the log of every small-field multiplication, lifted into GF(2^64) with the
//!   Table 2 embeddings only at verification time, including the single-check relations Eq. (3)
//!   (tower-field inversion) and Eq. (5)/(6) (one-hot preprocessing);
//! - [`inner_product`]: Protocol 2 (recursive halving with weak dot products, O(log N) rounds)
//!   ending in Protocol 1 (CheckTriple with re-randomisation), with lazy reduction;
//! - [`view`]: §2.4 hash-compare of everything opened, before any output.
//!
//! Verification failure is a typed error ([`super::MaestroError::VerificationFailed`],
//! [`super::MaestroError::OpeningMismatch`]), and the malicious sessions reveal outputs only after
//! it passed.

pub mod coin;
pub mod embed;
pub mod inner_product;
pub mod rss64;
pub mod triples;
pub mod view;

pub use inner_product::verify_log;
pub use triples::TripleLog;
pub use view::PublicView;

#[cfg(test)]
mod tests;
