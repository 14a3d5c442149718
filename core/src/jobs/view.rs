//! The two computing parties' view of a three-member session: parties 0 and 1 keep their
//! indices, the dealer (member 2) is hidden, so the two-party protocols run unchanged.

use crate::net::{NetError, NetStats, Network, PartyId};
use core::future::Future;

/// Parties 0 and 1 of an underlying session with more members, as a two-party [`Network`].
#[derive(Debug)]
pub struct TwoPartyView<'a, N> {
    inner: &'a mut N,
}

impl<'a, N: Network> TwoPartyView<'a, N> {
    /// The view of party 0 or 1 of `inner` (the caller checked the index).
    pub fn new(inner: &'a mut N) -> Self {
        TwoPartyView { inner }
    }
}

impl<N: Network> Network for TwoPartyView<'_, N> {
    fn party(&self) -> PartyId {
        self.inner.party()
    }

    fn parties(&self) -> usize {
        2
    }

    fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError> {
        self.check_peer(to)?;
        self.inner.send(to, msg)
    }

    fn recv(&mut self, from: PartyId) -> impl Future<Output = Result<Vec<u8>, NetError>> {
        let checked = self.check_peer(from);
        let inner = &mut *self.inner;
        async move {
            checked?;
            inner.recv(from).await
        }
    }

    fn stats(&self) -> NetStats {
        self.inner.stats()
    }
}
