//! The store's bookkeeping on unit stock (a dealer's records, which carry no material): plans
//! cover a job from the front of one preparation, takes consume exactly the planned units, plans
//! differ whenever the stores do, and the byte bound holds.

use super::*;
use std::collections::VecDeque;

const KIND: [u8; 32] = [7; 32];
const OTHER: [u8; 32] = [8; 32];

fn units(lanes: &[usize]) -> Stock {
    Stock::Units(
        lanes
            .iter()
            .map(|&lanes| Unit { lanes, bytes: 1000 * lanes, material: UnitMaterial::Dealt })
            .collect::<VecDeque<_>>(),
    )
}

fn store_with(preparations: &[&[usize]]) -> Prepared {
    let mut store = Prepared::default();
    for lanes in preparations {
        store.add(KIND, &[1; 32], units(lanes), NetStats::default());
    }
    store
}

#[test]
fn a_job_takes_whole_units_from_the_front_until_they_cover_it() {
    let mut store = store_with(&[&[3, 3, 2]]);
    assert_eq!(store.available(), 8);
    let plan = store.plan(|| KIND, 4, PreparedUse::Auto).unwrap().expect("covered");
    assert_eq!((plan.from, plan.take, plan.instances), (0, 2, 4));
    let taken = store.take(&plan).unwrap().into_units().unwrap();
    assert_eq!(taken.iter().map(|u| u.lanes).collect::<Vec<_>>(), vec![3, 3]);
    // The unused lanes of the last unit went with it.
    assert_eq!((store.available(), store.consumed()), (2, 4));
    let next = store.plan(|| KIND, 2, PreparedUse::Require).unwrap().expect("covered");
    assert_eq!((next.from, next.take), (2, 1));
    store.take(&next).unwrap();
    assert_eq!(store.available(), 0);
    assert!(store.plan(|| KIND, 1, PreparedUse::Auto).unwrap().is_none());
}

#[test]
fn a_job_takes_from_one_preparation_and_requires_say_why_none_fits() {
    let store = store_with(&[&[2], &[5]]);
    // The first preparation holds too few; the second covers the job.
    let plan = store.plan(|| KIND, 4, PreparedUse::Auto).unwrap().expect("second");
    assert_ne!(plan.id, store.entries[0].id);
    assert_eq!(plan.id, store.entries[1].id);
    // Two preparations of one spec (same digest) have ids of their own.
    assert_ne!(store.entries[0].id, store.entries[1].id);

    assert_eq!(store.plan(|| KIND, 6, PreparedUse::Auto).unwrap(), None);
    assert_eq!(store.plan(|| KIND, 1, PreparedUse::Never).unwrap(), None);
    let reason = |kind, needs| match store.plan(|| kind, needs, PreparedUse::Require) {
        Err(JobError::InvalidSpec { field: "usePrepared", reason }) => reason,
        other => panic!("expected usePrepared, got {other:?}"),
    };
    assert!(reason(KIND, 6).contains("no preparation of its kind covers all 6"));
    assert!(reason(OTHER, 1).contains("made for other jobs"));
    assert!(Prepared::default().plan(|| KIND, 1, PreparedUse::Require).is_err());
}

#[test]
fn an_empty_store_plans_without_the_kind_digest() {
    // The digest hashes a job's whole description; with nothing to match it is not computed.
    let empty = Prepared::default();
    let no_digest = || -> [u8; 32] { panic!("the kind digest was computed for an empty store") };
    assert_eq!(empty.plan(no_digest, 5, PreparedUse::Auto).unwrap(), None);
    match empty.plan(no_digest, 5, PreparedUse::Require) {
        Err(JobError::InvalidSpec { field: "usePrepared", reason }) => {
            assert!(reason.contains("no prepared material is left"), "{reason}")
        }
        other => panic!("expected usePrepared, got {other:?}"),
    }
    // With material held, the digest decides.
    let held = store_with(&[&[3]]);
    let digests = core::cell::Cell::new(0);
    let counted = || {
        digests.set(digests.get() + 1);
        KIND
    };
    assert!(held.plan(counted, 3, PreparedUse::Auto).unwrap().is_some());
    assert_eq!(digests.get(), 1);
}

#[test]
fn plans_of_different_stores_have_different_bytes() {
    let a = store_with(&[&[3, 3]]);
    let mut b = store_with(&[&[3, 3]]);
    let plan_a = a.plan(|| KIND, 3, PreparedUse::Auto).unwrap();
    assert_eq!(
        plan_bytes(plan_a.as_ref()),
        plan_bytes(b.plan(|| KIND, 3, PreparedUse::Auto).unwrap().as_ref())
    );
    // b consumed a unit: its next plan starts further on.
    let taken = b.plan(|| KIND, 1, PreparedUse::Auto).unwrap().unwrap();
    b.take(&taken).unwrap();
    let plan_b = b.plan(|| KIND, 3, PreparedUse::Auto).unwrap();
    assert_ne!(plan_bytes(plan_a.as_ref()), plan_bytes(plan_b.as_ref()));
    // A job with a plan and one without never agree.
    assert_ne!(plan_bytes(plan_a.as_ref()), plan_bytes(None));
    assert_eq!(plan_bytes(None), vec![0]);
}

#[test]
fn taking_a_plan_twice_or_from_another_store_fails() {
    let mut store = store_with(&[&[3]]);
    let plan = store.plan(|| KIND, 3, PreparedUse::Auto).unwrap().unwrap();
    store.take(&plan).unwrap();
    assert!(matches!(store.take(&plan), Err(JobError::Internal(_))));
}

#[test]
fn the_store_keeps_at_most_its_byte_budget() {
    let store = store_with(&[&[100]]);
    assert_eq!(store.held_bytes(), 100_000);
    store.check_room(PREPARED_BUDGET_BYTES - 100_000, "evaluations").unwrap();
    match store.check_room(PREPARED_BUDGET_BYTES - 99_999, "evaluations") {
        Err(JobError::InvalidSpec { field: "evaluations", reason }) => {
            assert!(reason.contains("1024 MiB a session keeps"), "{reason}")
        }
        other => panic!("expected a bound error, got {other:?}"),
    }
    assert!(store.check_room(usize::MAX, "blocks").is_err());
}

#[test]
fn job_sizes_split_a_preparation_into_the_jobs_it_serves() {
    assert_eq!(job_sizes(10, 4), vec![4, 4, 2]);
    assert_eq!(job_sizes(10, 10), vec![10]);
    assert_eq!(job_sizes(3, 1), vec![1, 1, 1]);
}
