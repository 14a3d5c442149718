//! Byte encoding of the dealer's material for binary circuits, for sending a party its half:
//! per-instance [`BinaryPrep`] batches ([`encode`]), bit-sliced [`SlicedPrep`] batches
//! ([`encode_sliced`], what the semi-honest job ships) and malicious [`MaliciousPrep`] batches
//! ([`encode_malicious`], k = 64 or 32). The S-box-table material is in [`super::aes_prep_codec`].
//!
//! [`SlicedPrep`] and [`MaliciousPrep`] layouts: a header naming the kind (and `k`), party `u8`,
//! the [`IoSpec`] as below, instance and AND-gate counts `u32`, then every array as a `u32`
//! length followed by its words little-endian (lane words as `u64`, authentication strings as
//! `k / 8` bytes), in field order. The malicious verification strings of table entries are a kind
//! byte then either (0) the dealer's 16-byte seed or (1) the stored strings as an array.
//!
//! [`BinaryPrep`] layout (integers big-endian): `"chorus/tt-prep/v1"`, `u32` instance count, then per instance:
//! party `u8`; input owner count `u32` and one `u8` per owner; reveal count `u32` and one `u8` per
//! value (`0xff` = both parties, else the party); AND gate count `u32`; table bytes `u32` and the
//! bytes; input mask count `u32` and the masks packed 8 per byte (bit `i` at bit `i % 8` of byte
//! `i / 8`); output masks likewise. Decoding checks every length against the bytes left, so
//! malformed input is an error, never a panic or a huge allocation; the online phase then checks
//! the material against the circuit.

use crate::proto::tinytable::circuit::malicious_prep::TableKeys;
use crate::proto::tinytable::mac::lookup::SeededKeys;
use crate::proto::tinytable::{BinaryPrep, IoSpec, MacWord, MaliciousPrep, Reveal, SlicedPrep};

const MAGIC: &[u8] = b"chorus/tt-prep/v1";
const BOTH: u8 = 0xff;

/// Encodes a batch of one party's material.
pub fn encode(preps: &[BinaryPrep]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    put_len(&mut out, preps.len());
    for prep in preps {
        out.push(prep.party as u8);
        put_io(&mut out, &prep.io);
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
        let IoSpec { input_owners, reveal } = r.io()?;
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
    r.finish()?;
    Ok(preps)
}

const SLICED_MAGIC: &[u8] = b"chorus/tt-sliced/v1";

/// Encodes one party's bit-sliced semi-honest batch.
pub fn encode_sliced(prep: &SlicedPrep) -> Vec<u8> {
    let mut out = SLICED_MAGIC.to_vec();
    out.push(prep.party as u8);
    put_io(&mut out, &prep.io);
    put_len(&mut out, prep.instances);
    put_len(&mut out, prep.and_gates);
    for words in [&prep.tables, &prep.input_masks, &prep.output_masks] {
        put_words(&mut out, words);
    }
    out
}

/// Decodes [`encode_sliced`]'s output; the online phase checks it against the circuit.
pub fn decode_sliced(bytes: &[u8]) -> Result<SlicedPrep, String> {
    let mut r = Reader { bytes, at: 0 };
    r.magic(SLICED_MAGIC, "bit-sliced TinyTable preprocessing")?;
    let party = usize::from(r.take(1, "party")?[0]);
    let io = r.io()?;
    let instances = r.len("instance count", 0)?;
    let and_gates = r.len("AND gate count", 0)?;
    let prep = SlicedPrep {
        party,
        io,
        instances,
        and_gates,
        tables: r.words("tables")?,
        input_masks: r.words("input masks")?,
        output_masks: r.words("output masks")?,
    };
    r.finish()?;
    Ok(prep)
}

fn malicious_magic<M: MacWord>() -> Vec<u8> {
    format!("chorus/tt-malicious-k{}/v2", 8 * M::BYTES).into_bytes()
}

/// Kind byte of the verification strings: a 16-byte seed follows.
const SEEDED_KEYS: u8 = 0;
/// Kind byte of the verification strings: a length and the strings follow.
const EXPLICIT_KEYS: u8 = 1;

/// Encodes one party's malicious batch with `k`-bit strings `M` (the header names `k`).
pub fn encode_malicious<M: MacWord>(prep: &MaliciousPrep<M>) -> Vec<u8> {
    let mut out = malicious_magic::<M>();
    out.push(prep.party as u8);
    put_io(&mut out, &prep.io);
    put_len(&mut out, prep.instances);
    put_len(&mut out, prep.and_gates);
    put_words(&mut out, &prep.tables);
    put_words(&mut out, &prep.input_masks);
    put_macs(&mut out, &prep.own_macs);
    match &prep.peer_keys {
        TableKeys::Seeded(keys) => {
            out.push(SEEDED_KEYS);
            out.extend_from_slice(keys.seed());
        }
        TableKeys::Explicit(keys) => {
            out.push(EXPLICIT_KEYS);
            put_macs(&mut out, keys);
        }
    }
    put_words(&mut out, &prep.out_shares);
    put_macs(&mut out, &prep.out_macs);
    put_macs(&mut out, &prep.out_keys);
    out
}

/// Decodes [`encode_malicious`]'s output for the same `M` (material for the other `k` is an
/// error naming the header); the online phase checks it against the circuit.
pub fn decode_malicious<M: MacWord>(bytes: &[u8]) -> Result<MaliciousPrep<M>, String> {
    let mut r = Reader { bytes, at: 0 };
    r.magic(
        &malicious_magic::<M>(),
        &format!("malicious TinyTable preprocessing with k = {}", 8 * M::BYTES),
    )?;
    let party = usize::from(r.take(1, "party")?[0]);
    let io = r.io()?;
    let instances = r.len("instance count", 0)?;
    let and_gates = r.len("AND gate count", 0)?;
    let prep = MaliciousPrep {
        party,
        io,
        instances,
        and_gates,
        tables: r.words("tables")?,
        input_masks: r.words("input masks")?,
        own_macs: r.macs("own strings")?,
        peer_keys: match r.take(1, "verification string kind")?[0] {
            SEEDED_KEYS => {
                let seed = r.take(16, "verification string seed")?.try_into().unwrap_or_default();
                TableKeys::Seeded(Box::new(SeededKeys::new(seed)))
            }
            EXPLICIT_KEYS => TableKeys::Explicit(r.macs("verification strings")?),
            kind => {
                return Err(format!("verification string kind {kind} is neither 0 (seeded) nor 1 (stored)"))
            }
        },
        out_shares: r.words("output mask shares")?,
        out_macs: r.macs("output share strings")?,
        out_keys: r.macs("output verification strings")?,
    };
    r.finish()?;
    Ok(prep)
}

pub(crate) fn put_io(out: &mut Vec<u8>, io: &IoSpec) {
    put_len(out, io.input_owners.len());
    out.extend(io.input_owners.iter().map(|&p| p as u8));
    put_len(out, io.reveal.len());
    out.extend(io.reveal.iter().map(|r| put_reveal(*r)));
}

pub(crate) fn put_reveal(r: Reveal) -> u8 {
    match r {
        Reveal::Both => BOTH,
        Reveal::To(p) => p as u8,
    }
}

pub(crate) fn get_reveal(p: u8) -> Reveal {
    if p == BOTH {
        Reveal::Both
    } else {
        Reveal::To(usize::from(p))
    }
}

fn put_words(out: &mut Vec<u8>, words: &[u64]) {
    put_len(out, words.len());
    out.reserve(8 * words.len());
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

fn put_macs<M: MacWord>(out: &mut Vec<u8>, macs: &[M]) {
    put_len(out, macs.len());
    out.reserve(M::BYTES * macs.len());
    for &m in macs {
        m.put(out);
    }
}

pub(crate) fn put_len(out: &mut Vec<u8>, n: usize) {
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

pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) at: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let left = self.bytes.len() - self.at;
        if n > left {
            return Err(format!("{what}: needs {n} bytes, {left} left"));
        }
        self.at += n;
        Ok(&self.bytes[self.at - n..self.at])
    }

    /// A `u32` length whose items take at least `min_item_bytes` each of what is left (0: a count
    /// of items stored elsewhere).
    pub(crate) fn len(&mut self, what: &str, min_item_bytes: usize) -> Result<usize, String> {
        let raw = self.take(4, what)?;
        let n = u32::from_be_bytes([raw[0], raw[1], raw[2], raw[3]]) as usize;
        if min_item_bytes > 0 && n.saturating_mul(min_item_bytes) > self.bytes.len() - self.at {
            return Err(format!("{what} {n} exceeds the bytes left"));
        }
        Ok(n)
    }

    pub(crate) fn bits(&mut self, what: &str) -> Result<Vec<bool>, String> {
        let raw = self.take(4, what)?;
        let n = u32::from_be_bytes([raw[0], raw[1], raw[2], raw[3]]) as usize;
        let packed = self.take(n.div_ceil(8), what)?;
        Ok((0..n).map(|i| packed[i / 8] >> (i % 8) & 1 == 1).collect())
    }

    pub(crate) fn magic(&mut self, magic: &[u8], what: &str) -> Result<(), String> {
        if self.take(magic.len(), "header")? != magic {
            return Err(format!("not {what} (wrong header)"));
        }
        Ok(())
    }

    pub(crate) fn finish(&self) -> Result<(), String> {
        if self.at != self.bytes.len() {
            return Err(format!("{} trailing bytes", self.bytes.len() - self.at));
        }
        Ok(())
    }

    pub(crate) fn io(&mut self) -> Result<IoSpec, String> {
        let owners = self.len("input owner count", 1)?;
        let input_owners = self.take(owners, "input owners")?.iter().map(|&p| usize::from(p)).collect();
        let reveals = self.len("reveal count", 1)?;
        let reveal = self.take(reveals, "reveal list")?.iter().map(|&p| get_reveal(p)).collect();
        Ok(IoSpec { input_owners, reveal })
    }

    fn words(&mut self, what: &str) -> Result<Vec<u64>, String> {
        let n = self.len(what, 8)?;
        let raw = self.take(8 * n, what)?;
        Ok(raw.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default())).collect())
    }

    fn macs<M: MacWord>(&mut self, what: &str) -> Result<Vec<M>, String> {
        let n = self.len(what, M::BYTES)?;
        Ok(self.take(M::BYTES * n, what)?.chunks_exact(M::BYTES).map(M::get).collect())
    }
}
