//! The 128-bit block the OT engine works in: a `u128` whose byte encoding is little-endian.
//! Blocks are the width of the computational security parameter κ = 128, of an AES block, and of
//! an element of GF(2^128) (bit i is the coefficient of x^i, as in [`crate::field::clmul`]).

use super::OtError;

/// A 128-bit string.
pub type Block = u128;

/// Bytes of one encoded block.
pub const BLOCK_BYTES: usize = 16;

/// Appends the little-endian encodings of `blocks` to `out`.
pub fn put_blocks(out: &mut Vec<u8>, blocks: &[Block]) {
    out.reserve(blocks.len() * BLOCK_BYTES);
    for b in blocks {
        out.extend_from_slice(&b.to_le_bytes());
    }
}

/// Checks that `bytes` encode exactly `count` blocks, or names `step` in the error.
pub fn check_blocks(step: &'static str, bytes: &[u8], count: usize) -> Result<(), OtError> {
    if bytes.len() != count * BLOCK_BYTES {
        return Err(OtError::malformed(
            step,
            format!("expected {} bytes ({count} blocks), got {}", count * BLOCK_BYTES, bytes.len()),
        ));
    }
    Ok(())
}

/// Block `i` of `bytes` (the caller checked the length with [`check_blocks`]).
pub fn block_at(bytes: &[u8], i: usize) -> Block {
    let mut raw = [0u8; BLOCK_BYTES];
    raw.copy_from_slice(&bytes[i * BLOCK_BYTES..(i + 1) * BLOCK_BYTES]);
    u128::from_le_bytes(raw)
}

/// Decodes exactly `count` blocks from `bytes`, or names `step` in the error.
pub fn get_blocks(step: &'static str, bytes: &[u8], count: usize) -> Result<Vec<Block>, OtError> {
    check_blocks(step, bytes, count)?;
    Ok(bytes.chunks_exact(BLOCK_BYTES).map(|c| u128::from_le_bytes(c.try_into().unwrap())).collect())
}
