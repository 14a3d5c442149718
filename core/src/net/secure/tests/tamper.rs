//! Attacks on the frames of one link, through a test-only [`Network`] adapter that sits between
//! a party's [`SecureNetwork`] and its transport: flipped bits, dropped, replayed, reordered,
//! truncated and replaced frames must all end in [`NetError::Integrity`] naming the peer and the
//! failure, and leave the receiving network poisoned.

use super::{establish_seeded, kk_configs, psk_configs};
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::secure::frame::HEADER_LEN;
use crate::net::secure::{ChannelMode, SecureConfig, SecureError};
use crate::net::{NetError, NetStats, Network, PartyId};
use core::future::Future;
use proptest::prelude::*;

/// What happens to the chosen frame.
#[derive(Debug, Clone)]
enum Attack {
    /// XOR one bit of one byte.
    FlipBit { byte: usize, bit: u8 },
    /// Never deliver it.
    Drop,
    /// Deliver it twice.
    Replay,
    /// Deliver it after the next frame.
    Reorder,
    /// Keep only the first bytes.
    Truncate(usize),
    /// Deliver these bytes instead.
    Replace(Vec<u8>),
}

/// Wraps the sender's transport and applies `attack` to frame number `frame` (counting from 0,
/// handshake message included) that this party sends to party `to`.
struct Tamper {
    inner: MemoryNetwork,
    to: PartyId,
    frame: usize,
    attack: Attack,
    sent: usize,
    held: Option<Vec<u8>>,
}

impl Network for Tamper {
    fn party(&self) -> PartyId {
        self.inner.party()
    }

    fn parties(&self) -> usize {
        self.inner.parties()
    }

    fn send(&mut self, to: PartyId, mut msg: Vec<u8>) -> Result<(), NetError> {
        if to != self.to {
            return self.inner.send(to, msg);
        }
        let index = self.sent;
        self.sent += 1;
        if index == self.frame {
            match &self.attack {
                Attack::FlipBit { byte, bit } => msg[*byte] ^= 1 << bit,
                Attack::Drop => return Ok(()),
                Attack::Replay => self.inner.send(to, msg.clone())?,
                Attack::Reorder => {
                    self.held = Some(msg);
                    return Ok(());
                }
                Attack::Truncate(len) => msg.truncate(*len),
                Attack::Replace(bytes) => msg = bytes.clone(),
            }
        }
        self.inner.send(to, msg)?;
        if let Some(held) = self.held.take() {
            self.inner.send(to, held)?;
        }
        Ok(())
    }

    fn recv(&mut self, from: PartyId) -> impl Future<Output = Result<Vec<u8>, NetError>> {
        self.inner.recv(from)
    }

    fn stats(&self) -> NetStats {
        self.inner.stats()
    }
}

/// What the receiving party saw.
#[derive(Debug)]
struct Outcome {
    /// Results of its receives, in order.
    received: Vec<Result<Vec<u8>, NetError>>,
    /// Result of a send after the receives.
    send_after: Result<(), NetError>,
    /// The network's poison.
    poisoned: Option<NetError>,
}

/// Two parties; party 0 sends `messages` to party 1 through a tampering transport, party 1
/// receives them one by one (continuing after errors, to observe poisoning).
fn attacked_session(
    configs: Vec<SecureConfig>,
    frame: usize,
    attack: Attack,
    messages: &[Vec<u8>],
) -> Outcome {
    let configs = &configs;
    let attack = &attack;
    let mut outcomes = run_session(2, |net| {
        let config = configs[net.party()].clone();
        async move {
            if net.party() == 0 {
                let tamper = Tamper { inner: net, to: 1, frame, attack: attack.clone(), sent: 0, held: None };
                let mut net =
                    establish_seeded(tamper, config).await.expect("the sender's handshake succeeds");
                for msg in messages {
                    net.send(1, msg.clone()).expect("sending succeeds");
                }
                // Wait for the receiver to finish, so it never sees this party leave.
                let _ = net.recv(1).await;
                None
            } else {
                let mut net = establish_seeded(net, config).await.expect("the receiver's handshake succeeds");
                let mut received = Vec::new();
                for _ in messages {
                    received.push(net.recv(0).await);
                }
                let send_after = net.send(0, vec![1]);
                Some(Outcome { received, send_after, poisoned: net.poisoned().cloned() })
            }
        }
    });
    outcomes.pop().flatten().expect("party 1 reports")
}

fn three_messages() -> Vec<Vec<u8>> {
    vec![b"first".to_vec(), b"second".to_vec(), b"third".to_vec()]
}

/// Asserts the first `ok` receives succeeded with the sent messages, the next failed with an
/// integrity error on peer 0 whose reason contains `needle`, and everything after returned that
/// same error.
fn assert_integrity_failure(outcome: &Outcome, messages: &[Vec<u8>], ok: usize, needle: &str) {
    for (got, sent) in outcome.received[..ok].iter().zip(messages) {
        assert_eq!(got.as_ref(), Ok(sent));
    }
    let error = outcome.received[ok].clone().unwrap_err();
    match &error {
        NetError::Integrity { peer: 0, reason } => {
            assert!(reason.contains(needle), "reason {reason:?} lacks {needle:?}")
        }
        other => panic!("expected an integrity error on peer 0, got {other:?}"),
    }
    for later in &outcome.received[ok + 1..] {
        assert_eq!(later.as_ref(), Err(&error), "the network stays poisoned");
    }
    assert_eq!(outcome.send_after.as_ref(), Err(&error), "sending is refused once poisoned");
    assert_eq!(outcome.poisoned.as_ref(), Some(&error));
}

// Frame 0 of the link 0 -> 1 is handshake message 1; protocol frames start at 1.

#[test]
fn flipped_ciphertext_bit_fails_authentication() {
    let msgs = three_messages();
    for configs in [psk_configs(2, b"flip"), kk_configs(2, b"flip")] {
        let outcome = attacked_session(configs, 2, Attack::FlipBit { byte: HEADER_LEN + 3, bit: 5 }, &msgs);
        assert_integrity_failure(&outcome, &msgs, 1, "authentication failed for frame #1");
    }
}

#[test]
fn flipped_tag_bit_fails_authentication() {
    let msgs = three_messages();
    let tag_byte = HEADER_LEN + 1 + msgs[0].len() + 15;
    let outcome =
        attacked_session(psk_configs(2, b"tag"), 1, Attack::FlipBit { byte: tag_byte, bit: 0 }, &msgs);
    assert_integrity_failure(&outcome, &msgs, 0, "authentication failed for frame #0");
}

#[test]
fn flipped_sequence_number_is_named() {
    let msgs = three_messages();
    let outcome = attacked_session(psk_configs(2, b"seq"), 1, Attack::FlipBit { byte: 8, bit: 2 }, &msgs);
    assert_integrity_failure(&outcome, &msgs, 0, "expected frame #0, got frame #4");
}

#[test]
fn flipped_last_flag_is_caught_by_the_encrypted_copy() {
    let msgs = three_messages();
    let outcome = attacked_session(psk_configs(2, b"last"), 1, Attack::FlipBit { byte: 0, bit: 0 }, &msgs);
    assert_integrity_failure(&outcome, &msgs, 0, "header flags 0x00 differ from the authenticated 0x01");
}

#[test]
fn unknown_flag_bits_are_malformed() {
    let msgs = three_messages();
    let outcome = attacked_session(psk_configs(2, b"flags"), 3, Attack::FlipBit { byte: 0, bit: 6 }, &msgs);
    assert_integrity_failure(&outcome, &msgs, 2, "unknown chunk flags 0x41");
}

#[test]
fn dropped_frame_is_named() {
    let msgs = three_messages();
    let outcome = attacked_session(psk_configs(2, b"drop"), 2, Attack::Drop, &msgs);
    assert_integrity_failure(
        &outcome,
        &msgs,
        1,
        "expected frame #1, got frame #2 (reordered or an earlier one dropped)",
    );
}

#[test]
fn replayed_frame_is_named() {
    let msgs = three_messages();
    let outcome = attacked_session(kk_configs(2, b"replay"), 1, Attack::Replay, &msgs);
    assert_integrity_failure(&outcome, &msgs, 1, "expected frame #1, got frame #0 (replayed)");
}

#[test]
fn reordered_frames_are_named() {
    let msgs = three_messages();
    let outcome = attacked_session(psk_configs(2, b"reorder"), 1, Attack::Reorder, &msgs);
    assert_integrity_failure(&outcome, &msgs, 0, "expected frame #0, got frame #1");
}

#[test]
fn truncated_frames_are_named() {
    let msgs = three_messages();
    let cases = [
        (4, "4 bytes is shorter than the 9-byte header"),
        (HEADER_LEN + 10, "10 ciphertext bytes, fewer than the 17"),
        (HEADER_LEN + 1 + msgs[0].len() + 15, "authentication failed for frame #0"),
    ];
    for (len, needle) in cases {
        let outcome = attacked_session(psk_configs(2, b"trunc"), 1, Attack::Truncate(len), &msgs);
        assert_integrity_failure(&outcome, &msgs, 0, needle);
    }
}

#[test]
fn attack_inside_a_chunked_message() {
    // A 200 000-byte message takes frames 1..=4; dropping its third chunk (frame 3, sequence
    // number 2) is caught when frame 4 arrives, and the partial message is never returned.
    let msgs = vec![vec![7u8; 200_000], b"after".to_vec()];
    let outcome = attacked_session(psk_configs(2, b"chunks"), 3, Attack::Drop, &msgs);
    assert_integrity_failure(&outcome, &msgs, 0, "expected frame #2, got frame #3");
    let outcome =
        attacked_session(kk_configs(2, b"chunks"), 2, Attack::FlipBit { byte: 5000, bit: 7 }, &msgs);
    assert_integrity_failure(&outcome, &msgs, 0, "authentication failed for frame #1");
}

#[test]
fn injected_frame_from_another_session_fails() {
    // A valid frame #0 recorded in another session (same secret, other session id) is rejected.
    let configs = psk_configs(2, b"earlier");
    let configs = &configs;
    let mut sent = run_session(2, |net| {
        let config = configs[net.party()].clone();
        async move {
            let mut net = establish_seeded(Capture { inner: net, frames: Vec::new() }, config).await.unwrap();
            if net.party() == 0 {
                net.send(1, b"first".to_vec()).unwrap();
            } else {
                assert_eq!(net.recv(0).await.unwrap(), b"first".to_vec());
            }
            net.inner.frames
        }
    });
    let recorded = sent.swap_remove(0).pop().expect("party 0 sent a protocol frame");
    let msgs = three_messages();
    let outcome = attacked_session(psk_configs(2, b"later"), 1, Attack::Replace(recorded), &msgs);
    assert_integrity_failure(&outcome, &msgs, 0, "authentication failed for frame #0");
}

#[test]
fn tampered_handshake_is_a_typed_error() {
    for (configs, mode) in
        [(psk_configs(2, b"hs"), ChannelMode::NnPsk0), (kk_configs(2, b"hs"), ChannelMode::Kk)]
    {
        let configs = &configs;
        let outcomes = run_session(2, |net| {
            let config = configs[net.party()].clone();
            async move {
                let byte = if net.party() == 0 { 20 } else { 0 };
                let tamper = Tamper {
                    inner: net,
                    to: 1,
                    frame: 0,
                    attack: Attack::FlipBit { byte, bit: 1 },
                    sent: 0,
                    held: None,
                };
                establish_seeded(tamper, config).await.map(|_| ())
            }
        });
        assert_eq!(outcomes[1], Err(SecureError::HandshakeAuthentication { peer: 0, mode }));
        assert_eq!(outcomes[0], Err(SecureError::Net(NetError::PeerLeft(1))));
    }
    let configs = psk_configs(2, b"hs-version");
    let configs = &configs;
    let outcomes = run_session(2, |net| {
        let config = configs[net.party()].clone();
        async move {
            let tamper = Tamper {
                inner: net,
                to: 1,
                frame: 0,
                attack: Attack::FlipBit { byte: 0, bit: 1 },
                sent: 0,
                held: None,
            };
            establish_seeded(tamper, config).await.map(|_| ())
        }
    });
    assert_eq!(
        outcomes[1],
        Err(SecureError::HandshakeMalformed { peer: 0, reason: "channel version 3, expected 1".into() })
    );
}

/// Records the frames a party sends.
struct Capture {
    inner: MemoryNetwork,
    frames: Vec<Vec<u8>>,
}

impl Network for Capture {
    fn party(&self) -> PartyId {
        self.inner.party()
    }

    fn parties(&self) -> usize {
        self.inner.parties()
    }

    fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError> {
        self.frames.push(msg.clone());
        self.inner.send(to, msg)
    }

    fn recv(&mut self, from: PartyId) -> impl Future<Output = Result<Vec<u8>, NetError>> {
        self.inner.recv(from)
    }

    fn stats(&self) -> NetStats {
        self.inner.stats()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha, ..ProptestConfig::default() })]

    /// Random bytes in place of a protocol frame: always a typed integrity error, never a panic.
    #[test]
    fn random_frames_are_integrity_errors(bytes in proptest::collection::vec(any::<u8>(), 0..200), kk in any::<bool>()) {
        let configs = if kk { kk_configs(2, b"fuzz") } else { psk_configs(2, b"fuzz") };
        let msgs = three_messages();
        let outcome = attacked_session(configs, 1, Attack::Replace(bytes), &msgs);
        prop_assert!(matches!(outcome.received[0], Err(NetError::Integrity { peer: 0, .. })), "{:?}", outcome.received[0]);
        prop_assert!(outcome.poisoned.is_some());
    }

    /// The frame parser on arbitrary input: an error or a consistent split, never a panic.
    #[test]
    fn frame_parser_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        if let Ok((header, body)) = crate::net::secure::frame::parse(&bytes) {
            prop_assert_eq!(body.len() + HEADER_LEN, bytes.len());
            let seq = header.seq.to_be_bytes();
            prop_assert_eq!(&seq[..], &bytes[1..HEADER_LEN]);
        }
    }
}
