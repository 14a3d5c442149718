//! Byte encoding of the dealer's S-box-table material (§2.3): semi-honest [`AesTablePrep`]
//! batches ([`encode_tables`]) and malicious [`MaliciousAesPrep`] batches ([`encode_malicious`]).
//!
//! Layouts (integers big-endian, MAC values little-endian), after a header naming the kind:
//! - semi-honest: block count `u32`, then per block party, direction (`0` encrypt, `1` decrypt),
//!   key owner, reveal (`u8` each, reveal `0xff` = both), the 40 960 table bytes (the dealer's seed-derived half is sent expanded, so
//!   decoded material stores all 160 tables; the online phase takes both forms), then a flag byte and the round-key masks (176 bytes),
//!   a flag byte and the plaintext mask (16), a flag byte and the output mask (16);
//! - malicious: party, direction, key owner, reveal, block count `u32`, the entries' layout (`0` block-major,
//!   `1` round-major), the entries with their tags packed in
//!   16-byte words (`u32` count; see [`crate::proto::tinytable::sbox::prep`]), `α` (8 bytes), the verifier keys (`0` and a 16-byte PRF seed,
//!   or `1` and two `u32`-counted arrays of 16-byte keys), the hash key (16), input masks, output
//!   mask shares and their tags (`u32`-counted).
//!
//! Decoding checks every length against the bytes left (malformed input is an error, never a
//! panic or a huge allocation) and the result's shape ([`AesTablePrep::from_parts`],
//! [`MaliciousAesPrep`]'s own check).

use super::prep_codec::{get_reveal, put_len, put_reveal, Reader};
use crate::aes::Direction;
use crate::arch::memory::large_zeroed;
use crate::proto::tinytable::mac::batch_open::KeyPrf;
use crate::proto::tinytable::sbox::prep::{EntryLayout, PeerKeys};
use crate::proto::tinytable::sbox::schedule::ScheduleTables;
use crate::proto::tinytable::sbox::tables::{AesTablePrep, ROUND_KEYS, TABLE_BYTES_PER_BLOCK};
use crate::proto::tinytable::MaliciousAesPrep;

const TABLES_MAGIC: &[u8] = b"chorus/tt-aes-tables/v2";
const MALICIOUS_MAGIC: &[u8] = b"chorus/tt-aes-tables-malicious/v5";

fn put_direction(direction: Direction) -> u8 {
    match direction {
        Direction::Encrypt => 0,
        Direction::Decrypt => 1,
    }
}

fn get_direction(code: u8) -> Result<Direction, String> {
    match code {
        0 => Ok(Direction::Encrypt),
        1 => Ok(Direction::Decrypt),
        other => Err(format!("direction {other} is neither 0 (encrypt) nor 1 (decrypt)")),
    }
}

/// Encodes one party's semi-honest S-box-table material for a batch of blocks.
pub fn encode_tables(preps: &[AesTablePrep]) -> Vec<u8> {
    let mut out = TABLES_MAGIC.to_vec();
    put_len(&mut out, preps.len());
    for prep in preps {
        out.extend([
            prep.party() as u8,
            put_direction(prep.direction()),
            prep.key_owner() as u8,
            put_reveal(prep.reveal()),
        ]);
        out.extend_from_slice(&prep.tables());
        let keys = prep.round_key_masks().map(|k| k.as_flattened());
        for part in [keys, prep.plaintext_mask().map(|m| &m[..]), prep.output_mask().map(|m| &m[..])] {
            out.push(u8::from(part.is_some()));
            out.extend_from_slice(part.unwrap_or_default());
        }
    }
    out
}

/// Decodes [`encode_tables`]'s output.
pub fn decode_tables(bytes: &[u8]) -> Result<Vec<AesTablePrep>, String> {
    let mut r = Reader { bytes, at: 0 };
    r.magic(TABLES_MAGIC, "S-box-table preprocessing")?;
    let count = r.len("block count", TABLE_BYTES_PER_BLOCK)?;
    let mut preps = Vec::with_capacity(count);
    for _ in 0..count {
        let roles = r.take(4, "roles")?;
        let (party, key_owner, reveal) = (usize::from(roles[0]), usize::from(roles[2]), get_reveal(roles[3]));
        let direction = get_direction(roles[1])?;
        let tables = r.take(TABLE_BYTES_PER_BLOCK, "tables")?.to_vec();
        let mut optional = |len: usize, what: &str| -> Result<Option<&[u8]>, String> {
            match r.take(1, what)?[0] {
                0 => Ok(None),
                1 => r.take(len, what).map(Some),
                flag => Err(format!("{what}: flag {flag} is neither 0 nor 1")),
            }
        };
        let keys = optional(16 * ROUND_KEYS, "round-key masks")?
            .map(|k| k.chunks_exact(16).map(|c| c.try_into().unwrap_or_default()).collect());
        let block = |m: &[u8]| -> [u8; 16] { m.try_into().unwrap_or_default() };
        let plaintext = optional(16, "plaintext mask")?.map(block);
        let output = optional(16, "output mask")?.map(block);
        let prep =
            AesTablePrep::from_parts(party, direction, key_owner, reveal, tables, keys, plaintext, output)
                .map_err(|e| e.to_string())?;
        preps.push(prep);
    }
    r.finish()?;
    Ok(preps)
}

/// Encodes one party's malicious S-box-table material.
pub fn encode_malicious(prep: &MaliciousAesPrep) -> Vec<u8> {
    let mut out = MALICIOUS_MAGIC.to_vec();
    out.extend([
        prep.party as u8,
        put_direction(prep.direction),
        prep.key_owner as u8,
        put_reveal(prep.reveal),
    ]);
    put_len(&mut out, prep.blocks);
    out.push(prep.layout.code());
    put_tags(&mut out, &prep.entries);
    out.extend_from_slice(&prep.alpha.to_le_bytes());
    match &prep.peer_keys {
        PeerKeys::Prf(prf) => {
            out.push(0);
            out.extend_from_slice(prf.seed());
        }
        PeerKeys::Explicit { tables, outputs } => {
            out.push(1);
            put_tags(&mut out, tables);
            put_tags(&mut out, outputs);
        }
    }
    out.extend_from_slice(&prep.hash_key);
    put_bytes(&mut out, &prep.input_masks);
    put_bytes(&mut out, &prep.output_mask_shares);
    put_tags(&mut out, &prep.output_mask_tags);
    match &prep.schedule {
        None => out.push(0),
        Some(schedule) => {
            out.push(1);
            put_tags(&mut out, &schedule.entries);
            put_tags(&mut out, &schedule.keys);
        }
    }
    out
}

/// Decodes [`encode_malicious`]'s output and checks its shape.
pub fn decode_malicious(bytes: &[u8]) -> Result<MaliciousAesPrep, String> {
    let mut r = Reader { bytes, at: 0 };
    r.magic(MALICIOUS_MAGIC, "malicious S-box-table preprocessing")?;
    let roles = r.take(4, "roles")?;
    let (party, key_owner, reveal) = (usize::from(roles[0]), usize::from(roles[2]), get_reveal(roles[3]));
    let direction = get_direction(roles[1])?;
    let blocks = r.len("block count", TABLE_BYTES_PER_BLOCK)?;
    let code = r.take(1, "entry layout")?[0];
    let layout =
        EntryLayout::from_code(code).ok_or_else(|| format!("entry layout {code} is neither 0 nor 1"))?;
    let entries = get_tags(&mut r, "entries")?;
    let alpha = u64::from_le_bytes(r.take(8, "alpha")?.try_into().unwrap_or_default());
    let peer_keys = match r.take(1, "verifier key kind")?[0] {
        0 => PeerKeys::Prf(Box::new(KeyPrf::new(&r.take(16, "PRF seed")?.try_into().unwrap_or_default()))),
        1 => PeerKeys::Explicit {
            tables: get_tags(&mut r, "table keys")?,
            outputs: get_tags(&mut r, "output keys")?,
        },
        kind => return Err(format!("verifier key kind {kind} is neither 0 nor 1")),
    };
    let hash_key = r.take(16, "hash key")?.try_into().unwrap_or_default();
    let prep = MaliciousAesPrep {
        party,
        direction,
        key_owner,
        reveal,
        blocks,
        entries,
        layout,
        alpha,
        peer_keys,
        hash_key,
        input_masks: get_bytes(&mut r, "input masks")?,
        output_mask_shares: get_bytes(&mut r, "output mask shares")?,
        output_mask_tags: get_tags(&mut r, "output mask tags")?,
        schedule: match r.take(1, "key kind")?[0] {
            0 => None,
            1 => Some(ScheduleTables {
                entries: get_tags(&mut r, "key-schedule entries")?,
                keys: get_tags(&mut r, "key-schedule keys")?,
            }),
            kind => return Err(format!("key kind {kind} is neither 0 (expanded) nor 1 (XOR-shared)")),
        },
    };
    r.finish()?;
    prep.check_shape()?;
    Ok(prep)
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_len(out, bytes.len());
    out.extend_from_slice(bytes);
}

fn get_bytes(r: &mut Reader<'_>, what: &str) -> Result<Vec<u8>, String> {
    let n = r.len(what, 1)?;
    Ok(r.take(n, what)?.to_vec())
}

fn put_tags(out: &mut Vec<u8>, tags: &[u128]) {
    put_len(out, tags.len());
    out.reserve(16 * tags.len());
    for t in tags {
        out.extend_from_slice(&t.to_le_bytes());
    }
}

/// Tags or packed entries into a vector backed by huge pages where available (the largest part
/// of the material, read at random positions).
fn get_tags(r: &mut Reader<'_>, what: &str) -> Result<Vec<u128>, String> {
    let n = r.len(what, 16)?;
    let bytes = r.take(16 * n, what)?;
    let mut tags: Vec<u128> = large_zeroed(n);
    for (t, c) in tags.iter_mut().zip(bytes.chunks_exact(16)) {
        *t = u128::from_le_bytes(c.try_into().unwrap_or_default());
    }
    Ok(tags)
}
