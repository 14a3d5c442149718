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
//! - `fixed_key_aes_80` / `fixed_key_aes_480`: the AES-128 blocks a party runs per AES in the
//!   semi-honest path (80 derived entries) and the malicious one (own hash, verifier PRF and
//!   verifier hash over 160 entries), through the `aes` crate (AES-NI, 8 blocks in parallel).
//!
//! The buffers are advised to use huge pages, as the dealer's material is, and the reads
//! software-prefetch a few blocks ahead, as the online gathers do. Reads are independent, so they
//! measure memory-level parallelism, not latency. Material is allocated once and read in every
//! iteration, so caches may be warmer than after a fresh deal (the protocol benches read fresh
//! material); the figures are therefore optimistic bounds.
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

    /// Random reads of one word from each of `tables` tables per block, round-major or
    /// block-major, with the addresses of the block `AHEAD` blocks on prefetched.
    fn reads<T: Copy + Default + core::ops::BitXor<Output = T>>(
        c: &mut Criterion,
        name: &str,
        tables_per_round: usize,
        round_major: bool,
    ) {
        const ENTRIES: usize = 256;
        const AHEAD: usize = 4;
        let table_count = BLOCKS * 10 * tables_per_round;
        let buffer: Vec<T> = huge_buffer(table_count * ENTRIES);
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let mut indices = Vec::with_capacity(table_count);
        for round in 0..10 {
            for block in 0..BLOCKS {
                for j in 0..tables_per_round {
                    let table = if round_major {
                        (round * BLOCKS + block) * tables_per_round + j
                    } else {
                        (block * 10 + round) * tables_per_round + j
                    };
                    indices.push((table * ENTRIES + (rng.next_u32() as usize % ENTRIES)) as u32);
                }
            }
        }
        let mut group = c.benchmark_group("memory_floor");
        group.throughput(Throughput::Elements(BLOCKS as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut acc = T::default();
                let distance = AHEAD * tables_per_round;
                for (k, &i) in indices.iter().enumerate() {
                    if let Some(&later) = indices.get(k + distance) {
                        prefetch(&buffer[later as usize]);
                    }
                    acc = acc ^ buffer[i as usize];
                }
                black_box(acc)
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

    fn floors(c: &mut Criterion) {
        reads::<u8>(c, "table_reads_semi_honest_1024", 8, true);
        reads::<u128>(c, "table_reads_malicious_1024", 16, true);
        aes_calls(c, "fixed_key_aes_80", 80);
        aes_calls(c, "fixed_key_aes_480", 480);
    }

    criterion_group!(benches, floors);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(bench::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
