//! The online phase's messages: a frame header ([`crate::proto::frame`]: the step's kind byte and
//! the round's sequence number, the same at every party) before each body; bits packed eight to
//! a byte, least significant first; MAC digests as SHA-256 of the 16-byte MACs in order.

use super::error::TinyOtError;
use crate::net::{Network, PartyId};
use crate::ot::tinyot::mask;
use crate::ot::Block;
use crate::proto::frame::Header;
use sha2::{Digest, Sha256};

/// The steps of the online phase (their frames' kind bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Shares of input masks, to their owners.
    Masks = 1,
    /// Masked inputs, from their owners to everyone.
    Inputs = 2,
    /// Shares of `x ⊕ a` and `y ⊕ b` of one AND layer, to everyone.
    Layer = 3,
    /// MAC and echo digests.
    Check = 4,
    /// The verdict of this party's checks, then shares of the outputs revealed to the receiver.
    Outputs = 5,
}

impl Step {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Step::Masks => "input masks",
            Step::Inputs => "masked inputs",
            Step::Layer => "AND layer",
            Step::Check => "MAC check",
            Step::Outputs => "outputs",
        }
    }
}

/// Bytes of a MAC digest.
pub(crate) const DIGEST: usize = 32;

/// Domain tag of the MAC digests.
const MAC_TAG: &[u8] = b"chorus/tinyot-online/macs";

/// Packs bits eight to a byte, least significant first (the OT layer's packing).
pub(crate) fn pack(bits: &[bool]) -> Vec<u8> {
    crate::ot::tinyot::pack(bits.iter().copied(), bits.len())
}

/// Bit `t` of packed bytes.
#[inline]
pub(crate) fn bit(bytes: &[u8], t: usize) -> bool {
    (bytes[t / 8] >> (t % 8)) & 1 == 1
}

/// Checks that the bits of `bytes` past the first `bits` (the last byte's padding) are zero.
pub(crate) fn check_padding(bytes: &[u8], bits: usize, peer: PartyId, step: Step) -> Result<(), TinyOtError> {
    match bytes.get(bits / 8) {
        Some(&last) if !bits.is_multiple_of(8) && last >> (bits % 8) != 0 => Err(TinyOtError::Malformed {
            peer,
            step: step.name(),
            reason: format!("padding bits after {bits} bits are not zero"),
        }),
        _ => Ok(()),
    }
}

/// A running digest of MACs (the sender's MACs of its shares, or the receiver's expected MACs
/// `K ⊕ x·Δ` of the shares it received).
pub(crate) struct MacDigest(Sha256);

impl MacDigest {
    pub(crate) fn new() -> Self {
        let mut h = Sha256::new();
        h.update(MAC_TAG);
        MacDigest(h)
    }

    /// Adds one MAC.
    #[inline]
    pub(crate) fn mac(&mut self, m: Block) {
        self.0.update(m.to_le_bytes());
    }

    /// Adds the MAC a sender of share `x` must hold for this party's key `key` and `Δ`.
    #[inline]
    pub(crate) fn expected(&mut self, key: Block, x: bool, delta: Block) {
        self.mac(key ^ (delta & mask(x)));
    }

    pub(crate) fn finish(self) -> [u8; DIGEST] {
        self.0.finalize().into()
    }
}

/// The frames of one evaluation: every party sends every peer one frame per round, so one
/// counter numbers them at every party.
pub(crate) struct Frames {
    seq: u32,
}

impl Frames {
    pub(crate) fn new() -> Self {
        Frames { seq: 0 }
    }

    /// Starts the next round of `step`; its header.
    pub(crate) fn next(&mut self, step: Step) -> Header {
        let header = Header { kind: step as u8, seq: self.seq };
        self.seq += 1;
        header
    }
}

/// Sends `body` framed with `header` to `peer`.
pub(crate) fn send<N: Network>(
    net: &mut N,
    peer: PartyId,
    header: Header,
    body: &[u8],
) -> Result<(), TinyOtError> {
    Ok(net.send(peer, header.frame(body))?)
}

/// Receives the frame with `header` from `peer` and returns its body, which must be `len` bytes
/// (`None`: any length).
pub(crate) async fn recv<N: Network>(
    net: &mut N,
    peer: PartyId,
    header: Header,
    step: Step,
    len: Option<usize>,
) -> Result<Vec<u8>, TinyOtError> {
    let mut msg = net.recv(peer).await?;
    header.check(&msg).map_err(|e| TinyOtError::frame(peer, step.name(), e))?;
    let body = msg.split_off(crate::proto::frame::HEADER_BYTES);
    if let Some(len) = len {
        if body.len() != len {
            return Err(TinyOtError::Malformed {
                peer,
                step: step.name(),
                reason: format!("expected {len} bytes, got {}", body.len()),
            });
        }
    }
    Ok(body)
}
