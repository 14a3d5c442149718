//! Π_rQuintuple (Fig. 7) from dealt TinyOT triples: relations of the generated quintuples, their
//! use in a multiplication, and a deviating input caught by the sacrifice.

use super::{deal, params, run, Deviation};
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::{Step, HEADER_BYTES};
use crate::proto::coral::prep::{quintuple, Quintuple};
use crate::proto::coral::share::RShare;

fn open(shares: impl Iterator<Item = RShare>) -> (u64, u64) {
    shares.fold((0, 0), |(v, m), s| (v ^ s.value, m ^ s.mac))
}

#[test]
fn generated_quintuples_satisfy_the_relations_for_2_and_3_parties() {
    let p = params();
    for parties in [2usize, 3] {
        let count = 6;
        let materials = deal(40 + parties as u64, parties, &quintuple::demand(parties, count));
        let alpha = materials.iter().fold(0, |a, m| a ^ m.alpha);
        let results = run(materials, Deviation::none(), |mut party, mut net| async move {
            let q = party.generate_quintuples(&mut net, count).await?;
            party.check(&mut net).await?;
            Ok(q)
        });
        let all: Vec<Vec<Quintuple>> = results.into_iter().map(|r| r.expect("honest generation")).collect();
        for j in 0..count {
            let get = |f: fn(&Quintuple) -> RShare| open(all.iter().map(|qs| f(&qs[j])));
            let (a, b, c, ta, tb) =
                (get(|q| q.a), get(|q| q.b), get(|q| q.c), get(|q| q.tau_a), get(|q| q.tau_b));
            for (v, m) in [a, b, c, ta, tb] {
                assert_eq!(m, p.mul(alpha, v), "MAC relation, quintuple {j}");
            }
            assert_eq!(ta.0, p.tau(a.0), "τ(a), quintuple {j}");
            assert_eq!(tb.0, p.tau(b.0), "τ(b), quintuple {j}");
            assert_eq!(p.psi(c.0), p.psi(a.0) & p.psi(b.0), "c = φ(ψ(a) ⊙ ψ(b)), quintuple {j}");
            assert_eq!(c.0, p.tau(c.0));
        }
        // Not all equal (the a's are fresh): a sanity check against a constant output.
        let first = open(all.iter().map(|qs| qs[0].a)).0;
        assert!((1..count).any(|j| open(all.iter().map(|qs| qs[j].a)).0 != first));
    }
}

#[test]
fn a_party_inputting_a_wrong_preimage_fails_the_sacrifice() {
    let count = 4;
    let wrong = params().phi(1); // not in ker ψ: changes ψ(a^1_0)
    let edit = move |_: u64, msg: &mut Vec<u8>| {
        if msg.first() == Some(&(Step::QuintupleInput as u8)) {
            for (i, byte) in wrong.to_le_bytes().iter().take(6).enumerate() {
                msg[HEADER_BYTES + i] ^= byte;
            }
        }
    };
    let results = run(
        deal(4, 2, &quintuple::demand(2, count)),
        Deviation::wire(1, edit),
        |mut party, mut net| async move { party.generate_quintuples(&mut net, count).await },
    );
    assert_eq!(
        results[0].as_ref().err(),
        Some(&CoralError::CheckFailed { check: Check::QuintupleSacrifice })
    );
    assert!(results[1].is_err());
}
