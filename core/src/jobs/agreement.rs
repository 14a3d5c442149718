//! Spec agreement, the first step of every job: each member sends every other member the SHA-256
//! digest of the spec's canonical encoding and compares what it receives with its own. Nothing
//! secret is sent before it passes, so members that were started with different specs (blocks,
//! roles, protocol options, circuit) fail with [`JobError::SpecMismatch`] naming a disagreeing
//! member instead of computing garbage.

use super::error::JobError;
use crate::net::Network;
use sha2::{Digest, Sha256};

/// Agrees on `encoded_spec` with every other member of `net`'s session; returns the digest (the
/// agreed spec's identity, from which OT preprocessing derives its session tag).
pub(crate) async fn agree_on_spec<N: Network>(net: &mut N, encoded_spec: &[u8]) -> Result<Vec<u8>, JobError> {
    let digest = Sha256::digest(encoded_spec).to_vec();
    net.broadcast(&digest)?;
    let me = net.party();
    for peer in (0..net.parties()).filter(|&p| p != me) {
        if net.recv(peer).await? != digest {
            return Err(JobError::SpecMismatch(peer));
        }
    }
    Ok(digest)
}
