//! Mixed circuits through the shared circuit job ([`crate::jobs::coral::mixed`]): Summon's own
//! non-boolified programs over encrypted channels against their plaintext evaluation, batches that
//! stream through several chunks, the spec's and inputs' typed errors before anything is sent,
//! disagreeing members, and a cheating party caught with no output.

use super::*;
use crate::circuit::mixed::{MixedCircuit, MixedGate, MixedOp, RingBits};
use crate::jobs::circuit::MixedJobCircuit;
use crate::jobs::coral::mixed::value_bits;
use crate::proto::coral::arith::tests::summon::{bit_inputs, load};
use std::sync::atomic::{AtomicU64, Ordering};

const CORAL: CircuitProtocol = CircuitProtocol::Coral { preprocessing: Preprocessing::Ot };

fn mixed_spec(circuit: &MixedCircuit, ring: RingBits, owners: &[PartyId], instances: usize) -> CircuitSpec {
    CircuitSpec {
        protocol: CORAL,
        circuit: JobCircuit::Mixed(MixedJobCircuit::new(circuit.clone(), ring)),
        io: IoSpec { input_owners: owners.to_vec(), reveal: vec![Reveal::Both; circuit.outputs.len()] },
        instances,
    }
}

/// Party `p`'s inputs of `values` (per instance, every input value) as the job takes them.
fn own(values: &[Vec<u64>], owners: &[PartyId], p: PartyId, k: u32) -> CircuitInput {
    CircuitInput {
        values: values
            .iter()
            .map(|x| x.iter().zip(owners).filter(|(_, &o)| o == p).map(|(&v, _)| value_bits(v, k)).collect())
            .collect(),
    }
}

/// Runs `specs[p]` at party p over encrypted channels; `cheat(p, index, message)` edits what p
/// sends. Returns each party's result and the phases it observed.
fn run_mixed<const N: usize>(
    specs: [&CircuitSpec; N],
    inputs: [CircuitInput; N],
    cheat: fn(PartyId, u64, &mut Vec<u8>),
) -> Vec<(Result<CircuitOutput, JobError>, Vec<JobPhase>)> {
    run_session(N, |inner| {
        let me = inner.party();
        let (spec, input) = (specs[me].clone(), inputs[me].clone());
        async move {
            let mut net = Tamper::new(connect(inner).await.expect("channels"), move |i, m| cheat(me, i, m));
            let mut phases = Vec::new();
            let usage = (&mut Prepared::default(), PreparedUse::Auto);
            let rng = &mut seeded_rng(70 + me as u64);
            let out = run_circuit_observed(&mut net, &spec, input, rng, usage, |p| phases.push(p)).await;
            (out, phases)
        }
    })
}

/// Every party's outputs equal the plaintext evaluation of `values`.
fn expect_plaintext(
    results: Vec<(Result<CircuitOutput, JobError>, Vec<JobPhase>)>,
    circuit: &MixedCircuit,
    ring: RingBits,
    values: &[Vec<u64>],
) -> Vec<Vec<JobPhase>> {
    let want: Vec<Vec<Option<Vec<bool>>>> = values
        .iter()
        .map(|x| {
            circuit.evaluate(x, ring).unwrap().into_iter().map(|y| Some(value_bits(y, ring.bits()))).collect()
        })
        .collect();
    results
        .into_iter()
        .enumerate()
        .map(|(p, (out, phases))| {
            let out = out.unwrap_or_else(|e| panic!("party {p}: {e}"));
            assert_eq!(out.outputs, want, "party {p}");
            assert!(out.online_stats.bytes_sent > 0 && out.preprocessing_stats.bytes_sent > 0);
            assert_eq!(
                out.stats.bytes_sent,
                out.online_stats.bytes_sent + out.preprocessing_stats.bytes_sent
            );
            phases
        })
        .collect()
}

#[test]
fn summons_sort_and_arithmetic_programs_run_as_circuit_jobs_in_both_rings() {
    let (sort, owners) = load("sort8");
    let half = 1u64 << 31;
    let values = vec![vec![5, 3, 9, 1, 7, 2, 8, 6], vec![u64::from(u32::MAX), 0, half, half - 1, 5, 5, 1, 0]];
    let spec = mixed_spec(&sort, RingBits::K32, &owners, values.len());
    let inputs = [own(&values, &owners, 0, 32), own(&values, &owners, 1, 32)];
    expect_plaintext(run_mixed([&spec, &spec], inputs, honest), &sort, RingBits::K32, &values);

    // |a − b|, (a + b) / 2, (a & 255) + b % 16 in Z_2^64, one instance.
    let (arithmetic, owners) = load("arithmetic");
    let values = vec![vec![u64::MAX - 3, 1_000_000_007]];
    let spec = mixed_spec(&arithmetic, RingBits::K64, &owners, 1);
    let inputs = [own(&values, &owners, 0, 64), own(&values, &owners, 1, 64)];
    expect_plaintext(run_mixed([&spec, &spec], inputs, honest), &arithmetic, RingBits::K64, &values);
}

#[test]
fn summons_three_party_auction_runs_with_every_member_computing() {
    let (auction, owners) = load("auction");
    assert_eq!(owners, [0, 1, 2]);
    let values = vec![vec![120, 990, 45], vec![7, 7, 3], vec![0, 0, 0]];
    let spec = mixed_spec(&auction, RingBits::K32, &owners, values.len());
    let inputs = [0, 1, 2].map(|p| own(&values, &owners, p, 32));
    // Member 2 is a computing party here, not a dealer: its inputs are checked as such.
    spec.check_input(2, &inputs[2]).unwrap();
    expect_plaintext(run_mixed([&spec; 3], inputs, honest), &auction, RingBits::K32, &values);
    // The session size is the spec's to check: enough members for the owners, at most eight.
    assert!(matches!(spec.check_members(3), Ok(())));
    assert!(matches!(spec.check_members(2), Err(JobError::InvalidSpec { field: "inputOwners", .. })));
    assert!(matches!(spec.check_members(9), Err(JobError::InvalidSpec { field: "parties", .. })));
    let two = mixed_spec(&auction, RingBits::K32, &[0, 1, 1], 1);
    assert!(two.check_members(2).is_ok() && two.check_members(4).is_ok());
    let boolean = CircuitSpec {
        circuit: crate::circuit::testing::random_circuit(&mut ChaCha20Rng::seed_from_u64(1), 2, 10, 1).into(),
        ..two
    };
    // A boolean circuit on Coral over OT also runs among every member; with the dealer it needs
    // exactly the two parties and the dealer.
    assert!(boolean.check_members(3).is_ok());
    let dealt =
        CircuitSpec { protocol: CircuitProtocol::Coral { preprocessing: Preprocessing::Dealer }, ..boolean };
    assert!(matches!(dealt.check_members(4), Err(JobError::WrongSessionSize { got: 4, .. })));
}

#[test]
fn a_boolean_input_is_a_declared_checked_bit() {
    let (choose, owners) = load("choose");
    let job = |bits: Vec<u32>| CircuitSpec {
        circuit: JobCircuit::Mixed(
            MixedJobCircuit::new(choose.clone(), RingBits::K32).with_bit_inputs(bits).unwrap(),
        ),
        ..mixed_spec(&choose, RingBits::K32, &owners, 2)
    };
    // Declared bits must be inputs, each once.
    for bad in [vec![3], vec![0, 0]] {
        let declared = MixedJobCircuit::new(choose.clone(), RingBits::K32).with_bit_inputs(bad);
        assert!(matches!(declared, Err(JobError::InvalidSpec { field: "bitInputs", .. })));
    }
    // Undeclared, `flag ? a : b` runs on the flag's bits (any flag value is fine); declared, as
    // ring arithmetic after the flag's check.
    job(vec![]).validate().expect("undeclared");
    let spec = job(bit_inputs("choose"));
    let values = vec![vec![1, 7, 9], vec![0, 7, 3]];
    let inputs = [own(&values, &owners, 0, 32), own(&values, &owners, 1, 32)];
    expect_plaintext(run_mixed([&spec, &spec], inputs, honest), &choose, RingBits::K32, &values);
    // The owner of a flag of 2 is stopped before anything is sent.
    let two = own(&[vec![2, 7, 9], vec![0, 7, 3]], &owners, 0, 32);
    let outs = run_session(2, |inner| {
        let spec = spec.clone();
        let input = if inner.party() == 0 { two.clone() } else { own(&values, &owners, 1, 32) };
        async move {
            let mut net = inner;
            let out = run_circuit(&mut net, &spec, input, &mut seeded_rng(2)).await;
            (out.map(|_| ()), net.stats().bytes_sent)
        }
    });
    match &outs[0] {
        (Err(JobError::InvalidInput { field, .. }), 0) => assert_eq!(field, "inputs[0]"),
        other => panic!("expected InvalidInput before sending, got {other:?}"),
    }
}

/// `x · y + (x + c + c + … + c)` with `adds` additions: many wires, one product.
fn wide(adds: u32) -> MixedCircuit {
    let mut gates = vec![MixedGate { op: MixedOp::Add, inputs: [0, 2], out: 3 }];
    for i in 1..adds {
        gates.push(MixedGate { op: MixedOp::Add, inputs: [2 + i, 2], out: 3 + i });
    }
    let (sum, product, out) = (2 + adds, 3 + adds, 4 + adds);
    gates.push(MixedGate { op: MixedOp::Mul, inputs: [0, 1], out: product });
    gates.push(MixedGate { op: MixedOp::Add, inputs: [sum, product], out });
    MixedCircuit { wires: out + 1, inputs: 2, outputs: vec![out], constants: vec![(2, 3)], gates }
}

#[test]
fn a_batch_over_the_wire_bound_streams_through_chunks_with_progress() {
    use crate::proto::coral::arith::circuit::MAX_WIRE_VALUES;
    // Each instance holds ~2^18 wire values, so 2^22 of them fit 15 instances per chunk.
    let circuit = wide(1 << 18);
    let per_chunk = MAX_WIRE_VALUES / circuit.wires as usize;
    let instances = per_chunk + 3;
    let values: Vec<Vec<u64>> =
        (0..instances as u64).map(|i| vec![i * 7 + 1, u64::from(u32::MAX) - i]).collect();
    let owners = [0, 1];
    let spec = mixed_spec(&circuit, RingBits::K32, &owners, instances);
    let inputs = [own(&values, &owners, 0, 32), own(&values, &owners, 1, 32)];
    let phases =
        expect_plaintext(run_mixed([&spec, &spec], inputs, honest), &circuit, RingBits::K32, &values);
    let expected = vec![
        JobPhase::OnlineStarts,
        JobPhase::Instances { done: per_chunk, total: instances },
        JobPhase::OnlineStarts,
        JobPhase::Instances { done: instances, total: instances },
    ];
    assert_eq!(phases, vec![expected.clone(), expected]);
}

#[test]
fn an_output_to_one_member_reaches_it_alone() {
    // The auction's winner to member 2 alone, the price to everybody.
    let (auction, owners) = load("auction");
    let values = vec![vec![120, 990, 45], vec![7, 8, 3]];
    let mut spec = mixed_spec(&auction, RingBits::K32, &owners, values.len());
    spec.io.reveal[0] = Reveal::To(2);
    let inputs = [0, 1, 2].map(|p| own(&values, &owners, p, 32));
    for (p, (out, _)) in run_mixed([&spec; 3], inputs, honest).into_iter().enumerate() {
        let out = out.unwrap_or_else(|e| panic!("member {p}: {e}"));
        let want: Vec<Vec<Option<Vec<bool>>>> = values
            .iter()
            .map(|x| {
                let y = auction.evaluate(x, RingBits::K32).unwrap();
                vec![(p == 2).then(|| value_bits(y[0], 32)), Some(value_bits(y[1], 32))]
            })
            .collect();
        assert_eq!(out.outputs, want, "member {p}");
    }
}

#[test]
fn mixed_specs_that_cannot_run_fail_with_typed_errors_before_anything_is_sent() {
    let (sort, owners) = load("sort8");
    let spec = mixed_spec(&sort, RingBits::K32, &owners, 1);
    spec.validate().unwrap();
    let not_available = |s: &CircuitSpec| match s.validate() {
        Err(JobError::NotAvailable { option, .. }) => option,
        other => panic!("expected NotAvailable, got {other:?}"),
    };
    let private = CircuitSpec {
        io: IoSpec {
            reveal: {
                let mut r = spec.io.reveal.clone();
                r[3] = Reveal::To(1);
                r
            },
            ..spec.io.clone()
        },
        ..spec.clone()
    };
    // An output to one member is fine; to a member the session does not have, an error.
    private.validate().unwrap();
    private.check_members(2).unwrap();
    let mut beyond = private.clone();
    beyond.io.reveal[3] = Reveal::To(4);
    beyond.validate().unwrap();
    assert!(matches!(beyond.check_members(3), Err(JobError::InvalidSpec { field: "reveal", .. })));
    let dealer = CircuitSpec {
        protocol: CircuitProtocol::Coral { preprocessing: Preprocessing::Dealer },
        ..spec.clone()
    };
    assert_eq!(not_available(&dealer), "preprocessing");
    for protocol in [
        CircuitProtocol::TinyTable {
            preprocessing: Preprocessing::Ot,
            security: Security::Malicious,
            mac_bits: MacBits::K64,
        },
        CircuitProtocol::MiniMac { code: CodeChoice::Rs256_120, preprocessing: Preprocessing::Ot },
    ] {
        assert_eq!(
            not_available(&CircuitSpec { protocol, ..spec.clone() }),
            "protocol",
            "{}",
            protocol.name()
        );
    }
    // A power of shared values runs (on the exponent's bits).
    let exp = MixedCircuit {
        wires: 3,
        inputs: 2,
        outputs: vec![2],
        constants: vec![],
        gates: vec![MixedGate { op: MixedOp::Exp, inputs: [0, 1], out: 2 }],
    };
    mixed_spec(&exp, RingBits::K32, &[0, 1], 1).validate().expect("every gate runs");
    let owners_wrong =
        CircuitSpec { io: IoSpec { input_owners: vec![0; 3], ..spec.io.clone() }, ..spec.clone() };
    assert!(matches!(owners_wrong.validate(), Err(JobError::InvalidSpec { field: "inputOwners", .. })));
    // Preparing for a mixed circuit, or requiring prepared material, is refused.
    assert!(matches!(
        check_prepare_circuit(&spec, None),
        Err(JobError::NotAvailable { option: "circuit", .. })
    ));
    assert!(matches!(
        circuit_uses_prepared(&spec, &Prepared::default(), PreparedUse::Require),
        Err(JobError::InvalidSpec { field: "usePrepared", .. })
    ));
    // Inputs of the wrong width name the value, at the member that gave them, before sending.
    let short = CircuitInput { values: vec![vec![vec![true; 31]; 4]] };
    match spec.check_input(0, &short) {
        Err(JobError::InvalidInput { field, .. }) => assert_eq!(field, "inputs[0]"),
        other => panic!("expected InvalidInput, got {other:?}"),
    }
    let outs = run_session(2, |inner| {
        let spec = spec.clone();
        let input = if inner.party() == 0 {
            short.clone()
        } else {
            CircuitInput { values: vec![vec![vec![false; 32]; 4]] }
        };
        async move {
            let mut net = inner;
            let out = run_circuit(&mut net, &spec, input, &mut seeded_rng(1)).await;
            (out.map(|_| ()), net.stats().bytes_sent)
        }
    });
    assert!(matches!(outs[0], (Err(JobError::InvalidInput { .. }), 0)), "{:?}", outs[0]);
}

#[test]
fn members_with_different_rings_or_circuits_fail_agreement() {
    let (sort, owners) = load("sort8");
    let values = vec![vec![1, 2, 3, 4, 5, 6, 7, 8]];
    let k32 = mixed_spec(&sort, RingBits::K32, &owners, 1);
    let k64 = mixed_spec(&sort, RingBits::K64, &owners, 1);
    let inputs = [own(&values, &owners, 0, 32), own(&values, &owners, 1, 64)];
    for (p, (out, _)) in run_mixed([&k32, &k64], inputs, honest).into_iter().enumerate() {
        assert!(matches!(out, Err(JobError::SpecMismatch(peer)) if peer == 1 - p), "party {p}: {out:?}");
    }
}

/// The frame party 1 corrupts in [`a_party_that_changes_a_frame_is_caught_at_every_stage`] (only
/// that test uses it).
static TARGET: AtomicU64 = AtomicU64::new(u64::MAX);
/// Frames party 1 sent in the last run.
static SENT: AtomicU64 = AtomicU64::new(0);

#[allow(clippy::ptr_arg)] // the shape of `run_mixed`'s `cheat`
fn flip_target(p: PartyId, index: u64, message: &mut Vec<u8>) {
    if p == 1 {
        SENT.fetch_max(index + 1, Ordering::Relaxed);
        if index == TARGET.load(Ordering::Relaxed) {
            if let Some(last) = message.last_mut() {
                *last ^= 1;
            }
        }
    }
}

#[test]
fn a_party_that_changes_a_frame_is_caught_at_every_stage() {
    let (compare, owners) = load("compare6");
    let values = vec![vec![3, 9, 1 << 31, 0, 7, 7, 1, 9, 5, 0, 8, 2]];
    let spec = mixed_spec(&compare, RingBits::K32, &owners, 1);
    let inputs = || [own(&values, &owners, 0, 32), own(&values, &owners, 1, 32)];
    expect_plaintext(run_mixed([&spec, &spec], inputs(), flip_target), &compare, RingBits::K32, &values);
    let frames = SENT.load(Ordering::Relaxed);
    // Party 1's frames: agreement, provider setup, material, then the online phase (random bits,
    // inputs, comparisons, MAC checks, outputs); a flipped bit in any of them is caught.
    let mut checks = std::collections::BTreeSet::new();
    for target in [1, frames / 4, frames / 2, frames * 3 / 4, frames - 6, frames - 3, frames - 1] {
        TARGET.store(target, Ordering::Relaxed);
        let results = run_mixed([&spec, &spec], inputs(), flip_target);
        // (Security with abort: a cheater that corrupts its last frame may have its own output.)
        match &results[0].0 {
            Err(e @ JobError::Coral(_)) => {
                checks.insert(e.failed_check().unwrap_or_else(|| e.to_string()));
            }
            Err(e @ JobError::SpecMismatch(1)) if target < 2 => {
                checks.insert(e.to_string());
            }
            other => panic!(
                "frame {target} of {frames}: the honest party must abort with a typed error, got {other:?}"
            ),
        }
    }
    assert!(checks.len() >= 3, "different stages, different checks: {checks:?}");
}

#[test]
fn a_batch_of_bit_level_gates_decomposes_through_the_conversions() {
    use crate::proto::coral::arith::circuit::Plan;
    use crate::proto::coral::convert::{dabits, decompose};
    // Σ x_i ⊕ y_i over 6 pairs: 12 values decomposed per instance.
    let circuit = crate::circuit::mixed::gen::pairwise(MixedOp::Xor, 6);
    let owners: Vec<PartyId> = (0..12).map(|i| usize::from(i >= 6)).collect();
    let plan = Plan::new(&circuit, RingBits::K32).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    for (instances, converts) in [(1, false), (20, true)] {
        assert_eq!(plan.converts(32, 2, instances), converts);
        let values: Vec<Vec<u64>> =
            (0..instances).map(|_| (0..12).map(|_| rng.next_u64() & 0xffff_ffff).collect()).collect();
        let spec = mixed_spec(&circuit, RingBits::K32, &owners, instances);
        let inputs = [own(&values, &owners, 0, 32), own(&values, &owners, 1, 32)];
        let results = run_mixed([&spec, &spec], inputs, honest);
        let rounds: Vec<u64> =
            results.iter().map(|(r, _)| r.as_ref().map_or(0, |o| o.online_stats.rounds)).collect();
        expect_plaintext(results, &circuit, RingBits::K32, &values);
        // Online rounds: (daBits, inputs, A2B and rB2A, the XORs' products, Coral's MAC check,
        // the output) against (random bits, inputs, the arithmetic decomposition, products,
        // the output).
        let want = if converts {
            dabits::rounds(2) + 1 + decompose::rounds(32) + 1 + 4 + 9
        } else {
            crate::proto::coral::arith::bits::rounds(2) + 1 + 7 + 1 + 9
        };
        assert_eq!(rounds, [want as u64; 2], "{instances} instances");
    }
}
