/**
 * ChorusEngine against mpc-framework's plaintext engine and emp-wasm-engine: Summon programs
 * compiled here (comparisons, arithmetic, loops, booleans, several outputs) give the same named
 * outputs on every Chorus protocol and core, both parties in this process over an in-memory
 * transport. Then per-party outputs (hand-made settings: summon-ts 0.6.1 cannot compile private
 * outputs), progress and abort, which mpc-framework's interface does not have.
 */
import { describe, expect, it } from "vitest";
import PlaintextEngine from "mpc-framework/dist/src/PlaintextEngine/PlaintextEngine.js";
import { EmpWasmEngine } from "emp-wasm-engine";
import type { Circuit } from "mpc-framework-common";
import { CancelledError, CircuitError } from "@chorus/sdk";
import { ChorusEngine, type ChorusEngineSession } from "../src/index.js";
import { AUCTION, AUCTION_BIDS, compile, normalize, runParties, startParties, values } from "./helpers.js";

const WIDTH = 16;

/** Summon programs of two parties, with inputs. */
const PROGRAMS: Array<{ name: string; source: string; inputs: Record<string, Record<string, unknown>> }> = [
  {
    name: "millionaires (comparison, max)",
    source: `export default function main(io: Summon.IO) {
      const a = io.input('alice', 'a', summon.number());
      const b = io.input('bob', 'b', summon.number());
      io.outputPublic('aRicher', a > b);
      io.outputPublic('max', a > b ? a : b);
    }`,
    inputs: { alice: { a: 1200 }, bob: { b: 870 } },
  },
  {
    name: "arithmetic (sum, difference, product, quotient)",
    source: `export default function main(io: Summon.IO) {
      const a = io.input('alice', 'a', summon.number());
      const b = io.input('bob', 'b', summon.number());
      io.outputPublic('sum', a + b);
      io.outputPublic('diff', a - b);
      io.outputPublic('product', a * b);
      io.outputPublic('quotient', a / b);
    }`,
    inputs: { alice: { a: 417 }, bob: { b: 23 } },
  },
  {
    name: "loops and booleans (popcount, parity, a mask)",
    source: `export default function main(io: Summon.IO) {
      const a = io.input('alice', 'a', summon.number());
      const b = io.input('bob', 'b', summon.number());
      let ones = 0;
      for (let i = 0; i < 16; i++) { ones += (a >> i) & 1; }
      io.outputPublic('ones', ones);
      io.outputPublic('odd', (ones & 1) == 1);
      io.outputPublic('masked', a & b);
      io.outputPublic('either', a != 0 || b != 0);
    }`,
    inputs: { alice: { a: 0b1011_0110_0001_1101 }, bob: { b: 0x0ff0 } },
  },
  {
    name: "a boolean input and a negative number",
    source: `export default function main(io: Summon.IO) {
      const flag = io.input('alice', 'flag', summon.bool());
      const x = io.input('bob', 'x', summon.number());
      io.outputPublic('chosen', flag ? x : 0 - x);
      io.outputPublic('isSmall', x < 100);
    }`,
    inputs: { alice: { flag: false }, bob: { x: -5 } },
  },
];


/** The plaintext engine's outputs for `source` (compiled without boolify), reduced to WIDTH bits. */
async function reference(source: string, inputs: Record<string, Record<string, unknown>>, boolean: Circuit) {
  const arithmetic = await compile(source);
  // The plaintext engine computes in 32 bits; negative inputs as their 16-bit two's complement.
  const positive = Object.fromEntries(
    Object.entries(inputs).map(([party, values]) => [
      party,
      Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === "number" && v < 0 ? v + 2 ** WIDTH : v])),
    ]),
  );
  const { outcomes } = await runParties(new PlaintextEngine(), arithmetic, positive);
  return values(outcomes).map((v) => normalize(boolean, v, WIDTH));
}

describe("the same named outputs as the plaintext engine", () => {
  for (const program of PROGRAMS) {
    it(`${program.name}: TinyTable (malicious and semi-honest), MiniMac and Coral, addon and WASM`, async () => {
      const circuit = await compile(program.source, WIDTH);
      const expected = await reference(program.source, program.inputs, circuit);
      for (const options of [
        { protocol: "tinytable", runtime: "native" },
        { protocol: "tinytable", runtime: "wasm" },
        { protocol: "tinytable", security: "semi-honest", runtime: "wasm" },
        { protocol: "minimac", runtime: "native" },
        { protocol: "coral", runtime: "native" },
        { protocol: "coral", runtime: "wasm" },
      ] as const) {
        const { outcomes } = await runParties(new ChorusEngine(options), circuit, program.inputs);
        const got = values(outcomes).map((v) => normalize(circuit, v, WIDTH));
        expect(got, JSON.stringify(options)).toEqual(expected);
      }
    }, 120_000);
  }
});

describe("the same named outputs as emp-wasm-engine", () => {
  it("on the millionaires' and the loops programs, raw values alike (numbers and booleans)", async () => {
    for (const program of [PROGRAMS[0]!, PROGRAMS[2]!]) {
      const circuit = await compile(program.source, WIDTH);
      const emp = values((await runParties(new EmpWasmEngine(), circuit, program.inputs)).outcomes);
      const chorus = values((await runParties(new ChorusEngine(), circuit, program.inputs)).outcomes);
      expect(chorus).toEqual(emp);
    }
  }, 120_000);
});

describe("three parties", () => {
  it("a boolified auction of three bidders runs on TinyOT among all three, every one computing", async () => {
    const circuit = await compile(AUCTION, WIDTH);
    const inputs = AUCTION_BIDS;
    const names = ["alice", "bob", "carol"];
    for (const runtime of ["native", "wasm"] as const) {
      const { outcomes, sessions } = await runParties(new ChorusEngine({ runtime }), circuit, inputs);
      expect(values(outcomes, names), runtime).toEqual(names.map(() => ({ winner: 1, price: 990 })));
      const report = (sessions.carol as unknown as ChorusEngineSession).report();
      expect(report?.result.protocol).toBe("tinyot");
    }
  }, 120_000);

  it("the same auction runs on MiniMac and on Coral among all three when asked for", async () => {
    const circuit = await compile(AUCTION, WIDTH);
    const names = ["alice", "bob", "carol"];
    for (const protocol of ["minimac", "coral"] as const) {
      const { outcomes, sessions } = await runParties(new ChorusEngine({ protocol }), circuit, AUCTION_BIDS);
      expect(values(outcomes, names), protocol).toEqual(names.map(() => ({ winner: 1, price: 990 })));
      expect((sessions.alice as unknown as ChorusEngineSession).report()?.result.protocol).toBe(protocol);
    }
  }, 120_000);
});

describe("beyond mpc-framework's interface", () => {
  it("gives each party only the outputs the settings give it", async () => {
    const circuit = await compile(PROGRAMS[0]!.source, WIDTH);
    // Hand-made settings: alice learns only aRicher, bob only max.
    circuit.mpcSettings = [
      { name: "alice", inputs: ["a"], outputs: ["aRicher"] },
      { name: "bob", inputs: ["b"], outputs: ["max"] },
    ];
    for (const protocol of ["tinytable", "tinyot", "minimac", "coral"] as const) {
      const { outcomes } = await runParties(new ChorusEngine({ protocol }), circuit, PROGRAMS[0]!.inputs);
      expect(values(outcomes), protocol).toEqual([{ aRicher: true }, { max: 1200 }]);
    }
  }, 120_000);

  it("reports progress and the run's costs, and aborts on request", async () => {
    const circuit = await compile(PROGRAMS[1]!.source, WIDTH);
    const { sessions } = await runParties(new ChorusEngine(), circuit, PROGRAMS[1]!.inputs);
    const alice = sessions.alice as ChorusEngineSession;
    const report = alice.report()!;
    expect(report.result.protocol).toBe("tinytable");
    expect(report.result.stats.rounds).toBeGreaterThan(0);
    expect(report.transport.bytesSent).toBeGreaterThan(report.result.stats.bytesSent);

    const started = startParties(new ChorusEngine(), circuit, PROGRAMS[1]!.inputs);
    const runner = started.sessions.alice as ChorusEngineSession;
    let progress = 0;
    runner.on("progress", () => {
      progress += 1;
      if (progress === 2) runner.abort("enough");
    });
    const outcomes = await started.done;
    expect(progress).toBeGreaterThanOrEqual(2);
    expect(outcomes.alice).toMatchObject({ ok: false });
    expect((outcomes.alice as { error: unknown }).error).toBeInstanceOf(CancelledError);
    // bob hears alice's abort and fails at once.
    expect(outcomes.bob).toMatchObject({ ok: false });
  }, 60_000);
});

describe("warming the WASM core up before a run", () => {
  it("runs every party's job of the circuit in WASM, then a run gives the plaintext engine's outputs; nothing on the addon", async () => {
    const program = PROGRAMS[1]!;
    const circuit = await compile(program.source, WIDTH);
    const engine = new ChorusEngine({ runtime: "wasm" });
    const warmed = await engine.warmUp(circuit);
    expect(warmed).toMatchObject({ runtime: "wasm", warmed: true });
    expect(warmed.runs).toBeGreaterThanOrEqual(1);
    expect(warmed.timeMs).toBeGreaterThan(0);
    const { outcomes } = await runParties(engine, circuit, program.inputs);
    const expected = await reference(program.source, program.inputs, circuit);
    expect(values(outcomes).map((o) => normalize(circuit, o, WIDTH))).toEqual(expected);

    expect(await new ChorusEngine({ runtime: "native" }).warmUp(circuit)).toMatchObject({ runtime: "native", warmed: false, runs: 0 });
    // Three parties (Coral by default) and a program compiled without boolify warm up too.
    const three = await compile(AUCTION, 8);
    expect(await engine.warmUp(three)).toMatchObject({ warmed: true });
    const mixed = await compile(program.source);
    expect(await engine.warmUp(mixed)).toMatchObject({ warmed: true });
  }, 120_000);

  it("rejects what a run would reject, with the same typed error", async () => {
    const circuit = await compile(PROGRAMS[0]!.source, WIDTH);
    const broken = { ...circuit, bristol: "2 4\n2 1 1\n1 1\n\n2 1 0 1 9 AND\n" };
    await expect(new ChorusEngine({ runtime: "wasm" }).warmUp(broken)).rejects.toBeInstanceOf(CircuitError);
    await expect(new ChorusEngine().warmUp({} as Circuit)).rejects.toMatchObject({ field: "circuit" });
    const three = await compile(AUCTION, 8);
    await expect(new ChorusEngine({ protocol: "tinytable", runtime: "wasm" }).warmUp(three)).rejects.toMatchObject({ field: "protocol" });
  }, 60_000);
});
