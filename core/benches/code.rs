//! Criterion benchmarks of the Reed-Solomon layer: both encoders for both codes, bit encoding and
//! membership tests. Run with `cargo bench -p chorus-core --bench code`.

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use chorus_core::code::{Encoder, ReedSolomon};
    use chorus_core::field::{Field, Gf256};
    use criterion::{black_box, criterion_group, Criterion, Throughput};
    use rand_chacha::rand_core::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    fn random_vec(rng: &mut ChaCha20Rng, len: usize) -> Vec<Gf256> {
        (0..len).map(|_| Gf256::random(rng)).collect()
    }

    fn bench_code(c: &mut Criterion, label: &str, code: &ReedSolomon) {
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        let message = random_vec(&mut rng, code.k());
        let codeword = code.encode(&message).unwrap();
        let star = code.schur_square();
        let product = chorus_core::code::schur_product(&codeword, &codeword).unwrap();
        let bits: Vec<Gf256> = message.iter().map(|m| Gf256(m.0 & 1)).collect();
        let mut out = vec![Gf256::ZERO; code.n()];

        let mut group = c.benchmark_group(format!("code/{label}"));
        group.throughput(Throughput::Elements(1));
        for encoder in [Encoder::Matrix, Encoder::Fft] {
            if encoder == Encoder::Fft && !code.has_fft_encoder() {
                continue;
            }
            group.bench_function(format!("encode_{}", encoder.name()), |b| {
                b.iter(|| code.encode_with(encoder, black_box(&message), &mut out).unwrap())
            });
            group.bench_function(format!("check_C_{}", encoder.name()), |b| {
                b.iter(|| code.check_with(encoder, black_box(&codeword)).unwrap())
            });
            group.bench_function(format!("check_Cstar_{}", encoder.name()), |b| {
                b.iter(|| star.check_with(encoder, black_box(&product)).unwrap())
            });
        }
        group.bench_function("encode_bits", |b| b.iter(|| code.encode_bits(black_box(&bits)).unwrap()));
        group.finish();
    }

    fn benches(c: &mut Criterion) {
        bench_code(c, "rs255_85", &ReedSolomon::rs255_85());
        bench_code(c, "rs256_120", &ReedSolomon::rs256_120());
    }

    criterion_group!(code_benches, benches);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(native::code_benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
