//! A byte encoding of one party's MiniMac material ([`PartyPrep`]), so that a trusted dealer
//! running as its own session member can send each party its share over that pair's encrypted
//! channel (the jobs' [`crate::jobs::minimac`] runner). Decoding checks every length against the
//! code and the header, so a truncated or padded frame is a typed error naming what is wrong,
//! never a panic.
//!
//! Layout (integers big-endian): the tag [`TAG`]; party, parties, code index (one byte each); AND
//! gates, input wires and output wires (`u32` each); `α_p` (`n` bytes); the triples
//! (`and_gates · 19 · 2n` bytes); the owner of every input wire (one byte each); the input-mask
//! shares (`2n` bytes per input wire); the owner's masks (`k` bytes per owned input wire); the
//! recipient of every output wire (one byte each, [`EVERY_PARTY`] for all); the output-mask
//! shares (`2n` bytes per output wire with one recipient); the recipient's output masks (`k`
//! bytes per output wire revealed to this party only). The dealer's material is always for a full
//! batch, so the instance count is not encoded: decoded material is for `8·k` instances, and
//! [`encode`] refuses material made for fewer (the OT provider's).

use super::params::CodeChoice;
use super::prep::{PartyPrep, TRIPLE_WORDS};
use crate::proto::frame::{self, Truncated};

/// The version tag that opens an encoding.
pub const TAG: &[u8] = b"chorus/minimac/prep/v2";

/// The recipient byte of an output wire revealed to every party.
pub const EVERY_PARTY: u8 = 0xff;

/// Encodes `prep` (material for a full batch; panics on material for fewer instances, which this
/// format cannot carry).
pub fn encode(prep: &PartyPrep) -> Vec<u8> {
    assert_eq!(prep.instances, prep.code.code().instances(), "only full-batch material is encoded");
    let code_index = CodeChoice::ALL.iter().position(|&c| c == prep.code).unwrap_or(0) as u8;
    let wires = prep.input_owners.len() + prep.output_recipients.len();
    let mut out = Vec::with_capacity(TAG.len() + 15 + prep.stored_bytes() + wires);
    out.extend_from_slice(TAG);
    out.extend_from_slice(&[prep.party as u8, prep.parties as u8, code_index]);
    out.extend_from_slice(&(prep.and_gates as u32).to_be_bytes());
    out.extend_from_slice(&(prep.input_owners.len() as u32).to_be_bytes());
    out.extend_from_slice(&(prep.output_recipients.len() as u32).to_be_bytes());
    out.extend_from_slice(&prep.alpha);
    out.extend_from_slice(&prep.triples);
    out.extend(prep.input_owners.iter().map(|&p| p as u8));
    out.extend_from_slice(&prep.input_masks);
    out.extend_from_slice(&prep.own_masks);
    out.extend(prep.output_recipients.iter().map(|r| r.map_or(EVERY_PARTY, |p| p as u8)));
    out.extend_from_slice(&prep.output_masks);
    out.extend_from_slice(&prep.own_output_masks);
    out
}

/// Reads `len` bytes from the front of `rest`; a short input names the field `what`.
fn take<'a>(rest: &mut &'a [u8], len: usize, what: &str) -> Result<&'a [u8], String> {
    frame::take(rest, len).map_err(|Truncated { needed, left }| {
        format!("truncated MiniMac material: {what} needs {needed} bytes, {left} left")
    })
}

/// Decodes one party's material; the message names the first field that does not fit.
pub fn decode(bytes: &[u8]) -> Result<PartyPrep, String> {
    let mut rest = bytes;
    if take(&mut rest, TAG.len(), "the tag")? != TAG {
        return Err("not MiniMac material (wrong tag)".into());
    }
    let head = take(&mut rest, 3, "the header")?;
    let (party, parties) = (head[0] as usize, head[1] as usize);
    let code =
        *CodeChoice::ALL.get(head[2] as usize).ok_or_else(|| format!("unknown code index {}", head[2]))?;
    if parties < 2 || party >= parties {
        return Err(format!("party {party} of {parties} is not a MiniMac session"));
    }
    let u32_at = |rest: &mut &[u8], what: &str| -> Result<usize, String> {
        let b = take(rest, 4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    let and_gates = u32_at(&mut rest, "the AND-gate count")?;
    let wires = u32_at(&mut rest, "the input-wire count")?;
    let output_wires = u32_at(&mut rest, "the output-wire count")?;
    let (n, k) = (code.code().n(), code.code().k());
    let alpha = take(&mut rest, n, "the MAC key share")?.to_vec();
    let triple_bytes = and_gates
        .checked_mul(TRIPLE_WORDS * 2 * n)
        .ok_or_else(|| format!("{and_gates} AND gates overflow the material size"))?;
    let triples = take(&mut rest, triple_bytes, "the triples")?.to_vec();
    let input_owners: Vec<usize> =
        take(&mut rest, wires, "the input owners")?.iter().map(|&p| p as usize).collect();
    if let Some(p) = input_owners.iter().find(|&&p| p >= parties) {
        return Err(format!("input owner {p} is not one of the {parties} parties"));
    }
    let input_masks = take(&mut rest, wires * 2 * n, "the input-mask shares")?.to_vec();
    let owned = input_owners.iter().filter(|&&p| p == party).count();
    let own_masks = take(&mut rest, owned * k, "the owned input masks")?.to_vec();
    let output_recipients = take(&mut rest, output_wires, "the output recipients")?
        .iter()
        .map(|&p| match p {
            EVERY_PARTY => Ok(None),
            p if (p as usize) < parties => Ok(Some(p as usize)),
            p => Err(format!("output recipient {p} is not one of the {parties} parties")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let private = output_recipients.iter().flatten().count();
    let output_masks = take(&mut rest, private * 2 * n, "the output-mask shares")?.to_vec();
    let mine = output_recipients.iter().filter(|&&r| r == Some(party)).count();
    let own_output_masks = take(&mut rest, mine * k, "the owned output masks")?.to_vec();
    if !rest.is_empty() {
        return Err(format!("{} bytes after the end of the MiniMac material", rest.len()));
    }
    Ok(PartyPrep {
        party,
        parties,
        code,
        alpha,
        and_gates,
        instances: code.code().instances(),
        triples,
        input_owners,
        input_masks,
        own_masks,
        output_recipients,
        output_masks,
        own_output_masks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::testing::random_circuit;
    use crate::proto::minimac::{PrepRequest, TrustedDealer};
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    #[test]
    fn material_round_trips_and_bad_frames_are_named() {
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        let circuit = random_circuit(&mut rng, 2, 40, 2);
        let request = PrepRequest::for_circuit(CodeChoice::Rs255_85, 2, &circuit, &[0, 1]).unwrap();
        let private = request.clone().with_recipients(&circuit, &[Some(1), None]).unwrap();
        let mut preps = TrustedDealer::new(&mut rng).deal(&request).unwrap();
        preps.extend(TrustedDealer::new(&mut rng).deal(&private).unwrap());
        for prep in &preps {
            let bytes = encode(prep);
            assert_eq!(&decode(&bytes).unwrap(), prep);
            let truncated = decode(&bytes[..bytes.len() - 1]).unwrap_err();
            let last = match prep.output_recipients.iter().filter(|&&r| r == Some(prep.party)).count() {
                0 if prep.output_recipients.iter().any(Option::is_some) => "output-mask shares",
                0 => "output recipients",
                _ => "owned output masks",
            };
            assert!(truncated.contains(last), "{truncated}");
            let mut padded = bytes.clone();
            padded.push(0);
            assert!(decode(&padded).unwrap_err().contains("after the end"));
            let mut bad_code = bytes.clone();
            bad_code[TAG.len() + 2] = 9;
            assert!(decode(&bad_code).unwrap_err().contains("unknown code"));
            assert!(decode(&bytes[..TAG.len() + 5]).unwrap_err().contains("truncated"));
            if let Some(first) = prep.output_recipients.iter().position(Option::is_some) {
                let (n, k) = (prep.code.code().n(), prep.code.code().k());
                let wires = prep.input_owners.len();
                let owned = prep.input_owners.iter().filter(|&&p| p == prep.party).count();
                let recipients = TAG.len() + 15 + n + prep.triples.len() + wires * (1 + 2 * n) + owned * k;
                let mut bad_recipient = bytes.clone();
                assert_eq!(bad_recipient[recipients + first], prep.output_recipients[first].unwrap() as u8);
                bad_recipient[recipients + first] = 2;
                assert!(decode(&bad_recipient).unwrap_err().contains("output recipient 2"));
            }
        }
        assert!(decode(b"nonsense").unwrap_err().contains("truncated"));
    }
}
