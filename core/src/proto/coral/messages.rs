//! Wire format of Coral's messages.
//!
//! Every message is a frame `[step tag: u8][sequence: u32 LE][payload]`, the header shared with
//! MiniMac (`proto::frame`). The sequence number counts the exchanges of a session (the same at
//! every party, since the protocol is in lockstep), so a replayed, reordered or misrouted frame is
//! rejected with [`CoralError::UnexpectedFrame`] before its payload is read. Field elements of
//! GF(2^42) are packed as consecutive 42-bit little-endian strings (⌈42·n/8⌉ bytes, the padding
//! bits must be zero), so byte counts match the paper's m-bits-per-element accounting.

use crate::net::{Network, PartyId};
use crate::ot::cope::pairwise::ColumnWire;
use crate::proto::frame::{FrameError, Header};

use super::error::CoralError;
use super::share::FIELD_BITS;

/// The steps that exchange messages (the frame's tag).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Step {
    /// Input owners broadcast `x − r` (rInput with a preprocessed mask).
    Input = 1,
    /// Partial opening of the masked multiplication inputs `d, e` of one AND layer (Fig. 8).
    MultOpen = 2,
    /// Partial opening of `x − r` in SIMD constant multiplication (Fig. 11).
    ConstMulOpen = 3,
    /// Coin toss: commitments to seeds.
    CoinCommit = 4,
    /// Coin toss: seeds.
    CoinOpen = 5,
    /// MAC check: commitments to σ_i.
    MacCommit = 6,
    /// MAC check: σ_i and their openings.
    MacOpen = 7,
    /// Output opening (masked with a kernel element).
    Output = 8,
    /// rConv: owners broadcast their masked φ(shares) (Fig. 6 step 2).
    RConvInput = 9,
    /// rConv: opening of the check combinations w_g and z_{g,h} (Fig. 6 steps 5, 7).
    RConvOpen = 10,
    /// Quintuple generation: owners broadcast their masked a^i, b^i (Fig. 7 step 4).
    QuintupleInput = 11,
    /// Quintuple generation: opening of the sacrifice combinations (Fig. 7 step 7).
    QuintupleSacrifice = 12,
    /// OT-based provider: the COPE columns `u` of one chunk (Fig. 18 via base OTs).
    CopeColumns = 13,
    /// OT-based provider: opening of the authentication check combination (Π_Auth).
    AuthOpen = 14,
    /// OT-based provider: opening of the encoding-pair check combinations.
    EncodingOpen = 15,
    /// Spdz2k (mixed circuits' arithmetic half): input owners broadcast `x − r` modulo 2^(k+s).
    ArithInput = 16,
    /// Spdz2k: partial opening of the Beaver differences `ε = x − a`, `ρ = y − b` of one layer.
    ArithMultOpen = 17,
    /// Spdz2k: opening of the outputs with their upper s bits masked (`y + 2^k·r`).
    ArithOutput = 18,
    /// Spdz2k OT-based provider: the COPE columns of one chunk.
    ArithCopeColumns = 19,
    /// Spdz2k OT-based provider: the authentication check's combinations.
    ArithAuthOpen = 20,
    /// Spdz2k OT-based provider: the OT-multiplication corrections `d` of one chunk of triples.
    ArithOtMultiply = 21,
    /// Spdz2k OT-based provider: the sacrifice's openings ρ and σ.
    ArithSacrifice = 22,
    /// Spdz2k OT-based provider: every party's verdict on its authentication checks.
    ArithAuthVerdict = 23,
    /// Spdz2k random bits: every party inputs its random bits (`b − r` per bit).
    ArithBitInput = 24,
    /// Spdz2k random bits: opening of the bit checks `b·(b − 1) + 2^k·r`.
    ArithBitCheck = 25,
    /// Spdz2k comparisons: opening of `x + r + 2^k·r'` with r made of checked random bits.
    ArithMaskedOpen = 26,
    /// Spdz2k boolean inputs: opening of the checks `x·(x − 1) + 2^k·r`.
    ArithBitInputCheck = 27,
    /// rConv among three or more parties: every party's verdict on the TinyOT MACs it checked.
    TinyMacVerdict = 28,
    /// Packed daBits: every party inputs its random lanes as an RMFE sharing (Fig. 19 step 1).
    DaBitInput = 29,
    /// Packed daBits: opening of the boolean halves' check combinations (Fig. 19 step 3).
    DaBitCheck = 30,
    /// Packed daBits: opening of the arithmetic halves' check parities, `2^(k−1)·z + 2^k·r`.
    DaBitParity = 31,
    /// rB2A (Fig. 20): opening of `x + r` (kernel-masked) for a packed daBit's r.
    B2aOpen = 32,
    /// A2B with edaBits: opening of `x + r` modulo 2^k (upper bits masked).
    A2bOpen = 33,
}

impl Step {
    /// The step's name in errors.
    pub fn name(self) -> &'static str {
        match self {
            Step::Input => "input",
            Step::MultOpen => "multiplication opening",
            Step::ConstMulOpen => "constant multiplication opening",
            Step::CoinCommit => "coin commitment",
            Step::CoinOpen => "coin opening",
            Step::MacCommit => "MAC-check commitment",
            Step::MacOpen => "MAC-check opening",
            Step::Output => "output opening",
            Step::RConvInput => "rConv input",
            Step::RConvOpen => "rConv opening",
            Step::QuintupleInput => "quintuple input",
            Step::QuintupleSacrifice => "quintuple sacrifice opening",
            Step::CopeColumns => "COPE columns",
            Step::AuthOpen => "authentication-check opening",
            Step::EncodingOpen => "encoding-check opening",
            Step::ArithInput => "Spdz2k input",
            Step::ArithMultOpen => "Spdz2k multiplication opening",
            Step::ArithOutput => "Spdz2k output opening",
            Step::ArithCopeColumns => "Spdz2k COPE columns",
            Step::ArithAuthOpen => "Spdz2k authentication-check opening",
            Step::ArithOtMultiply => "Spdz2k OT-multiplication corrections",
            Step::ArithSacrifice => "Spdz2k sacrifice opening",
            Step::ArithAuthVerdict => "Spdz2k authentication verdict",
            Step::ArithBitInput => "Spdz2k random-bit input",
            Step::ArithBitCheck => "Spdz2k random-bit check opening",
            Step::ArithMaskedOpen => "Spdz2k masked opening for a comparison",
            Step::ArithBitInputCheck => "Spdz2k boolean-input check opening",
            Step::TinyMacVerdict => "TinyOT MAC verdict",
            Step::DaBitInput => "daBit input",
            Step::DaBitCheck => "daBit check opening (boolean)",
            Step::DaBitParity => "daBit check opening (arithmetic parities)",
            Step::B2aOpen => "B2A opening",
            Step::A2bOpen => "A2B opening",
        }
    }
}

/// Bytes of a frame header.
pub use crate::proto::frame::HEADER_BYTES;

/// The exchange counter of a party (one per session).
#[derive(Debug, Clone, Default)]
pub struct Channel {
    seq: u32,
}

impl Channel {
    fn header(&self, step: Step) -> Header {
        Header { kind: step as u8, seq: self.seq }
    }

    fn frame(&self, step: Step, payload: &[u8]) -> Vec<u8> {
        self.header(step).frame(payload)
    }

    fn unframe(&self, peer: PartyId, step: Step, mut msg: Vec<u8>) -> Result<Vec<u8>, CoralError> {
        self.header(step).check(&msg).map_err(|e| match e {
            FrameError::Truncated(_) => {
                CoralError::malformed(peer, step.name(), "frame shorter than its header")
            }
            FrameError::Unexpected { expected, found } => CoralError::UnexpectedFrame {
                peer,
                step: step.name(),
                expected: expected.packed(),
                found: found.packed(),
            },
        })?;
        msg.drain(..HEADER_BYTES);
        Ok(msg)
    }

    /// Sends `payload` to every other party and receives theirs: returns one payload per party
    /// (this party's own at its index).
    pub async fn broadcast<N: Network>(
        &mut self,
        net: &mut N,
        step: Step,
        payload: Vec<u8>,
    ) -> Result<Vec<Vec<u8>>, CoralError> {
        net.broadcast(&self.frame(step, &payload))?;
        self.receive_all(net, step, payload).await
    }

    /// Sends `payloads[j]` to each party j ≠ me and receives one payload from each (own slot
    /// empty).
    pub async fn pairwise<N: Network>(
        &mut self,
        net: &mut N,
        step: Step,
        payloads: Vec<Vec<u8>>,
    ) -> Result<Vec<Vec<u8>>, CoralError> {
        let me = net.party();
        for (peer, payload) in payloads.iter().enumerate() {
            if peer != me {
                net.send(peer, self.frame(step, payload))?;
            }
        }
        self.receive_all(net, step, Vec::new()).await
    }

    /// Receives one frame of `step` from every other party, with `own` in this party's slot, and
    /// ends the exchange.
    async fn receive_all<N: Network>(
        &mut self,
        net: &mut N,
        step: Step,
        mut own: Vec<u8>,
    ) -> Result<Vec<Vec<u8>>, CoralError> {
        let me = net.party();
        let mut out = Vec::with_capacity(net.parties());
        for peer in 0..net.parties() {
            if peer == me {
                out.push(core::mem::take(&mut own));
            } else {
                let msg = net.recv(peer).await?;
                out.push(self.unframe(peer, step, msg)?);
            }
        }
        self.seq = self.seq.wrapping_add(1);
        Ok(out)
    }
}

/// Coral's frames of COPE columns ([`crate::ot::cope::pairwise`]): one frame of `step` to and from
/// every peer per exchange, empty ones included (the sequence number moves on alike everywhere).
pub(crate) struct ColumnFrames<'a> {
    pub channel: &'a mut Channel,
    pub step: Step,
}

impl ColumnWire for ColumnFrames<'_> {
    type Error = CoralError;

    async fn exchange<N: Network>(
        &mut self,
        net: &mut N,
        frames: Vec<Option<Vec<u8>>>,
        _sent: usize,
        _received: &[usize],
    ) -> Result<Vec<Vec<u8>>, CoralError> {
        let payloads = frames.into_iter().map(Option::unwrap_or_default).collect();
        self.channel.pairwise(net, self.step, payloads).await
    }
}

/// Bytes of `count` packed field elements.
pub const fn field_bytes(count: usize) -> usize {
    (count * FIELD_BITS).div_ceil(8)
}

/// Packs 42-bit elements (higher bits are dropped), least significant bit first: element i
/// occupies bits [42i, 42i + 42), emitted a 64-bit little-endian word at a time.
pub fn pack_elements(values: &[u64]) -> Vec<u8> {
    const MASK: u64 = (1 << FIELD_BITS) - 1;
    let len = field_bytes(values.len());
    let mut out = Vec::with_capacity(len + 8);
    let (mut acc, mut bits) = (0u128, 0u32);
    for &v in values {
        acc |= u128::from(v & MASK) << bits;
        bits += FIELD_BITS as u32;
        if bits >= 64 {
            out.extend_from_slice(&(acc as u64).to_le_bytes());
            acc >>= 64;
            bits -= 64;
        }
    }
    out.extend_from_slice(&(acc as u64).to_le_bytes());
    out.truncate(len);
    out
}

/// Unpacks exactly `count` elements; the length must be exact and the padding zero.
pub fn unpack_elements(
    bytes: &[u8],
    count: usize,
    peer: PartyId,
    step: Step,
) -> Result<Vec<u64>, CoralError> {
    const MASK: u64 = (1 << FIELD_BITS) - 1;
    if bytes.len() != field_bytes(count) {
        return Err(CoralError::malformed(
            peer,
            step.name(),
            format!("expected {} bytes for {count} field elements, got {}", field_bytes(count), bytes.len()),
        ));
    }
    let tail_bits = count * FIELD_BITS % 8;
    if tail_bits != 0 && bytes[bytes.len() - 1] >> tail_bits != 0 {
        return Err(CoralError::malformed(peer, step.name(), "non-zero padding bits"));
    }
    let word = |byte: usize| {
        let mut w = [0u8; 8];
        let end = (byte + 8).min(bytes.len());
        w[..end - byte].copy_from_slice(&bytes[byte..end]);
        u64::from_le_bytes(w)
    };
    // Elements whose word lies inside the buffer read it directly; the last few go through `word`.
    let direct = if bytes.len() >= 8 { ((bytes.len() - 8) * 8 / FIELD_BITS + 1).min(count) } else { 0 };
    let mut out = Vec::with_capacity(count);
    for i in 0..direct {
        let bit = i * FIELD_BITS;
        let w: [u8; 8] = bytes[bit / 8..bit / 8 + 8].try_into().expect("8 bytes");
        out.push(u64::from_le_bytes(w) >> (bit % 8) & MASK);
    }
    for i in direct..count {
        let bit = i * FIELD_BITS;
        out.push(word(bit / 8) >> (bit % 8) & MASK);
    }
    Ok(out)
}

/// Packs bits, 8 per byte, least significant first.
pub fn pack_bits(bits: &[bool]) -> Vec<u8> {
    let mut out = vec![0u8; bits.len().div_ceil(8)];
    for (i, &b) in bits.iter().enumerate() {
        out[i / 8] |= u8::from(b) << (i % 8);
    }
    out
}

/// Unpacks exactly `count` bits (exact length, zero padding).
pub fn unpack_bits(bytes: &[u8], count: usize, peer: PartyId, step: Step) -> Result<Vec<bool>, CoralError> {
    if bytes.len() != count.div_ceil(8) {
        return Err(CoralError::malformed(
            peer,
            step.name(),
            format!("expected {} bytes for {count} bits, got {}", count.div_ceil(8), bytes.len()),
        ));
    }
    if !count.is_multiple_of(8) && bytes[bytes.len() - 1] >> (count % 8) != 0 {
        return Err(CoralError::malformed(peer, step.name(), "non-zero padding bits"));
    }
    Ok((0..count).map(|i| bytes[i / 8] >> (i % 8) & 1 == 1).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_packing_round_trips_and_rejects_bad_lengths_and_padding() {
        let values: Vec<u64> = (0..7u64).map(|i| (i * 0x0123_4567_89ab) & ((1 << 42) - 1)).collect();
        let bytes = pack_elements(&values);
        assert_eq!(bytes.len(), (7 * 42usize).div_ceil(8));
        assert_eq!(unpack_elements(&bytes, 7, 1, Step::Input).unwrap(), values);
        assert!(matches!(unpack_elements(&bytes[1..], 7, 1, Step::Input), Err(CoralError::Malformed { .. })));
        let mut padded = bytes.clone();
        *padded.last_mut().unwrap() |= 0x80;
        assert!(matches!(unpack_elements(&padded, 7, 1, Step::Input), Err(CoralError::Malformed { .. })));
        let bits = [true, false, true, true, false, false, true, false, true];
        assert_eq!(unpack_bits(&pack_bits(&bits), 9, 0, Step::Input).unwrap(), bits);
        assert!(unpack_bits(&[0, 2], 9, 0, Step::Input).is_err());
    }

    /// Bit i of the packing is bit i % 42 of element i / 42, for every count around the word
    /// boundaries of the fast paths.
    #[test]
    fn element_packing_matches_the_bit_layout_at_every_length() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for count in 0..40usize {
            let values: Vec<u64> = (0..count)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x
                })
                .collect();
            let bytes = pack_elements(&values);
            assert_eq!(bytes.len(), field_bytes(count));
            for bit in 0..bytes.len() * 8 {
                let expected = bit < count * 42 && values[bit / 42] >> (bit % 42) & 1 == 1;
                assert_eq!(bytes[bit / 8] >> (bit % 8) & 1 == 1, expected, "count {count}, bit {bit}");
            }
            let masked: Vec<u64> = values.iter().map(|v| v & ((1 << 42) - 1)).collect();
            assert_eq!(unpack_elements(&bytes, count, 0, Step::Output).unwrap(), masked, "count {count}");
        }
    }
}
