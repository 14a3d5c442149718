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

await summon.init();
for (const [name, source] of [[`sort${N}`, sort], [`compare${M}`, compare]]) {
  const { circuit } = summon.compile({ path: "/src/main.ts", files: { "/src/main.ts": source } });
  writeFileSync(`circuits/summon/${name}.json`, JSON.stringify(circuit, null, 1) + "\n");
  console.log(`circuits/summon/${name}.json: ${circuit.bristol.split("\n")[0]}`);
}
