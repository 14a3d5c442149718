//! Wire format of MAESTRO messages: a vector of GF(2^8) elements as raw bytes, one byte per
//! element in order, nothing else (the receiver knows the expected count from the protocol step,
//! so a length mismatch is a typed error rather than something to parse around).

use super::error::{MaestroError, Step};
use crate::field::Gf256;
use crate::net::{Network, PartyId};

/// Encodes field elements as one byte each.
pub fn encode(elements: &[Gf256]) -> Vec<u8> {
    elements.iter().map(|e| e.0).collect()
}

/// Decodes a message of `expected` elements from `from`, checking its length.
pub fn decode(bytes: &[u8], expected: usize, from: PartyId, step: Step) -> Result<Vec<Gf256>, MaestroError> {
    if bytes.len() != expected {
        return Err(MaestroError::MalformedMessage { from, step, expected, actual: bytes.len() });
    }
    Ok(bytes.iter().map(|&b| Gf256(b)).collect())
}

/// Wraps a network error with the step and this party's current round.
pub(crate) fn net_error<N: Network>(
    net: &N,
    step: Step,
) -> impl FnOnce(crate::net::NetError) -> MaestroError {
    let round = net.stats().rounds;
    move |source| MaestroError::Network { step, round, source }
}

/// Sends raw bytes to `to` as part of `step`.
pub(crate) fn send_bytes<N: Network>(
    net: &mut N,
    to: PartyId,
    bytes: Vec<u8>,
    step: Step,
) -> Result<(), MaestroError> {
    let wrap = net_error(net, step);
    net.send(to, bytes).map_err(wrap)
}

/// Sends field elements to `to` as part of `step`.
pub(crate) fn send_elements<N: Network>(
    net: &mut N,
    to: PartyId,
    elements: &[Gf256],
    step: Step,
) -> Result<(), MaestroError> {
    send_bytes(net, to, encode(elements), step)
}

/// Receives exactly `expected` raw bytes from `from` as part of `step`.
pub(crate) async fn recv_bytes<N: Network>(
    net: &mut N,
    from: PartyId,
    expected: usize,
    step: Step,
) -> Result<Vec<u8>, MaestroError> {
    let wrap = net_error(net, step);
    let bytes = net.recv(from).await.map_err(wrap)?;
    if bytes.len() != expected {
        return Err(MaestroError::MalformedMessage { from, step, expected, actual: bytes.len() });
    }
    Ok(bytes)
}

/// Receives exactly `expected` field elements from `from` as part of `step`.
pub(crate) async fn recv_elements<N: Network>(
    net: &mut N,
    from: PartyId,
    expected: usize,
    step: Step,
) -> Result<Vec<Gf256>, MaestroError> {
    let bytes = recv_bytes(net, from, expected, step).await?;
    Ok(bytes.into_iter().map(Gf256).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip_and_length_check() {
        let v: Vec<Gf256> = (0..=255u8).map(Gf256).collect();
        let bytes = encode(&v);
        assert_eq!(bytes.len(), 256);
        assert_eq!(decode(&bytes, 256, 1, Step::Multiply).unwrap(), v);
        assert_eq!(
            decode(&bytes[..255], 256, 1, Step::Multiply),
            Err(MaestroError::MalformedMessage { from: 1, step: Step::Multiply, expected: 256, actual: 255 })
        );
    }
}
