//! Frame counting for resume (PROTOCOL.md §6), the client's half: the data frames this party
//! sent and the relay has not acknowledged, and the count of data frames it received. Both counts
//! run over the slot's whole session, across reconnections, and match the relay's counts of the
//! same streams; on resume each side sends again exactly what the other has not received. The
//! TypeScript SDK keeps the same two counts (`ts-sdk/src/transport/retransmit.ts`).

use std::collections::VecDeque;
use tokio_tungstenite::tungstenite::Bytes;

/// Data frames sent to the relay, kept until acknowledged, and how many of them were handed to
/// the current socket.
#[derive(Debug)]
pub(super) struct SentFrames {
    /// Data frames sent in the session; the last has sequence number `sent`.
    sent: u64,
    frames: VecDeque<Bytes>,
    bytes: usize,
    /// Kept frames already handed to the current socket (a prefix of `frames`).
    written: usize,
    /// Bytes of written frames kept at most; older ones are forgotten (a resume may then fail).
    limit: usize,
}

impl SentFrames {
    pub(super) fn new(limit: usize) -> Self {
        SentFrames { sent: 0, frames: VecDeque::new(), bytes: 0, written: 0, limit }
    }

    /// Records a frame to send; it is kept until the relay acknowledges it.
    pub(super) fn push(&mut self, frame: Bytes) {
        self.sent += 1;
        self.bytes += frame.len();
        self.frames.push_back(frame);
    }

    /// The next frame not yet handed to the current socket; marks it handed.
    pub(super) fn next_unwritten(&mut self) -> Option<Bytes> {
        let frame = self.frames.get(self.written)?.clone();
        self.written += 1;
        self.trim();
        Some(frame)
    }

    /// Whether frames wait to be handed to the socket.
    pub(super) fn has_unwritten(&self) -> bool {
        self.written < self.frames.len()
    }

    /// The relay received `received` frames: forgets them. False if the count is impossible.
    pub(super) fn acknowledge(&mut self, received: u64) -> bool {
        if received > self.sent {
            return false;
        }
        while !self.frames.is_empty() && self.first_kept() <= received {
            let frame = self.frames.pop_front().expect("not empty");
            self.bytes -= frame.len();
            self.written = self.written.saturating_sub(1);
        }
        true
    }

    /// Whether every frame after the first `received` is still kept.
    pub(super) fn can_resume_after(&self, received: u64) -> bool {
        received <= self.sent && received >= self.sent - self.frames.len() as u64
    }

    /// A new socket: every kept frame goes out again (call [`acknowledge`](Self::acknowledge)
    /// with the relay's count first).
    pub(super) fn rewind(&mut self) {
        self.written = 0;
    }

    /// Sequence number of the oldest kept frame.
    fn first_kept(&self) -> u64 {
        self.sent - self.frames.len() as u64 + 1
    }

    /// Forgets the oldest written frames past the byte limit. Frames not yet written are never
    /// forgotten: they are data still to be sent.
    fn trim(&mut self) {
        while self.bytes > self.limit && self.written > 0 {
            let frame = self.frames.pop_front().expect("written frames are kept");
            self.bytes -= frame.len();
            self.written -= 1;
        }
    }
}

/// Data frames received from the relay, and what this party last acknowledged.
#[derive(Debug, Default)]
pub(super) struct ReceivedFrames {
    pub(super) received: u64,
    acknowledged: u64,
    unacknowledged_bytes: usize,
}

impl ReceivedFrames {
    /// Records a received frame; returns whether an `ack` is due at once (`ack_bytes` passed).
    pub(super) fn record(&mut self, length: usize, ack_bytes: usize) -> bool {
        self.received += 1;
        self.unacknowledged_bytes += length;
        self.unacknowledged_bytes >= ack_bytes
    }

    /// Marks everything received as acknowledged; returns the count to send.
    pub(super) fn acknowledge(&mut self) -> u64 {
        self.acknowledged = self.received;
        self.unacknowledged_bytes = 0;
        self.received
    }

    /// Whether frames arrived since the last `ack`.
    pub(super) fn behind(&self) -> bool {
        self.received > self.acknowledged
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(n: u8) -> Bytes {
        Bytes::from(vec![1, n])
    }

    #[test]
    fn acknowledged_frames_are_forgotten_and_the_rest_go_out_again_after_a_rewind() {
        let mut sent = SentFrames::new(1 << 20);
        for n in 0..5 {
            sent.push(frame(n));
        }
        assert_eq!(sent.next_unwritten(), Some(frame(0)));
        assert_eq!(sent.next_unwritten(), Some(frame(1)));
        assert_eq!(sent.next_unwritten(), Some(frame(2)));
        assert!(sent.acknowledge(2));
        assert!(sent.can_resume_after(2));
        assert!(!sent.can_resume_after(1));
        assert!(!sent.acknowledge(6), "more than were sent");
        sent.rewind();
        let again: Vec<_> = std::iter::from_fn(|| sent.next_unwritten()).collect();
        assert_eq!(again, vec![frame(2), frame(3), frame(4)]);
        assert!(!sent.has_unwritten());
    }

    #[test]
    fn only_written_frames_are_forgotten_past_the_limit() {
        let mut sent = SentFrames::new(4);
        for n in 0..4 {
            sent.push(frame(n));
        }
        assert!(sent.can_resume_after(0), "nothing written, nothing forgotten");
        sent.next_unwritten();
        sent.next_unwritten();
        sent.next_unwritten();
        // 8 bytes kept, limit 4: the first two written frames go.
        assert!(!sent.can_resume_after(1));
        assert!(sent.can_resume_after(2));
        assert_eq!(sent.next_unwritten(), Some(frame(3)));
    }

    #[test]
    fn acks_are_due_by_bytes() {
        let mut received = ReceivedFrames::default();
        assert!(!received.record(10, 25));
        assert!(!received.record(10, 25));
        assert!(received.behind());
        assert!(received.record(10, 25));
        assert_eq!(received.acknowledge(), 3);
        assert!(!received.behind());
    }
}
