/**
 * Summon programs compiled *without* boolify on ChorusEngine: mixed circuits on Coral's
 * arithmetic shares (the engine's default protocol for them), against mpc-framework's plaintext
 * engine on the same circuit, with the addon and with WASM; programs or settings the arithmetic
 * shares cannot run are typed errors before anything is sent.
 */
import { describe, expect, it } from "vitest";
import PlaintextEngine from "mpc-framework/dist/src/PlaintextEngine/PlaintextEngine.js";
import type { Circuit } from "mpc-framework-common";
import { ChorusEngine } from "../src/index.js";
import { AUCTION, AUCTION_BIDS, compile, runParties, values } from "./helpers.js";

/**
 * Programs on arithmetic shares: comparisons, `?:`, `if`, shifts and masks by constants, and the
 * gates that need every bit of a value (bitwise operations of full values, a shared divisor, a
 * shared shift, a power).
 */
const PROGRAMS: Array<{ name: string; source: string; inputs: Record<string, Record<string, unknown>> }> = [
  {
    name: "millionaires with a sum, a product and a halving",
    source: `export default function main(io: Summon.IO) {
      const a = io.input('alice', 'a', summon.number());
      const b = io.input('bob', 'b', summon.number());
      io.outputPublic('aRicher', a > b);
      io.outputPublic('max', a > b ? a : b);
      io.outputPublic('sum', a + b);
      io.outputPublic('product', a * b);
      io.outputPublic('half', (a + b) / 2);
    }`,
    inputs: { alice: { a: 1_200_000 }, bob: { b: 870_123 } },
  },
  {
    name: "a loop of ifs, bits by shifts and masks, a boolean input",
    source: `export default function main(io: Summon.IO) {
      const flag = io.input('alice', 'flag', summon.bool());
      const a = io.input('alice', 'a', summon.number());
      const b = io.input('bob', 'b', summon.number());
      let ones = 0;
      for (let i = 0; i < 12; i++) { ones += (a >> i) & 1; }
      let best = 0;
      for (let i = 0; i < 4; i++) { if ((b >> (4 * i)) % 16 > best) best = (b >> (4 * i)) % 16; }
      io.outputPublic('ones', ones);
      io.outputPublic('best', best);
      io.outputPublic('chosen', flag ? a : b);
      io.outputPublic('small', b < 100 && a != 0);
    }`,
    inputs: { alice: { flag: true, a: 0b1011_0110_0001_1101 }, bob: { b: 0x3a7f } },
  },
  {
    name: "bitwise gates of full values, a shared divisor, a shared shift and a power",
    source: `export default function main(io: Summon.IO) {
      const a = io.input('alice', 'a', summon.number());
      const b = io.input('bob', 'b', summon.number());
      const s = io.input('bob', 's', summon.number());
      io.outputPublic('mix', (a ^ b) & (a | 65280));
      io.outputPublic('mean', (a + b) / s);
      io.outputPublic('rest', a % b);
      io.outputPublic('shifted', (a << s) + (b >> s));
      io.outputPublic('power', b ** s);
    }`,
    inputs: { alice: { a: 0xdead_beef }, bob: { b: 1_234_567, s: 5 } },
  },
];

/** Booleans as booleans, numbers as numbers (the plaintext engine may give either for a flag). */
function plain(circuit: Circuit, outputs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    circuit.info.outputs.map((info) => {
      const v = outputs[info.name];
      return [info.name, info.type === "bool" ? Boolean(v) : Number(v)];
    }),
  );
}

describe("programs compiled without boolify run on arithmetic shares", () => {
  for (const program of PROGRAMS) {
    it(`${program.name}: the plaintext engine's outputs, addon and WASM`, async () => {
      const circuit = await compile(program.source);
      const { outcomes: reference } = await runParties(new PlaintextEngine(), circuit, program.inputs);
      const expected = values(reference).map((v) => plain(circuit, v));
      for (const runtime of ["native", "wasm"] as const) {
        const { outcomes, sessions } = await runParties(new ChorusEngine({ runtime }), circuit, program.inputs);
        expect(values(outcomes).map((v) => plain(circuit, v)), runtime).toEqual(expected);
        const report = (sessions.alice as unknown as { report(): { result: { protocol: string } } }).report();
        expect(report.result.protocol).toBe("coral");
      }
    });
  }

  it("a sealed-bid auction among three parties, each a member of the session", async () => {
    const circuit = await compile(AUCTION);
    const inputs = AUCTION_BIDS;
    for (const runtime of ["native", "wasm"] as const) {
      const { outcomes } = await runParties(new ChorusEngine({ runtime }), circuit, inputs);
      for (const name of ["alice", "bob", "carol"]) {
        const outcome = outcomes[name]!;
        if (!outcome.ok) throw new Error(`${runtime} ${name}: ${String(outcome.error)}`);
        expect(outcome.value, `${runtime} ${name}`).toEqual({ winner: 1, price: 990 });
      }
    }
  });

  it("64-bit values with ring: 64", async () => {
    const circuit = await compile(`export default function main(io: Summon.IO) {
      const a = io.input('alice', 'a', summon.number());
      const b = io.input('bob', 'b', summon.number());
      io.outputPublic('product', a * b);
      io.outputPublic('less', a < b);
    }`);
    const { outcomes } = await runParties(new ChorusEngine({ ring: 64 }), circuit, {
      alice: { a: 3n << 40n },
      bob: { b: (1n << 63n) + 5n },
    });
    const mask = (1n << 64n) - 1n;
    for (const v of values(outcomes)) {
      // Summon types a comparison's result as a number when it does not boolify.
      expect(v).toEqual({ product: ((3n << 40n) * ((1n << 63n) + 5n)) & mask, less: 1n });
    }
  });

  it("an output to one party reaches it alone", async () => {
    // summon-ts cannot compile private outputs; the same settings by hand: max to alice alone.
    const max = await compile(PROGRAMS[0]!.source);
    const settings = max.mpcSettings.map((p, i) => ({ ...p, outputs: i === 0 ? p.outputs : p.outputs.filter((o) => o !== "max") }));
    const privateMax = { ...max, mpcSettings: settings } as Circuit;
    const { outcomes } = await runParties(new ChorusEngine(), privateMax, PROGRAMS[0]!.inputs);
    const [alice, bob] = values(outcomes);
    expect(alice).toMatchObject({ max: 1_200_000, sum: 2_070_123 });
    expect(bob).toMatchObject({ sum: 2_070_123 });
    expect(bob).not.toHaveProperty("max");
  });
});
