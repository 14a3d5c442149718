//! daBits, B2A and A2B against plaintext, exact material and rounds.

use rand_core::RngCore;

use super::{deal_both, run, Deviation};
use crate::circuit::mixed::RingBits;
use crate::net::Network;
use crate::proto::coral::arith::AShare;
use crate::proto::coral::convert::a2b::{self, a2b, edabits_of};
use crate::proto::coral::convert::b2a::{self, b2a};
use crate::proto::coral::convert::dabits::{self, dabits};
use crate::proto::coral::convert::{output_arith, output_boolean, ConvertDemand};
use crate::proto::coral::online::{InputRequest, ALL_LANES};
use crate::proto::coral::prep::Demand;
use crate::proto::coral::share::LANES;
use crate::rng::seeded_rng;

/// `packs` daBits at every party, both halves opened: the halves agree lane by lane, and the
/// material is used up exactly.
#[test]
fn dabit_halves_agree_and_use_their_material_exactly() {
    for (parties, ring, packs) in [(2, RingBits::K32, 3), (3, RingBits::K64, 2), (2, RingBits::K64, 1)] {
        let mut demand = ConvertDemand::empty(parties);
        dabits::add_demand(&mut demand, packs, parties);
        // Opening them: one encoding pair per boolean half, one output mask per arithmetic bit.
        demand.boolean.encodings += packs;
        demand.arith.output_masks += packs * LANES;
        let (results, _) = run(
            deal_both(11, ring, parties, &demand),
            Deviation::none(),
            |mut b, mut a, mut net| async move {
                let d = dabits(&mut b, &mut a, &mut net, packs).await?;
                let lanes = b.output(&mut net, &d.iter().map(|d| d.boolean).collect::<Vec<_>>()).await?;
                let bits: Vec<AShare> = d.iter().flat_map(|d| d.arith).collect();
                let bits = a.output(&mut net, &bits).await?;
                let left = (b.material().remaining(), a.material().clone());
                Ok((lanes, bits, left))
            },
        );
        let mut seen = Vec::new();
        for result in results {
            let (lanes, bits, (left_b, left_a)) = result.expect("honest run");
            assert_eq!(lanes.len(), packs);
            for (j, &l) in lanes.iter().enumerate() {
                for i in 0..LANES {
                    assert_eq!((l >> i) & 1, bits[j * LANES + i], "pack {j} lane {i}");
                }
            }
            assert_eq!(left_b, Demand::empty(parties), "boolean material left");
            assert!(left_a.triples.is_empty() && left_a.output_masks.is_empty());
            assert!(left_a.input_masks.iter().all(|m| m.is_empty()));
            seen.push(lanes);
        }
        assert!(seen.windows(2).all(|w| w[0] == w[1]), "every party sees the same daBits");
        assert!(seen[0].iter().any(|&l| l != 0 && l != ALL_LANES), "random lanes, not constant ones");
    }
}

/// rB2A: random lanes input as boolean sharings come out as Spdz2k bits.
#[test]
fn b2a_gives_every_lane_as_an_arithmetic_bit() {
    for (parties, ring, packs) in [(2, RingBits::K32, 4), (3, RingBits::K64, 2)] {
        let mut rng = seeded_rng(5);
        let lanes: Vec<u64> = (0..packs).map(|_| rng.next_u64() & ALL_LANES).collect();
        let mut demand = ConvertDemand::empty(parties);
        b2a::add_demand(&mut demand, packs, parties);
        demand.boolean.input_masks[0] += packs;
        demand.arith.output_masks += packs * LANES;
        let (results, _) =
            run(deal_both(12, ring, parties, &demand), Deviation::none(), |mut b, mut a, mut net| {
                let lanes = lanes.clone();
                async move {
                    let me = b.party();
                    let requests: Vec<InputRequest> = lanes
                        .iter()
                        .map(|&l| InputRequest { owner: 0, lanes: (me == 0).then_some(l) })
                        .collect();
                    let xs = b.input(&mut net, &requests).await?;
                    let d = dabits(&mut b, &mut a, &mut net, packs).await?;
                    let converted = b2a(&mut b, &mut a, &mut net, &xs, &d).await?;
                    let flat: Vec<AShare> = converted.into_iter().flatten().collect();
                    output_arith(&mut b, &mut a, &mut net, &flat).await
                }
            });
        for result in results {
            let bits = result.expect("honest run");
            for (j, &l) in lanes.iter().enumerate() {
                for i in 0..LANES {
                    assert_eq!(bits[j * LANES + i], (l >> i) & 1, "pack {j} lane {i}");
                }
            }
        }
    }
}

/// The bits of `values` (owned by party 1) through A2B and opened as boolean packs; with
/// `back`, the bits go through rB2A again and are recombined and opened as values.
fn a2b_run(parties: usize, ring: RingBits, values: &[u64], back: bool) -> (Vec<u64>, Vec<u64>) {
    let k = match ring {
        RingBits::K32 => 32u32,
        RingBits::K64 => 64,
    };
    let packs = a2b::packs(values.len());
    let mut demand = ConvertDemand::empty(parties);
    a2b::add_demand(&mut demand, values.len(), k, parties);
    demand.arith.input_masks[1] += values.len();
    if back {
        b2a::add_demand(&mut demand, packs * k as usize, parties);
        demand.arith.output_masks += values.len();
    } else {
        demand.boolean.encodings += packs * k as usize;
    }
    let (results, _) =
        run(deal_both(13, ring, parties, &demand), Deviation::none(), |mut b, mut a, mut net| {
            let values = values.to_vec();
            async move {
                let owners = vec![1; values.len()];
                let own = if a.party() == 1 { values.clone() } else { Vec::new() };
                let xs = a.input(&mut net, &owners, &own).await?;
                let before = net.stats().rounds;
                let d = dabits(&mut b, &mut a, &mut net, packs * k as usize).await?;
                assert_eq!(net.stats().rounds - before, dabits::rounds(parties) as u64, "daBit rounds");
                let before = net.stats().rounds;
                let bits = a2b(&mut b, &mut a, &mut net, &xs, &edabits_of(&d, k)).await?;
                assert_eq!(net.stats().rounds - before, a2b::rounds(k) as u64, "A2B rounds");
                if !back {
                    let flat: Vec<_> = bits.into_iter().flatten().collect();
                    let lanes = output_boolean(&mut b, &mut a, &mut net, &flat).await?;
                    return Ok((lanes, Vec::new()));
                }
                let flat: Vec<_> = bits.into_iter().flatten().collect();
                let d = dabits(&mut b, &mut a, &mut net, flat.len()).await?;
                let before = net.stats().rounds;
                let lanes = b2a(&mut b, &mut a, &mut net, &flat, &d).await?;
                assert_eq!(net.stats().rounds - before, b2a::ROUNDS as u64, "B2A rounds");
                // Pack p's bit i is lanes[p·k + i]; value v = Σ_i 2^i·[bit i of lane v mod 14].
                let recombined: Vec<AShare> = (0..values.len())
                    .map(|v| {
                        let (p, l) = (v / LANES, v % LANES);
                        (0..k as usize).fold(AShare::default(), |acc, i| {
                            acc + lanes[p * k as usize + i][l].scale(1 << i)
                        })
                    })
                    .collect();
                let out = output_arith(&mut b, &mut a, &mut net, &recombined).await?;
                assert_eq!(b.material().remaining(), crate::proto::coral::prep::Demand::empty(parties));
                Ok((Vec::new(), out))
            }
        });
    let results: Vec<_> = results.into_iter().map(|r| r.expect("honest run")).collect();
    assert!(results.windows(2).all(|w| w[0] == w[1]), "every party opens the same");
    results.into_iter().next().expect("a party")
}

#[test]
fn a2b_gives_the_bits_of_full_and_partial_packs() {
    let mut rng = seeded_rng(6);
    for (parties, ring, count) in [(2, RingBits::K32, 1), (2, RingBits::K32, 15), (3, RingBits::K64, 14)] {
        let mask = ring.mask();
        let mut values: Vec<u64> = (0..count).map(|_| rng.next_u64() & mask).collect();
        values[0] = mask; // all ones: the subtraction borrows through every bit
        let k = 64 - mask.leading_zeros() as usize;
        let (lanes, _) = a2b_run(parties, ring, &values, false);
        let lanes = &lanes;
        for (v, &x) in values.iter().enumerate() {
            let (p, l) = (v / LANES, v % LANES);
            let bits: u64 = (0..k).map(|i| ((lanes[p * k + i] >> l) & 1) << i).sum();
            assert_eq!(bits, x, "value {v} with {parties} parties, k = {k}");
        }
    }
}

#[test]
fn a2b_then_b2a_gives_the_values_back() {
    let mut rng = seeded_rng(7);
    let values: Vec<u64> =
        (0..16).map(|i| if i == 3 { 0 } else { rng.next_u64() & RingBits::K32.mask() }).collect();
    let (_, out) = a2b_run(2, RingBits::K32, &values, true);
    assert_eq!(out, values);
}
