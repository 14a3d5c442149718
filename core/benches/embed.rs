//! Criterion benchmarks of Coral's embedding maps (`chorus_core::embed`) on Table 1's parameter
//! set 1 ((14, 42)_2-RMFE and (195, 42)_2-MFE): φ, ψ, τ, σ, ρ per element with the constant-time
//! and byte-table evaluations, batches of 4096, and the polynomial reference path for contrast.
//! Construction happens outside the timed loops (except in `reference/build-set1`, which times it).
//!
//! Run with `CARGO_TARGET_DIR=$PWD/target cargo bench -p chorus-core --bench embed`; criterion
//! stores the medians in `target/criterion/embed_set1_*/*/*/new/estimates.json`.

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::hint::black_box;

    use chorus_core::embed::{CoralEmbedding, Evaluation, CORAL_SET_1};
    use criterion::{BatchSize, BenchmarkId, Criterion, Throughput};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha20Rng;

    const BATCH: usize = 4096;

    fn embedding(evaluation: Evaluation) -> CoralEmbedding {
        let mut embedding = CORAL_SET_1.build().expect("Coral set 1 is valid");
        embedding.set_evaluation(evaluation);
        embedding
    }

    fn label(evaluation: Evaluation) -> &'static str {
        match evaluation {
            Evaluation::ConstantTime => "constant-time",
            Evaluation::ByteTable => "byte-table",
        }
    }

    pub fn single(c: &mut Criterion) {
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let xs: Vec<u64> = (0..BATCH).map(|_| rng.gen::<u64>() & ((1 << 14) - 1)).collect();
        let ys: Vec<u64> = (0..BATCH).map(|_| rng.gen::<u64>() & ((1 << 42) - 1)).collect();
        let mut group = c.benchmark_group("embed/set1/single");
        group.throughput(Throughput::Elements(1));
        for evaluation in [Evaluation::ConstantTime, Evaluation::ByteTable] {
            let CoralEmbedding { rmfe, mfe } = embedding(evaluation);
            let shares: Vec<Vec<u64>> = ys.iter().map(|&y| mfe.sigma(y).unwrap()).collect();
            let name = label(evaluation);
            let mut i = 0;
            let mut next = || {
                i = (i + 1) % BATCH;
                i
            };
            group.bench_function(BenchmarkId::new("phi", name), |b| {
                b.iter(|| rmfe.phi(black_box(xs[next()])))
            });
            group.bench_function(BenchmarkId::new("psi", name), |b| {
                b.iter(|| rmfe.psi(black_box(ys[next()])))
            });
            group.bench_function(BenchmarkId::new("tau", name), |b| {
                b.iter(|| rmfe.tau(black_box(ys[next()])))
            });
            let mut out = vec![0u64; mfe.share_words()];
            group.bench_function(BenchmarkId::new("sigma", name), |b| {
                b.iter(|| mfe.sigma_into(black_box(ys[next()]), &mut out))
            });
            group.bench_function(BenchmarkId::new("rho", name), |b| {
                b.iter(|| mfe.rho(black_box(&shares[next()])))
            });
        }
        group.finish();
    }

    pub fn batch(c: &mut Criterion) {
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        let xs: Vec<u64> = (0..BATCH).map(|_| rng.gen::<u64>() & ((1 << 14) - 1)).collect();
        let ys: Vec<u64> = (0..BATCH).map(|_| rng.gen::<u64>() & ((1 << 42) - 1)).collect();
        let mut group = c.benchmark_group("embed/set1/batch4096");
        group.throughput(Throughput::Elements(BATCH as u64));
        for evaluation in [Evaluation::ConstantTime, Evaluation::ByteTable] {
            let CoralEmbedding { rmfe, mfe } = embedding(evaluation);
            let name = label(evaluation);
            let mut out = vec![0u64; BATCH];
            let mut shares = vec![0u64; BATCH * mfe.share_words()];
            mfe.sigma_batch(&ys, &mut shares).unwrap();
            let mut shares_out = shares.clone();
            group.bench_function(BenchmarkId::new("phi", name), |b| {
                b.iter(|| rmfe.phi_batch(black_box(&xs), &mut out))
            });
            group.bench_function(BenchmarkId::new("psi", name), |b| {
                b.iter(|| rmfe.psi_batch(black_box(&ys), &mut out))
            });
            group.bench_function(BenchmarkId::new("sigma", name), |b| {
                b.iter(|| mfe.sigma_batch(black_box(&ys), &mut shares_out))
            });
            group.bench_function(BenchmarkId::new("rho", name), |b| {
                b.iter(|| mfe.rho_batch(black_box(&shares), &mut out))
            });
        }
        group.finish();
    }

    pub fn reference_and_setup(c: &mut Criterion) {
        let CoralEmbedding { rmfe, mfe } = embedding(Evaluation::ConstantTime);
        let mut group = c.benchmark_group("embed/set1/reference");
        group.sample_size(10);
        let share = mfe.sigma(0x2_9abc_def1).unwrap();
        group.bench_function("phi", |b| b.iter(|| rmfe.phi_reference(black_box(0x1234))));
        group.bench_function("psi", |b| b.iter(|| rmfe.psi_reference(black_box(0x2_9abc_def1))));
        group.bench_function("sigma", |b| b.iter(|| mfe.sigma_reference(black_box(0x2_9abc_def1))));
        group.bench_function("rho", |b| b.iter(|| mfe.rho_reference(black_box(&share))));
        group.bench_function("build-set1", |b| {
            b.iter_batched(|| (), |()| CORAL_SET_1.build().unwrap(), BatchSize::PerIteration)
        });
        group.finish();
    }
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_group!(benches, native::single, native::batch, native::reference_and_setup);
#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
