//! Lower bounds of this machine for the TinyTable S-box online phases, per AES-128 block and
//! party, without any protocol: the random reads of preprocessed tables and the fixed-key AES
//! calls each party must make (criterion "elements" = AES blocks of the batch).
//!
//! - `table_reads_semi_honest_1024`: the seed-derived semi-honest material (`aes_tables`): 80
//!   stored 256-byte tables per block, round-major (2 KiB per block and round), one random byte
//!   of each table read per block, round by round — 20 MiB per party at 1024 blocks.
//! - `table_reads_malicious_1024`: the malicious material (`sbox_malicious`): 160 tables of 256
//!   16-byte words (entry and tag) per block, round-major as the dealer lays them out (64 KiB per
//!   block and round), one random word of each read, round by round — 640 MiB per party at 1024
//!   blocks.
//! - `…_two_readers`: the same reads by two threads at once, each in its own material, as the two
//!   parties of a local session do (they share the memory system); the time is that of both.
//! - `fixed_key_aes_80` / `fixed_key_aes_480`: the AES-128 blocks a party runs per AES in the
//!   semi-honest path (80 derived entries) and the malicious one (own hash, verifier PRF and
//!   verifier hash over 160 entries), through the `aes` crate (AES-NI, 8 blocks in parallel).
//! - `malicious_reads_and_aes_1024` (x86-64 with AES-NI): the malicious path's reads and its 480
//!   AES blocks in one loop, scheduled as its online pass does (prefetches a few blocks ahead, the
//!   AES blocks that do not need the reads first, 8 at a time): compared with the reads and the
//!   AES alone, how much of one this machine hides under the other.
//! - `dependent_read_latency`: one random read that depends on the previous one, in 640 MiB (a
//!   pointer chase, one read per element): the memory latency including page walks. Latency
//!   divided by the time per independent read is the number of misses in flight.
//!
//! Online phases consume fresh material, which comes from memory, not from the caches: each
//! iteration reads a different copy of the material, and the copies together are several times
//! this machine's last-level cache (35.8 MiB here), so no iteration finds its reads cached. The
//! buffers are advised to use huge pages, as the dealer's material is, and the reads
//! software-prefetch a few blocks ahead, as the online gathers do. Reads are independent, so they
//! measure memory-level parallelism, not latency.
//!
//! Run: `CARGO_TARGET_DIR=$PWD/target cargo bench -p chorus-core --bench memory_floor`

#[cfg(not(target_arch = "wasm32"))]
mod bench {
    use aes::cipher::generic_array::GenericArray;
    use aes::cipher::{BlockEncrypt, KeyInit};
    use criterion::{criterion_group, Criterion, Throughput};
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};
    use std::hint::black_box;

    const BLOCKS: usize = 1024;

    /// A zeroed buffer of `len` words, advised to use huge pages before it is touched.
    fn huge_buffer<T: Clone + Default>(len: usize) -> Vec<T> {
        let mut v: Vec<T> = Vec::with_capacity(len);
        #[cfg(target_os = "linux")]
        {
            let start = v.as_ptr() as usize;
            let aligned = start.next_multiple_of(4096);
            let end = start + len * core::mem::size_of::<T>();
            if end > aligned + 4096 {
                // SAFETY: the range lies inside the allocation; MADV_HUGEPAGE is advice only.
                let _ = unsafe {
                    libc::madvise(
                        aligned as *mut libc::c_void,
                        (end - aligned) / 4096 * 4096,
                        libc::MADV_HUGEPAGE,
                    )
                };
            }
        }
        v.resize(len, T::default());
        v
    }

    /// Bytes of material that keep every iteration's reads out of the caches: several times the
    /// last-level cache of any machine this runs on.
    const COLD_BYTES: usize = 256 << 20;

    /// One party's material: `copies` buffers (read in turn, one per iteration, so that each is
    /// cold when read) and the element indices of one pass over a buffer, round by round.
    struct Material<T> {
        copies: Vec<Vec<T>>,
        indices: Vec<u32>,
        tables_per_round: usize,
    }

    const ENTRIES: usize = 256;
    /// Blocks ahead whose entries are prefetched (as the online gathers do).
    const AHEAD: usize = 4;

    /// Material of `tables_per_round` 256-entry tables per block and round, round-major, with one
    /// random entry of each table to read.
    fn material<T: Clone + Default>(tables_per_round: usize, seed: u64) -> Material<T> {
        let table_count = BLOCKS * 10 * tables_per_round;
        let bytes = table_count * ENTRIES * core::mem::size_of::<T>();
        let copies = (COLD_BYTES.div_ceil(bytes)).max(1);
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let indices =
            (0..table_count).map(|t| (t * ENTRIES + (rng.next_u32() as usize % ENTRIES)) as u32).collect();
        Material {
            copies: (0..copies).map(|_| huge_buffer(table_count * ENTRIES)).collect(),
            indices,
            tables_per_round,
        }
    }

    impl<T: Copy + Default + core::ops::BitXor<Output = T>> Material<T> {
        /// One pass of reads over copy `copy`, prefetching [`AHEAD`] blocks ahead.
        fn read(&self, copy: usize) -> T {
            let buffer = &self.copies[copy % self.copies.len()];
            let distance = AHEAD * self.tables_per_round;
            let mut acc = T::default();
            for (k, &i) in self.indices.iter().enumerate() {
                if let Some(&later) = self.indices.get(k + distance) {
                    prefetch(&buffer[later as usize]);
                }
                acc = acc ^ buffer[i as usize];
            }
            acc
        }
    }

    fn reads<T: Copy + Default + Send + Sync + core::ops::BitXor<Output = T>>(
        c: &mut Criterion,
        name: &str,
        tables_per_round: usize,
    ) {
        let parties: [Material<T>; 2] = core::array::from_fn(|p| material(tables_per_round, p as u64));
        let mut group = c.benchmark_group("memory_floor");
        group.throughput(Throughput::Elements(BLOCKS as u64));
        let mut copy = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                copy += 1;
                black_box(parties[0].read(copy))
            })
        });
        group.bench_function(format!("{name}_two_readers"), |b| {
            b.iter(|| {
                copy += 1;
                std::thread::scope(|scope| {
                    let other = scope.spawn(|| black_box(parties[1].read(copy)));
                    black_box(parties[0].read(copy));
                    other.join().expect("reader")
                })
            })
        });
        group.finish();
    }

    /// Dependent random reads (a random cycle through 640 MiB of 64-byte elements).
    fn latency(c: &mut Criterion) {
        const LEN: usize = (640 << 20) / 64;
        const HOPS: u64 = 100_000;
        let mut next: Vec<[u32; 16]> = huge_buffer(LEN);
        // Sattolo's shuffle: a single cycle through every element.
        let mut order: Vec<u32> = (0..LEN as u32).collect();
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        for i in (1..LEN).rev() {
            order.swap(i, rng.next_u32() as usize % i);
        }
        for (k, &at) in order.iter().enumerate() {
            next[at as usize][0] = order[(k + 1) % LEN];
        }
        let mut group = c.benchmark_group("memory_floor");
        group.throughput(Throughput::Elements(HOPS));
        let mut at = 0u32;
        group.bench_function("dependent_read_latency", |b| {
            b.iter(|| {
                for _ in 0..HOPS {
                    at = next[at as usize][0];
                }
                black_box(at)
            })
        });
        group.finish();
    }

    #[inline(always)]
    fn prefetch<T>(value: &T) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch reads nothing architecturally and cannot fault.
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                (value as *const T).cast::<i8>(),
            )
        };
        #[cfg(not(target_arch = "x86_64"))]
        let _ = value;
    }

    fn aes_calls(c: &mut Criterion, name: &str, per_block: usize) {
        let cipher = aes::Aes128::new(GenericArray::from_slice(b"chorus/floor/key"));
        let mut blocks = vec![GenericArray::from([7u8; 16]); BLOCKS * per_block];
        let mut group = c.benchmark_group("memory_floor");
        group.throughput(Throughput::Elements(BLOCKS as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                cipher.encrypt_blocks(&mut blocks);
                black_box(blocks[0])
            })
        });
        group.finish();
    }

    /// The malicious path's reads and its AES in one loop, as its online pass runs them: per block
    /// and round, the 16 words of the block [`AHEAD`] on prefetched, 32 AES blocks that do not
    /// depend on the reads (the verifier's PRF and hash) and 16 on the words just read (the own
    /// hash), 8 blocks at a time through AES-NI.
    #[cfg(target_arch = "x86_64")]
    fn reads_and_aes(c: &mut Criterion) {
        use core::arch::x86_64::{
            __m128i, _mm_aesenc_si128, _mm_aesenclast_si128, _mm_loadu_si128, _mm_set1_epi32, _mm_set_epi64x,
            _mm_setzero_si128, _mm_xor_si128,
        };
        /// Eight blocks through ten AES rounds (arbitrary round keys: only the time matters).
        #[target_feature(enable = "aes,sse2")]
        fn encrypt8(keys: &[__m128i; 11], blocks: &mut [__m128i; 8], acc: &mut __m128i) {
            blocks.iter_mut().for_each(|b| *b = _mm_xor_si128(*b, keys[0]));
            for key in &keys[1..10] {
                blocks.iter_mut().for_each(|b| *b = _mm_aesenc_si128(*b, *key));
            }
            for b in blocks.iter() {
                *acc = _mm_xor_si128(*acc, _mm_aesenclast_si128(*b, keys[10]));
            }
        }
        #[target_feature(enable = "aes,sse2")]
        fn pass(party: &Material<u128>, copy: usize) -> __m128i {
            let keys: [__m128i; 11] = core::array::from_fn(|r| _mm_set1_epi32(0x0101_0101 * r as i32));
            let buffer = &party.copies[copy % party.copies.len()];
            let mut acc = _mm_setzero_si128();
            for (k, block) in party.indices.chunks_exact(16).enumerate() {
                if let Some(later) = party.indices.get(16 * (k + AHEAD)..16 * (k + AHEAD + 1)) {
                    later.iter().for_each(|&i| prefetch(&buffer[i as usize]));
                }
                for g in 0..4 {
                    let mut independent =
                        core::array::from_fn(|u| _mm_set_epi64x(k as i64, (8 * g + u) as i64));
                    encrypt8(&keys, &mut independent, &mut acc);
                }
                for half in block.chunks_exact(8) {
                    let mut own: [__m128i; 8] = core::array::from_fn(|u| {
                        let word: *const u128 = &buffer[half[u] as usize];
                        // SAFETY: `word` points to a live `u128`; unaligned loads accept any address.
                        unsafe { _mm_loadu_si128(word.cast()) }
                    });
                    encrypt8(&keys, &mut own, &mut acc);
                }
            }
            acc
        }
        if !chorus_core::arch::Cpu::detected().aes {
            return;
        }
        let parties: [Material<u128>; 2] = core::array::from_fn(|p| material(16, 7 + p as u64));
        let mut group = c.benchmark_group("memory_floor");
        group.throughput(Throughput::Elements(BLOCKS as u64));
        let mut copy = 0;
        group.bench_function("malicious_reads_and_aes_1024", |b| {
            b.iter(|| {
                copy += 1;
                // SAFETY: AES-NI was detected above (SSE2 is part of x86-64).
                black_box(unsafe { pass(&parties[0], copy) })
            })
        });
        group.bench_function("malicious_reads_and_aes_1024_two_readers", |b| {
            b.iter(|| {
                copy += 1;
                // SAFETY: AES-NI was detected above (SSE2 is part of x86-64).
                std::thread::scope(|scope| unsafe {
                    let other = scope.spawn(|| black_box(pass(&parties[1], copy)));
                    black_box(pass(&parties[0], copy));
                    other.join().expect("reader")
                })
            })
        });
        group.finish();
    }

    fn floors(c: &mut Criterion) {
        reads::<u8>(c, "table_reads_semi_honest_1024", 8);
        reads::<u128>(c, "table_reads_malicious_1024", 16);
        aes_calls(c, "fixed_key_aes_80", 80);
        aes_calls(c, "fixed_key_aes_480", 480);
        #[cfg(target_arch = "x86_64")]
        reads_and_aes(c);
        latency(c);
    }

    criterion_group!(benches, floors);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(bench::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
