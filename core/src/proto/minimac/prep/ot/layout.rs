//! The contributed words of one chunk, in the fixed order both parties use (the "slots"), who
//! contributes to each, and which check covers it.
//!
//! Order: per triple [`PER_TRIPLE`] slots (8 planes of `a`, 8 of `b`, the `c` word, `R_a`, `R_b`,
//! `R_c`); one slot per input wire (its owner only); two per private output wire (`C(s)` from the
//! recipient, a zero-data `R` from every other party); then the check masks: [`CODEWORD_REPS`]
//! masks in `C`, [`CODEWORD_REPS`] zero-data masks in `C*`, [`CONSISTENCY_REPS`] masks in `C` of
//! TinyOT mask bits.

use crate::net::PartyId;

/// Repetitions of the codeword checks (2^-8 each): 2^-40.
pub const CODEWORD_REPS: usize = 5;
/// Repetitions of the TinyOT consistency check (2^-1 each): 2^-40.
pub const CONSISTENCY_REPS: usize = 40;
/// Slots per triple.
pub(crate) const PER_TRIPLE: usize = 20;
/// Slot of the `c` word within a triple's slots (planes of `a` are 0..8, of `b` 8..16).
pub(crate) const C_WORD: usize = 16;
/// Slot of `R_a` (then `R_b`, `R_c`).
pub(crate) const R_A: usize = 17;

/// Who contributes to a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Who {
    /// Every party (a random shared word).
    All,
    /// Only this party; every other party's value share is 0.
    Only(PartyId),
    /// Every party but this one (whose value share is 0).
    Except(PartyId),
}

impl Who {
    pub(crate) fn includes(self, party: PartyId) -> bool {
        match self {
            Who::All => true,
            Who::Only(p) => p == party,
            Who::Except(p) => p != party,
        }
    }
}

/// The slots of one chunk.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    /// Triples in this chunk.
    pub triples: usize,
    /// Instances the material is for (`1..=8·k`): the TinyOT triples of a MiniMac triple are for
    /// positions `p < instances` (`p = 8j + i`: bit `i` of data byte `j`); the data of every
    /// other position is 0.
    pub instances: usize,
    /// Owner of every input wire whose mask this chunk makes.
    pub inputs: Vec<PartyId>,
    /// Recipient of every private output wire whose mask this chunk makes.
    pub outputs: Vec<PartyId>,
}

impl Layout {
    /// The TinyOT triple of position `p = 8j + i` of MiniMac triple `t`, if that position is used.
    pub(crate) fn tiny(&self, t: usize, p: usize) -> Option<usize> {
        (p < self.instances).then(|| t * self.instances + p)
    }

    /// Slot `w` of triple `t`.
    pub(crate) fn triple(&self, t: usize, w: usize) -> usize {
        t * PER_TRIPLE + w
    }

    /// Slot of input mask `i`.
    pub(crate) fn input(&self, i: usize) -> usize {
        self.triples * PER_TRIPLE + i
    }

    /// Slots `(C(s), R)` of private output mask `o`.
    pub(crate) fn output(&self, o: usize) -> (usize, usize) {
        let s = self.input(self.inputs.len()) + 2 * o;
        (s, s + 1)
    }

    /// First mask slot: codeword masks `0..CODEWORD_REPS`, zero-data masks
    /// `CODEWORD_REPS..2·CODEWORD_REPS`, consistency masks after them.
    pub(crate) fn masks(&self) -> usize {
        self.output(self.outputs.len()).0
    }

    /// Number of slots.
    pub(crate) fn len(&self) -> usize {
        self.masks() + 2 * CODEWORD_REPS + CONSISTENCY_REPS
    }

    /// Who contributes to `slot`.
    pub(crate) fn who(&self, slot: usize) -> Who {
        if slot < self.input(0) || slot >= self.masks() {
            Who::All
        } else if slot < self.output(0).0 {
            Who::Only(self.inputs[slot - self.input(0)])
        } else {
            let o = (slot - self.output(0).0) / 2;
            let recipient = self.outputs[o];
            if (slot - self.output(0).0).is_multiple_of(2) {
                Who::Only(recipient)
            } else {
                Who::Except(recipient)
            }
        }
    }

    /// The data words that must be codewords of `C` (check (a)), in slot order: planes, `c` words,
    /// input masks and the `C(s)` of output masks.
    pub(crate) fn c_words(&self) -> Vec<usize> {
        let mut out: Vec<usize> =
            (0..self.triples).flat_map(|t| (0..=C_WORD).map(move |w| t * PER_TRIPLE + w)).collect();
        out.extend((0..self.inputs.len()).map(|i| self.input(i)));
        out.extend((0..self.outputs.len()).map(|o| self.output(o).0));
        out
    }

    /// The words that must be zero-data codewords of `C*` (check (b)): `R_a, R_b, R_c` of every
    /// triple and the `R` of every output mask.
    pub(crate) fn r_words(&self) -> Vec<usize> {
        let mut out: Vec<usize> =
            (0..self.triples).flat_map(|t| (R_A..PER_TRIPLE).map(move |w| t * PER_TRIPLE + w)).collect();
        out.extend((0..self.outputs.len()).map(|o| self.output(o).1));
        out
    }
}
