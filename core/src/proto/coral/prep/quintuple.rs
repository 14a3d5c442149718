//! Π_rQuintuple (§4.2, Fig. 7): quintuples from TinyOT triples, ΠrConv and sacrificing — the
//! part of the paper's preprocessing that sits above the OT engine. The TinyOT triples and the
//! input masks it consumes come here from the material: the trusted dealer's, or — inside
//! [`super::ot::OtProvider`] — the TinyOT engine's triples and COPE-authenticated masks (§4.3.3).
//!
//! Steps (Fig. 7; s = [`RCONV_SECURITY`], k = 14):
//! 1. take (s + N)·k tTriples `([[x]]_B, [[y]]_B, [[z]]_B)`;
//! 2. rConv all three bit vectors: `â_j = φ(x-group j)`, `b̂_j = φ(y-group j)`,
//!    `c_j = φ(z-group j)`, normal and consistent (Fig. 6);
//! 3. P_i samples `a^i_j ∈ ψ^{-1}(its x shares of group j)` (φ of its shares plus a uniform
//!    kernel element u + τ(u)) and `b^i_j` likewise; 4. rInput them; 5. `[[a_j]] = Σ_i [[a^i_j]]`;
//! 6. public random bit vectors r_h (coin toss); 7. open `d_h = Σ_j r_{h,j} â_j + â_{N+h}`,
//!    `e_h = Σ_j r_{h,j} a_j + a_{N+h}`, and `f_h`, `g_h` for b̂, b; 8. check τ(e_h) = d_h and
//!    τ(g_h) = f_h ([`Check::QuintupleSacrifice`]); 9. the openings join the MAC-check log;
//! 10. output `(a_j, b_j, c_j, â_j, b̂_j)` for j < N.
//!
//! (The paper's step 7 prints `a` for both d and e; the check of step 8 only makes sense with
//! d on â and e on a, which is what Theorem 4's proof sketch describes.) A party whose a^i_j is
//! off by ε ∉ ker ψ fails each h with probability 1/2, so the sacrifice errs with ≤ 2^-s.

use rand_core::RngCore;

use crate::net::Network;
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::Step;
use crate::proto::coral::online::Party;
use crate::proto::coral::rconv::{self, RCONV_SECURITY};
use crate::proto::coral::share::{RShare, LANES};

use super::{Demand, Quintuple};
use crate::proto::coral::checks::coin_toss;

/// The material generating `count` quintuples consumes.
pub fn demand(parties: usize, count: usize) -> Demand {
    let total = count + RCONV_SECURITY;
    let mut d = rconv::demand(parties, 3 * total);
    d.ttriples = total * LANES;
    for m in d.input_masks.iter_mut() {
        *m += 2 * total;
    }
    d
}

impl Party {
    /// Π_rQuintuple (Fig. 7): `count` quintuples.
    ///
    /// # Errors
    /// [`CoralError::CheckFailed`] with [`Check::QuintupleSacrifice`] or an rConv check if a
    /// party deviated; material or network errors.
    pub async fn generate_quintuples<N: Network>(
        &mut self,
        net: &mut N,
        count: usize,
    ) -> Result<Vec<Quintuple>, CoralError> {
        let s = RCONV_SECURITY;
        let total = count + s;
        // 1. and 2.
        let triples = self.material.take_ttriples(total * LANES)?;
        let bits: Vec<_> = (0..3).flat_map(|t| triples.iter().map(move |tr| tr[t].clone())).collect();
        let converted = self.rconv(net, &bits).await?;
        let (hat_a, rest) = converted.split_at(total);
        let (hat_b, c) = rest.split_at(total);
        // 3. and 4.
        let group = |t: usize, j: usize| {
            triples[j * LANES..(j + 1) * LANES]
                .iter()
                .enumerate()
                .fold(0u64, |acc, (h, tr)| acc | u64::from(tr[t].bit) << h)
        };
        let mut own = Vec::with_capacity(2 * total);
        for t in 0..2 {
            for j in 0..total {
                let u = self.params.field().random(&mut self.rng);
                own.push(self.params.phi(group(t, j)) ^ u ^ self.params.tau(u));
            }
        }
        let owners: Vec<usize> =
            (0..self.parties).flat_map(|owner| std::iter::repeat_n(owner, 2 * total)).collect();
        let inputs = self.input_elements(net, Step::QuintupleInput, &owners, &own).await?;
        // 5.
        let mut ab = vec![RShare::default(); 2 * total];
        for per_owner in inputs.chunks_exact(2 * total) {
            for (acc, v) in ab.iter_mut().zip(per_owner) {
                *acc = *acc + *v;
            }
        }
        let (a, b) = ab.split_at(total);
        // 6.
        let mut coins = coin_toss(&mut self.channel, net, &mut self.rng).await?;
        let r: Vec<Vec<bool>> =
            (0..s).map(|_| (0..count).map(|_| coins.next_u32() & 1 == 1).collect()).collect();
        // 7.
        let combine = |v: &[RShare], h: usize| {
            r[h].iter().enumerate().filter(|(_, &bit)| bit).fold(v[count + h], |acc, (j, _)| acc + v[j])
        };
        let mut checks = Vec::with_capacity(4 * s);
        for h in 0..s {
            checks.extend([combine(hat_a, h), combine(a, h), combine(hat_b, h), combine(b, h)]);
        }
        let opened = self.open(net, Step::QuintupleSacrifice, &checks).await?;
        // 8.
        for dfeg in opened.chunks_exact(4) {
            let (d, e, f, g) = (dfeg[0], dfeg[1], dfeg[2], dfeg[3]);
            if self.params.tau(e) != d || self.params.tau(g) != f {
                return Err(CoralError::failed(Check::QuintupleSacrifice));
            }
        }
        // 10.
        Ok((0..count)
            .map(|j| Quintuple { a: a[j], b: b[j], c: c[j], tau_a: hat_a[j], tau_b: hat_b[j] })
            .collect())
    }
}
