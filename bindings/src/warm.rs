//! Warming a runtime's code before a session's first job: a job of the same spec, smaller, run by
//! every member of the session inside this process over in-memory channels, with placeholder
//! inputs, and thrown away.
//!
//! Why: V8 (Node, Chromium) runs a WASM function in its baseline tier (Liftoff) until the function
//! has run long enough, then optimizes it (TurboFan) for its *later* calls; a call already running
//! never switches (no on-stack replacement for WASM). A session's first job therefore runs much of
//! the core unoptimized — the long per-layer and per-job calls above all. Running the same job's
//! code before, while the session is still joining (the SDK runs a warm-up a few times: V8
//! optimizes over several runs), lets V8 optimize what the real job will call. The warm-up is the real job code — [`Job::run`], its Noise handshakes and channels
//! included, over the binding's own network type and progress callback, so that the very same
//! monomorphized functions run (the protocol code is generic over the network: a warm-up over
//! another network type would warm other copies of it) — with members' frames passed between
//! their inboxes in memory; only its size is capped ([`WARM_UP_BLOCKS`], [`WARM_UP_INSTANCES`])
//! and its inputs are zeros.
//!
//! Trust: nothing of the session is used — no credentials (a fresh random secret for the in-memory
//! channels), no inputs, no prepared material, and nothing leaves the process; the warm-up's
//! outputs are dropped. It only costs this process CPU time: every member's share of a small job.

use crate::error::BridgeError;
use crate::inbox::Inbox;
use crate::jobs::{aes_spec, circuit_spec, job_rng, Aes, Circuit, Job, JobKind};
use crate::network::Progress;
use crate::spec::Fields;
use chorus_core::jobs::parties::MAX_OT_PARTIES;
use chorus_core::jobs::{AesInput, AesSpec, CircuitInput, CircuitSpec, Prepared};
use chorus_core::net::secure::SecureConfig;
use chorus_core::net::{NetError, Network, PartyId};
use rand_core::RngCore;

/// The most AES blocks a warm-up runs.
pub const WARM_UP_BLOCKS: usize = 16;

/// The most circuit instances a warm-up runs.
pub const WARM_UP_INSTANCES: usize = 4;

/// A job kind that can be warmed up: its spec read alone, made smaller, and placeholder inputs.
pub trait Warm: JobKind<Spec: Clone> {
    /// Reads and checks the spec (as a job of this kind in a session of `parties` would).
    fn spec(parties: usize, spec: &impl Fields) -> Result<Self::Spec, BridgeError>;
    /// The same spec at the warm-up's size.
    fn smaller(spec: Self::Spec) -> Self::Spec;
    /// Inputs of the right shape for member `party`: zeros (a dealer's: none).
    fn placeholder(spec: &Self::Spec, party: usize) -> Self::Input;
}

impl Warm for Aes {
    fn spec(parties: usize, spec: &impl Fields) -> Result<AesSpec, BridgeError> {
        aes_spec(parties, spec)
    }

    fn smaller(spec: AesSpec) -> AesSpec {
        AesSpec { blocks: spec.blocks.min(WARM_UP_BLOCKS), ..spec }
    }

    fn placeholder(spec: &AesSpec, party: usize) -> AesInput {
        // A dealer is never a key holder or the plaintext's owner.
        AesInput {
            key_share: spec.key_holders.contains(&party).then(|| vec![0; spec.key_size.key_bytes()]),
            plaintext: (spec.plaintext_owner == party).then(|| vec![0; 16 * spec.blocks]),
        }
    }
}

impl Warm for Circuit {
    fn spec(parties: usize, spec: &impl Fields) -> Result<CircuitSpec, BridgeError> {
        circuit_spec(parties, spec)
    }

    fn smaller(spec: CircuitSpec) -> CircuitSpec {
        CircuitSpec { instances: spec.instances.min(WARM_UP_INSTANCES), ..spec }
    }

    fn placeholder(spec: &CircuitSpec, party: usize) -> CircuitInput {
        // A dealer owns no input value: empty sets.
        let widths = spec.circuit.input_widths();
        let owned: Vec<Vec<bool>> = (spec.io.input_owners.iter().enumerate())
            .filter(|&(_, &owner)| owner == party)
            .map(|(value, _)| vec![false; widths[value] as usize])
            .collect();
        CircuitInput { values: vec![owned; spec.instances] }
    }
}

/// What a warm-up member sends through: its frames go into the peers' inboxes.
pub type LoopbackSend = Box<dyn FnMut(PartyId, Vec<u8>) -> Result<(), String>>;

/// A warm-up: the jobs of every member of a session, ready to run against each other.
#[derive(Debug)]
pub struct WarmUp<K: JobKind> {
    jobs: Vec<Job<K>>,
}

impl<K: Warm> WarmUp<K> {
    /// The warm-up of jobs of kind `K` with spec `spec` (checked as the job would check it; the
    /// errors are the job's) in a session of `parties`: every member's job at the warm-up's size,
    /// with placeholder inputs, under one fresh random secret.
    pub fn new(parties: usize, spec: &impl Fields) -> Result<Self, BridgeError> {
        if !(2..=MAX_OT_PARTIES).contains(&parties) {
            let reason = format!("a session has 2 to {MAX_OT_PARTIES} members, not {parties}");
            return Err(BridgeError::config("parties", reason));
        }
        let spec = K::smaller(K::spec(parties, spec)?);
        let mut secret = [0u8; 32];
        job_rng()?.fill_bytes(&mut secret);
        let config = SecureConfig::session_secret(b"chorus warm-up", &secret);
        let jobs = (0..parties)
            .map(|party| {
                let input = K::placeholder(&spec, party);
                Job::warm_up(config.clone(), parties, spec.clone(), input)
            })
            .collect();
        Ok(WarmUp { jobs })
    }

    /// Runs every member's job in this thread, each over `network(party, inbox, send)` — the
    /// binding's own network type around the member's inbox and a `send` into its peers' inboxes,
    /// so that the jobs run the very code (the same monomorphized functions) a session's jobs run
    /// — reporting to `progress()`; the results are dropped. A member that fails ends the others'
    /// waits (its peers see it leave).
    pub async fn run<N: Network, P: FnMut(&Progress)>(
        self,
        network: impl Fn(PartyId, Inbox, LoopbackSend) -> N,
        progress: impl Fn() -> P,
    ) -> Result<(), BridgeError> {
        let parties = self.jobs.len();
        let inboxes: Vec<Inbox> = (0..parties).map(|_| Inbox::new(parties)).collect();
        let members = self.jobs.into_iter().enumerate().map(|(me, job)| {
            let peers = inboxes.clone();
            let send: LoopbackSend =
                Box::new(move |to, frame| peers[to].deliver(me, frame).map_err(|e| e.to_string()));
            let net = network(me, inboxes[me].clone(), send);
            let (progress, inboxes) = (progress(), &inboxes);
            async move {
                let (mut channels, mut prepared) = (None, Prepared::default());
                let done = job.run(&mut channels, &mut prepared, net, progress).await;
                if done.is_err() {
                    inboxes.iter().for_each(|inbox| inbox.fail(NetError::PeerLeft(me)));
                }
                done.map(drop)
            }
        });
        let results = futures::future::join_all(members).await;
        results.into_iter().find(Result::is_err).unwrap_or(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::BridgeNetwork;
    use crate::spec::tests::{field_of, map};
    use crate::spec::Value;
    use std::cell::Cell;
    use std::rc::Rc;

    /// Runs a warm-up over [`BridgeNetwork`]s that count every member's frames.
    fn run<K: Warm>(warm_up: WarmUp<K>) -> (Result<(), BridgeError>, Vec<usize>) {
        let parties = warm_up.jobs.len();
        let frames: Vec<Rc<Cell<usize>>> = (0..parties).map(|_| Rc::default()).collect();
        let counted = frames.clone();
        let network = move |me: PartyId, inbox, mut send: LoopbackSend| {
            let count = counted[me].clone();
            let send: LoopbackSend = Box::new(move |to, frame| {
                count.set(count.get() + 1);
                send(to, frame)
            });
            BridgeNetwork::new(me, parties, inbox, send)
        };
        let result = futures::executor::block_on(warm_up.run(network, || |_: &Progress| {}));
        (result, frames.iter().map(|c| c.get()).collect())
    }

    fn text(s: &str) -> Value {
        Value::Str(s.into())
    }

    #[test]
    fn every_member_runs_a_maestro_job_against_the_others() {
        let spec =
            map(&[("variant", text("lut16")), ("security", text("malicious")), ("blocks", Value::Num(1e4))]);
        let warm_up = WarmUp::<Aes>::new(3, &spec).unwrap();
        assert!(warm_up.jobs.iter().all(|job| job.spec().blocks == WARM_UP_BLOCKS), "the size is capped");
        let (result, frames) = run(warm_up);
        result.unwrap();
        assert!(frames.iter().all(|&n| n > 10), "every member sent frames: {frames:?}");
    }

    #[test]
    fn a_dealer_and_the_parties_of_a_circuit_job_get_inputs_of_their_shape() {
        // One AND of party 0's bit and party 1's bit, with TinyTable's dealer as member 2.
        let circuit = "1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n";
        let spec = map(&[
            ("protocol", text("tinytable")),
            ("preprocessing", text("dealer")),
            ("circuit", text(circuit)),
            ("instances", Value::Num(100.0)),
        ]);
        let warm_up = WarmUp::<Circuit>::new(3, &spec).unwrap();
        let (result, frames) = run(warm_up);
        result.unwrap();
        assert!(frames.iter().all(|&n| n > 0), "{frames:?}");
    }

    #[test]
    fn two_parties_warm_up_tinytable_over_ot() {
        let spec =
            map(&[("protocol", text("tinytable")), ("path", text("circuit")), ("blocks", Value::Num(1.0))]);
        let (result, frames) = run(WarmUp::<Aes>::new(2, &spec).unwrap());
        result.unwrap();
        assert!(frames.iter().all(|&n| n > 0), "{frames:?}");
    }

    #[test]
    fn a_spec_the_job_would_refuse_is_refused_alike() {
        let bad_variant = map(&[("variant", text("lut17"))]);
        assert_eq!(field_of(WarmUp::<Aes>::new(3, &bad_variant).unwrap_err()), "variant");
        let maestro = map(&[]);
        assert_eq!(field_of(WarmUp::<Aes>::new(2, &maestro).unwrap_err()), "parties");
        for parties in [0, 1, MAX_OT_PARTIES + 1, usize::MAX] {
            assert_eq!(field_of(WarmUp::<Aes>::new(parties, &maestro).unwrap_err()), "parties", "{parties}");
        }
        let no_circuit = map(&[("protocol", text("coral"))]);
        assert_eq!(field_of(WarmUp::<Circuit>::new(2, &no_circuit).unwrap_err()), "circuit");
    }
}
