//! MiniMac with OT-based preprocessing through the job layer (two members, no dealer, encrypted
//! channels): circuit jobs with mixed reveals and across codeword batches against plaintext, a
//! party that corrupts its COPE columns (caught before any output), and FIPS-197 AES for one block
//! (material for one instance: 6400 TinyOT AND triples).

use super::*;
use crate::proto::minimac::{MiniMacError, PrepCheck};

const OT: Preprocessing = Preprocessing::Ot;

#[test]
fn minimac_ot_circuit_job_with_mixed_reveals_matches_plaintext() {
    super::reveal::mixed_reveals(CircuitProtocol::MiniMac { code: CodeChoice::Rs255_85, preprocessing: OT });
}

/// 700 instances with the (255, 85) code: two batches, two provider runs in one job.
#[test]
fn minimac_ot_circuit_job_across_two_batches_counts_preprocessing_in_the_total() {
    let mut rng = ChaCha20Rng::seed_from_u64(23);
    let circuit = random_circuit(&mut rng, 2, 30, 2);
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both; 2] };
    let instances = 700;
    let values = random_inputs(&mut rng, &circuit, instances);
    let protocol = CircuitProtocol::MiniMac { code: CodeChoice::Rs255_85, preprocessing: OT };
    let spec = CircuitSpec { protocol, circuit: circuit.clone().into(), io, instances };
    let outs = run_session(2, |inner| {
        let me = inner.party();
        let spec = spec.clone();
        let values = values.iter().map(|vs| vec![vs[me].clone()]).collect();
        async move {
            let mut net = connect(inner).await?;
            run_circuit(&mut net, &spec, CircuitInput { values }, &mut seeded_rng(60 + me as u64)).await
        }
    });
    for (p, out) in outs.into_iter().enumerate() {
        let out = out.unwrap_or_else(|e| panic!("party {p}: {e}"));
        assert_eq!(out.outputs.len(), instances);
        for (i, instance) in out.outputs.iter().enumerate() {
            let got: Vec<Vec<bool>> = instance.iter().map(|v| v.clone().expect("revealed to both")).collect();
            assert_eq!(got, circuit.evaluate(&values[i]).unwrap(), "party {p} instance {i}");
        }
        // The OT preprocessing (TinyOT and COPE) dwarfs the online phase and is in the total.
        assert!(out.online_stats.bytes_sent > 0);
        assert!(out.stats.bytes_sent > 10 * out.online_stats.bytes_sent, "{:?}", out.stats);
    }
}

/// Party 1 flips bit 0 of column `(j, 0)` of the first word of its COPE frame for every position
/// `j`: party 0's MAC check of the preprocessing fails, and nobody gets an output.
#[test]
fn a_party_with_inconsistent_cope_columns_is_caught_before_any_output() {
    #[allow(clippy::ptr_arg)] // the type of `run_all`'s edit
    fn corrupt_cope(member: PartyId, _: u64, m: &mut Vec<u8>) {
        let n = CodeChoice::Rs255_85.code().n();
        let header = crate::proto::minimac::msg::HEADER_BYTES;
        // The COPE frame kind (8) and a body of 8n bytes per word, column-major.
        if member == 1 && m.len() > header && m[0] == 8 && (m.len() - header).is_multiple_of(8 * n) {
            let words = (m.len() - header) / (8 * n);
            for c in (0..8 * n).step_by(8) {
                m[header + c * words] ^= 1;
            }
        }
    }
    let ot = AesProtocol::MiniMac { code: CodeChoice::Rs255_85, preprocessing: OT };
    let s = spec(ot, vec![0, 1], 1, vec![0, 1]);
    let outs = run_all(&s, fips_inputs(2, 1), corrupt_cope);
    match &outs[0] {
        Err(JobError::MiniMac(MiniMacError::PrepCheckFailed { check: PrepCheck::Mac })) => {}
        other => panic!("expected the preprocessing MAC check to fail at party 0, got {other:?}"),
    }
    assert!(outs.iter().all(|o| o.as_ref().map_or(true, |o| o.ciphertext.is_none())), "no output");
}

/// FIPS-197 with OT-made material for one block: 6400 MiniMac triples, one TinyOT triple each
/// (the job asks for the batch's one instance); both parties get the ciphertext.
#[test]
fn minimac_ot_aes_matches_fips197() {
    let ot = AesProtocol::MiniMac { code: CodeChoice::Rs255_85, preprocessing: OT };
    let s = spec(ot, vec![0, 1], 1, vec![0, 1]);
    for (p, out) in run_all(&s, fips_inputs(2, 1), honest).into_iter().enumerate() {
        let out = out.unwrap_or_else(|e| panic!("party {p}: {e}"));
        assert_eq!(out.ciphertext.expect("revealed")[..], FIPS_CT, "party {p}");
        eprintln!("party {p}: total {:?}, online {:?}", out.stats, out.online_stats);
    }
}
