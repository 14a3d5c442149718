//! TinyOT tests: the MAC relation of authenticated bits and triples for both parties, `z = x·y`,
//! the bucket sizes, and deviations by either party in every step — each detected with a typed
//! error naming the check, before any triple is returned.

use super::*;
use crate::net::memory::run_session;
use crate::net::tamper::Tamper;
use crate::rng::seeded_rng;

const SESSION: &[u8] = b"tinyot-tests";

/// Messages each party sends in `setup` + one `and_triples` call (both parties alike): the half
/// gates, the pinned-bit openings, the equality commitment and opening, the bucket openings.
const HALF_GATES: u64 = 7;
const S_OPENING: u64 = 8;
const EQ_COMMIT: u64 = 9;
const EQ_OPENING: u64 = 10;
const BUCKET_OPENING: u64 = 11;
/// Party 0's KOS columns message of the triple batch (it is the receiver second).
const P0_COLUMNS: u64 = 4;

type Result2<T> = [Result<(T, Block), OtError>; 2];

/// Runs setup and `op` at both parties; `cheater` (if any) sends through `edit`.
fn session<T: 'static>(
    cheater: Option<usize>,
    edit: impl FnMut(u64, &mut Vec<u8>) + Clone,
    op: impl AsyncOp<T> + Clone,
) -> Result2<T> {
    session_with(Extension::Kos15, cheater, edit, op)
}

/// [`session`] with `extension` under the authenticated bits.
fn session_with<T: 'static>(
    extension: Extension,
    cheater: Option<usize>,
    edit: impl FnMut(u64, &mut Vec<u8>) + Clone,
    op: impl AsyncOp<T> + Clone,
) -> Result2<T> {
    let out = run_session(2, |net| {
        let (edit, op) = (edit.clone(), op.clone());
        async move {
            let mut rng = seeded_rng(40 + net.party() as u64);
            let mut net = if cheater == Some(net.party()) {
                Tamper::new(net, edit)
            } else {
                Tamper::new(net, |_, _| {})
            };
            let mut t = TinyOt::setup_with(&mut net, SESSION, extension, &mut rng).await?;
            let v = op.run(&mut t, &mut net, &mut rng).await?;
            Ok((v, t.delta()))
        }
    });
    let mut it = out.into_iter();
    [it.next().expect("party 0"), it.next().expect("party 1")]
}

/// An operation on a set-up [`TinyOt`].
trait AsyncOp<T> {
    async fn run<N: Network>(
        &self,
        t: &mut TinyOt,
        net: &mut N,
        rng: &mut rand_chacha::ChaCha20Rng,
    ) -> Result<T, OtError>;
}

#[derive(Clone, Copy)]
struct Bits(usize);
impl AsyncOp<Vec<ABit>> for Bits {
    async fn run<N: Network>(
        &self,
        t: &mut TinyOt,
        net: &mut N,
        rng: &mut rand_chacha::ChaCha20Rng,
    ) -> Result<Vec<ABit>, OtError> {
        t.abits(net, self.0, rng).await
    }
}

#[derive(Clone, Copy)]
struct Triples(usize);
impl AsyncOp<Vec<[ABit; 3]>> for Triples {
    async fn run<N: Network>(
        &self,
        t: &mut TinyOt,
        net: &mut N,
        rng: &mut rand_chacha::ChaCha20Rng,
    ) -> Result<Vec<[ABit; 3]>, OtError> {
        t.and_triples(net, self.0, rng).await
    }
}

fn honest(_: u64, _: &mut Vec<u8>) {}

/// Checks the MAC relation of one shared bit and returns its value.
fn open(a: ABit, b: ABit, delta: [Block; 2]) -> bool {
    assert_eq!(a.mac, b.key ^ (delta[1] & mask(a.bit)), "party 0's MAC");
    assert_eq!(b.mac, a.key ^ (delta[0] & mask(b.bit)), "party 1's MAC");
    a.bit ^ b.bit
}

#[test]
fn deltas_have_the_pinned_bit_and_authenticated_bits_carry_valid_macs() {
    let [a, b] = session(None, honest, Bits(1000));
    let ((a, da), (b, db)) = (a.unwrap(), b.unwrap());
    assert_eq!(da >> PINNED_BIT & 1, 1);
    assert_eq!(db >> PINNED_BIT & 1, 0);
    let ones = a.iter().zip(&b).filter(|&(&x, &y)| open(x, y, [da, db])).count();
    assert!((400..600).contains(&ones), "{ones} of 1000 random bits are 1");
}

#[test]
fn and_triples_multiply_and_carry_valid_macs() {
    for count in [1, 100, 1500] {
        let [a, b] = session(None, honest, Triples(count));
        let ((a, da), (b, db)) = (a.unwrap(), b.unwrap());
        assert_eq!(a.len(), count);
        let mut seen = [[0usize; 2]; 2];
        for (ta, tb) in a.iter().zip(&b) {
            let [x, y, z] = [0, 1, 2].map(|i| open(ta[i], tb[i], [da, db]));
            assert_eq!(z, x & y, "count {count}");
            seen[x as usize][y as usize] += 1;
        }
        if count >= 1500 {
            assert!(seen.iter().flatten().all(|&s| s > 250), "x, y uniform: {seen:?}");
        }
    }
}

/// Triples made in passes of `chunk` leaky triples.
#[derive(Clone, Copy)]
struct ChunkedTriples(usize, usize);
impl AsyncOp<Vec<[ABit; 3]>> for ChunkedTriples {
    async fn run<N: Network>(
        &self,
        t: &mut TinyOt,
        net: &mut N,
        rng: &mut rand_chacha::ChaCha20Rng,
    ) -> Result<Vec<[ABit; 3]>, OtError> {
        t.leaky_chunk = self.1;
        t.and_triples(net, self.0, rng).await
    }
}

#[test]
fn triples_made_in_several_passes_multiply_and_are_checked() {
    // 1024 buckets of 6: three passes of 2500 leaky triples and one of 1144.
    let [a, b] =
        session_with(Extension::SoftSpoken { k: SOFTSPOKEN_K }, None, honest, ChunkedTriples(700, 2500));
    let ((a, da), (b, db)) = (a.unwrap(), b.unwrap());
    assert_eq!(a.len(), 700);
    for (ta, tb) in a.iter().zip(&b) {
        let [x, y, z] = [0, 1, 2].map(|i| open(ta[i], tb[i], [da, db]));
        assert_eq!(z, x & y);
    }
    // Party 0 flips one bit of every half gate of its second pass (the second message of 2500
    // blocks): the equality check over all passes catches it (a flip shows wherever the honest
    // party's `a` share is 1).
    let mut seen = 0;
    let edit = move |_: u64, m: &mut Vec<u8>| {
        if m.len() == 2500 * 16 {
            seen += 1;
            if seen == 2 {
                m.iter_mut().step_by(16).for_each(|b| *b ^= 4);
            }
        }
    };
    assert_eq!(
        honest_error(
            session_with(Extension::SoftSpoken { k: SOFTSPOKEN_K }, Some(0), edit, ChunkedTriples(700, 2500)),
            1
        ),
        OtError::CheckFailed { check: "tinyot leaky-and equality" }
    );
}

/// Triples kept on the low 64 bits of their MACs and keys ([`TinyOt::and_triples_low64_as`]).
#[derive(Clone, Copy)]
struct Low64Triples(usize);
impl AsyncOp<Vec<[ABit; 3]>> for Low64Triples {
    async fn run<N: Network>(
        &self,
        t: &mut TinyOt,
        net: &mut N,
        rng: &mut rand_chacha::ChaCha20Rng,
    ) -> Result<Vec<[ABit; 3]>, OtError> {
        t.and_triples_low64_as(net, self.0, rng, |t| t).await
    }
}

#[test]
fn low64_triples_multiply_under_the_low_half_of_delta_and_their_openings_are_checked() {
    let ext = Extension::SoftSpoken { k: SOFTSPOKEN_K };
    let [a, b] = session_with(ext, None, honest, Low64Triples(1500));
    let ((a, da), (b, db)) = (a.unwrap(), b.unwrap());
    let low = |d: Block| d & u64::MAX as Block;
    assert_eq!(a.len(), 1500);
    for (ta, tb) in a.iter().zip(&b) {
        assert!(ta.iter().chain(tb).all(|t| (t.mac | t.key) >> 64 == 0), "bits 64..128 are zero");
        let [x, y, z] = [0, 1, 2].map(|i| open(ta[i], tb[i], [low(da), low(db)]));
        assert_eq!(z, x & y);
    }
    let check = OtError::CheckFailed { check: "tinyot bucket opening MACs" };
    for cheater in [0, 1] {
        let share = at(BUCKET_OPENING, |m: &mut Vec<u8>| m[1] ^= 2);
        assert_eq!(honest_error(session(Some(cheater), share, Low64Triples(10)), 1 - cheater), check);
    }
}

#[test]
fn and_triples_from_softspoken_multiply_and_carry_valid_macs() {
    for (k, count) in [(SOFTSPOKEN_K, 1), (SOFTSPOKEN_K, 1500), (8, 700)] {
        let [a, b] = session_with(Extension::SoftSpoken { k }, None, honest, Triples(count));
        let ((a, da), (b, db)) = (a.unwrap(), b.unwrap());
        assert_eq!(
            (da >> PINNED_BIT & 1, db >> PINNED_BIT & 1),
            (1, 0),
            "the pinned bit survives the SoftSpoken setup"
        );
        assert_eq!(a.len(), count);
        for (ta, tb) in a.iter().zip(&b) {
            let [x, y, z] = [0, 1, 2].map(|i| open(ta[i], tb[i], [da, db]));
            assert_eq!(z, x & y, "k {k}, count {count}");
        }
    }
    let [a, b] = session_with(Extension::SoftSpoken { k: 2 }, None, honest, Bits(300));
    let ((a, da), (b, db)) = (a.unwrap(), b.unwrap());
    a.iter().zip(&b).for_each(|(&x, &y)| {
        open(x, y, [da, db]);
    });
}

#[test]
fn softspoken_abits_are_checked_and_an_unsupported_k_is_refused() {
    // Party 0's corrections (its second extension message, as for KOS) flipped in every block.
    let edit = at(P0_COLUMNS + 1, |m: &mut Vec<u8>| {
        let per_block = m.len() / 16;
        (0..16).for_each(|i| m[i * per_block] ^= 1);
    });
    assert_eq!(
        honest_error(session_with(Extension::SoftSpoken { k: 8 }, Some(0), edit, Triples(10)), 1),
        OtError::CheckFailed { check: "softspoken correlation check" }
    );
    let [a, b] = session_with(Extension::SoftSpoken { k: 5 }, None, honest, Bits(1));
    assert!(matches!(a, Err(OtError::InvalidRequest(_))) && matches!(b, Err(OtError::InvalidRequest(_))));
}

/// Bytes party 0 and party 1 send for setup and `count` AND triples with `extension`.
fn triple_bytes(extension: Extension, count: usize) -> [u64; 2] {
    let out = run_session(2, |mut net| async move {
        let mut rng = seeded_rng(70 + net.party() as u64);
        let mut t = TinyOt::setup_with(&mut net, SESSION, extension, &mut rng).await.unwrap();
        let before = net.stats().bytes_sent;
        t.and_triples(&mut net, count, &mut rng).await.unwrap();
        net.stats().bytes_sent - before
    });
    [out[0], out[1]]
}

#[test]
fn softspoken_abits_cut_the_triple_bytes() {
    // The abits' columns shrink from 16 to 16/k bytes per OT and direction; the rest (half
    // gates, openings) is unchanged. Printed for the record (`--nocapture`).
    let count = 4096;
    let kos = triple_bytes(Extension::Kos15, count);
    let soft = triple_bytes(Extension::SoftSpoken { k: SOFTSPOKEN_K }, count);
    let per = |b: [u64; 2]| (b[0] + b[1]) as f64 / count as f64;
    println!(
        "bytes per triple (both parties, {count} triples): KOS15 {:.1}, SoftSpoken k = {SOFTSPOKEN_K} {:.1}",
        per(kos),
        per(soft)
    );
    let m = 3 * count.max(MIN_BUCKETS) * bucket_size(count);
    let saved = Extension::Kos15.column_bytes(m) - Extension::SoftSpoken { k: SOFTSPOKEN_K }.column_bytes(m);
    assert_eq!(kos[0] - soft[0], saved as u64);
    assert_eq!(kos[1] - soft[1], saved as u64);
}

#[test]
fn bucket_sizes_meet_forty_bits() {
    assert_eq!(bucket_size(1), 6); // served from 1024 buckets: 4 · 10 = 40 is not > 40
    assert_eq!(bucket_size(6400), 5);
    assert_eq!(bucket_size(1 << 20), 4);
    assert_eq!(bucket_size(256 * 6400), 3);
    for n in [1, 1000, 5000, 1 << 16, 1 << 22] {
        let b = bucket_size(n) as f64;
        assert!((b - 1.0) * (n.max(MIN_BUCKETS) as f64).log2() > STAT_SECURITY as f64);
    }
}

fn at(target: u64, edit: impl Fn(&mut Vec<u8>) + Clone) -> impl FnMut(u64, &mut Vec<u8>) + Clone {
    move |i, m| {
        if i == target {
            edit(m)
        }
    }
}

fn honest_error<T: core::fmt::Debug>(r: Result2<T>, honest: usize) -> OtError {
    let [a, b] = r;
    [a, b].into_iter().nth(honest).expect("two parties").expect_err("the honest party must abort")
}

const EQUALITY: OtError = OtError::CheckFailed { check: "tinyot leaky-and equality" };

#[test]
fn wrong_half_gates_are_caught_by_the_equality_check() {
    // Flip one bit of every half gate: the honest evaluator's S changes wherever its a share is
    // 1, so its L differs from the cheater's.
    for cheater in [0, 1] {
        let edit = at(HALF_GATES, |m: &mut Vec<u8>| m.iter_mut().step_by(16).for_each(|b| *b ^= 4));
        assert_eq!(
            honest_error(session(Some(cheater), edit, Triples(10)), 1 - cheater),
            EQUALITY,
            "cheater {cheater}"
        );
    }
}

/// One flipped half gate (of `width` bytes) changes the honest party's S exactly when its a share
/// of that leaky triple is 1 (probability 1/2): then the equality check fails. Over several
/// positions both outcomes occur, and when the check passes the triples are still correct.
fn one_wrong_half_gate_is_caught_or_harmless(
    op: impl AsyncOp<Vec<[ABit; 3]>> + Clone + 'static,
    width: usize,
    open: fn(ABit, ABit, [Block; 2]) -> bool,
) {
    let (mut caught, mut passed) = (0, 0);
    for k in 0..12usize {
        let edit = at(HALF_GATES, move |m: &mut Vec<u8>| m[width * (97 * k) + 3] ^= 1);
        match session(Some(0), edit, op.clone()) {
            [_, Err(e)] => {
                assert_eq!(e, EQUALITY);
                caught += 1;
            }
            [Ok((a, da)), Ok((b, db))] => {
                for (ta, tb) in a.iter().zip(&b) {
                    let [x, y, z] = [0, 1, 2].map(|i| open(ta[i], tb[i], [da, db]));
                    assert_eq!(z, x & y);
                }
                passed += 1;
            }
            other => panic!("unexpected outcome {:?}", other.map(|r| r.map(|_| ()))),
        }
    }
    assert!(caught > 0 && passed > 0, "caught {caught}, passed {passed}");
}

#[test]
fn a_wrong_half_gate_in_one_triple_is_caught_or_harmless() {
    one_wrong_half_gate_is_caught_or_harmless(Triples(10), 16, open);
}

#[test]
fn a_wrong_opening_of_a_times_b_xor_r_is_caught() {
    for cheater in [0, 1] {
        let edit = at(S_OPENING, |m: &mut Vec<u8>| m[5] ^= 0x10);
        assert_eq!(honest_error(session(Some(cheater), edit, Triples(10)), 1 - cheater), EQUALITY);
    }
}

#[test]
fn an_equality_opening_that_does_not_match_its_commitment_is_caught() {
    for byte in [0, 40] {
        let edit = at(EQ_OPENING, move |m: &mut Vec<u8>| m[byte] ^= 1);
        assert_eq!(
            honest_error(session(Some(1), edit, Triples(10)), 0),
            OtError::CheckFailed { check: "tinyot equality commitment" },
            "byte {byte}"
        );
    }
}

#[test]
fn a_wrong_share_or_mac_digest_in_the_bucket_opening_is_caught() {
    let check = OtError::CheckFailed { check: "tinyot bucket opening MACs" };
    let share = at(BUCKET_OPENING, |m: &mut Vec<u8>| m[0] ^= 1);
    assert_eq!(honest_error(session(Some(0), share, Triples(10)), 1), check);
    let digest = at(BUCKET_OPENING, |m: &mut Vec<u8>| {
        let n = m.len();
        m[n - 1] ^= 1
    });
    assert_eq!(honest_error(session(Some(1), digest, Triples(10)), 0), check);
}

#[test]
fn inconsistent_choice_bits_in_the_authenticated_bits_are_caught() {
    // Party 0 (the OT receiver of its own shares) sends columns that disagree in one bit
    // position across half of the columns.
    let edit = at(P0_COLUMNS, |m: &mut Vec<u8>| {
        let col = m.len() / 128;
        for c in 0..64 {
            m[c * col] ^= 1;
        }
    });
    assert_eq!(
        honest_error(session(Some(0), edit, Triples(10)), 1),
        OtError::CheckFailed { check: "kos15 correlation check" }
    );
}

#[test]
fn malformed_triple_messages_give_typed_errors_naming_the_step() {
    let cut = |m: &mut Vec<u8>| {
        m.pop();
    };
    let step = |e: OtError| match e {
        OtError::Malformed { step, .. } => step,
        other => panic!("expected a malformed-message error, got {other:?}"),
    };
    for (target, name) in [
        (HALF_GATES, "tinyot leaky-and half gates"),
        (S_OPENING, "tinyot leaky-and opening"),
        (EQ_COMMIT, "tinyot equality commitment"),
        (EQ_OPENING, "tinyot equality opening"),
        (BUCKET_OPENING, "tinyot bucket opening"),
    ] {
        assert_eq!(step(honest_error(session(Some(0), at(target, cut), Triples(10)), 1)), name);
    }
}

#[test]
fn tinyot_needs_exactly_two_parties() {
    let out = run_session(3, |mut net| async move {
        TinyOt::setup(&mut net, SESSION, &mut seeded_rng(1)).await.map(|_| ())
    });
    assert!(out.iter().all(|r| matches!(r, Err(OtError::InvalidRequest(_)))));
}

/// `[x]` at 64 bits: checks the MAC relation on the low 64 bits and returns the value.
fn open64(a: ABit, b: ABit, delta: [Block; 2]) -> bool {
    let low = |x: Block| x as u64 as Block;
    assert_eq!(low(a.mac), low(b.key ^ (delta[1] & mask(a.bit))), "party 0's MAC");
    assert_eq!(low(b.mac), low(a.key ^ (delta[0] & mask(b.bit))), "party 1's MAC");
    assert_eq!((a.mac | a.key | b.mac | b.key) >> 64, 0, "bits 64..128 are zero");
    a.bit ^ b.bit
}

#[test]
fn triples_at_64_bits_multiply_and_send_half_gates_of_8_bytes() {
    // (Message numbers are KOS15's; SoftSpoken's setup sends another number of messages.)
    for (extension, count) in
        [(Extension::Kos15, 1), (Extension::Kos15, 1500), (Extension::SoftSpoken { k: SOFTSPOKEN_K }, 1500)]
    {
        let sizes = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let record = {
            let sizes = sizes.clone();
            move |i: u64, m: &mut Vec<u8>| {
                if i == HALF_GATES {
                    sizes.lock().unwrap().push(m.len());
                }
            }
        };
        let [a, b] = session_with(extension, Some(0), record, Low64Triples(count));
        let ((a, da), (b, db)) = (a.unwrap(), b.unwrap());
        assert_eq!(a.len(), count);
        for (ta, tb) in a.iter().zip(&b) {
            let [x, y, z] = [0, 1, 2].map(|i| open64(ta[i], tb[i], [da, db]));
            assert_eq!(z, x & y, "count {count}");
        }
        // One leaky AND per leaky triple, 8 bytes each: B·N triples from N ≥ 1024 buckets.
        let n = count.max(MIN_BUCKETS);
        if extension == Extension::Kos15 {
            assert_eq!(*sizes.lock().unwrap(), [8 * n * bucket_size(n)]);
        }
    }
}

#[test]
fn wrong_half_gates_at_64_bits_are_caught() {
    // Every half gate with a flipped low bit, or with a flipped pinned bit (which also flips the
    // evaluator's opening of d): the equality check fails at the honest party.
    for (byte, bit) in [(0, 4), (7, 0x80)] {
        for cheater in [0, 1] {
            let edit = at(HALF_GATES, move |m: &mut Vec<u8>| {
                m.iter_mut().skip(byte).step_by(8).for_each(|b| *b ^= bit)
            });
            assert_eq!(
                honest_error(session(Some(cheater), edit, Low64Triples(10)), 1 - cheater),
                EQUALITY,
                "cheater {cheater}, byte {byte}"
            );
        }
    }
    // One flipped half gate: caught when the honest evaluator's a share is 1, else harmless.
    one_wrong_half_gate_is_caught_or_harmless(Low64Triples(10), 8, open64);
    // A half-gate message of the full width (or one byte short) is malformed at 64 bits.
    for edit in [|m: &mut Vec<u8>| m.extend(vec![0; m.len()]), |m: &mut Vec<u8>| m.truncate(m.len() - 1)] {
        match honest_error(session(Some(0), at(HALF_GATES, edit), Low64Triples(10)), 1) {
            OtError::Malformed { step, .. } => assert_eq!(step, "tinyot leaky-and half gates"),
            other => panic!("expected a malformed-message error, got {other:?}"),
        }
    }
}
