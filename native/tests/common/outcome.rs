//! The check of a whole job outcome, for the tests that run parties in-process (TCP, relay).

use crate::common::check_fips_report;
use chorus_native::job::PartyOutcome;

/// [`check_fips_report`](crate::common::check_fips_report) on a job outcome, plus the relation of whole-job and transport counts.
pub fn check_fips_outcome(p: usize, outcome: &PartyOutcome) {
    let out = &outcome.output;
    let r = &out.online_stats;
    check_fips_report(p, out.ciphertext.as_deref(), r.bytes_sent, r.bytes_received, r.rounds);
    assert!(out.stats.bytes_sent > r.bytes_sent, "party {p}: whole job counts setup too");
    assert!(
        outcome.transport.bytes_sent > out.stats.bytes_sent,
        "party {p}: transport adds channel overhead"
    );
}
