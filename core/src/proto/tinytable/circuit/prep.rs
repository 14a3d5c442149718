//! The passive material of the binary (AND-table) protocol, Fig. 6 of the paper (free-XOR
//! variant of Fig. 1), and the [`Preprocessing`] trait its providers implement.
//!
//! [`BinaryPrep`] is exactly what one party's online phase ([`crate::proto::tinytable::circuit::online`]) consumes for one
//! evaluation of one circuit: its share of the scrambled table of every AND gate, the wire masks of
//! the input wires it owns and the wire masks of the output wires revealed to it. XOR and NOT
//! gates get no table, their masks are derived (`r_o = r_u ⊕ r_v`, `r_o = r_u`), and only AND
//! gates get fresh masks and tables. Providers live in [`crate::proto::tinytable::prep`].

use crate::circuit::Circuit;
use crate::net::PartyId;
use crate::proto::tinytable::error::TinyTableError;
use crate::proto::tinytable::spec::IoSpec;

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
    #[cfg(test)]
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
