//! The thread of one relay link ([`crate::relay::RelayLink`]): a tokio current-thread runtime
//! that hosts the link's connection task *and* the session's jobs, as the Rust runner runs a party
//! (`chorus-party`: the relay client's tasks on the party's own runtime). A frame a job sends is
//! written by the same thread at the job's next await, and a frame that arrives wakes the job
//! without a hand-over between threads — the hand-overs are what a round costs most on a small
//! machine where every party shares the cores. The price, as in the runner: while a job computes,
//! the connection is not read; the relay buffers meanwhile.
//!
//! The thread ends once the link was closed and no job is left on it: a job still running when
//! the session closes (it fails at its next receive) settles its promise first.

use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::runtime::{Builder, Handle};
use tokio::sync::Notify;

/// How long the thread has to live: jobs on it, and whether the link was closed.
#[derive(Debug, Default)]
struct Lifetime {
    jobs: usize,
    closed: bool,
}

#[derive(Debug, Default)]
struct Shared {
    lifetime: Mutex<Lifetime>,
    changed: Notify,
}

impl Shared {
    fn lifetime(&self) -> MutexGuard<'_, Lifetime> {
        self.lifetime.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn update(&self, change: impl FnOnce(&mut Lifetime)) {
        change(&mut self.lifetime());
        self.changed.notify_one();
    }
}

/// A link's runtime thread; see the module documentation.
#[derive(Debug, Clone)]
pub(crate) struct LinkThread {
    handle: Handle,
    shared: Arc<Shared>,
}

impl LinkThread {
    /// Starts the thread (`chorus-link`).
    pub(crate) fn start() -> std::io::Result<Self> {
        let runtime = Builder::new_current_thread().enable_all().build()?;
        let handle = runtime.handle().clone();
        let shared = Arc::new(Shared::default());
        let keep = Arc::clone(&shared);
        std::thread::Builder::new().name("chorus-link".into()).spawn(move || {
            runtime.block_on(async move {
                loop {
                    {
                        let lifetime = keep.lifetime();
                        if lifetime.closed && lifetime.jobs == 0 {
                            return;
                        }
                    }
                    // `notify_one` leaves a permit when nobody waits: no change is missed.
                    keep.changed.notified().await;
                }
            });
        })?;
        Ok(LinkThread { handle, shared })
    }

    /// Runs `task` (the connection's join, its close) on the thread.
    pub(crate) fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        self.handle.spawn(task);
    }

    /// Runs a job on the thread; the thread outlives it.
    pub(crate) fn spawn_job(&self, job: impl Future<Output = ()> + Send + 'static) {
        self.shared.update(|l| l.jobs += 1);
        let done = JobDone(Arc::clone(&self.shared));
        self.handle.spawn(async move {
            job.await;
            drop(done);
        });
    }

    /// The link is closed: the thread ends once no job is left.
    pub(crate) fn close(&self) {
        self.shared.update(|l| l.closed = true);
    }
}

/// Counts a job out when it ends, also when it panics (tokio then drops the task).
struct JobDone(Arc<Shared>);

impl Drop for JobDone {
    fn drop(&mut self) {
        self.0.update(|l| l.jobs -= 1);
    }
}
