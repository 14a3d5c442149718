//! The material of the online phase and the provider that makes it over OT among the parties.
//!
//! [`Material`] is what one evaluation consumes: one AND triple `⟨a⟩, ⟨b⟩, ⟨c = a·b⟩` per AND gate
//! and instance, and one random authenticated bit per input wire and instance (the mask its owner
//! learns), in the pairwise-MAC layout of [`NBits`] under this party's `Δ`. [`OtProvider`] makes
//! it with the TinyOT engine of the session's size — the two-party engine (KRRW18 half-gate leaky
//! AND) between two parties, WRK17's n-party leaky AND and bucketing among three or more
//! ([`crate::ot::multi`]) — so nobody but the parties is trusted, and its checks (40-bit
//! statistical security) make a deviating party fail every honest party with
//! [`TinyOtError::Ot`] before any material is returned.

use super::error::TinyOtError;
use crate::circuit::Circuit;
use crate::net::{Network, PartyId};
use crate::ot::any_tiny::Tiny;
use crate::ot::multi::NBits;
use crate::ot::{Block, Extension};
use rand_core::{CryptoRng, RngCore};

/// The OT extension of the two-party engine (the n-party one picks its own).
const TWO_PARTY_EXTENSION: Extension = Extension::SoftSpoken { k: crate::ot::tinyot::SOFTSPOKEN_K };

/// How much material an evaluation needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Demand {
    /// AND triples: AND gates × instances.
    pub triples: usize,
    /// Input masks: input wires × instances.
    pub masks: usize,
}

impl Demand {
    /// The demand of `instances` instances of `circuit`.
    pub fn of(circuit: &Circuit, instances: usize) -> Demand {
        Demand {
            triples: circuit.gate_counts().and.saturating_mul(instances),
            masks: circuit.num_input_wires().saturating_mul(instances),
        }
    }
}

/// One party's material for one evaluation (see the module docs).
#[derive(Debug, Clone)]
pub struct Material {
    pub(super) me: PartyId,
    pub(super) parties: usize,
    pub(super) delta: Block,
    /// The triples' components `a`, `b`, `c`, one entry per AND gate and instance in evaluation
    /// order (layer by layer, gate by gate, instance by instance).
    pub(super) triples: [NBits; 3],
    /// One mask per input wire and instance (instance-major: instance `i`, wire `w` at
    /// `i · input wires + w`).
    pub(super) masks: NBits,
}

impl Material {
    /// The material's demand.
    pub fn demand(&self) -> Demand {
        Demand { triples: self.triples[0].len(), masks: self.masks.len() }
    }
}

/// Makes [`Material`] over OT among the session's parties (see the module docs). One provider
/// serves any number of evaluations of a session: its OT extensions are set up once.
pub struct OtProvider {
    tiny: Tiny,
    me: PartyId,
    parties: usize,
}

impl core::fmt::Debug for OtProvider {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OtProvider").field("me", &self.me).field("parties", &self.parties).finish()
    }
}

impl OtProvider {
    /// Sets up the TinyOT engine among every party of `net` (each calls this with the same
    /// `session` tag).
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        session: &[u8],
        rng: &mut R,
    ) -> Result<Self, TinyOtError> {
        let tiny = Tiny::setup(net, session, TWO_PARTY_EXTENSION, rng).await?;
        Ok(OtProvider { tiny, me: net.party(), parties: net.parties() })
    }

    /// This party's global MAC key `Δ`.
    pub fn delta(&self) -> Block {
        self.tiny.delta()
    }

    /// Makes the material of `demand` (the triples in calls of at most the engine's bound).
    pub async fn make<N: Network, R: RngCore + CryptoRng>(
        &mut self,
        net: &mut N,
        demand: Demand,
        rng: &mut R,
    ) -> Result<Material, TinyOtError> {
        let me = self.me;
        let chunk = self.tiny.most_triples().unwrap_or(usize::MAX).max(1);
        let mut triples: [NBits; 3] =
            core::array::from_fn(|_| NBits::with_capacity(self.parties, me, demand.triples));
        let mut made = 0;
        while made < demand.triples {
            let count = (demand.triples - made).min(chunk);
            let mut part = self.tiny.and_triples(net, count, rng).await?.into_nbits(me);
            for (all, part) in triples.iter_mut().zip(&mut part) {
                all.append(part);
            }
            made += count;
        }
        let masks = if demand.masks == 0 {
            NBits::with_capacity(self.parties, me, 0)
        } else {
            self.tiny.abits(net, demand.masks, rng).await?.into_nbits(me)
        };
        Ok(Material { me, parties: self.parties, delta: self.delta(), triples, masks })
    }
}
