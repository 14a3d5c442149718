//! Message framing: bit-packing of masked bits and typed length checks on receipt.

use super::error::{Step, TinyTableError};
use crate::net::Network;

/// Packs bits into bytes, bit `i` at bit `i % 8` of byte `i / 8` (zero padding at the end).
pub(crate) fn pack_bits(bits: impl IntoIterator<Item = bool>) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, bit) in bits.into_iter().enumerate() {
        if i % 8 == 0 {
            out.push(0);
        }
        let last = out.len() - 1;
        out[last] |= u8::from(bit) << (i % 8);
    }
    out
}

/// Bit `i` of a message packed by [`pack_bits`]. The caller checked the length.
pub(crate) fn bit(bytes: &[u8], i: usize) -> bool {
    bytes[i / 8] >> (i % 8) & 1 == 1
}

/// Sends `msg` to the peer, mapping failures to a typed error naming party, step and round.
pub(crate) fn send<N: Network>(net: &mut N, step: Step, msg: Vec<u8>) -> Result<(), TinyTableError> {
    let (party, peer) = (net.party(), 1 - net.party());
    net.send(peer, msg).map_err(|source| TinyTableError::Network {
        party,
        step,
        round: net.stats().rounds,
        source,
    })
}

/// Receives the peer's message of step `step` and checks it is exactly `expected` bytes.
pub(crate) async fn recv<N: Network>(
    net: &mut N,
    step: Step,
    expected: usize,
) -> Result<Vec<u8>, TinyTableError> {
    let (party, peer) = (net.party(), 1 - net.party());
    let msg = match net.recv(peer).await {
        Ok(msg) => msg,
        Err(source) => {
            return Err(TinyTableError::Network { party, step, round: net.stats().rounds, source })
        }
    };
    if msg.len() != expected {
        return Err(TinyTableError::MalformedMessage {
            party,
            from: peer,
            step,
            round: net.stats().rounds,
            expected,
            actual: msg.len(),
        });
    }
    Ok(msg)
}

/// Checks the session has two parties.
pub(crate) fn check_two_parties<N: Network>(net: &N) -> Result<(), TinyTableError> {
    match net.parties() {
        2 => Ok(()),
        n => Err(TinyTableError::NotTwoParties(n)),
    }
}
