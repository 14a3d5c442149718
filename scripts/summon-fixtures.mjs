// Regenerates circuits/summon/*.json: Summon programs compiled by summon-ts *without* boolify
// (mixed circuits: arithmetic gates on 32-bit values, Summon's select idiom for its `if`s), the
// fixtures of core's Spdz2k tests (core/src/proto/coral/arith/tests/summon.rs). Each file is the
// compiler's circuit object as is: { bristol, info, mpcSettings }.
//
//   npm ci && node scripts/summon-fixtures.mjs
import * as summon from "summon-ts";
import { writeFileSync } from "node:fs";

const N = 8;
const sort = `export default function main(io: Summon.IO) {
  let xs = [${Array.from({ length: N }, (_, i) => `io.input('${i % 2 ? "bob" : "alice"}', 'x${i}', summon.number())`).join(", ")}];
  for (let phase = 0; phase < ${N}; phase++) {
    for (let j = phase % 2; j + 1 < ${N}; j += 2) {
      const a = xs[j];
      const b = xs[j + 1];
      if (b < a) { xs[j] = b; xs[j + 1] = a; }
    }
  }
  for (let i = 0; i < ${N}; i++) io.outputPublic('y' + i, xs[i]);
}`;

const M = 6;
const compare = `export default function main(io: Summon.IO) {
  const xs = [${Array.from({ length: M }, (_, i) => `io.input('alice', 'x${i}', summon.number())`).join(", ")}];
  const ys = [${Array.from({ length: M }, (_, i) => `io.input('bob', 'y${i}', summon.number())`).join(", ")}];
  let greater = 0;
  let equal = 0;
  let max = xs[0];
  for (let i = 0; i < ${M}; i++) {
    if (xs[i] > ys[i]) greater = greater + 1;
    if (xs[i] == ys[i]) equal = equal + 1;
    if (xs[i] > max) max = xs[i];
  }
  io.outputPublic('greater', greater);
  io.outputPublic('equal', equal);
  io.outputPublic('max', max);
}`;

// |a − b| by a ternary, the average by a division, a mask and a remainder.
const arithmetic = `export default function main(io: Summon.IO) {
  const a = io.input('alice', 'a', summon.number());
  const b = io.input('bob', 'b', summon.number());
  io.outputPublic('distance', a > b ? a - b : b - a);
  io.outputPublic('half', (a + b) / 2);
  io.outputPublic('low', (a & 255) + (b % 16));
}`;

// &&, ||, ! and else-if.
const logic = `export default function main(io: Summon.IO) {
  const a = io.input('alice', 'a', summon.number());
  const b = io.input('bob', 'b', summon.number());
  let r = 0;
  if (a > 10 && b < 20) {
    r = 1;
  } else if (a == b || !(a < b)) {
    r = 2;
  }
  io.outputPublic('r', r);
}`;

// A sealed-bid auction among three parties: the highest bid and its bidder.
const auction = `export default function main(io: Summon.IO) {
  const bids = [io.input('alice', 'a', summon.number()), io.input('bob', 'b', summon.number()), io.input('carol', 'c', summon.number())];
  let best = 0;
  let winner = 0;
  for (let i = 0; i < 3; i++) {
    if (bids[i] > best) {
      best = bids[i];
      winner = i;
    }
  }
  io.outputPublic('winner', winner);
  io.outputPublic('price', best);
}`;

// A boolean input as a condition: Summon's select idiom on an input, which the protocol may use
// only as a checked bit.
const choose = `export default function main(io: Summon.IO) {
  const flag = io.input('alice', 'flag', summon.bool());
  const a = io.input('alice', 'a', summon.number());
  const b = io.input('bob', 'b', summon.number());
  io.outputPublic('chosen', flag ? a : b);
  io.outputPublic('both', flag && b > 5);
}`;

// Gates that need every bit of a value: bitwise operations of full values, division and
// remainder by a shared divisor, shifts by a shared amount, a power.
const bits = `export default function main(io: Summon.IO) {
  const a = io.input('alice', 'a', summon.number());
  const b = io.input('bob', 'b', summon.number());
  const s = io.input('bob', 's', summon.number());
  io.outputPublic('mix', (a ^ b) & (a | 65280));
  io.outputPublic('quotient', a / b);
  io.outputPublic('remainder', a % b);
  io.outputPublic('shifted', (a << s) + (b >> s));
  io.outputPublic('power', b ** s);
}`;

await summon.init();
const programs = [[`sort${N}`, sort], [`compare${M}`, compare], ["arithmetic", arithmetic], ["logic", logic], ["auction", auction], ["choose", choose], ["bits", bits]];
for (const [name, source] of programs) {
  const { circuit } = summon.compile({ path: "/src/main.ts", files: { "/src/main.ts": source } });
  writeFileSync(`circuits/summon/${name}.json`, JSON.stringify(circuit, null, 1) + "\n");
  console.log(`circuits/summon/${name}.json: ${circuit.bristol.split("\n")[0]}`);
}
