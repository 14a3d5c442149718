//! Boolean-aware lowering of mixed circuits: the rewrites that let Summon's conditionals run as
//! ring arithmetic, without the values' bits.
//!
//! Summon compiles `if (cond) v = w;` (and `cond ? w : v`) to the select idiom
//! `v ⊕ (cond · (v ⊕ w))` — two `AXor` gates of full k-bit values around an `AMul` by the 0/1
//! condition. Bitwise XOR of shared values needs their bits, but for `cond ∈ {0, 1}` the idiom
//! equals `v + cond·(w − v)`. [`lower`] finds it and rewrites it in place (the inner `AXor`
//! becomes `ASub`, the outer one `AAdd`; the product stays) when:
//! - the condition is *boolean*: the output of a comparison or boolean gate (`ALt … ABoolOr`,
//!   `ANot`), a constant 0 or 1, an input declared a bit (Summon's `bool` inputs; the protocol
//!   checks them, [`crate::proto::coral::arith::circuit`]), or a product, `ABitAnd`, `ABitOr` or
//!   `AXor` of booleans (and a select between booleans) — never another input, which a party
//!   could set to anything;
//! - the inner `AXor` and the product are used by nothing else (not even as outputs), so their
//!   changed values are never observed.
//!
//! A sound over-approximation of every wire's possibly-set bits ([`Lowered::known`]: exact for
//! constants, 1 for comparison and boolean outputs, carried through products with a 0/1 value,
//! AND, OR, XOR, and additions of values with disjoint bits) makes two more rewrites: `AXor` and
//! `ABitOr` of values whose bits are disjoint are `AAdd`, and `ABitAnd` of such values is 0
//! (`ASub` of a value from itself) — Summon's `else if` yields such XORs of `c·2` and `c'`.
//! [`Lowered::boolean`] tells the protocol which wires hold 0 or 1, so bitwise gates of two
//! booleans run as products (`a ∧ b = ab`, `a ⊕ b = a + b − 2ab`, `a ∨ b = a + b − ab`).
//! The lowered circuit's outputs equal the original's on every input (tested against the
//! plaintext evaluator, and every wire's value against its known bits).

use super::{MixedCircuit, MixedGate, MixedOp, RingBits};

/// A circuit's gates after [`lower`], and the bits each wire may have set.
#[derive(Debug, Clone)]
pub struct Lowered {
    /// The gates, in the original order (some operations rewritten).
    pub gates: Vec<MixedGate>,
    /// `known[w]`: the bits wire w may have set on any input (in the lowered circuit).
    pub known: Vec<u64>,
    /// Select idioms rewritten.
    pub selects: usize,
    /// Bitwise gates of values with disjoint bits rewritten.
    pub disjoint: usize,
}

impl Lowered {
    /// Wire w holds 0 or 1 on every input.
    pub fn boolean(&self, w: usize) -> bool {
        self.known[w] <= 1
    }
}

/// Lowers `circuit` in `ring` (see the module docs).
pub fn lower(circuit: &MixedCircuit, ring: RingBits) -> Lowered {
    lower_with_bits(circuit, ring, &[])
}

/// [`lower`], with the inputs `bit_inputs` known to hold 0 or 1 (indices below the circuit's
/// input count; others are ignored).
pub fn lower_with_bits(circuit: &MixedCircuit, ring: RingBits, bit_inputs: &[u32]) -> Lowered {
    let wires = circuit.wires as usize;
    let mut uses = vec![0u32; wires];
    let mut producer = vec![usize::MAX; wires];
    for (g, gate) in circuit.gates.iter().enumerate() {
        for &w in &gate.inputs[..gate.op.arity()] {
            uses[w as usize] += 1;
        }
        producer[gate.out as usize] = g;
    }
    for &w in &circuit.outputs {
        uses[w as usize] += 1;
    }
    let full = ring.mask();
    let mut known = vec![full; wires];
    for &(w, c) in &circuit.constants {
        known[w as usize] = c & full;
    }
    for &w in bit_inputs.iter().filter(|&&w| w < circuit.inputs) {
        known[w as usize] = 1;
    }
    let mut gates = circuit.gates.clone();
    let (mut selects, mut disjoint) = (0, 0);
    for g in 0..gates.len() {
        let gate = gates[g];
        let [a, b] = gate.inputs.map(|w| w as usize);
        let (ka, kb) = (known[a], known[b]);
        use MixedOp::*;
        known[gate.out as usize] = match gate.op {
            Lt | LEq | Gt | GEq | Eq | Neq | Not | BoolAnd | BoolOr => 1,
            Mul if ka <= 1 => kb,
            Mul if kb <= 1 => ka,
            UnaryAdd => ka,
            Add if ka & kb == 0 => ka | kb,
            BitAnd => ka & kb,
            BitOr => ka | kb,
            Xor => {
                let select = select(&gates, &producer, &uses, &known, a, b)
                    .or_else(|| select(&gates, &producer, &uses, &known, b, a));
                match select {
                    Some((inner, p, y)) => {
                        gates[inner].op = Sub;
                        gates[inner].inputs = [y as u32, p as u32];
                        gates[g].op = Add;
                        // w − v and c·(w − v) may have any bits.
                        known[gates[inner].out as usize] = full;
                        let product = if gate.inputs[0] as usize == p { b } else { a };
                        known[product] = full;
                        selects += 1;
                        known[p] | known[y]
                    }
                    None => ka | kb,
                }
            }
            _ => full,
        };
    }
    // Bitwise gates of values with disjoint bits, after the selects (whose inner XORs must still
    // be XORs when their select is found): a ⊕ b = a ∨ b = a + b, a ∧ b = 0. Their known bits
    // are the same either way.
    for gate in &mut gates {
        let [a, b] = gate.inputs.map(|w| w as usize);
        if known[a] & known[b] != 0 {
            continue;
        }
        match gate.op {
            MixedOp::Xor | MixedOp::BitOr => gate.op = MixedOp::Add,
            MixedOp::BitAnd => {
                *gate = MixedGate { op: MixedOp::Sub, inputs: [a as u32, a as u32], out: gate.out }
            }
            _ => continue,
        }
        disjoint += 1;
    }
    Lowered { gates, known, selects, disjoint }
}

/// If `p ⊕ m` is a select idiom — m = c·t (single use), c boolean, t = p ⊕ y or y ⊕ p (single
/// use) — the inner XOR's gate index, p and y.
fn select(
    gates: &[MixedGate],
    producer: &[usize],
    uses: &[u32],
    known: &[u64],
    p: usize,
    m: usize,
) -> Option<(usize, usize, usize)> {
    let single = |w: usize| uses[w] == 1 && producer[w] != usize::MAX;
    if !single(m) || gates[producer[m]].op != MixedOp::Mul {
        return None;
    }
    let [c0, c1] = gates[producer[m]].inputs.map(|w| w as usize);
    [(c0, c1), (c1, c0)].into_iter().find_map(|(c, t)| {
        if known[c] > 1 || !single(t) || gates[producer[t]].op != MixedOp::Xor {
            return None;
        }
        let [t0, t1] = gates[producer[t]].inputs.map(|w| w as usize);
        let y = if t0 == p {
            t1
        } else if t1 == p {
            t0
        } else {
            return None;
        };
        Some((producer[t], p, y))
    })
}

impl Lowered {
    /// The lowered gates as a circuit with `circuit`'s wires, inputs, constants and outputs.
    pub fn circuit(&self, circuit: &MixedCircuit) -> MixedCircuit {
        MixedCircuit { gates: self.gates.clone(), ..circuit.clone() }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::circuit::mixed::tests::{io, text};
    use crate::circuit::mixed::MixedIo;

    /// `v ⊕ (c·(v ⊕ w))` with `c = (x < y)`, as Summon emits `if (x < y) v = w;`.
    const SELECT: &str =
        "4 8\n4 1 1 1 1\n1 1\n\n2 1 0 1 4 ALt\n2 1 2 3 5 AXor\n2 1 4 5 6 AMul\n2 1 2 6 7 AXor\n";

    #[test]
    fn summons_select_idiom_becomes_ring_arithmetic() {
        let c = MixedCircuit::parse(SELECT, &MixedIo::default()).unwrap();
        let l = lower(&c, RingBits::K32);
        assert_eq!(l.selects, 1);
        let ops: Vec<MixedOp> = l.gates.iter().map(|g| g.op).collect();
        assert_eq!(ops, [MixedOp::Lt, MixedOp::Sub, MixedOp::Mul, MixedOp::Add]);
        assert_eq!(l.gates[1].inputs, [3, 2], "w − v");
        assert!(l.boolean(4) && !l.boolean(7));
        let lowered = l.circuit(&c);
        for x in [[1, 2, 7, u64::from(u32::MAX)], [2, 1, 7, u64::from(u32::MAX)], [5, 5, 0, 9]] {
            assert_eq!(lowered.evaluate(&x, RingBits::K32), c.evaluate(&x, RingBits::K32));
        }
    }

    #[test]
    fn a_condition_a_party_inputs_or_an_intermediate_used_twice_is_left_alone() {
        // The condition is input 0 (any value): not rewritten.
        let from_input = "3 7\n4 1 1 1 1\n1 1\n\n2 1 2 3 4 AXor\n2 1 0 4 5 AMul\n2 1 2 5 6 AXor\n";
        let c = MixedCircuit::parse(from_input, &MixedIo::default()).unwrap();
        assert_eq!(lower(&c, RingBits::K32).selects, 0);
        // The inner XOR is also an output: not rewritten.
        let io = MixedIo { constants: vec![], outputs: Some(vec![7, 5]) };
        let c = MixedCircuit::parse(&SELECT.replace("1 1\n\n", "2 1 1\n\n"), &io).unwrap();
        let l = lower(&c, RingBits::K32);
        assert_eq!(l.selects, 0);
        assert_eq!(l.gates, c.gates);
    }

    /// Random circuits where about a third of the gates are select idioms (conditions from
    /// comparisons, inputs or constants; inner values sometimes reused).
    fn circuit(seed: u64, ring: RingBits) -> MixedCircuit {
        use MixedOp::*;
        let mut s = seed;
        let mut next = move || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 33) as u32
        };
        let inputs = 4u32;
        let mut list = Vec::new();
        let mut wire = inputs + 2; // constants 0 and 1 at 4, 5
        for _ in 0..30 {
            let pick = |r: u32| r % wire;
            match next() % 3 {
                0 => {
                    let cond = if next() % 4 == 0 { pick(next()) } else { wire };
                    let (x, y, v, w) = (pick(next()), pick(next()), pick(next()), pick(next()));
                    if cond == wire {
                        list.push(([Lt, Eq, GEq, BoolOr][next() as usize % 4], x, y, wire));
                        wire += 1;
                    }
                    list.push((Xor, v, w, wire));
                    list.push((Mul, cond, wire, wire + 1));
                    let outer = if next() % 2 == 0 { (v, wire + 1) } else { (wire + 1, v) };
                    list.push((Xor, outer.0, outer.1, wire + 2));
                    wire += 3;
                }
                _ => {
                    let op = [Add, Mul, Xor, Lt, BitAnd, Sub, Neq][next() as usize % 7];
                    list.push((op, pick(next()), pick(next()), wire));
                    wire += 1;
                }
            }
        }
        MixedCircuit::parse(&text(wire, inputs as usize, 6, &list), &io(&[(4, 0), (5, 1)]))
            .map(|mut c| {
                c.wires = wire;
                c
            })
            .unwrap_or_else(|e| panic!("{e}: ring {}", ring.bits()))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn lowering_never_changes_an_output(seed in any::<u64>(), xs in prop::array::uniform4(any::<u64>()), k64 in any::<bool>()) {
            let ring = if k64 { RingBits::K64 } else { RingBits::K32 };
            let c = circuit(seed, ring);
            let l = lower(&c, ring);
            let half = 1u64 << (ring.bits() - 1);
            for x in [xs.map(|v| v & ring.mask()), [0, half, half, ring.mask()], [3, 3, 0, 1]] {
                prop_assert_eq!(l.circuit(&c).evaluate(&x, ring), c.evaluate(&x, ring));
                // Every wire's value has only its known bits in the lowered circuit.
                let mut values = vec![0u64; c.wires as usize];
                values[..4].copy_from_slice(&x);
                values[5] = 1;
                for gate in &l.gates {
                    let [a, b] = gate.inputs.map(|w| values[w as usize]);
                    values[gate.out as usize] = crate::circuit::mixed::eval::apply(gate.op, a, b, ring);
                }
                for (w, &v) in values.iter().enumerate() {
                    prop_assert!(v & !l.known[w] == 0, "wire {} holds {:#x}, known bits {:#x}", w, v, l.known[w]);
                }
            }
        }
    }

    #[test]
    fn the_generator_makes_selects_that_lower() {
        let total: usize = (0..20).map(|s| lower(&circuit(s, RingBits::K32), RingBits::K32).selects).sum();
        assert!(total >= 20, "{total} selects lowered");
    }
}
