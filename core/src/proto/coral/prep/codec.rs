//! A byte encoding of one party's Coral material ([`CoralMaterial`]), so that a trusted dealer
//! running as its own session member can play 𝓕_prep (Coral paper §4, Fig. 4: tBit, tTriple,
//! rQuintuple, rEnc, and the input masks rInput consumes, §4.3.3) and send each party its shares
//! over that pair's encrypted channel (the jobs' [`crate::jobs::coral`] runner). Decoding checks
//! every count against the bytes that are left before it allocates, and every field element
//! against GF(2^42), so a truncated, padded or garbled frame is a typed error naming the field,
//! never a panic. The consumption cursors are not sent: decoded material starts unconsumed.
//!
//! Layout (integers big-endian): the tag [`TAG`]; party and parties (one byte each); α_i (`u64`),
//! Δ_i (`u128`); the counts of quintuples, encoding pairs, tBits and tTriples and one input-mask
//! count per owner (`u32` each); the quintuples (5 shares), the encoding pairs (2 shares), the
//! input masks owner by owner (a share, plus the mask's value as a `u64` when this party owns it),
//! the tBits and the tTriples (3 tBits). A share [`RShare`] is its value then its MAC (`u64`
//! each); a [`TinyBit`] is its bit (one byte, 0 or 1), then `parties` MACs and `parties` keys
//! (`u128` each).

use super::dealer::MAX_PARTIES;
use super::{CoralMaterial, Cursors, Encoding, InputMask, Quintuple};
use crate::proto::coral::share::{RShare, TinyBit, FIELD_BITS};
use crate::proto::frame::{self, Truncated};

/// The version tag that opens an encoding.
pub const TAG: &[u8] = b"chorus/coral/prep/v1";

/// Bytes of an encoded [`RShare`].
const SHARE_BYTES: usize = 16;

/// Bytes of an encoded [`TinyBit`] among `parties` parties.
fn tiny_bytes(parties: usize) -> usize {
    1 + 32 * parties
}

/// Encodes `material` (its unconsumed and consumed parts alike: the dealer sends fresh material).
pub fn encode(material: &CoralMaterial) -> Vec<u8> {
    let parties = material.parties;
    let masks: usize = material.input_masks.iter().map(Vec::len).sum();
    let quintuples = || material.quintuples.iter().chain(material.later_quintuples.iter().flatten());
    let size = TAG.len()
        + 2
        + 24
        + 4 * (4 + parties)
        + quintuples().count() * 5 * SHARE_BYTES
        + material.encodings.len() * 2 * SHARE_BYTES
        + masks * (SHARE_BYTES + 8)
        + (material.tbits.len() + 3 * material.ttriples.len()) * tiny_bytes(parties);
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(TAG);
    out.extend_from_slice(&[material.party as u8, parties as u8]);
    out.extend_from_slice(&material.alpha.to_be_bytes());
    out.extend_from_slice(&material.delta.to_be_bytes());
    let counts =
        [quintuples().count(), material.encodings.len(), material.tbits.len(), material.ttriples.len()];
    for count in counts.into_iter().chain(material.input_masks.iter().map(Vec::len)) {
        out.extend_from_slice(&(count as u32).to_be_bytes());
    }
    for q in quintuples() {
        for s in [q.a, q.b, q.c, q.tau_a, q.tau_b] {
            put_share(&mut out, s);
        }
    }
    for e in &material.encodings {
        put_share(&mut out, e.r);
        put_share(&mut out, e.tau_r);
    }
    for (owner, masks) in material.input_masks.iter().enumerate() {
        for m in masks {
            put_share(&mut out, m.share);
            if owner == material.party {
                out.extend_from_slice(&m.value.unwrap_or(0).to_be_bytes());
            }
        }
    }
    for bit in material.tbits.iter().chain(material.ttriples.iter().flatten()) {
        out.push(u8::from(bit.bit));
        for word in bit.macs.iter().chain(&bit.keys) {
            out.extend_from_slice(&word.to_be_bytes());
        }
    }
    out
}

fn put_share(out: &mut Vec<u8>, s: RShare) {
    out.extend_from_slice(&s.value.to_be_bytes());
    out.extend_from_slice(&s.mac.to_be_bytes());
}

/// Reads `len` bytes from the front of `rest`; a short input names the field `what`.
fn take<'a>(rest: &mut &'a [u8], len: usize, what: &str) -> Result<&'a [u8], String> {
    frame::take(rest, len).map_err(|Truncated { needed, left }| {
        format!("truncated Coral material: {what} needs {needed} bytes, {left} left")
    })
}

/// The bytes of `count` items of `size` bytes each, checked against what is left before anything
/// is allocated for them.
fn section<'a>(rest: &mut &'a [u8], count: usize, size: usize, what: &str) -> Result<&'a [u8], String> {
    let len = count.checked_mul(size).ok_or_else(|| format!("{count} {what} overflow the material size"))?;
    take(rest, len, what)
}

/// A cursor over a section whose length was checked: every read is in bounds.
struct Reader<'a> {
    bytes: &'a [u8],
    what: &'a str,
}

impl Reader<'_> {
    fn u64(&mut self) -> u64 {
        let (head, tail) = self.bytes.split_at(8);
        self.bytes = tail;
        u64::from_be_bytes(head.try_into().expect("8 bytes"))
    }

    fn u128(&mut self) -> u128 {
        let (head, tail) = self.bytes.split_at(16);
        self.bytes = tail;
        u128::from_be_bytes(head.try_into().expect("16 bytes"))
    }

    /// A field element of GF(2^42).
    fn element(&mut self, index: usize) -> Result<u64, String> {
        let v = self.u64();
        if v >> FIELD_BITS != 0 {
            return Err(format!("{} {index}: {v:#x} is not an element of GF(2^42)", self.what));
        }
        Ok(v)
    }

    fn share(&mut self, index: usize) -> Result<RShare, String> {
        Ok(RShare { value: self.element(index)?, mac: self.element(index)? })
    }

    fn tiny(&mut self, index: usize, parties: usize) -> Result<TinyBit, String> {
        let (head, tail) = self.bytes.split_at(1);
        self.bytes = tail;
        let bit = match head[0] {
            0 => false,
            1 => true,
            b => return Err(format!("{} {index}: bit byte {b} is neither 0 nor 1", self.what)),
        };
        let macs = (0..parties).map(|_| self.u128()).collect();
        let keys = (0..parties).map(|_| self.u128()).collect();
        Ok(TinyBit { bit, macs, keys })
    }
}

/// Decodes one party's material; the message names the first field that does not fit.
pub fn decode(bytes: &[u8]) -> Result<CoralMaterial, String> {
    let mut rest = bytes;
    if take(&mut rest, TAG.len(), "the tag")? != TAG {
        return Err("not Coral material (wrong tag)".into());
    }
    let head = take(&mut rest, 2, "the header")?;
    let (party, parties) = (head[0] as usize, head[1] as usize);
    if !(2..=MAX_PARTIES).contains(&parties) || party >= parties {
        return Err(format!("party {party} of {parties} is not a Coral session"));
    }
    let mut keys = Reader { bytes: take(&mut rest, 24, "the keys")?, what: "the SPDZ key share" };
    let alpha = keys.element(party)?;
    let delta = keys.u128();
    let counts = section(&mut rest, 4 + parties, 4, "the counts")?;
    let counts: Vec<usize> =
        counts.chunks_exact(4).map(|c| u32::from_be_bytes(c.try_into().expect("4 bytes")) as usize).collect();
    let (quintuples, encodings, tbits, ttriples) = (counts[0], counts[1], counts[2], counts[3]);
    let tiny = tiny_bytes(parties);

    let mut r = Reader {
        bytes: section(&mut rest, quintuples, 5 * SHARE_BYTES, "the quintuples")?,
        what: "quintuple",
    };
    let quintuples = (0..quintuples)
        .map(|i| {
            Ok(Quintuple {
                a: r.share(i)?,
                b: r.share(i)?,
                c: r.share(i)?,
                tau_a: r.share(i)?,
                tau_b: r.share(i)?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut r = Reader {
        bytes: section(&mut rest, encodings, 2 * SHARE_BYTES, "the encoding pairs")?,
        what: "encoding pair",
    };
    let encodings = (0..encodings)
        .map(|i| Ok(Encoding { r: r.share(i)?, tau_r: r.share(i)? }))
        .collect::<Result<Vec<_>, String>>()?;
    let mut input_masks = Vec::with_capacity(parties);
    for (owner, &count) in counts[4..].iter().enumerate() {
        let own = owner == party;
        let size = SHARE_BYTES + if own { 8 } else { 0 };
        let what = format!("party {owner}'s input masks");
        let mut r = Reader { bytes: section(&mut rest, count, size, &what)?, what: &what };
        let masks = (0..count)
            .map(|i| {
                Ok(InputMask { share: r.share(i)?, value: if own { Some(r.element(i)?) } else { None } })
            })
            .collect::<Result<Vec<_>, String>>()?;
        input_masks.push(masks);
    }
    let mut r = Reader { bytes: section(&mut rest, tbits, tiny, "the tBits")?, what: "tBit" };
    let tbits = (0..tbits).map(|i| r.tiny(i, parties)).collect::<Result<Vec<_>, String>>()?;
    let mut r = Reader { bytes: section(&mut rest, ttriples, 3 * tiny, "the tTriples")?, what: "tTriple" };
    let ttriples = (0..ttriples)
        .map(|i| Ok([r.tiny(i, parties)?, r.tiny(i, parties)?, r.tiny(i, parties)?]))
        .collect::<Result<Vec<_>, String>>()?;
    if !rest.is_empty() {
        return Err(format!("{} bytes after the end of the Coral material", rest.len()));
    }
    Ok(CoralMaterial {
        party,
        parties,
        alpha,
        delta,
        quintuples,
        later_quintuples: Vec::new(),
        encodings,
        input_masks,
        tbits,
        ttriples,
        cursor: Cursors { input_masks: vec![0; parties], ..Cursors::default() },
    })
}

#[cfg(test)]
mod tests {
    use super::super::dealer::TrustedDealer;
    use super::super::Demand;
    use super::*;
    use crate::proto::coral::CoralParams;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    fn dealt(demand: &Demand) -> Vec<CoralMaterial> {
        let params = CoralParams::new().unwrap();
        TrustedDealer::new(ChaCha20Rng::seed_from_u64(7)).deal(&params, 2, demand).unwrap()
    }

    fn same(a: &CoralMaterial, b: &CoralMaterial) {
        assert_eq!((a.party, a.parties, a.alpha, a.delta), (b.party, b.parties, b.alpha, b.delta));
        assert_eq!(a.quintuples, b.quintuples);
        assert_eq!(a.encodings, b.encodings);
        assert_eq!(a.input_masks, b.input_masks);
        assert_eq!(a.tbits, b.tbits);
        assert_eq!(a.ttriples, b.ttriples);
        assert_eq!(a.remaining(), b.remaining());
    }

    #[test]
    fn dealt_material_round_trips() {
        let demand = Demand { quintuples: 5, encodings: 3, input_masks: vec![4, 2], tbits: 3, ttriples: 2 };
        for m in dealt(&demand) {
            let back = decode(&encode(&m)).unwrap();
            same(&m, &back);
            assert_eq!(back.remaining(), demand);
        }
        for m in dealt(&Demand::empty(2)) {
            same(&m, &decode(&encode(&m)).unwrap());
        }
    }

    #[test]
    fn truncated_padded_and_garbled_frames_are_named() {
        let demand = Demand { quintuples: 2, encodings: 1, input_masks: vec![1, 1], tbits: 1, ttriples: 1 };
        let m = dealt(&demand).remove(1);
        let bytes = encode(&m);
        let err = |b: &[u8]| decode(b).unwrap_err();
        assert!(err(&bytes[..bytes.len() - 1]).contains("truncated Coral material: the tTriples"));
        let mut padded = bytes.clone();
        padded.push(0);
        assert!(err(&padded).contains("1 bytes after the end"));
        let mut bad_tag = bytes.clone();
        bad_tag[0] ^= 1;
        assert!(err(&bad_tag).contains("wrong tag"));
        assert!(err(b"nonsense").contains("the tag"));
        assert!(err(&bytes[..TAG.len() + 10]).contains("the keys"));
        let counts = TAG.len() + 2 + 24;
        let mut bad_count = bytes.clone();
        bad_count[counts..counts + 4].copy_from_slice(&u32::MAX.to_be_bytes());
        assert!(err(&bad_count).contains("the quintuples needs"), "{}", err(&bad_count));
        let mut bad_party = bytes.clone();
        bad_party[TAG.len()] = 2;
        assert!(err(&bad_party).contains("party 2 of 2"));
        let mut bad_element = bytes.clone();
        bad_element[counts + 24] = 0xff;
        assert!(err(&bad_element).contains("quintuple 0"));
        let mut bad_bit = bytes.clone();
        let tbit = bytes.len() - 4 * tiny_bytes(2);
        assert_eq!(bad_bit[tbit], u8::from(m.tbits[0].bit));
        bad_bit[tbit] = 2;
        assert!(err(&bad_bit).contains("tBit 0: bit byte 2"));
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_err());
        }
    }
}
