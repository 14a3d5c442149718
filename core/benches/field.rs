//! Field kernels, every fast path against its portable fallback:
//! GF(2^64) / GF(2^128) products and length-10^6 inner products with lazy reduction (per carry-less
//! backend), GF(2^48) products, batches of 1,024 GF(2^42) products reduced at once, and GF(2^8)
//! bulk slice operations on 4096 elements (per bulk backend).
//!
//! Run: `cargo bench -p chorus-core --bench field -- --warm-up-time 1 --measurement-time 2`.

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use chorus_core::embed::GF2_42_MODULUS_LOW;
    use chorus_core::field::clmul::Backend;
    use chorus_core::field::{BinaryField, Field, Gf128, Gf256Backend, Gf64};
    use criterion::{black_box, criterion_group, BenchmarkId, Criterion, Throughput};
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    const INNER_PRODUCT_LEN: usize = 1_000_000;
    const SLICE_LEN: usize = 4096;
    const BATCH_LEN: usize = 1024;

    fn rng() -> ChaCha20Rng {
        ChaCha20Rng::seed_from_u64(0xbe4c)
    }

    fn products(c: &mut Criterion) {
        let mut rng = rng();
        let (a64, b64) = (Gf64::random(&mut rng), Gf64::random(&mut rng));
        let (a128, b128) = (Gf128::random(&mut rng), Gf128::random(&mut rng));
        let field48 = BinaryField::new(48, 0x291).expect("x^48 + x^9 + x^7 + x^4 + 1 is irreducible");
        let (a48, b48) = (field48.random(&mut rng), field48.random(&mut rng));

        let mut group = c.benchmark_group("mul");
        for backend in Backend::available() {
            let name = format!("{backend:?}");
            group.bench_function(BenchmarkId::new("gf64", &name), |bench| {
                bench.iter(|| Gf64::mul_with(backend, black_box(a64), black_box(b64)))
            });
            group.bench_function(BenchmarkId::new("gf128", &name), |bench| {
                bench.iter(|| Gf128::mul_with(backend, black_box(a128), black_box(b128)))
            });
            group.bench_function(BenchmarkId::new("gf2m_48", &name), |bench| {
                bench.iter(|| field48.mul_with(backend, black_box(a48), black_box(b48)))
            });
        }
        group.finish();
    }

    fn inner_products(c: &mut Criterion) {
        let mut rng = rng();
        let x64: Vec<Gf64> = (0..INNER_PRODUCT_LEN).map(|_| Gf64::random(&mut rng)).collect();
        let y64: Vec<Gf64> = (0..INNER_PRODUCT_LEN).map(|_| Gf64::random(&mut rng)).collect();
        let x128: Vec<Gf128> = (0..INNER_PRODUCT_LEN).map(|_| Gf128::random(&mut rng)).collect();
        let y128: Vec<Gf128> = (0..INNER_PRODUCT_LEN).map(|_| Gf128::random(&mut rng)).collect();

        let mut group = c.benchmark_group("inner_product_1e6");
        group.throughput(Throughput::Elements(INNER_PRODUCT_LEN as u64));
        group.sample_size(10);
        for backend in Backend::available() {
            let name = format!("{backend:?}");
            group.bench_function(BenchmarkId::new("gf64", &name), |bench| {
                bench.iter(|| Gf64::inner_product_with(backend, black_box(&x64), black_box(&y64)))
            });
            group.bench_function(BenchmarkId::new("gf128", &name), |bench| {
                bench.iter(|| Gf128::inner_product_with(backend, black_box(&x128), black_box(&y128)))
            });
        }
        group.finish();
    }

    /// Coral's layer kernel: 1,024 independent GF(2^42) products, accumulated unreduced and then
    /// reduced (`xor_products42_into` + `reduce_many`), and the same with the 64-bit products
    /// (`_wide`, what the narrow ones replaced).
    fn batched_products(c: &mut Criterion) {
        let mut rng = rng();
        let field42 = BinaryField::new(42, GF2_42_MODULUS_LOW).expect("Coral's modulus is irreducible");
        let x: Vec<u64> = (0..BATCH_LEN).map(|_| field42.random(&mut rng)).collect();
        let y: Vec<u64> = (0..BATCH_LEN).map(|_| field42.random(&mut rng)).collect();
        let mut group = c.benchmark_group("batch_1024");
        group.throughput(Throughput::Elements(BATCH_LEN as u64));
        for backend in Backend::available() {
            let name = format!("{backend:?}");
            let (mut acc, mut out) = (vec![0u128; BATCH_LEN], vec![0u64; BATCH_LEN]);
            for wide in [false, true] {
                let id = if wide { "gf2m_42_products_reduced_wide" } else { "gf2m_42_products_reduced" };
                group.bench_function(BenchmarkId::new(id, &name), |bench| {
                    bench.iter(|| {
                        acc.fill(0);
                        if wide {
                            backend.xor_products64_into(black_box(&x), black_box(&y), &mut acc);
                        } else {
                            backend.xor_products42_into(black_box(&x), black_box(&y), &mut acc);
                        }
                        field42.reduce_many(backend, &acc, &mut out);
                        out[0]
                    })
                });
            }
        }
        group.finish();
    }

    fn gf256_bulk(c: &mut Criterion) {
        let mut rng = rng();
        let mut a = vec![0u8; SLICE_LEN];
        let mut b = vec![0u8; SLICE_LEN];
        rng.fill_bytes(&mut a);
        rng.fill_bytes(&mut b);
        let scalar = 0x57;
        let mut dst = vec![0u8; SLICE_LEN];

        let mut group = c.benchmark_group("gf256_4096");
        group.throughput(Throughput::Elements(SLICE_LEN as u64));
        for &backend in Gf256Backend::available() {
            let name = format!("{backend:?}");
            group.bench_function(BenchmarkId::new("mul_slices", &name), |bench| {
                bench.iter(|| backend.mul_slices(&mut dst, black_box(&a), black_box(&b)))
            });
            group.bench_function(BenchmarkId::new("mul_add_scalar", &name), |bench| {
                bench.iter(|| backend.mul_add_scalar(&mut dst, black_box(&a), black_box(scalar)))
            });
            group.bench_function(BenchmarkId::new("inverse_slice", &name), |bench| {
                // In-place inversion of `dst`: inverting a permutation of values costs the same.
                bench.iter(|| backend.inverse_slice(black_box(&mut dst)))
            });
        }
        group.finish();
    }

    criterion_group!(field_benches, products, inner_products, batched_products, gf256_bulk);

    pub fn main() {
        field_benches();
        criterion::Criterion::default().configure_from_args().final_summary();
    }
}

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    native::main();
}
