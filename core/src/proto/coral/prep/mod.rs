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
use core::ops::Range;

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
    /// Quintuples of materials joined after this one ([`CoralMaterial::join`]), used after
    /// `quintuples` in order: segments of their own, so joining moves them rather than copying.
    pub(crate) later_quintuples: Vec<Vec<Quintuple>>,
    pub(crate) encodings: Vec<Encoding>,
    pub(crate) input_masks: Vec<Vec<InputMask>>,
    pub(crate) tbits: Vec<TinyBit>,
    pub(crate) ttriples: Vec<[TinyBit; 3]>,
    pub(crate) cursor: Cursors,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Cursors {
    /// The quintuple segment in use: 0 is `quintuples`, s > 0 is `later_quintuples[s − 1]`.
    pub(crate) segment: usize,
    /// The next quintuple of that segment.
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
            quintuples: self.quintuples_left(),
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

    /// Whether `other` is for the same party of the same session size under the same α and Δ.
    fn same_keys(&self, other: &CoralMaterial) -> bool {
        (self.party, self.parties, self.alpha, self.delta)
            == (other.party, other.parties, other.alpha, other.delta)
            && self.input_masks.len() == other.input_masks.len()
    }

    /// Joins what is left of `parts`, in order, into one material if all are under the same keys
    /// (see [`CoralMaterial::absorb`]); `None` if they are not, or if there are no parts. The
    /// quintuples, by far the largest part, are moved as segments of their own, not copied: a
    /// copy into one buffer cost a joined online phase more, in page faults, than the rounds it
    /// saved.
    pub fn join(parts: Vec<CoralMaterial>) -> Option<CoralMaterial> {
        let mut parts = parts.into_iter();
        let mut joined = parts.next()?;
        let rest: Vec<CoralMaterial> = parts.collect();
        if !rest.iter().all(|part| joined.same_keys(part)) {
            return None;
        }
        for mut part in rest {
            for (s, mut segment) in part.segments_left().into_iter().enumerate() {
                if s == 0 && part.cursor.quintuples > 0 {
                    segment.drain(..part.cursor.quintuples);
                }
                if !segment.is_empty() {
                    joined.later_quintuples.push(segment);
                }
            }
            part.cursor.quintuples = 0;
            // Only the small kinds are left to append: the part's quintuples were moved above.
            let appended = joined.absorb(part);
            debug_assert!(appended, "keys checked above");
        }
        Some(joined)
    }

    /// Takes this material's quintuple segments from the one in use on (the first is still to be
    /// skipped to its cursor), leaving none.
    fn segments_left(&mut self) -> Vec<Vec<Quintuple>> {
        let mut all = vec![core::mem::take(&mut self.quintuples)];
        all.append(&mut self.later_quintuples);
        all.split_off(self.cursor.segment.min(all.len()))
    }

    /// The quintuple segment `s` (0: `quintuples`).
    pub(crate) fn quintuple_segment(&self, s: usize) -> &[Quintuple] {
        match s {
            0 => &self.quintuples,
            _ => self.later_quintuples.get(s - 1).map_or(&[], |v| &v[..]),
        }
    }

    /// Quintuples not yet taken, over every segment.
    fn quintuples_left(&self) -> usize {
        let current =
            self.quintuple_segment(self.cursor.segment).len().saturating_sub(self.cursor.quintuples);
        let later: usize = self.later_quintuples.iter().skip(self.cursor.segment).map(Vec::len).sum();
        current + later
    }

    /// Appends what is left of `other` to this material if both are under the same keys — the
    /// same party of the same session size, α and Δ, as the runs of one OT provider are — and
    /// returns true; otherwise drops `other` and returns false. Every item of a kind is as good as
    /// another (each is uniform and used once), so one online phase may use the material of
    /// several runs.
    pub fn absorb(&mut self, mut other: CoralMaterial) -> bool {
        if !self.same_keys(&other) {
            return false;
        }
        // Moved, not cloned: TinyOT bits hold a MAC and a key per party. Quintuples go after every
        // segment of this material (absorbing is for small or single-segment materials; `join`
        // moves large ones as segments).
        let from = other.cursor.quintuples;
        for (s, mut segment) in other.segments_left().into_iter().enumerate() {
            let skip = if s == 0 { from } else { 0 };
            match self.later_quintuples.last_mut() {
                Some(last) => last.extend(segment.drain(skip..)),
                None => self.quintuples.extend(segment.drain(skip..)),
            }
        }
        let c = &other.cursor;
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
        (self.quintuples.len() + self.later_quintuples.iter().map(Vec::len).sum::<usize>()) * 5 * r
            + self.encodings.len() * 2 * r
            + self.input_masks.iter().map(|m| m.len() * r).sum::<usize>()
            + self.tbits.len() * t
            + self.ttriples.len() * 3 * t
    }

    /// Takes `n` quintuples: the pieces `(segment, range)` they lie in, in order (one piece
    /// unless they cross into the next segment of a joined material).
    pub(crate) fn take_quintuples(&mut self, n: usize) -> Result<Vec<(usize, Range<usize>)>, CoralError> {
        let available = self.quintuples_left();
        if n > available {
            return Err(CoralError::MaterialExhausted { kind: "quintuple", needed: n, available });
        }
        let mut pieces = Vec::with_capacity(1);
        let mut needed = n;
        while needed > 0 {
            let (s, start) = (self.cursor.segment, self.cursor.quintuples);
            let left = self.quintuple_segment(s).len().saturating_sub(start);
            if left == 0 {
                self.cursor.segment += 1;
                self.cursor.quintuples = 0;
                continue;
            }
            let k = left.min(needed);
            pieces.push((s, start..start + k));
            self.cursor.quintuples += k;
            needed -= k;
        }
        Ok(pieces)
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
