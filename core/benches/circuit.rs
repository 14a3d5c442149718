//! Bristol Fashion circuit benchmarks: parsing `aes_128.txt`, one plaintext AES-128 evaluation on
//! bits, and 64 evaluations at once bit-sliced (criterion reports time per 64 blocks; divide by 64 for
//! the time per block, or read the throughput line in blocks per second).
//!
//! Run with `cargo bench -p chorus-core --bench circuit`.

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use chorus_core::circuit::aes_bristol::input_bits;
    use chorus_core::circuit::aes_gen::aes128_circuit;
    use chorus_core::circuit::Circuit;
    use criterion::{black_box, Criterion, Throughput};

    fn reference_text() -> String {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../circuits/aes_128.txt");
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("benchmark needs {path}: {e}"))
    }

    pub fn benches(c: &mut Criterion) {
        let text = reference_text();
        let reference = Circuit::parse_bristol(&text).expect("aes_128.txt parses");
        let generated = aes128_circuit().expect("generated AES-128 circuit");

        let mut group = c.benchmark_group("bristol_aes128");
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function("parse", |b| b.iter(|| Circuit::parse_bristol(black_box(&text))));

        let inputs = input_bits(&[0x2b; 16], &[0x32; 16]);
        group.throughput(Throughput::Elements(1));
        for (name, circuit) in [("reference", &reference), ("generated", &generated)] {
            group.bench_function(format!("eval_bool/{name}"), |b| {
                b.iter(|| circuit.evaluate(black_box(&inputs)))
            });
        }

        let words: Vec<Vec<u64>> = inputs
            .iter()
            .enumerate()
            .map(|(v, bits)| {
                (0..bits.len())
                    .map(|k| (k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ v as u64)
                    .collect()
            })
            .collect();
        group.throughput(Throughput::Elements(64));
        for (name, circuit) in [("reference", &reference), ("generated", &generated)] {
            group.bench_function(format!("eval_bitsliced_64/{name}"), |b| {
                b.iter(|| circuit.evaluate_bitsliced(black_box(&words)))
            });
        }
        group.finish();
    }
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_group!(benches, native::benches);
#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
