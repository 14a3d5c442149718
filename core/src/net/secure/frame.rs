//! The wire format of the secure channel.
//!
//! Handshake messages (one per direction per pair, see [`super::handshake`]):
//!
//! ```text
//! [version = 1 : u8] [Noise handshake message : 48 bytes]
//! ```
//!
//! Transport frames, one per chunk of a protocol message:
//!
//! ```text
//! [flags : u8] [sequence number : u64 big-endian] [Noise transport message : 17..=65535 bytes]
//! flags: bit 0 = LAST (this chunk ends the protocol message), bits 1..7 must be zero
//! Noise transport message = ChaCha20-Poly1305(key of this direction, nonce = sequence number,
//!                                             plaintext = [flags] ++ chunk)
//! ```
//!
//! The sequence number counts frames per direction from 0 and is the Noise nonce, so the
//! receiver decrypts only with the number it expects: a replayed, reordered or dropped frame is
//! caught by comparing the header with the expected number (for a clear error) and would fail
//! authentication anyway. Snow's stateless transport authenticates no associated data, so the
//! flags byte is repeated inside the plaintext and compared after decryption: the header copy lets
//! malformed frames be rejected before any cryptography, the encrypted copy makes the chunk
//! boundary tamper-proof. Every chunk but the last carries exactly [`MAX_CHUNK`] bytes.

/// Largest Noise message (Noise spec §3).
pub(super) const MAXMSGLEN: usize = 65535;

/// Authentication tag of ChaCha20-Poly1305 (Noise spec §5.1 `ENCRYPT`, RFC 8439).
pub(super) const TAGLEN: usize = 16;

/// Version byte in front of handshake messages.
pub(super) const HANDSHAKE_VERSION: u8 = 1;

/// Flag bit: the chunk ends its protocol message.
pub(super) const FLAG_LAST: u8 = 0x01;

/// Bytes in front of the Noise message of a transport frame.
pub const HEADER_LEN: usize = 1 + 8;

/// Protocol bytes per chunk: a Noise message holds at most 65535 bytes (Noise spec §3), minus
/// the 16-byte tag and the encrypted flags byte.
pub const MAX_CHUNK: usize = MAXMSGLEN - TAGLEN - 1;

/// Transport bytes (headers, tags, flags) a protocol message of `len` bytes costs on top of
/// its own length.
pub fn frame_overhead(len: usize) -> usize {
    chunk_count(len) * (HEADER_LEN + 1 + TAGLEN)
}

/// Frames a protocol message of `len` bytes is split into (an empty message is one frame).
pub fn chunk_count(len: usize) -> usize {
    len.div_ceil(MAX_CHUNK).max(1)
}

/// A parsed transport frame header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Header {
    pub(super) flags: u8,
    pub(super) seq: u64,
}

impl Header {
    pub(super) fn is_last(&self) -> bool {
        self.flags & FLAG_LAST != 0
    }

    pub(super) fn write(&self, out: &mut Vec<u8>) {
        out.push(self.flags);
        out.extend_from_slice(&self.seq.to_be_bytes());
    }
}

/// Splits a transport frame into header and Noise message, rejecting impossible shapes.
pub(super) fn parse(frame: &[u8]) -> Result<(Header, &[u8]), String> {
    if frame.len() < HEADER_LEN {
        return Err(format!(
            "malformed frame: {} bytes is shorter than the {HEADER_LEN}-byte header",
            frame.len()
        ));
    }
    let flags = frame[0];
    if flags & !FLAG_LAST != 0 {
        return Err(format!("malformed frame: unknown chunk flags {flags:#04x}"));
    }
    let seq = u64::from_be_bytes(frame[1..HEADER_LEN].try_into().expect("8 header bytes"));
    let body = &frame[HEADER_LEN..];
    if body.len() < TAGLEN + 1 {
        return Err(format!(
            "malformed frame #{seq}: {} ciphertext bytes, fewer than the {} of an empty chunk",
            body.len(),
            TAGLEN + 1
        ));
    }
    if body.len() > MAXMSGLEN {
        return Err(format!(
            "malformed frame #{seq}: {} ciphertext bytes exceed the Noise limit of {MAXMSGLEN}",
            body.len()
        ));
    }
    Ok((Header { flags, seq }, body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(MAX_CHUNK, 65518);
        assert_eq!(chunk_count(0), 1);
        assert_eq!(chunk_count(MAX_CHUNK), 1);
        assert_eq!(chunk_count(MAX_CHUNK + 1), 2);
        assert_eq!(frame_overhead(200_000), 4 * 26);
    }

    #[test]
    fn header_round_trips_and_bad_shapes_are_named() {
        let mut frame = Vec::new();
        Header { flags: FLAG_LAST, seq: 0x0102030405060708 }.write(&mut frame);
        frame.extend_from_slice(&[0u8; TAGLEN + 1]);
        let (h, body) = parse(&frame).unwrap();
        assert_eq!((h.flags, h.seq, body.len()), (FLAG_LAST, 0x0102030405060708, TAGLEN + 1));
        assert!(parse(&frame[..5]).unwrap_err().contains("shorter than the 9-byte header"));
        assert!(parse(&frame[..HEADER_LEN + TAGLEN]).unwrap_err().contains("fewer than"));
        frame[0] = 0x82;
        assert!(parse(&frame).unwrap_err().contains("unknown chunk flags 0x82"));
        let mut long = vec![0u8; HEADER_LEN + MAXMSGLEN + 1];
        long[0] = 0;
        assert!(parse(&long).unwrap_err().contains("exceed the Noise limit"));
    }
}
