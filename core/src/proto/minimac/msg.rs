//! Framing of MiniMac's messages: the header shared with Coral (`proto::frame`: kind, then a
//! per-direction sequence number, little-endian) in front of each body. A receiver checks both,
//! so a replayed, dropped or reordered frame is a typed error even without the secure channel
//! underneath (which catches those too in a real session).

use super::error::{MiniMacError, Step};
use crate::net::{Network, PartyId};
use crate::proto::frame::{FrameError, Header, Truncated};

/// Header bytes in front of every message.
pub use crate::proto::frame::HEADER_BYTES;

/// What a message carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    /// Coin-toss commitments and the input differences `x - r`.
    Input = 1,
    /// Shares of the opened `ε, δ` of one multiplication round.
    Open = 2,
    /// A coin-toss seed.
    Seed = 3,
    /// A commitment to this party's MAC check values.
    Commit = 4,
    /// The MAC check values, view hash and commitment nonce.
    Reveal = 5,
    /// Shares of the output values.
    Output = 6,
    /// OT-based preprocessing: the coin-toss commitments of one chunk.
    PrepCommit = 7,
    /// OT-based preprocessing: one frame of COPE columns.
    CopeColumns = 8,
    /// OT-based preprocessing: the shares and TinyOT bits opened by its checks.
    PrepOpen = 9,
}

/// Sequence numbers of one party's conversation with every peer.
pub(crate) struct Framer {
    sent: Vec<u32>,
    received: Vec<u32>,
}

impl Framer {
    pub(crate) fn new(parties: usize) -> Self {
        Framer { sent: vec![0; parties], received: vec![0; parties] }
    }

    /// Sends `body` under `kind` to every other party.
    pub(crate) fn send_all<N: Network>(
        &mut self,
        net: &mut N,
        kind: Kind,
        body: &[u8],
        step: Step,
    ) -> Result<(), MiniMacError> {
        let me = net.party();
        for to in (0..net.parties()).filter(|&p| p != me) {
            self.send_to(net, to, kind, body, step)?;
        }
        Ok(())
    }

    /// Sends `body` under `kind` to `to` alone (a message that differs per peer).
    pub(crate) fn send_to<N: Network>(
        &mut self,
        net: &mut N,
        to: PartyId,
        kind: Kind,
        body: &[u8],
        step: Step,
    ) -> Result<(), MiniMacError> {
        let seq = self.sent[to];
        self.sent[to] += 1;
        send_framed(net, to, Header { kind: kind as u8, seq }, body, step)
    }

    /// Sends `body` to `to` again under the sequence number of the last frame sent to it (a
    /// replay, for tests of the receivers' checks).
    #[cfg(test)]
    pub(crate) fn send_again<N: Network>(
        &mut self,
        net: &mut N,
        to: PartyId,
        kind: Kind,
        body: &[u8],
        step: Step,
    ) -> Result<(), MiniMacError> {
        send_framed(net, to, Header { kind: kind as u8, seq: self.sent[to].wrapping_sub(1) }, body, step)
    }

    /// Receives the next message from `from`, checks its header and that its body has `len` bytes,
    /// and returns it (the body is `&msg[HEADER_BYTES..]`, not copied).
    pub(crate) async fn recv<N: Network>(
        &mut self,
        net: &mut N,
        from: PartyId,
        kind: Kind,
        len: usize,
        step: Step,
    ) -> Result<Frame, MiniMacError> {
        let me = net.party();
        let msg = net.recv(from).await.map_err(|source| MiniMacError::Network { party: me, step, source })?;
        let expected = Header { kind: kind as u8, seq: self.received[from] };
        expected.check(&msg).map_err(|e| frame_error(e, from, step, kind))?;
        if msg.len() != HEADER_BYTES + len {
            return Err(MiniMacError::Malformed {
                from,
                step,
                reason: format!("body of {} bytes, expected {len}", msg.len() - HEADER_BYTES),
            });
        }
        self.received[from] += 1;
        Ok(Frame(msg))
    }
}

/// Sends `body` behind `header` to `to`.
fn send_framed<N: Network>(
    net: &mut N,
    to: PartyId,
    header: Header,
    body: &[u8],
    step: Step,
) -> Result<(), MiniMacError> {
    net.send(to, header.frame(body)).map_err(|source| MiniMacError::Network {
        party: net.party(),
        step,
        source,
    })
}

/// MiniMac's error for a frame whose header is not the expected one: a wrong sequence number is
/// [`MiniMacError::FrameOutOfOrder`] (checked first), anything else [`MiniMacError::Malformed`].
fn frame_error(error: FrameError, from: PartyId, step: Step, kind: Kind) -> MiniMacError {
    match error {
        FrameError::Truncated(Truncated { left, .. }) => {
            MiniMacError::Malformed { from, step, reason: format!("{left} bytes, no header") }
        }
        FrameError::Unexpected { expected, found } if found.seq != expected.seq => {
            MiniMacError::FrameOutOfOrder { from, step, expected: expected.seq, got: found.seq }
        }
        FrameError::Unexpected { found, .. } => MiniMacError::Malformed {
            from,
            step,
            reason: format!("message kind {} where {} ({kind:?}) was expected", found.kind, kind as u8),
        },
    }
}

/// A received message whose header was checked; dereferences to its body.
pub(crate) struct Frame(Vec<u8>);

impl Frame {
    /// The body, without the header.
    pub(crate) fn into_body(self) -> Vec<u8> {
        let mut msg = self.0;
        msg.drain(..HEADER_BYTES);
        msg
    }
}

impl core::ops::Deref for Frame {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0[HEADER_BYTES..]
    }
}
