//! Tests of MiniMac: honest runs (FIPS-197 through both codes, the reference Bristol AES circuit,
//! random circuits against plaintext evaluation, 2 and 3 parties), attacks (each detected before
//! any output), and exact communication for one AES batch.

mod attacks;
mod comm;
mod honest;
mod ot_provider;
mod ot_provider_n;
mod private;

use super::prep::{PartyPrep, PrepRequest, TrustedDealer};
use super::{evaluate, BatchOutputs, MiniMacError, Options};
use crate::circuit::Circuit;
use crate::net::memory::run_session;
use crate::net::{NetStats, Network};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

/// Material for every party from a seeded dealer.
pub(super) fn deal(request: &PrepRequest, seed: u64) -> Vec<PartyPrep> {
    TrustedDealer::new(ChaCha20Rng::seed_from_u64(seed)).deal(request).expect("dealing succeeds")
}

/// Which input values each party owns: value `v` belongs to party `v mod parties`.
pub(super) fn round_robin_owners(circuit: &Circuit, parties: usize) -> Vec<usize> {
    (0..circuit.input_widths().len()).map(|v| v % parties).collect()
}

/// Party `party`'s own input values of every instance.
pub(super) fn own_inputs(all: &[Vec<Vec<bool>>], owners: &[usize], party: usize) -> Vec<Vec<Vec<bool>>> {
    all.iter()
        .map(|values| {
            values.iter().zip(owners).filter(|(_, &o)| o == party).map(|(v, _)| v.clone()).collect()
        })
        .collect()
}

/// Runs `evaluate` for every party over the in-memory network, each party's network wrapped by
/// `wrap` (which may tamper), and returns each party's result and statistics.
pub(super) fn run<W, M>(
    circuit: &Circuit,
    preps: Vec<PartyPrep>,
    all_inputs: &[Vec<Vec<bool>>],
    owners: &[usize],
    options: Options,
    wrap: W,
) -> Vec<(Result<BatchOutputs, MiniMacError>, NetStats)>
where
    W: Fn(crate::net::memory::MemoryNetwork) -> M,
    M: Network,
{
    let parties = preps.len();
    let preps = std::cell::RefCell::new(preps.into_iter().map(Some).collect::<Vec<_>>());
    run_session(parties, |net| {
        let party = net.party();
        let prep = preps.borrow_mut()[party].take().expect("material per party");
        let inputs = own_inputs(all_inputs, owners, party);
        let mut net = wrap(net);
        async move {
            let mut rng = ChaCha20Rng::seed_from_u64(1000 + party as u64);
            let result = evaluate(&mut net, circuit, &prep, &inputs, options, &mut rng).await;
            (result, net.stats())
        }
    })
}
