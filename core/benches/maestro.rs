//! MAESTRO semi-honest GF(2^8)-circuit AES-128 over the in-memory network, all three parties in
//! one thread: 1000 blocks per iteration, reported as blocks/s (criterion "elements").
//!
//! Setup (PRSS keys, dealt shares of plaintext and key, and for `encrypt` the MPC key schedule)
//! happens outside the timed region.
//!
//! Run: `CARGO_TARGET_DIR=$PWD/target cargo bench -p chorus-core --bench maestro`

#[cfg(not(target_arch = "wasm32"))]
mod bench {
    use chorus_core::aes::RoundKeys;
    use chorus_core::field::Gf256;
    use chorus_core::net::memory::{run_session, MemoryNetwork};
    use chorus_core::net::Network;
    use chorus_core::proto::maestro::aes::{encrypt_blocks, expand_key};
    use chorus_core::proto::maestro::{Gf256CircuitSbox, Party, RssShare};
    use criterion::{criterion_group, BatchSize, Criterion, Throughput};
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    const BLOCKS: usize = 1000;

    struct PartyState {
        net: MemoryNetwork,
        sbox: Gf256CircuitSbox,
        key: Vec<RssShare>,
        blocks: Vec<[RssShare; 16]>,
    }

    /// Three parties after PRSS setup, holding dealt shares of a random key and BLOCKS blocks.
    fn parties(seed: u64) -> Vec<PartyState> {
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
            let key: Vec<RssShare> = key.iter().map(|d| d[p]).collect();
            let blocks: Vec<[RssShare; 16]> =
                data.chunks_exact(16).map(|c| core::array::from_fn(|j| c[j][p])).collect();
            async move {
                let mut rng = ChaCha20Rng::seed_from_u64(seed * 3 + p as u64);
                let party = Party::setup(&mut net, &mut rng).await.expect("setup");
                PartyState { net, sbox: Gf256CircuitSbox::new(party), key, blocks }
            }
        })
    }

    fn with_round_keys(states: Vec<PartyState>) -> Vec<(PartyState, RoundKeys<RssShare>)> {
        let futures = states.into_iter().map(|mut s| async move {
            let rk = expand_key(&mut s.sbox, &mut s.net, &s.key).await.expect("key schedule");
            (s, rk)
        });
        futures::executor::block_on(futures::future::join_all(futures))
    }

    fn aes128(c: &mut Criterion) {
        let mut group = c.benchmark_group("maestro_gf256_circuit_aes128");
        group.sample_size(10);
        group.throughput(Throughput::Elements(BLOCKS as u64));
        group.bench_function("encrypt_1000_blocks", |b| {
            b.iter_batched(
                || with_round_keys(parties(1)),
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
                || parties(2),
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

    criterion_group!(benches, aes128);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(bench::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
