//! The two-party OT-based provider over an in-memory network: relations of its material
//! (reconstructed with MACs), circuits evaluated with it against the plaintext, exact cost of a
//! small demand, and attacks on it (the honest party aborts with a typed error, no material).

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use super::circuits::{own, random_circuit, random_inputs};
use super::{aes_circuit, params};
use crate::circuit::aes_bristol::{output_bytes, value_bits};
use crate::circuit::Circuit;
use crate::net::memory::MemoryNetwork;
use crate::net::tamper::Tamper;
use crate::net::{NetStats, Network};
use crate::ot::OtError;
use crate::proto::coral::checks::MAC_OPEN_BYTES;
use crate::proto::coral::circuit::{demand as circuit_demand, evaluate};
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::{field_bytes, Channel, Step, HEADER_BYTES};
use crate::proto::coral::online::Party;
use crate::proto::coral::prep::ot::cope::{choices, column_bytes, Cope, CopeOutput, CHUNK};
use crate::proto::coral::prep::ot::{Cheat, OtProvider, ENCODING_SECURITY, KEY_TEST};
use crate::proto::coral::prep::{CoralMaterial, Demand, Preprocessing};
use crate::proto::coral::share::{RShare, TinyBit};
use crate::rng::seeded_rng;

pub(super) type Edit = Box<dyn FnMut(u64, &mut Vec<u8>)>;

/// Runs the provider at both parties (party 1 possibly deviating by `edit` and `cheat`), then
/// `body` on each party's material. Results in party order.
fn run_ot<T, F, Fut>(
    demand: &Demand,
    edit: Option<Edit>,
    cheat: Option<Cheat>,
    body: F,
) -> Vec<Result<(T, NetStats), CoralError>>
where
    F: Fn(CoralMaterial, Tamper<'static, MemoryNetwork>) -> Fut,
    Fut: std::future::Future<Output = Result<T, CoralError>>,
{
    run_ot_among(2, demand, edit, cheat, body)
}

/// [`run_ot`] among `n` parties (party 1 the one that may deviate).
pub(super) fn run_ot_among<T, F, Fut>(
    n: usize,
    demand: &Demand,
    edit: Option<Edit>,
    cheat: Option<Cheat>,
    body: F,
) -> Vec<Result<(T, NetStats), CoralError>>
where
    F: Fn(CoralMaterial, Tamper<'static, MemoryNetwork>) -> Fut,
    Fut: std::future::Future<Output = Result<T, CoralError>>,
{
    let mut edit = Some(edit.unwrap_or_else(|| Box::new(|_, _| {})));
    let body = &body;
    let futures: Vec<_> = MemoryNetwork::session(n)
        .into_iter()
        .map(|net| {
            let me = net.party();
            let mut net = if me == 1 {
                Tamper::new(net, edit.take().expect("one attacker"))
            } else {
                Tamper::honest(net)
            };
            let mut provider =
                OtProvider::new(params(), seeded_rng(700 + me as u64), b"chorus/test/coral-ot");
            if me == 1 {
                provider.cheat = cheat;
            }
            let demand = demand.clone();
            async move {
                let material = provider.material(&mut net, &demand).await?;
                let stats = net.stats();
                Ok((body(material, net).await?, stats))
            }
        })
        .collect();
    futures::executor::block_on(futures::future::join_all(futures))
}

fn open(shares: impl Iterator<Item = RShare>) -> (u64, u64) {
    shares.fold((0, 0), |(v, m), s| (v ^ s.value, m ^ s.mac))
}

fn check_tiny(m: &[CoralMaterial; 2], bits: [&TinyBit; 2]) -> bool {
    for p in 0..2 {
        let q = 1 - p;
        let expected = bits[q].keys[p] ^ if bits[p].bit { m[q].delta } else { 0 };
        assert_eq!(bits[p].macs[q], expected, "TinyOT MAC of party {p}'s share");
    }
    bits[0].bit ^ bits[1].bit
}

#[test]
fn ot_material_satisfies_every_relation() {
    let demand = Demand { quintuples: 3, encodings: 5, input_masks: vec![4, 3], tbits: 6, ttriples: 5 };
    let results = run_ot(&demand, None, None, |m, _| async move { Ok(m) });
    let m: Vec<CoralMaterial> = results.into_iter().map(|r| r.expect("honest provider").0).collect();
    let m: [CoralMaterial; 2] = m.try_into().expect("two parties");
    let p = params();
    let alpha = m[0].alpha ^ m[1].alpha;
    assert_ne!(m[0].delta, m[1].delta);
    let rel = |(v, mac): (u64, u64), what: &str| {
        assert_eq!(mac, p.mul(alpha, v), "MAC relation of {what}");
        v
    };
    for j in 0..3 {
        let get =
            |f: fn(&super::super::prep::Quintuple) -> RShare| open(m.iter().map(|x| f(&x.quintuples[j])));
        let a = rel(get(|q| q.a), "a");
        let b = rel(get(|q| q.b), "b");
        let c = rel(get(|q| q.c), "c");
        assert_eq!(rel(get(|q| q.tau_a), "τ(a)"), p.tau(a));
        assert_eq!(rel(get(|q| q.tau_b), "τ(b)"), p.tau(b));
        assert_eq!(c, p.phi(p.psi(a) & p.psi(b)));
    }
    for j in 0..5 {
        let r = rel(open(m.iter().map(|x| x.encodings[j].r)), "r");
        assert_eq!(rel(open(m.iter().map(|x| x.encodings[j].tau_r)), "τ(r)"), p.tau(r));
    }
    for owner in 0..2 {
        assert_eq!(m[owner].input_masks[owner].len(), demand.input_masks[owner]);
        for j in 0..demand.input_masks[owner] {
            let r = rel(open(m.iter().map(|x| x.input_masks[owner][j].share)), "input mask");
            assert_eq!(m[owner].input_masks[owner][j].value, Some(r));
            assert_eq!(m[1 - owner].input_masks[owner][j].value, None);
            assert_eq!(m[1 - owner].input_masks[owner][j].share.value, 0);
        }
    }
    assert_eq!((m[0].tbits.len(), m[0].ttriples.len()), (6, 5));
    let tbits: Vec<bool> = (0..6).map(|j| check_tiny(&m, [&m[0].tbits[j], &m[1].tbits[j]])).collect();
    assert!(tbits.iter().any(|&b| b) || tbits.iter().any(|&b| !b));
    for j in 0..5 {
        let [x, y, z] = [0, 1, 2].map(|t| check_tiny(&m, [&m[0].ttriples[j][t], &m[1].ttriples[j][t]]));
        assert_eq!(z, x & y, "tTriple {j}");
    }
}

fn evaluate_with_ot(
    circuit: &Circuit,
    owners: &[usize],
    inputs: &[Vec<Vec<bool>>],
) -> Vec<Vec<Vec<Vec<bool>>>> {
    evaluate_with_ot_among(2, circuit, owners, inputs)
}

/// Every party's outputs of `circuit` on `inputs` (one per instance) among `n` parties with OT
/// material.
pub(super) fn evaluate_with_ot_among(
    n: usize,
    circuit: &Circuit,
    owners: &[usize],
    inputs: &[Vec<Vec<bool>>],
) -> Vec<Vec<Vec<Vec<bool>>>> {
    let batch = inputs.len();
    let demand = circuit_demand(circuit, owners, n, batch).expect("demand");
    run_ot_among(n, &demand, None, None, |material, mut net| async move {
        let me = net.party();
        let mut party = Party::new(params(), me, n, material, seeded_rng(900 + me as u64))?;
        evaluate(&mut party, &mut net, circuit, owners, batch, &own(inputs, owners, me)).await
    })
    .into_iter()
    .map(|r| r.expect("honest run").0)
    .collect()
}

#[test]
fn aes_128_fips_197_with_ot_material() {
    let circuit = aes_circuit();
    let key: Vec<u8> = (0..16).collect();
    let plaintext: Vec<u8> = (0..16).map(|i| (i * 0x11) as u8).collect();
    let fips =
        [0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a];
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let mut inputs = random_inputs(&mut rng, circuit, 3);
    inputs[0] = vec![value_bits(&key), value_bits(&plaintext)];
    for out in evaluate_with_ot(circuit, &[0, 1], &inputs) {
        assert_eq!(output_bytes(&out[0][0]).expect("128 bits"), fips, "FIPS-197 C.1");
        for (i, inst) in inputs.iter().enumerate() {
            assert_eq!(out[i], circuit.evaluate(inst).unwrap(), "instance {i}");
        }
    }
}

#[test]
fn a_random_circuit_with_ot_material_matches_plaintext() {
    let mut rng = ChaCha20Rng::seed_from_u64(123);
    let circuit = random_circuit(&mut rng, 3, 80, 3);
    let owners = [0usize, 1, 1];
    let inputs = random_inputs(&mut rng, &circuit, 17);
    for out in evaluate_with_ot(&circuit, &owners, &inputs) {
        for (i, inst) in inputs.iter().enumerate() {
            assert_eq!(out[i], circuit.evaluate(inst).unwrap(), "instance {i}");
        }
    }
}

#[test]
fn the_ot_provider_refuses_more_than_eight_parties_with_a_typed_error() {
    let results = crate::net::memory::run_session(9, |mut net| async move {
        let mut provider = OtProvider::new(params(), seeded_rng(1), b"nine");
        provider.material(&mut net, &Demand::empty(9)).await.map(|_| ())
    });
    for r in results {
        assert_eq!(
            r,
            Err(CoralError::Limit { what: "parties of the OT-based provider", found: 9, limit: 8 })
        );
    }
}

fn mac_check_bytes() -> usize {
    3 * (HEADER_BYTES + 32) + HEADER_BYTES + MAC_OPEN_BYTES
}

#[test]
fn masks_and_encodings_cost_exactly_the_formula() {
    // No TinyOT material: t base OTs per direction for COPE, one frame of t bit columns, the
    // authentication check (with the key-linearity test pairs), the encoding check and the final
    // MAC check.
    let t = params().embedding().mfe.t();
    assert_eq!(t, 195);
    let (encodings, masks) = (2usize, [3usize, 2]);
    let demand = Demand { encodings, input_masks: masks.to_vec(), ..Demand::default() };
    let results = run_ot(&demand, None, None, |_, _| async { Ok(()) });
    let pairs = encodings + ENCODING_SECURITY;
    let coin = 2 * (HEADER_BYTES + 32);
    for (me, r) in results.into_iter().enumerate() {
        let stats = r.expect("honest").1;
        let elements = 2 * pairs + masks[me] + 2 * KEY_TEST + 1;
        let expected = (64 * t + 32)
            + HEADER_BYTES
            + (t * elements).div_ceil(8)
            + coin
            + HEADER_BYTES
            + field_bytes(1 + 2 * KEY_TEST)
            + mac_check_bytes()
            + coin
            + HEADER_BYTES
            + field_bytes(2 * ENCODING_SECURITY)
            + mac_check_bytes();
        assert_eq!(stats.bytes_sent as usize, expected, "party {me}");
        // base OT (2), columns, coin toss (2), opening, MAC check (4), coin toss (2), opening,
        // MAC check (4).
        assert_eq!(stats.rounds, 2 + 1 + 2 + 1 + 4 + 2 + 1 + 4, "party {me}");
    }
}

// ---- attacks: party 1 deviates, party 0 must abort with a typed error ----

fn attack(demand: &Demand, edit: Option<Edit>, cheat: Option<Cheat>) -> CoralError {
    let results = run_ot(demand, edit, cheat, |m, _| async move { Ok(m) });
    let mut results = results.into_iter();
    let honest = results.next().expect("party 0");
    assert!(results.next().expect("party 1").is_err(), "the attacker got material");
    honest.expect_err("the honest party must abort")
}

/// Edits the attacker's first Coral frame with step `step` (the header pins the tag; `seq`, if
/// given, the sequence number too, so raw OT messages never match).
fn on_frame(step: Step, seq: Option<u32>, mut f: impl FnMut(&mut Vec<u8>) + 'static) -> Option<Edit> {
    let mut done = false;
    Some(Box::new(move |_, msg: &mut Vec<u8>| {
        let header_ok = msg.len() >= HEADER_BYTES
            && msg[0] == step as u8
            && seq.is_none_or(|s| msg[1..5] == s.to_le_bytes());
        if !done && header_ok {
            done = true;
            f(msg);
        }
    }))
}

fn small() -> Demand {
    Demand { encodings: 3, input_masks: vec![2, 2], ..Demand::default() }
}

#[test]
fn attack_inconsistent_cope_columns_fails_authentication() {
    // Party 1 flips the bit of its element 0 in the first 21 of the t columns: its row X_0 is
    // σ(x_0) + E with E ∉ σ(F), so party 0's MAC share is off by ρ(σ(α_0) ⊙ E).
    let elements = 2 * (3 + ENCODING_SECURITY) + 2 + 2 * KEY_TEST + 1;
    let edit = on_frame(Step::CopeColumns, Some(0), move |msg| {
        assert_eq!(msg.len(), HEADER_BYTES + column_bytes(195, elements));
        for h in 0..21 {
            let at = h * elements;
            msg[HEADER_BYTES + at / 8] ^= 1 << (at % 8);
        }
    });
    assert_eq!(attack(&small(), edit, None), CoralError::CheckFailed { check: Check::Authentication });
}

#[test]
fn attack_key_holder_vector_outside_sigma_fails_authentication() {
    // Party 1 runs COPE as key holder with one coordinate of σ(α_1) flipped (F_vCOPEe's corrupt
    // key holder): its MAC shares on party 0's elements are off by an F_2-linear, not F-linear,
    // function of party 0's values, which the key-linearity test (and Π_Auth) catch.
    for flip in [0, 7, 194] {
        let cheat = Cheat::CopeChoice { flip };
        assert_eq!(
            attack(&small(), None, Some(cheat)),
            CoralError::CheckFailed { check: Check::Authentication },
            "flip {flip}"
        );
    }
}

#[test]
fn attack_inconsistent_tau_in_an_encoding_fails_the_encoding_check() {
    let cheat = Cheat::EncodingTau { index: 1, offset: params().phi(1) };
    assert_eq!(attack(&small(), None, Some(cheat)), CoralError::CheckFailed { check: Check::EncodingTau });
}

#[test]
fn attack_wrong_tinyot_mac_fails_the_rconv_mac_check() {
    let demand = Demand { quintuples: 1, ..Demand::empty(2) };
    let cheat = Cheat::TinyMac { index: 3 };
    assert_eq!(attack(&demand, None, Some(cheat)), CoralError::CheckFailed { check: Check::TinyMac });
}

#[test]
fn attack_wrong_preimage_in_quintuple_generation_fails_the_sacrifice() {
    let demand = Demand { quintuples: 2, ..Demand::empty(2) };
    let wrong = params().phi(1).to_le_bytes();
    let edit = on_frame(Step::QuintupleInput, None, move |msg| {
        for (i, b) in wrong.iter().take(6).enumerate() {
            msg[HEADER_BYTES + i] ^= b;
        }
    });
    assert_eq!(attack(&demand, edit, None), CoralError::CheckFailed { check: Check::QuintupleSacrifice });
}

#[test]
fn attack_tampered_authentication_opening_fails_the_mac_check() {
    let edit = on_frame(Step::AuthOpen, None, |msg| msg[HEADER_BYTES] ^= 1);
    assert_eq!(attack(&small(), edit, None), CoralError::CheckFailed { check: Check::Authentication });
}

#[test]
fn attack_tampered_encoding_opening_is_caught() {
    // A wrong d_h either breaks τ(d) = f or, if adjusted, the final MAC check.
    let edit = on_frame(Step::EncodingOpen, None, |msg| msg[HEADER_BYTES] ^= 1);
    let err = attack(&small(), edit, None);
    assert!(matches!(err, CoralError::CheckFailed { check: Check::EncodingTau | Check::Mac }), "{err}");
}

#[test]
fn attack_truncated_column_frame_is_a_malformed_error() {
    let edit = on_frame(Step::CopeColumns, Some(0), |msg| {
        msg.pop();
    });
    assert!(matches!(
        attack(&small(), edit, None),
        CoralError::Malformed { peer: 1, step: "COPE columns", .. }
    ));
}

#[test]
fn attack_replayed_frame_is_an_unexpected_frame_error() {
    // The authentication opening sent with the sequence number of an earlier exchange.
    let edit = on_frame(Step::AuthOpen, None, |msg| msg[1] = msg[1].wrapping_sub(1));
    assert!(matches!(attack(&small(), edit, None), CoralError::UnexpectedFrame { peer: 1, .. }));
}

#[test]
fn attack_on_the_tinyot_engine_is_an_ot_check_failure() {
    // Flip bits spread over the first large raw OT-extension message (SoftSpoken corrections,
    // not a Coral frame): a flip in block i's correction is the selective-failure attack on Δ_i,
    // so flipping in many blocks is caught by the engine's consistency check except with
    // negligible chance.
    let demand = Demand { ttriples: 4, ..Demand::empty(2) };
    let mut done = false;
    let edit: Edit = Box::new(move |_, msg: &mut Vec<u8>| {
        if msg.len() > 20_000 && !done {
            done = true;
            for at in (0..msg.len()).step_by(997) {
                msg[at] ^= 1;
            }
        }
    });
    let err = attack(&demand, Some(edit), None);
    assert!(matches!(err, CoralError::Ot(OtError::CheckFailed { .. })), "{err}");
}

// ---- COPE alone ----

type CopeRun = (u64, Vec<bool>, Vec<(Vec<u64>, CopeOutput)>);

/// Runs COPE setup and one extension per entry of `sizes` (party P inputs `sizes[i][P]` random
/// elements); party 1's key-holder vector has coordinate `flip` flipped if given.
fn run_cope(sizes: &[[usize; 2]], flip: Option<usize>) -> [CopeRun; 2] {
    let sizes = sizes.to_vec();
    let runs = crate::net::memory::run_session(2, |mut net| {
        let sizes = sizes.clone();
        async move {
            let me = net.party();
            let p = params();
            let mut rng = seeded_rng(40 + me as u64);
            let alpha = p.field().random(&mut rng);
            let mut a = choices(&p, alpha);
            if let (1, Some(h)) = (me, flip) {
                a[h] ^= true;
            }
            let mut cope = Cope::setup(&mut net, &p, b"chorus/test/cope", &a, &mut rng).await?;
            let mut channel = Channel::default();
            let mut outs = Vec::new();
            for n in sizes {
                let x: Vec<u64> = (0..n[me]).map(|_| p.field().random(&mut rng)).collect();
                let counts = [n[0], n[1]];
                let out = cope.extend(&mut channel, &mut net, &x, &counts).await?;
                outs.push((x, out));
            }
            Ok::<_, CoralError>((alpha, a, outs))
        }
    });
    let runs: Vec<CopeRun> = runs.into_iter().map(|r| r.expect("honest COPE")).collect();
    runs.try_into().ok().expect("two parties")
}

/// ρ(a ⊙ σ(x)) with the library's σ and ρ.
fn rho_of_product(a: &[bool], x: u64) -> u64 {
    let p = params();
    let mfe = &p.embedding().mfe;
    let mut z = mfe.sigma(x).expect("field element");
    for (h, &bit) in a.iter().enumerate() {
        if !bit {
            z[h / 64] &= !(1 << (h % 64));
        }
    }
    mfe.rho(&z).expect("well formed")
}

#[test]
fn cope_alone_gives_additive_shares_of_alpha_times_x() {
    let sizes = [[1, 1], [63, 5], [64, 64], [129, 200], [200, 0], [CHUNK + 77, 3]];
    let runs = run_cope(&sizes, None);
    let p = params();
    for (i, n) in sizes.iter().enumerate() {
        for input in 0..2 {
            let key = 1 - input;
            let (x, own) = (&runs[input].2[i].0, &runs[input].2[i].1.own[key]);
            let peer = &runs[key].2[i].1.peer[input];
            assert_eq!((own.len(), peer.len()), (n[input], n[input]), "sizes {n:?}");
            for j in 0..n[input] {
                assert_eq!(own[j] ^ peer[j], p.mul(runs[key].0, x[j]), "sizes {n:?}, party {input}, {j}");
            }
        }
    }
}

#[test]
fn cope_with_a_key_vector_outside_sigma_is_f_vcopee_with_errors() {
    // Fig. 16: a corrupt key holder with a ∈ F_2^t gets ρ(a ⊙ σ(x)) − u, not α·x − u.
    let sizes = [[70, 9]];
    let runs = run_cope(&sizes, Some(11));
    let p = params();
    let (x, own) = (&runs[0].2[0].0, &runs[0].2[0].1.own[1]);
    let peer = &runs[1].2[0].1.peer[0];
    let mut differs = false;
    for j in 0..70 {
        assert_eq!(own[j] ^ peer[j], rho_of_product(&runs[1].1, x[j]));
        differs |= own[j] ^ peer[j] != p.mul(runs[1].0, x[j]);
    }
    assert!(differs, "the flipped coordinate changes some product");
    // Party 0 as key holder is honest: its products stay α_0·x.
    let (x, own) = (&runs[1].2[0].0, &runs[1].2[0].1.own[0]);
    for j in 0..9 {
        assert_eq!(own[j] ^ runs[0].2[0].1.peer[1][j], p.mul(runs[0].0, x[j]));
    }
}

#[test]
fn every_single_coordinate_error_is_caught_by_the_key_linearity_test() {
    // With a = σ(α) + e_h the key holder's MAC-share error is D(x) = σ(x)_h·ρ(e_h); on a test
    // pair it is D(2x) − 2·D(x), non-zero for at least half of all x whenever ρ(e_h) ≠ 0.
    let p = params();
    let mfe = &p.embedding().mfe;
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    for h in 0..mfe.t() {
        let rho_h = mfe.rho_map().column(h)[0];
        let d = |x: u64| if (mfe.sigma(x).unwrap()[h / 64] >> (h % 64)) & 1 == 1 { rho_h } else { 0 };
        let caught = (0..32).map(|_| p.field().random(&mut rng)).any(|x| d(p.mul(2, x)) != p.mul(2, d(x)));
        assert!(caught || rho_h == 0, "coordinate {h}");
    }
}

#[test]
fn a_padded_or_truncated_column_frame_is_rejected() {
    use crate::proto::coral::prep::ot::cope::unpack_columns;
    let (t, count) = (195, 77);
    let good = vec![0u8; column_bytes(t, count)];
    assert!(unpack_columns(&good, t, count, 1).is_ok());
    let mut padded = good.clone();
    padded.push(0);
    assert!(matches!(unpack_columns(&padded, t, count, 1), Err(CoralError::Malformed { .. })));
    let mut dirty = good;
    *dirty.last_mut().unwrap() |= 0x80; // t·count = 15015 bits: the last byte has 7 used bits
    assert!(matches!(unpack_columns(&dirty, t, count, 1), Err(CoralError::Malformed { .. })));
}
