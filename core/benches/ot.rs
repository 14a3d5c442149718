//! Kernels of the OT engine (`chorus_core::ot`): the bit-matrix transpose, the AES-CTR PRG, the
//! fixed-key-AES correlation-robust hash, and a whole KOS15 correlated-OT extension with both
//! parties in one thread over the in-memory network (no channel encryption, no sockets) — the
//! compute floor under `chorus-bench-ot`'s loopback figures — and the same extension with KOS15
//! against SoftSpoken for k = 2, 4, 8.

use chorus_core::net::memory::run_session;
use chorus_core::net::Network;
use chorus_core::ot::prg::{Prg, TccrHash};
#[cfg(target_arch = "x86_64")]
use chorus_core::ot::transpose::transpose_128_avx2;
use chorus_core::ot::transpose::{transpose_128, transpose_128_bytes, transpose_128_portable};
use chorus_core::ot::{ExtReceiver, ExtSender, Extension, OtExtReceiver, OtExtSender};
use chorus_core::rng::seeded_rng;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;

const N: usize = 1 << 16;

fn kernels(c: &mut Criterion) {
    let mut g = c.benchmark_group("ot_kernels");
    g.throughput(Throughput::Elements(N as u64));
    let rows: Vec<u64> = (0..128 * N / 64).map(|i| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect();
    let mut out = vec![0u128; N];
    // The kernel `transpose_128` chooses (AVX2 or SSE2 byte planes on x86-64), the AVX2 and SSE2
    // ones and the portable one.
    g.bench_function("transpose_128_x_64k", |b| b.iter(|| transpose_128(black_box(&rows), N / 64, &mut out)));
    #[cfg(target_arch = "x86_64")]
    if transpose_128_avx2(&rows, N / 64, &mut out).is_some() {
        g.bench_function("transpose_128_x_64k_avx2", |b| {
            b.iter(|| transpose_128_avx2(black_box(&rows), N / 64, &mut out))
        });
    }
    g.bench_function("transpose_128_x_64k_sse2", |b| {
        b.iter(|| transpose_128_bytes(black_box(&rows), N / 64, &mut out))
    });
    g.bench_function("transpose_128_x_64k_portable", |b| {
        b.iter(|| transpose_128_portable(black_box(&rows), N / 64, &mut out))
    });
    let mut prg = Prg::new(7);
    let mut blocks = vec![0u128; N];
    g.bench_function("prg_64k_blocks", |b| b.iter(|| prg.fill(black_box(&mut blocks))));
    let h = TccrHash::default();
    g.bench_function("tccr_hash_64k_blocks", |b| b.iter(|| h.hash_in_place(3, black_box(&mut blocks))));
    g.finish();
}

fn extension(c: &mut Criterion) {
    let mut g = c.benchmark_group("ot_extension_in_memory");
    g.sample_size(10);
    for n in [1usize << 16, 1 << 20] {
        g.throughput(Throughput::Elements(n as u64));
        let choices: Vec<bool> = (0..n).map(|i| i % 3 == 0).collect();
        g.bench_function(format!("correlated_{n}"), |b| {
            b.iter_batched(
                || (),
                |_| {
                    run_session(2, |mut net| {
                        let choices = &choices;
                        async move {
                            let mut rng = seeded_rng(net.party() as u64);
                            if net.party() == 0 {
                                let mut s =
                                    OtExtSender::setup(&mut net, 1, b"bench", &mut rng).await.unwrap();
                                s.extend_correlated(&mut net, choices.len(), &mut rng).await.unwrap().len()
                            } else {
                                let mut r =
                                    OtExtReceiver::setup(&mut net, 0, b"bench", &mut rng).await.unwrap();
                                r.extend_correlated(&mut net, choices, &mut rng).await.unwrap().len()
                            }
                        }
                    })
                },
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

/// KOS15 against SoftSpoken (k = 2, 4, 8) for 2^20 correlated OTs, setup included, both parties
/// in one thread; prints each one's bytes per OT (the receiver's extension messages, which
/// dominate, over the OTs; setup excluded).
fn kos_vs_softspoken(c: &mut Criterion) {
    let n = 1usize << 20;
    let mut g = c.benchmark_group("ot_extension_kos15_vs_softspoken");
    g.sample_size(10);
    g.throughput(Throughput::Elements(n as u64));
    let choices: Vec<bool> = (0..n).map(|i| i % 3 == 0).collect();
    for ext in [
        Extension::Kos15,
        Extension::SoftSpoken { k: 2 },
        Extension::SoftSpoken { k: 4 },
        Extension::SoftSpoken { k: 8 },
    ] {
        let [s, r] = ext.extension_bytes(n);
        let name = match ext {
            Extension::Kos15 => "kos15".to_string(),
            Extension::SoftSpoken { k } => format!("softspoken_k{k}"),
        };
        println!("{name}: {:.3} bytes per OT ({} + {} bytes for {n} OTs)", (s + r) as f64 / n as f64, s, r);
        g.bench_function(format!("{name}_correlated_{n}"), |b| {
            b.iter_batched(
                || (),
                |_| {
                    run_session(2, |mut net| {
                        let choices = &choices;
                        async move {
                            let mut rng = seeded_rng(net.party() as u64);
                            if net.party() == 0 {
                                let mut s = ExtSender::setup_with_delta(
                                    &mut net,
                                    1,
                                    b"bench",
                                    ext,
                                    0x5a5a << 64 | 77,
                                    &mut rng,
                                )
                                .await
                                .unwrap();
                                s.extend_correlated(&mut net, choices.len(), &mut rng).await.unwrap().len()
                            } else {
                                let mut r =
                                    ExtReceiver::setup(&mut net, 0, b"bench", ext, &mut rng).await.unwrap();
                                r.extend_correlated(&mut net, choices, &mut rng).await.unwrap().len()
                            }
                        }
                    })
                },
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, kernels, extension, kos_vs_softspoken);
criterion_main!(benches);
