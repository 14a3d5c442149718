//! Outputs revealed to one party only (the masked private opening of [`super::super::online`]):
//! the recipient gets the right bits and the others `None`, a non-recipient never sees the value
//! in the clear, the cost equals an opening to everybody, and a non-recipient that changes what it
//! sends for a private output makes the recipient abort at the output check with no output.

use super::super::msg::HEADER_BYTES;
use super::super::prep::{PartyPrep, PrepRequest};
use super::super::{evaluate, evaluate_revealed, CodeChoice, MiniMacError, Options, RevealedOutputs, Step};
use super::{deal, own_inputs, round_robin_owners, run};
use crate::circuit::Circuit;
use crate::net::memory::run_session;
use crate::net::tamper::Tamper;
use crate::net::{NetStats, Network, PartyId};
use crate::proto::tinytable::circuit::tests_malicious::{random_circuit, random_inputs};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use std::cell::RefCell;

const CODE: CodeChoice = CodeChoice::Rs255_85;

type Edit = Box<dyn FnMut(u64, &mut Vec<u8>)>;
/// A change to one `n`-byte share.
type Change = fn(&mut [u8]);

/// Runs `evaluate_revealed` for every party; `edits[p]` may edit party `p`'s sent messages.
fn run_revealed(
    circuit: &Circuit,
    preps: Vec<PartyPrep>,
    all_inputs: &[Vec<Vec<bool>>],
    owners: &[PartyId],
    edits: Vec<Edit>,
) -> Vec<(Result<RevealedOutputs, MiniMacError>, NetStats)> {
    let parties = preps.len();
    let preps = RefCell::new(preps.into_iter().map(Some).collect::<Vec<_>>());
    let edits = RefCell::new(edits.into_iter().map(Some).collect::<Vec<_>>());
    run_session(parties, |net| {
        let party = net.party();
        let prep = preps.borrow_mut()[party].take().expect("material per party");
        let inputs = own_inputs(all_inputs, owners, party);
        let mut net = Tamper::new(net, edits.borrow_mut()[party].take().expect("an edit per party"));
        async move {
            let mut rng = ChaCha20Rng::seed_from_u64(1000 + party as u64);
            let result =
                evaluate_revealed(&mut net, circuit, &prep, &inputs, Options::default(), &mut rng).await;
            (result, net.stats())
        }
    })
}

fn honest_edits(parties: usize) -> Vec<Edit> {
    (0..parties).map(|_| Box::new(|_: u64, _: &mut Vec<u8>| {}) as Edit).collect()
}

/// Messages a party sends to one peer before its output shares (two parties).
fn before_output(circuit: &Circuit) -> u64 {
    1 + circuit.and_depth() as u64 + 3
}

#[test]
fn mixed_recipients_match_plaintext_and_cost_what_opening_to_everybody_costs() {
    let mut rng = ChaCha20Rng::seed_from_u64(61);
    for (parties, recipients) in
        [(2, vec![Some(0), Some(1), None]), (3, vec![Some(2), None, Some(0)]), (2, vec![Some(1); 3])]
    {
        let circuit = random_circuit(&mut rng, 3, 90, 3);
        let owners = round_robin_owners(&circuit, parties);
        let inputs = random_inputs(&mut rng, &circuit, 77);
        let request = PrepRequest::for_circuit(CODE, parties, &circuit, &owners).unwrap();
        let private = request.clone().with_recipients(&circuit, &recipients).unwrap();
        let results = run_revealed(&circuit, deal(&private, 62), &inputs, &owners, honest_edits(parties));
        let both = run(&circuit, deal(&request, 62), &inputs, &owners, Options::default(), |n| n);
        for (party, ((result, stats), (_, both_stats))) in results.into_iter().zip(both).enumerate() {
            let outputs = result.unwrap_or_else(|e| panic!("party {party}: {e}"));
            for (i, instance) in outputs.iter().enumerate() {
                let expected = circuit.evaluate(&inputs[i]).unwrap();
                for (v, got) in instance.iter().enumerate() {
                    let want = recipients[v].is_none_or(|p| p == party).then(|| expected[v].clone());
                    assert_eq!(got, &want, "{parties} parties, party {party}, instance {i}, value {v}");
                }
            }
            assert_eq!(stats, both_stats, "{parties} parties, party {party}: bytes and rounds");
        }
    }
}

/// What a non-recipient sees of a private output is `y + s`, not `y`: XOR of both parties' output
/// shares (recorded on the wire) differs from the output's bits in its data positions.
#[test]
fn a_non_recipient_sees_only_the_masked_value() {
    let mut rng = ChaCha20Rng::seed_from_u64(63);
    let circuit = random_circuit(&mut rng, 2, 80, 1);
    let owners = round_robin_owners(&circuit, 2);
    let inputs = random_inputs(&mut rng, &circuit, 100);
    let request = PrepRequest::for_circuit(CODE, 2, &circuit, &owners)
        .unwrap()
        .with_recipients(&circuit, &[Some(0)])
        .unwrap();
    let output = before_output(&circuit);
    let sent: std::rc::Rc<RefCell<Vec<Vec<u8>>>> = Default::default();
    let edits: Vec<Edit> = (0..2)
        .map(|_| {
            let sent = sent.clone();
            Box::new(move |i: u64, m: &mut Vec<u8>| {
                if i == output {
                    sent.borrow_mut().push(m[HEADER_BYTES..].to_vec());
                }
            }) as Edit
        })
        .collect();
    let results = run_revealed(&circuit, deal(&request, 64), &inputs, &owners, edits);
    assert!(results[0].0.as_ref().unwrap().iter().all(|values| values[0].is_some()));
    assert!(results[1].0.as_ref().unwrap().iter().all(|values| values[0].is_none()));
    let sent = sent.borrow();
    let n = CODE.code().n();
    let width = circuit.output_widths()[0] as usize;
    let clear_bits: Vec<Vec<bool>> = inputs.iter().map(|i| circuit.evaluate(i).unwrap()[0].clone()).collect();
    for bit in 0..width {
        let opened: Vec<u8> = (0..n).map(|j| sent[0][bit * n + j] ^ sent[1][bit * n + j]).collect();
        let seen: Vec<bool> = (0..inputs.len()).map(|i| (opened[i / 8] >> (i % 8)) & 1 == 1).collect();
        let clear: Vec<bool> = clear_bits.iter().map(|bits| bits[bit]).collect();
        assert_ne!(seen, clear, "output bit {bit} was opened in the clear");
    }
}

#[test]
fn evaluate_refuses_material_with_another_partys_private_output() {
    let mut rng = ChaCha20Rng::seed_from_u64(65);
    let circuit = random_circuit(&mut rng, 2, 30, 2);
    let owners = round_robin_owners(&circuit, 2);
    let request = PrepRequest::for_circuit(CODE, 2, &circuit, &owners)
        .unwrap()
        .with_recipients(&circuit, &[Some(0), None])
        .unwrap();
    let inputs = random_inputs(&mut rng, &circuit, 3);
    let preps = deal(&request, 66);
    let results = run_session(2, |mut net| {
        let prep = preps[net.party()].clone();
        let own = own_inputs(&inputs, &owners, net.party());
        let circuit = circuit.clone();
        async move {
            let mut rng = ChaCha20Rng::seed_from_u64(7);
            let result = evaluate(&mut net, &circuit, &prep, &own, Options::default(), &mut rng).await;
            (result, net.stats())
        }
    });
    assert!(matches!(&results[1].0, Err(MiniMacError::MaterialMismatch(_))), "{:?}", results[1].0);
    assert_eq!(results[1].1.messages_sent, 0, "refused before any communication");
    assert!(PrepRequest::for_circuit(CODE, 2, &circuit, &owners)
        .unwrap()
        .with_recipients(&circuit, &[Some(2), None])
        .is_err());
}

/// Party 1 is not the recipient of output value 0 (party 0 is) and changes its share of `y + s`
/// for that value's first wire: moved to another codeword, it fails the MAC check; off the code,
/// the codeword check. Party 0 gets the error and no output either way.
#[test]
fn a_non_recipient_that_changes_its_private_output_share_is_caught_before_the_output() {
    let mut rng = ChaCha20Rng::seed_from_u64(67);
    let circuit = random_circuit(&mut rng, 2, 80, 2);
    let owners = round_robin_owners(&circuit, 2);
    let inputs = random_inputs(&mut rng, &circuit, 50);
    let request = PrepRequest::for_circuit(CODE, 2, &circuit, &owners)
        .unwrap()
        .with_recipients(&circuit, &[Some(0), Some(1)])
        .unwrap();
    let output = before_output(&circuit);
    let n = CODE.code().n();
    let cases: [(Change, MiniMacError); 2] = [
        (
            |share| share.iter_mut().for_each(|b| *b ^= 1),
            MiniMacError::MacCheckFailed { step: Step::OutputCheck },
        ),
        (|share| share[1] ^= 0x02, MiniMacError::CodewordCheckFailed { step: Step::OutputCheck }),
    ];
    for (change, expected) in cases {
        let mut edits = honest_edits(2);
        edits[1] = Box::new(move |i: u64, m: &mut Vec<u8>| {
            if i == output {
                change(&mut m[HEADER_BYTES..HEADER_BYTES + n]);
            }
        });
        let results = run_revealed(&circuit, deal(&request, 68), &inputs, &owners, edits);
        assert_eq!(results[0].0.as_ref().unwrap_err(), &expected);
    }
}
