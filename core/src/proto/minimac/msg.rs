//! Framing of MiniMac's messages: a 5-byte header (kind, then a per-direction sequence number,
//! little-endian) in front of each body. A receiver checks both, so a replayed, dropped or
//! reordered frame is a typed error even without the secure channel underneath (which catches
//! those too in a real session).

use super::error::{MiniMacError, Step};
use crate::net::{Network, PartyId};

/// Header bytes in front of every message.
pub const HEADER_BYTES: usize = 5;

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
            let mut msg = Vec::with_capacity(HEADER_BYTES + body.len());
            msg.push(kind as u8);
            msg.extend_from_slice(&self.sent[to].to_le_bytes());
            msg.extend_from_slice(body);
            self.sent[to] += 1;
            net.send(to, msg).map_err(|source| MiniMacError::Network { party: me, step, source })?;
        }
        Ok(())
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
        if msg.len() < HEADER_BYTES {
            return Err(MiniMacError::Malformed {
                from,
                step,
                reason: format!("{} bytes, no header", msg.len()),
            });
        }
        let got = u32::from_le_bytes(msg[1..HEADER_BYTES].try_into().expect("4 bytes"));
        if got != self.received[from] {
            return Err(MiniMacError::FrameOutOfOrder { from, step, expected: self.received[from], got });
        }
        if msg[0] != kind as u8 {
            return Err(MiniMacError::Malformed {
                from,
                step,
                reason: format!("message kind {} where {} ({kind:?}) was expected", msg[0], kind as u8),
            });
        }
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

/// A received message whose header was checked; dereferences to its body.
pub(crate) struct Frame(Vec<u8>);

impl core::ops::Deref for Frame {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0[HEADER_BYTES..]
    }
}
