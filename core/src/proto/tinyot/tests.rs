//! Multi-party TinyOT tests: random circuits and AES-128 among 2, 3 and 4 parties against the
//! plaintext evaluator (material made over OT, real message passing), exact rounds and bytes, bad
//! input — and deviations on the wire at every step, each making every honest party abort with a
//! typed error naming the check before any output opens.

use super::*;
use crate::aes::fips197::{CIPHERTEXT, KEY, PLAINTEXT};
use crate::circuit::aes_bristol::{input_bits, output_bytes};
use crate::circuit::aes_gen::aes128_circuit;
use crate::circuit::testing::{random_circuit, random_inputs};
use crate::circuit::Circuit;
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::tamper::Tamper;
use crate::net::{NetStats, Network, PartyId};
use crate::proto::tinytable::circuit::online::Outputs;
use crate::rng::seeded_rng;

const SESSION: &[u8] = b"tinyot-online-tests";

/// A deviation on the wire: party `party` edits its frame of online round `round` (0: masks,
/// 1: masked inputs, 2…: AND layers, then check and outputs) to `peer`.
#[derive(Clone, Copy)]
struct Cheat {
    party: PartyId,
    peer: PartyId,
    round: usize,
    edit: Edit,
}

#[derive(Clone, Copy)]
enum Edit {
    /// Flip bit `t` of the body.
    Flip(usize),
    /// Drop the last byte.
    Truncate,
    /// Send the frame of the previous round to this peer again instead.
    Replay,
}

/// What a party ends with: its outputs and the online phase's statistics.
type Ran = Result<(Vec<Outputs>, NetStats), TinyOtError>;

/// A job: the circuit, owners, recipients and every instance's input values.
struct Job {
    circuit: Circuit,
    owners: Vec<PartyId>,
    recipients: Vec<Option<PartyId>>,
    inputs: Vec<Vec<Vec<bool>>>,
}

impl Job {
    /// Party `me`'s inputs: per instance, the values it owns.
    fn mine(&self, me: PartyId) -> Vec<Vec<Vec<bool>>> {
        self.inputs
            .iter()
            .map(|inst| {
                (0..self.owners.len()).filter(|&v| self.owners[v] == me).map(|v| inst[v].clone()).collect()
            })
            .collect()
    }

    /// What party `me` must learn, per instance and output value.
    fn expected(&self, me: PartyId) -> Vec<Outputs> {
        self.inputs
            .iter()
            .map(|inst| {
                let out = self.circuit.evaluate(inst).unwrap();
                out.into_iter()
                    .zip(&self.recipients)
                    .map(|(o, r)| r.is_none_or(|r| r == me).then_some(o))
                    .collect()
            })
            .collect()
    }
}

/// Runs `job` among `n` parties: material over OT, then the online phase with `cheats` applied.
fn run(n: usize, job: &Job, cheats: &[Cheat]) -> Vec<Ran> {
    run_session(n, |net: MemoryNetwork| async move {
        let me = net.party();
        let mut rng = seeded_rng(900 + me as u64);
        let mut net = net;
        let mut provider = OtProvider::setup(&mut net, SESSION, &mut rng).await?;
        let material = provider.make(&mut net, Demand::of(&job.circuit, job.inputs.len()), &mut rng).await?;
        let before = net.stats();
        let cheat = cheats.iter().find(|c| c.party == me).copied();
        let mut last: Option<Vec<u8>> = None;
        let edit = move |index: u64, msg: &mut Vec<u8>| {
            let Some(c) = cheat else { return };
            if index as usize / (n - 1) == c.round {
                match c.edit {
                    Edit::Flip(t) => msg[5 + t / 8] ^= 1 << (t % 8),
                    Edit::Truncate => {
                        msg.pop();
                    }
                    Edit::Replay => *msg = last.clone().expect("an earlier frame"),
                }
            }
            last = Some(msg.clone());
        };
        let mut net = match cheat {
            Some(c) => Tamper::towards(net, c.peer, edit),
            None => Tamper::honest(net),
        };
        let out = evaluate(
            &mut net,
            &material,
            &job.circuit,
            &job.owners,
            &job.recipients,
            job.inputs.len(),
            &job.mine(me),
        )
        .await?;
        let after = net.stats();
        let stats = NetStats {
            bytes_sent: after.bytes_sent - before.bytes_sent,
            bytes_received: after.bytes_received - before.bytes_received,
            messages_sent: after.messages_sent - before.messages_sent,
            messages_received: after.messages_received - before.messages_received,
            rounds: after.rounds - before.rounds,
        };
        Ok((out, stats))
    })
}

/// A random job among `n` parties with `instances` instances: owners and recipients spread over
/// the parties (some outputs to everyone).
fn random_job(seed: u64, n: usize, instances: usize) -> Job {
    let mut rng = seeded_rng(seed);
    let circuit = random_circuit(&mut rng, 2 * n, 80, 5);
    let owners = (0..circuit.input_widths().len()).map(|v| v % n).collect();
    let recipients = (0..circuit.output_widths().len()).map(|v| (v % 2 == 1).then_some(v % n)).collect();
    let inputs = random_inputs(&mut rng, &circuit, instances);
    Job { circuit, owners, recipients, inputs }
}

#[test]
fn random_circuits_among_two_to_four_parties_match_the_plaintext() {
    for (seed, n, instances) in [(1, 2, 1), (2, 3, 1), (3, 4, 1), (4, 3, 5), (5, 2, 3)] {
        let job = random_job(seed, n, instances);
        for (me, result) in run(n, &job, &[]).into_iter().enumerate() {
            let (out, _) = result.unwrap_or_else(|e| panic!("party {me} of {n}: {e}"));
            assert_eq!(out, job.expected(me), "seed {seed}, party {me} of {n}");
        }
    }
}

#[test]
fn aes_128_among_three_parties_gives_the_fips_197_ciphertext() {
    // Party 0 holds the key, party 1 the plaintext, party 2 no input; all three learn the output.
    let circuit = aes128_circuit().unwrap();
    let [key, plaintext] = input_bits(&KEY, &PLAINTEXT);
    let job = Job { circuit, owners: vec![0, 1], recipients: vec![None], inputs: vec![vec![key, plaintext]] };
    for (me, result) in run(3, &job, &[]).into_iter().enumerate() {
        let (out, stats) = result.unwrap();
        let bits = out[0][0].as_ref().expect("revealed to every party");
        assert_eq!(output_bytes(bits), Some(CIPHERTEXT), "party {me}");
        assert_eq!(stats.rounds, 4 + job.circuit.and_depth() as u64);
    }
}

#[test]
fn rounds_and_bytes_are_exact() {
    let (n, instances) = (3, 4);
    let job = random_job(11, n, instances);
    let c = &job.circuit;
    let owned = |p: PartyId| -> usize {
        (0..job.owners.len()).filter(|&v| job.owners[v] == p).map(|v| c.input_widths()[v] as usize).sum()
    };
    let revealed = |p: PartyId| -> usize {
        (0..job.recipients.len())
            .filter(|&v| job.recipients[v].is_none_or(|r| r == p))
            .map(|v| c.output_widths()[v] as usize)
            .sum()
    };
    let bits = |count: usize| (count * instances).div_ceil(8) as u64;
    let layers: Vec<usize> = c.and_layers().map(<[_]>::len).filter(|&g| g > 0).collect();
    for (me, result) in run(n, &job, &[]).into_iter().enumerate() {
        let (_, stats) = result.unwrap();
        let mut bytes = 0;
        for p in (0..n).filter(|&p| p != me) {
            bytes += bits(owned(p)) + 32; // mask shares to p
            bytes += bits(owned(me)); // masked inputs
            bytes += layers.iter().map(|&g| bits(2 * g)).sum::<u64>();
            bytes += 64; // MAC and echo digests
            bytes += 1 + bits(revealed(p)) + 32; // verdict, output shares, their digest
        }
        let rounds = 4 + layers.len() as u64;
        assert_eq!(stats.rounds, rounds, "party {me}");
        assert_eq!(stats.messages_sent, rounds * (n as u64 - 1), "party {me}");
        assert_eq!(stats.bytes_sent, bytes + 5 * stats.messages_sent, "party {me}");
    }
}

#[test]
fn bad_inputs_and_material_are_refused_before_anything_is_sent() {
    let job = random_job(21, 3, 2);
    let outcomes = run_session(3, |net: MemoryNetwork| {
        let job = &job;
        async move {
            let me = net.party();
            let mut rng = seeded_rng(30 + me as u64);
            let mut net = net;
            let mut provider = OtProvider::setup(&mut net, SESSION, &mut rng).await.unwrap();
            let small = provider.make(&mut net, Demand::of(&job.circuit, 1), &mut rng).await.unwrap();
            let sent = net.stats().messages_sent;
            let (c, o, r) = (&job.circuit, &job.owners, &job.recipients);
            let mine = job.mine(me);
            let mut errors = vec![
                evaluate(&mut net, &small, c, o, r, 2, &mine).await.unwrap_err(),
                evaluate(&mut net, &small, c, &o[1..], r, 1, &mine[..1]).await.unwrap_err(),
                evaluate(&mut net, &small, c, o, &r[1..], 1, &mine[..1]).await.unwrap_err(),
                evaluate(&mut net, &small, c, &vec![5; o.len()], r, 1, &mine[..1]).await.unwrap_err(),
                evaluate(&mut net, &small, c, o, r, 0, &[]).await.unwrap_err(),
            ];
            let mut wide = mine[..1].to_vec();
            wide[0][0].push(true);
            errors.push(evaluate(&mut net, &small, c, o, r, 1, &wide).await.unwrap_err());
            assert_eq!(net.stats().messages_sent, sent, "party {me} sent nothing");
            errors
        }
    });
    for errors in outcomes {
        assert!(matches!(errors[0], TinyOtError::Material(_)), "{}", errors[0]);
        for e in &errors[1..] {
            assert!(matches!(e, TinyOtError::BadInput(_)), "{e}");
        }
        assert!(errors[5].to_string().contains("instance 0, input value"), "{}", errors[5]);
    }
}

/// Asserts that every party but the cheaters failed, each with one of `checks` (its own or a
/// peer's verdict), and returns the honest parties' errors.
fn every_honest_party_aborts(results: Vec<Ran>, cheaters: &[PartyId], checks: &[Check]) -> Vec<TinyOtError> {
    results
        .into_iter()
        .enumerate()
        .filter(|(p, _)| !cheaters.contains(p))
        .map(|(p, r)| {
            let e = r.err().unwrap_or_else(|| panic!("honest party {p} returned outputs"));
            let check = match e {
                TinyOtError::CheckFailed { check } | TinyOtError::PeerCheckFailed { check, .. } => check,
                ref other => panic!("party {p}: {other}"),
            };
            assert!(checks.contains(&check), "party {p}: {e}");
            e
        })
        .collect()
}

/// A job among `n` where every party owns an input and every output goes to everyone.
fn open_job(seed: u64, n: usize) -> Job {
    Job { recipients: vec![None; 5], ..random_job(seed, n, 2) }
}

#[test]
fn a_wrong_mask_share_fails_its_owner_and_every_honest_party() {
    // Party 2 flips a share of the mask of party 0's first input wire.
    let job = open_job(31, 3);
    let cheat = Cheat { party: 2, peer: 0, round: 0, edit: Edit::Flip(0) };
    let errors = every_honest_party_aborts(run(3, &job, &[cheat]), &[2], &[Check::InputMask]);
    assert_eq!(errors[0], TinyOtError::CheckFailed { check: Check::InputMask });
    assert_eq!(errors[1], TinyOtError::PeerCheckFailed { peer: 0, check: Check::InputMask });
}

#[test]
fn a_masked_input_told_differently_to_one_peer_fails_the_echo() {
    for n in [3, 4] {
        let job = open_job(32, n);
        let cheat = Cheat { party: 0, peer: n - 1, round: 1, edit: Edit::Flip(0) };
        every_honest_party_aborts(run(n, &job, &[cheat]), &[0], &[Check::Echo]);
    }
}

#[test]
fn a_wrong_and_gate_share_fails_the_mac_check() {
    for n in [3, 4] {
        let job = open_job(33, n);
        // A share in the first and in the last AND layer.
        let last = 1 + job.circuit.and_layers().filter(|g| !g.is_empty()).count();
        for round in [2, last] {
            let cheat = Cheat { party: 1, peer: 0, round, edit: Edit::Flip(1) };
            let errors = every_honest_party_aborts(run(n, &job, &[cheat]), &[1], &[Check::Mac]);
            assert_eq!(errors[0], TinyOtError::CheckFailed { check: Check::Mac });
        }
    }
}

#[test]
fn a_wrong_mac_digest_fails_the_mac_check() {
    let job = open_job(34, 3);
    let round = 2 + job.circuit.and_layers().filter(|g| !g.is_empty()).count();
    let cheat = Cheat { party: 2, peer: 1, round, edit: Edit::Flip(3) };
    every_honest_party_aborts(run(3, &job, &[cheat]), &[2], &[Check::Mac]);
    // The echo half of the same message.
    let cheat = Cheat { edit: Edit::Flip(8 * 32 + 5), ..cheat };
    every_honest_party_aborts(run(3, &job, &[cheat]), &[2], &[Check::Echo]);
}

#[test]
fn a_wrong_output_share_fails_its_recipient() {
    // Output value 1 goes to party 1 alone; party 0 flips its share of it.
    let mut job = random_job(35, 3, 1);
    job.recipients = vec![None, Some(1), None, None, None];
    let round = 3 + job.circuit.and_layers().filter(|g| !g.is_empty()).count();
    // After the verdict byte, the shares of the values revealed to party 1 in order: value 0's
    // bits first, then value 1's.
    let first = job.circuit.output_widths()[0] as usize;
    let cheat = Cheat { party: 0, peer: 1, round, edit: Edit::Flip(8 + first) };
    let results = run(3, &job, &[cheat]);
    assert_eq!(results[1].as_ref().err(), Some(&TinyOtError::CheckFailed { check: Check::OutputMac }));
    // Party 2 learns its outputs (it got correct shares from everyone), nothing private to 1.
    let (out, _) = results[2].as_ref().unwrap();
    assert_eq!(*out, job.expected(2));
    assert!(out[0][1].is_none());
}

#[test]
fn two_colluding_cheaters_among_four_are_caught() {
    let job = open_job(36, 4);
    let cheats = [
        Cheat { party: 1, peer: 0, round: 2, edit: Edit::Flip(0) },
        Cheat { party: 3, peer: 2, round: 3, edit: Edit::Flip(2) },
    ];
    every_honest_party_aborts(run(4, &job, &cheats), &[1, 3], &[Check::Mac]);
}

#[test]
fn truncated_and_replayed_frames_are_refused() {
    let job = open_job(37, 3);
    let truncated = run(3, &job, &[Cheat { party: 1, peer: 2, round: 2, edit: Edit::Truncate }]);
    let e = truncated[2].as_ref().unwrap_err();
    assert!(matches!(e, TinyOtError::Malformed { peer: 1, step: "AND layer", .. }), "{e}");
    let replayed = run(3, &job, &[Cheat { party: 1, peer: 2, round: 3, edit: Edit::Replay }]);
    let e = replayed[2].as_ref().unwrap_err();
    assert!(matches!(e, TinyOtError::UnexpectedFrame { peer: 1, step: "AND layer", .. }), "{e}");
}
