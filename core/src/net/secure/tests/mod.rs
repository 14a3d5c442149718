//! Multi-party tests of the secure channel over the in-memory network: honest runs in both modes,
//! exact statistics, handshake failures; [`tamper`] has the attacks on frames.

mod tamper;

use super::frame::{HEADER_LEN, MAX_CHUNK};
use super::handshake::HANDSHAKE_FRAME_LEN;
use super::*;
use crate::net::memory::{run_session, MemoryNetwork};
use crate::rng::seeded_rng;
use core::future::Future;

/// Protocol message sizes every honest test sends: empty, tiny, one byte over a chunk's
/// capacity after the flags byte and tag, and several chunks.
const SIZES: [usize; 4] = [0, 1, 65535, 200_000];

/// Frames each size of [`SIZES`] takes, worked out by hand from [`MAX_CHUNK`] = 65518.
const FRAMES: [u64; 4] = [1, 1, 2, 4];

/// Transport bytes per frame on top of the chunk: 9-byte header, encrypted flags byte, 16-byte tag.
const FRAME_OVERHEAD: u64 = 9 + 1 + 16;

pub(super) fn psk_configs(n: usize, session: &[u8]) -> Vec<SecureConfig> {
    (0..n).map(|_| SecureConfig::session_secret(session, b"an example 32-byte session key!!")).collect()
}

fn kk_keys(n: usize) -> (Vec<PrivateKey>, Vec<PublicKey>) {
    let mut rng = seeded_rng(42);
    let keys: Vec<PrivateKey> = (0..n).map(|_| PrivateKey::generate(&mut rng)).collect();
    let publics = keys.iter().map(PrivateKey::public_key).collect();
    (keys, publics)
}

pub(super) fn kk_configs(n: usize, session: &[u8]) -> Vec<SecureConfig> {
    let (keys, publics) = kk_keys(n);
    keys.into_iter().map(|k| SecureConfig::pinned_keys(session, k, publics.clone())).collect()
}

/// Distinct content for each (sender, receiver, size index).
fn message(from: PartyId, to: PartyId, index: usize) -> Vec<u8> {
    let mut msg = vec![0u8; SIZES[index]];
    seeded_rng((from * 100 + to * 10 + index) as u64).fill_bytes(&mut msg);
    msg
}

pub(super) async fn establish_seeded<N: Network>(
    net: N,
    config: SecureConfig,
) -> Result<SecureNetwork<N>, SecureError> {
    let mut rng = seeded_rng(1000 + net.party() as u64);
    SecureNetwork::establish_with_rng(net, config, &mut rng).await
}

/// Every party sends every size to every other party, then receives everything, then echoes a
/// second round (so sequence numbers continue across messages and rounds).
fn honest_exchange(configs: Vec<SecureConfig>) {
    let n = configs.len();
    let configs = &configs;
    let results = run_session(n, |net| {
        let config = configs[net.party()].clone();
        async move {
            let mut net = establish_seeded(net, config).await.unwrap();
            let me = net.party();
            let transport_after_handshake = net.transport_stats();
            for to in (0..n).filter(|&p| p != me) {
                for index in 0..SIZES.len() {
                    net.send(to, message(me, to, index)).unwrap();
                }
            }
            for from in (0..n).filter(|&p| p != me) {
                for (index, size) in SIZES.iter().enumerate() {
                    assert_eq!(
                        net.recv(from).await.unwrap(),
                        message(from, me, index),
                        "party {me} from {from} size {size}"
                    );
                }
            }
            for to in (0..n).filter(|&p| p != me) {
                net.send(to, vec![me as u8; 3]).unwrap();
            }
            for from in (0..n).filter(|&p| p != me) {
                assert_eq!(net.recv(from).await.unwrap(), vec![from as u8; 3]);
            }
            (net.stats(), transport_after_handshake, net.transport_stats())
        }
    });
    let peers = (n - 1) as u64;
    let payload: u64 = SIZES.iter().map(|&s| s as u64).sum::<u64>() + 3;
    let frames: u64 = FRAMES.iter().sum::<u64>() + 1;
    for (me, (stats, after_handshake, transport)) in results.into_iter().enumerate() {
        assert_eq!(stats.bytes_sent, peers * payload, "party {me}");
        assert_eq!(stats.bytes_received, peers * payload, "party {me}");
        assert_eq!(stats.messages_sent, peers * (SIZES.len() as u64 + 1));
        assert_eq!(stats.messages_received, peers * (SIZES.len() as u64 + 1));
        assert_eq!(stats.rounds, 2);
        assert_eq!(after_handshake.bytes_sent, peers * HANDSHAKE_FRAME_LEN as u64);
        assert_eq!(after_handshake.messages_sent, peers);
        assert_eq!(
            transport.bytes_sent,
            peers * (HANDSHAKE_FRAME_LEN as u64 + payload + frames * FRAME_OVERHEAD)
        );
        assert_eq!(transport.bytes_received, transport.bytes_sent);
        assert_eq!(transport.messages_sent, peers * (1 + frames));
    }
}

#[test]
fn constants_agree_with_the_hand_computed_figures() {
    assert_eq!(HEADER_LEN, 9);
    assert_eq!(MAX_CHUNK, 65518);
    assert_eq!(HANDSHAKE_FRAME_LEN, 49);
    for (size, frames) in SIZES.iter().zip(FRAMES) {
        assert_eq!(frame::chunk_count(*size) as u64, frames);
        assert_eq!(frame::frame_overhead(*size) as u64, frames * FRAME_OVERHEAD);
    }
}

#[test]
fn two_parties_nnpsk0() {
    honest_exchange(psk_configs(2, b"session two psk"));
}

#[test]
fn three_parties_nnpsk0() {
    honest_exchange(psk_configs(3, b"session three psk"));
}

#[test]
fn two_parties_kk() {
    honest_exchange(kk_configs(2, b"session two kk"));
}

#[test]
fn three_parties_kk() {
    honest_exchange(kk_configs(3, b"session three kk"));
}

#[test]
fn two_and_three_parties_nn() {
    honest_exchange(vec![SecureConfig::unauthenticated(b"session two nn"); 2]);
    honest_exchange(vec![SecureConfig::unauthenticated(b"session three nn"); 3]);
}

#[test]
fn nn_with_another_session_id_fails_the_handshake() {
    let configs =
        vec![SecureConfig::unauthenticated(b"session A"), SecureConfig::unauthenticated(b"session B")];
    let outcomes = establish_outcomes(configs);
    // The first message has no key to check it under, so it is the initiator, reading the second,
    // that finds the mismatch (the responder finds out at the first frame, or when the initiator
    // leaves).
    assert_eq!(outcomes[0], Err(SecureError::HandshakeAuthentication { peer: 1, mode: ChannelMode::Nn }));
}

#[test]
fn os_seeded_establishment_works() {
    let configs = psk_configs(2, b"os seeded");
    let configs = &configs;
    let got = run_session(2, |net| {
        let config = configs[net.party()].clone();
        async move {
            let mut net = SecureNetwork::establish(net, config).await.unwrap();
            assert_eq!(net.mode(), ChannelMode::NnPsk0);
            let peer = 1 - net.party();
            net.send(peer, vec![net.party() as u8 + 1; 10]).unwrap();
            net.recv(peer).await.unwrap()
        }
    });
    assert_eq!(got, vec![vec![2u8; 10], vec![1u8; 10]]);
}

#[test]
fn ciphertext_hides_the_payload() {
    // A wrapper that records what the transport carries.
    struct Recording {
        inner: MemoryNetwork,
        seen: Vec<Vec<u8>>,
    }
    impl Network for Recording {
        fn party(&self) -> PartyId {
            self.inner.party()
        }
        fn parties(&self) -> usize {
            self.inner.parties()
        }
        fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError> {
            self.seen.push(msg.clone());
            self.inner.send(to, msg)
        }
        fn recv(&mut self, from: PartyId) -> impl Future<Output = Result<Vec<u8>, NetError>> {
            self.inner.recv(from)
        }
        fn stats(&self) -> NetStats {
            self.inner.stats()
        }
    }
    let configs = psk_configs(2, b"recording");
    let configs = &configs;
    let secret = b"attack at dawn, attack at dawn!!".to_vec();
    let secret = &secret;
    let seen = run_session(2, |net| {
        let config = configs[net.party()].clone();
        async move {
            let mut net = establish_seeded(Recording { inner: net, seen: Vec::new() }, config).await.unwrap();
            if net.party() == 0 {
                net.send(1, secret.clone()).unwrap();
                net.send(1, secret.clone()).unwrap();
            } else {
                assert_eq!(net.recv(0).await.unwrap(), *secret);
                assert_eq!(net.recv(0).await.unwrap(), *secret);
            }
            net.inner.seen.clone()
        }
    });
    let frames = &seen[0][1..];
    assert_eq!(frames.len(), 2);
    for frame in frames {
        assert!(!frame.windows(8).any(|w| secret.windows(8).any(|s| s == w)), "plaintext visible in a frame");
    }
    assert_ne!(frames[0][HEADER_LEN..], frames[1][HEADER_LEN..], "equal messages must encrypt differently");
}

/// Runs a two- or three-party establishment and returns each party's outcome.
fn establish_outcomes(configs: Vec<SecureConfig>) -> Vec<Result<ChannelMode, SecureError>> {
    let n = configs.len();
    let configs = &configs;
    run_session(n, |net| {
        let config = configs[net.party()].clone();
        async move { establish_seeded(net, config).await.map(|net| net.mode()) }
    })
}

#[test]
fn wrong_session_secret_is_a_handshake_error() {
    let mut configs = psk_configs(3, b"s");
    configs[2] = SecureConfig::session_secret(b"s", b"another 32-byte session secret!!");
    let outcomes = establish_outcomes(configs);
    assert_eq!(outcomes[2], Err(SecureError::HandshakeAuthentication { peer: 0, mode: ChannelMode::NnPsk0 }));
    assert_eq!(outcomes[0], Err(SecureError::Net(NetError::PeerLeft(2))));
    assert_eq!(outcomes[1], Err(SecureError::Net(NetError::PeerLeft(2))));
    let message = outcomes[2].as_ref().unwrap_err().to_string();
    assert!(message.contains("party 0") && message.contains("different session secret"), "{message}");
}

#[test]
fn wrong_session_id_is_a_handshake_error() {
    let mut configs = psk_configs(2, b"session A");
    configs[1] = psk_configs(2, b"session B").remove(1);
    let outcomes = establish_outcomes(configs);
    assert_eq!(outcomes[1], Err(SecureError::HandshakeAuthentication { peer: 0, mode: ChannelMode::NnPsk0 }));
}

#[test]
fn kk_with_a_wrong_pinned_key_is_a_handshake_error() {
    // Party 2 pins a key for party 0 that party 0 does not hold.
    let (keys, publics) = kk_keys(3);
    let mut configs = kk_configs(3, b"kk");
    let mut wrong = publics;
    wrong[0] = PrivateKey::generate(&mut seeded_rng(9)).public_key();
    configs[2] = SecureConfig::pinned_keys(b"kk", keys[2].clone(), wrong);
    let outcomes = establish_outcomes(configs);
    assert_eq!(outcomes[2], Err(SecureError::HandshakeAuthentication { peer: 0, mode: ChannelMode::Kk }));
    assert_eq!(outcomes[0], Err(SecureError::Net(NetError::PeerLeft(2))));
    assert_eq!(outcomes[1], Err(SecureError::Net(NetError::PeerLeft(2))));
    let message = outcomes[2].as_ref().unwrap_err().to_string();
    assert!(message.contains("static key is not the pinned one"), "{message}");
}

#[test]
fn kk_impostor_holding_another_key_is_rejected() {
    // Party 1 runs with a key of its own choosing; party 0 pinned the real one.
    let (_, publics) = kk_keys(2);
    let mut configs = kk_configs(2, b"kk2");
    let impostor = PrivateKey::generate(&mut seeded_rng(5));
    let mut claimed = publics;
    claimed[1] = impostor.public_key();
    configs[1] = SecureConfig::pinned_keys(b"kk2", impostor, claimed);
    let outcomes = establish_outcomes(configs);
    // Party 1 (responder) fails first: message 1 was made for the real key of party 1.
    assert_eq!(outcomes[1], Err(SecureError::HandshakeAuthentication { peer: 0, mode: ChannelMode::Kk }));
    assert_eq!(outcomes[0], Err(SecureError::Net(NetError::PeerLeft(1))));
}

#[test]
fn bad_configurations_fail_before_any_message() {
    let (_, publics) = kk_keys(3);
    let other = PrivateKey::generate(&mut seeded_rng(3));
    let mut nets = MemoryNetwork::session(3);
    let r = futures::executor::block_on(establish_seeded(
        nets.remove(1),
        SecureConfig::pinned_keys(b"c", other, publics.clone()),
    ));
    assert_eq!(r.unwrap_err(), SecureError::OwnKeyMismatch { party: 1 });
    let r = futures::executor::block_on(establish_seeded(nets.remove(1), kk_configs(2, b"c").remove(0)));
    assert_eq!(r.unwrap_err(), SecureError::KeyCount { keys: 2, parties: 3 });
    let r = futures::executor::block_on(establish_seeded(
        nets.remove(0),
        SecureConfig::session_secret(b"c", b"tiny"),
    ));
    assert_eq!(r.unwrap_err(), SecureError::SecretTooShort { len: 4, min: config::MIN_SECRET_LEN });
}

#[test]
fn secure_errors_convert_to_net_errors() {
    let e: NetError = SecureError::HandshakeAuthentication { peer: 3, mode: ChannelMode::Kk }.into();
    assert!(
        matches!(e, NetError::Integrity { peer: 3, ref reason } if reason.contains("handshake with party 3"))
    );
    let e: NetError = SecureError::Net(NetError::PeerLeft(2)).into();
    assert_eq!(e, NetError::PeerLeft(2));
    let e: NetError = SecureError::SecretTooShort { len: 1, min: 16 }.into();
    assert!(matches!(e, NetError::Transport(ref m) if m.contains("too short")));
}

#[test]
fn bad_addresses_are_errors_without_poisoning() {
    let configs = psk_configs(2, b"addr");
    let configs = &configs;
    run_session(2, |net| {
        let config = configs[net.party()].clone();
        async move {
            let mut net = establish_seeded(net, config).await.unwrap();
            let me = net.party();
            assert_eq!(net.send(me, vec![1]), Err(NetError::SelfAddressed(me)));
            assert_eq!(net.send(7, vec![1]), Err(NetError::UnknownParty { party: 7, parties: 2 }));
            assert_eq!(net.recv(9).await, Err(NetError::UnknownParty { party: 9, parties: 2 }));
            assert!(net.poisoned().is_none());
            net.send(1 - me, vec![me as u8]).unwrap();
            assert_eq!(net.recv(1 - me).await.unwrap(), vec![(1 - me) as u8]);
        }
    });
}

/// A transport that can hold back the frames it is asked to send, for delivering them by hand.
struct Gate {
    inner: MemoryNetwork,
    hold: bool,
    held: Vec<Vec<u8>>,
}

impl Network for Gate {
    fn party(&self) -> PartyId {
        self.inner.party()
    }
    fn parties(&self) -> usize {
        self.inner.parties()
    }
    fn send(&mut self, to: PartyId, msg: Vec<u8>) -> Result<(), NetError> {
        if self.hold {
            self.held.push(msg);
            Ok(())
        } else {
            self.inner.send(to, msg)
        }
    }
    fn recv(&mut self, from: PartyId) -> impl Future<Output = Result<Vec<u8>, NetError>> {
        self.inner.recv(from)
    }
    fn stats(&self) -> NetStats {
        self.inner.stats()
    }
}

#[test]
fn cancelled_recv_loses_no_chunk() {
    use futures::FutureExt;
    let configs = kk_configs(2, b"cancel");
    let mut nets = MemoryNetwork::session(2);
    let receiver = nets.pop().unwrap();
    let sender = Gate { inner: nets.pop().unwrap(), hold: false, held: Vec::new() };
    let (sender, receiver) = futures::executor::block_on(futures::future::join(
        establish_seeded(sender, configs[0].clone()),
        establish_seeded(receiver, configs[1].clone()),
    ));
    let (mut sender, mut receiver) = (sender.unwrap(), receiver.unwrap());
    let msg: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    sender.inner.hold = true;
    sender.send(1, msg.clone()).unwrap();
    let frames = core::mem::take(&mut sender.inner.held);
    assert_eq!(frames.len(), 4);
    let mut frames = frames.into_iter();
    for frame in frames.by_ref().take(2) {
        sender.inner.inner.send(1, frame).unwrap();
    }
    // The receive consumes the two available chunks, then is dropped while waiting for more.
    assert!(receiver.recv(0).now_or_never().is_none());
    assert_eq!(receiver.stats().messages_received, 0);
    for frame in frames {
        sender.inner.inner.send(1, frame).unwrap();
    }
    assert_eq!(futures::executor::block_on(receiver.recv(0)).unwrap(), msg);
    assert_eq!(receiver.stats().bytes_received, 200_000);
    assert_eq!(receiver.stats().messages_received, 1);
}

#[test]
fn secure_network_is_send_when_its_transport_is() {
    fn assert_send<T: Send>() {}
    assert_send::<SecureNetwork<MemoryNetwork>>();
}
