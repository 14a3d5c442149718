//! The online operations on random lanes against plaintext, for 2 and 3 parties.

use rand_core::RngCore;

use super::{deal, run, Deviation};
use crate::proto::coral::online::{InputRequest, ALL_LANES};
use crate::proto::coral::prep::Demand;
use crate::proto::coral::rconv;
use crate::proto::coral::share::{TinyBit, LANES};
use crate::rng::seeded_rng;

fn lanes(rng: &mut impl RngCore) -> u64 {
    rng.next_u64() & ALL_LANES
}

#[test]
fn input_and_not_xor_const_mul_open_to_plaintext() {
    for parties in [2usize, 3] {
        let mut rng = seeded_rng(7 + parties as u64);
        let count = 20;
        let xs: Vec<u64> = (0..count).map(|_| lanes(&mut rng)).collect();
        let ys: Vec<u64> = (0..count).map(|_| lanes(&mut rng)).collect();
        let cs: Vec<u64> = (0..count).map(|_| lanes(&mut rng)).collect();
        let mut demand = Demand::empty(parties);
        demand.input_masks[0] = count;
        demand.input_masks[parties - 1] = count;
        demand.quintuples = count;
        demand.encodings = 6 * count;
        let results = run(deal(3, parties, &demand), Deviation::none(), |mut party, mut net| {
            let (xs, ys, cs) = (xs.clone(), ys.clone(), cs.clone());
            async move {
                let me = party.party();
                let mut requests: Vec<InputRequest> =
                    xs.iter().map(|&x| InputRequest { owner: 0, lanes: (me == 0).then_some(x) }).collect();
                requests.extend(
                    ys.iter().map(|&y| InputRequest {
                        owner: parties - 1,
                        lanes: (me == parties - 1).then_some(y),
                    }),
                );
                let shares = party.input(&mut net, &requests).await?;
                let (x, y) = shares.split_at(count);
                let pairs: Vec<_> = x.iter().copied().zip(y.iter().copied()).collect();
                let and = party.mul(&mut net, &pairs).await?;
                let cm = party.const_mul(&mut net, x, &cs).await?;
                let mut outs = and;
                outs.extend(cm);
                outs.extend(x.iter().zip(y).map(|(a, b)| *a + *b));
                outs.extend(x.iter().map(|&a| party.not(a)));
                outs.extend(x.iter().zip(&cs).map(|(&a, &c)| party.add_lanes(a, c)));
                party.output(&mut net, &outs).await
            }
        });
        for result in results {
            let out = result.expect("honest run");
            for i in 0..count {
                assert_eq!(out[i], xs[i] & ys[i], "AND lane word {i}");
                assert_eq!(out[count + i], xs[i] & cs[i], "constant multiplication {i}");
                assert_eq!(out[2 * count + i], xs[i] ^ ys[i], "XOR {i}");
                assert_eq!(out[3 * count + i], !xs[i] & ALL_LANES, "NOT {i}");
                assert_eq!(out[4 * count + i], xs[i] ^ cs[i], "add constant {i}");
            }
        }
    }
}

#[test]
fn a_layer_larger_than_one_multiplication_chunk_multiplies_every_pair() {
    // 2,500 pairs: two full chunks of the layer's products and a partial one.
    let (parties, count) = (2usize, 2500);
    let mut rng = seeded_rng(41);
    let xs: Vec<u64> = (0..count).map(|_| lanes(&mut rng)).collect();
    let ys: Vec<u64> = (0..count).map(|_| lanes(&mut rng)).collect();
    let mut demand = Demand::empty(parties);
    demand.input_masks[0] = count;
    demand.input_masks[1] = count;
    demand.quintuples = count;
    demand.encodings = count;
    let results = run(deal(5, parties, &demand), Deviation::none(), |mut party, mut net| {
        let (xs, ys) = (xs.clone(), ys.clone());
        async move {
            let me = party.party();
            let mut requests: Vec<InputRequest> =
                xs.iter().map(|&x| InputRequest { owner: 0, lanes: (me == 0).then_some(x) }).collect();
            requests.extend(ys.iter().map(|&y| InputRequest { owner: 1, lanes: (me == 1).then_some(y) }));
            let shares = party.input(&mut net, &requests).await?;
            let (x, y) = shares.split_at(count);
            let pairs: Vec<_> = x.iter().copied().zip(y.iter().copied()).collect();
            let and = party.mul(&mut net, &pairs).await?;
            party.output(&mut net, &and).await
        }
    });
    for result in results {
        let out = result.expect("honest run");
        assert_eq!(out.len(), count);
        for i in 0..count {
            assert_eq!(out[i], xs[i] & ys[i], "AND lane word {i}");
        }
    }
}

/// Dealer-made TinyOT bits with known plaintext come from its tBits: their XOR across parties.
pub(super) fn tbit_values(
    materials: &[crate::proto::coral::prep::CoralMaterial],
    range: std::ops::Range<usize>,
) -> Vec<bool> {
    range.map(|i| materials.iter().fold(false, |acc, m| acc ^ m.tbits[i].bit)).collect()
}

#[test]
fn rconv_converts_tinyot_bits_to_normal_rmfe_sharings() {
    for parties in [2usize, 3] {
        let packs = 3;
        let mut demand = rconv::demand(parties, packs);
        demand.tbits += packs * LANES;
        demand.encodings = packs;
        let materials = deal(11, parties, &demand);
        // The first packs·14 tBits are the bits to convert; rConv takes its own after them.
        let plain = tbit_values(&materials, 0..packs * LANES);
        let results = run(materials, Deviation::none(), |mut party, mut net| async move {
            let bits: Vec<TinyBit> = party.material_mut().take_tbits(packs * LANES)?;
            let ys = party.rconv(&mut net, &bits).await?;
            party.output(&mut net, &ys).await
        });
        for result in results {
            let out = result.expect("honest rConv");
            for (j, &lanes) in out.iter().enumerate() {
                let expected = (0..LANES).fold(0u64, |a, h| a | u64::from(plain[j * LANES + h]) << h);
                assert_eq!(lanes, expected, "pack {j}");
            }
        }
    }
}
