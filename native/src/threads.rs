//! Running the parties of a local session on one OS thread each, every thread with its own
//! current-thread tokio runtime (protocol futures are not `Send`, and one thread per party keeps
//! parties from competing for one executor). Used by tests and the benchmark.

use std::future::Future;

/// Runs `party(i)` for `i` in `0..n`, each on its own thread and runtime, and returns the results
/// in party order. A party that panics makes this panic with its index.
pub fn run_party_threads<T, F, Fut>(n: usize, party: F) -> Vec<T>
where
    T: Send + 'static,
    F: Fn(usize) -> Fut + Send + Sync + Clone + 'static,
    Fut: Future<Output = T>,
{
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let party = party.clone();
            std::thread::Builder::new()
                .name(format!("party-{i}"))
                .spawn(move || {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .expect("a current-thread tokio runtime builds");
                    runtime.block_on(party(i))
                })
                .expect("spawning a party thread")
        })
        .collect();
    handles
        .into_iter()
        .enumerate()
        .map(|(i, h)| h.join().unwrap_or_else(|_| panic!("party {i} panicked")))
        .collect()
}
