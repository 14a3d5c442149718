//! The OT-based provider ([`super::super::prep::ot`]): honest material satisfies every relation of
//! the format and evaluates circuits (and AES, release builds) like the dealer's; each deviation of
//! a party inside the provider or on its frames is caught with a typed error and no material.

use super::super::aes::{aes_request, encrypt_batch, KEY_OWNER};
use super::super::msg::HEADER_BYTES;
use super::super::prep::ot::{opening_bytes, Cheat, CODEWORD_REPS, CONSISTENCY_REPS, FRAME_WORDS};
use super::super::prep::{PartyPrep, PrepRequest, A, A_BITS, B, B_BITS, C, TRIPLE_WORDS};
use super::super::{
    evaluate_revealed, CodeChoice, MiniMacError, MiniMacPreprocessing, Options, OtPreprocessing, PrepCheck,
    Step, COMBINATIONS,
};
use super::{own_inputs, round_robin_owners};
use crate::circuit::Circuit;
use crate::field::Gf256;
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::tamper::Tamper;
use crate::net::{NetStats, Network, PartyId};
use crate::ot::TinyOt;
use crate::proto::tinytable::circuit::tests_malicious::{random_circuit, random_inputs};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

const CODE: CodeChoice = CodeChoice::Rs255_85;
const CORRUPT: PartyId = 1;

pub(super) type Edit = Box<dyn FnMut(u64, &mut Vec<u8>)>;

/// Runs the provider at both parties (party [`CORRUPT`] with `cheat` and its sent messages edited
/// by `edit`); returns each party's material and statistics.
fn provide(
    request: &PrepRequest,
    cheat: Option<Cheat>,
    edit: Option<Edit>,
) -> Vec<(Result<PartyPrep, MiniMacError>, NetStats)> {
    provide_among(request, vec![Cheater { party: CORRUPT, cheat, edit, towards: None }])
}

/// A deviating party of a test: its cheat inside the provider, and an edit of the messages it
/// sends (to `towards` only, if set).
pub(super) struct Cheater {
    pub party: PartyId,
    pub cheat: Option<Cheat>,
    pub edit: Option<Edit>,
    pub towards: Option<PartyId>,
}

/// Runs the provider at each of the request's parties, the `cheaters` deviating; returns each
/// party's material and statistics.
pub(super) fn provide_among(
    request: &PrepRequest,
    cheaters: Vec<Cheater>,
) -> Vec<(Result<PartyPrep, MiniMacError>, NetStats)> {
    let cheaters = std::cell::RefCell::new(cheaters.into_iter().map(Some).collect::<Vec<_>>());
    run_session(request.parties, |net: MemoryNetwork| {
        let party = net.party();
        let mine = cheaters
            .borrow_mut()
            .iter_mut()
            .find(|c| c.as_ref().is_some_and(|c| c.party == party))
            .and_then(Option::take);
        let (cheat, edit, towards) = mine.map_or((None, None, None), |c| (c.cheat, c.edit, c.towards));
        let mut net = match (edit, towards) {
            (Some(mut e), Some(peer)) => Tamper::towards(net, peer, move |i, m| e(i, m)),
            (Some(mut e), None) => Tamper::new(net, move |i, m| e(i, m)),
            (None, _) => Tamper::honest(net),
        };
        let mut provider = OtPreprocessing::new(ChaCha20Rng::seed_from_u64(40 + party as u64), b"test");
        provider.cheat = cheat;
        async move {
            let result = provider.material(&mut net, request).await;
            (result, net.stats())
        }
    })
}

/// The XOR of every party's share (the reconstruction in characteristic 2).
fn add<'a>(shares: impl IntoIterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut shares = shares.into_iter();
    let mut sum = shares.next().expect("a share").to_vec();
    for s in shares {
        sum.iter_mut().zip(s).for_each(|(x, y)| *x ^= y);
    }
    sum
}

/// Reconstructs one `2n`-byte shared word from every party's share and checks its MAC under
/// `alpha`; returns the value.
fn open<'a>(shares: impl IntoIterator<Item = &'a [u8]>, alpha: &[u8]) -> Vec<Gf256> {
    let n = alpha.len();
    let word = add(shares);
    let (value, mac) = word.split_at(n);
    let mut expected = vec![Gf256(0); n];
    Gf256::mul_slices(&mut expected, Gf256::from_bytes(alpha), Gf256::from_bytes(value));
    assert_eq!(Gf256::as_bytes(&expected), mac, "MAC = α ∗ value");
    Gf256::from_bytes(value).to_vec()
}

/// Checks every relation of the material format on every party's material.
pub(super) fn check_material(request: &PrepRequest, preps: &[PartyPrep]) {
    let code = request.code.code();
    let (n, k) = (code.n(), code.k());
    let parties = preps.len();
    let alpha = add(preps.iter().map(|p| &p.alpha[..]));
    for t in 0..request.and_gates {
        let word = |w: usize| open(preps.iter().map(|p| &p.triple(t)[w * 2 * n..(w + 1) * 2 * n]), &alpha);
        let (a, b, c) = (word(A), word(B), word(C));
        for v in [&a, &b, &c] {
            code.star.check(v).expect("a, b, c in C*");
        }
        for j in 0..k {
            assert_eq!(c[j].0, a[j].0 & b[j].0, "c = a ∧ b, triple {t}, byte {j}");
            // Positions 8j + i past the request's instances carry public zero data.
            let unused = (0..8).filter(|i| 8 * j + i >= request.instances).fold(0u8, |m, i| m | 1 << i);
            for v in [&a, &b, &c] {
                assert_eq!(v[j].0 & unused, 0, "zero data at unused positions, triple {t}, byte {j}");
            }
        }
        for (base, whole) in [(A_BITS, &a), (B_BITS, &b)] {
            let mut sum = vec![0u8; k];
            for i in 0..8 {
                let plane = word(base + i);
                code.c.check(&plane).expect("planes in C");
                for j in 0..k {
                    assert_eq!(plane[j].0, whole[j].0 & (1 << i), "plane {i} of triple {t}, byte {j}");
                    sum[j] ^= plane[j].0;
                }
            }
            assert_eq!(sum, Gf256::as_bytes(&whole[..k]));
        }
    }
    let mut next = vec![0usize; parties];
    for (w, &owner) in request.input_owners.iter().enumerate() {
        let r = open(preps.iter().map(|p| &p.input_masks[w * 2 * n..][..2 * n]), &alpha);
        code.c.check(&r).expect("input mask in C");
        assert_eq!(Gf256::as_bytes(&r[..k]), &preps[owner].own_masks[next[owner] * k..][..k]);
        next[owner] += 1;
    }
    for (p, prep) in preps.iter().enumerate() {
        assert_eq!(next[p] * k, prep.own_masks.len(), "party {p}'s input masks");
    }
    let mut next = vec![0usize; parties];
    for (o, &p) in request.output_recipients.iter().flatten().enumerate() {
        let s = open(preps.iter().map(|p| &p.output_masks[o * 2 * n..][..2 * n]), &alpha);
        code.star.check(&s).expect("output mask in C*");
        assert_eq!(Gf256::as_bytes(&s[..k]), &preps[p].own_output_masks[next[p] * k..][..k]);
        next[p] += 1;
    }
    for (p, prep) in preps.iter().enumerate() {
        assert_eq!(next[p] * k, prep.own_output_masks.len(), "party {p}'s output masks");
    }
    for p in preps {
        assert_eq!(p.triples.len(), request.and_gates * TRIPLE_WORDS * 2 * n);
        assert_eq!(p.instances(), request.instances);
    }
}

fn small_circuit() -> Circuit {
    random_circuit(&mut ChaCha20Rng::seed_from_u64(5), 3, 24, 3)
}

fn small_request(circuit: &Circuit) -> PrepRequest {
    let owners = round_robin_owners(circuit, 2);
    PrepRequest::for_circuit(CODE, 2, circuit, &owners)
        .unwrap()
        .with_recipients(circuit, &[Some(0), None, Some(1)])
        .unwrap()
}

fn honest_pair(request: &PrepRequest) -> [PartyPrep; 2] {
    let mut out = provide(request, None, None).into_iter().map(|(r, _)| r.expect("honest material"));
    [out.next().unwrap(), out.next().unwrap()]
}

#[test]
fn ot_material_satisfies_every_relation() {
    let circuit = small_circuit();
    let request = small_request(&circuit);
    assert!(request.and_gates > 0);
    let preps = honest_pair(&request);
    check_material(&request, &preps);
}

#[test]
fn ot_material_for_a_full_batch_has_random_data_at_every_position() {
    let circuit = small_circuit();
    let request = small_request(&circuit);
    assert_eq!(request.instances, CODE.code().instances());
    let preps = honest_pair(&request);
    check_material(&request, &preps);
    // The last data byte of a and b (positions 8(k - 1) .. 8k) is used: not all zero.
    let (n, k) = (CODE.code().n(), CODE.code().k());
    let last: Vec<u8> = (0..request.and_gates)
        .flat_map(|t| [A, B].map(|w| preps.iter().fold(0, |acc, p| acc ^ p.triple(t)[w * 2 * n + k - 1])))
        .collect();
    assert!(last.iter().any(|&b| b != 0));
}

/// Material for 3 instances: TinyOT triples for positions 0..3 only, zero data elsewhere; every
/// relation holds, it evaluates the circuit like plaintext for 3 instances and refuses 4.
#[test]
fn ot_material_for_three_instances_has_zero_data_elsewhere_and_evaluates() {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    let circuit = random_circuit(&mut rng, 3, 60, 3);
    let owners = round_robin_owners(&circuit, 2);
    let request = PrepRequest::for_circuit(CODE, 2, &circuit, &owners)
        .unwrap()
        .with_recipients(&circuit, &[Some(1), None, Some(0)])
        .unwrap()
        .with_instances(3)
        .unwrap();
    check_material(&request, &honest_pair(&request));
    let inputs = random_inputs(&mut rng, &circuit, 3);
    evaluate_with_ot(&circuit, &request, &inputs, &owners);
    let four = random_inputs(&mut rng, &circuit, 4);
    let circuit = &circuit;
    let results = run_session(2, |mut net: MemoryNetwork| {
        let party = net.party();
        let own = own_inputs(&four, &owners, party);
        let request = request.clone();
        async move {
            let mut provider = OtPreprocessing::new(ChaCha20Rng::seed_from_u64(90 + party as u64), b"four");
            let prep = provider.material(&mut net, &request).await?;
            let mut rng = ChaCha20Rng::seed_from_u64(95 + party as u64);
            evaluate_revealed(&mut net, circuit, &prep, &own, Options::default(), &mut rng).await
        }
    });
    for r in results {
        assert!(
            matches!(r, Err(MiniMacError::NotEnoughMaterial { what: "instances", needed: 4, available: 3 })),
            "{r:?}"
        );
    }
    assert!(request.clone().with_instances(0).is_err());
    assert!(request.clone().with_instances(CODE.code().instances() + 1).is_err());
}

#[test]
fn ot_material_for_the_other_code_and_no_private_outputs() {
    let circuit = random_circuit(&mut ChaCha20Rng::seed_from_u64(6), 2, 12, 1);
    let owners = round_robin_owners(&circuit, 2);
    let request = PrepRequest::for_circuit(CodeChoice::Rs256_120, 2, &circuit, &owners).unwrap();
    check_material(&request, &honest_pair(&request));
}

/// Provider and online phase in one session: the circuit's outputs equal plaintext evaluation.
pub(super) fn evaluate_with_ot(
    circuit: &Circuit,
    request: &PrepRequest,
    inputs: &[Vec<Vec<bool>>],
    owners: &[PartyId],
) {
    let recipients: Vec<Option<PartyId>> = request.output_recipients.clone();
    let results = run_session(request.parties, |mut net: MemoryNetwork| {
        let party = net.party();
        let own = own_inputs(inputs, owners, party);
        async move {
            let mut provider = OtPreprocessing::new(ChaCha20Rng::seed_from_u64(70 + party as u64), b"eval");
            let prep = provider.material(&mut net, request).await?;
            let mut rng = ChaCha20Rng::seed_from_u64(80 + party as u64);
            evaluate_revealed(&mut net, circuit, &prep, &own, Options::default(), &mut rng).await
        }
    });
    for (party, result) in results.into_iter().enumerate() {
        let outputs = result.unwrap_or_else(|e| panic!("party {party}: {e}"));
        assert_eq!(outputs.len(), inputs.len());
        for (i, instance) in outputs.iter().enumerate() {
            let expected = circuit.evaluate(&inputs[i]).unwrap();
            let mut wire = 0;
            for (v, got) in instance.iter().enumerate() {
                let to = recipients[wire];
                wire += expected[v].len();
                let want = to.is_none_or(|p| p == party).then(|| expected[v].clone());
                assert_eq!(got, &want, "party {party}, instance {i}, value {v}");
            }
        }
    }
}

#[test]
fn a_random_circuit_with_ot_material_matches_plaintext() {
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let circuit = random_circuit(&mut rng, 3, 60, 3);
    let owners = round_robin_owners(&circuit, 2);
    let request = PrepRequest::for_circuit(CODE, 2, &circuit, &owners)
        .unwrap()
        .with_recipients(&circuit, &[Some(1), None, Some(0)])
        .unwrap();
    let inputs = random_inputs(&mut rng, &circuit, 200);
    evaluate_with_ot(&circuit, &request, &inputs, &owners);
}

/// One AES batch with OT material for a full batch: 6400 MiniMac triples, about 4.4 M TinyOT
/// triples with the (255, 85) code, 17 chunks — ignored by default, run with `--ignored` in a
/// release build (about 34 s and 1.39 GB per party on two shared vCPUs).
#[test]
#[ignore = "minutes: 6400 MiniMac triples from TinyOT for a full batch"]
fn fips197_aes_with_ot_material() {
    fips197_aes_with_ot(aes_request(CodeChoice::Rs255_85, 2).unwrap(), 4);
}

/// AES with OT material for 4 instances: 6400 MiniMac triples, 25 600 TinyOT triples (a one-block
/// job runs in CI: `jobs::tests::minimac_ot::minimac_ot_aes_matches_fips197`).
#[test]
#[ignore = "AES material from TinyOT (one block runs in the jobs tests)"]
fn fips197_aes_with_ot_material_for_four_blocks() {
    fips197_aes_with_ot(aes_request(CodeChoice::Rs255_85, 2).unwrap().with_instances(4).unwrap(), 4);
}

fn fips197_aes_with_ot(request: PrepRequest, blocks: usize) {
    let key = [0u8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    let pt = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff];
    let ct = [0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a];
    let results = run_session(2, |mut net: MemoryNetwork| {
        let request = request.clone();
        async move {
            let party = net.party();
            let start = std::time::Instant::now();
            let mut provider = OtPreprocessing::new(ChaCha20Rng::seed_from_u64(party as u64), b"aes");
            let prep = provider.material(&mut net, &request).await?;
            eprintln!("party {party}: AES material in {:?}, {:?}", start.elapsed(), net.stats());
            let own = if party == KEY_OWNER { vec![key; blocks] } else { vec![pt; blocks] };
            let mut rng = ChaCha20Rng::seed_from_u64(9 + party as u64);
            encrypt_batch(&mut net, &prep, &own, blocks, Options::default(), &mut rng).await
        }
    });
    for (party, r) in results.into_iter().enumerate() {
        let cts = r.unwrap_or_else(|e| panic!("party {party}: {e}"));
        assert!(cts.iter().all(|c| *c == ct), "party {party}");
    }
}

/// The TinyOT engine's traffic alone for the calls one single-chunk provider run makes: setup,
/// `8n` abits (COPE seeds), one triple per instance and MiniMac triple, `40·8k` abits
/// (consistency masks).
fn tinyot_alone(request: &PrepRequest) -> Vec<NetStats> {
    let code = request.code.code();
    let (n, k) = (code.n(), code.k());
    run_session(2, |mut net: MemoryNetwork| async move {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let mut engine = TinyOt::setup(&mut net, b"alone", &mut rng).await.unwrap();
        engine.abits(&mut net, 8 * n, &mut rng).await.unwrap();
        if request.and_gates > 0 {
            engine.and_triples(&mut net, request.and_gates * request.instances, &mut rng).await.unwrap();
        }
        engine.abits(&mut net, CONSISTENCY_REPS * 8 * k, &mut rng).await.unwrap();
        net.stats()
    })
}

/// One provider run for the small test circuit costs exactly TinyOT plus the formula of the
/// module docs: coin commitments, `8n` bytes of COPE columns per contributed word (frames of
/// [`FRAME_WORDS`] words), the coin seed, the openings and the batched MAC check. Time and bytes
/// are printed (`--nocapture`).
#[test]
fn one_provider_run_costs_exactly_tinyot_plus_the_formula() {
    let circuit = small_circuit();
    for request in [small_request(&circuit), small_request(&circuit).with_instances(3).unwrap()] {
        provider_run_costs(&request);
    }
}

fn provider_run_costs(request: &PrepRequest) {
    let start = std::time::Instant::now();
    let results = provide(request, None, None);
    let elapsed = start.elapsed();
    let tiny = tinyot_alone(request);
    let code = CODE.code();
    let n = code.n();
    // Words each party contributes: 20 per triple, its own input masks, one per private output,
    // the 50 check masks.
    let words = |p: PartyId| {
        20 * request.and_gates
            + request.input_owners.iter().filter(|&&o| o == p).count()
            + request.output_recipients.iter().flatten().count()
            + 2 * CODEWORD_REPS
            + CONSISTENCY_REPS
    };
    let frames = |p: PartyId| words(p).div_ceil(FRAME_WORDS);
    let h = HEADER_BYTES;
    // Commitments; seed; openings; MAC check (seed, commitment, σ values and nonce).
    let fixed = (h + 64)
        + (h + 32)
        + (h + opening_bytes(n, code.k()))
        + (h + 32)
        + (h + 32)
        + (h + COMBINATIONS * n + 32);
    for (p, (result, stats)) in results.iter().enumerate() {
        result.as_ref().expect("honest");
        let cope = words(p) * 8 * n + frames(p) * h;
        eprintln!(
            "party {p}: {} AND gates, {} instances, {} input and {} output masks: {elapsed:?} (both \
             parties), {stats:?}; TinyOT {} bytes, COPE {cope}, checks {fixed}",
            request.and_gates,
            request.instances,
            request.input_owners.len(),
            request.output_recipients.iter().flatten().count(),
            tiny[p].bytes_sent
        );
        assert_eq!(stats.bytes_sent, tiny[p].bytes_sent + (cope + fixed) as u64, "party {p}");
        assert_eq!(stats.messages_sent, tiny[p].messages_sent + frames(p) as u64 + 6, "party {p}");
    }
}

fn attack(cheat: Option<Cheat>, edit: Option<Edit>) -> MiniMacError {
    attack_on(&small_request(&small_circuit()), cheat, edit)
}

fn attack_on(request: &PrepRequest, cheat: Option<Cheat>, edit: Option<Edit>) -> MiniMacError {
    let results = provide(request, cheat, edit);
    match &results[1 - CORRUPT].0 {
        Err(e) => e.clone(),
        Ok(_) => panic!("the honest party accepted material with {cheat:?}"),
    }
}

fn failed(check: PrepCheck) -> MiniMacError {
    MiniMacError::PrepCheckFailed { check }
}

#[test]
fn attack_non_codeword_plane_fails_the_codeword_check() {
    assert_eq!(attack(Some(Cheat::NonCodewordPlane), None), failed(PrepCheck::CodewordC));
}

#[test]
fn attack_nonzero_data_in_an_r_word_fails_the_zero_data_check() {
    assert_eq!(attack(Some(Cheat::RData), None), failed(PrepCheck::ZeroDataCStar));
}

#[test]
fn attack_plane_data_off_its_tinyot_bits_fails_the_consistency_check() {
    assert_eq!(attack(Some(Cheat::PlaneData), None), failed(PrepCheck::TinyOtConsistency));
}

/// Material for 3 instances: a nonzero data bit at an unused position of a plane word is an
/// inconsistency with the public 0 there.
#[test]
fn attack_nonzero_data_at_an_unused_position_fails_the_consistency_check() {
    let request = small_request(&small_circuit()).with_instances(3).unwrap();
    assert_eq!(attack_on(&request, Some(Cheat::UnusedPlaneData), None), failed(PrepCheck::TinyOtConsistency));
}

#[test]
fn attack_c_word_off_its_tinyot_z_bits_fails_the_consistency_check() {
    assert_eq!(attack(Some(Cheat::CData), None), failed(PrepCheck::TinyOtConsistency));
}

#[test]
fn attack_inconsistent_cope_columns_fails_the_mac_check() {
    assert_eq!(attack(Some(Cheat::CopeColumn), None), failed(PrepCheck::Mac));
}

#[test]
fn attack_tampered_opened_value_or_mac_share_fails_the_mac_check() {
    assert_eq!(attack(Some(Cheat::OpenedValue), None), failed(PrepCheck::Mac));
    assert_eq!(attack(Some(Cheat::OpenedMac), None), failed(PrepCheck::Mac));
}

#[test]
fn attack_replayed_cope_frame_is_out_of_order() {
    match attack(Some(Cheat::ReplayCopeFrame), None) {
        MiniMacError::FrameOutOfOrder { from: CORRUPT, step: Step::PrepCope, expected, got } => {
            assert_eq!(expected, got + 1)
        }
        other => panic!("expected a replayed frame, got {other:?}"),
    }
}

#[test]
fn attack_truncated_cope_frame_is_malformed() {
    let n = CODE.code().n();
    let edit: Edit = Box::new(move |_, m: &mut Vec<u8>| {
        // The COPE frame: its kind byte and a body of 8n bytes per word.
        if m.len() > HEADER_BYTES && m[0] == 8 && (m.len() - HEADER_BYTES).is_multiple_of(8 * n) {
            m.truncate(m.len() - 1);
        }
    });
    match attack(None, Some(edit)) {
        MiniMacError::Malformed { from: CORRUPT, step: Step::PrepCope, .. } => {}
        other => panic!("expected a malformed COPE frame, got {other:?}"),
    }
}
