//! Who supplies each input and who learns each output of a two-party TinyTable evaluation: the
//! role specification shared by the binary-circuit protocol ([`super::circuit`]) and the S-box
//! table protocol ([`super::sbox`]).

use super::error::TinyTableError;
use crate::circuit::Circuit;
use crate::net::PartyId;

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
