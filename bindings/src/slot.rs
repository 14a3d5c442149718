//! A bridge's jobs, one at a time, over the session's channels kept between them: [`JobSlot`]
//! hands the channels and the session's prepared material ([`Prepared`]) to the running job
//! ([`Claim`]) and takes them back when the job's claim is dropped — before its promise settles,
//! so the next job can start as soon as the caller sees the result. A failed job's session keeps
//! no prepared material. Both bindings share it: the WASM job runs on the JS thread, the Node
//! addon's on a thread of its own.

use crate::error::BridgeError;
use crate::jobs::Channels;
use chorus_core::jobs::Prepared;
use std::sync::{Arc, Mutex, MutexGuard};

struct State<N> {
    busy: bool,
    opened: bool,
    channels: Channels<N>,
    prepared: Prepared,
}

/// The job slot of one bridge.
pub struct JobSlot<N> {
    state: Arc<Mutex<State<N>>>,
}

impl<N> Default for JobSlot<N> {
    fn default() -> Self {
        JobSlot {
            state: Arc::new(Mutex::new(State {
                busy: false,
                opened: false,
                channels: None,
                prepared: Prepared::default(),
            })),
        }
    }
}

fn lock<N>(state: &Mutex<State<N>>) -> MutexGuard<'_, State<N>> {
    // Every update is one step, so a panic elsewhere cannot leave the state half-written.
    state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<N> JobSlot<N> {
    /// Claims the slot for a job, with the channels if an earlier job opened them. A `config`
    /// error on `bridge` while another job runs, or once a job failed after the channels were open
    /// (the session is over: its channels are closed and the peers have failed too).
    pub fn claim(&self) -> Result<Claim<N>, BridgeError> {
        let mut state = lock(&self.state);
        if state.busy {
            return Err(BridgeError::config(
                "bridge",
                "a job is already running on this bridge; one at a time",
            ));
        }
        if state.opened && state.channels.is_none() {
            return Err(BridgeError::config(
                "bridge",
                "an earlier job of this session failed and closed its channels; start a new session",
            ));
        }
        state.busy = true;
        Ok(Claim {
            channels: state.channels.take(),
            prepared: core::mem::take(&mut state.prepared),
            state: Arc::clone(&self.state),
        })
    }

    /// Reads the session's prepared material between jobs (a `config` error on `bridge` while a
    /// job runs: the material is the job's then).
    pub fn peek_prepared<T>(&self, read: impl FnOnce(&Prepared) -> T) -> Result<T, BridgeError> {
        let state = lock(&self.state);
        if state.busy {
            return Err(BridgeError::config(
                "bridge",
                "a job is already running on this bridge; one at a time",
            ));
        }
        Ok(read(&state.prepared))
    }
}

/// A running job's hold on the slot: the session's channels (none before the first job) while
/// the job runs; dropping it hands them back and frees the slot.
pub struct Claim<N> {
    /// The channels the job runs over (the job opens them if none).
    pub channels: Channels<N>,
    /// The session's prepared material while the job runs.
    pub prepared: Prepared,
    state: Arc<Mutex<State<N>>>,
}

impl<N> Drop for Claim<N> {
    fn drop(&mut self) {
        let mut state = lock(&self.state);
        state.opened |= self.channels.is_some();
        state.channels = self.channels.take();
        // Material of a session whose channels closed is of no use any more.
        state.prepared =
            if state.channels.is_some() { core::mem::take(&mut self.prepared) } else { Prepared::default() };
        state.busy = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn one_job_at_a_time() {
        let slot = JobSlot::<()>::default();
        let claim = slot.claim().unwrap();
        let busy = slot.claim().err().unwrap();
        assert_eq!((busy.kind, busy.detail.as_deref()), (ErrorKind::Config, Some("bridge")));
        drop(claim);
        assert!(slot.claim().is_ok());
    }

    #[test]
    fn a_failure_after_the_channels_opened_ends_the_slot() {
        // Without channels (no session opened yet) a failed job leaves the slot usable; the
        // channels themselves are covered by the bridge tests, as a `SecureNetwork` needs peers.
        let slot = JobSlot::<()>::default();
        drop(slot.claim().unwrap());
        assert!(slot.claim().is_ok());
        lock(&slot.state).opened = true;
        let over = slot.claim().err().unwrap();
        assert!(over.message.contains("start a new session"), "{}", over.message);
    }
}
