//! Coral's preprocessing (Fig. 4, 𝓕_prep): the material the online phase consumes, what a
//! computation needs of it ([`Demand`]), and the provider trait ([`Preprocessing`]).
//!
//! Kinds of material (Fig. 4, plus the MFE-based input authentication of §3.1 / §4.3.3):
//! - tBit: a random TinyOT-shared bit `[[r]]_B` ([`TinyBit`]);
//! - tTriple: TinyOT-shared `([[a]]_B, [[b]]_B, [[a·b]]_B)`;
//! - rQuintuple: `([[a]], [[b]], [[φ(ψ(a) ⊙ ψ(b))]], [[τ(a)]], [[τ(b)]])` with a, b uniform in
//!   GF(2^42) ([`Quintuple`]);
//! - rEnc: an encoding pair `([[r]], [[τ(r)]])` ([`Encoding`]), used by SIMD constant
//!   multiplication (Fig. 11) and, through the kernel element r − τ(r) ∈ ker ψ, to mask outputs
//!   (§2.2.4 "Partial opening");
//! - input masks: `[[r]]` with r uniform and known to its owner ([`InputMask`]), what rInput
//!   consumes; in the paper these come from the vectorised MFE-based COPE (§4.3.3, Fig. 15–18).
//!
//! [`quintuple`]: Π_rQuintuple (Fig. 7), quintuples from tTriples, rConv and sacrificing.
//!
//! Providers: [`dealer::TrustedDealer`] (**trusted dealer**, see its trust model) and
//! [`ot::OtProvider`], the two-party OT-based provider (malicious security with abort, no trusted
//! party; a typed [`CoralError::Limit`] for n ≠ 2).

pub mod codec;
pub mod dealer;
pub mod ot;
pub mod quintuple;

use core::future::Future;

use crate::net::{Network, PartyId};

use super::error::CoralError;
use super::share::{RShare, TinyBit};

/// A quintuple `(a, b, c = φ(ψ(a) ⊙ ψ(b)), τ(a), τ(b))` (Fig. 4 rQuintuple, Fig. 7 output).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Quintuple {
    /// `[[a]]`.
    pub a: RShare,
    /// `[[b]]`.
    pub b: RShare,
    /// `[[φ(ψ(a) ⊙ ψ(b))]]`.
    pub c: RShare,
    /// `[[τ(a)]]`.
    pub tau_a: RShare,
    /// `[[τ(b)]]`.
    pub tau_b: RShare,
}

/// An encoding pair `([[r]], [[τ(r)]])` (Fig. 4 rEnc).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Encoding {
    /// `[[r]]`.
    pub r: RShare,
    /// `[[τ(r)]]`.
    pub tau_r: RShare,
}

/// An input mask `[[r]]`; its owner also knows r.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InputMask {
    /// `[[r]]`.
    pub share: RShare,
    /// r, for the owner only.
    pub value: Option<u64>,
}

/// Amounts of material a computation consumes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Demand {
    /// Quintuples (one per packed AND).
    pub quintuples: usize,
    /// Encoding pairs (one per packed output wire and per packed constant multiplication).
    pub encodings: usize,
    /// Input masks per owner (index = party).
    pub input_masks: Vec<usize>,
    /// TinyOT random bits.
    pub tbits: usize,
    /// TinyOT triples.
    pub ttriples: usize,
}

impl Demand {
    /// No material, for `parties` parties.
    pub fn empty(parties: usize) -> Self {
        Demand { input_masks: vec![0; parties], ..Demand::default() }
    }

    /// Adds `other` to `self`.
    pub fn add(&mut self, other: &Demand) {
        self.quintuples += other.quintuples;
        self.encodings += other.encodings;
        self.tbits += other.tbits;
        self.ttriples += other.ttriples;
        if self.input_masks.len() < other.input_masks.len() {
            self.input_masks.resize(other.input_masks.len(), 0);
        }
        for (a, b) in self.input_masks.iter_mut().zip(&other.input_masks) {
            *a += b;
        }
    }
}

/// One party's preprocessing material, consumed front to back.
#[derive(Debug, Clone)]
pub struct CoralMaterial {
    pub(crate) party: PartyId,
    pub(crate) parties: usize,
    /// α_i, this party's share of the SPDZ key.
    pub(crate) alpha: u64,
    /// Δ_i, this party's TinyOT key.
    pub(crate) delta: u128,
    pub(crate) quintuples: Vec<Quintuple>,
    pub(crate) encodings: Vec<Encoding>,
    pub(crate) input_masks: Vec<Vec<InputMask>>,
    pub(crate) tbits: Vec<TinyBit>,
    pub(crate) ttriples: Vec<[TinyBit; 3]>,
    pub(crate) cursor: Cursors,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Cursors {
    pub(crate) quintuples: usize,
    pub(crate) encodings: usize,
    pub(crate) input_masks: Vec<usize>,
    pub(crate) tbits: usize,
    pub(crate) ttriples: usize,
}

fn take<T: Clone>(
    items: &[T],
    cursor: &mut usize,
    n: usize,
    kind: &'static str,
) -> Result<Vec<T>, CoralError> {
    let available = items.len() - *cursor;
    if n > available {
        return Err(CoralError::MaterialExhausted { kind, needed: n, available });
    }
    let out = items[*cursor..*cursor + n].to_vec();
    *cursor += n;
    Ok(out)
}

impl CoralMaterial {
    /// The party this material is for.
    pub fn party(&self) -> PartyId {
        self.party
    }

    /// The session size this material is for.
    pub fn parties(&self) -> usize {
        self.parties
    }

    /// What is left, as a [`Demand`].
    pub fn remaining(&self) -> Demand {
        Demand {
            quintuples: self.quintuples.len() - self.cursor.quintuples,
            encodings: self.encodings.len() - self.cursor.encodings,
            input_masks: self
                .input_masks
                .iter()
                .zip(&self.cursor.input_masks)
                .map(|(v, c)| v.len() - c)
                .collect(),
            tbits: self.tbits.len() - self.cursor.tbits,
            ttriples: self.ttriples.len() - self.cursor.ttriples,
        }
    }

    /// Appends what is left of `other` to this material if both are under the same keys — the
    /// same party of the same session size, α and Δ, as the runs of one OT provider are — and
    /// returns true; otherwise drops `other` and returns false. Every item of a kind is as good as
    /// another (each is uniform and used once), so one online phase may use the material of
    /// several runs.
    pub fn absorb(&mut self, mut other: CoralMaterial) -> bool {
        let same = (self.party, self.parties, self.alpha, self.delta)
            == (other.party, other.parties, other.alpha, other.delta)
            && self.input_masks.len() == other.input_masks.len();
        if !same {
            return false;
        }
        // Moved, not cloned: TinyOT bits hold a MAC and a key per party.
        let c = &other.cursor;
        self.quintuples.extend(other.quintuples.drain(c.quintuples..));
        self.encodings.extend(other.encodings.drain(c.encodings..));
        for ((mine, theirs), &from) in
            self.input_masks.iter_mut().zip(&mut other.input_masks).zip(&c.input_masks)
        {
            mine.extend(theirs.drain(from..));
        }
        self.tbits.extend(other.tbits.drain(c.tbits..));
        self.ttriples.extend(other.ttriples.drain(c.ttriples..));
        true
    }

    /// Fails with [`CoralError::MaterialExhausted`] unless `demand` is covered.
    pub fn covers(&self, demand: &Demand) -> Result<(), CoralError> {
        let left = self.remaining();
        let pairs = [
            ("quintuple", demand.quintuples, left.quintuples),
            ("encoding pair", demand.encodings, left.encodings),
            ("tBit", demand.tbits, left.tbits),
            ("tTriple", demand.ttriples, left.ttriples),
        ];
        for (kind, needed, available) in pairs {
            if needed > available {
                return Err(CoralError::MaterialExhausted { kind, needed, available });
            }
        }
        for (owner, &needed) in demand.input_masks.iter().enumerate() {
            let available = left.input_masks.get(owner).copied().unwrap_or(0);
            if needed > available {
                return Err(CoralError::MaterialExhausted { kind: "input mask", needed, available });
            }
        }
        Ok(())
    }

    /// Bytes this party stores for the material (value and MAC shares of 6 bytes each — 42 bits
    /// rounded up —, TinyOT bits as one byte plus 16 bytes per MAC and per key).
    pub fn stored_bytes(&self) -> usize {
        let r = 12;
        let t = 1 + 32 * (self.parties - 1);
        self.quintuples.len() * 5 * r
            + self.encodings.len() * 2 * r
            + self.input_masks.iter().map(|m| m.len() * r).sum::<usize>()
            + self.tbits.len() * t
            + self.ttriples.len() * 3 * t
    }

    /// The index range of the next `n` quintuples, marked as consumed.
    pub(crate) fn take_quintuple_range(&mut self, n: usize) -> Result<core::ops::Range<usize>, CoralError> {
        let start = self.cursor.quintuples;
        let available = self.quintuples.len() - start;
        if n > available {
            return Err(CoralError::MaterialExhausted { kind: "quintuple", needed: n, available });
        }
        self.cursor.quintuples += n;
        Ok(start..start + n)
    }

    pub(crate) fn take_encodings(&mut self, n: usize) -> Result<Vec<Encoding>, CoralError> {
        take(&self.encodings, &mut self.cursor.encodings, n, "encoding pair")
    }

    pub(crate) fn take_input_masks(
        &mut self,
        owner: PartyId,
        n: usize,
    ) -> Result<Vec<InputMask>, CoralError> {
        let masks = self.input_masks.get(owner).map_or(&[][..], |m| &m[..]);
        let cursor = &mut self.cursor.input_masks[owner.min(self.parties - 1)];
        take(masks, cursor, n, "input mask")
    }

    pub(crate) fn take_tbits(&mut self, n: usize) -> Result<Vec<TinyBit>, CoralError> {
        take(&self.tbits, &mut self.cursor.tbits, n, "tBit")
    }

    /// TinyOT triples (Fig. 4 tTriple), for quintuple generation (Fig. 7).
    pub fn take_ttriples(&mut self, n: usize) -> Result<Vec<[TinyBit; 3]>, CoralError> {
        take(&self.ttriples, &mut self.cursor.ttriples, n, "tTriple")
    }
}

/// A source of preprocessing material for one party.
pub trait Preprocessing {
    /// A short name for reports ("trusted-dealer", "ot").
    fn name(&self) -> &'static str;

    /// Material covering `demand` for this party of `net`'s session (a provider that runs a
    /// protocol uses `net`; the dealer's provider hands out what was dealt).
    fn material<N: Network>(
        &mut self,
        net: &mut N,
        demand: &Demand,
    ) -> impl Future<Output = Result<CoralMaterial, CoralError>>;
}
