//! Kernel benchmarks runnable in WASM (Node or a browser): the same kernels the native criterion
//! benches measure, so native and WASM figures can be compared. `scripts/bench-wasm.mjs` times
//! them from JavaScript; each call runs a whole loop of `iterations` in WASM (one FFI call per
//! loop), and returns a checksum so the work cannot be optimised away.

use chorus_core::arch::many_aes::{self, ManyAes, ManyAesBackend};
use chorus_core::code::{Encoder, ReedSolomon};
use chorus_core::embed::{CoralEmbedding, CORAL_SET_1};
use chorus_core::field::clmul::{self, Backend};
use chorus_core::field::{Gf256, Gf64};
use chorus_core::ot::transpose;
use chorus_core::proto::maestro::verify::inner_product::{self, local_passes};
use chorus_core::proto::maestro::verify::triples::{LiftCursor, LiftedBlock};
use chorus_core::proto::maestro::verify::TripleLog;
use chorus_core::rng::seeded_rng;
use rand_core::RngCore;
use wasm_bindgen::prelude::*;

const BULK_LEN: usize = 4096;

/// Prepared inputs for every kernel (setup stays outside the timed loops).
#[wasm_bindgen]
pub struct KernelBench {
    rs: ReedSolomon,
    message: Vec<Gf256>,
    codeword: Vec<Gf256>,
    bulk_a: Vec<Gf256>,
    bulk_b: Vec<Gf256>,
    bulk_out: Vec<Gf256>,
    gf64: Vec<Gf64>,
    /// GF(2^42) elements (Coral's field) and room for their products.
    gf42: Vec<u64>,
    gf42_products: Vec<u128>,
    gf42_out: Vec<u64>,
    embedding: CoralEmbedding,
    mfe_share: Vec<u64>,
    sigma_out: Vec<u64>,
    /// A MAESTRO triple log shaped like malicious LUT-16 AES's (one Eq. (3) entry and one
    /// one-hot vector per S-box), and the coins of its verification's folds.
    log: TripleLog,
    coins: Vec<u64>,
    /// Blocks for the AES kernels, and the cipher on this build's backend and on the `aes` crate.
    aes_blocks: Vec<u128>,
    aes: [ManyAes; 2],
}

/// S-boxes in the benchmarked triple log (3 GF(2^64) triples each).
const LOG_SBOXES: usize = 1024;

/// The kernel names [`KernelBench::run`] accepts, with what one operation is.
const KERNELS: [(&str, &str); 21] = [
    ("rs255_85/encode/fft", "one (255,85) encoding"),
    ("rs255_85/encode/matrix", "one (255,85) encoding"),
    ("gf256/mul_slices", "4096 products"),
    ("gf256/mul_add_scalar_slice", "4096 multiply-adds"),
    ("gf64/inner_product", "4096-term inner product"),
    ("gf64/inner_product/portable", "4096-term inner product"),
    ("gf64/mul_chain", "4096 dependent products"),
    ("gf42/products/narrow", "4096 unreduced GF(2^42) products, the narrow kernel"),
    ("gf42/products/wide", "4096 unreduced GF(2^42) products, the 64-bit kernel"),
    ("gf42/reduce", "4096 GF(2^42) reductions"),
    ("embed/set1/phi", "one φ"),
    ("embed/set1/psi", "one ψ"),
    ("embed/set1/sigma", "one σ"),
    ("embed/set1/rho", "one ρ"),
    ("maestro/verify/lift", "lift of 3072 triples (1024 LUT-16 S-boxes)"),
    ("maestro/verify/passes", "combination and folds of 3072 triples (1024 LUT-16 S-boxes)"),
    ("maestro/verify/passes/portable", "combination and folds of 3072 triples (1024 LUT-16 S-boxes)"),
    ("aes128/encrypt", "64 blocks, this build's ManyAes backend"),
    ("aes128/encrypt/aes-crate", "64 blocks, the aes crate"),
    ("aes128/key-schedule", "one key, this build's ManyAes backend"),
    ("aes128/key-schedule/aes-crate", "one key, the aes crate"),
];

/// Blocks per operation of the AES kernels (the OT engine's batch).
const AES_BLOCKS: usize = 64;

#[wasm_bindgen]
impl KernelBench {
    /// Prepares seeded inputs for every kernel.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<KernelBench, JsError> {
        let mut rng = seeded_rng(2026);
        let mut random_bytes = |n: usize| -> Vec<Gf256> {
            let mut bytes = vec![0u8; n];
            rng.fill_bytes(&mut bytes);
            bytes.into_iter().map(Gf256).collect()
        };
        let rs = ReedSolomon::rs255_85();
        let message = random_bytes(rs.k());
        let codeword = vec![Gf256(0); rs.n()];
        let (bulk_a, bulk_b) = (random_bytes(BULK_LEN), random_bytes(BULK_LEN));
        let gf64: Vec<Gf64> =
            (0..2 * BULK_LEN).map(|i| Gf64(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i as u64 + 1))).collect();
        let embedding = CORAL_SET_1.build().map_err(|e| JsError::new(&e.to_string()))?;
        let gf42_mask = embedding.rmfe.field().order_minus_one();
        let gf42 = gf64.iter().map(|x: &Gf64| x.0 & gf42_mask).collect();
        let mfe_share = embedding.mfe.sigma(0x1234).map_err(|e| JsError::new(&e.to_string()))?;
        let mut next = || rng.next_u64();
        let log = TripleLog::pseudo_random([0, 0, 0, LOG_SBOXES, LOG_SBOXES, 0], &mut next);
        let coins = (0..usize::BITS - log.len().leading_zeros()).map(|_| next()).collect();
        Ok(KernelBench {
            rs,
            message,
            codeword,
            bulk_out: vec![Gf256(0); BULK_LEN],
            bulk_a,
            bulk_b,
            gf64,
            gf42,
            gf42_products: vec![0; BULK_LEN],
            gf42_out: vec![0; BULK_LEN],
            embedding,
            sigma_out: vec![0; mfe_share.len()],
            mfe_share,
            log,
            coins,
            aes_blocks: (0..AES_BLOCKS as u128).collect(),
            aes: [ManyAesBackend::detect(), ManyAesBackend::RustCrypto]
                .map(|b| ManyAes::with_backend(b, &[0x2a; 16])),
        })
    }

    /// Cross-checks every carry-less multiplication backend compiled into this module (the
    /// portable one and, with `simd128`, the SIMD one) against the schoolbook product on `cases`
    /// random operand pairs ([`clmul::self_check`]), and MAESTRO's verification kernels (bulk
    /// lifts, combination, folds) against their portable forms on `cases / 100` random logs
    /// ([`inner_product::self_check`]), and the OT extension's bit-matrix transpose (the
    /// `simd128` byte-plane kernel and the portable one) against its definition
    /// ([`transpose::self_check`]), and every AES backend of the symmetric kernels (the `simd128`
    /// bit-sliced one) against the `aes` crate ([`many_aes::self_check`]); returns the clmul
    /// backends checked.
    #[wasm_bindgen(js_name = selfCheck)]
    pub fn self_check(cases: u32) -> Result<Vec<String>, JsError> {
        clmul::self_check(cases).map_err(|e| JsError::new(&format!("clmul self-check failed: {e}")))?;
        inner_product::self_check(cases / 100)
            .map_err(|e| JsError::new(&format!("verification self-check failed: {e}")))?;
        transpose::self_check(cases / 100 + 4)
            .map_err(|e| JsError::new(&format!("OT transpose self-check failed: {e}")))?;
        many_aes::self_check(cases / 200 + 7)
            .map_err(|e| JsError::new(&format!("AES self-check failed: {e}")))?;
        Ok(Backend::available().iter().map(|b| format!("{b:?}")).collect())
    }

    /// The kernel names, each with what one operation is, as `name: description` strings.
    pub fn kernels() -> Vec<String> {
        KERNELS.iter().map(|(n, d)| format!("{n}: {d}")).collect()
    }

    /// Runs `iterations` operations of `kernel` and returns a checksum of the results.
    pub fn run(&mut self, kernel: &str, iterations: u32) -> Result<u32, JsError> {
        let err = |e: &dyn core::fmt::Display| JsError::new(&format!("{kernel}: {e}"));
        let mut checksum = 0u64;
        for i in 0..iterations as u64 {
            checksum ^= match kernel {
                "rs255_85/encode/fft" | "rs255_85/encode/matrix" => {
                    let encoder = if kernel.ends_with("fft") { Encoder::Fft } else { Encoder::Matrix };
                    self.message[0] = Gf256(i as u8);
                    self.rs.encode_with(encoder, &self.message, &mut self.codeword).map_err(|e| err(&e))?;
                    u64::from(self.codeword[200].0)
                }
                "gf256/mul_slices" => {
                    Gf256::mul_slices(&mut self.bulk_out, &self.bulk_a, &self.bulk_b);
                    u64::from(self.bulk_out[i as usize % BULK_LEN].0)
                }
                "gf256/mul_add_scalar_slice" => {
                    Gf256::mul_add_scalar_slice(&mut self.bulk_out, &self.bulk_a, Gf256(i as u8 | 1));
                    u64::from(self.bulk_out[i as usize % BULK_LEN].0)
                }
                "gf64/inner_product" => {
                    let (a, b) = self.gf64.split_at(BULK_LEN);
                    Gf64::inner_product(a, b).0 ^ i
                }
                "gf64/inner_product/portable" => {
                    let (a, b) = self.gf64.split_at(BULK_LEN);
                    Gf64::inner_product_with(Backend::Portable, a, b).0 ^ i
                }
                "gf42/products/narrow" | "gf42/products/wide" => {
                    let (a, b) = self.gf42.split_at(BULK_LEN);
                    if kernel.ends_with("narrow") {
                        Backend::detect().xor_products42_into(a, b, &mut self.gf42_products);
                    } else {
                        Backend::detect().xor_products64_into(a, b, &mut self.gf42_products);
                    }
                    self.gf42_products[i as usize % BULK_LEN] as u64
                }
                "gf42/reduce" => {
                    self.embedding.rmfe.field().reduce_many(
                        Backend::detect(),
                        &self.gf42_products,
                        &mut self.gf42_out,
                    );
                    self.gf42_out[i as usize % BULK_LEN]
                }
                "gf64/mul_chain" => {
                    let mut acc = Gf64(i | 1);
                    for &x in &self.gf64[..BULK_LEN] {
                        acc = Gf64::mul_with(Backend::detect(), acc, x);
                    }
                    acc.0
                }
                "embed/set1/phi" => self.embedding.rmfe.phi(i & 0x3fff).map_err(|e| err(&e))?,
                "embed/set1/psi" => self
                    .embedding
                    .rmfe
                    .psi(i.wrapping_mul(0x9e37_79b9) & ((1 << 42) - 1))
                    .map_err(|e| err(&e))?,
                "embed/set1/sigma" => {
                    self.embedding
                        .mfe
                        .sigma_into(i & ((1 << 42) - 1), &mut self.sigma_out)
                        .map_err(|e| err(&e))?;
                    self.sigma_out[0]
                }
                "embed/set1/rho" => {
                    self.mfe_share[0] ^= i & 1;
                    self.embedding.mfe.rho(&self.mfe_share).map_err(|e| err(&e))?
                }
                "maestro/verify/lift" => {
                    let (mut cursor, mut block) = (LiftCursor::default(), LiftedBlock::default());
                    let mut sum = i;
                    while self.log.lift_next(&mut cursor, &mut block) {
                        sum ^= block.x[0][0] ^ block.y[1][block.len - 1] ^ block.z[0][block.len / 2];
                    }
                    sum
                }
                "maestro/verify/passes" | "maestro/verify/passes/portable" => {
                    let portable = kernel.ends_with("portable");
                    local_passes(&self.log, i | 2, &self.coins, portable).iter().fold(0, |a, &b| a ^ b)
                }
                "aes128/encrypt" | "aes128/encrypt/aes-crate" => {
                    self.aes[usize::from(kernel.ends_with("crate"))].encrypt(&mut self.aes_blocks);
                    self.aes_blocks[i as usize % AES_BLOCKS] as u64
                }
                "aes128/key-schedule" | "aes128/key-schedule/aes-crate" => {
                    let backend = self.aes[usize::from(kernel.ends_with("crate"))].backend();
                    ManyAes::with_backend(backend, &(i as u128).to_le_bytes()).encrypt_one(0) as u64
                }
                other => {
                    return Err(JsError::new(&format!("unknown kernel {other:?}; see KernelBench.kernels()")))
                }
            };
        }
        Ok((checksum ^ (checksum >> 32)) as u32)
    }
}
