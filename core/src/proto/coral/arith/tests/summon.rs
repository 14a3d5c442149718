//! Summon programs compiled by summon-ts without boolify (`circuits/summon/*.json`, made by
//! `scripts/summon-fixtures.mjs`) on Spdz2k shares: the compiler's own mixed circuits — its
//! comparisons, its select idiom for `if` and `?:`, `&&`/`||`/`!`, division by 2, a mask and a
//! remainder, a three-party auction — against the programs' meaning computed in Rust.

use serde_json::Value as Json;

use super::programs::{agree, agree_with_bits};
use super::{deal, own, run, Deviation};
use crate::circuit::mixed::lower::lower;
use crate::circuit::mixed::{MixedCircuit, MixedIo, RingBits};
use crate::proto::coral::arith::circuit::{demand_with_bits, evaluate_with_bits, Plan};
use crate::proto::coral::error::{Check, CoralError};

/// The circuit and, per input in order, the index of its owner in `mpcSettings`.
pub(crate) fn load(name: &str) -> (MixedCircuit, Vec<usize>) {
    let path = format!("{}/../circuits/summon/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json: Json = serde_json::from_str(&text).expect("JSON");
    let info = &json["info"];
    let numbers = |list: &Json, key: &str| -> Vec<u64> {
        list.as_array().expect("array").iter().map(|o| o[key].as_u64().expect("number")).collect()
    };
    let constants =
        numbers(&info["constants"], "address").into_iter().zip(numbers(&info["constants"], "value"));
    let io = MixedIo { constants: constants.collect(), outputs: Some(numbers(&info["outputs"], "address")) };
    let circuit = MixedCircuit::parse(json["bristol"].as_str().expect("bristol"), &io).expect("parses");
    let settings = json["mpcSettings"].as_array().expect("mpcSettings");
    let owners = info["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .map(|input| {
            let name = &input["name"];
            settings
                .iter()
                .position(|p| p["inputs"].as_array().expect("names").contains(name))
                .expect("every input has an owner")
        })
        .collect();
    (circuit, owners)
}

/// The inputs of fixture `name` whose type is `bool`, by index.
pub(crate) fn bit_inputs(name: &str) -> Vec<u32> {
    let path = format!("{}/../circuits/summon/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let json: Json = serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture")).expect("JSON");
    let inputs = json["info"]["inputs"].as_array().expect("inputs");
    (0..inputs.len() as u32).filter(|&i| inputs[i as usize]["type"] == "bool").collect()
}

#[test]
fn summons_boolean_input_selects_as_a_checked_bit_and_a_non_bit_is_caught() {
    let (circuit, owners) = load("choose");
    let bits = bit_inputs("choose");
    assert_eq!((owners.as_slice(), bits.as_slice()), ([0, 0, 1].as_slice(), [0].as_slice()));
    // Undeclared, the flag may be any value, so the select's XORs run on bit decompositions
    // (exact for any flag); declared, they are ring arithmetic and take no random bits.
    let undeclared = Plan::new(&circuit, RingBits::K32).unwrap();
    let declared = Plan::with_bit_inputs(&circuit, RingBits::K32, &bits).unwrap();
    assert!(declared.bits(32) < undeclared.bits(32), "{} ≥ {}", declared.bits(32), undeclared.bits(32));
    let inputs: Vec<Vec<u64>> = vec![vec![1, 7, 9], vec![0, 7, 9], vec![1, 7, 3], vec![0, 1 << 31, 6]];
    for x in &inputs {
        let chosen = if x[0] == 1 { x[1] } else { x[2] };
        let both = u64::from(x[0] == 1 && x[2] > 5);
        assert_eq!(circuit.evaluate(x, RingBits::K32).unwrap(), [chosen, both], "Summon's meaning");
    }
    for parties in [2, 3] {
        let owners: Vec<usize> = owners.iter().map(|&o| o % parties).collect();
        agree_with_bits(&circuit, RingBits::K32, &bits, parties, &owners, &inputs, 93);
    }
    // Party 0 inputs 2 (or 2^k − 1) for the flag: the honest party aborts on the bit check.
    for flag in [2, u64::from(u32::MAX)] {
        let x = vec![vec![flag, 7, 9]];
        let d = demand_with_bits(&circuit, RingBits::K32, &bits, &owners, 2, 1).unwrap();
        let (results, _) = run(deal(94, RingBits::K32, 2, &d), Deviation::none(), |mut party, mut net| {
            let (mine, owners, bits, circuit) =
                (own(&x, &owners, party.party()), owners.clone(), bits.clone(), &circuit);
            async move { evaluate_with_bits(&mut party, &mut net, circuit, &bits, &owners, &mine).await }
        });
        for r in results {
            assert!(
                matches!(r, Err(CoralError::CheckFailed { check: Check::ArithBitInput })),
                "flag {flag}: {r:?}"
            );
        }
    }
}

#[test]
fn a_wrong_product_in_the_bit_input_check_aborts_alike_for_either_honest_bit() {
    use crate::proto::coral::messages::{Step, HEADER_BYTES};
    let (circuit, owners) = load("choose");
    let bits = bit_inputs("choose");
    let d = demand_with_bits(&circuit, RingBits::K32, &bits, &owners, 2, 1).unwrap();
    // Party 0 owns the flag; party 1 shifts its share of the Beaver opening of x·(x − 1) (its
    // multiplication frame right before the check's MAC-check and opening).
    let evaluate = |flag: u64, deviation: Deviation| {
        let x = vec![vec![flag, 7, 9]];
        let (owners, bits, circuit) = (&owners, &bits, &circuit);
        run(deal(95, RingBits::K32, 2, &d), deviation, move |mut party, mut net| {
            let mine = own(&x, owners, party.party());
            async move { evaluate_with_bits(&mut party, &mut net, circuit, bits, owners, &mine).await }
        })
    };
    let (honest, tags) = evaluate(1, Deviation::none());
    assert!(honest.iter().all(Result::is_ok));
    let check = tags[1].iter().position(|&t| t == Step::ArithBitInputCheck as u8).expect("a bit-input check");
    let product =
        tags[1][..check].iter().rposition(|&t| t == Step::ArithMultOpen as u8).expect("its product") as u64;
    for flag in [0, 1] {
        let deviation = Deviation::wire(1, move |i, m| {
            if i == product {
                m[HEADER_BYTES] ^= 1;
            }
        });
        let (results, _) = evaluate(flag, deviation);
        assert!(
            matches!(results[0], Err(CoralError::CheckFailed { check: Check::ArithMac })),
            "flag {flag}: the honest owner aborts on the MAC check, not on the bit check: {:?}",
            results[0]
        );
    }
}

#[test]
fn summons_sort_of_eight_sorts_on_shares() {
    let (circuit, owners) = load("sort8");
    assert_eq!(owners, [0, 1, 0, 1, 0, 1, 0, 1]);
    let lowered = lower(&circuit, RingBits::K32);
    assert!(lowered.selects >= 28, "every compare-and-swap is a select: {}", lowered.selects);
    let half = 1u64 << 31;
    let inputs: Vec<Vec<u64>> = vec![
        vec![5, 3, 9, 1, 7, 2, 8, 6],
        vec![u64::from(u32::MAX), 0, half, half - 1, 5, 5, 1, 0],
        vec![4; 8],
    ];
    for x in &inputs {
        let mut sorted = x.clone();
        sorted.sort_unstable();
        assert_eq!(circuit.evaluate(x, RingBits::K32).unwrap(), sorted, "Summon's circuit sorts");
    }
    agree(&circuit, RingBits::K32, 2, &owners, &inputs, 91);
}

#[test]
fn summons_comparison_program_counts_and_finds_the_maximum_on_shares() {
    let (circuit, owners) = load("compare6");
    assert_eq!(owners, [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    let half = 1u64 << 31;
    let inputs: Vec<Vec<u64>> =
        vec![vec![3, 9, half, 0, 7, 7, 1, 9, half - 1, 0, 8, 2], vec![1, 2, 3, 4, 5, 6, 0, 2, 3, 4, 5, 7]];
    for x in &inputs {
        let (xs, ys) = x.split_at(6);
        let greater = xs.iter().zip(ys).filter(|(a, b)| a > b).count() as u64;
        let equal = xs.iter().zip(ys).filter(|(a, b)| a == b).count() as u64;
        let max = *xs.iter().max().unwrap();
        assert_eq!(circuit.evaluate(x, RingBits::K32).unwrap(), [greater, equal, max]);
    }
    for parties in [2, 3] {
        agree(&circuit, RingBits::K32, parties, &owners, &inputs, 92);
    }
}

#[test]
fn summons_ternary_division_mask_and_remainder_on_shares() {
    let (circuit, owners) = load("arithmetic");
    let half = 1u64 << 31;
    let inputs: Vec<Vec<u64>> =
        vec![vec![7, 300], vec![300, 7], vec![u64::from(u32::MAX), 1], vec![half, half + 5]];
    for x in &inputs {
        let (a, b) = (x[0], x[1]);
        let mean = (a + b) % (1 << 32) / 2;
        let want = vec![a.abs_diff(b), mean, (a & 255) + b % 16];
        assert_eq!(circuit.evaluate(x, RingBits::K32).unwrap(), want, "{x:?}");
    }
    agree(&circuit, RingBits::K32, 2, &owners, &inputs, 93);
}

#[test]
fn summons_logic_and_else_if_on_shares() {
    let (circuit, owners) = load("logic");
    // Its `else if` XORs `c·2` with a 0/1 value: disjoint bits, an addition.
    assert!(lower(&circuit, RingBits::K32).disjoint >= 1);
    let inputs: Vec<Vec<u64>> =
        vec![vec![11, 19], vec![11, 20], vec![5, 5], vec![30, 40], vec![9, 3], vec![0, 0]];
    for x in &inputs {
        let (a, b) = (x[0], x[1]);
        let r = if a > 10 && b < 20 {
            1
        } else if a == b || a >= b {
            2
        } else {
            0
        };
        assert_eq!(circuit.evaluate(x, RingBits::K32).unwrap(), [r], "{x:?}");
    }
    agree(&circuit, RingBits::K32, 2, &owners, &inputs, 94);
}

#[test]
fn summons_three_party_auction_on_shares() {
    let (circuit, owners) = load("auction");
    assert_eq!(owners, [0, 1, 2]);
    let inputs: Vec<Vec<u64>> =
        vec![vec![5, 9, 7], vec![9, 9, 2], vec![1, 2, 3], vec![0, 0, 0], vec![u64::from(u32::MAX), 4, 8]];
    for x in &inputs {
        // The first highest bid wins (a strict `>` keeps the earlier bidder on a tie).
        let (mut best, mut winner) = (0, 0);
        for (i, &bid) in x.iter().enumerate() {
            if bid > best {
                (best, winner) = (bid, i as u64);
            }
        }
        assert_eq!(circuit.evaluate(x, RingBits::K32).unwrap(), [winner, best], "{x:?}");
    }
    agree(&circuit, RingBits::K32, 3, &owners, &inputs, 95);
}

#[test]
fn summons_bitwise_division_shift_and_power_program_on_shares() {
    let (circuit, owners) = load("bits");
    assert_eq!(owners, [0, 1, 1]);
    let max = u64::from(u32::MAX);
    let inputs: Vec<Vec<u64>> = vec![
        vec![1000, 7, 3],
        vec![max, 16, 31],
        vec![0xdead_beef, 0, 0],
        vec![5, max, 32],
        vec![123, 3, 40],
    ];
    for x in &inputs {
        let (a, b, s) = (x[0], x[1], x[2]);
        let quotient = a.checked_div(b).unwrap_or(max);
        let remainder = a.checked_rem(b).unwrap_or(a);
        let shl = if s < 32 { (a << s) & max } else { 0 };
        let shr = if s < 32 { b >> s } else { 0 };
        let power = (0..s).fold(1u64, |acc, _| acc.wrapping_mul(b) & max);
        let want = vec![(a ^ b) & (a | 0xff00), quotient, remainder, (shl + shr) & max, power];
        assert_eq!(circuit.evaluate(x, RingBits::K32).unwrap(), want, "Summon's meaning of {x:?}");
    }
    for (parties, seed) in [(2, 96), (3, 97)] {
        let owners: Vec<usize> = owners.iter().map(|&o| o % parties).collect();
        agree(&circuit, RingBits::K32, parties, &owners, &inputs, seed);
    }
}
