//! Property tests: the quintuple relations of dealt material, the algebra of Fig. 8 on random
//! field elements, packed AND through the protocol and rConv on random inputs.

use proptest::prelude::*;

use super::{deal, params, run, Deviation};
use crate::proto::coral::online::{InputRequest, ALL_LANES};
use crate::proto::coral::prep::Demand;
use crate::proto::coral::rconv;
use crate::proto::coral::share::{RShare, LANES};

fn open(shares: &[RShare]) -> (u64, u64) {
    shares.iter().fold((0, 0), |(v, m), s| (v ^ s.value, m ^ s.mac))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn dealt_quintuples_and_encodings_satisfy_their_relations(seed in any::<u64>(), parties in 2usize..5) {
        let p = params();
        let demand = Demand { quintuples: 8, encodings: 8, ..Demand::empty(parties) };
        let materials = deal(seed, parties, &demand);
        let alpha = materials.iter().fold(0, |a, m| a ^ m.alpha);
        for i in 0..8 {
            let get = |f: &dyn Fn(&crate::proto::coral::prep::Quintuple) -> RShare| {
                open(&materials.iter().map(|m| f(&m.quintuples[i])).collect::<Vec<_>>())
            };
            let (a, b, c, ta, tb) = (get(&|q| q.a), get(&|q| q.b), get(&|q| q.c), get(&|q| q.tau_a), get(&|q| q.tau_b));
            for (v, m) in [a, b, c, ta, tb] {
                prop_assert_eq!(m, p.mul(alpha, v), "MAC relation");
            }
            prop_assert_eq!(p.psi(c.0), p.psi(a.0) & p.psi(b.0));
            prop_assert_eq!(c.0, p.tau(c.0), "c is normal");
            prop_assert_eq!(ta.0, p.tau(a.0));
            prop_assert_eq!(tb.0, p.tau(b.0));
            let (r, rm) = open(&materials.iter().map(|m| m.encodings[i].r).collect::<Vec<_>>());
            let (tr, _) = open(&materials.iter().map(|m| m.encodings[i].tau_r).collect::<Vec<_>>());
            prop_assert_eq!(rm, p.mul(alpha, r));
            prop_assert_eq!(tr, p.tau(r));
            prop_assert_eq!(p.psi(r ^ tr), 0, "r − τ(r) is in ker ψ");
        }
    }

    #[test]
    fn fig_8_recombination_multiplies_lanes(x in any::<u64>(), y in any::<u64>(), a in any::<u64>(), b in any::<u64>()) {
        let p = params();
        let mask = p.field().order_minus_one();
        let (x, y, a, b) = (x & mask, y & mask, a & mask, b & mask);
        let c = p.phi(p.psi(a) & p.psi(b));
        let (d, e) = (x ^ a, y ^ b);
        let (td, te) = (p.tau(d), p.tau(e));
        let z = p.mul(td, p.tau(b)) ^ p.mul(te, p.tau(a)) ^ p.mul(td, te) ^ c;
        prop_assert_eq!(p.psi(z), p.psi(x) & p.psi(y));
        prop_assert_eq!(p.tau_public(d), td);
    }

    #[test]
    fn packed_and_through_the_protocol(seed in any::<u64>(), xs in proptest::collection::vec(0..=ALL_LANES, 1..6), ys in proptest::collection::vec(0..=ALL_LANES, 6)) {
        let count = xs.len();
        let demand = Demand { quintuples: count, encodings: count, input_masks: vec![count, count], ..Demand::default() };
        let results = run(deal(seed, 2, &demand), Deviation::none(), |mut party, mut net| {
            let (xs, ys) = (xs.clone(), ys.clone());
            async move {
                let me = party.party();
                let mut req: Vec<InputRequest> = xs.iter().map(|&x| InputRequest { owner: 0, lanes: (me == 0).then_some(x) }).collect();
                req.extend(ys[..count].iter().map(|&y| InputRequest { owner: 1, lanes: (me == 1).then_some(y) }));
                let s = party.input(&mut net, &req).await?;
                let pairs: Vec<_> = s[..count].iter().copied().zip(s[count..].iter().copied()).collect();
                let z = party.mul(&mut net, &pairs).await?;
                party.output(&mut net, &z).await
            }
        });
        for r in results {
            let out = r.expect("honest");
            for i in 0..count {
                prop_assert_eq!(out[i], xs[i] & ys[i]);
            }
        }
    }

    #[test]
    fn rconv_on_random_tinyot_inputs(seed in any::<u64>(), packs in 1usize..4) {
        let mut demand = rconv::demand(2, packs);
        demand.tbits += packs * LANES;
        demand.encodings = packs;
        let materials = deal(seed, 2, &demand);
        let plain = super::ops::tbit_values(&materials, 0..packs * LANES);
        let results = run(materials, Deviation::none(), |mut party, mut net| async move {
            let bits = party.material_mut().take_tbits(packs * LANES)?;
            let ys = party.rconv(&mut net, &bits).await?;
            party.output(&mut net, &ys).await
        });
        for r in results {
            let out = r.expect("honest");
            for (j, &lanes) in out.iter().enumerate() {
                let expected = (0..LANES).fold(0u64, |a, h| a | u64::from(plain[j * LANES + h]) << h);
                prop_assert_eq!(lanes, expected);
            }
        }
    }
}

/// Material under other keys (two deals: α and Δ of their own) is not absorbed; material under
/// the same keys is appended after what is left, every kind and owner, in order.
#[test]
fn material_is_absorbed_only_under_the_same_keys() {
    let demand = Demand { quintuples: 3, encodings: 2, input_masks: vec![1, 2], tbits: 4, ttriples: 1 };
    let [mut a, b] = <[_; 2]>::try_from(deal(1, 2, &demand)).ok().unwrap();
    let other = deal(2, 2, &demand).remove(0);
    let before = a.remaining();
    assert!(!a.absorb(other), "another deal's keys");
    assert_eq!(a.remaining(), before, "nothing appended");
    assert!(!a.absorb(b), "party 1's material for party 0");
    let mut same = deal(1, 2, &demand).remove(0);
    // The same deal again: party 0's α and Δ; half of its quintuples already used.
    same.cursor.quintuples = 2;
    let first_left = same.quintuples[2];
    assert!(a.absorb(same));
    let after = a.remaining();
    assert_eq!(after.quintuples, 3 + 1);
    assert_eq!((after.encodings, after.tbits, after.ttriples), (4, 8, 2));
    assert_eq!(after.input_masks, vec![2, 4]);
    assert_eq!(a.quintuples[3], first_left, "appended after, in order");
}

/// Materials under the same keys join without copying their quintuples: the joined material hands
/// out what was left of each, in order, across the segments (one piece per segment a take
/// crosses), counts them in what is left, and encodes every segment; other keys do not join.
#[test]
fn joined_material_hands_out_every_part_in_order_across_segments() {
    let demand = Demand { quintuples: 3, encodings: 2, input_masks: vec![1, 2], tbits: 1, ttriples: 1 };
    let part = || deal(1, 2, &demand).remove(0);
    let (mut first, second, third) = (part(), part(), part());
    first.cursor.quintuples = 1;
    let expected: Vec<_> =
        first.quintuples[1..].iter().chain(&second.quintuples).chain(&third.quintuples).copied().collect();
    assert!(
        super::super::prep::CoralMaterial::join(vec![part(), deal(2, 2, &demand).remove(0)]).is_none(),
        "other keys"
    );
    let mut joined = super::super::prep::CoralMaterial::join(vec![first, second, third]).expect("same keys");
    assert_eq!(joined.remaining().quintuples, 8);
    assert_eq!(joined.remaining().encodings, 6);
    // Encoding (for material as dealt) writes every quintuple held, the first's used one too.
    let encoded = super::super::prep::codec::encode(&joined);
    assert_eq!(super::super::prep::codec::decode(&encoded).expect("decodes").remaining().quintuples, 9);
    let pieces = joined.take_quintuples(4).expect("four");
    assert_eq!(pieces, vec![(0, 1..3), (1, 0..2)], "the first's two left, then the second's");
    let rest = joined.take_quintuples(4).expect("four more");
    assert_eq!(rest, vec![(1, 2..3), (2, 0..3)]);
    let taken: Vec<_> = pieces
        .iter()
        .chain(&rest)
        .flat_map(|(s, r)| joined.quintuple_segment(*s)[r.clone()].to_vec())
        .collect();
    assert_eq!(taken, expected);
    assert_eq!(joined.remaining().quintuples, 0);
    assert!(joined.take_quintuples(1).is_err(), "exhausted");
}
