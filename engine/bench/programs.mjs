// Summon programs of the engine benchmark (scripts/bench-engine.mjs), from a 32-bit comparison to
// a SHA-256 compression, with the inputs of each party. Shared by the Node and Chromium runs.

const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
];

/** SHA-256's compression function on 16 words with the IV, in plain JS (the programs' reference). */
export function sha256Compress(words) {
  const rotr = (x, n) => ((x >>> n) | (x << (32 - n))) >>> 0;
  const w = [...words];
  for (let t = 16; t < 64; t++) {
    const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
    const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
    w.push((w[t - 16] + s0 + w[t - 7] + s1) >>> 0);
  }
  let [a, b, c, d, e, f, g, h] = IV;
  for (let t = 0; t < 64; t++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) >>> 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
    [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
  }
  return [a, b, c, d, e, f, g, h].map((x, i) => (x + IV[i]) >>> 0);
}

/**
 * SHA-256's compression of one 16-word block with the IV; word i comes from `owner(i)` (by
 * default words 0..7 from alice, 8..15 from bob).
 */
function sha256Source(owner = (i) => (i < 8 ? 'alice' : 'bob')) {
  const inputs = Array.from({ length: 16 }, (_, i) =>
    `const w${i} = io.input('${owner(i)}', 'w${i}', summon.number());`).join('\n  ');
  return `
function rotr(x: number, n: number) { return (x >> n) | (x << (32 - n)); }
export default function main(io: Summon.IO) {
  ${inputs}
  let w = [${Array.from({ length: 16 }, (_, i) => `w${i}`).join(', ')}, ${Array(48).fill(0).join(', ')}];
  const k = [${K.join(', ')}];
  for (let t = 16; t < 64; t++) {
    const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  let a = ${IV[0]}; let b = ${IV[1]}; let c = ${IV[2]}; let d = ${IV[3]};
  let e = ${IV[4]}; let f = ${IV[5]}; let g = ${IV[6]}; let h = ${IV[7]};
  for (let t = 0; t < 64; t++) {
    const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    const ch = (e & f) ^ (~e & g);
    const t1 = h + S1 + ch + k[t] + w[t];
    const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = S0 + maj;
    h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  io.outputPublic('h0', a + ${IV[0]}); io.outputPublic('h1', b + ${IV[1]});
  io.outputPublic('h2', c + ${IV[2]}); io.outputPublic('h3', d + ${IV[3]});
  io.outputPublic('h4', e + ${IV[4]}); io.outputPublic('h5', f + ${IV[5]});
  io.outputPublic('h6', g + ${IV[6]}); io.outputPublic('h7', h + ${IV[7]});
}`;
}

/**
 * The benchmark's programs: name, Summon source, boolify width, inputs by party, and the expected
 * public outputs computed in plain JS (numbers unsigned).
 */
export const PROGRAMS = [
  {
    name: 'compare32',
    width: 32,
    source: `export default function main(io: Summon.IO) {
  const a = io.input('alice', 'a', summon.number());
  const b = io.input('bob', 'b', summon.number());
  io.outputPublic('aBigger', a > b);
}`,
    inputs: { alice: { a: 3_000_000_001 }, bob: { b: 2_999_999_999 } },
    expected: ({ alice, bob }) => ({ aBigger: alice.a > bob.b }),
  },
  {
    name: 'auction8x32',
    width: 32,
    source: `export default function main(io: Summon.IO) {
  const bids = [${Array.from({ length: 8 }, (_, i) => `io.input('${i < 4 ? 'alice' : 'bob'}', 'bid${i}', summon.number())`).join(', ')}];
  let best = 0; let winner = 0;
  for (let i = 0; i < 8; i++) { if (bids[i] > best) { best = bids[i]; winner = i; } }
  io.outputPublic('winner', winner);
  io.outputPublic('price', best);
}`,
    inputs: {
      alice: { bid0: 120, bid1: 990, bid2: 45, bid3: 3000 },
      bob: { bid4: 77, bid5: 2999, bid6: 3100, bid7: 1 },
    },
    expected: ({ alice, bob }) => {
      const bids = [...Object.values(alice), ...Object.values(bob)];
      const price = Math.max(...bids);
      return { winner: bids.indexOf(price), price };
    },
  },
  {
    name: 'mul32',
    width: 32,
    source: `export default function main(io: Summon.IO) {
  const a = io.input('alice', 'a', summon.number());
  const b = io.input('bob', 'b', summon.number());
  io.outputPublic('product', a * b);
  io.outputPublic('sum', a + b);
}`,
    inputs: { alice: { a: 123_457 }, bob: { b: 9_876 } },
    expected: ({ alice, bob }) => ({ product: Number((BigInt(alice.a) * BigInt(bob.b)) % 2n ** 32n), sum: alice.a + bob.b }),
  },
  {
    name: 'bits32',
    width: 32,
    source: `export default function main(io: Summon.IO) {
  const a = io.input('alice', 'a', summon.number());
  const b = io.input('bob', 'b', summon.number());
  io.outputPublic('xor', a ^ b);
  io.outputPublic('and', a & b);
  io.outputPublic('quotient', a / b);
  io.outputPublic('remainder', a % b);
}`,
    inputs: { alice: { a: 3_735_928_559 }, bob: { b: 48_611 } },
    expected: ({ alice, bob }) => ({
      xor: (alice.a ^ bob.b) >>> 0,
      and: (alice.a & bob.b) >>> 0,
      quotient: Math.floor(alice.a / bob.b),
      remainder: alice.a % bob.b,
    }),
  },
  {
    name: 'sha256-compression',
    width: 32,
    source: sha256Source(),
    inputs: {
      alice: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`w${i}`, (0x61626380 * (i + 1)) >>> 0])),
      bob: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`w${8 + i}`, i === 7 ? 0x18 : 0])),
    },
    expected: ({ alice, bob }) =>
      Object.fromEntries(sha256Compress([...Object.values(alice), ...Object.values(bob)]).map((h, i) => [`h${i}`, h])),
  },
  {
    // The same compression among three parties (words 0..5 from alice, 6..10 from bob, 11..15
    // from carol): n-party TinyOT on Chorus, emp-wasm's multi-party mode on emp-wasm-engine.
    name: 'sha256-compression-3',
    width: 32,
    source: sha256Source((i) => (i < 6 ? 'alice' : i < 11 ? 'bob' : 'carol')),
    inputs: {
      alice: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`w${i}`, (0x61626380 * (i + 1)) >>> 0])),
      bob: Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`w${6 + i}`, (0x61626380 * (i + 7)) >>> 0])),
      carol: Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`w${11 + i}`, i === 4 ? 0x18 : 0])),
    },
    expected: ({ alice, bob, carol }) =>
      Object.fromEntries(
        sha256Compress([...Object.values(alice), ...Object.values(bob), ...Object.values(carol)]).map((h, i) => [`h${i}`, h]),
      ),
  },
];
