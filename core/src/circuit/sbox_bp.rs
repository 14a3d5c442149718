//! The AES S-box as a boolean circuit with 32 AND gates, after Boyar and Peralta.
//!
//! Source: J. Boyar, R. Peralta, "A new combinational logic minimization technique with applications
//! to cryptology", SEA 2010, LNCS 6049, pp. 178–189 (and the journal version, J. Boyar, P. Matthews,
//! R. Peralta, "Logic minimization techniques with applications to cryptology", J. Cryptology 26(2),
//! 2013): the S-box is split into a linear top layer (inputs `x0..x7` to `y1..y21`), a non-linear
//! middle part computing the GF(2^8) inversion with 32 AND gates (`t2..t45` and `z0..z17`) and a
//! linear bottom layer (to `s0..s7`, including the affine constant through four XNORs). The variable
//! names follow the paper, where `x0` and `s0` are the most significant bits of the input and
//! output bytes.
//!
//! Gate counts as built here: 32 AND, 83 XOR and 4 INV (each XNOR is an XOR followed by an INV);
//! AND-depth 6. The test `sbox_matches_fips197_on_all_256_inputs` checks all 256 inputs.
//!
//! The gate list is written once, over any [`Gates`]: the circuit builder (the AES circuit of the
//! two-party protocols) and bit-sliced registers (`crate::arch::sliced_aes`, the software AES of
//! the WASM build, where each gate is one SIMD instruction on 128 S-box evaluations at once).

use super::builder::{CircuitBuilder, Wire};

/// A set of boolean gates the S-box can be written with: wires of a circuit being built, or
/// registers of bit-sliced values.
pub trait Gates {
    /// One signal: a wire, or a register holding one bit of many independent evaluations.
    type Bit: Copy;
    /// `a ⊕ b`.
    fn xor(&mut self, a: Self::Bit, b: Self::Bit) -> Self::Bit;
    /// `¬(a ⊕ b)`.
    fn xnor(&mut self, a: Self::Bit, b: Self::Bit) -> Self::Bit;
    /// `a ∧ b`.
    fn and(&mut self, a: Self::Bit, b: Self::Bit) -> Self::Bit;
}

impl Gates for CircuitBuilder {
    type Bit = Wire;
    fn xor(&mut self, a: Wire, b: Wire) -> Wire {
        CircuitBuilder::xor(self, a, b)
    }
    fn xnor(&mut self, a: Wire, b: Wire) -> Wire {
        CircuitBuilder::xnor(self, a, b)
    }
    fn and(&mut self, a: Wire, b: Wire) -> Wire {
        CircuitBuilder::and(self, a, b)
    }
}

/// The S-box over `b`. `input[i]` and the returned `[i]` are bit `i` (least significant first)
/// of the input and output bytes.
#[inline(always)]
pub fn sbox<G: Gates>(b: &mut G, input: [G::Bit; 8]) -> [G::Bit; 8] {
    let [x7, x6, x5, x4, x3, x2, x1, x0] = input;

    // Top linear layer.
    let y14 = b.xor(x3, x5);
    let y13 = b.xor(x0, x6);
    let y9 = b.xor(x0, x3);
    let y8 = b.xor(x0, x5);
    let t0 = b.xor(x1, x2);
    let y1 = b.xor(t0, x7);
    let y4 = b.xor(y1, x3);
    let y12 = b.xor(y13, y14);
    let y2 = b.xor(y1, x0);
    let y5 = b.xor(y1, x6);
    let y3 = b.xor(y5, y8);
    let t1 = b.xor(x4, y12);
    let y15 = b.xor(t1, x5);
    let y20 = b.xor(t1, x1);
    let y6 = b.xor(y15, x7);
    let y10 = b.xor(y15, t0);
    let y11 = b.xor(y20, y9);
    let y7 = b.xor(x7, y11);
    let y17 = b.xor(y10, y11);
    let y19 = b.xor(y10, y8);
    let y16 = b.xor(t0, y11);
    let y21 = b.xor(y13, y16);
    let y18 = b.xor(x0, y16);

    // Non-linear middle: inversion in GF(2^8) through GF(2^4).
    let t2 = b.and(y12, y15);
    let t3 = b.and(y3, y6);
    let t4 = b.xor(t3, t2);
    let t5 = b.and(y4, x7);
    let t6 = b.xor(t5, t2);
    let t7 = b.and(y13, y16);
    let t8 = b.and(y5, y1);
    let t9 = b.xor(t8, t7);
    let t10 = b.and(y2, y7);
    let t11 = b.xor(t10, t7);
    let t12 = b.and(y9, y11);
    let t13 = b.and(y14, y17);
    let t14 = b.xor(t13, t12);
    let t15 = b.and(y8, y10);
    let t16 = b.xor(t15, t12);
    let t17 = b.xor(t4, t14);
    let t18 = b.xor(t6, t16);
    let t19 = b.xor(t9, t14);
    let t20 = b.xor(t11, t16);
    let t21 = b.xor(t17, y20);
    let t22 = b.xor(t18, y19);
    let t23 = b.xor(t19, y21);
    let t24 = b.xor(t20, y18);

    let t25 = b.xor(t21, t22);
    let t26 = b.and(t21, t23);
    let t27 = b.xor(t24, t26);
    let t28 = b.and(t25, t27);
    let t29 = b.xor(t28, t22);
    let t30 = b.xor(t23, t24);
    let t31 = b.xor(t22, t26);
    let t32 = b.and(t31, t30);
    let t33 = b.xor(t32, t24);
    let t34 = b.xor(t23, t33);
    let t35 = b.xor(t27, t33);
    let t36 = b.and(t24, t35);
    let t37 = b.xor(t36, t34);
    let t38 = b.xor(t27, t36);
    let t39 = b.and(t29, t38);
    let t40 = b.xor(t25, t39);

    let t41 = b.xor(t40, t37);
    let t42 = b.xor(t29, t33);
    let t43 = b.xor(t29, t40);
    let t44 = b.xor(t33, t37);
    let t45 = b.xor(t42, t41);
    let z0 = b.and(t44, y15);
    let z1 = b.and(t37, y6);
    let z2 = b.and(t33, x7);
    let z3 = b.and(t43, y16);
    let z4 = b.and(t40, y1);
    let z5 = b.and(t29, y7);
    let z6 = b.and(t42, y11);
    let z7 = b.and(t45, y17);
    let z8 = b.and(t41, y10);
    let z9 = b.and(t44, y12);
    let z10 = b.and(t37, y3);
    let z11 = b.and(t33, y4);
    let z12 = b.and(t43, y13);
    let z13 = b.and(t40, y5);
    let z14 = b.and(t29, y2);
    let z15 = b.and(t42, y9);
    let z16 = b.and(t45, y14);
    let z17 = b.and(t41, y8);

    // Bottom linear layer (with the affine constant 0x63 folded into the XNORs).
    let t46 = b.xor(z15, z16);
    let t47 = b.xor(z10, z11);
    let t48 = b.xor(z5, z13);
    let t49 = b.xor(z9, z10);
    let t50 = b.xor(z2, z12);
    let t51 = b.xor(z2, z5);
    let t52 = b.xor(z7, z8);
    let t53 = b.xor(z0, z3);
    let t54 = b.xor(z6, z7);
    let t55 = b.xor(z16, z17);
    let t56 = b.xor(z12, t48);
    let t57 = b.xor(t50, t53);
    let t58 = b.xor(z4, t46);
    let t59 = b.xor(z3, t54);
    let t60 = b.xor(t46, t57);
    let t61 = b.xor(z14, t57);
    let t62 = b.xor(t52, t58);
    let t63 = b.xor(t49, t58);
    let t64 = b.xor(z4, t59);
    let t65 = b.xor(t61, t62);
    let t66 = b.xor(z1, t63);
    let s0 = b.xor(t59, t63);
    let s6 = b.xnor(t56, t62);
    let s7 = b.xnor(t48, t60);
    let t67 = b.xor(t64, t65);
    let s3 = b.xor(t53, t66);
    let s4 = b.xor(t51, t66);
    let s5 = b.xor(t47, t65);
    let s1 = b.xnor(t64, s3);
    let s2 = b.xnor(t55, t67);

    [s7, s6, s5, s4, s3, s2, s1, s0]
}
