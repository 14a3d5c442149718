//! Malicious-security tests (k = 64 and k = 32): honest runs (FIPS-197 AES-128, random circuits
//! against plaintext, batches of several sizes, exact rounds and sizes against Table 1) and
//! cheating runs where a corrupt party tampers with a message or its material and the honest party
//! must abort with a typed error before any output is revealed.

use crate::circuit::aes_bristol::{input_bits, output_bytes};
pub(crate) use crate::circuit::testing::{random_circuit, random_inputs};
use crate::circuit::{Circuit, CircuitBuilder, Wire};
use crate::net::memory::{run_session, MemoryNetwork};
use crate::net::{NetError, NetStats, Network, PartyId};
use crate::proto::tinytable::circuit::malicious::evaluate_malicious;
use crate::proto::tinytable::circuit::online::Outputs;
use crate::proto::tinytable::*;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use std::sync::OnceLock;

use crate::aes::fips197::{CIPHERTEXT as FIPS_CT, KEY as FIPS_KEY, PLAINTEXT as FIPS_PT};

pub(crate) fn shared_aes128() -> &'static Circuit {
    static CIRCUIT: OnceLock<Circuit> = OnceLock::new();
    CIRCUIT.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../circuits/aes_128.txt");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        Circuit::parse_bristol(&text).expect("aes_128.txt parses")
    })
}

pub(crate) fn dealer(seed: u64) -> TrustedDealer<ChaCha20Rng> {
    TrustedDealer::new(ChaCha20Rng::seed_from_u64(seed))
}

/// The input values of `party` among all input values of an instance.
pub(crate) fn own_values(io: &IoSpec, values: &[Vec<bool>], party: PartyId) -> Vec<Vec<bool>> {
    values.iter().zip(&io.input_owners).filter(|(_, &o)| o == party).map(|(v, _)| v.clone()).collect()
}

/// How a corrupt party deviates.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Attack {
    /// Honest.
    None,
    /// XOR `mask` into byte `byte` of its `message`-th sent message.
    Flip { message: usize, byte: usize, mask: u8 },
    /// Drop the last byte of its `message`-th sent message.
    Truncate { message: usize },
}

/// A [`Network`] whose owner tampers with the messages it sends.
pub(crate) struct Tamper<N> {
    pub(crate) inner: N,
    pub(crate) attack: Attack,
    pub(crate) sent: usize,
}

impl<N: Network> Network for Tamper<N> {
    fn party(&self) -> PartyId {
        self.inner.party()
    }
    fn parties(&self) -> usize {
        self.inner.parties()
    }
    fn send(&mut self, to: PartyId, mut msg: Vec<u8>) -> Result<(), NetError> {
        match self.attack {
            Attack::Flip { message, byte, mask } if message == self.sent => {
                let at = byte.min(msg.len().saturating_sub(1));
                if let Some(b) = msg.get_mut(at) {
                    *b ^= mask;
                }
            }
            Attack::Truncate { message } if message == self.sent => {
                msg.pop();
            }
            _ => {}
        }
        self.sent += 1;
        self.inner.send(to, msg)
    }
    async fn recv(&mut self, from: PartyId) -> Result<Vec<u8>, NetError> {
        self.inner.recv(from).await
    }
    fn stats(&self) -> NetStats {
        self.inner.stats()
    }
}

type RunResult = (Result<Vec<Outputs>, TinyTableError>, NetStats);

/// Runs the malicious protocol on `preps`, party `cheater` applying `attack` on the network.
fn run_malicious<M: MacWord>(
    circuit: &Circuit,
    preps: [MaliciousPrep<M>; 2],
    all_inputs: &[Vec<Vec<bool>>],
    cheater: PartyId,
    attack: Attack,
) -> Vec<RunResult> {
    let io = preps[0].io().clone();
    let preps = preps.map(|p| std::cell::RefCell::new(Some(p)));
    run_session(2, |net: MemoryNetwork| {
        let party = net.party();
        let prep = preps[party].take().expect("taken once");
        let attack = if party == cheater { attack } else { Attack::None };
        let mine: Vec<Vec<Vec<bool>>> = all_inputs.iter().map(|v| own_values(&io, v, party)).collect();
        async move {
            let mut net = Tamper { inner: net, attack, sent: 0 };
            let out = evaluate_malicious(&mut net, circuit, &prep, &mine).await;
            (out, net.stats())
        }
    })
}

fn aes_inputs() -> Vec<Vec<Vec<bool>>> {
    let [k, p] = input_bits(&FIPS_KEY, &FIPS_PT);
    vec![vec![k, p]]
}

fn aes_io() -> IoSpec {
    IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] }
}

fn fips197_malicious<M: MacWord>(k: usize) {
    let circuit = shared_aes128();
    let seeded = dealer(3).malicious_batch_seeded::<M>(circuit, &aes_io(), 1).expect("dealer");
    let explicit = seeded.clone().map(|p| p.with_explicit_keys());
    let ands = circuit.gate_counts().and;
    for (prep, stored) in seeded.iter().zip(&explicit) {
        assert!(prep.has_seeded_keys() && !stored.has_seeded_keys());
        assert_eq!(prep.prover_bits_per_instance(), 4 * ands * (1 + k), "prover part, k = {k}");
        assert_eq!(prep.verifier_bits_per_instance(), 128, "one seed for the batch of one");
        assert_eq!(stored.verifier_bits_per_instance(), 4 * ands * 2 * k, "stored strings, k = {k}");
        assert_eq!(stored.table_bits_per_instance(), 4 * ands * (1 + 3 * k), "Table 1 formula, k = {k}");
    }
    let mut results = run_malicious(circuit, seeded, &aes_inputs(), 0, Attack::None);
    results.extend(run_malicious(circuit, explicit, &aes_inputs(), 0, Attack::None));
    for (run, (out, stats)) in results.into_iter().enumerate() {
        let party = run % 2;
        let out = out.expect("honest run");
        assert_eq!(output_bytes(out[0][0].as_ref().expect("revealed")), Some(FIPS_CT), "party {party}");
        assert_eq!(stats.rounds, 1 + circuit.and_depth() as u64 + 2, "input, layers, check, output");
        let layers: usize = circuit.and_layers().map(|a| a.len().div_ceil(8)).sum();
        let expected = 16 + layers + k / 8 + (16 + k / 8);
        assert_eq!(stats.bytes_sent, expected as u64, "party {party}");
    }
}

#[test]
fn fips197_malicious_k64() {
    fips197_malicious::<u64>(64);
}

#[test]
fn fips197_malicious_k32() {
    fips197_malicious::<u32>(32);
}

/// The dealer's own strings are the peer's seeded verification strings of the bits held, and
/// the strings of the other bits differ.
#[test]
fn dealer_strings_follow_the_lookup_mac_scheme() {
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let circuit = random_circuit(&mut rng, 2, 40, 2);
    let n = 70;
    let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both, Reveal::To(0)] };
    let preps = dealer(9).malicious_batch_seeded::<u32>(&circuit, &io, n).expect("dealer");
    let l = crate::proto::tinytable::circuit::slice::lane_words(n);
    for prover in 0..2 {
        let (p, v) = (&preps[prover], &preps[1 - prover]);
        assert!(v.has_seeded_keys());
        for (j, &mac) in p.own_macs.iter().enumerate() {
            let (g, i, e) = (j / (4 * n), j / 4 % n, j % 4);
            let b = p.tables[(4 * g + e) * l + i / 64] >> (i % 64) & 1;
            assert_eq!(mac, v.peer_keys.key(j, b == 1), "prover {prover} entry {j}");
            assert_ne!(mac, v.peer_keys.key(j, b == 0));
        }
    }
}

/// Table 1 of the paper, binary column, by formula: its circuit has 5440 AND gates.
#[test]
fn table1_sizes_by_formula() {
    let kib = |bits: usize| bits as f64 / 8.0 / 1024.0;
    let per_and = |k: usize| 4 * (1 + 3 * k);
    assert_eq!(format!("{:.1}", kib(5440 * 4)), "2.7", "Passive");
    assert_eq!(format!("{:.1}", kib(5440 * per_and(64))), "512.7", "Lookup-64");
    assert_eq!(format!("{:.1}", kib(5440 * per_and(32))), "257.7", "Lookup-32");
    let circuit = shared_aes128();
    let ands = circuit.gate_counts().and;
    assert_eq!(ands, 6400);
    let passive = dealer(1).sliced_batch(circuit, &aes_io(), 1).expect("dealer");
    assert_eq!(passive[0].table_bits_per_instance(), 4 * ands);
    assert_eq!(kib(passive[0].table_bits_per_instance()), 3.125, "our circuit: 3.1 KiB passive");
    let m64 = dealer(1).malicious_batch_seeded::<u64>(circuit, &aes_io(), 1).expect("dealer");
    let m32 = dealer(1).malicious_batch_seeded::<u32>(circuit, &aes_io(), 1).expect("dealer");
    let stored64 =
        dealer(1).malicious_batch::<u64>(circuit, &aes_io(), 1).expect("dealer")[1].table_bits_per_instance();
    let stored32 =
        dealer(1).malicious_batch::<u32>(circuit, &aes_io(), 1).expect("dealer")[1].table_bits_per_instance();
    assert_eq!((stored64, format!("{:.1}", kib(stored64))), (ands * per_and(64), "603.1".into()));
    assert_eq!((stored32, format!("{:.1}", kib(stored32))), (ands * per_and(32), "303.1".into()));
    // The dealer's seeded verification strings: the prover part plus a 16-byte seed per batch.
    assert_eq!(m64[1].table_bits_per_instance(), 4 * ands * 65 + 128);
    assert_eq!(format!("{:.1}", kib(m64[1].prover_bits_per_instance())), "203.1");
    assert_eq!(format!("{:.1}", kib(m32[1].prover_bits_per_instance())), "103.1");
    let batch = dealer(2).malicious_batch_seeded::<u64>(circuit, &aes_io(), 64).expect("dealer");
    assert_eq!(batch[0].verifier_bits_per_instance(), 2, "128 bits shared by 64 instances");
}

/// Dealer material with stored verification strings if `explicit`, else seeded ones: the online
/// phase must accept and check both.
fn material<M: MacWord>(
    seed: u64,
    circuit: &Circuit,
    io: &IoSpec,
    n: usize,
    explicit: bool,
) -> [MaliciousPrep<M>; 2] {
    let mut d = dealer(seed);
    if explicit {
        d.malicious_batch::<M>(circuit, io, n).expect("dealer")
    } else {
        d.malicious_batch_seeded::<M>(circuit, io, n).expect("dealer")
    }
}

fn random_circuits_malicious<M: MacWord>(seed: u64, explicit: bool) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for (trial, &n) in [1usize, 3, 64, 70, 130].iter().enumerate() {
        let circuit = random_circuit(&mut rng, 3, 60, 3);
        let owners = (0..3).map(|_| (rng.next_u32() % 2) as usize).collect();
        let reveal = (0..3)
            .map(|_| match rng.next_u32() % 3 {
                0 => Reveal::Both,
                r => Reveal::To(r as usize - 1),
            })
            .collect();
        let io = IoSpec { input_owners: owners, reveal };
        let inputs: Vec<Vec<Vec<bool>>> = random_inputs(&mut rng, &circuit, n);
        let preps = material::<M>(seed + trial as u64, &circuit, &io, n, explicit);
        let results = run_malicious(&circuit, preps, &inputs, 0, Attack::None);
        for (party, (out, _)) in results.into_iter().enumerate() {
            let out = out.expect("honest run");
            for (i, values) in inputs.iter().enumerate() {
                let plain = circuit.evaluate(values).expect("plaintext");
                for (v, bits) in plain.iter().enumerate() {
                    let want = io.reveal[v].includes(party).then(|| bits.clone());
                    assert_eq!(out[i][v], want, "trial {trial} party {party} instance {i} value {v}");
                }
            }
        }
    }
}

#[test]
fn random_circuits_malicious_k64() {
    random_circuits_malicious::<u64>(10, false);
    random_circuits_malicious::<u64>(30, true);
}

#[test]
fn random_circuits_malicious_k32() {
    random_circuits_malicious::<u32>(20, false);
    random_circuits_malicious::<u32>(40, true);
}

/// A small circuit with two AND layers for the cheating tests (8 + 8 input bits, 4 output bits).
fn small_circuit() -> Circuit {
    let mut b = CircuitBuilder::new();
    let x = b.input(8);
    let y = b.input(8);
    let first: Vec<Wire> = (0..8).map(|i| b.and(x[i], y[i])).collect();
    let second: Vec<Wire> = (0..4).map(|i| b.and(first[i], first[i + 4])).collect();
    let out: Vec<Wire> = (0..4).map(|i| b.xor(second[i], x[i])).collect();
    b.finish(&[out]).expect("well formed")
}

const BATCH: usize = 5;

fn small_inputs() -> Vec<Vec<Vec<bool>>> {
    let mut rng = ChaCha20Rng::seed_from_u64(77);
    (0..BATCH).map(|_| (0..2).map(|_| (0..8).map(|_| rng.next_u32() & 1 == 1).collect()).collect()).collect()
}

/// The honest party (the one that is not `cheater`) aborts with `want` and never sends its output
/// shares (it stopped after the input, the two AND layers and at most the check message); the
/// cheater gets no output either unless it reached the output step.
pub(crate) fn assert_abort(
    results: &[RunResult],
    cheater: PartyId,
    want: &TinyTableError,
    sent_at_most: u64,
) {
    let honest = 1 - cheater;
    let (out, stats) = &results[honest];
    assert_eq!(out.as_ref().err(), Some(want), "honest party {honest}");
    assert!(stats.messages_sent <= sent_at_most, "honest party sent {} messages", stats.messages_sent);
}

fn cheating_suite<M: MacWord>(seed: u64, explicit: bool) {
    let circuit = small_circuit();
    let io = aes_io();
    let inputs = small_inputs();
    let fresh = |s: u64| material::<M>(seed + s, &circuit, &io, BATCH, explicit);
    let table_fail = |p: PartyId| TinyTableError::MacCheckFailed { party: p, check: MacCheck::TableOpenings };
    let output_fail = |p: PartyId| TinyTableError::MacCheckFailed { party: p, check: MacCheck::OutputMasks };
    // Messages: 0 input, 1 AND layer 1, 2 AND layer 2, 3 MAC check, 4 output opening.
    for cheater in 0..2 {
        let honest = 1 - cheater;
        let flips =
            [(1, 0, 0x01), (1, 4, 0x80), (2, 0, 0x04), (1, 2, 0x03), (3, 0, 0x01), (3, M::BYTES - 1, 0x80)];
        for (case, &(message, byte, mask)) in flips.iter().enumerate() {
            let attack = Attack::Flip { message, byte, mask };
            let results = run_malicious(&circuit, fresh(case as u64), &inputs, cheater, attack);
            assert_abort(&results, cheater, &table_fail(honest), 4);
            assert!(results[cheater].0.is_err(), "cheater gets no output: {attack:?}");
        }
        let results = run_malicious(
            &circuit,
            fresh(10),
            &inputs,
            cheater,
            Attack::Flip { message: 4, byte: 0, mask: 1 },
        );
        assert_abort(&results, cheater, &output_fail(honest), 5);
        let last = (BATCH * 4).div_ceil(8);
        let results = run_malicious(
            &circuit,
            fresh(11),
            &inputs,
            cheater,
            Attack::Flip { message: 4, byte: last, mask: 0x10 },
        );
        assert_abort(&results, cheater, &output_fail(honest), 5);
        let results = run_malicious(&circuit, fresh(12), &inputs, cheater, Attack::Truncate { message: 1 });
        assert!(
            matches!(
                results[honest].0,
                Err(TinyTableError::MalformedMessage { step: Step::AndLayer(1), .. })
            ),
            "truncated layer message"
        );

        // Forged material: the cheater flips every entry of its first AND table (so the opened one
        // is wrong whatever the indices) but keeps its strings.
        let mut preps = fresh(13);
        let l = crate::proto::tinytable::circuit::slice::lane_words(BATCH);
        for w in &mut preps[cheater].tables[..4 * l] {
            *w = !*w;
        }
        let results = run_malicious(&circuit, preps, &inputs, cheater, Attack::None);
        assert_abort(&results, cheater, &table_fail(honest), 4);

        // Forged material: right bits, but the strings of another gate.
        let mut preps = fresh(14);
        let entries = 4 * BATCH;
        let (first, second) = preps[cheater].own_macs.split_at_mut(entries);
        first.swap_with_slice(&mut second[..entries]);
        let results = run_malicious(&circuit, preps, &inputs, cheater, Attack::None);
        assert_abort(&results, cheater, &table_fail(honest), 4);

        // Forged material: a flipped share of an output mask (shifts the honest party's output).
        let mut preps = fresh(15);
        preps[cheater].out_shares[0] ^= 1;
        let results = run_malicious(&circuit, preps, &inputs, cheater, Attack::None);
        assert_abort(&results, cheater, &output_fail(honest), 5);

        // Forged material: flipped table bits of a whole layer-2 gate with guessed strings.
        let mut preps = fresh(16);
        let g = 8;
        for w in &mut preps[cheater].tables[4 * g * l..4 * (g + 1) * l] {
            *w = !*w;
        }
        let mut guess = ChaCha20Rng::seed_from_u64(99);
        for m in &mut preps[cheater].own_macs[4 * g * BATCH..4 * (g + 1) * BATCH] {
            *m = M::random(&mut guess);
        }
        let results = run_malicious(&circuit, preps, &inputs, cheater, Attack::None);
        assert_abort(&results, cheater, &table_fail(honest), 4);
    }
}

#[test]
fn cheating_is_detected_before_output_k64() {
    cheating_suite::<u64>(100, false);
    cheating_suite::<u64>(300, true);
}

#[test]
fn cheating_is_detected_before_output_k32() {
    cheating_suite::<u32>(200, false);
    cheating_suite::<u32>(400, true);
}

/// A corrupt party that sends a masked input bit other than the one it uses itself (a wrong input
/// mask bit on the wire): the two parties look up different table entries of every AND gate the
/// wire feeds, so the honest party's verification strings do not match and it aborts. (A
/// *consistent* change of input is no attack: the functionality lets a corrupt party choose its
/// input.)
#[test]
fn inconsistent_masked_input_is_detected() {
    let circuit = small_circuit();
    let io = aes_io();
    let inputs = small_inputs();
    for (cheater, mac) in [(0, 64), (1, 32)] {
        let attack = Attack::Flip { message: 0, byte: 0, mask: 1 };
        let honest = 1 - cheater;
        let want = TinyTableError::MacCheckFailed { party: honest, check: MacCheck::TableOpenings };
        if mac == 64 {
            let preps = dealer(5).malicious_batch::<u64>(&circuit, &io, BATCH).expect("dealer");
            assert_abort(&run_malicious(&circuit, preps, &inputs, cheater, attack), cheater, &want, 4);
        } else {
            let preps = dealer(6).malicious_batch::<u32>(&circuit, &io, BATCH).expect("dealer");
            assert_abort(&run_malicious(&circuit, preps, &inputs, cheater, attack), cheater, &want, 4);
        }
    }
}
