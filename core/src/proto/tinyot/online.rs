//! The online phase: any boolean circuit among n ≥ 2 parties on pairwise-MAC authenticated bits,
//! GMW-style with Beaver's AND triples (the online phase of multi-party TinyOT, Frederiksen–
//! Keller–Orsini–Scholl, "A Unified Approach to MPC with Preprocessing using OT", Asiacrypt 2015,
//! on the bit format of WRK17 §3; see the [parent module](super)).
//!
//! Rounds, each one frame from every party to every peer:
//! 1. **masks**: for every input wire, its owner learns the mask `r` — every other party sends
//!    its shares with a digest of their MACs under the owner's key, which the owner checks;
//! 2. **inputs**: the owner sends `d = x ⊕ r` to everyone, and every party sets `⟨x⟩ = ⟨r⟩ ⊕ d`
//!    (XOR and NOT gates are then local, like every public constant);
//! 3. **one round per AND layer**: for `z = x·y` with the gate's triple `⟨a⟩, ⟨b⟩, ⟨c⟩`, every
//!    party sends its shares of `x ⊕ a` and `y ⊕ b`; both are public once summed, and
//!    `⟨z⟩ = ⟨c⟩ ⊕ (x⊕a)·⟨b⟩ ⊕ (y⊕b)·⟨a⟩ ⊕ (x⊕a)(y⊕b)`. No MAC travels in these rounds: each party
//!    hashes the MACs of the shares it sent, per peer, and the MACs its keys expect of the
//!    shares it received;
//! 4. **check**: every party sends every peer that digest and a digest of every masked input as
//!    it received it (the echo of the owners' broadcasts); a party whose expected digest differs,
//!    or whose echo differs, records the failed check;
//! 5. **outputs**: every party sends every peer its verdict and — only if its checks passed — its
//!    shares of the outputs revealed to that peer with a digest of their MACs under the peer's
//!    key. A party aborts on any peer's failed verdict ([`TinyOtError::PeerCheckFailed`]) or on
//!    output shares whose MACs do not match ([`Check::OutputMac`]).
//!
//! So rounds = 4 + AND-depth, and per party and peer the bytes are one bit per input wire (twice:
//! the mask share to its owner, the masked value from it), two bits per AND gate, 64 bytes of
//! digests and one bit per revealed output wire, per instance; instances share the rounds.
//!
//! **Security** (with abort, up to n − 1 colluding parties, static): a share sent with a wrong
//! value changes the MAC its receiver expects by `Δ_receiver`, which the sender would have to
//! guess (128 bits); each receiver checks the shares it received, so a party that sends
//! different shares to different peers fails the check of every peer it lied to. Masked inputs
//! carry no MAC, so their echo makes an owner that tells two honest parties different values
//! fail. A party whose check failed keeps to the protocol's message pattern (an owner whose mask
//! failed sends its mask itself as the masked input, which shows nothing of its input) and
//! reports at the verdict, so every honest party aborts with a typed error naming the check, and
//! outputs open only to parties all of whose peers' checks passed. Secrets (shares, MACs, keys,
//! `Δ`) select no branch and no index; only public values (the opened bits) do.

use super::error::{Check, TinyOtError};
use super::msg::{bit, check_padding, pack, recv, send, Frames, MacDigest, Step, DIGEST};
use super::prep::{Demand, Material};
use crate::circuit::{Circuit, LinearGate};
use crate::net::{Network, PartyId};
use crate::ot::multi::{peers, NBit, MAX_PARTIES};
use crate::proto::tinytable::circuit::online::Outputs;
use sha2::{Digest, Sha256};
use std::ops::Range;

/// Most instances of one evaluation (their wires and the material are in memory at once).
pub const MAX_INSTANCES: usize = 1 << 16;

/// The zero sharing (every share, MAC and key 0).
const ZERO: NBit = NBit { bit: false, macs: [0; MAX_PARTIES], keys: [0; MAX_PARTIES] };

/// Evaluates `instances` instances of `circuit` among every party of `net` on `material` (made
/// for this circuit and instance count). Input value `v` belongs to `owners[v]`; output value `v`
/// opens to `recipients[v]` (`None`: every party). `my_inputs[i]` holds, for instance `i`, this
/// party's input values in the circuit's order (empty when it owns none). Returns, per instance
/// and output value, `Some(bits)` where this party is a recipient.
pub async fn evaluate<N: Network>(
    net: &mut N,
    material: &Material,
    circuit: &Circuit,
    owners: &[PartyId],
    recipients: &[Option<PartyId>],
    instances: usize,
    my_inputs: &[Vec<Vec<bool>>],
) -> Result<Vec<Outputs>, TinyOtError> {
    let (me, n) = (net.party(), net.parties());
    check_shapes(circuit, owners, recipients, instances, n)?;
    check_material(material, me, n, Demand::of(circuit, instances))?;
    let mine = check_inputs(circuit, owners, me, instances, my_inputs)?;
    let mut run = Run::new(material, me, n, instances, circuit.wire_slots().slots());
    let owned: Vec<Vec<usize>> = (0..n).map(|p| owned_wires(circuit, owners, p)).collect();
    run.inputs(net, &owned, &mine).await?;
    run.layers(net, circuit).await?;
    run.check(net).await?;
    run.outputs(net, circuit, recipients).await
}

/// Checks owners, recipients and the instance count against the circuit and the session.
fn check_shapes(
    circuit: &Circuit,
    owners: &[PartyId],
    recipients: &[Option<PartyId>],
    instances: usize,
    n: usize,
) -> Result<(), TinyOtError> {
    if !(1..=MAX_INSTANCES).contains(&instances) {
        return Err(TinyOtError::BadInput(format!("{instances} instances; 1 to {MAX_INSTANCES}")));
    }
    let (inputs, outputs) = (circuit.input_widths().len(), circuit.output_widths().len());
    if owners.len() != inputs {
        return Err(TinyOtError::BadInput(format!(
            "{} input owners for {inputs} input values",
            owners.len()
        )));
    }
    if recipients.len() != outputs {
        return Err(TinyOtError::BadInput(format!(
            "{} recipients for {outputs} output values",
            recipients.len()
        )));
    }
    if let Some(v) = owners.iter().position(|&p| p >= n) {
        return Err(TinyOtError::BadInput(format!(
            "input value {v}: owner {} is not among the {n} parties",
            owners[v]
        )));
    }
    if let Some(v) = recipients.iter().position(|r| r.is_some_and(|p| p >= n)) {
        return Err(TinyOtError::BadInput(format!(
            "output value {v}: recipient {:?} is not among the {n} parties",
            recipients[v]
        )));
    }
    Ok(())
}

/// Checks that `material` is this party's, of this session size, and holds `demand`.
fn check_material(material: &Material, me: PartyId, n: usize, demand: Demand) -> Result<(), TinyOtError> {
    if (material.me, material.parties) != (me, n) {
        return Err(TinyOtError::Material(format!(
            "made for party {} of {}, this is party {me} of {n}",
            material.me, material.parties
        )));
    }
    let has = material.demand();
    if has.triples < demand.triples || has.masks < demand.masks {
        return Err(TinyOtError::Material(format!(
            "{} triples and {} input masks, the evaluation needs {} and {}",
            has.triples, has.masks, demand.triples, demand.masks
        )));
    }
    Ok(())
}

/// Checks this party's inputs and returns their bits in wire order, instance by instance.
fn check_inputs(
    circuit: &Circuit,
    owners: &[PartyId],
    me: PartyId,
    instances: usize,
    my_inputs: &[Vec<Vec<bool>>],
) -> Result<Vec<bool>, TinyOtError> {
    let values: Vec<usize> = (0..owners.len()).filter(|&v| owners[v] == me).collect();
    if values.is_empty() {
        if my_inputs.iter().any(|i| !i.is_empty()) {
            return Err(TinyOtError::BadInput(format!("party {me} owns no input value but gave some")));
        }
        return Ok(Vec::new());
    }
    if my_inputs.len() != instances {
        return Err(TinyOtError::BadInput(format!(
            "{} input instances for {instances} instances",
            my_inputs.len()
        )));
    }
    let mut bits = Vec::new();
    for (i, instance) in my_inputs.iter().enumerate() {
        if instance.len() != values.len() {
            return Err(TinyOtError::BadInput(format!(
                "instance {i}: {} input values, party {me} owns {}",
                instance.len(),
                values.len()
            )));
        }
        for (value, &v) in instance.iter().zip(&values) {
            let width = circuit.input_widths()[v] as usize;
            if value.len() != width {
                return Err(TinyOtError::BadInput(format!(
                    "instance {i}, input value {v}: {} bits, the circuit's input is {width} bits wide",
                    value.len()
                )));
            }
            bits.extend_from_slice(value);
        }
    }
    Ok(bits)
}

/// The input wires party `p` owns, in order.
fn owned_wires(circuit: &Circuit, owners: &[PartyId], p: PartyId) -> Vec<usize> {
    (0..owners.len())
        .filter(|&v| owners[v] == p)
        .flat_map(|v| circuit.input_wires(v).into_iter().flatten())
        .collect()
}

/// One party's state during an evaluation.
struct Run<'m> {
    material: &'m Material,
    me: PartyId,
    n: usize,
    instances: usize,
    /// Slot `s` of instance `i` at `s · instances + i`.
    wires: Vec<NBit>,
    frames: Frames,
    /// Per peer, the MACs of the shares this party opened to it.
    sent: Vec<MacDigest>,
    /// Per peer, the MACs this party's keys expect of the peer's opened shares.
    expected: Vec<MacDigest>,
    /// Every masked input as this party received (or sent) it.
    echo: Sha256,
    /// The first of this party's checks that failed (reported at the verdict).
    failure: Option<Check>,
    /// The next unused triple.
    next_triple: usize,
}

impl<'m> Run<'m> {
    fn new(material: &'m Material, me: PartyId, n: usize, instances: usize, slots: usize) -> Self {
        Run {
            material,
            me,
            n,
            instances,
            wires: vec![ZERO; slots * instances],
            frames: Frames::new(),
            sent: (0..n).map(|_| MacDigest::new()).collect(),
            expected: (0..n).map(|_| MacDigest::new()).collect(),
            echo: Sha256::new(),
            failure: None,
            next_triple: 0,
        }
    }

    fn fail(&mut self, check: Check) {
        self.failure.get_or_insert(check);
    }

    /// Rounds 1 and 2: masks to their owners, masked inputs to everyone; sets the input wires.
    async fn inputs<N: Network>(
        &mut self,
        net: &mut N,
        owned: &[Vec<usize>],
        mine: &[bool],
    ) -> Result<(), TinyOtError> {
        let (me, inst, delta) = (self.me, self.instances, self.material.delta);
        let material = self.material;
        let masks = &material.masks;
        // Every input wire has an owner: instance i's masks are at i · (input wires) + wire.
        let wires_per_instance: usize = owned.iter().map(Vec::len).sum();
        let mask_index = |i: usize, w: usize| i * wires_per_instance + w;
        let order = |p: PartyId| (0..inst).flat_map(move |i| owned[p].iter().map(move |&w| (i, w)));
        let header = self.frames.next(Step::Masks);
        for p in peers(me, self.n) {
            let mut digest = MacDigest::new();
            let shares: Vec<bool> = order(p)
                .map(|(i, w)| {
                    let e = mask_index(i, w);
                    digest.mac(masks.mac(e, p));
                    masks.bit(e)
                })
                .collect();
            let mut body = pack(&shares);
            body.extend_from_slice(&digest.finish());
            send(net, p, header, &body)?;
        }
        let count = inst * owned[me].len();
        let mut r: Vec<bool> = order(me).map(|(i, w)| masks.bit(mask_index(i, w))).collect();
        for p in peers(me, self.n) {
            let bytes = count.div_ceil(8);
            let body = recv(net, p, header, Step::Masks, Some(bytes + DIGEST)).await?;
            check_padding(&body[..bytes], count, p, Step::Masks)?;
            let mut digest = MacDigest::new();
            for (t, (i, w)) in order(me).enumerate() {
                let x = bit(&body, t);
                r[t] ^= x;
                digest.expected(masks.key(mask_index(i, w), p), x, delta);
            }
            if digest.finish()[..] != body[bytes..] {
                self.fail(Check::InputMask);
            }
        }
        // An owner whose mask failed its check sends the mask itself (input taken as 0).
        let failed = self.failure.is_some();
        let d: Vec<bool> = r.iter().zip(mine).map(|(&r, &x)| r ^ (x & !failed)).collect();
        let header = self.frames.next(Step::Inputs);
        let body = pack(&d);
        for p in peers(me, self.n) {
            send(net, p, header, &body)?;
        }
        for (p, wires) in owned.iter().enumerate() {
            let masked = if p == me {
                body.clone()
            } else {
                let bits = inst * wires.len();
                let got = recv(net, p, header, Step::Inputs, Some(bits.div_ceil(8))).await?;
                check_padding(&got, bits, p, Step::Inputs)?;
                got
            };
            self.echo.update((masked.len() as u64).to_le_bytes());
            self.echo.update(&masked);
            for (t, (i, w)) in order(p).enumerate() {
                let x = masks.get(mask_index(i, w)).add_public(bit(&masked, t), me, delta);
                self.wires[w * inst + i] = x;
            }
        }
        Ok(())
    }

    /// Round 3, once per AND layer, and the linear gates.
    async fn layers<N: Network>(&mut self, net: &mut N, circuit: &Circuit) -> Result<(), TinyOtError> {
        for layer in circuit.wire_slots().layers() {
            if !layer.and_gates.is_empty() {
                self.and_layer(net, layer.and_gates).await?;
            }
            for gate in layer.linear_gates {
                self.linear(gate);
            }
        }
        Ok(())
    }

    async fn and_layer<N: Network>(
        &mut self,
        net: &mut N,
        gates: &[crate::circuit::AndGate],
    ) -> Result<(), TinyOtError> {
        let (me, inst, delta) = (self.me, self.instances, self.material.delta);
        let material = self.material;
        let [a, b, c] = &material.triples;
        let first = self.next_triple;
        let m = gates.len() * inst;
        // Shares of x ⊕ a and y ⊕ b, interleaved, per gate and instance.
        let mut opened = Vec::with_capacity(2 * m);
        for gate in gates {
            for i in 0..inst {
                let t = first + opened.len() / 2;
                opened.push(self.wires[gate.a as usize * inst + i].xor(&a.get(t)));
                opened.push(self.wires[gate.b as usize * inst + i].xor(&b.get(t)));
            }
        }
        let shares: Vec<bool> = opened.iter().map(|x| x.bit).collect();
        let header = self.frames.next(Step::Layer);
        let body = pack(&shares);
        for j in peers(me, self.n) {
            send(net, j, header, &body)?;
            opened.iter().for_each(|x| self.sent[j].mac(x.macs[j]));
        }
        let mut public = shares;
        for j in peers(me, self.n) {
            let got = recv(net, j, header, Step::Layer, Some(body.len())).await?;
            check_padding(&got, 2 * m, j, Step::Layer)?;
            for (t, x) in opened.iter().enumerate() {
                let s = bit(&got, t);
                public[t] ^= s;
                self.expected[j].expected(x.keys[j], s, delta);
            }
        }
        for (g, gate) in gates.iter().enumerate() {
            for i in 0..inst {
                let u = g * inst + i;
                let (d, e) = (public[2 * u], public[2 * u + 1]);
                let t = first + u;
                let z = c.get(t).xor(&b.get(t).times(d)).xor(&a.get(t).times(e)).add_public(d & e, me, delta);
                self.wires[gate.out as usize * inst + i] = z;
            }
        }
        self.next_triple = first + m;
        Ok(())
    }

    fn linear(&mut self, gate: &LinearGate) {
        let (me, inst, delta) = (self.me, self.instances, self.material.delta);
        let w = &mut self.wires;
        for i in 0..inst {
            let at = |s: u32| s as usize * inst + i;
            match *gate {
                LinearGate::Xor { a, b, out } => w[at(out)] = w[at(a)].xor(&w[at(b)]),
                LinearGate::Inv { a, out } => w[at(out)] = w[at(a)].add_public(true, me, delta),
                LinearGate::Copy { a, out } => w[at(out)] = w[at(a)],
                LinearGate::Const { value, out } => w[at(out)] = ZERO.add_public(value, me, delta),
            }
        }
    }

    /// Round 4: the MAC digests of the opened shares and the echo of the masked inputs.
    async fn check<N: Network>(&mut self, net: &mut N) -> Result<(), TinyOtError> {
        let me = self.me;
        let echo: [u8; DIGEST] = core::mem::take(&mut self.echo).finalize().into();
        let header = self.frames.next(Step::Check);
        for j in peers(me, self.n) {
            let mut body = core::mem::replace(&mut self.sent[j], MacDigest::new()).finish().to_vec();
            body.extend_from_slice(&echo);
            send(net, j, header, &body)?;
        }
        for j in peers(me, self.n) {
            let got = recv(net, j, header, Step::Check, Some(2 * DIGEST)).await?;
            let expected = core::mem::replace(&mut self.expected[j], MacDigest::new()).finish();
            // The echo first: a party told another masked input also expects other MACs.
            if got[DIGEST..] != echo {
                self.fail(Check::Echo);
            } else if got[..DIGEST] != expected {
                self.fail(Check::Mac);
            }
        }
        Ok(())
    }

    /// Round 5: verdicts, then the output shares (see the module docs).
    async fn outputs<N: Network>(
        &mut self,
        net: &mut N,
        circuit: &Circuit,
        recipients: &[Option<PartyId>],
    ) -> Result<Vec<Outputs>, TinyOtError> {
        let (me, inst, delta) = (self.me, self.instances, self.material.delta);
        let header = self.frames.next(Step::Outputs);
        if let Some(check) = self.failure {
            for j in peers(me, self.n) {
                // A peer that already left needs no verdict.
                let _ = send(net, j, header, &[check.code()]);
            }
            return Err(TinyOtError::CheckFailed { check });
        }
        let slots = circuit.wire_slots().outputs();
        let first_output = circuit.num_wires() - circuit.num_output_wires();
        let ranges: Vec<Range<usize>> = (0..recipients.len())
            .map(|v| {
                circuit.output_wires(v).map(|r| r.start - first_output..r.end - first_output).unwrap_or(0..0)
            })
            .collect();
        let revealed =
            |p: PartyId| (0..recipients.len()).filter(move |&v| recipients[v].is_none_or(|r| r == p));
        for j in peers(me, self.n) {
            let mut digest = MacDigest::new();
            let mut shares = Vec::new();
            for i in 0..inst {
                for v in revealed(j) {
                    for &s in &slots[ranges[v].clone()] {
                        let x = &self.wires[s as usize * inst + i];
                        digest.mac(x.macs[j]);
                        shares.push(x.bit);
                    }
                }
            }
            let mut body = vec![0u8];
            body.extend_from_slice(&pack(&shares));
            body.extend_from_slice(&digest.finish());
            // A peer whose check failed may have left after its verdict, read below.
            let _ = send(net, j, header, &body);
        }
        let width: usize = revealed(me).map(|v| ranges[v].len()).sum::<usize>() * inst;
        let mut values: Vec<bool> = Vec::with_capacity(width);
        for i in 0..inst {
            for v in revealed(me) {
                values
                    .extend(slots[ranges[v].clone()].iter().map(|&s| self.wires[s as usize * inst + i].bit));
            }
        }
        let mut failure = None;
        for j in peers(me, self.n) {
            let got = recv(net, j, header, Step::Outputs, None).await?;
            match got.first() {
                Some(0) => {}
                Some(&code) if got.len() == 1 => {
                    let check = Check::from_code(code).ok_or_else(|| TinyOtError::Malformed {
                        peer: j,
                        step: Step::Outputs.name(),
                        reason: format!("unknown verdict {code}"),
                    })?;
                    return Err(TinyOtError::PeerCheckFailed { peer: j, check });
                }
                _ => {
                    return Err(TinyOtError::Malformed {
                        peer: j,
                        step: Step::Outputs.name(),
                        reason: format!("a verdict of {} bytes", got.len()),
                    })
                }
            }
            let bytes = width.div_ceil(8);
            if got.len() != 1 + bytes + DIGEST {
                return Err(TinyOtError::Malformed {
                    peer: j,
                    step: Step::Outputs.name(),
                    reason: format!("expected {} bytes, got {}", 1 + bytes + DIGEST, got.len()),
                });
            }
            check_padding(&got[1..1 + bytes], width, j, Step::Outputs)?;
            let mut digest = MacDigest::new();
            let mut t = 0;
            for i in 0..inst {
                for v in revealed(me) {
                    for &s in &slots[ranges[v].clone()] {
                        let x = bit(&got[1..], t);
                        digest.expected(self.wires[s as usize * inst + i].keys[j], x, delta);
                        values[t] ^= x;
                        t += 1;
                    }
                }
            }
            if digest.finish()[..] != got[1 + bytes..] {
                failure.get_or_insert(Check::OutputMac);
            }
        }
        if let Some(check) = failure {
            return Err(TinyOtError::CheckFailed { check });
        }
        let mut values = values.into_iter();
        Ok((0..inst)
            .map(|_| {
                (0..recipients.len())
                    .map(|v| {
                        recipients[v]
                            .is_none_or(|r| r == me)
                            .then(|| values.by_ref().take(ranges[v].len()).collect())
                    })
                    .collect()
            })
            .collect())
    }
}
