//! The message framing MiniMac and Coral share: every message is a 5-byte header — a kind byte
//! (which message of the protocol this is) and a `u32` sequence number, little-endian — followed
//! by the body. A receiver knows which kind and number it expects next, so a replayed, dropped,
//! reordered or misrouted frame is caught before its body is read, even without the secure
//! channel underneath (which catches those too in a real session).
//!
//! Each protocol keeps its own counters (MiniMac counts per direction and peer, Coral per
//! session) and its own typed errors: this module reports a [`FrameError`], which the protocol
//! maps to its error with the step it was in. Keeping one encoder and one header check means the
//! two protocols' wire bytes and their checks cannot drift apart.
//!
//! [`take`] is the bounds-checked read that decoders of dealt material use for the same purpose:
//! a short input is a [`Truncated`] error, never a panic.

/// Bytes of a frame header.
pub const HEADER_BYTES: usize = 5;

/// A frame header: the message kind and its sequence number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The message kind (the protocol's tag for the message or step).
    pub kind: u8,
    /// The sequence number.
    pub seq: u32,
}

impl Header {
    /// The header followed by `body`, as sent.
    pub fn frame(self, body: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + body.len());
        out.push(self.kind);
        out.extend_from_slice(&self.seq.to_le_bytes());
        out.extend_from_slice(body);
        out
    }

    /// The header at the front of `msg`, or `None` when `msg` is shorter than a header.
    pub fn read(msg: &[u8]) -> Option<Header> {
        let head: &[u8; HEADER_BYTES] = msg.get(..HEADER_BYTES)?.try_into().ok()?;
        Some(Header { kind: head[0], seq: u32::from_le_bytes([head[1], head[2], head[3], head[4]]) })
    }

    /// Kind and sequence number as one number (`kind << 32 | seq`), as errors report them.
    pub fn packed(self) -> u64 {
        (u64::from(self.kind) << 32) | u64::from(self.seq)
    }

    /// Checks that `msg` starts with this header; on success the body is `&msg[HEADER_BYTES..]`.
    pub fn check(self, msg: &[u8]) -> Result<(), FrameError> {
        let found = Header::read(msg).ok_or(Truncated { needed: HEADER_BYTES, left: msg.len() })?;
        if found != self {
            return Err(FrameError::Unexpected { expected: self, found });
        }
        Ok(())
    }
}

/// Fewer bytes than the next field (for a frame: the header) needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Truncated {
    /// Bytes the field needs.
    pub needed: usize,
    /// Bytes that were left.
    pub left: usize,
}

/// What is wrong with a received frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameError {
    /// Shorter than a header.
    Truncated(Truncated),
    /// A well-formed header other than the expected one: a replayed, dropped or reordered frame
    /// (another sequence number) or another message (another kind).
    Unexpected {
        /// The header the receiver expected.
        expected: Header,
        /// The header that arrived.
        found: Header,
    },
}

impl From<Truncated> for FrameError {
    fn from(t: Truncated) -> Self {
        FrameError::Truncated(t)
    }
}

/// Reads `len` bytes from the front of `rest` and advances it past them.
pub fn take<'a>(rest: &mut &'a [u8], len: usize) -> Result<&'a [u8], Truncated> {
    if rest.len() < len {
        return Err(Truncated { needed: len, left: rest.len() });
    }
    let (head, tail) = rest.split_at(len);
    *rest = tail;
    Ok(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_mismatches_are_named() {
        let header = Header { kind: 3, seq: 0x0102_0304 };
        let msg = header.frame(b"body");
        assert_eq!(msg, [3, 4, 3, 2, 1, b'b', b'o', b'd', b'y']);
        assert_eq!(Header::read(&msg), Some(header));
        assert_eq!(header.check(&msg), Ok(()));
        assert_eq!(header.packed(), (3 << 32) | 0x0102_0304);
        assert_eq!(header.check(&msg[..4]), Err(FrameError::Truncated(Truncated { needed: 5, left: 4 })));
        let replay = Header { seq: 7, ..header };
        assert_eq!(replay.check(&msg), Err(FrameError::Unexpected { expected: replay, found: header }));
        let mut rest: &[u8] = b"abc";
        assert_eq!(take(&mut rest, 2), Ok(&b"ab"[..]));
        assert_eq!(take(&mut rest, 2), Err(Truncated { needed: 2, left: 1 }));
    }
}
