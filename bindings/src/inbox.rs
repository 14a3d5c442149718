//! The receiving half of a JS-bridged network: one FIFO per peer, fed by JS (`deliver`), drained
//! by Rust futures (`recv`); a pending `recv` parks its `Waker` until JS delivers a frame or reports
//! a failure. In WebAssembly everything runs on the JS thread; in the Node addon the job runs on a
//! worker thread while JS delivers from the main thread, so the state sits behind a mutex (never
//! contended in WebAssembly). Nothing here touches JS, so it is tested natively.

use chorus_core::net::{NetError, PartyId};
use core::task::{Context, Poll, Waker};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

#[derive(Debug)]
struct State {
    queues: Vec<VecDeque<Vec<u8>>>,
    waiting: Vec<Option<Waker>>,
    failure: Option<NetError>,
}

/// Per-peer frame queues shared between the JS side and the protocol future.
#[derive(Debug, Clone)]
pub struct Inbox {
    state: Arc<Mutex<State>>,
}

impl Inbox {
    /// Empty queues for a session of `parties` parties.
    pub fn new(parties: usize) -> Self {
        Inbox {
            state: Arc::new(Mutex::new(State {
                queues: vec![VecDeque::new(); parties],
                waiting: vec![None; parties],
                failure: None,
            })),
        }
    }

    /// The state; a panic while it was held cannot leave it inconsistent (every update is one
    /// step), so a poisoned lock is taken over.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Queues a frame from `from` and wakes a `recv` waiting for it. Frames arriving after a
    /// failure are dropped: the session is over.
    pub fn deliver(&self, from: PartyId, frame: Vec<u8>) -> Result<(), NetError> {
        let waker = {
            let mut state = self.lock();
            let parties = state.queues.len();
            if from >= parties {
                return Err(NetError::UnknownParty { party: from, parties });
            }
            if state.failure.is_some() {
                return Ok(());
            }
            state.queues[from].push_back(frame);
            state.waiting[from].take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
        Ok(())
    }

    /// Ends the session with `error`: every pending and later `recv` fails with it (the first
    /// failure wins).
    pub fn fail(&self, error: NetError) {
        let wakers: Vec<Waker> = {
            let mut state = self.lock();
            if state.failure.is_none() {
                state.failure = Some(error);
            }
            state.waiting.iter_mut().filter_map(Option::take).collect()
        };
        for waker in wakers {
            waker.wake();
        }
    }

    /// The failure that ended the session, if any.
    pub fn failure(&self) -> Option<NetError> {
        self.lock().failure.clone()
    }

    /// Polls for the next frame from `from`. After a peer left, the frames that arrived before its
    /// departure are still handed out (a party that finished may leave while a slower one still
    /// processes its last messages); any other failure (transport, cancellation) is reported at once.
    pub fn poll_recv(&self, from: PartyId, cx: &mut Context<'_>) -> Poll<Result<Vec<u8>, NetError>> {
        let mut state = self.lock();
        let drain_first = matches!(state.failure, None | Some(NetError::PeerLeft(_)));
        if drain_first {
            if let Some(frame) = state.queues[from].pop_front() {
                return Poll::Ready(Ok(frame));
            }
        }
        if let Some(error) = &state.failure {
            return Poll::Ready(Err(error.clone()));
        }
        state.waiting[from] = Some(cx.waker().clone());
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;
    use futures::future::poll_fn;
    use futures::task::noop_waker;

    #[test]
    fn frames_arrive_per_peer_in_order() {
        let inbox = Inbox::new(3);
        inbox.deliver(2, vec![1]).unwrap();
        inbox.deliver(1, vec![9]).unwrap();
        inbox.deliver(2, vec![2]).unwrap();
        let recv = |p| block_on(poll_fn(|cx| inbox.poll_recv(p, cx)));
        assert_eq!(recv(2), Ok(vec![1]));
        assert_eq!(recv(2), Ok(vec![2]));
        assert_eq!(recv(1), Ok(vec![9]));
    }

    #[test]
    fn pending_recv_is_woken_by_delivery_and_failure() {
        let inbox = Inbox::new(2);
        let waker = noop_waker();
        let mut cx = Context::from_waker(&waker);
        assert!(inbox.poll_recv(1, &mut cx).is_pending());
        assert!(inbox.lock().waiting[1].is_some());
        inbox.deliver(1, vec![5]).unwrap();
        assert!(inbox.lock().waiting[1].is_none());
        assert_eq!(inbox.poll_recv(1, &mut cx), Poll::Ready(Ok(vec![5])));
        assert!(inbox.poll_recv(1, &mut cx).is_pending());
        inbox.fail(NetError::PeerLeft(1));
        assert_eq!(inbox.poll_recv(1, &mut cx), Poll::Ready(Err(NetError::PeerLeft(1))));
    }

    #[test]
    fn first_failure_wins_and_later_frames_are_dropped() {
        let inbox = Inbox::new(3);
        inbox.fail(NetError::PeerLeft(2));
        inbox.fail(NetError::Transport("later".into()));
        inbox.deliver(0, vec![2]).unwrap();
        let waker = noop_waker();
        let mut cx = Context::from_waker(&waker);
        assert_eq!(inbox.poll_recv(0, &mut cx), Poll::Ready(Err(NetError::PeerLeft(2))));
        assert_eq!(inbox.failure(), Some(NetError::PeerLeft(2)));
    }

    #[test]
    fn frames_before_a_departure_are_still_received_but_not_after_a_transport_failure() {
        let waker = noop_waker();
        let mut cx = Context::from_waker(&waker);
        let left = Inbox::new(3);
        left.deliver(2, vec![7]).unwrap();
        left.fail(NetError::PeerLeft(2));
        assert_eq!(left.poll_recv(2, &mut cx), Poll::Ready(Ok(vec![7])));
        assert_eq!(left.poll_recv(2, &mut cx), Poll::Ready(Err(NetError::PeerLeft(2))));
        let broken = Inbox::new(3);
        broken.deliver(2, vec![7]).unwrap();
        broken.fail(NetError::Transport("cancelled".into()));
        assert_eq!(broken.poll_recv(2, &mut cx), Poll::Ready(Err(NetError::Transport("cancelled".into()))));
    }

    #[test]
    fn delivery_from_unknown_party_is_an_error() {
        let inbox = Inbox::new(3);
        assert_eq!(inbox.deliver(3, vec![]), Err(NetError::UnknownParty { party: 3, parties: 3 }));
    }
}
