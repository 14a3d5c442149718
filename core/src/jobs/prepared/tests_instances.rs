//! TinyTable's per-instance stock: jobs take ranges of one batch, every instance exactly once and
//! in order, the batch compacts once more than half of it was handed out, and the store counts
//! what the batch holds.

use super::*;
use crate::circuit::testing::random_circuit;
use crate::jobs::tinytable::ot_prep::Material;
use crate::proto::tinytable::circuit::join::{Batch, Gather};
use crate::proto::tinytable::{IoSpec, MaliciousPrep, Reveal, SlicedPrep, TrustedDealer};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

const N: usize = 200;
const BYTES: usize = 10;

/// Takes `sizes` instances in turn from a stock of `whole` (`wrap`ped as material), checks the
/// counts and the held bytes after each take, and checks that the pieces gathered in order are
/// `whole` again.
fn take_in_turn<B: Batch + Clone + PartialEq>(
    whole: &B,
    sizes: &[usize],
    wrap: fn(B) -> Material,
    unwrap: fn(Material) -> Option<B>,
) {
    let mut stock = Stock::per_instance(wrap(whole.clone()), BYTES);
    let (mut left, mut held, mut gather) = (N, N, Gather::new(whole.party(), N));
    for &m in sizes {
        let part = stock.take(m).expect("covered").into_material().expect("per-instance stock");
        assert_eq!(part.instances(), m);
        gather.push(unwrap(part).expect("same kind")).expect("fits");
        left -= m;
        // Compacted to what is left once more than half of the held batch was handed out.
        if left > 0 && 2 * (held - left) > held {
            held = left;
        }
        assert_eq!(stock.instances(), left, "after taking {m} of {sizes:?}");
        assert_eq!(stock.bytes(), if left == 0 { 0 } else { held * BYTES }, "after taking {m} of {sizes:?}");
    }
    assert!(stock.take(1).is_err(), "nothing is left to take");
    assert!(gather.finish().expect("every instance") == *whole, "{sizes:?}");
}

const SIZES: [&[usize]; 6] = [&[1; N], &[1, 63, 64, 2, 70], &[N], &[199, 1], &[100, 100], &[101, 50, 49]];

#[test]
fn a_batch_is_handed_out_in_ranges_each_instance_once() {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    let circuit = random_circuit(&mut rng, 4, 50, 3);
    let io =
        IoSpec { input_owners: vec![0, 1, 1, 0], reveal: vec![Reveal::Both, Reveal::To(0), Reveal::To(1)] };
    let mut dealer = TrustedDealer::new(rng);
    // A range of the whole batch is the dealer's batch with its unused high bits cleared (the
    // dealer leaves them random), as every piece has them.
    let malicious: MaliciousPrep<u64> =
        dealer.malicious_batch(&circuit, &io, N).expect("dealer")[0].instances_range(0, N).expect("range");
    let sliced: SlicedPrep =
        dealer.sliced_batch(&circuit, &io, N).expect("dealer")[1].instances_range(0, N).expect("range");
    for sizes in SIZES {
        take_in_turn(&malicious, sizes, Material::K64, |m| match m {
            Material::K64(p) => Some(p),
            _ => None,
        });
        take_in_turn(&sliced, sizes, Material::SemiHonest, |m| match m {
            Material::SemiHonest(p) => Some(p),
            _ => None,
        });
    }
}

#[test]
fn ranges_outside_a_batch_are_typed_errors() {
    let mut rng = ChaCha20Rng::seed_from_u64(12);
    let circuit = random_circuit(&mut rng, 2, 20, 1);
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
    let mut dealer = TrustedDealer::new(rng);
    let batch: MaliciousPrep<u64> = dealer.malicious_batch(&circuit, &io, 10).expect("dealer")[0].clone();
    for (start, len) in [(0, 0), (0, 11), (10, 1), (5, 6), (usize::MAX, 1)] {
        let err = batch.instances_range(start, len).expect_err("refused");
        assert!(err.to_string().contains("cannot take instances"), "{err}");
    }
    let mut stock = Stock::per_instance(Material::K64(batch), BYTES);
    assert!(matches!(stock.take(0), Err(JobError::Internal(_))));
    assert!(matches!(stock.take(11), Err(JobError::Internal(_))));
    assert_eq!(stock.instances(), 10);
}
