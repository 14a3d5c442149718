//! Outputs to one party: only the recipient learns the value (masked by one of its input masks),
//! the material is exactly what the demand said, a tampered opening aborts everyone, and bad
//! recipients are typed errors before anything is sent.

use super::{deal, dot_product, own, run, seeded, Deviation};
use crate::circuit::mixed::RingBits;
use crate::proto::coral::arith::circuit::{demand_to, evaluate_to};
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::Step;
use crate::proto::coral::tests::{flip_payload_bit, on_step};
use rand_core::RngCore;

/// What each party learns per instance, or its error.
type Learned = Vec<Result<Vec<Vec<Option<u64>>>, CoralError>>;

/// The dot product of length 3 (`dot`, `dot + 7·x_0`): `dot` to party `to`, the other to all.
fn private_run(parties: usize, to: usize, deviation: Deviation) -> (Vec<Vec<u64>>, Learned) {
    let circuit = dot_product(3);
    let owners = [0, 0, 0, 1, 1, 1];
    let recipients = [Some(to), None];
    let mut rng = seeded(120);
    let inputs: Vec<Vec<u64>> = (0..2).map(|_| (0..6).map(|_| u64::from(rng.next_u32())).collect()).collect();
    let d = demand_to(&circuit, RingBits::K32, &[], &owners, &recipients, parties, inputs.len()).unwrap();
    let (results, _) = run(deal(121, RingBits::K32, parties, &d), deviation, |mut party, mut net| {
        let mine = own(&inputs, &owners, party.party());
        let circuit = &circuit;
        async move {
            let out = evaluate_to(&mut party, &mut net, circuit, &[], &owners, &recipients, &mine).await?;
            let left = party.material();
            assert!(left.triples.is_empty() && left.output_masks.is_empty(), "exact material");
            assert!(left.input_masks.iter().all(|q| q.is_empty()), "exact input masks");
            Ok(out)
        }
    });
    let want = inputs.iter().map(|x| circuit.evaluate(x, RingBits::K32).unwrap()).collect();
    (want, results)
}

#[test]
fn an_output_to_one_party_reaches_it_alone() {
    for (parties, to) in [(2, 0), (2, 1), (3, 2)] {
        let (want, results) = private_run(parties, to, Deviation::none());
        for (p, r) in results.into_iter().enumerate() {
            let got = r.unwrap_or_else(|e| panic!("party {p}: {e}"));
            let expected: Vec<Vec<Option<u64>>> =
                want.iter().map(|y| vec![(p == to).then_some(y[0]), Some(y[1])]).collect();
            assert_eq!(got, expected, "party {p} of {parties}, output 0 to {to}");
        }
    }
}

#[test]
fn a_tampered_private_opening_aborts_everyone_and_the_recipient_learns_nothing() {
    let (_, results) =
        private_run(3, 0, Deviation::wire(1, on_step(Step::ArithOutput, 0, flip_payload_bit(4))));
    for (p, r) in results.into_iter().enumerate() {
        assert_eq!(r.unwrap_err(), CoralError::CheckFailed { check: Check::ArithMac }, "party {p}");
    }
}

#[test]
fn recipients_that_are_not_parties_or_do_not_match_the_outputs_are_refused() {
    let circuit = dot_product(3);
    let owners = [0, 0, 0, 1, 1, 1];
    for to in [vec![Some(2), None], vec![None], vec![None, None, None]] {
        assert!(
            matches!(
                demand_to(&circuit, RingBits::K32, &[], &owners, &to, 2, 1),
                Err(CoralError::BadInput(_))
            ),
            "{to:?}"
        );
    }
}
