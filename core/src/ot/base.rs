//! Base OT: a batch of random 1-out-of-2 OTs over Ristretto255, secure against a malicious sender
//! and a malicious receiver, in one round.
//!
//! # What is implemented
//!
//! The OT of Masny and Rindal, "Endemic Oblivious Transfer" (ACM CCS 2019, ePrint 2019/706):
//! oblivious transfer from a key agreement (here Diffie–Hellman over Ristretto255) and a
//! *programmable-once public function* (POPF) that hides which of two keys the receiver can
//! open. The paper builds its random-oracle POPF as a two-round Feistel network; this module
//! uses the simpler form found in common implementations of the paper — one hash-to-group
//! evaluation per branch — and, also as those implementations do, a single sender key `A` for
//! the whole batch instead of one key agreement message per OT. Every hash and every output
//! is bound to the OT's index `i` and to a caller-supplied session tag, so the OTs of a batch,
//! and different batches, never share a hash input.
//!
//! Notation: `G` is the Ristretto255 base point, `H(i, P)` hashes the canonical encoding of a
//! point `P` to a uniform point (SHA-512 of a domain tag, the session tag, `i` and `P`, mapped
//! with [`RistrettoPoint::from_uniform_bytes`]), `KDF` is SHA-256 truncated to 128 bits under
//! another domain tag.
//!
//! 1. Sender: draws a scalar `a ≠ 0` and sends `A = a·G`.
//! 2. Receiver, at the same time, for each OT `i` with choice bit `c`: draws `sk ≠ 0`, sets
//!    `pk = sk·G`, draws a uniformly random point `r_{1−c}`, sets `r_c = pk − H(i, r_{1−c})`,
//!    and sends `(r_0, r_1)`. All pairs travel in one message.
//! 3. Sender: `pk_0 = r_0 + H(i, r_1)`, `pk_1 = r_1 + H(i, r_0)`, and
//!    `m_b = KDF(i, b, A, a·pk_b)` for `b ∈ {0, 1}`.
//! 4. Receiver: `m_c = KDF(i, c, A, sk·A)`.
//!
//! Correctness: if `c = 0` then `pk_0 = r_0 + H(i, r_1) = (pk − H(i, r_1)) + H(i, r_1) = pk`;
//! if `c = 1` then `pk_1 = r_1 + H(i, r_0) = (pk − H(i, r_0)) + H(i, r_0) = pk`. So `pk_c = pk`
//! and `a·pk_c = a·sk·G = sk·A`: both sides feed the KDF the same point (the receiver knows
//! `b = c`, so the KDF can include `b`, which keeps `m_0` and `m_1` apart even for a degenerate
//! pair).
//!
//! The KDF hashes the encoding of `2·S` rather than of the shared point `S` itself: doubling is
//! a bijection of the prime-order group, and it lets each side encode all its shared points
//! with one batched field inversion ([`RistrettoPoint::double_and_compress_batch`]).
//!
//! # Security
//!
//! Endemic security in the random-oracle model (the hashes modelled as random oracles), under
//! the Diffie–Hellman assumption the paper uses for its DH instantiation, here in Ristretto255,
//! against a malicious receiver or a malicious sender. Intuitively: `(r_0, r_1)` is a pair of
//! uniformly random points whatever `c` is, so the sender learns nothing about the choice; and
//! knowing the discrete logarithm of `pk_0 = r_0 + H(i, r_1)` means picking `r_0` after
//! querying `H` at `r_1`, while knowing that of `pk_1` means picking `r_1` after querying `H`
//! at `r_0` — a receiver can do one or the other, not both. As with every endemic OT,
//! a malicious party may bias or choose *its own* outputs (the sender its pair, the receiver
//! its chosen message); outputs are random OTs to be derandomised by the caller, not
//! messages of the caller's choosing. Zhou, Zhang and Ren revisit the random-oracle analysis
//! of this family of OTs ("Endemic Oblivious Transfer via Random Oracles, Revisited",
//! Eurocrypt 2023); what that means for this variant has not been assessed here.
//!
//! The sender's only message is the 32-byte encoding of `A`, the same for every OT of the
//! batch; the receiver's message is `count` pairs of 32-byte point encodings, each pair two
//! independent uniformly random points whatever the choice bit.
//!
//! # Cost
//!
//! One round (both parties send, then receive), one message each way:
//! `32` bytes from the sender and `64·count` bytes from the receiver.
//!
//! # Validation
//!
//! Nothing a peer sends can make either side panic.
//! - A message of the wrong length is [`OtError::Malformed`] (steps `"base-ot sender key"` and
//!   `"base-ot receiver points"`).
//! - Bytes that are not the canonical encoding of a Ristretto255 point are
//!   [`OtError::Malformed`] naming the step, and for the receiver's points, the OT index and
//!   which of `r_0`, `r_1` it was.
//! - The identity point as `A`, as any `r_b`, or as a derived `pk_b` is
//!   [`OtError::CheckFailed`] with check `"base-ot: identity point"` (it decodes fine but an
//!   honest party never sends it).
//! - An empty batch is [`OtError::InvalidRequest`]; a bad peer index is [`OtError::Net`].
//!
//! # Secrets
//!
//! Scalars come from the caller's CSPRNG and are zeroized when dropped, as are the shared
//! points and their encodings. Every multiplication by a secret scalar uses dalek's
//! constant-time routines (the precomputed base-point table for `·G`, and for `sk·A` on large
//! batches a table built from the public `A`); the receiver places `r_c` and `r_{1−c}` with a
//! branch-free swap. No variable-time routine is used.

use super::{Block, OtError};
use crate::net::{Network, PartyId};
use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoBasepointTable, RistrettoPoint};
use curve25519_dalek::traits::Identity;
use curve25519_dalek::Scalar;
use rand_core::{CryptoRng, RngCore};
use sha2::{Digest, Sha256, Sha512};
use zeroize::{Zeroize, Zeroizing};

/// Bytes of an encoded point.
const POINT_BYTES: usize = 32;

/// Bytes the receiver sends per OT: `r_0 ‖ r_1`.
const PAIR_BYTES: usize = 2 * POINT_BYTES;

/// Domain tag of the hash to the group `H`.
const H2G_TAG: &[u8] = b"chorus/ot/base/masny-rindal/hash-to-group/v1";

/// Domain tag of the key derivation.
const KDF_TAG: &[u8] = b"chorus/ot/base/masny-rindal/kdf/v1";

/// The check name of every identity-point rejection.
const IDENTITY_CHECK: &str = "base-ot: identity point";

/// Step name of the sender's message.
const STEP_SENDER: &str = "base-ot sender key";

/// Step name of the receiver's message.
const STEP_RECEIVER: &str = "base-ot receiver points";

/// From this batch size on, the receiver builds a precomputed table of `A` for its `sk·A`:
/// building one costs about as much as two dozen plain multiplications, and a multiplication
/// through it about a third of a plain one, so it pays off from roughly 35 OTs on.
const RECEIVER_TABLE_MIN: usize = 64;

/// The session's hash functions, with the domain tag and the session tag already absorbed.
struct Oracles {
    h2g: Sha512,
    kdf: Sha256,
}

impl Oracles {
    fn new(session: &[u8]) -> Self {
        let len = (session.len() as u64).to_le_bytes();
        let h2g = Sha512::new().chain_update(H2G_TAG).chain_update(len).chain_update(session);
        let kdf = Sha256::new().chain_update(KDF_TAG).chain_update(len).chain_update(session);
        Oracles { h2g, kdf }
    }

    /// `H(i, P)` for the canonical encoding `p` of a point `P`.
    fn h2g(&self, i: usize, p: &[u8; POINT_BYTES]) -> RistrettoPoint {
        let digest = self.h2g.clone().chain_update((i as u64).to_le_bytes()).chain_update(p).finalize();
        RistrettoPoint::from_uniform_bytes(&digest.into())
    }

    /// `KDF(i, b, A, S)` given the encodings of `A` and of `2·S`.
    fn kdf(&self, i: usize, b: u8, a: &[u8; POINT_BYTES], s2: &CompressedRistretto) -> Block {
        let mut digest = self
            .kdf
            .clone()
            .chain_update((i as u64).to_le_bytes())
            .chain_update([b])
            .chain_update(a)
            .chain_update(s2.as_bytes())
            .finalize();
        let block = u128::from_le_bytes(digest[..16].try_into().expect("SHA-256 has 32 bytes"));
        digest.as_mut_slice().zeroize();
        block
    }
}

/// A uniformly random non-zero scalar.
fn nonzero_scalar<R: RngCore + CryptoRng>(rng: &mut R) -> Scalar {
    loop {
        let s = Scalar::random(rng);
        if s != Scalar::ZERO {
            return s;
        }
    }
}

/// Swaps `x` and `y` if `swap`, without a branch on it.
fn ct_swap(swap: bool, x: &mut [u8; POINT_BYTES], y: &mut [u8; POINT_BYTES]) {
    let mask = core::hint::black_box(0u8.wrapping_sub(swap as u8));
    for (a, b) in x.iter_mut().zip(y.iter_mut()) {
        let t = mask & (*a ^ *b);
        *a ^= t;
        *b ^= t;
    }
}

/// Decodes a canonical point encoding; `None` if `bytes` is not one.
fn decode(bytes: &[u8]) -> Option<([u8; POINT_BYTES], RistrettoPoint)> {
    let enc: [u8; POINT_BYTES] = bytes.try_into().ok()?;
    let point = CompressedRistretto(enc).decompress()?;
    Some((enc, point))
}

/// `count * per` bytes, or an [`OtError::InvalidRequest`] if that overflows.
fn message_len(count: usize, per: usize) -> Result<usize, OtError> {
    count
        .checked_mul(per)
        .ok_or_else(|| OtError::InvalidRequest(format!("{count} base OTs do not fit in one message")))
}

/// Sender side: `count` random OTs with `peer`; returns the message pairs `[m0, m1]`.
///
/// Sends `A` (32 bytes), then receives the receiver's `64·count` bytes: one round. `session`
/// must be the same tag the receiver uses, and different for every batch run between the same
/// two parties (for example the session identifier and a counter).
pub async fn send_random<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    peer: PartyId,
    count: usize,
    session: &[u8],
    rng: &mut R,
) -> Result<Vec<[Block; 2]>, OtError> {
    let (sender, msg) = BaseSender::start(count, session, rng)?;
    net.check_peer(peer)?;
    net.send(peer, msg)?;
    sender.finish(&net.recv(peer).await?)
}

/// Receiver side: one random OT per choice bit with `peer`; returns `m_{c_i}` for each `i`.
///
/// Sends its `64·choices.len()` bytes, then receives `A` (32 bytes): one round. `session` must
/// be the tag the sender uses.
pub async fn receive_random<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    peer: PartyId,
    choices: &[bool],
    session: &[u8],
    rng: &mut R,
) -> Result<Vec<Block>, OtError> {
    let (receiver, msg) = BaseReceiver::start(choices, session, rng)?;
    net.check_peer(peer)?;
    net.send(peer, msg)?;
    receiver.finish(&net.recv(peer).await?)
}

/// The sender of one batch between its message and the receiver's, for callers that run several
/// batches in the same round ([`send_random`] is `start`, send, receive, `finish`).
pub(crate) struct BaseSender {
    oracles: Oracles,
    count: usize,
    a: Zeroizing<Scalar>,
    a_enc: [u8; POINT_BYTES],
}

impl BaseSender {
    /// Draws `a` for `count` OTs; returns the state and the message (`A`) to send.
    pub(crate) fn start<R: RngCore + CryptoRng>(
        count: usize,
        session: &[u8],
        rng: &mut R,
    ) -> Result<(Self, Vec<u8>), OtError> {
        if count == 0 {
            return Err(OtError::InvalidRequest("zero base OTs requested".into()));
        }
        message_len(count, PAIR_BYTES)?;
        let a = Zeroizing::new(nonzero_scalar(rng));
        let a_enc = RistrettoPoint::mul_base(&a).compress().to_bytes();
        Ok((BaseSender { oracles: Oracles::new(session), count, a, a_enc }, a_enc.to_vec()))
    }

    /// The message pairs, from the receiver's message.
    pub(crate) fn finish(self, msg: &[u8]) -> Result<Vec<[Block; 2]>, OtError> {
        let BaseSender { oracles, count, a, a_enc } = self;
        let expected = count * PAIR_BYTES;
        if msg.len() != expected {
            return Err(OtError::malformed(
                STEP_RECEIVER,
                format!("expected {expected} bytes ({count} OTs of {PAIR_BYTES}), got {}", msg.len()),
            ));
        }

        // Decode and check every point before any secret-dependent work.
        let mut pks = Vec::with_capacity(2 * count);
        for (i, pair) in msg.chunks_exact(PAIR_BYTES).enumerate() {
            let mut r = [([0u8; POINT_BYTES], RistrettoPoint::identity()); 2];
            for (b, (half, slot)) in pair.chunks_exact(POINT_BYTES).zip(r.iter_mut()).enumerate() {
                *slot = decode(half).ok_or_else(|| {
                    OtError::malformed(
                        STEP_RECEIVER,
                        format!("r_{b} of OT {i} is not a canonical Ristretto255 encoding"),
                    )
                })?;
                if slot.0 == [0u8; POINT_BYTES] {
                    // The identity's canonical encoding is all zeros, and it is the only encoding.
                    return Err(OtError::CheckFailed { check: IDENTITY_CHECK });
                }
            }
            let [(r0_enc, r0), (r1_enc, r1)] = r;
            let pk0 = r0 + oracles.h2g(i, &r1_enc);
            let pk1 = r1 + oracles.h2g(i, &r0_enc);
            if pk0 == RistrettoPoint::identity() || pk1 == RistrettoPoint::identity() {
                return Err(OtError::CheckFailed { check: IDENTITY_CHECK });
            }
            pks.push(pk0);
            pks.push(pk1);
        }

        let shared: Zeroizing<Vec<RistrettoPoint>> = Zeroizing::new(pks.iter().map(|pk| *a * pk).collect());
        let encoded = Zeroizing::new(RistrettoPoint::double_and_compress_batch(shared.iter()));
        Ok(encoded
            .chunks_exact(2)
            .enumerate()
            .map(|(i, s)| [oracles.kdf(i, 0, &a_enc, &s[0]), oracles.kdf(i, 1, &a_enc, &s[1])])
            .collect())
    }
}

/// The receiver of one batch between its message and the sender's (see [`BaseSender`];
/// [`receive_random`] is `start`, send, receive, `finish`).
pub(crate) struct BaseReceiver {
    oracles: Oracles,
    choices: Vec<bool>,
    sks: Zeroizing<Vec<Scalar>>,
}

impl BaseReceiver {
    /// Draws the secret keys for `choices`; returns the state and the message (`r_0 ‖ r_1` per
    /// OT) to send.
    pub(crate) fn start<R: RngCore + CryptoRng>(
        choices: &[bool],
        session: &[u8],
        rng: &mut R,
    ) -> Result<(Self, Vec<u8>), OtError> {
        let count = choices.len();
        if count == 0 {
            return Err(OtError::InvalidRequest("zero base OTs requested".into()));
        }
        let len = message_len(count, PAIR_BYTES)?;
        let oracles = Oracles::new(session);

        let sks: Zeroizing<Vec<Scalar>> = Zeroizing::new((0..count).map(|_| nonzero_scalar(rng)).collect());
        // r_{1−c} = 2·Q for a uniform Q: uniform as well, and encoded in one batch.
        let mut seed = Zeroizing::new([0u8; 64]);
        let halves: Vec<RistrettoPoint> = (0..count)
            .map(|_| {
                rng.fill_bytes(&mut seed[..]);
                RistrettoPoint::from_uniform_bytes(&seed)
            })
            .collect();
        let others = RistrettoPoint::double_and_compress_batch(&halves);

        let mut msg = Vec::with_capacity(len);
        for (i, ((sk, other), &c)) in sks.iter().zip(&others).zip(choices).enumerate() {
            let mut other = other.to_bytes();
            let pk = Zeroizing::new(RistrettoPoint::mul_base(sk));
            let mut chosen = (*pk - oracles.h2g(i, &other)).compress().to_bytes();
            // (chosen, other) is (r_0, r_1) for c = 0 and (r_1, r_0) for c = 1.
            ct_swap(c, &mut chosen, &mut other);
            msg.extend_from_slice(&chosen);
            msg.extend_from_slice(&other);
        }
        Ok((BaseReceiver { oracles, choices: choices.to_vec(), sks }, msg))
    }

    /// `m_{c_i}` for each choice `c_i`, from the sender's message.
    pub(crate) fn finish(self, a_msg: &[u8]) -> Result<Vec<Block>, OtError> {
        let BaseReceiver { oracles, choices, sks } = self;
        if a_msg.len() != POINT_BYTES {
            return Err(OtError::malformed(
                STEP_SENDER,
                format!("expected {POINT_BYTES} bytes, got {}", a_msg.len()),
            ));
        }
        let (a_enc, a_point) = decode(a_msg)
            .ok_or_else(|| OtError::malformed(STEP_SENDER, "A is not a canonical Ristretto255 encoding"))?;
        if a_enc == [0u8; POINT_BYTES] {
            return Err(OtError::CheckFailed { check: IDENTITY_CHECK });
        }

        let shared: Zeroizing<Vec<RistrettoPoint>> = Zeroizing::new(if choices.len() >= RECEIVER_TABLE_MIN {
            let table = RistrettoBasepointTable::create(&a_point);
            sks.iter().map(|sk| sk * &table).collect()
        } else {
            sks.iter().map(|sk| sk * a_point).collect()
        });
        let encoded = Zeroizing::new(RistrettoPoint::double_and_compress_batch(shared.iter()));
        Ok(encoded
            .iter()
            .zip(&choices)
            .enumerate()
            .map(|(i, (s, &c))| oracles.kdf(i, c as u8, &a_enc, s))
            .collect())
    }
}

#[cfg(test)]
#[path = "base_tests.rs"]
mod tests;
