//! The batched MAC check on its own, among three parties over real message passing: logs that
//! span several coin chunks and end inside an AES block of χ pass when every opened value is
//! right, and fail with [`Check::Mac`] when any one of them is wrong — whichever 42-bit slice of
//! which block its χ comes from.

use rand_core::RngCore;

use super::params;
use crate::net::memory::run_session;
use crate::net::Network;
use crate::proto::coral::checks::{mac_check, OpenedLog};
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::Channel;
use crate::rng::seeded_rng;

const PARTIES: usize = 3;
/// Two coin chunks and a partial block: 2,000 = 1,026 + 974 = 1,026 + 3 · 324 + 2.
const VALUES: usize = 2_000;

/// Runs the MAC check at three parties whose logs hold `VALUES` opened values with consistent
/// MAC shares under a random α, except that the value at `wrong` (if any) is opened wrong by one
/// bit at every party. Returns each party's result.
fn check(wrong: Option<usize>) -> Vec<Result<(), CoralError>> {
    let params = params();
    let field = *params.field();
    let mut rng = seeded_rng(4242);
    let mut random = || field.from_random_bits(rng.next_u64());
    let alphas: Vec<u64> = (0..PARTIES).map(|_| random()).collect();
    let alpha = alphas.iter().fold(0, |a, b| a ^ b);
    let values: Vec<u64> = (0..VALUES).map(|_| random()).collect();
    let mut macs = vec![vec![0u64; VALUES]; PARTIES];
    for (l, &x) in values.iter().enumerate() {
        let mut last = field.mul(alpha, x);
        for mac in macs.iter_mut().take(PARTIES - 1) {
            mac[l] = random();
            last ^= mac[l];
        }
        macs[PARTIES - 1][l] = last;
    }
    let mut opened = values.clone();
    if let Some(l) = wrong {
        opened[l] ^= 1 << 17;
    }
    run_session(PARTIES, |mut net| {
        let me = net.party();
        let (params, alpha, opened, macs) = (params.clone(), alphas[me], opened.clone(), macs[me].clone());
        async move {
            let mut log = OpenedLog::default();
            log.extend(&opened, macs.into_iter());
            let mut rng = seeded_rng(7 + me as u64);
            mac_check(&params, &mut Channel::default(), &mut net, &mut rng, alpha, &mut log).await?;
            assert!(log.is_empty(), "the check empties its log");
            Ok(())
        }
    })
}

#[test]
fn right_openings_across_chunks_and_a_partial_block_pass() {
    for (p, r) in check(None).into_iter().enumerate() {
        assert_eq!(r, Ok(()), "party {p}");
    }
}

#[test]
fn a_wrong_opening_fails_whichever_slice_and_chunk_its_coin_comes_from() {
    // The three slices of the first block, the last value of the first chunk, the first of the
    // second, and the last value (the second slice of a partial block).
    for wrong in [0, 1, 2, 1_025, 1_026, VALUES - 1] {
        for (p, r) in check(Some(wrong)).into_iter().enumerate() {
            assert_eq!(r, Err(CoralError::failed(Check::Mac)), "value {wrong}, party {p}");
        }
    }
}
