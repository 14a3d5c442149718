//! Hash-compare of opened values (MAESTRO §2.4, "Opening Replicated Shares", after Furukawa et
//! al. \[31\]): openings are optimistic — each party receives only the one component it misses —
//! and are confirmed in a batch by exchanging SHA-256 hashes of everything the parties opened.
//!
//! Every value a party learns that all three parties should agree on goes into its
//! [`PublicView`]: reconstructed openings, coins, the masked LUT indices c = v + r, and the
//! third input component an input owner sends to both other parties. [`PublicView::compare`]
//! sends the 32-byte digest to *both* other parties and checks both digests received.
//!
//! Why this suffices with one corruption among three parties: in an opening, party j takes its
//! missing component from j+1 only; if j+1 lies, j reconstructs a wrong value while the other
//! honest party, served by j, reconstructs the right one, so their views differ. Likewise a party
//! that sends different LUT-index shares or input components to the two others splits their
//! views. Both honest parties compare with each other, so both detect any split and abort with
//! [`MaestroError::OpeningMismatch`]. Cost: 64 bytes per party (32 to each peer), one round.

use crate::net::{Network, PartyId};
use crate::proto::maestro::error::{MaestroError, Step};
use crate::proto::maestro::msg::{recv_bytes, send_bytes};
use sha2::{Digest, Sha256};

/// Length of a view digest in bytes.
pub const DIGEST_BYTES: usize = 32;

/// A running SHA-256 over the values this party opened since the last comparison.
#[derive(Clone, Debug, Default)]
pub struct PublicView {
    hasher: Sha256,
    pending: bool,
}

impl PublicView {
    /// An empty view.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds opened values of `step` (tagged with the step and length, so different sequences of
    /// openings never hash alike).
    pub fn absorb(&mut self, step: Step, bytes: &[u8]) {
        self.hasher.update([step as u8]);
        self.hasher.update((bytes.len() as u64).to_le_bytes());
        self.hasher.update(bytes);
        self.pending = true;
    }

    /// Whether values were absorbed since the last comparison.
    pub fn is_pending(&self) -> bool {
        self.pending
    }

    /// Exchanges digests with both other parties (one round, 32 bytes to each) and starts a new
    /// view. Fails with [`MaestroError::OpeningMismatch`] naming the first peer whose digest
    /// differs.
    pub async fn compare<N: Network>(&mut self, net: &mut N) -> Result<(), MaestroError> {
        let digest = self.hasher.finalize_reset();
        self.pending = false;
        let me = net.party();
        let peers: [PartyId; 2] = [(me + 1) % 3, (me + 2) % 3];
        for &p in &peers {
            send_bytes(net, p, digest.to_vec(), Step::ViewCompare)?;
        }
        let mut mismatch = None;
        for &p in &peers {
            let theirs = recv_bytes(net, p, DIGEST_BYTES, Step::ViewCompare).await?;
            if theirs[..] != digest[..] && mismatch.is_none() {
                mismatch = Some(p);
            }
        }
        match mismatch {
            Some(peer) => Err(MaestroError::OpeningMismatch { peer }),
            None => Ok(()),
        }
    }
}
