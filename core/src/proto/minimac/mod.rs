//! MiniMac: actively secure dishonest-majority MPC for boolean circuits over Reed-Solomon
//! codewords (Damgård–Zakarias, TCC 2013), with the improvements of the implementation study by
//! Damgård, Lauritsen and Toft ("MiniTrix", `/work/shared/papers/minimac-implementation.txt`).
//!
//! # What is implemented, and where in the paper
//!
//! - **Representation** (§2, Fig. 1–2): a wire of up to `8·k` instances is one codeword of a
//!   systematic Reed-Solomon code `C` over GF(2^8), or of its Schur square `C*` (§2, §2.1),
//!   additively shared with a shared MAC `α ∗ c` (per-party key shares `α_p`; see [`prep`] for why
//!   this SPDZ-style form replaces the paper's per-share MACs). Codes: (256, 120) with matrix
//!   encoding (§2.1, the default: more AES per second in `chorus-bench-minimac`, see
//!   [`CodeChoice::DEFAULT`]) and (255, 85) with FFT encoding (§4.2), [`CodeChoice`], from
//!   [`crate::code`]. The paper found (255, 85) faster because its online phase encodes every
//!   product back into `C`; here products stay in `C*`, opened values are encoded bit plane by
//!   bit plane by table (§4.5), and membership is tested once per batched check, so the FFT's
//!   advantage matters little and the larger batch of (256, 120) wins.
//! - **Linear gates** locally: XOR adds shares; NOT and constants add the all-`0xff` codeword
//!   (zero-degree constants, §4.5) — [`online`].
//! - **AND gates** by the bit-packing multiplication of §4.3 (all eight bits of every symbol carry
//!   an instance: 680 or 960 instances per batch), with triples `[[a]]*, [[b]]*, [[a ∧ b]]*` and bit
//!   decompositions `[[a^i]], [[b^i]]`; products stay in `C*` with no conversion back to `C`
//!   (zero-degree constants trick, §4.3 end / §4.5); the eight bit planes of the opened values are
//!   encoded by XOR of generator rows, four rows per table lookup (§4.5) — [`mult`].
//! - **Simultaneous multiplications** (§4.4): all AND gates of one AND layer open their `ε, δ` in
//!   one message per peer and round; [`Options::simultaneous`] turns it off (one round per gate).
//! - **Checks** ([`checks`]): every opened value is checked before any output share is sent, by
//!   `ρ = 17` random linear combinations (coins from a commit-and-open coin toss) tested for
//!   membership in `C*` and against the MACs; the output openings get the same check before any
//!   output is returned. Deviations give typed [`MiniMacError`]s naming the check.
//! - **Preprocessing** ([`prep`]): the [`MiniMacPreprocessing`] trait, the OT-based provider
//!   among 2 to 8 parties [`OtPreprocessing`] (§2.2's "modify the TinyOT preprocessing", as in \[FKOS15\]: TinyOT
//!   triples, COPE over GF(2^8)^n as in MASCOT, codeword, zero-data, consistency and MAC checks;
//!   TinyOT triples only for the positions of the instances a batch uses, public zero data
//!   elsewhere; [`prep::ot`]) and the **trusted dealer** ([`TrustedDealer`], [`DealtMaterial`]; labelled, see
//!   its trust model).
//! - **Outputs to one party** (Fig. 2 "Output" step 1, "opened privately to each player"): an
//!   output value may go to every party or to one party `p` only ([`evaluate_revealed`],
//!   [`PrepRequest::with_recipients`]). Because MACs are shared here, the private opening is a
//!   masked one: the dealer adds per such wire a random `[[s]]*` whose data only `p` knows, `y + s`
//!   is opened and checked with all other output openings, and `p` subtracts `s` (argument in
//!   [`online`]). Non-recipients get `None`.
//! - **AES-128** ([`aes`]) and any Bristol circuit ([`evaluate`]).
//!
//! # Parties
//!
//! Any n ≥ 2. Nothing in the online phase is two-party specific: openings send each share to every
//! peer (`n - 1` messages per round), the coin toss and MAC check are symmetric commit-and-open,
//! and with three or more parties every check also compares a hash of each party's view of all
//! opened values, so a party that sends different shares to different peers is caught
//! ([`MiniMacError::TranscriptMismatch`]). Communication per party grows with `n - 1`; the §4.1
//! "symmetric" opening is what this does anyway.
//!
//! # Security level
//!
//! A deviation survives one batched check with probability at most `256^-ρ + 256^-d*` (argument
//! in [`checks`]): with `ρ = 17`, at most `2^-136 + 2^-144` for (256, 120) (`d* = 18`) and
//! `2^-136 + 2^-696` for (255, 85) (`d* = 87`) — [`MiniMacCode::security_bits`].
//!
//! # Invariants
//!
//! - The sum of all parties' value shares of a wire is a codeword of `C*` whose first `k` symbols
//!   are the wire's bits; the sum of their MAC shares is `α ∗` that codeword.
//! - Every triple, input mask and output mask is used once; material is consumed in circuit
//!   AND-gate order.
//! - Nothing secret is revealed before the gate check passed; outputs are returned only after the
//!   output check passed. Opened values are uniformly random codewords of `C*` (masked by the
//!   uniformly random `[[a]]*, [[b]]*`), and every output that depends on an AND gate carries the
//!   fresh randomness of that gate's `[[a ∧ b]]*` in its non-data coefficients; an output for one
//!   party is opened as `y + s` with `s` uniform in `C*`, so the others see a uniform codeword.
//! - Variable-time code (the bit-plane tables) only ever sees opened, public values.
//!
//! # Trust model
//!
//! Malicious security with abort against any number of corrupt parties up to `n - 1`, in the
//! preprocessing model. With [`OtPreprocessing`] (2 to 8 parties) nothing is trusted but the
//! parties; **with the trusted dealer the dealer must be honest and collude with nobody**. The
//! messages themselves run over the session's secure channel ([`crate::net`]).
//!
//! # Not implemented
//!
//! - Switches to turn off the bit-packing trick (§4.3) or zero-degree constants (§4.5): both are
//!   built into the representation, so only simultaneous multiplications (§4.4) can be switched.
//!
//! # Communication (payload bytes each party sends to each peer)
//!
//! Every message has a [`msg::HEADER_BYTES`]-byte header. Input: `64 + k·w_p` (two seed
//! commitments, then the data of the `w_p` input wires party `p` owns); each multiplication
//! round: `2n` per AND gate (the paper's §4.4 counts `4n` because it also sends per-share MACs);
//! each check: `32` (seed) + `32` (commitment) + `ρ·n + 32` (MAC check values and nonce, plus a
//! 32-byte view hash with three or more parties); output opening: `n` per output wire, whether it
//! goes to everybody or (masked) to one party. Rounds:
//! `1 + (AND depth) + 3 + 1 + 3`. The tests assert these numbers exactly for one AES batch.

pub mod aes;
pub mod checks;
pub mod error;
pub mod msg;
mod mult;
pub mod online;
pub mod params;
pub mod prep;
pub mod prep_codec;

#[cfg(test)]
mod tests;

pub use error::{MiniMacError, PrepCheck, Step};
pub use online::{evaluate, evaluate_revealed, BatchOutputs, RevealedOutputs};
pub use params::{CodeChoice, MiniMacCode, Options, COMBINATIONS};
pub use prep::{DealtMaterial, MiniMacPreprocessing, OtPreprocessing, PartyPrep, PrepRequest, TrustedDealer};
