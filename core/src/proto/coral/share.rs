//! The two authenticated sharings of Coral side by side (§2.2.1, Fig. 4) and the packing
//! parameters they live in.
//!
//! - [`RShare`]: one party's part of an RMFE sharing `[[y]]`, y ∈ F = GF(2^42) (the field of the
//!   (14, 42)_2-RMFE and (195, 42)_2-MFE of Table 1, Example Param. 1): an additive value share
//!   `y_i` and a SPDZ MAC share `m_i` with `Σ m_i = α · Σ y_i`, α = Σ α_i the global key whose
//!   share α_i each party holds. A forged opening passes the batched check with probability at
//!   most 2/|F| = 2^-41 (random linear combination with coefficients in F, then the MAC relation),
//!   so the statistical security of the MAC layer is 41 bits, matching the paper's "> 40 bits"
//!   for this parameter set.
//! - [`TinyBit`]: one party's part of a TinyOT sharing `[[x]]_B` with pairwise BDOZ MACs over
//!   GF(2^128): party i holds `x_i`, `M_j[x_i]` for every j ≠ i, and its keys `K_i[x_j]`, with
//!   `M_j[x_i] = K_j[x_i] ⊕ x_i·Δ_j` (a forged bit passes with probability 2^-128).
//!
//! Invariant of the online phase (§2.2.4): a wire carries `[[y]]` with ψ(y) = the wire's 14 lane
//! bits; y need not be normal (τ(y) = y) — only φ-images are.

use crate::embed::{CoralEmbedding, Evaluation, LinearMap, CORAL_SET_1};
use crate::field::clmul::Backend;
use crate::field::BinaryField;
use crate::net::PartyId;

use super::error::CoralError;

/// Bits of the field elements: m = 42.
pub const FIELD_BITS: usize = 42;
/// Lanes per packed element: k = 14.
pub const LANES: usize = 14;
const _: () = assert!(FIELD_BITS as u32 <= crate::field::clmul::NARROW_BITS);

/// The RMFE parameters of a Coral session (Table 1, Example Param. 1) with its compiled maps.
#[derive(Debug, Clone)]
pub struct CoralParams {
    field: BinaryField,
    /// The carry-less multiplication backend, chosen once.
    backend: Backend,
    /// φ, ψ, τ in constant time (for secret values, e.g. in the dealer and in rConv).
    secret: CoralEmbedding,
    /// τ with byte tables, for public values only (the opened d, e of a multiplication).
    public_tau: LinearMap,
    public_phi: LinearMap,
}

impl CoralParams {
    /// Builds the (14, 42)_2-RMFE and (195, 42)_2-MFE of Table 1.
    ///
    /// # Errors
    /// [`CoralError::Embed`] if the parameter set fails to build (it does not for Set 1).
    pub fn new() -> Result<Self, CoralError> {
        let secret = CORAL_SET_1.build()?;
        let mut public = secret.clone();
        public.set_evaluation(Evaluation::ByteTable);
        let field = *secret.rmfe.field();
        debug_assert_eq!(secret.rmfe.k(), LANES);
        debug_assert_eq!(secret.rmfe.m(), FIELD_BITS);
        Ok(CoralParams {
            field,
            backend: Backend::detect(),
            public_tau: public.rmfe.tau_map().clone(),
            public_phi: public.rmfe.phi_map().clone(),
            secret,
        })
    }

    /// The field F_{2^42}.
    pub fn field(&self) -> &BinaryField {
        &self.field
    }

    /// The RMFE/MFE pair.
    pub fn embedding(&self) -> &CoralEmbedding {
        &self.secret
    }

    /// φ on 14 lane bits (constant time).
    pub fn phi(&self, lanes: u64) -> u64 {
        self.secret.rmfe.phi_map().apply_word(lanes & ((1 << LANES) - 1))
    }

    /// ψ (constant time).
    pub fn psi(&self, y: u64) -> u64 {
        self.secret.rmfe.psi_map().apply_word(y & self.field.order_minus_one())
    }

    /// τ = φ ∘ ψ (constant time).
    pub fn tau(&self, y: u64) -> u64 {
        self.secret.rmfe.tau_map().apply_word(y & self.field.order_minus_one())
    }

    /// τ of a **public** value (byte tables: the memory access pattern depends on `y`).
    pub fn tau_public(&self, y: u64) -> u64 {
        self.public_tau.apply_word(y & self.field.order_minus_one())
    }

    /// [`tau_public`](Self::tau_public) of every element of `ys`, in place.
    pub fn tau_public_in_place(&self, ys: &mut [u64]) {
        let mask = self.field.order_minus_one();
        ys.iter_mut().for_each(|y| *y &= mask);
        self.public_tau.apply_words_in_place(ys);
    }

    /// φ of **public** lanes (byte tables).
    pub fn phi_public(&self, lanes: u64) -> u64 {
        self.public_phi.apply_word(lanes & ((1 << LANES) - 1))
    }

    /// Field product.
    #[inline]
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        self.field.mul_with(self.backend, a, b)
    }

    /// The unreduced carry-less product (for sums of products reduced once).
    #[inline]
    pub fn clmul(&self, a: u64, b: u64) -> u128 {
        self.field.product_with(self.backend, a, b)
    }

    /// Reduction of an unreduced product or sum of products.
    #[inline]
    pub fn reduce(&self, product: u128) -> u64 {
        self.field.reduce_with(self.backend, product)
    }

    /// `acc[i] += a[i]·b[i]`, unreduced, for every i (one backend call for a whole layer; the
    /// elements of F are narrow operands, below `2^42`).
    pub fn clmul_into(&self, a: &[u64], b: &[u64], acc: &mut [u128]) {
        self.backend.xor_products42_into(a, b, acc);
    }

    /// `out[i]` = `products[i]` reduced, for every i (one backend call).
    pub fn reduce_into(&self, products: &[u128], out: &mut [u64]) {
        self.field.reduce_many(self.backend, products, out);
    }
}

/// One party's part of an authenticated RMFE sharing `[[y]]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RShare {
    /// Additive share of y.
    pub value: u64,
    /// Additive share of α·y.
    pub mac: u64,
}

impl core::ops::Add for RShare {
    type Output = RShare;

    /// `[[x]] + [[y]]` (local).
    #[inline]
    fn add(self, other: RShare) -> RShare {
        RShare { value: self.value ^ other.value, mac: self.mac ^ other.mac }
    }
}

impl RShare {
    /// `c · self` for a public field element c.
    #[inline]
    pub fn scale(self, params: &CoralParams, c: u64) -> RShare {
        RShare { value: params.mul(self.value, c), mac: params.mul(self.mac, c) }
    }

    /// `self + c` for a public c: party 0 adds c to its value share, every party adds α_i·c to
    /// its MAC share.
    #[inline]
    pub fn add_public(self, params: &CoralParams, c: u64, party: PartyId, alpha: u64) -> RShare {
        let value = if party == 0 { self.value ^ c } else { self.value };
        RShare { value, mac: self.mac ^ params.mul(alpha, c) }
    }
}

/// One party's part of a TinyOT sharing `[[x]]_B` among n parties.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TinyBit {
    /// This party's bit share x_i.
    pub bit: bool,
    /// `macs[j] = M_j[x_i]`, the MAC of x_i under party j's key (0 at j = i).
    pub macs: Vec<u128>,
    /// `keys[j] = K_i[x_j]`, this party's key for party j's share (0 at j = i).
    pub keys: Vec<u128>,
}

impl TinyBit {
    /// `self ⊕ other` (XOR of shares, MACs and keys).
    pub fn xor(&self, other: &TinyBit) -> TinyBit {
        TinyBit {
            bit: self.bit ^ other.bit,
            macs: self.macs.iter().zip(&other.macs).map(|(a, b)| a ^ b).collect(),
            keys: self.keys.iter().zip(&other.keys).map(|(a, b)| a ^ b).collect(),
        }
    }

    /// The zero sharing for n parties.
    pub fn zero(parties: usize) -> TinyBit {
        TinyBit { bit: false, macs: vec![0; parties], keys: vec![0; parties] }
    }
}
