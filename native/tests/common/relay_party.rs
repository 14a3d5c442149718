//! One party of a FIPS-197 job through a relay room (the relay tests' shared step): joins `slot`
//! at `address`, runs the default AES job, and closes once every peer's end marker arrived.

use crate::common::{fips_input, SECRET};
use chorus_native::job::{default_spec, room_session_id, run_aes_party, JobRunError, PartyOutcome};
use chorus_native::relay::{RelayAddress, RelayNetwork, Room};
use std::time::Duration;

pub async fn fips_party(
    address: RelayAddress,
    room: Room,
    p: usize,
    bound: Duration,
) -> Result<PartyOutcome, JobRunError> {
    let (net, mut handle) =
        RelayNetwork::join(&address, &room.room, p, &room.tokens[p], bound).await.unwrap();
    let (session, spec) = (room_session_id(&room.room, 0), default_spec(1));
    let job = run_aes_party(net, &session, SECRET, &spec, fips_input(p), async {});
    let out = tokio::time::timeout(bound, job).await.expect("job finished in time");
    handle.job_done();
    // True only if every peer's end marker arrived before the close.
    assert!(handle.close(Duration::from_secs(10)).await, "party {p} saw every end marker and closed");
    out
}
