//! TinyTable semi-honest online phase, both parties in one thread over the in-memory network,
//! amortized per AES-128 block (criterion "elements" = blocks):
//! - `binary_aes128_64_blocks`: the generated 6400-AND Bristol AES-128 circuit, 64 blocks per batch;
//! - `sbox_tables_aes128_256_blocks`: the 8-bit S-box table path (§2.3), 256 blocks per batch.
//!
//! Preprocessing (trusted dealer, fresh seed every iteration, never reused) is generated in the
//! untimed setup of `iter_batched` and moved (not copied) into the parties.
//!
//! Run: `CARGO_TARGET_DIR=$PWD/target cargo bench -p chorus-core --bench tinytable`

#[cfg(not(target_arch = "wasm32"))]
mod bench {
    use chorus_core::circuit::aes_bristol::input_bits;
    use chorus_core::circuit::aes_gen::aes128_circuit;
    use chorus_core::net::memory::run_session;
    use chorus_core::net::Network;
    use chorus_core::proto::tinytable::aes_tables::encrypt_batch;
    use chorus_core::proto::tinytable::online::evaluate_batch;
    use chorus_core::proto::tinytable::{IoSpec, Reveal, TrustedDealer};
    use criterion::{criterion_group, BatchSize, Criterion, Throughput};
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;
    use std::cell::{Cell, RefCell};

    const BINARY_BLOCKS: usize = 64;
    const TABLE_BLOCKS: usize = 256;

    fn aes128(c: &mut Criterion) {
        let circuit = aes128_circuit().expect("generator");
        let io = IoSpec { input_owners: vec![0, 1], reveal: vec![Reveal::Both] };
        let [key_bits, pt_bits] = input_bits(&[7u8; 16], &[9u8; 16]);
        let seed = Cell::new(0u64);
        let fresh_dealer = || {
            seed.set(seed.get() + 1);
            TrustedDealer::new(ChaCha20Rng::seed_from_u64(seed.get()))
        };

        let mut group = c.benchmark_group("tinytable_semi_honest_aes128");
        group.sample_size(10);
        group.throughput(Throughput::Elements(BINARY_BLOCKS as u64));
        group.bench_function("binary_aes128_64_blocks", |b| {
            b.iter_batched(
                || fresh_dealer().binary_batch(&circuit, &io, BINARY_BLOCKS).expect("dealer"),
                |preps| {
                    let preps = preps.map(|p| RefCell::new(Some(p)));
                    run_session(2, |mut net| {
                        let party = net.party();
                        let prep = preps[party].take().expect("each party takes its material once");
                        let mine = if party == 0 { key_bits.clone() } else { pt_bits.clone() };
                        let inputs = vec![vec![mine]; BINARY_BLOCKS];
                        let circuit = &circuit;
                        async move { evaluate_batch(&mut net, circuit, &prep, &inputs).await.expect("online") }
                    })
                },
                BatchSize::PerIteration,
            )
        });
        group.throughput(Throughput::Elements(TABLE_BLOCKS as u64));
        group.bench_function("sbox_tables_aes128_256_blocks", |b| {
            b.iter_batched(
                || fresh_dealer().aes_tables_batch(0, Reveal::Both, TABLE_BLOCKS).expect("dealer"),
                |preps| {
                    let preps = preps.map(|p| RefCell::new(Some(p)));
                    run_session(2, |mut net| {
                        let party = net.party();
                        let prep = preps[party].take().expect("each party takes its material once");
                        let inputs = vec![[party as u8; 16]; TABLE_BLOCKS];
                        async move { encrypt_batch(&mut net, &prep, &inputs).await.expect("online") }
                    })
                },
                BatchSize::PerIteration,
            )
        });
        group.finish();
    }

    criterion_group!(benches, aes128);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(bench::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
