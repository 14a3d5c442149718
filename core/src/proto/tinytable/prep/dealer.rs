//! The trusted-dealer provider of the binary protocol's material (Fig. 6): [`BinaryPrep`] one
//! instance at a time and [`SlicedPrep`] for whole batches.
//!
//! **Trust model of [`TrustedDealer`]:** a third party that sees every mask and both table shares
//! generates the material and hands each party its half. Security holds only if the dealer is
//! honest and does not collude with either party. The paper's two-party preprocessing (Fig. 8,
//! from TinyOT) is in [`crate::proto::tinytable::prep::fig8`]: each party obtains its [`BinaryPrep`]s from a joint run,
//! and the online phase does not change. The dealer's malicious and S-box-table material is dealt
//! in [`super::dealer_malicious`] and [`super::dealer_sbox`].

use crate::circuit::{Circuit, LinearGate};
use crate::net::PartyId;
use crate::proto::tinytable::circuit::prep::{BinaryPrep, Preprocessing};
use crate::proto::tinytable::circuit::slice::{lane_words, SlicedPrep};
use crate::proto::tinytable::error::TinyTableError;
use crate::proto::tinytable::spec::IoSpec;
use rand_core::{CryptoRng, RngCore};

/// The trusted-dealer preprocessing provider (see the module docs for its trust model): samples
/// masks and table shares from the cryptographically secure `rng` it owns.
#[derive(Debug)]
pub struct TrustedDealer<R> {
    rng: R,
}

impl<R: RngCore + CryptoRng> TrustedDealer<R> {
    /// A dealer drawing its randomness from `rng`.
    pub fn new(rng: R) -> Self {
        TrustedDealer { rng }
    }

    /// The dealer's random source (the S-box table dealer shares it).
    pub(crate) fn rng(&mut self) -> &mut R {
        &mut self.rng
    }

    fn bit(&mut self) -> bool {
        self.rng.next_u32() & 1 == 1
    }

    /// Material for `instances` independent evaluations of `circuit` (one batch).
    pub fn binary_batch(
        &mut self,
        circuit: &Circuit,
        io: &IoSpec,
        instances: usize,
    ) -> Result<[Vec<BinaryPrep>; 2], TinyTableError> {
        let mut out = [Vec::with_capacity(instances), Vec::with_capacity(instances)];
        for _ in 0..instances {
            let [a, b] = self.binary(circuit, io)?;
            out[0].push(a);
            out[1].push(b);
        }
        Ok(out)
    }
}

impl<R: RngCore + CryptoRng> TrustedDealer<R> {
    /// Material for `instances` evaluations of `circuit`, generated directly in the bit-sliced
    /// batch layout (64 instances per word) for [`crate::proto::tinytable::circuit::online::evaluate_sliced`].
    pub fn sliced_batch(
        &mut self,
        circuit: &Circuit,
        io: &IoSpec,
        instances: usize,
    ) -> Result<[SlicedPrep; 2], TinyTableError> {
        let masks = SlicedMasks::sample(&mut self.rng, circuit, io, instances)?;
        let make = |party: PartyId, tables: Vec<u64>| SlicedPrep {
            party,
            io: io.clone(),
            instances,
            and_gates: masks.and_gates,
            tables,
            input_masks: masks.rows(io.owned_input_wires(circuit, party)),
            output_masks: masks.rows(io.revealed_output_wires(circuit, party)),
        };
        let [a, b] = masks.table_shares(&mut self.rng);
        Ok([make(0, a), make(1, b)])
    }
}

/// Wire masks of a whole batch, sampled by a dealer in the bit-sliced layout (Fig. 6 steps 1–2:
/// fresh masks on input and AND-output wires, derived masks on linear gates), with the masks of
/// each AND gate's wires recorded for its table.
pub(crate) struct SlicedMasks {
    pub(crate) lanes: usize,
    pub(crate) and_gates: usize,
    /// Word `w·L + l`: mask of wire `w`.
    pub(crate) mask: Vec<u64>,
    /// Per AND gate (layer order): its input and output wires.
    pub(crate) gates: Vec<crate::circuit::AndGate>,
}

impl SlicedMasks {
    pub(crate) fn sample<R: RngCore>(
        rng: &mut R,
        circuit: &Circuit,
        io: &IoSpec,
        instances: usize,
    ) -> Result<SlicedMasks, TinyTableError> {
        io.check(circuit)?;
        let l = lane_words(instances);
        let mut mask = vec![0u64; circuit.num_wires() * l];
        for m in mask.iter_mut().take(circuit.num_input_wires() * l) {
            *m = rng.next_u64();
        }
        let mut gates = Vec::with_capacity(circuit.gate_counts().and);
        for layer in circuit.layers() {
            for gate in layer.and_gates {
                for j in 0..l {
                    mask[gate.out as usize * l + j] = rng.next_u64();
                }
                gates.push(*gate);
            }
            for gate in layer.linear_gates {
                for j in 0..l {
                    mask[gate.out() as usize * l + j] = match *gate {
                        LinearGate::Xor { a, b, .. } => mask[a as usize * l + j] ^ mask[b as usize * l + j],
                        LinearGate::Inv { a, .. } | LinearGate::Copy { a, .. } => mask[a as usize * l + j],
                        LinearGate::Const { .. } => 0,
                    };
                }
            }
        }
        Ok(SlicedMasks { lanes: l, and_gates: gates.len(), mask, gates })
    }

    /// The masks of `wires`, row after row.
    pub(crate) fn rows(&self, wires: Vec<usize>) -> Vec<u64> {
        let l = self.lanes;
        wires.into_iter().flat_map(|w| self.mask[w * l..(w + 1) * l].iter().copied()).collect()
    }

    /// The full table of every AND gate (word `(4g + e)·L + l`, Fig. 6 step 2: entry `(c, d)` is
    /// `r_o ⊕ ((c ⊕ r_u) ∧ (d ⊕ r_v))`).
    pub(crate) fn tables(&self) -> Vec<u64> {
        let l = self.lanes;
        let mut out = vec![0u64; 4 * self.gates.len() * l];
        for (g, gate) in self.gates.iter().enumerate() {
            for j in 0..l {
                let (ru, rv, ro) = (
                    self.mask[gate.a as usize * l + j],
                    self.mask[gate.b as usize * l + j],
                    self.mask[gate.out as usize * l + j],
                );
                for e in 0..4 {
                    let c = 0u64.wrapping_sub(e as u64 >> 1);
                    let d = 0u64.wrapping_sub(e as u64 & 1);
                    out[(4 * g + e) * l + j] = ro ^ ((c ^ ru) & (d ^ rv));
                }
            }
        }
        out
    }

    /// The tables split into two random XOR shares.
    pub(crate) fn table_shares<R: RngCore>(&self, rng: &mut R) -> [Vec<u64>; 2] {
        let b = self.tables();
        let a: Vec<u64> = b.iter().map(|_| rng.next_u64()).collect();
        let b = b.iter().zip(&a).map(|(t, s)| t ^ s).collect();
        [a, b]
    }
}

impl<R: RngCore + CryptoRng> Preprocessing for TrustedDealer<R> {
    fn binary(&mut self, circuit: &Circuit, io: &IoSpec) -> Result<[BinaryPrep; 2], TinyTableError> {
        io.check(circuit)?;
        let mut mask = vec![false; circuit.num_wires()];
        for m in mask.iter_mut().take(circuit.num_input_wires()) {
            *m = self.bit();
        }
        let ands = circuit.gate_counts().and;
        let mut tables = [vec![0u8; ands.div_ceil(2)], vec![0u8; ands.div_ceil(2)]];
        let mut gate_index = 0;
        for layer in circuit.layers() {
            for gate in layer.and_gates {
                let (ru, rv) = (mask[gate.a as usize], mask[gate.b as usize]);
                let ro = self.bit();
                mask[gate.out as usize] = ro;
                // Fig. 6 step 2: entry (c, d) of A ⊕ B is r_o ⊕ ((c ⊕ r_u) ∧ (d ⊕ r_v)).
                let mut table = 0u8;
                for entry in 0..4u8 {
                    let (c, d) = (entry >> 1 == 1, entry & 1 == 1);
                    table |= u8::from(ro ^ ((c ^ ru) & (d ^ rv))) << entry;
                }
                let share_a = (self.rng.next_u32() & 0xf) as u8;
                let shift = 4 * (gate_index % 2);
                tables[0][gate_index / 2] |= share_a << shift;
                tables[1][gate_index / 2] |= (share_a ^ table) << shift;
                gate_index += 1;
            }
            for gate in layer.linear_gates {
                mask[gate.out() as usize] = match *gate {
                    LinearGate::Xor { a, b, .. } => mask[a as usize] ^ mask[b as usize],
                    LinearGate::Inv { a, .. } | LinearGate::Copy { a, .. } => mask[a as usize],
                    LinearGate::Const { .. } => false,
                };
            }
        }
        let [tables_a, tables_b] = tables;
        let make = |party: PartyId, tables: Vec<u8>| BinaryPrep {
            party,
            io: io.clone(),
            and_gates: ands,
            tables,
            input_masks: io.owned_input_wires(circuit, party).into_iter().map(|w| mask[w]).collect(),
            output_masks: io.revealed_output_wires(circuit, party).into_iter().map(|w| mask[w]).collect(),
        };
        Ok([make(0, tables_a), make(1, tables_b)])
    }
}
