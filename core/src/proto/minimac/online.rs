//! The online phase for any boolean circuit (Fig. 2 with the MiniTrix changes of §4): inputs,
//! XOR/NOT/constants locally, AND gates by the bit-packing multiplication with one round per AND
//! layer, then the batched check, the output opening and its check.
//!
//! **Private outputs** (Fig. 2 "Output", step 1: "`[[y]]` is opened privately to each player
//! `P_i`"; Fig. 2 "Input" opens `[[r]]` privately the other way round). The paper's per-share MACs
//! let `P_i` check the other's share with its own key; with the shared MAC of [`super::prep`] no
//! party can check a MAC alone, so an output wire `y` for party `p` only is opened *masked*, as
//! SPDZ does: every party adds its share of the dealer's output mask `[[s]]*` (a uniformly random
//! codeword of `C*` whose data `s` only `p` knows) and the sum `y + s` is opened to everybody like
//! any other output, logged, and checked by the same batched codeword and MAC check
//! ([`super::checks`]) before anyone returns an output. `p` then reads `y`'s data as the first `k`
//! symbols of `y + s` minus `s`; every other party returns `None`. Privacy: `y + s` is uniform in
//! `C*` and independent of `y` (`s` is uniform in `C*` and used once), so a non-recipient sees
//! nothing, and the recipient learns only `y`'s data (the non-data coefficients of `s` stay
//! unknown to it). Integrity: a non-recipient that changes its share or MAC share of `y + s` is a
//! deviation of an opened value, caught with the bound of [`super::checks`]; `p` returns nothing
//! unless the check passed. Same bytes and rounds as an opening to everybody.
//!
//! SIMD layout (§4.3): one codeword carries one wire of up to `8·k` instances; instance `i` sits in
//! bit `i mod 8` of data symbol `⌊i/8⌋`. Every instance runs the same circuit, so no positions
//! ever need to move (the permutation sub-protocol of the original MiniMac is not needed, as §2
//! notes). NOT and constant 1 add the all-`0xff` vector, whose codeword is the constant `0xff` in
//! every position of `C` and `C*` (a zero-degree constant, §4.5).

use super::checks::{batched_check, CheckContext, Coins, OpenLog, DIGEST_BYTES};
use super::error::{MiniMacError, Step};
use super::msg::{Framer, Kind};
use super::mult::{and_gate, AndScratch};
use super::params::{MiniMacCode, Options};
use super::prep::{xor_into, PartyPrep, A, B};
use crate::circuit::{Circuit, LinearGate};
use crate::field::Gf256;
use crate::net::{Network, PartyId};
use rand_core::{CryptoRng, RngCore};

/// Outputs of one batch: `outputs[instance][value]` holds the bits of output value `value`.
pub type BatchOutputs = Vec<Vec<Vec<bool>>>;

/// Outputs of one batch with per-value recipients: `outputs[instance][value]` holds the bits of
/// output value `value` if it was revealed to this party, else `None`.
pub type RevealedOutputs = Vec<Vec<Option<Vec<bool>>>>;

/// Evaluates `circuit` on a batch of instances with this party's material `prep`, every output
/// value revealed to every party (material dealt for private outputs is refused, before any
/// communication, unless all of them are for this party; see [`evaluate_revealed`]).
///
/// `inputs[i]` holds, for instance `i`, the bits of every input value this party owns (in circuit
/// order; empty for a party that owns none). All parties must pass the same number of instances
/// (at most `8·k` of the code). Every output value is revealed to every party, after both checks
/// passed. `rng` supplies the coin-toss seeds and commitment nonces.
pub async fn evaluate<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    circuit: &Circuit,
    prep: &PartyPrep,
    inputs: &[Vec<Vec<bool>>],
    options: Options,
    rng: &mut R,
) -> Result<BatchOutputs, MiniMacError> {
    let me = net.party();
    if let Some(p) = prep.output_recipients.iter().flatten().find(|&&p| p != me) {
        return Err(MiniMacError::MaterialMismatch(format!(
            "the material reveals an output to party {p} only: use evaluate_revealed"
        )));
    }
    let outputs = evaluate_revealed(net, circuit, prep, inputs, options, rng).await?;
    outputs
        .into_iter()
        .map(|values| values.into_iter().collect::<Option<Vec<_>>>())
        .collect::<Option<BatchOutputs>>()
        .ok_or(MiniMacError::MaterialMismatch("an output was not revealed to this party".into()))
}

/// [`evaluate`] with the recipients the material was dealt for
/// ([`super::PrepRequest::with_recipients`]): an output value for one party only is opened to it
/// by the masked opening of the module docs and is `None` at every other party.
pub async fn evaluate_revealed<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    circuit: &Circuit,
    prep: &PartyPrep,
    inputs: &[Vec<Vec<bool>>],
    options: Options,
    rng: &mut R,
) -> Result<RevealedOutputs, MiniMacError> {
    let (me, parties) = (net.party(), net.parties());
    let code = prep.code.code();
    let (n, k) = (code.n(), code.k());
    check_setup(net, circuit, prep, inputs, code)?;
    let peers: Vec<PartyId> = (0..parties).filter(|&p| p != me).collect();
    let instances = inputs.len();
    let wire_len = 2 * n;
    // Live wires only ([`crate::circuit::WireSlots`]: input wire i is slot i).
    let slots = circuit.wire_slots();
    let mut wires = vec![0u8; slots.slots() * wire_len];
    let mut framer = Framer::new(parties);
    let mut log = OpenLog::new(n, parties);
    let (mut coins, commitments) = Coins::new(me, parties, rng);
    let mut alpha_ff = vec![Gf256(0); n];
    Gf256::mul_add_scalar_slice(&mut alpha_ff, Gf256::from_bytes(&prep.alpha), Gf256(0xff));
    let alpha_ff = Gf256::as_bytes(&alpha_ff).to_vec();

    // Input (Fig. 2): the owner of wire w sends ε = x - r (data only; everybody encodes it).
    let step = Step::Input;
    let mut body = commitments;
    let own_wires = owned_wires(circuit, prep, me);
    let mut own_eps = Vec::with_capacity(own_wires.len() * k);
    for (j, &(value, bit)) in own_wires.iter().enumerate() {
        let mut data = prep.own_masks[j * k..(j + 1) * k].to_vec();
        for (i, instance) in inputs.iter().enumerate() {
            data[i / 8] ^= u8::from(instance[value][bit]) << (i % 8);
        }
        own_eps.extend_from_slice(&data);
    }
    body.extend_from_slice(&own_eps);
    framer.send_all(net, Kind::Input, &body, step)?;
    let mut eps_by_party: Vec<Vec<u8>> = vec![Vec::new(); parties];
    eps_by_party[me] = own_eps;
    for &p in &peers {
        let count = prep.input_owners.iter().filter(|&&o| o == p).count();
        let msg = framer.recv(net, p, Kind::Input, 2 * DIGEST_BYTES + count * k, step).await?;
        coins.set_commitments(p, &msg[..2 * DIGEST_BYTES]);
        eps_by_party[p] = msg[2 * DIGEST_BYTES..].to_vec();
    }
    let mut next_of = vec![0usize; parties];
    let mut encoded = vec![Gf256(0); n];
    let mut planes = vec![Gf256(0); 8 * n];
    for (w, &owner) in prep.input_owners.iter().enumerate() {
        let j = next_of[owner];
        next_of[owner] += 1;
        let eps = &eps_by_party[owner][j * k..(j + 1) * k];
        log.observe(eps);
        code.c.encode_public_into(Gf256::from_bytes(eps), &mut encoded, &mut planes)?;
        let share = &mut wires[w * wire_len..(w + 1) * wire_len];
        share.copy_from_slice(&prep.input_masks[w * wire_len..(w + 1) * wire_len]);
        add_public(share, &encoded, &prep.alpha, me == 0);
    }

    // The circuit, layer by layer; each AND layer's openings in one round (§4.4).
    let mut scratch = AndScratch::new(code);
    let mut next_triple = 0usize;
    let mut round = 0usize;
    for layer in slots.layers() {
        let per_round = if options.simultaneous { layer.and_gates.len().max(1) } else { 1 };
        for chunk in layer.and_gates.chunks(per_round) {
            round += 1;
            let step = Step::AndRound(round);
            let mut shares = vec![0u8; chunk.len() * 2 * n];
            let mut macs = vec![0u8; chunk.len() * 2 * n];
            for (g, gate) in chunk.iter().enumerate() {
                let triple = prep.triple(next_triple + g);
                for (slot, (wire, word)) in
                    [(gate.a as usize, A), (gate.b as usize, B)].into_iter().enumerate()
                {
                    let at = (2 * g + slot) * n;
                    let held = &wires[wire * wire_len..(wire + 1) * wire_len];
                    let mask = &triple[word * wire_len..(word + 1) * wire_len];
                    for (s, (h, m)) in shares[at..at + n].iter_mut().zip(held[..n].iter().zip(&mask[..n])) {
                        *s = h ^ m;
                    }
                    for (s, (h, m)) in macs[at..at + n].iter_mut().zip(held[n..].iter().zip(&mask[n..])) {
                        *s = h ^ m;
                    }
                }
            }
            framer.send_all(net, Kind::Open, &shares, step)?;
            crate::net::yield_now().await;
            let mut opened = shares;
            for &p in &peers {
                let theirs = framer.recv(net, p, Kind::Open, opened.len(), step).await?;
                xor_into(&mut opened, &theirs);
            }
            for (g, gate) in chunk.iter().enumerate() {
                let eps = &opened[2 * g * n..(2 * g + 1) * n];
                let delta = &opened[(2 * g + 1) * n..(2 * g + 2) * n];
                log.push(eps, &macs[2 * g * n..(2 * g + 1) * n]);
                log.push(delta, &macs[(2 * g + 1) * n..(2 * g + 2) * n]);
                let out = gate.out as usize;
                let triple = prep.triple(next_triple + g);
                let share = &mut wires[out * wire_len..(out + 1) * wire_len];
                and_gate(code, me == 0, &prep.alpha, eps, delta, triple, share, &mut scratch)?;
            }
            next_triple += chunk.len();
        }
        for gate in layer.linear_gates {
            linear_gate(&mut wires, wire_len, gate, &alpha_ff, me == 0);
        }
    }

    let ctx = CheckContext { code, alpha: &prep.alpha, framer: &mut framer, coins: &coins };
    batched_check(net, ctx, log, 0, Step::GateCheck, rng).await?;

    // Output (Fig. 2): open every output wire (masked if it has one recipient), then check.
    let step = Step::OutputOpening;
    let out_wires: Vec<usize> = slots.outputs().iter().map(|&w| w as usize).collect();
    let mut shares = Vec::with_capacity(out_wires.len() * n);
    let mut macs = Vec::with_capacity(out_wires.len() * n);
    let mut masks = prep.output_masks.chunks_exact(wire_len);
    for (&w, recipient) in out_wires.iter().zip(&prep.output_recipients) {
        let (at, end) = (shares.len(), shares.len() + n);
        shares.extend_from_slice(&wires[w * wire_len..w * wire_len + n]);
        macs.extend_from_slice(&wires[w * wire_len + n..(w + 1) * wire_len]);
        if recipient.is_some() {
            let mask = masks.next().ok_or(MiniMacError::MaterialMismatch("too few output masks".into()))?;
            xor_into(&mut shares[at..end], &mask[..n]);
            xor_into(&mut macs[at..end], &mask[n..]);
        }
    }
    framer.send_all(net, Kind::Output, &shares, step)?;
    let mut opened = shares;
    for &p in &peers {
        let theirs = framer.recv(net, p, Kind::Output, opened.len(), step).await?;
        xor_into(&mut opened, &theirs);
    }
    let mut out_log = OpenLog::new(n, parties);
    for (value, mac) in opened.chunks_exact(n).zip(macs.chunks_exact(n)) {
        out_log.push(value, mac);
    }
    let ctx = CheckContext { code, alpha: &prep.alpha, framer: &mut framer, coins: &coins };
    batched_check(net, ctx, out_log, 1, Step::OutputCheck, rng).await?;

    // Only now, after the check: unmask this party's private outputs.
    let mut own_masks = prep.own_output_masks.chunks_exact(k);
    for (word, recipient) in opened.chunks_exact_mut(n).zip(&prep.output_recipients) {
        if *recipient == Some(me) {
            let s =
                own_masks.next().ok_or(MiniMacError::MaterialMismatch("too few own output masks".into()))?;
            xor_into(&mut word[..k], s);
        }
    }
    let mut outputs = vec![Vec::with_capacity(circuit.output_widths().len()); instances];
    let mut at = 0usize;
    for &width in circuit.output_widths() {
        let words = &opened[at * n..(at + width as usize) * n];
        let revealed = prep.output_recipients.get(at).copied().flatten().is_none_or(|p| p == me);
        for (i, instance) in outputs.iter_mut().enumerate() {
            instance.push(
                revealed
                    .then(|| words.chunks_exact(n).map(|word| (word[i / 8] >> (i % 8)) & 1 == 1).collect()),
            );
        }
        at += width as usize;
    }
    Ok(outputs)
}

/// `(owned value index, bit index)` of every input wire `party` owns, in wire order.
fn owned_wires(circuit: &Circuit, prep: &PartyPrep, party: PartyId) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut wire, mut owned_value) = (0usize, 0usize);
    for &width in circuit.input_widths() {
        if prep.input_owners[wire] == party {
            out.extend((0..width as usize).map(|bit| (owned_value, bit)));
            owned_value += 1;
        }
        wire += width as usize;
    }
    out
}

/// Adds the public codeword `word` to a share (value to party 0 only, `α_p ∗ word` to every MAC).
fn add_public(share: &mut [u8], word: &[Gf256], alpha: &[u8], first: bool) {
    let n = word.len();
    let (value, mac) = share.split_at_mut(n);
    if first {
        xor_into(value, Gf256::as_bytes(word));
    }
    Gf256::mul_add_slices(Gf256::from_bytes_mut(mac), Gf256::from_bytes(alpha), word);
}

/// A linear gate on shares: XOR adds, NOT and constant 1 add the all-`0xff` constant codeword.
fn linear_gate(wires: &mut [u8], len: usize, gate: &LinearGate, alpha_ff: &[u8], first: bool) {
    let n = len / 2;
    let (out, a, b, add_ones) = match *gate {
        LinearGate::Xor { a, b, out } => (out, Some(a), Some(b), false),
        LinearGate::Inv { a, out } => (out, Some(a), None, true),
        LinearGate::Copy { a, out } => (out, Some(a), None, false),
        LinearGate::Const { value, out } => (out, None, None, value),
    };
    let out = out as usize;
    // Inputs are written before the gate; when they are numbered below its output (the usual
    // layout) the output is computed in place, otherwise through a copy.
    let in_place = a.into_iter().chain(b).all(|w| (w as usize) < out);
    let mut tmp = [0u8; 512];
    let (inputs, target): (&[u8], &mut [u8]) = if in_place {
        let (lo, hi) = wires.split_at_mut(out * len);
        (lo, &mut hi[..len])
    } else {
        (&*wires, &mut tmp[..len])
    };
    let wire = |w: u32| &inputs[w as usize * len..(w as usize + 1) * len];
    match (a, b) {
        (Some(a), Some(b)) => {
            for (t, (x, y)) in target.iter_mut().zip(wire(a).iter().zip(wire(b))) {
                *t = x ^ y;
            }
        }
        (Some(a), None) => target.copy_from_slice(wire(a)),
        _ => target.fill(0),
    }
    if add_ones {
        if first {
            target[..n].iter_mut().for_each(|v| *v ^= 0xff);
        }
        xor_into(&mut target[n..], alpha_ff);
    }
    if !in_place {
        wires[out * len..(out + 1) * len].copy_from_slice(&tmp[..len]);
    }
}

/// Checks the session, material and inputs against each other.
fn check_setup<N: Network>(
    net: &N,
    circuit: &Circuit,
    prep: &PartyPrep,
    inputs: &[Vec<Vec<bool>>],
    code: &MiniMacCode,
) -> Result<(), MiniMacError> {
    let (me, parties) = (net.party(), net.parties());
    if parties < 2 {
        return Err(MiniMacError::TooFewParties(parties));
    }
    if prep.parties != parties || prep.party != me {
        return Err(MiniMacError::MaterialMismatch(format!(
            "material of party {} of {} used by party {me} of {parties}",
            prep.party, prep.parties
        )));
    }
    let ands = circuit.gate_counts().and;
    if prep.and_gates < ands {
        return Err(MiniMacError::NotEnoughMaterial {
            what: "AND gates",
            needed: ands,
            available: prep.and_gates,
        });
    }
    if prep.input_owners.len() != circuit.num_input_wires() {
        return Err(MiniMacError::MaterialMismatch(format!(
            "material for {} input wires, the circuit has {}",
            prep.input_owners.len(),
            circuit.num_input_wires()
        )));
    }
    check_recipients(circuit, prep, code)?;
    if inputs.is_empty() {
        return Err(MiniMacError::BadInput("a batch needs at least one instance".into()));
    }
    if inputs.len() > code.instances() {
        return Err(MiniMacError::BatchTooLarge { instances: inputs.len(), max: code.instances() });
    }
    if inputs.len() > prep.instances {
        // Positions past the material's instances have zero-data triples: x would be opened.
        return Err(MiniMacError::NotEnoughMaterial {
            what: "instances",
            needed: inputs.len(),
            available: prep.instances,
        });
    }
    let mut owned_widths = Vec::new();
    let mut wire = 0usize;
    for &width in circuit.input_widths() {
        let owner = prep.input_owners[wire];
        if prep.input_owners[wire..wire + width as usize].iter().any(|&o| o != owner) || owner >= parties {
            return Err(MiniMacError::MaterialMismatch(format!(
                "input value at wire {wire} has mixed or unknown owners"
            )));
        }
        if owner == me {
            owned_widths.push(width as usize);
        }
        wire += width as usize;
    }
    for (i, instance) in inputs.iter().enumerate() {
        if instance.len() != owned_widths.len() {
            return Err(MiniMacError::BadInput(format!(
                "instance {i} has {} input values, party {me} owns {}",
                instance.len(),
                owned_widths.len()
            )));
        }
        for (v, (bits, &width)) in instance.iter().zip(&owned_widths).enumerate() {
            if bits.len() != width {
                return Err(MiniMacError::BadInput(format!(
                    "instance {i}, owned input value {v}: {} bits, expected {width}",
                    bits.len()
                )));
            }
        }
    }
    Ok(())
}

/// Checks the output recipients of the material against the circuit: one per output wire, the
/// same for every wire of a value, a party of the session, and one mask per private wire.
fn check_recipients(circuit: &Circuit, prep: &PartyPrep, code: &MiniMacCode) -> Result<(), MiniMacError> {
    let recipients = &prep.output_recipients;
    if recipients.len() != circuit.num_output_wires() {
        return Err(MiniMacError::MaterialMismatch(format!(
            "material for {} output wires, the circuit has {}",
            recipients.len(),
            circuit.num_output_wires()
        )));
    }
    let mut wire = 0usize;
    for &width in circuit.output_widths() {
        let value = &recipients[wire..wire + width as usize];
        if value.iter().any(|&r| r != value[0]) || value[0].is_some_and(|p| p >= prep.parties) {
            return Err(MiniMacError::MaterialMismatch(format!(
                "output value at output wire {wire} has mixed or unknown recipients"
            )));
        }
        wire += width as usize;
    }
    let private = recipients.iter().flatten().count();
    let mine = recipients.iter().filter(|&&r| r == Some(prep.party)).count();
    if prep.output_masks.len() != private * 2 * code.n() || prep.own_output_masks.len() != mine * code.k() {
        return Err(MiniMacError::MaterialMismatch("output masks do not match the recipients".into()));
    }
    Ok(())
}
