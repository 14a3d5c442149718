//! Preprocessed material of the binary (AND-table) protocol and the trusted-dealer provider of it.
//!
//! [`BinaryPrep`] is exactly what one party's online phase ([`super::online`]) consumes for one
//! evaluation of one circuit: its share of the scrambled table of every AND gate, the wire masks of
//! the input wires it owns and the wire masks of the output wires revealed to it. This is the
//! material of Fig. 6 (free-XOR variant of Fig. 1): XOR and NOT gates get no table, their masks are
//! derived (`r_o = r_u ⊕ r_v`, `r_o = r_u`), and only AND gates get fresh masks and tables.
//!
//! **Trust model of [`TrustedDealer`]:** a third party that sees every mask and both table shares
//! generates the material and hands each party its half. Security holds only if the dealer is
//! honest and does not collude with either party. The paper's two-party preprocessing (Fig. 8,
//! from TinyOT) is in [`super::fig8`]: each party obtains its [`BinaryPrep`]s from a joint run,
//! and the online phase does not change.

use super::error::TinyTableError;
use super::slice::{lane_words, SlicedPrep};
use crate::circuit::{Circuit, LinearGate};
use crate::net::PartyId;
use rand_core::{CryptoRng, RngCore};

/// Who learns an output value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reveal {
    /// Both parties.
    Both,
    /// Only this party.
    To(PartyId),
}

impl Reveal {
    /// Whether `party` learns the value.
    pub fn includes(self, party: PartyId) -> bool {
        match self {
            Reveal::Both => true,
            Reveal::To(p) => p == party,
        }
    }
}

/// Who supplies each input value of a circuit and who learns each output value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IoSpec {
    /// Owner (0 or 1) of each input value, in circuit order.
    pub input_owners: Vec<PartyId>,
    /// Recipients of each output value, in circuit order.
    pub reveal: Vec<Reveal>,
}

impl IoSpec {
    /// Checks the specification against `circuit`: one owner per input value, one [`Reveal`] per
    /// output value, all parties 0 or 1.
    pub fn check(&self, circuit: &Circuit) -> Result<(), TinyTableError> {
        if self.input_owners.len() != circuit.input_widths().len() {
            return Err(TinyTableError::BadIoSpec(format!(
                "{} input owners for {} input values",
                self.input_owners.len(),
                circuit.input_widths().len()
            )));
        }
        if self.reveal.len() != circuit.output_widths().len() {
            return Err(TinyTableError::BadIoSpec(format!(
                "{} reveal entries for {} output values",
                self.reveal.len(),
                circuit.output_widths().len()
            )));
        }
        let bad_owner = self.input_owners.iter().find(|&&p| p > 1);
        let bad_reveal = self.reveal.iter().find(|r| matches!(r, Reveal::To(p) if *p > 1));
        if let Some(p) = bad_owner {
            return Err(TinyTableError::BadIoSpec(format!("input owner {p} is not party 0 or 1")));
        }
        if let Some(r) = bad_reveal {
            return Err(TinyTableError::BadIoSpec(format!("{r:?} names a party other than 0 or 1")));
        }
        Ok(())
    }

    /// The input wires owned by `party`, in wire order.
    pub(crate) fn owned_input_wires(&self, circuit: &Circuit, party: PartyId) -> Vec<usize> {
        self.input_owners
            .iter()
            .enumerate()
            .filter(|(_, &owner)| owner == party)
            .flat_map(|(value, _)| circuit.input_wires(value).into_iter().flatten())
            .collect()
    }

    /// The output wires revealed to `party`, in wire order.
    pub(crate) fn revealed_output_wires(&self, circuit: &Circuit, party: PartyId) -> Vec<usize> {
        self.reveal
            .iter()
            .enumerate()
            .filter(|(_, r)| r.includes(party))
            .flat_map(|(value, _)| circuit.output_wires(value).into_iter().flatten())
            .collect()
    }
}

/// One party's preprocessed material for one evaluation of one binary circuit (Fig. 6).
///
/// Each AND gate's table share has 4 one-bit entries indexed by the masked input bits `(c, d)`
/// (entry bit `2c + d`); two tables are packed per byte (gate `g` in the low nibble of byte `g / 2`
/// when `g` is even, the high nibble when odd), so [`Self::table_bytes`] is `ceil(4·ANDs / 8)`.
#[derive(Clone, PartialEq, Eq)]
pub struct BinaryPrep {
    pub(crate) party: PartyId,
    pub(crate) io: IoSpec,
    pub(crate) and_gates: usize,
    pub(crate) tables: Vec<u8>,
    pub(crate) input_masks: Vec<bool>,
    pub(crate) output_masks: Vec<bool>,
}

impl core::fmt::Debug for BinaryPrep {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Masks and table shares are secret: never print them.
        f.debug_struct("BinaryPrep").field("party", &self.party).field("and_gates", &self.and_gates).finish()
    }
}

impl BinaryPrep {
    /// The party this material belongs to.
    pub fn party(&self) -> PartyId {
        self.party
    }

    /// The input/output specification the material was made for.
    pub fn io(&self) -> &IoSpec {
        &self.io
    }

    /// Number of AND tables.
    pub fn and_gates(&self) -> usize {
        self.and_gates
    }

    /// Bytes of table shares held by this party: `ceil(4 · ANDs / 8)` (the paper's §5 count: masks
    /// are not included).
    pub fn table_bytes(&self) -> usize {
        self.tables.len()
    }

    /// This party's share of AND gate `gate`'s table (4 bits).
    pub(crate) fn table(&self, gate: usize) -> u8 {
        self.tables[gate / 2] >> (4 * (gate % 2)) & 0xf
    }

    /// Checks that this material fits `circuit` and party `party`.
    pub(crate) fn check(&self, circuit: &Circuit, party: PartyId) -> Result<(), TinyTableError> {
        let mismatch = |reason: String| Err(TinyTableError::PrepMismatch { party, reason });
        if self.party != party {
            return mismatch(format!("material is for party {}", self.party));
        }
        self.io.check(circuit)?;
        let ands = circuit.gate_counts().and;
        if self.and_gates != ands || self.tables.len() != ands.div_ceil(2) {
            return mismatch(format!("{} AND tables for a circuit with {ands} AND gates", self.and_gates));
        }
        if self.input_masks.len() != self.io.owned_input_wires(circuit, party).len() {
            return mismatch("input mask count differs from owned input wires".into());
        }
        if self.output_masks.len() != self.io.revealed_output_wires(circuit, party).len() {
            return mismatch("output mask count differs from revealed output wires".into());
        }
        Ok(())
    }
}

/// A source of preprocessed material for both parties at once.
///
/// Implemented by [`TrustedDealer`]. A two-party preprocessing protocol (Fig. 8) produces each
/// party's half in a joint run instead; it yields the same [`BinaryPrep`] values.
pub trait Preprocessing {
    /// Material for one evaluation of `circuit` with inputs and outputs as in `io`: element `p` is
    /// party `p`'s.
    fn binary(&mut self, circuit: &Circuit, io: &IoSpec) -> Result<[BinaryPrep; 2], TinyTableError>;
}

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
    /// batch layout (64 instances per word) for [`super::online::evaluate_sliced`].
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
