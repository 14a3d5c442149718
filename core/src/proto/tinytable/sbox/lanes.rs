//! Pipelining the S-box rounds of a batch over lanes.
//!
//! In a round of the S-box online phases (§2.3) each party gathers its table entries of every
//! block, sends them, waits for the peer's and applies the linear layer. Run over the whole batch
//! at once, every round is compute, then a message in flight with both parties idle, then compute.
//! Splitting the batch into two *lanes* (halves) hides that idle time: while one lane's message is
//! in flight, the party computes the other lane's round, so in the steady state each party's core
//! is busy as long as a lane's compute takes longer than a message's trip.
//!
//! Schedule, identical at both parties so the peer's messages arrive in the order they are read:
//! send round `first` of every lane; then for each round `r` and each lane `ℓ` in order: receive
//! the peer's round-`r` message of `ℓ`, absorb it, and (unless `r` is the last round) send `ℓ`'s
//! round-`r + 1` message. Bytes are exactly those of the unsplit batch; only the number of
//! messages doubles.
//!
//! Rounds: a lane's messages still form a chain of one message per round, so the latency of the
//! batch is that of one lane. The network's round counter ([`crate::net::NetStats::rounds`]: a
//! round starts with the first send after a receive) sees the interleaving as `1 + 2 (R − 1)`
//! rounds for `R` rounds run over the lanes: it counts each lane's exchange separately. Batches smaller than
//! [`MIN_LANE_BLOCKS`] per lane use one lane, so a single block (the sequential latency) still
//! takes exactly the paper's round count.
//!
//! After each send of a pipelined batch the party yields once to its executor: on a
//! single-threaded runtime the transport's writer task runs only when the protocol awaits, and the
//! point of sending early is that the message leaves before the next lane's compute.

use crate::net::{yield_now, Network};
use crate::proto::tinytable::error::{Step, TinyTableError};
use crate::proto::tinytable::msg::{recv, send};
use core::ops::Range;

/// The fewest blocks per lane: smaller batches run as one lane (their rounds are too short for
/// the overlap to pay for the extra message).
pub(crate) const MIN_LANE_BLOCKS: usize = 64;

/// The lanes of a batch of `n` blocks: one lane if `n < 2 · MIN_LANE_BLOCKS`, else two halves.
pub(crate) fn lanes(n: usize) -> Vec<Range<usize>> {
    if n < 2 * MIN_LANE_BLOCKS {
        core::iter::once(0..n).collect()
    } else {
        vec![0..n / 2, n / 2..n]
    }
}

/// One party's side of the rounds of a batch, lane by lane.
pub(crate) trait LaneRounds {
    /// This party's message of round `round` for the blocks of `lane`.
    fn message(&mut self, lane: Range<usize>, round: usize) -> Result<Vec<u8>, TinyTableError>;

    /// The length the peer's message of round `round` for `lane` must have.
    fn expected_len(&self, lane: Range<usize>, round: usize) -> usize;

    /// Takes in the peer's message of round `round` for `lane` (length checked).
    fn absorb(&mut self, lane: Range<usize>, round: usize, theirs: Vec<u8>) -> Result<(), TinyTableError>;
}

/// Runs rounds `rounds` (each tagged `step(r)` in errors) of `side` over `lanes` with the schedule
/// of the module docs.
pub(crate) async fn run_lanes<N: Network, S: LaneRounds>(
    net: &mut N,
    side: &mut S,
    lanes: &[Range<usize>],
    rounds: Range<usize>,
    step: impl Fn(usize) -> Step,
) -> Result<(), TinyTableError> {
    let pipelined = lanes.len() > 1;
    let Some(last) = rounds.end.checked_sub(1).filter(|_| !rounds.is_empty()) else { return Ok(()) };
    for lane in lanes {
        let msg = side.message(lane.clone(), rounds.start)?;
        send(net, step(rounds.start), msg)?;
        if pipelined {
            yield_now().await;
        }
    }
    for round in rounds {
        for lane in lanes {
            let theirs = recv(net, step(round), side.expected_len(lane.clone(), round)).await?;
            side.absorb(lane.clone(), round, theirs)?;
            if round < last {
                let msg = side.message(lane.clone(), round + 1)?;
                send(net, step(round + 1), msg)?;
                if pipelined {
                    yield_now().await;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_batches_run_as_one_lane_and_large_ones_as_two_halves() {
        assert_eq!(lanes(1), vec![0..1]);
        assert_eq!(lanes(2 * MIN_LANE_BLOCKS - 1), vec![0..2 * MIN_LANE_BLOCKS - 1]);
        assert_eq!(
            lanes(2 * MIN_LANE_BLOCKS),
            vec![0..MIN_LANE_BLOCKS, MIN_LANE_BLOCKS..2 * MIN_LANE_BLOCKS]
        );
        assert_eq!(lanes(1025), vec![0..512, 512..1025]);
    }
}
