//! A test network that lets a party deviate on the wire: [`Tamper`] wraps another [`Network`] and
//! passes every message this party sends, with its index (from 0), through an edit closure first.
//! The closure may change, truncate, extend or replace the message (for example with an earlier
//! one, to replay it).

use super::{NetError, NetStats, Network, PartyId};

/// The edit a [`Tamper`] applies: `(index of the sent message, the message)`.
pub(crate) type Edit<'a> = Box<dyn FnMut(u64, &mut Vec<u8>) + 'a>;

/// A network whose sent messages go through an [`Edit`].
pub(crate) struct Tamper<'a, N> {
    inner: N,
    edit: Edit<'a>,
    /// Only messages to this party are edited (`None`: every message).
    only: Option<PartyId>,
    sent: u64,
}

impl<'a, N> Tamper<'a, N> {
    /// Wraps `inner`; `edit` sees every message this party sends.
    pub(crate) fn new(inner: N, edit: impl FnMut(u64, &mut Vec<u8>) + 'a) -> Self {
        Tamper { inner, edit: Box::new(edit), only: None, sent: 0 }
    }

    /// Wraps `inner`; `edit` sees the messages this party sends to `peer` alone (the index still
    /// counts every sent message): equivocation towards one peer.
    pub(crate) fn towards(inner: N, peer: PartyId, edit: impl FnMut(u64, &mut Vec<u8>) + 'a) -> Self {
        Tamper { inner, edit: Box::new(edit), only: Some(peer), sent: 0 }
    }

    /// A wrapper that leaves every message as it is (the honest party of a test).
    pub(crate) fn honest(inner: N) -> Self {
        Self::new(inner, |_, _| {})
    }
}

impl<N: Network> Network for Tamper<'_, N> {
    fn party(&self) -> PartyId {
        self.inner.party()
    }

    fn parties(&self) -> usize {
        self.inner.parties()
    }

    fn send(&mut self, to: PartyId, mut msg: Vec<u8>) -> Result<(), NetError> {
        if self.only.is_none_or(|p| p == to) {
            (self.edit)(self.sent, &mut msg);
        }
        self.sent += 1;
        self.inner.send(to, msg)
    }

    async fn recv(&mut self, from: PartyId) -> Result<Vec<u8>, NetError> {
        self.inner.recv(from).await
    }

    fn stats(&self) -> NetStats {
        self.inner.stats()
    }
}
