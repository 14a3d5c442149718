//! Carry-less multiplication, the one backend under every GF(2^k) with k > 8 in Chorus.
//!
//! A carry-less product multiplies two polynomials over GF(2) given as bit strings (bit i is the
//! coefficient of x^i). [`Gf64`](super::Gf64), [`Gf128`](super::Gf128) and the runtime-described
//! [`BinaryField`](super::BinaryField) all multiply through this module, then reduce.
//!
//! Backends, chosen in one place ([`Backend::detect`]: at run time from [`crate::arch::cpu`]
//! natively, at compile time from the `simd128` target feature on wasm32):
//! - `Backend::Pclmulqdq` (`x86`): x86-64 `PCLMULQDQ`, selected at run time, so binaries run on
//!   any x86-64; its batch kernels (many independent products, their reductions, sums of
//!   products) take four products per step with 256-bit `VPCLMULQDQ` where the CPU has it
//!   (`Cpu::vpclmulqdq`), cross-checked against the one-at-a-time kernels in the tests;
//! - `Backend::Simd128` (`wasm`, wasm32 built with `target-feature=+simd128`, as the WASM
//!   builds are): four 32×32 "holes" products per 64×64 product with `i64x2.extmul_*_i32x4_u`;
//!   beside it, `wasm_scalar` multiplies many GF(2^64) elements by one fixed public element
//!   with `i8x16.swizzle` nibble tables (the MAESTRO verification's folds and powers of a coin);
//! - [`Backend::Portable`] ([`portable`]): constant-time 64-bit integer code everywhere else
//!   (non-x86 native, wasm32 without SIMD), and everywhere when the `force-portable` feature is on.
//!
//! All backends are constant time: no branch or memory index depends on the operands (the
//! portable and wasm ones use only integer multiplication, masks and fixed shuffles), so they are
//! safe on secret shares and MAC keys.
//!
//! Operands below 2^42 ([`NARROW_BITS`]: the elements of every field of degree at most 42, such
//! as Coral's GF(2^42), and the operands of their Barrett reductions) may take the narrow products
//! ([`Backend::clmul42`], [`Backend::xor_products42_into`], [`Backend::xor_sum_of_products42`]):
//! on x86-64 the same instruction, in the portable and wasm backends Karatsuba over 21-bit halves
//! with three bit classes, 27 multiplications per product instead of 48. [`BarrettConstants`]
//! picks them by the field's degree.
//!
//! Reductions without a hardware product: a Barrett reduction multiplies by two public constants
//! (`⌊x^m · r / f⌋` and `r`, for `f = x^m + r`); when they have few terms together (the
//! trinomials and pentanomials Chorus uses: Coral's x^42 + x^29 + x^2 + x + 1 gives 6 + 4),
//! each product is a shift and an XOR per term instead of a software carry-less product.
//!
//! Inner products use lazy reduction (MAESTRO §4): the unreduced products are XOR-accumulated and
//! the caller reduces the sum once; the portable and wasm backends also defer the masking of
//! their class sums to once per sum.
//!
//! Invariant: every backend returns bit-identical results; the tests check each available one
//! against a schoolbook reference, and [`self_check`] does the same where `cargo test` cannot run
//! (the WASM module under Node, `scripts/bench-wasm.mjs`).

pub mod portable;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod wasm_scalar;
#[cfg(target_arch = "x86_64")]
mod x86;

/// Operands of the narrow products ([`Backend::clmul42`]) are below `2^NARROW_BITS`.
pub const NARROW_BITS: u32 = 42;

/// A carry-less multiplication backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Constant-time integer arithmetic, available everywhere.
    Portable,
    /// x86-64 `PCLMULQDQ` (only constructed when the CPU has it).
    #[cfg(target_arch = "x86_64")]
    Pclmulqdq,
    /// wasm32 SIMD (`i64x2.extmul_*_i32x4_u`), when compiled with `target-feature=+simd128`.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
}

impl Backend {
    /// The fastest backend this CPU supports (the portable one under `force-portable`).
    #[inline]
    pub fn detect() -> Self {
        if cfg!(feature = "force-portable") {
            return Backend::Portable;
        }
        Self::native().unwrap_or(Backend::Portable)
    }

    /// Every backend usable on this CPU, portable first (for cross-checks and benchmarks; ignores
    /// `force-portable`).
    pub fn available() -> Vec<Self> {
        core::iter::once(Backend::Portable).chain(Self::native()).collect()
    }

    /// The hardware backend: PCLMULQDQ if this CPU has it.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn native() -> Option<Self> {
        crate::arch::Cpu::detected().pclmulqdq.then_some(Backend::Pclmulqdq)
    }

    /// The SIMD backend the module was compiled for.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline]
    fn native() -> Option<Self> {
        Some(Backend::Simd128)
    }

    /// No fast path on this target.
    #[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
    #[inline]
    fn native() -> Option<Self> {
        None
    }

    /// The 128-bit carry-less product of `a` and `b`.
    #[inline]
    pub fn clmul64(self, a: u64, b: u64) -> u128 {
        match self {
            Backend::Portable => portable::clmul64(a, b),
            // SAFETY: `Pclmulqdq` is only constructed after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { x86::clmul64(a, b) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Backend::Simd128 => wasm::clmul64(a, b),
        }
    }

    /// The carry-less product of `a` and `b`, both below `2^42` ([`NARROW_BITS`]), as
    /// [`clmul64`](Self::clmul64) computes it for such operands (for a wider operand the result
    /// is unspecified).
    #[inline]
    pub fn clmul42(self, a: u64, b: u64) -> u128 {
        match self {
            // SAFETY: `Pclmulqdq` is only constructed after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { x86::clmul64(a, b) },
            // One product: wasm32's scalar 64-bit multiplication, as in the portable backend.
            _ => portable::clmul42(a, b),
        }
    }

    /// The two 128-bit carry-less products `[a[0]·b[0], a[1]·b[1]]` (the wasm backend computes
    /// them together, sharing its vector multiplications).
    #[inline]
    pub fn clmul64x2(self, a: [u64; 2], b: [u64; 2]) -> [u128; 2] {
        match self {
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Backend::Simd128 => wasm::clmul64x2(a, b),
            backend => [backend.clmul64(a[0], b[0]), backend.clmul64(a[1], b[1])],
        }
    }

    /// The two products `[a[0]·b[0], a[1]·b[1]]` reduced in GF(2^64) (as
    /// [`Gf64::reduce`](super::Gf64::reduce) does; the wasm backend reduces both in vector
    /// lanes).
    #[inline]
    pub fn gf64_mul_pair(self, a: [u64; 2], b: [u64; 2]) -> [u64; 2] {
        match self {
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Backend::Simd128 => wasm::gf64_mul_pair(a, b),
            backend => {
                let [p, q] = backend.clmul64x2(a, b);
                [super::Gf64::reduce(p).0, super::Gf64::reduce(q).0]
            }
        }
    }

    /// The 256-bit carry-less product `[low, high]` of `a` and `b`.
    #[inline]
    pub fn clmul128(self, a: u128, b: u128) -> [u128; 2] {
        match self {
            Backend::Portable => portable::clmul128(a, b),
            // SAFETY: `Pclmulqdq` is only constructed after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { x86::clmul128(a, b) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Backend::Simd128 => wasm::clmul128(a, b),
        }
    }

    /// XOR of the unreduced products `a[i] · b[i]` (over the shorter length).
    pub fn xor_sum_of_products64(self, a: &[u64], b: &[u64]) -> u128 {
        match self {
            Backend::Portable => portable::xor_sum_of_products64(a, b),
            // SAFETY: `Pclmulqdq` is only constructed after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { x86::xor_sum_of_products64(a, b) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Backend::Simd128 => wasm::xor_sum_of_products64(a, b),
        }
    }

    /// [`xor_sum_of_products64`](Self::xor_sum_of_products64) for operands below `2^42`
    /// ([`NARROW_BITS`]; for a wider one the result is unspecified).
    pub fn xor_sum_of_products42(self, a: &[u64], b: &[u64]) -> u128 {
        match self {
            Backend::Portable => a.iter().zip(b).fold(0, |acc, (&x, &y)| acc ^ portable::clmul42(x, y)),
            // SAFETY: `Pclmulqdq` is only constructed after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { x86::xor_sum_of_products64(a, b) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Backend::Simd128 => wasm::xor_sum_of_products42(a, b),
        }
    }

    /// `acc[i] ^= a[i] · b[i]` (unreduced) for every i (over the shortest length): many
    /// independent products in one call, so the hardware backend's loop runs with its instruction
    /// inlined.
    pub fn xor_products64_into(self, a: &[u64], b: &[u64], acc: &mut [u128]) {
        match self {
            Backend::Portable => xor_pairs_into(a, b, acc, |x, y| {
                [portable::clmul64(x[0], y[0]), portable::clmul64(x[1], y[1])]
            }),
            // SAFETY: `Pclmulqdq` is only constructed after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { x86::xor_products64_into(a, b, acc) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Backend::Simd128 => xor_pairs_into(a, b, acc, wasm::clmul64x2),
        }
    }

    /// [`xor_products64_into`](Self::xor_products64_into) for operands below `2^42`
    /// ([`NARROW_BITS`]; for a wider one the result is unspecified): `acc[i] ^= a[i] · b[i]`.
    pub fn xor_products42_into(self, a: &[u64], b: &[u64], acc: &mut [u128]) {
        match self {
            Backend::Portable => xor_pairs_into(a, b, acc, |x, y| {
                [portable::clmul42(x[0], y[0]), portable::clmul42(x[1], y[1])]
            }),
            // SAFETY: `Pclmulqdq` is only constructed after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { x86::xor_products64_into(a, b, acc) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Backend::Simd128 => xor_pairs_into(a, b, acc, wasm::clmul42x2),
        }
    }

    /// Barrett reduction of each unreduced product with `field`'s constants, as
    /// [`BinaryField::reduce_with`](super::BinaryField::reduce_with) does one at a time.
    pub(crate) fn barrett_many(self, products: &[u128], field: BarrettConstants, out: &mut [u64]) {
        match self {
            // SAFETY: `Pclmulqdq` is only constructed after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { x86::barrett_many(products, field, out) },
            backend => {
                for (&p, o) in products.iter().zip(out.iter_mut()) {
                    *o = field.reduce(backend, p);
                }
            }
        }
    }

    /// XOR of the unreduced 256-bit products `a[i] · b[i]` as `[low, high]` (over the shorter
    /// length).
    pub fn xor_sum_of_products128(self, a: &[u128], b: &[u128]) -> [u128; 2] {
        match self {
            Backend::Portable => portable::xor_sum_of_products128(a, b),
            // SAFETY: `Pclmulqdq` is only constructed after detecting the CPU feature.
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => unsafe { x86::xor_sum_of_products128(a, b) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Backend::Simd128 => wasm::xor_sum_of_products128(a, b),
        }
    }
}

/// `acc[i] ^= a[i] · b[i]` over the shortest length, two products per call of `pair` (an odd last
/// one paired with zero).
#[inline(always)]
fn xor_pairs_into(a: &[u64], b: &[u64], acc: &mut [u128], pair: impl Fn([u64; 2], [u64; 2]) -> [u128; 2]) {
    let n = a.len().min(b.len()).min(acc.len());
    for k in (0..n).step_by(2) {
        let two = k + 1 < n;
        let (x, y) = if two { ([a[k], a[k + 1]], [b[k], b[k + 1]]) } else { ([a[k], 0], [b[k], 0]) };
        let [p, q] = pair(x, y);
        acc[k] ^= p;
        if two {
            acc[k + 1] ^= q;
        }
    }
}

/// Most terms of a Barrett reduction's two constants for which shifts and XORs replace a
/// software carry-less product (each term costs a shift and an XOR; a product, dozens of
/// operations).
const SPARSE_TERMS: u32 = 16;

/// The bits of a narrow operand.
const NARROW_MASK: u64 = (1 << NARROW_BITS) - 1;

/// The constants of a Barrett reduction modulo `x^m + modulus_low` (see
/// [`BinaryField`](super::BinaryField)).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BarrettConstants {
    pub m: u32,
    pub barrett_low: u64,
    pub modulus_low: u64,
    pub mask: u64,
}

impl BarrettConstants {
    /// One reduction with `backend`'s product. Without a hardware product, constants with few
    /// terms (most fields' moduli are trinomials or pentanomials) are multiplied by shifts
    /// ([`reduce_sparse`](Self::reduce_sparse)), and fields of degree at most [`NARROW_BITS`]
    /// (whose quotient and modulus operands are all below `2^m`) take the narrow product.
    #[inline(always)]
    pub fn reduce(self, backend: Backend, product: u128) -> u64 {
        match backend {
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmulqdq => self.reduce_by(product, |a, b| backend.clmul64(a, b)),
            _ if self.is_sparse() => self.reduce_sparse(product),
            _ if self.m <= NARROW_BITS => self.reduce_by(product, |a, b| backend.clmul42(a, b)),
            _ => self.reduce_by(product, |a, b| backend.clmul64(a, b)),
        }
    }

    /// Whether both constants together have at most [`SPARSE_TERMS`] terms.
    #[inline(always)]
    fn is_sparse(self) -> bool {
        self.barrett_low.count_ones() + self.modulus_low.count_ones() <= SPARSE_TERMS
    }

    /// The reduction with both constant products as shifts and XORs, one per term of the
    /// constant. The loops run over the bits of the public constants; the operand is only
    /// shifted by them and XORed, so the time does not depend on it.
    #[inline(always)]
    fn reduce_sparse(self, product: u128) -> u64 {
        let high = (product >> self.m) as u64;
        // The quotient's correction `(high · barrett_low) >> m`, term by term: shifts commute
        // with XOR, and every term's bit is below m, so each is `high >> (m − bit)` (in two
        // steps: m may be 64).
        let (mut q, mut c) = (0u64, self.barrett_low);
        while c != 0 {
            q ^= (high >> 1) >> (self.m - 1 - c.trailing_zeros());
            c &= c - 1;
        }
        let quotient = high ^ q;
        // Only the low m bits of `quotient · modulus_low` are kept: 64-bit shifts suffice.
        let (mut r, mut c) = (0u64, self.modulus_low);
        while c != 0 {
            r ^= quotient << c.trailing_zeros();
            c &= c - 1;
        }
        (product as u64 ^ r) & self.mask
    }

    /// One reduction with the given product (inlined into each backend's loop).
    #[inline(always)]
    pub fn reduce_by(self, product: u128, clmul: impl Fn(u64, u64) -> u128) -> u64 {
        let high = (product >> self.m) as u64;
        let quotient = high ^ (clmul(high, self.barrett_low) >> self.m) as u64;
        (product ^ clmul(quotient, self.modulus_low)) as u64 & self.mask
    }
}

/// The 128-bit carry-less product with the detected backend.
#[inline]
pub fn clmul64(a: u64, b: u64) -> u128 {
    Backend::detect().clmul64(a, b)
}

/// The 256-bit carry-less product `[low, high]` with the detected backend.
#[inline]
pub fn clmul128(a: u128, b: u128) -> [u128; 2] {
    Backend::detect().clmul128(a, b)
}

/// Textbook shift-and-XOR product, the reference every backend is checked against.
fn schoolbook64(a: u64, b: u64) -> u128 {
    (0..64).filter(|i| (b >> i) & 1 == 1).fold(0, |acc, i| acc ^ (u128::from(a) << i))
}

/// `p` modulo `x^m + modulus_low` by long division, bit by bit (the reference of the reductions).
fn reference_reduce(mut p: u128, m: u32, modulus_low: u64) -> u64 {
    let modulus = 1u128 << m | u128::from(modulus_low);
    for bit in (m..128).rev() {
        if (p >> bit) & 1 == 1 {
            p ^= modulus << (bit - m);
        }
    }
    p as u64
}

/// Cross-checks every backend available here against the schoolbook product on `cases`
/// pseudo-random operand pairs (and the extreme operands), single products, narrow products,
/// 128-bit products, inner products and element-wise products and reductions (sparse and dense
/// moduli, narrow and wide fields) of every length up to 20. For targets where `cargo test`
/// cannot run (the WASM module under Node); the unit tests cover the same ground natively.
///
/// # Errors
/// The first mismatch, described.
pub fn self_check(cases: u32) -> Result<(), String> {
    let mut rng = crate::rng::seeded_rng(0x243f_6a88_85a3_08d3);
    let mut next = move || rand_core::RngCore::next_u64(&mut rng);
    let extremes = [(u64::MAX, u64::MAX), (1 << 63, 1 << 63), (0, u64::MAX), (1, 1)];
    let pairs: Vec<(u64, u64)> = extremes.into_iter().chain((0..cases).map(|_| (next(), next()))).collect();
    let gf42 = super::BinaryField::new(42, (1 << 29) | 0b111).map_err(|e| e.to_string())?;
    let gf48 = super::BinaryField::new(48, crate::embed::GF2_48_MODULUS_LOW).map_err(|e| e.to_string())?;
    // Dense moduli: their reductions take carry-less products, narrow and wide.
    let dense40 = super::BinaryField::new(40, 0xf2_1fb1_7c23).map_err(|e| e.to_string())?;
    let dense61 = super::BinaryField::new(61, 0x0762_50ff_f52d_df5d).map_err(|e| e.to_string())?;
    for backend in Backend::available() {
        let fail = |what: &str, a: &dyn core::fmt::Debug| Err(format!("{backend:?} {what} {a:?}"));
        for &(a, b) in &pairs {
            if backend.clmul64(a, b) != schoolbook64(a, b) {
                return fail("clmul64", &(a, b));
            }
            let (c, d) = (u128::from(a) << 64 | u128::from(b), u128::from(b) << 64 | u128::from(!a));
            if backend.clmul128(c, d) != Backend::Portable.clmul128(c, d) {
                return fail("clmul128", &(c, d));
            }
            if backend.clmul64x2([a, !b], [b, a]) != [schoolbook64(a, b), schoolbook64(!b, a)] {
                return fail("clmul64x2", &(a, b));
            }
            let (x, y) = (a & NARROW_MASK, b & NARROW_MASK);
            if backend.clmul42(x, y) != schoolbook64(x, y) {
                return fail("clmul42", &(x, y));
            }
            let reduced = |p: u128| super::Gf64::reduce(p).0;
            if backend.gf64_mul_pair([a, !b], [b, a])
                != [reduced(schoolbook64(a, b)), reduced(schoolbook64(!b, a))]
            {
                return fail("gf64_mul_pair", &(a, b));
            }
        }
        for len in 0..=20.min(pairs.len()) {
            let (a, b): (Vec<u64>, Vec<u64>) = pairs[..len].iter().copied().unzip();
            let want = a.iter().zip(&b).fold(0, |acc, (&x, &y)| acc ^ schoolbook64(x, y));
            if backend.xor_sum_of_products64(&a, &b) != want {
                return fail("xor_sum_of_products64 of length", &len);
            }
            let wide: Vec<u128> =
                a.iter().zip(&b).map(|(&x, &y)| u128::from(x) << 64 | u128::from(y)).collect();
            let want = wide.iter().rev().zip(&wide).fold([0, 0], |acc, (&x, &y)| {
                let p = Backend::Portable.clmul128(x, y);
                [acc[0] ^ p[0], acc[1] ^ p[1]]
            });
            let rev: Vec<u128> = wide.iter().rev().copied().collect();
            if backend.xor_sum_of_products128(&rev, &wide) != want {
                return fail("xor_sum_of_products128 of length", &len);
            }
            let mut acc: Vec<u128> = wide.clone();
            backend.xor_products64_into(&a, &b, &mut acc);
            if acc
                .iter()
                .zip(&wide)
                .zip(a.iter().zip(&b))
                .any(|((&z, &w), (&x, &y))| z != w ^ schoolbook64(x, y))
            {
                return fail("xor_products64_into of length", &len);
            }
            let (an, bn): (Vec<u64>, Vec<u64>) =
                a.iter().zip(&b).map(|(&x, &y)| (x & NARROW_MASK, y & NARROW_MASK)).unzip();
            let want = an.iter().zip(&bn).fold(0, |acc, (&x, &y)| acc ^ schoolbook64(x, y));
            if backend.xor_sum_of_products42(&an, &bn) != want {
                return fail("xor_sum_of_products42 of length", &len);
            }
            let mut narrow: Vec<u128> = wide.clone();
            backend.xor_products42_into(&an, &bn, &mut narrow);
            if narrow
                .iter()
                .zip(&wide)
                .zip(an.iter().zip(&bn))
                .any(|((&z, &w), (&x, &y))| z != w ^ schoolbook64(x, y))
            {
                return fail("xor_products42_into of length", &len);
            }
            // Products of elements (degree below 2m), reduced in narrow and wide fields with
            // sparse and dense moduli.
            for field in [gf42, gf48, dense40, dense61] {
                let m = field.m();
                let products: Vec<u128> = a
                    .iter()
                    .zip(&b)
                    .map(|(&x, &y)| schoolbook64(x & field.order_minus_one(), y & field.order_minus_one()))
                    .collect();
                let want: Vec<u64> =
                    products.iter().map(|&p| reference_reduce(p, m, field.modulus_low())).collect();
                let mut reduced = vec![0u64; len];
                field.reduce_many(backend, &products, &mut reduced);
                if reduced != want {
                    return fail("reduce_many of length", &(m, len));
                }
                if products.iter().zip(&want).any(|(&p, &r)| field.reduce_with(backend, p) != r) {
                    return fail("reduce_with", &m);
                }
            }
        }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    for chunk in pairs.chunks_exact(wasm_scalar::LANES) {
        let c = chunk[0].1;
        let scalar = wasm_scalar::Gf64Scalar::new(c);
        let mut x: [u64; wasm_scalar::LANES] = core::array::from_fn(|e| chunk[e].0);
        let want = x.map(|a| super::Gf64::reduce(schoolbook64(a, c)).0);
        scalar.mul_in_place(&mut x);
        if x != want {
            return Err(format!("wasm_scalar::Gf64Scalar by {c:#x} on {chunk:?}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn schoolbook128(a: u128, b: u128) -> [u128; 2] {
        let mut out = [0u128; 2];
        for i in 0..128 {
            if (b >> i) & 1 == 1 {
                out[0] ^= a << i;
                if i > 0 {
                    out[1] ^= a >> (128 - i);
                }
            }
        }
        out
    }

    #[test]
    fn extreme_operands() {
        for backend in Backend::available() {
            assert_eq!(backend.clmul64(u64::MAX, u64::MAX), schoolbook64(u64::MAX, u64::MAX));
            assert_eq!(backend.clmul64(1 << 63, 1 << 63), 1 << 126);
            assert_eq!(backend.clmul42(NARROW_MASK, NARROW_MASK), schoolbook64(NARROW_MASK, NARROW_MASK));
            assert_eq!(backend.clmul42(1 << 41, 1 << 41), 1 << 82);
            assert_eq!(backend.clmul128(u128::MAX, u128::MAX), schoolbook128(u128::MAX, u128::MAX));
            assert_eq!(backend.clmul128(1 << 127, 1 << 127), [0, 1 << 126]);
        }
    }

    #[test]
    fn self_check_passes() {
        assert_eq!(self_check(500), Ok(()));
    }

    #[test]
    fn detect_picks_an_available_backend() {
        assert!(Backend::available().contains(&Backend::detect()));
        assert_eq!(Backend::available()[0], Backend::Portable);
        if cfg!(feature = "force-portable") {
            assert_eq!(Backend::detect(), Backend::Portable);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(0xc1a5), ..ProptestConfig::default() })]

        #[test]
        fn backends_match_schoolbook(a: u64, b: u64, c: u128, d: u128) {
            prop_assert_eq!(
                u128::from(portable::clmul32(a as u32, b as u32)),
                schoolbook64(a & 0xffff_ffff, b & 0xffff_ffff)
            );
            for backend in Backend::available() {
                prop_assert_eq!(backend.clmul64(a, b), schoolbook64(a, b));
                let (x, y) = (a & NARROW_MASK, b & NARROW_MASK);
                prop_assert_eq!(backend.clmul42(x, y), schoolbook64(x, y));
                prop_assert_eq!(backend.clmul64x2([a, c as u64], [b, d as u64]), [schoolbook64(a, b), schoolbook64(c as u64, d as u64)]);
                let reduced = |p: u128| crate::field::Gf64::reduce(p).0;
                prop_assert_eq!(backend.gf64_mul_pair([a, c as u64], [b, d as u64]), [reduced(schoolbook64(a, b)), reduced(schoolbook64(c as u64, d as u64))]);
                prop_assert_eq!(backend.clmul128(c, d), schoolbook128(c, d));
            }
        }

        #[test]
        fn sums_of_products_match(xs in proptest::collection::vec(any::<(u64, u64)>(), 0..19),
                                  ys in proptest::collection::vec(any::<(u128, u128)>(), 0..9)) {
            let (a, b): (Vec<u64>, Vec<u64>) = xs.into_iter().unzip();
            let expected = a.iter().zip(&b).fold(0, |acc, (&x, &y)| acc ^ schoolbook64(x, y));
            let (c, d): (Vec<u128>, Vec<u128>) = ys.into_iter().unzip();
            let expected128 = c.iter().zip(&d).fold([0, 0], |acc, (&x, &y)| {
                let p = schoolbook128(x, y);
                [acc[0] ^ p[0], acc[1] ^ p[1]]
            });
            for backend in Backend::available() {
                prop_assert_eq!(backend.xor_sum_of_products64(&a, &b), expected);
                prop_assert_eq!(backend.xor_sum_of_products128(&c, &d), expected128);
            }
        }
    }
}
