//! Two-party preprocessing of Fig. 8 (§4): TinyTable material built from TinyOT-format
//! authenticated bits and AND triples ([`crate::proto::tinytable::prep::tinyot`]), run as real message passing over the
//! [`Network`].
//!
//! Steps (for a batch of `n` instances of one circuit, all gates at once):
//! 1. one AND triple per AND gate, one random `[[r]]` per input wire and AND-output wire
//!    (Fig. 8 steps 1–2, from the [`TinyOtSource`]);
//! 2. masks of XOR/NOT/copy gates by local sums (step 3; constants get `[[0]]`);
//! 3. **one round:** open `r_u ⊕ x`, `r_v ⊕ y` of every AND gate (Beaver \[Bea91\]) with MAC checks,
//!    then locally `[[r_u r_v]]` and the four `[[t_{c,d}]] = [[r_u r_v]] ⊕ c[[r_v]] ⊕ d[[r_u]] ⊕ cd ⊕
//!    [[r_o]]` (step 3). A party's table entry is its share of `t_{c,d}`; its authentication string
//!    is `F(y)` for its MAC `y`, and its verification strings for the peer's entry are
//!    `F(β ⊕ b·α)` for `b ∈ {0, 1}` (`F` = [`crate::proto::tinytable::mac::lookup`]'s random oracle, footnote a);
//! 4. **one round:** open each input mask to its owner (step 4), and — passive material only —
//!    each output mask to its recipients.
//!
//! Openings send the bits and a SHA-256 digest of their MACs (the receiver recomputes the digest
//! of the MACs the bits must carry), so a flipped bit is caught unless the cheater guesses a `k`-bit
//! MAC; a mismatch aborts with [`TinyTableError::MacCheckFailed`].
//!
//! Deviation from Fig. 8, for the malicious material: output masks are *not* opened in step 4. Each
//! party keeps its share of `[[r_o]]` committed with `F`-derived strings, and the online phase opens
//! them only after the table check (see [`crate::proto::tinytable::circuit::malicious_prep`] for why).

use crate::circuit::{AndGate, Circuit, LinearGate};
use crate::net::{Network, PartyId};
use crate::proto::tinytable::circuit::malicious_prep::{output_positions, MaliciousPrep, TableKeys};
use crate::proto::tinytable::circuit::prep::BinaryPrep;
use crate::proto::tinytable::circuit::slice::lane_words;
use crate::proto::tinytable::error::{MacCheck, Step, TinyTableError};
use crate::proto::tinytable::mac::lookup::{derive_into, MacWord, Tweak};
use crate::proto::tinytable::msg::{bit, check_two_parties, pack_bits, recv, send};
use crate::proto::tinytable::prep::tinyot::{Auth, TinyOtSource};
use crate::proto::tinytable::spec::IoSpec;
use sha2::{Digest, Sha256};

/// Authenticated table entries and wire masks of a batch (steps 1–3).
struct Tables<M> {
    party: PartyId,
    alpha: M,
    instances: usize,
    gates: usize,
    /// `[[r_w]]` of wire `w`, instance `i`: index `w·n + i`.
    masks: Vec<Auth<M>>,
    /// `[[t_{c,d}]]` of AND gate `g` (layer order), instance `i`, entry `e = 2c + d`:
    /// index `(g·n + i)·4 + e`.
    entries: Vec<Auth<M>>,
}

/// Digest of the MACs of opened bits, bound to the step.
fn digest<M: MacWord>(step: Step, macs: impl Iterator<Item = M>) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(format!("chorus/tinytable/fig8/open/{step}").as_bytes());
    let mut raw = Vec::with_capacity(M::BYTES);
    for m in macs {
        raw.clear();
        m.put(&mut raw);
        h.update(&raw);
    }
    h.finalize().into()
}

/// Opens `send_shares` to the peer and reconstructs the values the peer opens to this party
/// (`recv_shares` are this party's shares of them), checking the peer's MACs.
async fn open<N: Network, M: MacWord>(
    net: &mut N,
    step: Step,
    check: MacCheck,
    alpha: M,
    send_shares: &[Auth<M>],
    recv_shares: &[Auth<M>],
) -> Result<Vec<bool>, TinyTableError> {
    let mut msg = pack_bits(send_shares.iter().map(|a| a.bit));
    msg.extend_from_slice(&digest(step, send_shares.iter().map(|a| a.mac)));
    send(net, step, msg)?;
    let bits_len = recv_shares.len().div_ceil(8);
    let msg = recv(net, step, bits_len + 32).await?;
    let peer_bits: Vec<bool> = (0..recv_shares.len()).map(|j| bit(&msg, j)).collect();
    let expected =
        digest(step, recv_shares.iter().zip(&peer_bits).map(|(a, &b)| a.expected_peer_mac(b, alpha)));
    if expected[..] != msg[bits_len..] {
        return Err(TinyTableError::MacCheckFailed { party: net.party(), check });
    }
    Ok(recv_shares.iter().zip(peer_bits).map(|(a, b)| a.bit ^ b).collect())
}

/// Steps 1–3 of Fig. 8 for `n` instances.
async fn build_tables<N: Network, M: MacWord, S: TinyOtSource<M>>(
    net: &mut N,
    source: &mut S,
    circuit: &Circuit,
    io: &IoSpec,
    n: usize,
) -> Result<Tables<M>, TinyTableError> {
    check_two_parties(net)?;
    io.check(circuit)?;
    let party = net.party();
    let alpha = source.global_key();
    let gates: Vec<AndGate> = circuit.and_layers().flatten().copied().collect();
    let triples = source.and_triples(net, gates.len() * n).await?;
    let fresh = source.random_bits(net, (circuit.num_input_wires() + gates.len()) * n).await?;
    let mut fresh = fresh.into_iter();
    let mut masks = vec![Auth::default(); circuit.num_wires() * n];
    for m in masks.iter_mut().take(circuit.num_input_wires() * n) {
        *m = fresh.next().unwrap_or_default();
    }
    for layer in circuit.layers() {
        for g in layer.and_gates {
            for i in 0..n {
                masks[g.out as usize * n + i] = fresh.next().unwrap_or_default();
            }
        }
        for gate in layer.linear_gates {
            for i in 0..n {
                masks[gate.out() as usize * n + i] = match *gate {
                    LinearGate::Xor { a, b, .. } => masks[a as usize * n + i].xor(masks[b as usize * n + i]),
                    LinearGate::Inv { a, .. } | LinearGate::Copy { a, .. } => masks[a as usize * n + i],
                    LinearGate::Const { .. } => Auth::default(),
                };
            }
        }
    }
    // The working memory peaks below; what is no longer needed goes first.
    drop(fresh);
    let mut opened = Vec::with_capacity(2 * gates.len() * n);
    for (g, gate) in gates.iter().enumerate() {
        for i in 0..n {
            let [x, y, _] = triples[g * n + i];
            opened.push(masks[gate.a as usize * n + i].xor(x));
            opened.push(masks[gate.b as usize * n + i].xor(y));
        }
    }
    let de = open(net, Step::PrepBeaver, MacCheck::PrepBeaver, alpha, &opened, &opened).await?;
    drop(opened);
    let mut entries = Vec::with_capacity(4 * gates.len() * n);
    for (g, gate) in gates.iter().enumerate() {
        for i in 0..n {
            let [x, y, z] = triples[g * n + i];
            let (d, e) = (de[2 * (g * n + i)], de[2 * (g * n + i) + 1]);
            let (ru, rv) = (masks[gate.a as usize * n + i], masks[gate.b as usize * n + i]);
            let ro = masks[gate.out as usize * n + i];
            let product = z.xor(y.times(d)).xor(x.times(e)).add_public(d & e, party, alpha);
            for entry in 0..4 {
                let (c, dd) = (entry >> 1 == 1, entry & 1 == 1);
                let t = product.xor(rv.times(c)).xor(ru.times(dd)).xor(ro).add_public(c & dd, party, alpha);
                entries.push(t);
            }
        }
    }
    Ok(Tables { party, alpha, instances: n, gates: gates.len(), masks, entries })
}

impl<M: MacWord> Tables<M> {
    fn input_wire_masks(&self, circuit: &Circuit, io: &IoSpec, owner: PartyId) -> Vec<Auth<M>> {
        let n = self.instances;
        let wires = io.owned_input_wires(circuit, owner);
        (0..n).flat_map(|i| wires.iter().map(move |&w| w * n + i)).map(|j| self.masks[j]).collect()
    }

    /// What `F` hashes into the verification strings of the peer's committed bit `share` under
    /// `tweak`: `(tweak, β ⊕ b·α)` for `b = 0, 1`.
    fn key_inputs(&self, tweak: Tweak, share: Auth<M>) -> [(Tweak, M); 2] {
        [false, true].map(|b| (tweak, share.expected_peer_mac(b, self.alpha)))
    }
}

/// Fig. 8 producing passive material: one [`BinaryPrep`] per instance for this party, with input
/// masks opened to their owners and output masks to their recipients (step 4).
pub async fn fig8_binary<N: Network, M: MacWord, S: TinyOtSource<M>>(
    net: &mut N,
    source: &mut S,
    circuit: &Circuit,
    io: &IoSpec,
    instances: usize,
) -> Result<Vec<BinaryPrep>, TinyTableError> {
    let t = build_tables(net, source, circuit, io, instances).await?;
    let (party, n) = (t.party, instances);
    let out_wires = |p| io.revealed_output_wires(circuit, p);
    let out_masks = |p| -> Vec<Auth<M>> {
        (0..n).flat_map(|i| out_wires(p).into_iter().map(move |w| w * n + i)).map(|j| t.masks[j]).collect()
    };
    let mut to_peer = t.input_wire_masks(circuit, io, 1 - party);
    to_peer.extend(out_masks(1 - party));
    let mut to_me = t.input_wire_masks(circuit, io, party);
    let my_inputs = to_me.len() / n.max(1);
    to_me.extend(out_masks(party));
    let opened = open(net, Step::PrepMaskOpening, MacCheck::PrepMasks, t.alpha, &to_peer, &to_me).await?;
    let my_outputs = out_wires(party).len();
    let (inputs, outputs) = opened.split_at(my_inputs * n);
    Ok((0..n)
        .map(|i| {
            let mut tables = vec![0u8; t.gates.div_ceil(2)];
            for g in 0..t.gates {
                for e in 0..4 {
                    let b = t.entries[(g * n + i) * 4 + e].bit;
                    tables[g / 2] |= u8::from(b) << (4 * (g % 2) + e);
                }
            }
            BinaryPrep {
                party,
                io: io.clone(),
                and_gates: t.gates,
                tables,
                input_masks: inputs[i * my_inputs..(i + 1) * my_inputs].to_vec(),
                output_masks: outputs[i * my_outputs..(i + 1) * my_outputs].to_vec(),
            }
        })
        .collect())
}

/// Fig. 8 producing malicious material ([`MaliciousPrep`]) for this party, with input masks opened
/// to their owners and output masks kept shared and committed (see the module docs).
pub async fn fig8_malicious<N: Network, M: MacWord, S: TinyOtSource<M>>(
    net: &mut N,
    source: &mut S,
    circuit: &Circuit,
    io: &IoSpec,
    instances: usize,
) -> Result<MaliciousPrep<M>, TinyTableError> {
    let t = build_tables(net, source, circuit, io, instances).await?;
    let (party, peer, n, l) = (t.party, 1 - t.party, instances, lane_words(instances));
    let to_peer = t.input_wire_masks(circuit, io, peer);
    let to_me = t.input_wire_masks(circuit, io, party);
    let opened = open(net, Step::PrepMaskOpening, MacCheck::PrepMasks, t.alpha, &to_peer, &to_me).await?;
    let my_inputs = to_me.len() / n.max(1);
    let mut input_masks = vec![0u64; my_inputs * l];
    for (j, &r) in opened.iter().enumerate() {
        let (i, k) = (j / my_inputs.max(1), j % my_inputs.max(1));
        input_masks[k * l + i / 64] |= u64::from(r) << (i % 64);
    }

    let mut tables = vec![0u64; 4 * t.gates * l];
    // Entry j of `t.entries` is entry j % 4 of gate j / 4n, instance (j / 4) % n.
    let position = |j: usize| (j / (4 * n), j / 4 % n, j % 4);
    let table = |j: usize, prover| {
        let (gate, instance, entry) = position(j);
        Tweak::Table { prover, gate, instance, entry }
    };
    for (j, share) in t.entries.iter().enumerate() {
        let (g, i, entry) = position(j);
        tables[(4 * g + entry) * l + i / 64] |= u64::from(share.bit) << (i % 64);
    }
    let mut own_macs = Vec::with_capacity(4 * t.gates * n);
    derive_into(t.entries.iter().enumerate().map(|(j, share)| (table(j, party), share.mac)), &mut own_macs);
    let mut peer_keys = Vec::with_capacity(8 * t.gates * n);
    derive_into(
        t.entries.iter().enumerate().flat_map(|(j, &share)| t.key_inputs(table(j, peer), share)),
        &mut peer_keys,
    );

    let first_out = circuit.num_wires() - circuit.num_output_wires();
    let mut out_shares = vec![0u64; circuit.num_output_wires() * l];
    for p in 0..circuit.num_output_wires() {
        for i in 0..n {
            out_shares[p * l + i / 64] |= u64::from(t.masks[(first_out + p) * n + i].bit) << (i % 64);
        }
    }
    let t = &t;
    let out_share = move |p: usize, i: usize| t.masks[(first_out + p) * n + i];
    let mut out_macs = Vec::new();
    derive_into(
        output_positions(circuit, io, peer).into_iter().flat_map(|p| {
            (0..n).map(move |i| {
                (Tweak::Output { prover: party, position: p, instance: i }, out_share(p, i).mac)
            })
        }),
        &mut out_macs,
    );
    let mut out_keys = Vec::new();
    derive_into(
        output_positions(circuit, io, party).into_iter().flat_map(|p| {
            (0..n).flat_map(move |i| {
                t.key_inputs(Tweak::Output { prover: peer, position: p, instance: i }, out_share(p, i))
            })
        }),
        &mut out_keys,
    );
    Ok(MaliciousPrep {
        party,
        io: io.clone(),
        instances: n,
        and_gates: t.gates,
        tables,
        input_masks,
        own_macs,
        peer_keys: TableKeys::Explicit(peer_keys),
        out_shares,
        out_macs,
        out_keys,
    })
}
