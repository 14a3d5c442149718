//! Bit-packed messages written and read in runs of bits (LSB-first, the layout of
//! [`super::sbox::one_hot16::pack_bits`]): the one-hot preprocessing protocols build each round's
//! message from a few bits per vector with word operations instead of one byte per bit, and
//! reshare it with [`reshare_bit_message`].

use super::error::{MaestroError, Step};
use super::msg::{recv_bytes, send_bytes};
use super::online::Party;
use crate::net::Network;

/// One resharing round of the one-hot preprocessing (Protocols 5 and 8): masks this party's
/// bit-packed `message` of `total` bits with a PRSS zero sharing, sends it to the previous party
/// and receives the next party's. Returns (own masked message, received message); bits past
/// `total` are zero in both, and a peer's nonzero padding is an error.
pub(super) async fn reshare_bit_message<N: Network>(
    party: &mut Party,
    net: &mut N,
    mut message: Vec<u8>,
    total: usize,
) -> Result<(Vec<u8>, Vec<u8>), MaestroError> {
    let me = party.id();
    let mut zero = vec![0u8; total.div_ceil(8)];
    party.prss_mut().zero_into(&mut zero);
    for (b, z) in message.iter_mut().zip(&zero) {
        *b ^= z;
    }
    if !total.is_multiple_of(8) {
        if let Some(last) = message.last_mut() {
            *last &= (1u8 << (total % 8)) - 1;
        }
    }
    let step = Step::OneHotPreprocessing;
    send_bytes(net, (me + 2) % 3, message.clone(), step)?;
    let from = (me + 1) % 3;
    let received = recv_bytes(net, from, total.div_ceil(8), step).await?;
    if !total.is_multiple_of(8) && received[received.len() - 1] >> (total % 8) != 0 {
        return Err(MaestroError::NonzeroBitPadding { from, step });
    }
    Ok((message, received))
}

/// Writes runs of bits LSB-first into a bit-packed message.
pub(super) struct BitWriter {
    words: Vec<u64>,
    acc: u64,
    fill: u32,
}

impl BitWriter {
    pub(super) fn with_capacity(bits: usize) -> Self {
        BitWriter { words: Vec::with_capacity(bits.div_ceil(64)), acc: 0, fill: 0 }
    }

    /// Appends the low `n` bits of `value` (1 ≤ n ≤ 64; higher bits of `value` must be zero).
    #[inline]
    pub(super) fn push(&mut self, value: u64, n: u32) {
        self.acc |= value << self.fill;
        if self.fill + n >= 64 {
            self.words.push(self.acc);
            self.acc = if self.fill == 0 { 0 } else { value >> (64 - self.fill) };
            self.fill = self.fill + n - 64;
        } else {
            self.fill += n;
        }
    }

    /// Appends the low `n` bits of a multi-word vector (words LSB-first).
    #[inline]
    pub(super) fn push_bits(&mut self, bits: &[u64], n: usize) {
        let mut left = n;
        for &w in bits {
            if left == 0 {
                break;
            }
            let take = left.min(64);
            self.push(w & low_mask(take), take as u32);
            left -= take;
        }
    }

    /// The message: ⌈bits/8⌉ bytes.
    pub(super) fn finish(mut self, bits: usize) -> Vec<u8> {
        if self.fill > 0 {
            self.words.push(self.acc);
        }
        let mut bytes: Vec<u8> = self.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes.resize(bits.div_ceil(8), 0);
        bytes
    }
}

/// A word with the low `n` bits set (all of them for n ≥ 64).
#[inline]
pub(super) fn low_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// A bit-packed message as words, read in runs of bits.
pub(super) struct BitReader(Vec<u64>);

impl BitReader {
    pub(super) fn new(bytes: &[u8]) -> Self {
        BitReader(
            bytes
                .chunks(8)
                .map(|c| {
                    let mut w = [0u8; 8];
                    w[..c.len()].copy_from_slice(c);
                    u64::from_le_bytes(w)
                })
                .collect(),
        )
    }

    /// The `n` bits (1 ≤ n ≤ 64) starting at bit `pos`.
    #[inline]
    pub(super) fn get(&self, pos: usize, n: usize) -> u64 {
        let (i, off) = (pos / 64, pos % 64);
        let mut v = self.0[i] >> off;
        if off > 0 && off + n > 64 {
            v |= self.0[i + 1] << (64 - off);
        }
        v & low_mask(n)
    }

    /// The `n` bits (n ≤ 256) starting at bit `pos`, as a 256-bit vector.
    #[inline]
    pub(super) fn get_bits(&self, pos: usize, n: usize) -> [u64; 4] {
        let mut out = [0u64; 4];
        let mut done = 0;
        while done < n {
            let take = (n - done).min(64);
            out[done / 64] = self.get(pos + done, take);
            done += take;
        }
        out
    }
}
