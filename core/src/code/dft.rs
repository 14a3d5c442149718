//! Small DFTs over GF(2^8) and the 85-point Good–Thomas DFT built from them (paper §4.2), evaluated
//! on *lanes*: each stage runs up to 16 independent small DFTs side by side, one per byte lane, so
//! that a 16-byte shuffle (SSSE3 `pshufb`) multiplies all lanes by the same public constant at once.
//!
//! The fast path is chosen once, at construction ([`Kernel::detect`]): SSSE3 on x86-64 when the
//! CPU has it (run-time detection), the portable lane-by-lane loop everywhere else (wasm32, other
//! CPUs, or the `force-portable` feature). Tests cross-check the two.
//!
//! **Constant-time note.** Every product is a secret symbol times a public constant `c`, computed
//! as `lo_c[s & 15] ^ hi_c[s >> 4]` from two 16-entry tables of `c`. In the SSSE3 kernel the
//! "lookup" is a register shuffle, constant time. In the portable kernel it is a memory load
//! indexed by a secret nibble; both 16-byte tables of a constant sit in one 32-byte-aligned block,
//! i.e. in a single cache line, so cache-line-granular observation learns nothing, but the portable
//! kernel is not constant time against sub-line channels (cache-bank conflicts). The alternative
//! bit-serial product costs about four times as much; a 256-entry table would touch 8 lines.

use crate::field::{Field, Gf256};

/// Number of byte lanes a stage processes at once.
pub(crate) const LANES: usize = 16;

/// `x^e` by square-and-multiply (the exponent is public).
pub(crate) fn pow(x: Gf256, mut e: u32) -> Gf256 {
    let mut base = x;
    let mut acc = Gf256::ONE;
    while e > 0 {
        if e & 1 == 1 {
            acc *= base;
        }
        base = base.square();
        e >>= 1;
    }
    acc
}

/// Multiplication by one public constant through split nibble tables (see the module docs).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(crate) struct ConstMul {
    lo: [u8; 16],
    hi: [u8; 16],
}

impl ConstMul {
    pub(crate) fn new(c: Gf256) -> Self {
        let mut t = ConstMul { lo: [0; 16], hi: [0; 16] };
        for x in 0..16u8 {
            t.lo[x as usize] = (c * Gf256(x)).0;
            t.hi[x as usize] = (c * Gf256(x << 4)).0;
        }
        t
    }

    #[inline(always)]
    pub(crate) fn mul(&self, s: u8) -> u8 {
        self.lo[(s & 15) as usize] ^ self.hi[(s >> 4) as usize]
    }
}

/// Which implementation runs the lane stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// Lane by lane with nibble-table loads; every platform.
    Portable,
    /// 16 lanes per `pshufb`; x86-64 CPUs with SSSE3 only.
    #[cfg(all(target_arch = "x86_64", not(feature = "force-portable")))]
    Ssse3,
}

impl Kernel {
    /// The fastest kernel this CPU supports (the portable one under `force-portable`).
    pub(crate) fn detect() -> Self {
        #[cfg(all(target_arch = "x86_64", not(feature = "force-portable")))]
        if crate::arch::cpu().ssse3 {
            return Kernel::Ssse3;
        }
        Kernel::Portable
    }
}

/// A naive DFT of prime size `P` with a fixed root: `out[u] = Σ_r root^{ur} · in[r]`, one nibble
/// table per non-trivial matrix entry (`(P-1)²` products).
#[derive(Clone, Debug)]
pub(crate) struct SmallDft<const P: usize> {
    /// `rows[u-1][r-1]` multiplies by `root^{ur}`.
    rows: Vec<[ConstMul; 16]>,
}

impl<const P: usize> SmallDft<P> {
    pub(crate) fn new(root: Gf256) -> Self {
        let rows = (1..P)
            .map(|u| {
                let mut row = [ConstMul::new(Gf256::ZERO); 16];
                for r in 1..P {
                    row[r - 1] = ConstMul::new(pow(root, ((u * r) % P) as u32));
                }
                row
            })
            .collect();
        SmallDft { rows }
    }

    /// `data[·][lane] ← DFT(data[·][lane])` for the first `active` lanes (the SIMD kernel
    /// transforms all 16; the extra lanes are scratch).
    #[inline]
    pub(crate) fn apply_lanes(&self, kernel: Kernel, data: &mut [[u8; LANES]; P], active: usize) {
        match kernel {
            Kernel::Portable => self.apply_lanes_portable(data, active),
            #[cfg(all(target_arch = "x86_64", not(feature = "force-portable")))]
            // SAFETY: `Kernel::Ssse3` is only constructed by `Kernel::detect` after
            // `crate::arch::cpu()` reported SSSE3.
            Kernel::Ssse3 => unsafe { self.apply_lanes_ssse3(data) },
        }
    }

    fn apply_lanes_portable(&self, data: &mut [[u8; LANES]; P], active: usize) {
        let columns: [[u8; P]; LANES] = core::array::from_fn(|lane| core::array::from_fn(|r| data[r][lane]));
        for (lane, column) in columns.iter().enumerate().take(active) {
            for (row, x) in data.iter_mut().zip(self.apply_one(column)) {
                row[lane] = x;
            }
        }
    }

    /// One transform, symbol by symbol.
    #[inline]
    fn apply_one(&self, input: &[u8; P]) -> [u8; P] {
        let mut out = [0u8; P];
        out[0] = input.iter().fold(0, |acc, &x| acc ^ x);
        for (o, tables) in out[1..].iter_mut().zip(&self.rows) {
            *o = tables.iter().zip(&input[1..]).fold(input[0], |acc, (t, &x)| acc ^ t.mul(x));
        }
        out
    }

    #[cfg(all(target_arch = "x86_64", not(feature = "force-portable")))]
    #[target_feature(enable = "ssse3")]
    ///
    /// # Safety
    /// The CPU must support SSSE3.
    unsafe fn apply_lanes_ssse3(&self, data: &mut [[u8; LANES]; P]) {
        use core::arch::x86_64::*;
        // SAFETY: SSSE3 is available (the caller's contract; SSE2 is baseline on x86-64), and every
        // load and store is to a live 16-byte array (`[u8; 16]` rows of `data`, `lo`/`hi` of a
        // `ConstMul`) with unaligned access. One block covers the body so that it compiles the same
        // on toolchains that do and do not treat register intrinsics as safe.
        unsafe {
            let low_nibble = _mm_set1_epi8(0x0f);
            let load = |p: &[u8; 16]| _mm_loadu_si128(p.as_ptr().cast());
            let input: [__m128i; P] = core::array::from_fn(|r| load(&data[r]));
            let lo: [__m128i; P] = core::array::from_fn(|r| _mm_and_si128(input[r], low_nibble));
            let hi: [__m128i; P] =
                core::array::from_fn(|r| _mm_and_si128(_mm_srli_epi16(input[r], 4), low_nibble));
            let sum = input.iter().fold(_mm_setzero_si128(), |acc, &x| _mm_xor_si128(acc, x));
            _mm_storeu_si128(data[0].as_mut_ptr().cast(), sum);
            for (u, row) in self.rows.iter().enumerate() {
                let mut acc = input[0];
                for (r, t) in row.iter().enumerate().take(P - 1) {
                    let product = _mm_xor_si128(
                        _mm_shuffle_epi8(load(&t.lo), lo[r + 1]),
                        _mm_shuffle_epi8(load(&t.hi), hi[r + 1]),
                    );
                    acc = _mm_xor_si128(acc, product);
                }
                _mm_storeu_si128(data[u + 1].as_mut_ptr().cast(), acc);
            }
        }
    }
}

/// Length of the DFT.
pub(crate) const N85: usize = 85;
/// Most transforms one [`Dft85::apply_batch`] call takes (5 lanes each in the 17-point stage).
pub(crate) const MAX_BATCH: usize = 3;

/// `GATHER[n1][n2] = (17·n1 + 5·n2) mod 85`: the Good–Thomas input map.
const GATHER: [[u8; 17]; 5] = {
    let mut map = [[0u8; 17]; 5];
    let mut n1 = 0;
    while n1 < 5 {
        let mut n2 = 0;
        while n2 < 17 {
            map[n1][n2] = ((17 * n1 + 5 * n2) % N85) as u8;
            n2 += 1;
        }
        n1 += 1;
    }
    map
};

/// `SCATTER[k1][k2]` is the `k < 85` with `k ≡ k1 (mod 5)` and `k ≡ k2 (mod 17)`: the Good–Thomas
/// output map (`51 ≡ 1 mod 5, ≡ 0 mod 17` and `35 ≡ 0 mod 5, ≡ 1 mod 17`).
const SCATTER: [[u8; 17]; 5] = {
    let mut map = [[0u8; 17]; 5];
    let mut k1 = 0;
    while k1 < 5 {
        let mut k2 = 0;
        while k2 < 17 {
            map[k1][k2] = ((51 * k1 + 35 * k2) % N85) as u8;
            k2 += 1;
        }
        k1 += 1;
    }
    map
};

/// Lanes of the 5-point stage: `17 · MAX_BATCH` columns rounded up to whole 16-lane chunks.
const COLUMN_LANES: usize = (17 * MAX_BATCH).div_ceil(LANES) * LANES;

/// An 85-point DFT `X_k = Σ_n x_n root^{nk}` for a root of order 85, by Good–Thomas 5 × 17: a
/// 17-point DFT along `n2` for each `n1`, then a 5-point DFT along `n1` for each `k2`, with no
/// twiddle factors in between.
#[derive(Clone, Debug)]
pub(crate) struct Dft85 {
    dft17: SmallDft<17>,
    dft5: SmallDft<5>,
    kernel: Kernel,
}

impl Dft85 {
    pub(crate) fn new(root: Gf256, kernel: Kernel) -> Self {
        Dft85 { dft17: SmallDft::new(pow(root, 5)), dft5: SmallDft::new(pow(root, 17)), kernel }
    }

    /// Transforms each of `inputs` (at most [`MAX_BATCH`]) into the matching entry of `outputs`.
    ///
    /// Lanes: in the 17-point stage lane `5i + n1` is row `n1` of transform `i`; in the 5-point
    /// stage lane `17i + k2` (spread over 16-lane chunks) is column `k2` of transform `i`.
    pub(crate) fn apply_batch(&self, inputs: &[[Gf256; N85]], outputs: &mut [[Gf256; N85]]) {
        debug_assert!(inputs.len() <= MAX_BATCH && inputs.len() == outputs.len());
        let count = inputs.len();
        let mut rows = [[0u8; LANES]; 17];
        for (i, input) in inputs.iter().enumerate() {
            for (n1, gather) in GATHER.iter().enumerate() {
                for (row, &n) in rows.iter_mut().zip(gather) {
                    row[5 * i + n1] = input[n as usize].0;
                }
            }
        }
        self.dft17.apply_lanes(self.kernel, &mut rows, 5 * count);

        let mut columns = [[0u8; COLUMN_LANES]; 5];
        for i in 0..count {
            for (k2, row) in rows.iter().enumerate() {
                for (n1, column) in columns.iter_mut().enumerate() {
                    column[17 * i + k2] = row[5 * i + n1];
                }
            }
        }
        let active = 17 * count;
        for start in (0..active).step_by(LANES) {
            let mut chunk: [[u8; LANES]; 5] =
                core::array::from_fn(|n1| columns[n1][start..start + LANES].try_into().expect("16 lanes"));
            self.dft5.apply_lanes(self.kernel, &mut chunk, (active - start).min(LANES));
            for (column, lanes) in columns.iter_mut().zip(&chunk) {
                column[start..start + LANES].copy_from_slice(lanes);
            }
        }
        for (i, output) in outputs.iter_mut().enumerate() {
            for (scatter, column) in SCATTER.iter().zip(&columns) {
                for (&k, &x) in scatter.iter().zip(&column[17 * i..17 * i + 17]) {
                    output[k as usize] = Gf256(x);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngCore, SeedableRng};
    use rand_chacha::ChaCha20Rng;

    /// All kernels this machine can run, the portable one first.
    fn kernels() -> Vec<Kernel> {
        let mut all = vec![Kernel::Portable];
        if Kernel::detect() != Kernel::Portable {
            all.push(Kernel::detect());
        }
        all
    }

    /// `Σ_n x_n root^{nk}` straight from the definition.
    fn naive_dft(input: &[u8], root: Gf256) -> Vec<u8> {
        (0..input.len())
            .map(|k| {
                input
                    .iter()
                    .enumerate()
                    .fold(Gf256::ZERO, |acc, (n, &x)| {
                        acc + Gf256(x) * pow(root, ((n * k) % input.len()) as u32)
                    })
                    .0
            })
            .collect()
    }

    #[test]
    fn const_mul_matches_field_product_exhaustively() {
        for c in 0..=255u8 {
            let table = ConstMul::new(Gf256(c));
            for s in 0..=255u8 {
                assert_eq!(table.mul(s), (Gf256(c) * Gf256(s)).0);
            }
        }
    }

    #[test]
    fn small_dft_kernels_match_the_definition() {
        let mut rng = ChaCha20Rng::seed_from_u64(11);
        let root17 = pow(Gf256(3), 15);
        let dft = SmallDft::<17>::new(root17);
        for kernel in kernels() {
            let mut data = [[0u8; LANES]; 17];
            for row in &mut data {
                rng.fill_bytes(row);
            }
            let original = data;
            dft.apply_lanes(kernel, &mut data, LANES);
            for lane in 0..LANES {
                let column: Vec<u8> = original.iter().map(|row| row[lane]).collect();
                let transformed: Vec<u8> = data.iter().map(|row| row[lane]).collect();
                assert_eq!(transformed, naive_dft(&column, root17), "{kernel:?}, lane {lane}");
            }
        }
    }

    #[test]
    fn dft85_batches_match_the_definition_for_every_kernel() {
        let mut rng = ChaCha20Rng::seed_from_u64(12);
        let root = pow(Gf256(3), 3);
        for kernel in kernels() {
            let dft = Dft85::new(root, kernel);
            for count in 1..=MAX_BATCH {
                let mut inputs = vec![[Gf256::ZERO; N85]; count];
                for input in &mut inputs {
                    input.iter_mut().for_each(|x| *x = Gf256::random(&mut rng));
                }
                let mut outputs = vec![[Gf256::ZERO; N85]; count];
                dft.apply_batch(&inputs, &mut outputs);
                for (input, output) in inputs.iter().zip(&outputs) {
                    let input: Vec<u8> = input.iter().map(|x| x.0).collect();
                    let output: Vec<u8> = output.iter().map(|x| x.0).collect();
                    assert_eq!(output, naive_dft(&input, root), "{kernel:?}, batch of {count}");
                }
            }
        }
    }
}
