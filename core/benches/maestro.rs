//! MAESTRO semi-honest AES-128 over the in-memory network, all three parties in one thread, one
//! group per S-box variant (GF(2^8)-circuit, GF(2^4)-circuit, LUT-16, (2,3) LUT-256, (3,3)
//! LUT-256): 1000 blocks per
//! iteration, reported as blocks/s (criterion "elements").
//!
//! Setup (PRSS keys, dealt shares of plaintext and key, the LUT variants' one-hot preprocessing
//! for all S-boxes, and for `encrypt` the MPC key schedule) happens outside the timed region; the
//! preprocessing is timed on its own in the `*_preprocessing` groups.
//!
//! The malicious groups also run as `maestro_malicious_cpu_*`, measured in CPU time of the
//! benchmark thread instead of wall time (for a shared machine).
//!
//! `maestro_verify_passes_1024_lut16_sboxes` times the malicious verification's local passes
//! alone, the kernel `scripts/bench-wasm.mjs` times in WASM.
//!
//! Run: `CARGO_TARGET_DIR=$PWD/target cargo bench -p chorus-core --bench maestro`

#[cfg(not(target_arch = "wasm32"))]
mod bench {
    use chorus_core::aes::RoundKeys;
    use chorus_core::field::Gf256;
    use chorus_core::net::memory::{run_session, MemoryNetwork};
    use chorus_core::net::Network;
    use chorus_core::proto::maestro::aes::{encrypt_blocks, expand_key};
    use chorus_core::proto::maestro::malicious::{
        MaliciousAdditiveLut256Sbox, MaliciousGf16CircuitSbox, MaliciousGf256CircuitSbox, MaliciousLut16Sbox,
        MaliciousSboxLayer,
    };
    use chorus_core::proto::maestro::sbox::tensor_lookup::TensorTable;
    use chorus_core::proto::maestro::{
        AdditiveLut256Sbox, Gf16CircuitSbox, Gf256CircuitSbox, Lut16Sbox, Lut256Sbox, Party, RssShare,
        SboxLayer,
    };
    use criterion::{criterion_group, BatchSize, Criterion, Throughput};
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    const BLOCKS: usize = 1000;

    /// AES-128 S-boxes for the key schedule and BLOCKS blocks.
    const SBOXES: usize = 40 + 160 * BLOCKS;

    /// A variant as the benchmark builds it.
    trait Variant: SboxLayer<Share: From<RssShare>> + Sized {
        fn build(party: Party) -> Self;
        /// Input-independent preprocessing for `sboxes` S-boxes (none by default).
        async fn prepare(&mut self, _net: &mut MemoryNetwork, _sboxes: usize) {}
    }

    impl Variant for Gf256CircuitSbox {
        fn build(party: Party) -> Self {
            Gf256CircuitSbox::new(party)
        }
    }

    impl Variant for Gf16CircuitSbox {
        fn build(party: Party) -> Self {
            Gf16CircuitSbox::new(party)
        }
    }

    impl Variant for Lut16Sbox {
        fn build(party: Party) -> Self {
            Lut16Sbox::new(party)
        }
        async fn prepare(&mut self, net: &mut MemoryNetwork, sboxes: usize) {
            self.preprocess(net, sboxes).await.expect("preprocessing");
        }
    }

    impl Variant for Lut256Sbox {
        fn build(party: Party) -> Self {
            Lut256Sbox::new(party)
        }
        async fn prepare(&mut self, net: &mut MemoryNetwork, sboxes: usize) {
            self.preprocess(net, sboxes).await.expect("preprocessing");
        }
    }

    impl Variant for AdditiveLut256Sbox {
        fn build(party: Party) -> Self {
            AdditiveLut256Sbox::new(party)
        }
        async fn prepare(&mut self, net: &mut MemoryNetwork, sboxes: usize) {
            self.preprocess(net, sboxes).await.expect("preprocessing");
        }
    }

    struct PartyState<S: SboxLayer> {
        net: MemoryNetwork,
        sbox: S,
        key: Vec<S::Share>,
        blocks: Vec<[S::Share; 16]>,
    }

    /// Three parties after PRSS setup (and `prepare` for `prepared` S-boxes), holding dealt
    /// shares of a random key and BLOCKS blocks.
    fn parties<S: Variant>(seed: u64, prepared: usize) -> Vec<PartyState<S>> {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut deal = |n: usize| -> Vec<[RssShare; 3]> {
            (0..n)
                .map(|_| {
                    let v = Gf256((rng.next_u32() & 0xff) as u8);
                    RssShare::deal(v, &mut rng)
                })
                .collect()
        };
        let key = deal(16);
        let data = deal(16 * BLOCKS);
        run_session(3, |mut net| {
            let p = net.party();
            let key: Vec<S::Share> = key.iter().map(|d| d[p].into()).collect();
            let blocks: Vec<[S::Share; 16]> =
                data.chunks_exact(16).map(|c| core::array::from_fn(|j| c[j][p].into())).collect();
            async move {
                let mut rng = ChaCha20Rng::seed_from_u64(seed * 3 + p as u64);
                let party = Party::setup(&mut net, &mut rng).await.expect("setup");
                let mut sbox = S::build(party);
                sbox.prepare(&mut net, prepared).await;
                PartyState { net, sbox, key, blocks }
            }
        })
    }

    fn with_round_keys<S: Variant>(states: Vec<PartyState<S>>) -> Vec<(PartyState<S>, RoundKeys<S::Share>)> {
        let futures = states.into_iter().map(|mut s| async move {
            let rk = expand_key(&mut s.sbox, &mut s.net, &s.key).await.expect("key schedule");
            (s, rk)
        });
        futures::executor::block_on(futures::future::join_all(futures))
    }

    fn aes128<S: Variant>(c: &mut Criterion, name: &str) {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        group.throughput(Throughput::Elements(BLOCKS as u64));
        group.bench_function("encrypt_1000_blocks", |b| {
            b.iter_batched(
                || with_round_keys(parties::<S>(1, SBOXES)),
                |states| {
                    let futures = states.into_iter().map(|(mut s, rk)| async move {
                        encrypt_blocks(&mut s.sbox, &mut s.net, &rk, &mut s.blocks).await.expect("encrypt");
                        s.blocks
                    });
                    futures::executor::block_on(futures::future::join_all(futures))
                },
                BatchSize::PerIteration,
            )
        });
        group.bench_function("key_schedule_and_encrypt_1000_blocks", |b| {
            b.iter_batched(
                || parties::<S>(2, SBOXES),
                |states| {
                    let futures = states.into_iter().map(|mut s| async move {
                        let rk = expand_key(&mut s.sbox, &mut s.net, &s.key).await.expect("key schedule");
                        encrypt_blocks(&mut s.sbox, &mut s.net, &rk, &mut s.blocks).await.expect("encrypt");
                        s.blocks
                    });
                    futures::executor::block_on(futures::future::join_all(futures))
                },
                BatchSize::PerIteration,
            )
        });
        group.finish();
    }

    fn gf256_circuit(c: &mut Criterion) {
        aes128::<Gf256CircuitSbox>(c, "maestro_gf256_circuit_aes128");
    }

    fn gf16_circuit(c: &mut Criterion) {
        aes128::<Gf16CircuitSbox>(c, "maestro_gf16_circuit_aes128");
    }

    fn lut16(c: &mut Criterion) {
        aes128::<Lut16Sbox>(c, "maestro_lut16_aes128");
        preprocessing::<Lut16Sbox>(c, "maestro_lut16_preprocessing");
    }

    fn lut256(c: &mut Criterion) {
        aes128::<Lut256Sbox>(c, "maestro_lut256_aes128");
        preprocessing::<Lut256Sbox>(c, "maestro_lut256_preprocessing");
    }

    fn lut256_33(c: &mut Criterion) {
        aes128::<AdditiveLut256Sbox>(c, "maestro_lut256_33_aes128");
        preprocessing::<AdditiveLut256Sbox>(c, "maestro_lut256_33_preprocessing");
        tensor_lookups(c);
    }

    /// The local lookup of the (3,3) LUT-256 alone: one party's 160 · BLOCKS lookups.
    fn tensor_lookups(c: &mut Criterion) {
        let table = TensorTable::new(&chorus_core::aes::sbox::sbox_table());
        let mut rng = ChaCha20Rng::seed_from_u64(4);
        let inputs: Vec<(u8, [u64; 4])> = (0..160 * BLOCKS)
            .map(|_| (rng.next_u32() as u8, core::array::from_fn(|_| rng.next_u64())))
            .collect();
        let mut group = c.benchmark_group("maestro_lut256_33_lookup");
        group.throughput(Throughput::Elements(BLOCKS as u64));
        group.bench_function("one_party_1000_blocks", |b| {
            b.iter(|| inputs.iter().fold(0u8, |acc, (x, f)| acc ^ table.lookup(*x, f).0))
        });
        group.finish();
    }

    /// One-hot preprocessing for the key schedule and 1000 blocks, timed alone.
    fn preprocessing<S: Variant>(c: &mut Criterion, name: &str) {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        group.throughput(Throughput::Elements(BLOCKS as u64));
        group.bench_function("preprocess_1000_blocks", |b| {
            b.iter_batched(
                || parties::<S>(3, 0),
                |states| {
                    let futures = states.into_iter().map(|mut s| async move {
                        s.sbox.prepare(&mut s.net, SBOXES).await;
                        s.sbox
                    });
                    futures::executor::block_on(futures::future::join_all(futures))
                },
                BatchSize::PerIteration,
            )
        });
        group.finish();
    }

    impl Variant for MaliciousGf256CircuitSbox {
        fn build(party: Party) -> Self {
            MaliciousGf256CircuitSbox::new(party)
        }
    }

    impl Variant for MaliciousGf16CircuitSbox {
        fn build(party: Party) -> Self {
            MaliciousGf16CircuitSbox::new(party)
        }
    }

    impl Variant for MaliciousLut16Sbox {
        fn build(party: Party) -> Self {
            MaliciousLut16Sbox::new(party)
        }
        async fn prepare(&mut self, net: &mut MemoryNetwork, sboxes: usize) {
            self.preprocess(net, sboxes).await.expect("preprocessing");
        }
    }

    impl Variant for MaliciousAdditiveLut256Sbox {
        fn build(party: Party) -> Self {
            MaliciousAdditiveLut256Sbox::new(party)
        }
        async fn prepare(&mut self, net: &mut MemoryNetwork, sboxes: usize) {
            self.preprocess(net, sboxes).await.expect("preprocessing");
        }
    }

    /// Malicious AES-128 on 1000 blocks: `total` times preprocessing (if any), key schedule,
    /// encryption, verification and the verified opening of the ciphertext; `verify` times only
    /// the verification of all recorded multiplications (Protocol 2 + hash comparison).
    fn malicious<S: Variant + MaliciousSboxLayer, M: criterion::measurement::Measurement>(
        c: &mut Criterion<M>,
        name: &str,
    ) {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        group.throughput(Throughput::Elements(BLOCKS as u64));
        group.bench_function("total_1000_blocks", |b| {
            b.iter_batched(
                || parties::<S>(4, 0),
                |states| {
                    let futures = states.into_iter().map(|mut s| async move {
                        s.sbox.prepare(&mut s.net, SBOXES).await;
                        let rk = expand_key(&mut s.sbox, &mut s.net, &s.key).await.expect("key schedule");
                        encrypt_blocks(&mut s.sbox, &mut s.net, &rk, &mut s.blocks).await.expect("encrypt");
                        s.sbox
                            .session()
                            .open(&mut s.net, s.blocks.as_flattened())
                            .await
                            .expect("verified open")
                    });
                    futures::executor::block_on(futures::future::join_all(futures))
                },
                BatchSize::PerIteration,
            )
        });
        group.bench_function("verify_1000_blocks", |b| {
            b.iter_batched(
                || {
                    let states = with_round_keys(parties::<S>(5, SBOXES));
                    let futures = states.into_iter().map(|(mut s, rk)| async move {
                        encrypt_blocks(&mut s.sbox, &mut s.net, &rk, &mut s.blocks).await.expect("encrypt");
                        s
                    });
                    futures::executor::block_on(futures::future::join_all(futures))
                },
                |states| {
                    let futures = states.into_iter().map(|mut s| async move {
                        s.sbox.session().verify(&mut s.net).await.expect("verify");
                        s.sbox
                    });
                    futures::executor::block_on(futures::future::join_all(futures))
                },
                BatchSize::PerIteration,
            )
        });
        group.finish();
    }

    fn malicious_gf256_circuit(c: &mut Criterion) {
        malicious::<MaliciousGf256CircuitSbox, _>(c, "maestro_malicious_gf256_circuit_aes128");
    }

    fn malicious_gf16_circuit(c: &mut Criterion) {
        malicious::<MaliciousGf16CircuitSbox, _>(c, "maestro_malicious_gf16_circuit_aes128");
    }

    fn malicious_lut16(c: &mut Criterion) {
        malicious::<MaliciousLut16Sbox, _>(c, "maestro_malicious_lut16_aes128");
    }

    fn malicious_lut256_33(c: &mut Criterion) {
        malicious::<MaliciousAdditiveLut256Sbox, _>(c, "maestro_malicious_lut256_33_aes128");
    }

    /// CPU time of the benchmark thread (Linux `schedstat`: nanoseconds on a CPU), so the
    /// malicious figures do not depend on how many other processes share the machine. All three
    /// parties run on this one thread.
    pub struct ThreadCpuTime;

    fn thread_cpu_ns() -> u64 {
        std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()
            .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse().ok()))
            .expect("/proc/thread-self/schedstat (Linux only)")
    }

    struct CpuFormatter;

    impl criterion::measurement::ValueFormatter for CpuFormatter {
        fn scale_values(&self, _typical: f64, values: &mut [f64]) -> &'static str {
            values.iter_mut().for_each(|v| *v *= 1e-6);
            "ms cpu"
        }

        fn scale_throughputs(
            &self,
            _typical: f64,
            throughput: &Throughput,
            values: &mut [f64],
        ) -> &'static str {
            let per = match *throughput {
                Throughput::Elements(n) | Throughput::Bytes(n) | Throughput::BytesDecimal(n) => n as f64,
            };
            values.iter_mut().for_each(|v| *v = per * 1e9 / *v);
            "elem/cpu-s"
        }

        fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
            "ns"
        }
    }

    impl criterion::measurement::Measurement for ThreadCpuTime {
        type Intermediate = u64;
        type Value = u64;

        fn start(&self) -> u64 {
            thread_cpu_ns()
        }
        fn end(&self, start: u64) -> u64 {
            thread_cpu_ns() - start
        }
        fn add(&self, a: &u64, b: &u64) -> u64 {
            a + b
        }
        fn zero(&self) -> u64 {
            0
        }
        fn to_f64(&self, v: &u64) -> f64 {
            *v as f64
        }
        fn formatter(&self) -> &dyn criterion::measurement::ValueFormatter {
            &CpuFormatter
        }
    }

    fn cpu_malicious_gf256_circuit(c: &mut Criterion<ThreadCpuTime>) {
        malicious::<MaliciousGf256CircuitSbox, _>(c, "maestro_malicious_cpu_gf256_circuit_aes128");
    }

    fn cpu_malicious_gf16_circuit(c: &mut Criterion<ThreadCpuTime>) {
        malicious::<MaliciousGf16CircuitSbox, _>(c, "maestro_malicious_cpu_gf16_circuit_aes128");
    }

    fn cpu_malicious_lut16(c: &mut Criterion<ThreadCpuTime>) {
        malicious::<MaliciousLut16Sbox, _>(c, "maestro_malicious_cpu_lut16_aes128");
    }

    fn cpu_malicious_lut256_33(c: &mut Criterion<ThreadCpuTime>) {
        malicious::<MaliciousAdditiveLut256Sbox, _>(c, "maestro_malicious_cpu_lut256_33_aes128");
    }

    criterion_group! {
        name = cpu_benches;
        config = Criterion::default().with_measurement(ThreadCpuTime);
        targets = cpu_malicious_gf256_circuit, cpu_malicious_gf16_circuit, cpu_malicious_lut16,
            cpu_malicious_lut256_33
    }

    /// The verification's local passes (combination and folds) over a triple log shaped like
    /// malicious LUT-16 AES's for 1,024 S-boxes — the kernel `scripts/bench-wasm.mjs` times as
    /// `maestro/verify/passes` in WASM, for the native-to-WASM ratio.
    fn verify_passes(c: &mut Criterion) {
        use chorus_core::proto::maestro::verify::inner_product::local_passes;
        use chorus_core::proto::maestro::verify::TripleLog;
        use rand_core::{RngCore, SeedableRng};
        const SBOXES: usize = 1024;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2026);
        let mut next = || rng.next_u64();
        let log = TripleLog::pseudo_random([0, 0, 0, SBOXES, SBOXES, 0], &mut next);
        let coins: Vec<u64> = (0..usize::BITS - log.len().leading_zeros()).map(|_| next()).collect();
        let mut group = c.benchmark_group("maestro_verify_passes_1024_lut16_sboxes");
        for (name, portable) in [("detected", false), ("portable", true)] {
            group.bench_function(name, |b| {
                b.iter(|| local_passes(criterion::black_box(&log), 3, &coins, portable))
            });
        }
        group.finish();
    }

    criterion_group!(
        benches,
        verify_passes,
        gf256_circuit,
        gf16_circuit,
        lut16,
        lut256,
        lut256_33,
        malicious_gf256_circuit,
        malicious_gf16_circuit,
        malicious_lut16,
        malicious_lut256_33
    );
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(bench::benches, bench::cpu_benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
