//! The computing parties' view of a session: parties 0 and 1 of a three-member session keep their
//! indices and the dealer (member 2) is hidden, so the two-party protocols run unchanged; a
//! session in which every member computes is seen whole.

use crate::net::{NetError, NetStats, Network, PartyId};
use core::future::Future;

/// Parties `0..parties` of an underlying session with as many members or more, as a
/// [`Network`] of `parties` (two, beside a dealer, unless made with [`TwoPartyView::first`]).
#[derive(Debug)]
pub struct TwoPartyView<'a, N> {
    inner: &'a mut N,
    parties: usize,
}

impl<'a, N: Network> TwoPartyView<'a, N> {
    /// The view of party 0 or 1 of `inner` (the caller checked the index).
    pub fn new(inner: &'a mut N) -> Self {
        TwoPartyView { inner, parties: 2 }
    }

    /// The view of the first `parties` members of `inner` (at most all of them; the caller
    /// checked that this member is one of them).
    pub fn first(inner: &'a mut N, parties: usize) -> Self {
        let parties = parties.min(inner.parties());
        TwoPartyView { inner, parties }
    }
}

impl<N: Network> Network for TwoPartyView<'_, N> {
    fn party(&self) -> PartyId {
        self.inner.party()
    }

    fn parties(&self) -> usize {
        self.parties
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
