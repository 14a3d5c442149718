/**
 * Seeded random Bristol circuits for the cross-component tests, and their plaintext evaluation:
 * two 8-bit input values (a, b), `gates` random AND/XOR/INV gates, two 4-bit output values (the
 * last 8 wires). A failing seed reproduces.
 */

/** A deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Gate = { op: "AND" | "XOR" | "INV"; a: number; b: number; out: number };

/** A random Bristol circuit: inputs a, b (8 bits each), `count` gates, outputs of 4 and 4 bits. */
export function randomCircuit(seed: number, count = 60): { text: string; gates: Gate[]; wires: number } {
  const next = prng(seed);
  const pick = (n: number) => Math.floor(next() * n);
  const gates: Gate[] = [];
  for (let g = 0; g < count; g++) {
    const out = 16 + g;
    const r = next();
    const op = r < 0.45 ? "AND" : r < 0.85 ? "XOR" : "INV";
    gates.push({ op, a: pick(out), b: pick(out), out });
  }
  const wires = 16 + count;
  const lines = gates.map((g) => (g.op === "INV" ? `1 1 ${g.a} ${g.out} INV` : `2 1 ${g.a} ${g.b} ${g.out} ${g.op}`));
  return { text: `${count} ${wires}\n2 8 8\n2 4 4\n\n${lines.join("\n")}\n`, gates, wires };
}

/** Plaintext evaluation: the two output values as bigints (wire i of a value is bit i). */
export function evaluatePlain(circuit: { gates: Gate[]; wires: number }, a: bigint, b: bigint): [bigint, bigint] {
  const w = new Array<boolean>(circuit.wires).fill(false);
  for (let i = 0; i < 8; i++) {
    w[i] = ((a >> BigInt(i)) & 1n) === 1n;
    w[8 + i] = ((b >> BigInt(i)) & 1n) === 1n;
  }
  for (const g of circuit.gates) w[g.out] = g.op === "AND" ? w[g.a]! && w[g.b]! : g.op === "XOR" ? w[g.a] !== w[g.b] : !w[g.a];
  const value = (from: number) => w.slice(from, from + 4).reduce((v, bit, i) => v | (bit ? 1n << BigInt(i) : 0n), 0n);
  return [value(circuit.wires - 8), value(circuit.wires - 4)];
}
