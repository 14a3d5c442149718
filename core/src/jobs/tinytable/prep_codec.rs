//! Byte encoding of the dealer's [`BinaryPrep`] batches, for sending a party its half.
//!
//! Layout (integers big-endian): `"chorus/tt-prep/v1"`, `u32` instance count, then per instance:
//! party `u8`; input owner count `u32` and one `u8` per owner; reveal count `u32` and one `u8` per
//! value (`0xff` = both parties, else the party); AND gate count `u32`; table bytes `u32` and the
//! bytes; input mask count `u32` and the masks packed 8 per byte (bit `i` at bit `i % 8` of byte
//! `i / 8`); output masks likewise. Decoding checks every length against the bytes left, so
//! malformed input is an error, never a panic or a huge allocation; the online phase then checks
//! the material against the circuit.

use crate::proto::tinytable::{BinaryPrep, IoSpec, Reveal};

const MAGIC: &[u8] = b"chorus/tt-prep/v1";
const BOTH: u8 = 0xff;

/// Encodes a batch of one party's material.
pub fn encode(preps: &[BinaryPrep]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    put_len(&mut out, preps.len());
    for prep in preps {
        out.push(prep.party as u8);
        put_len(&mut out, prep.io.input_owners.len());
        out.extend(prep.io.input_owners.iter().map(|&p| p as u8));
        put_len(&mut out, prep.io.reveal.len());
        out.extend(prep.io.reveal.iter().map(|r| match r {
            Reveal::Both => BOTH,
            Reveal::To(p) => *p as u8,
        }));
        put_len(&mut out, prep.and_gates);
        put_len(&mut out, prep.tables.len());
        out.extend_from_slice(&prep.tables);
        put_bits(&mut out, &prep.input_masks);
        put_bits(&mut out, &prep.output_masks);
    }
    out
}

/// Decodes [`encode`]'s output; the error names what is malformed.
pub fn decode(bytes: &[u8]) -> Result<Vec<BinaryPrep>, String> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(MAGIC.len(), "header")? != MAGIC {
        return Err("not TinyTable preprocessing (wrong header)".into());
    }
    let count = r.len("instance count", 1)?;
    let mut preps = Vec::with_capacity(count);
    for _ in 0..count {
        let party = usize::from(r.take(1, "party")?[0]);
        let owners = r.len("input owner count", 1)?;
        let input_owners = r.take(owners, "input owners")?.iter().map(|&p| usize::from(p)).collect();
        let reveals = r.len("reveal count", 1)?;
        let reveal = r
            .take(reveals, "reveal list")?
            .iter()
            .map(|&p| if p == BOTH { Reveal::Both } else { Reveal::To(usize::from(p)) })
            .collect();
        let and_gates = r.len("AND gate count", 0)?;
        let table_len = r.len("table length", 1)?;
        let tables = r.take(table_len, "tables")?.to_vec();
        let input_masks = r.bits("input masks")?;
        let output_masks = r.bits("output masks")?;
        preps.push(BinaryPrep {
            party,
            io: IoSpec { input_owners, reveal },
            and_gates,
            tables,
            input_masks,
            output_masks,
        });
    }
    if r.at != bytes.len() {
        return Err(format!("{} trailing bytes", bytes.len() - r.at));
    }
    Ok(preps)
}

fn put_len(out: &mut Vec<u8>, n: usize) {
    out.extend_from_slice(&(n as u32).to_be_bytes());
}

fn put_bits(out: &mut Vec<u8>, bits: &[bool]) {
    put_len(out, bits.len());
    let start = out.len();
    out.resize(start + bits.len().div_ceil(8), 0);
    for (i, &bit) in bits.iter().enumerate() {
        out[start + i / 8] |= u8::from(bit) << (i % 8);
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let left = self.bytes.len() - self.at;
        if n > left {
            return Err(format!("{what}: needs {n} bytes, {left} left"));
        }
        self.at += n;
        Ok(&self.bytes[self.at - n..self.at])
    }

    /// A `u32` length whose items take at least `min_item_bytes` each of what is left (0: a count
    /// of items stored elsewhere).
    fn len(&mut self, what: &str, min_item_bytes: usize) -> Result<usize, String> {
        let raw = self.take(4, what)?;
        let n = u32::from_be_bytes([raw[0], raw[1], raw[2], raw[3]]) as usize;
        if min_item_bytes > 0 && n.saturating_mul(min_item_bytes) > self.bytes.len() - self.at {
            return Err(format!("{what} {n} exceeds the bytes left"));
        }
        Ok(n)
    }

    fn bits(&mut self, what: &str) -> Result<Vec<bool>, String> {
        let raw = self.take(4, what)?;
        let n = u32::from_be_bytes([raw[0], raw[1], raw[2], raw[3]]) as usize;
        let packed = self.take(n.div_ceil(8), what)?;
        Ok((0..n).map(|i| packed[i / 8] >> (i % 8) & 1 == 1).collect())
    }
}
