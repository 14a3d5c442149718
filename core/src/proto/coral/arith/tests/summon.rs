//! Summon programs compiled by summon-ts without boolify (`circuits/summon/*.json`, made by
//! `scripts/summon-fixtures.mjs`) on Spdz2k shares: the compiler's own mixed circuits — its
//! comparisons and its select idiom for `if` — against the programs' meaning computed in Rust.

use serde_json::Value as Json;

use super::programs::agree;
use crate::circuit::mixed::lower::lower;
use crate::circuit::mixed::{MixedCircuit, MixedIo, RingBits};

/// The circuit and, per input in order, the index of its owner in `mpcSettings`.
fn load(name: &str) -> (MixedCircuit, Vec<usize>) {
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
