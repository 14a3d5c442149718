//! [`Preprocessing::Ot`](super::Preprocessing::Ot) for the S-box-table AES path: the two parties
//! build the §2.3 S-box tables themselves with the §4 construction
//! ([`construct_malicious_aes_tables`], TinyTable paper §4 "Preprocessing for AES") over
//! authenticated bits and AND triples from TinyOT ([`OtAuthBitPool`] over [`OtTinyOt`]); no dealer
//! (see the [trust model](super)).
//!
//! 1. One TinyOT setup (base OTs and OT extension both ways) under the job's OT session tag
//!    ([`super::ot_prep::session_tag`]), with its own ChaCha20 stream seeded from the job's `rng`.
//! 2. In chunks of [`CHUNK_BLOCKS`] blocks, so that the pool of triples (39 520 per block, three
//!    authenticated bits each) stays bounded: fill the pool over OT, then run the construction
//!    (3 rounds), and append the chunk's material to the batch's.
//!
//! The material is always the authenticated (§3) form with k = 64: there is no cheaper
//! semi-honest construction, so a semi-honest job on this path runs the malicious online phase
//! too (it then also detects a deviating peer online). The §3.3 batched opening's public fixed
//! AES key is derived from the agreed spec digest ([`hash_key`]), so both parties hold it without
//! a message; the opening's soundness rests on `F` being a random permutation (§3.3), which a key
//! known in advance keeps.

use super::ot_prep::{session_tag, setup};
use super::JobError;
use crate::aes::Direction;
use crate::net::{Network, PartyId};
use crate::proto::tinytable::sbox::construct::{construct_malicious_aes_tables, per_block};
use crate::proto::tinytable::sbox::prep::MaliciousAesPrep;
use crate::proto::tinytable::{OtAuthBitPool, OtTinyOt, Reveal, TinyTableError};
use rand_core::{CryptoRng, RngCore};
use sha2::{Digest, Sha256};

/// Blocks whose tables are built per pool of OT-generated bits and triples. A trade-off: each
/// chunk costs about 17 rounds (TinyOT's and the construction's), so larger chunks save round
/// trips, while the pool and the construction's vectors grow with it (about 6 MB of triples per
/// block in the construction's format) and larger working sets ran slower per block in the
/// benchmarks (`docs/performance.md`). Larger chunks would not lower TinyOT's bucket size below 4
/// until 27 blocks (2^20 triples).
pub const CHUNK_BLOCKS: usize = 4;

/// The §3.3 hash key of a job whose agreed spec digest is `digest`.
pub fn hash_key(digest: &[u8]) -> [u8; 16] {
    let full =
        Sha256::new().chain_update(b"chorus/tinytable-job/sbox-ot/hash-key/").chain_update(digest).finalize();
    let mut key = [0u8; 16];
    key.copy_from_slice(&full[..16]);
    key
}

/// Steps 1 and 2 of the module docs: this party's material for `blocks` blocks with `key_owner`
/// (with `shared_key`, the party other than the plaintext owner; both input key shares) and
/// `reveal`, after agreement on `digest` (both security levels get this material).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn make<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    direction: Direction,
    key_owner: PartyId,
    shared_key: bool,
    reveal: Reveal,
    blocks: usize,
    digest: &[u8],
    rng: &mut R,
) -> Result<MaliciousAesPrep, JobError> {
    let mut source = setup::<N, R, u64>(net, &session_tag(digest), rng).await?;
    let key = (key_owner, shared_key);
    Ok(build_tables(net, &mut source, direction, key, reveal, blocks, hash_key(digest), CHUNK_BLOCKS).await?)
}

/// Step 2 over an existing TinyOT `source` (set up with the peer): the authenticated S-box
/// tables of `blocks` blocks (at least 1), built `chunk_blocks` at a time (the jobs use
/// [`CHUNK_BLOCKS`]), with the §3.3 hash key `hash_key`. `key` is the key owner and whether the
/// key is XOR-shared (as [`construct_malicious_aes_tables`] takes them).
#[allow(clippy::too_many_arguments)]
pub async fn build_tables<N: Network>(
    net: &mut N,
    source: &mut OtTinyOt<u64>,
    direction: Direction,
    key: (PartyId, bool),
    reveal: Reveal,
    blocks: usize,
    hash_key: [u8; 16],
    chunk_blocks: usize,
) -> Result<MaliciousAesPrep, TinyTableError> {
    let party = net.party();
    let mut material: Option<MaliciousAesPrep> = None;
    let mut done = 0;
    while done < blocks {
        let chunk = chunk_blocks.max(1).min(blocks - done);
        let (bits, triples) = per_block(key.1);
        let mut pool = OtAuthBitPool::generate(net, source, chunk * bits, chunk * triples).await?;
        let part =
            construct_malicious_aes_tables(net, &mut pool, direction, key.0, key.1, reveal, chunk, hash_key)
                .await?;
        match material.as_mut() {
            None => material = Some(part),
            Some(m) => m.append(part).map_err(|reason| TinyTableError::PrepMismatch { party, reason })?,
        }
        done += chunk;
    }
    material
        .ok_or_else(|| TinyTableError::PrepMismatch { party, reason: "S-box tables for zero blocks".into() })
}
