//! Exact communication of one AES-128 batch (2 parties) and of one packed AND layer, against the
//! formulas: per party and round one broadcast frame of 5 header bytes plus 42 bits per opened
//! element; a packed AND opens 2 elements (2·m = 84 bits per 14 ANDs, §4.2 Fig. 8); inputs 42
//! bits per packed input; each MAC check 4 rounds of 32 + 32 + 32 + (6 + 32) bytes.

use crate::net::Network;
use crate::proto::coral::checks::MAC_OPEN_BYTES;
use crate::proto::coral::circuit::{demand, evaluate, packs};
use crate::proto::coral::messages::{field_bytes, HEADER_BYTES};
use crate::proto::coral::online::InputRequest;
use crate::proto::coral::prep::Demand;

use super::{aes_circuit, deal, run, Deviation};

fn mac_check_bytes() -> usize {
    3 * (HEADER_BYTES + 32) + HEADER_BYTES + MAC_OPEN_BYTES
}

#[test]
fn one_aes_batch_costs_exactly_the_formula_in_bytes_and_rounds() {
    let circuit = aes_circuit();
    for batch in [14usize, 140] {
        let p = packs(batch);
        let d = demand(circuit, &[0, 1], 2, batch).unwrap();
        let results = run(deal(21, 2, &d), Deviation::none(), |mut party, mut net| async move {
            let mine = vec![vec![vec![false; 128]]; batch];
            evaluate(&mut party, &mut net, circuit, &[0, 1], batch, &mine).await?;
            Ok(net.stats())
        });
        let layers: Vec<usize> = circuit.and_layers().map(<[_]>::len).collect();
        let input = HEADER_BYTES + field_bytes(128 * p);
        let ands: usize = layers.iter().map(|&l| HEADER_BYTES + field_bytes(2 * l * p)).sum();
        let output = HEADER_BYTES + field_bytes(128 * p);
        let expected = input + ands + output + 2 * mac_check_bytes();
        let rounds = 1 + layers.len() + 4 + 1 + 4;
        for stats in results {
            let stats = stats.unwrap();
            assert_eq!(stats.bytes_sent as usize, expected, "batch {batch}");
            assert_eq!(stats.bytes_received as usize, expected);
            assert_eq!(stats.rounds as usize, rounds);
            // The AND part is the paper's 2·42 bits per packed AND up to per-layer rounding.
            let paper = 6400 * p * 2 * 42 / 8;
            assert!(ands - layers.len() * HEADER_BYTES >= paper);
            assert!(ands - layers.len() * HEADER_BYTES < paper + layers.len());
        }
        assert_eq!(layers.iter().sum::<usize>(), 6400);
    }
}

#[test]
fn one_packed_and_layer_costs_84_bits_per_pack_and_one_round() {
    let count = 100;
    let demand = Demand { quintuples: count, input_masks: vec![count, count], ..Demand::default() };
    let results = run(deal(2, 2, &demand), Deviation::none(), |mut party, mut net| async move {
        let me = party.party();
        let req: Vec<InputRequest> = (0..2 * count)
            .map(|i| InputRequest { owner: i / count, lanes: (me == i / count).then_some(i as u64 & 0x3fff) })
            .collect();
        let s = party.input(&mut net, &req).await?;
        let before = net.stats();
        let pairs: Vec<_> = s[..count].iter().copied().zip(s[count..].iter().copied()).collect();
        party.mul(&mut net, &pairs).await?;
        Ok(net.stats().since(&before))
    });
    for r in results {
        let stats = r.unwrap();
        assert_eq!(stats.rounds, 1);
        assert_eq!(stats.bytes_sent as usize, HEADER_BYTES + (count * 84usize).div_ceil(8));
    }
}
