//! Outputs revealed to one party only ([`crate::proto::coral::online::Party::output_to`]): the
//! recipient gets the right bits and the others `None`, at the cost of an opening to everybody;
//! a non-recipient that changes its share of a private output makes every party abort at the MAC
//! check with no output.

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use super::circuits::{own, random_circuit, random_inputs};
use super::{deal, run, Deviation};
use crate::circuit::Circuit;
use crate::net::{NetStats, Network, PartyId};
use crate::proto::coral::circuit::{demand, demand_revealed, evaluate, evaluate_revealed, RevealedOutputs};
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::{Step, HEADER_BYTES};

/// Runs `circuit` with output value v for `recipients[v]`, dealer material; per party its
/// result and its communication.
fn run_revealed(
    circuit: &Circuit,
    owners: &[PartyId],
    recipients: &[Option<PartyId>],
    parties: usize,
    inputs: &[Vec<Vec<bool>>],
    deviation: Deviation,
) -> Vec<Result<(Vec<RevealedOutputs>, NetStats), CoralError>> {
    let batch = inputs.len();
    let d = demand_revealed(circuit, owners, recipients, parties, batch).expect("demand");
    run(deal(40, parties, &d), deviation, |mut party, mut net| {
        let mine = own(inputs, owners, party.party());
        async move {
            let out =
                evaluate_revealed(&mut party, &mut net, circuit, owners, recipients, batch, &mine).await?;
            Ok((out, net.stats()))
        }
    })
}

#[test]
fn mixed_recipients_match_plaintext_and_cost_what_opening_to_everybody_costs() {
    let mut rng = ChaCha20Rng::seed_from_u64(91);
    for (parties, recipients) in
        [(2, vec![Some(0), Some(1), None]), (3, vec![Some(2), None, Some(0)]), (2, vec![Some(1); 3])]
    {
        let circuit = random_circuit(&mut rng, 2, 80, 3);
        let owners: Vec<PartyId> = (0..2).map(|v| v % parties).collect();
        let inputs = random_inputs(&mut rng, &circuit, 31);
        let results = run_revealed(&circuit, &owners, &recipients, parties, &inputs, Deviation::none());
        let d = demand(&circuit, &owners, parties, inputs.len()).unwrap();
        let both = run(deal(40, parties, &d), Deviation::none(), |mut party, mut net| {
            let mine = own(&inputs, &owners, party.party());
            let (circuit, owners) = (&circuit, &owners);
            async move {
                evaluate(&mut party, &mut net, circuit, owners, 31, &mine).await?;
                Ok(net.stats())
            }
        });
        for (party, (result, both)) in results.into_iter().zip(both).enumerate() {
            let (outputs, stats) = result.unwrap_or_else(|e| panic!("party {party}: {e}"));
            for (i, instance) in outputs.iter().enumerate() {
                let expected = circuit.evaluate(&inputs[i]).unwrap();
                for (v, got) in instance.iter().enumerate() {
                    let want = recipients[v].is_none_or(|p| p == party).then(|| expected[v].clone());
                    assert_eq!(got, &want, "{parties} parties, party {party}, instance {i}, value {v}");
                }
            }
            assert_eq!(stats, both.unwrap(), "{parties} parties, party {party}: bytes and rounds");
        }
    }
}

#[test]
fn recipients_that_do_not_fit_are_bad_input() {
    let circuit = random_circuit(&mut ChaCha20Rng::seed_from_u64(92), 2, 30, 2);
    for recipients in [vec![Some(2), None], vec![None]] {
        let err = demand_revealed(&circuit, &[0, 1], &recipients, 2, 14).unwrap_err();
        assert!(matches!(err, CoralError::BadInput(_)), "{recipients:?}: {err}");
    }
}

/// Party 1 is not the recipient of output value 0 (party 0 is) and flips a bit of its share of
/// `y + r` in the output opening: the MAC check after the opening fails at every party, and
/// nobody returns an output.
#[test]
fn a_non_recipient_that_changes_its_private_output_share_is_caught_before_the_output() {
    let mut rng = ChaCha20Rng::seed_from_u64(93);
    let circuit = random_circuit(&mut rng, 2, 80, 2);
    let inputs = random_inputs(&mut rng, &circuit, 20);
    let mut seen = 0usize;
    let edit = move |_: u64, msg: &mut Vec<u8>| {
        if msg.first() == Some(&(Step::Output as u8)) {
            if seen == 0 {
                msg[HEADER_BYTES] ^= 1;
            }
            seen += 1;
        }
    };
    let results = run_revealed(&circuit, &[0, 1], &[Some(0), Some(1)], 2, &inputs, Deviation::wire(1, edit));
    assert_eq!(results[0].as_ref().unwrap_err(), &CoralError::CheckFailed { check: Check::Mac });
    assert!(results[1].is_err(), "the cheating party got outputs");
}
