//! The process's transport thread (`chorus-io`): one tokio runtime on a thread of its own that
//! owns every socket of the TCP mesh ([`crate::tcp`]) and runs their reader and writer tasks.
//!
//! Why: a party runs its protocol on a current-thread runtime (protocol futures are not `Send`),
//! and a protocol step computes for milliseconds between two awaits. If the socket tasks ran on
//! that runtime, a message `send` queued before such a step would leave only at the party's next
//! await, and frames arriving meanwhile would wait in the kernel — the peer idles for the length of
//! the step. On their own thread, frames go out as soon as they are queued and are read as they
//! arrive, as in the Node addon, whose transport runs on the JS thread while the job computes.
//!
//! The cost is a hand-over between threads per frame, which round-bound jobs (one block, dozens
//! of rounds) pay in latency. The relay transport ([`crate::relay`]) keeps its tasks on the
//! party's runtime: its frames already take two hops through the relay, and there the extra
//! hand-over cost one-block jobs more than large jobs gained.

use std::sync::OnceLock;
use tokio::runtime::{Builder, Handle};

/// The transport runtime: a current-thread runtime driven for the life of the process by its own
/// thread, started on first use; tasks are spawned onto it through its handle.
pub(crate) fn handle() -> &'static Handle {
    static HANDLE: OnceLock<Handle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let runtime =
            Builder::new_current_thread().enable_all().build().expect("the transport runtime builds");
        let handle = runtime.handle().clone();
        std::thread::Builder::new()
            .name("chorus-io".into())
            .spawn(move || runtime.block_on(std::future::pending::<()>()))
            .expect("spawning the transport thread");
        handle
    })
}
