//! The **trusted-dealer** preprocessing provider of Coral.
//!
//! **Trust model:** a third party that knows the MAC keys (α and every Δ_i) and every secret of
//! the material samples it (Fig. 4, 𝓕_prep, played by one honest machine) and hands each party
//! its shares. Security holds only if the dealer is honest and colludes with nobody; the online
//! phase's malicious security (against any number of corrupt parties) is relative to that. The
//! paper's own route — TinyOT triples from OT and COPE for input authentication (§4.3.3) — is
//! [`super::ot::OtProvider`] (two parties, no trusted party); Π_rQuintuple (Fig. 7) on top of
//! tTriples serves both ([`super::quintuple`]).

use core::future::Future;

use rand_core::{CryptoRng, RngCore};

use crate::net::{Network, PartyId};
use crate::proto::coral::error::CoralError;
use crate::proto::coral::share::{CoralParams, RShare, TinyBit};

use super::{CoralMaterial, Cursors, Demand, Encoding, InputMask, Preprocessing, Quintuple};

/// Largest session the dealer serves (pairwise TinyOT keys grow quadratically).
pub const MAX_PARTIES: usize = 16;

/// The trusted dealer (see the module docs for its trust model).
///
/// Its MAC keys — each party's α_i and Δ_i — are drawn at its first deal and kept for every later
/// deal to as many parties, as one SPDZ preprocessing serves many online phases: material from
/// several deals of one dealer is under the same keys, so a party can join it into one online
/// phase ([`CoralMaterial::join`]).
#[derive(Debug)]
pub struct TrustedDealer<R> {
    rng: R,
    /// `(α_i, Δ_i)` of every party, once drawn.
    keys: Option<(Vec<u64>, Vec<u128>)>,
}

impl<R: RngCore + CryptoRng> TrustedDealer<R> {
    /// A dealer drawing its randomness from `rng`.
    pub fn new(rng: R) -> Self {
        TrustedDealer { rng, keys: None }
    }

    /// Every party's `(α_i, Δ_i)`: the kept ones, or fresh ones for a deal to another number of
    /// parties (kept from then on).
    fn keys(&mut self, params: &CoralParams, parties: usize) -> (Vec<u64>, Vec<u128>) {
        if self.keys.as_ref().is_none_or(|(alphas, _)| alphas.len() != parties) {
            let alphas: Vec<u64> = (0..parties).map(|_| self.element(params)).collect();
            let deltas: Vec<u128> = (0..parties)
                .map(|_| u128::from(self.rng.next_u64()) << 64 | u128::from(self.rng.next_u64()))
                .collect();
            self.keys = Some((alphas, deltas));
        }
        self.keys.clone().expect("drawn above")
    }

    fn element(&mut self, params: &CoralParams) -> u64 {
        params.field().random(&mut self.rng)
    }

    /// Additive shares of v with MAC shares of α·v.
    fn share(&mut self, params: &CoralParams, alpha: u64, v: u64, parties: usize) -> Vec<RShare> {
        let mac = params.mul(alpha, v);
        let mut out: Vec<RShare> = (0..parties - 1)
            .map(|_| RShare { value: self.element(params), mac: self.element(params) })
            .collect();
        let rest = out.iter().fold(RShare { value: v, mac }, |acc, s| acc + *s);
        out.push(rest);
        out
    }

    fn tiny(&mut self, x: bool, deltas: &[u128]) -> Vec<TinyBit> {
        let n = deltas.len();
        let mut bits: Vec<bool> = (0..n - 1).map(|_| self.rng.next_u32() & 1 == 1).collect();
        bits.push(bits.iter().fold(x, |a, &b| a ^ b));
        let mut out: Vec<TinyBit> = bits.iter().map(|&bit| TinyBit { bit, ..TinyBit::zero(n) }).collect();
        for i in 0..n {
            for j in (0..n).filter(|&j| j != i) {
                let key = u128::from(self.rng.next_u64()) << 64 | u128::from(self.rng.next_u64());
                out[j].keys[i] = key;
                out[i].macs[j] = key ^ if bits[i] { deltas[j] } else { 0 };
            }
        }
        out
    }

    /// Deals material covering `demand` to `parties` parties (index = party).
    ///
    /// # Errors
    /// [`CoralError::Limit`] unless 2 ≤ parties ≤ [`MAX_PARTIES`] and `demand.input_masks` has at
    /// most `parties` owners.
    pub fn deal(
        &mut self,
        params: &CoralParams,
        parties: usize,
        demand: &Demand,
    ) -> Result<Vec<CoralMaterial>, CoralError> {
        if !(2..=MAX_PARTIES).contains(&parties) {
            return Err(CoralError::Limit { what: "parties", found: parties, limit: MAX_PARTIES });
        }
        if demand.input_masks.len() > parties {
            return Err(CoralError::Limit {
                what: "input-mask owners",
                found: demand.input_masks.len(),
                limit: parties,
            });
        }
        let (alphas, deltas) = self.keys(params, parties);
        let alpha = alphas.iter().fold(0, |a, b| a ^ b);
        let mut out: Vec<CoralMaterial> = (0..parties)
            .map(|party| CoralMaterial {
                party,
                parties,
                alpha: alphas[party],
                delta: deltas[party],
                quintuples: Vec::with_capacity(demand.quintuples),
                later_quintuples: Vec::new(),
                encodings: Vec::with_capacity(demand.encodings),
                input_masks: vec![Vec::new(); parties],
                tbits: Vec::with_capacity(demand.tbits),
                ttriples: Vec::with_capacity(demand.ttriples),
                cursor: Cursors { input_masks: vec![0; parties], ..Cursors::default() },
            })
            .collect();
        for _ in 0..demand.quintuples {
            let a = self.element(params);
            let b = self.element(params);
            let c = params.phi(params.psi(a) & params.psi(b));
            let values = [a, b, c, params.tau(a), params.tau(b)];
            let shares: Vec<Vec<RShare>> =
                values.iter().map(|&v| self.share(params, alpha, v, parties)).collect();
            for (p, m) in out.iter_mut().enumerate() {
                m.quintuples.push(Quintuple {
                    a: shares[0][p],
                    b: shares[1][p],
                    c: shares[2][p],
                    tau_a: shares[3][p],
                    tau_b: shares[4][p],
                });
            }
        }
        for _ in 0..demand.encodings {
            let r = self.element(params);
            let rs = self.share(params, alpha, r, parties);
            let ts = self.share(params, alpha, params.tau(r), parties);
            for (p, m) in out.iter_mut().enumerate() {
                m.encodings.push(Encoding { r: rs[p], tau_r: ts[p] });
            }
        }
        for (owner, &count) in demand.input_masks.iter().enumerate() {
            for _ in 0..count {
                let r = self.element(params);
                let rs = self.share(params, alpha, r, parties);
                for (p, m) in out.iter_mut().enumerate() {
                    m.input_masks[owner].push(InputMask { share: rs[p], value: (p == owner).then_some(r) });
                }
            }
        }
        for _ in 0..demand.tbits {
            let x = self.rng.next_u32() & 1 == 1;
            for (m, bit) in out.iter_mut().zip(self.tiny(x, &deltas)) {
                m.tbits.push(bit);
            }
        }
        for _ in 0..demand.ttriples {
            let a = self.rng.next_u32() & 1 == 1;
            let b = self.rng.next_u32() & 1 == 1;
            let sa = self.tiny(a, &deltas);
            let sb = self.tiny(b, &deltas);
            let sc = self.tiny(a & b, &deltas);
            for (p, m) in out.iter_mut().enumerate() {
                m.ttriples.push([sa[p].clone(), sb[p].clone(), sc[p].clone()]);
            }
        }
        Ok(out)
    }
}

/// A party's view of the trusted dealer: hands out the material dealt to it in advance.
#[derive(Debug, Clone)]
pub struct DealtMaterial {
    material: Option<CoralMaterial>,
}

impl DealtMaterial {
    /// Wraps one party's dealt material.
    pub fn new(material: CoralMaterial) -> Self {
        DealtMaterial { material: Some(material) }
    }
}

impl Preprocessing for DealtMaterial {
    fn name(&self) -> &'static str {
        "trusted-dealer"
    }

    fn material<N: Network>(
        &mut self,
        net: &mut N,
        demand: &Demand,
    ) -> impl Future<Output = Result<CoralMaterial, CoralError>> {
        let (party, parties): (PartyId, usize) = (net.party(), net.parties());
        let taken = self.material.take();
        let demand = demand.clone();
        async move {
            let material = taken.ok_or(CoralError::MaterialExhausted {
                kind: "dealt material (already handed out)",
                needed: 1,
                available: 0,
            })?;
            if material.party != party || material.parties != parties {
                return Err(CoralError::MaterialMismatch {
                    party,
                    parties,
                    found_party: material.party,
                    found_parties: material.parties,
                });
            }
            material.covers(&demand)?;
            Ok(material)
        }
    }
}
