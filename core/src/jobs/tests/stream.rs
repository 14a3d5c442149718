//! Jobs that stream their instances in chunks ([`crate::jobs::stream`]): the outputs of every
//! chunk are the plain evaluation of its instances, in order, the same as one chunk gives, and
//! the job reports the start of each chunk's online phase and every chunk done.

use super::*;
use crate::circuit::Circuit;
use crate::jobs::coral as coral_job;
use crate::jobs::tinytable::circuit::CircuitJobSpec;
use crate::jobs::tinytable::ot_prep;
use crate::proto::tinytable::circuit::online::Outputs;

type Run = (Vec<Outputs>, Vec<JobPhase>);

/// Runs `job` at both parties of a two-member session, each with its inputs of every instance
/// (`values[i][p]` is party p's value of instance i), and returns what each saw.
fn both<F, Fut>(values: &[Vec<Vec<bool>>], job: F) -> Vec<Run>
where
    F: Fn(SecureNetwork<MemoryNetwork>, Vec<Vec<Vec<bool>>>) -> Fut + Clone,
    Fut: core::future::Future<Output = Result<Run, JobError>>,
{
    let values = values.to_vec();
    run_session(2, |inner| {
        let me = inner.party();
        let mine: Vec<Vec<Vec<bool>>> = values.iter().map(|vs| vec![vs[me].clone()]).collect();
        let job = job.clone();
        async move { job(connect(inner).await?, mine).await }
    })
    .into_iter()
    .enumerate()
    .map(|(p, r)| r.unwrap_or_else(|e| panic!("party {p}: {e}")))
    .collect()
}

fn check_outputs(circuit: &Circuit, values: &[Vec<Vec<bool>>], outputs: &[Outputs]) {
    assert_eq!(outputs.len(), values.len());
    for (i, out) in outputs.iter().enumerate() {
        let expected = circuit.evaluate(&values[i]).unwrap();
        let got: Vec<_> = out.iter().map(|v| v.clone().expect("revealed to both")).collect();
        assert_eq!(got, expected, "instance {i}");
    }
}

fn instances_seen(phases: &[JobPhase]) -> Vec<usize> {
    phases
        .iter()
        .filter_map(|p| if let JobPhase::Instances { done, .. } = p { Some(*done) } else { None })
        .collect()
}

#[test]
fn tinytable_over_ot_in_chunks_of_64_instances_made_20_at_a_time_gives_every_instance_in_order() {
    let mut rng = ChaCha20Rng::seed_from_u64(501);
    let circuit = random_circuit(&mut rng, 2, 60, 2);
    let values = random_inputs(&mut rng, &circuit, 150);
    for security in [Security::SemiHonest, Security::Malicious] {
        let spec = CircuitJobSpec {
            preprocessing: Preprocessing::Ot,
            security,
            mac_bits: MacBits::K64,
            circuit: circuit.clone(),
            io: IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both; 2] },
            instances: values.len(),
        };
        let runs = both(&values, |mut net, mine| {
            let spec = spec.clone();
            async move {
                let mut phases = Vec::new();
                let mut rng = seeded_rng(510 + net.party() as u64);
                let sizes = ot_prep::ChunkSizes { online: 64, making: 20 };
                let (outputs, _) =
                    ot_prep::run_chunked(&mut net, &spec, b"digest", &mine, &mut rng, sizes, &mut |p| {
                        phases.push(p)
                    })
                    .await?;
                Ok((outputs, phases))
            }
        });
        for (outputs, phases) in &runs {
            check_outputs(&circuit, &values, outputs);
            assert_eq!(phases[0], JobPhase::OnlineStarts);
            assert_eq!(instances_seen(phases), vec![64, 128, 150], "{security:?}");
        }
    }
}

#[test]
fn coral_in_chunks_of_one_pack_gives_every_instance_in_order() {
    let mut rng = ChaCha20Rng::seed_from_u64(502);
    let circuit = random_circuit(&mut rng, 2, 40, 2);
    let values = random_inputs(&mut rng, &circuit, 30);
    let spec = CircuitSpec {
        protocol: CircuitProtocol::Coral { preprocessing: Preprocessing::Ot },
        circuit: circuit.clone().into(),
        io: IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both; 2] },
        instances: values.len(),
    };
    let runs = both(&values, |mut net, mine| {
        let spec = spec.clone();
        async move {
            let mut phases = Vec::new();
            let mut rng = seeded_rng(520 + net.party() as u64);
            let (job, _) = coral_job::circuit_job(&spec, CircuitInput { values: mine }).unwrap();
            let (outputs, _) =
                coral_job::run_chunked(&mut net, Preprocessing::Ot, b"digest", &job, 14, &mut rng, |p| {
                    phases.push(p)
                })
                .await?;
            Ok((outputs, phases))
        }
    });
    for (outputs, phases) in &runs {
        check_outputs(&circuit, &values, outputs);
        // Each chunk's online phase starts after its material is made.
        assert_eq!(phases.iter().filter(|p| **p == JobPhase::OnlineStarts).count(), 3);
        assert_eq!(instances_seen(phases), vec![14, 28, 30]);
    }
}

#[test]
fn coral_chunks_are_sized_by_the_working_memory_over_ot_and_by_the_held_size_from_the_dealer() {
    use crate::aes::KeySize;
    use crate::jobs::keyed_aes::cached;
    use crate::jobs::options::Direction;
    let aes = cached(2, KeySize::Aes128, Direction::Encrypt).unwrap();
    // Over OT a pack of AES takes about 130 MB per party to make: one pack at a time fits.
    let ot = coral_job::chunk_size(&aes, 1400, Preprocessing::Ot, 2);
    assert_eq!((ot % 14, ot <= 28), (0, true), "{ot}");
    assert!(coral_job::chunk_size(&aes, 1400, Preprocessing::Ot, 3) <= ot);
    // From the dealer the parties receive it made: 1,400 instances take two chunks.
    let dealt = coral_job::chunk_size(&aes, 1400, Preprocessing::Dealer, 2);
    assert_eq!((dealt % 14, 1400_usize.div_ceil(dealt)), (0, 2), "{dealt}");
}
