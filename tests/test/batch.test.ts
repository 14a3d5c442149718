/**
 * Batched `session.evaluate` (`instances`) through the SDK and a real relay process, every
 * protocol: a seeded random circuit with 1, 13, 14, 15, 961 and 2,000 instances, mixed owners and a
 * private output, each instance against its plaintext value; the AES-128 and SHA-256 Bristol
 * circuits with a few instances; the rounds of a batch against the single-instance job's (one
 * round per AND layer whatever the batch, MiniMac one batch of 960 at a time); progress with the
 * instances done; and bad batches refused with the instance and field named, the session usable.
 */
import { createCipheriv, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, type EvaluateOptions, type ProgressEvent, type Session } from "@chorus/sdk";
import { freshSecret, REPO, startRelayProcess, within, type RelayProcess } from "./relay-process.js";
import { evaluatePlain, prng, randomCircuit } from "./random-circuit.js";
import { closeAll, connectTwo, withTwo as withTwoOn } from "./three-parties.js";
import * as summon from "summon-ts";
// @ts-expect-error: a plain ES module of the engine benchmark, without types.
import { PROGRAMS, sha256Compress } from "../../engine/bench/programs.mjs";

let relay: RelayProcess;
beforeAll(async () => {
  relay = await startRelayProcess();
});
afterAll(async () => {
  await relay?.stop();
});

function withTwo<T>(run: (sessions: Session[]) => Promise<T>): Promise<T> {
  return withTwoOn(relay.url, run);
}

/** The protocols' options, all over OT between the two parties (no dealer). */
const PROTOCOLS: Array<[string, EvaluateOptions]> = [
  ["TinyTable semi-honest", { protocol: "tinytable", security: "semi-honest" }],
  ["TinyTable malicious", { protocol: "tinytable", security: "malicious" }],
  ["MiniMac", { protocol: "minimac" }],
  ["Coral", { protocol: "coral" }],
];

/** Random 8-bit input pairs for `n` instances. */
function inputPairs(seed: number, n: number): Array<[bigint, bigint]> {
  const next = prng(seed);
  return Array.from({ length: n }, () => [BigInt(Math.floor(next() * 256)), BigInt(Math.floor(next() * 256))]);
}

describe("a random circuit in batches, every protocol", () => {
  const circuit = randomCircuit(4242);
  for (const [name, options] of PROTOCOLS) {
    it(`${name}: 1, 13, 14, 15, 961 and 2,000 instances, each against plaintext; output 1 to party 1 only`, async () => {
      await withTwo(async (sessions) => {
        for (const n of [1, 13, 14, 15, 961, 2000]) {
          const pairs = inputPairs(n, n);
          const reveal = ["both", 1] as const;
          const [r0, r1] = await within(
            Promise.all([
              sessions[0]!.evaluate(circuit.text, { ...options, reveal, instances: pairs.map(([a]) => ({ inputs: { 0: a } })) }),
              sessions[1]!.evaluate(circuit.text, { ...options, reveal, instances: pairs.map(([, b]) => ({ inputs: { 1: b } })) }),
            ]),
            `${name} with ${n} instances`,
            120_000,
          );
          expect(r0!.instances).toHaveLength(n);
          expect(r1!.instances).toHaveLength(n);
          pairs.forEach(([a, b], i) => {
            const [both, onlyOne] = evaluatePlain(circuit, a, b);
            expect(r0!.instances![i]!.outputs[0]!.value, `${name}, ${n} instances, instance ${i}`).toBe(both);
            expect(r0!.instances![i]!.outputs[1]).toBeUndefined();
            expect(r1!.instances![i]!.outputs[0]!.value).toBe(both);
            expect(r1!.instances![i]!.outputs[1]!.value).toBe(onlyOne);
          });
          expect(r0!.outputs).toEqual(r0!.instances![0]!.outputs);
        }
      });
    }, 600_000);
  }
});

describe("rounds and progress of a batch", () => {
  it("one round per AND layer whatever the batch (TinyTable, Coral); MiniMac one batch of 960 at a time", async () => {
    const circuit = randomCircuit(99);
    await withTwo(async (sessions) => {
      const online = async (options: EvaluateOptions, n: number): Promise<number> => {
        const pairs = inputPairs(7, n);
        const [r0] = await Promise.all([
          sessions[0]!.evaluate(circuit.text, { ...options, instances: pairs.map(([a]) => ({ inputs: { 0: a } })) }),
          sessions[1]!.evaluate(circuit.text, { ...options, instances: pairs.map(([, b]) => ({ inputs: { 1: b } })) }),
        ]);
        return r0!.onlineStats.rounds;
      };
      for (const [name, options] of PROTOCOLS) {
        const one = await online(options, 1);
        if (options.protocol === "minimac") {
          expect(await online(options, 960), name).toBe(one);
          expect(await online(options, 961), name).toBe(2 * one);
        } else {
          expect(await online(options, 15), name).toBe(one);
          expect(await online(options, 961), name).toBe(one);
        }
      }
    });
  }, 600_000);

  it("reports the phase and the instances done", async () => {
    const circuit = randomCircuit(5);
    await withTwo(async (sessions) => {
      const events: ProgressEvent[] = [];
      sessions[0]!.on("progress", (event) => events.push(event));
      const pairs = inputPairs(3, 1400);
      await Promise.all([
        sessions[0]!.evaluate(circuit.text, { protocol: "minimac", instances: pairs.map(([a]) => ({ inputs: { 0: a } })) }),
        sessions[1]!.evaluate(circuit.text, { protocol: "minimac", instances: pairs.map(([, b]) => ({ inputs: { 1: b } })) }),
      ]);
      expect(events.some((e) => e.phase === "preprocessing")).toBe(true);
      expect(events.some((e) => e.phase === "online")).toBe(true);
      const done = events.flatMap((e) => (e.instances === undefined ? [] : [e.instances]));
      expect(done.some((d) => d.done === 960 && d.total === 1400)).toBe(true);
    });
  }, 300_000);
});

describe("AES-128 and SHA-256 circuits in batches", () => {
  const aes = readFileSync(join(REPO, "circuits", "aes_128.txt"), "utf8");
  it("AES-128 (Bristol): 15 instances on every protocol match Node's AES", async () => {
    const keys = Array.from({ length: 15 }, () => new Uint8Array(randomBytes(16)));
    const blocks = Array.from({ length: 15 }, () => new Uint8Array(randomBytes(16)));
    const expected = keys.map((key, i) => {
      const cipher = createCipheriv("aes-128-ecb", key, null);
      cipher.setAutoPadding(false);
      return Buffer.concat([cipher.update(blocks[i]!), cipher.final()]).toString("hex");
    });
    await withTwo(async (sessions) => {
      for (const [name, options] of PROTOCOLS) {
        const [r0, r1] = await within(
          Promise.all([
            sessions[0]!.evaluate(aes, { ...options, instances: keys.map((key) => ({ inputs: { 0: key } })) }),
            sessions[1]!.evaluate(aes, { ...options, instances: blocks.map((block) => ({ inputs: { 1: block } })) }),
          ]),
          `${name}: 15 AES`,
          300_000,
        );
        for (const result of [r0!, r1!]) expect(result.instances!.map((i) => i.outputs[0]!.hex), name).toEqual(expected);
      }
    });
  }, 900_000);

  it("SHA-256's compression (Summon's, 43,617 AND gates): 3 instances on TinyTable and Coral", async () => {
    const program = (PROGRAMS as Array<{ name: string; source: string }>).find((p) => p.name === "sha256-compression")!;
    await summon.init();
    const { circuit } = summon.compile({ path: "/src/main.ts", boolifyWidth: 32, files: { "/src/main.ts": program.source } });
    // Words 0..7 from party 0, 8..15 from party 1, as the program's settings say.
    const inputOwners = circuit.info.inputs.map((i: { name: string }) => (Number(i.name.slice(1)) < 8 ? 0 : 1));
    const words = (i: number) => Array.from({ length: 16 }, (_, w) => (0x9e3779b9 * (i + 1) * (w + 3)) >>> 0);
    const inputsOf = (party: 0 | 1, i: number) =>
      Object.fromEntries(words(i).flatMap((word, w) => (inputOwners[w] === party ? [[w, BigInt(word)]] : [])));
    await withTwo(async (sessions) => {
      for (const [name, options] of PROTOCOLS.filter(([n]) => n === "TinyTable malicious" || n === "Coral")) {
        const [r0] = await within(
          Promise.all(
            ([0, 1] as const).map((party) =>
              sessions[party]!.evaluate(circuit.bristol, {
                ...options,
                inputOwners,
                instances: [0, 1, 2].map((i) => ({ inputs: inputsOf(party, i) })),
              }),
            ),
          ),
          `${name}: 3 SHA-256 compressions`,
          300_000,
        );
        [0, 1, 2].forEach((i) => {
          const expected = sha256Compress(words(i));
          expect(r0!.instances![i]!.outputs.map((o) => Number(o!.value)), `${name}, instance ${i}`).toEqual(expected);
        });
      }
    });
  }, 600_000);
});

describe("bad batches", () => {
  it("an empty batch, one over the limit, and an instance with a bad input are refused naming it; the session stays usable", async () => {
    const circuit = randomCircuit(1);
    await withTwo(async (sessions) => {
      await expect(sessions[0]!.evaluate(circuit.text, { instances: [] })).rejects.toMatchObject({ field: "instances" });
      await expect(sessions[0]!.evaluate(circuit.text, { instances: 100_001 })).rejects.toMatchObject({ field: "instances" });
      const bad = [{ inputs: { 0: 1n } }, { inputs: { 0: 300n } }];
      const error = await sessions[0]!.evaluate(circuit.text, { instances: bad }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect(error).toMatchObject({ field: "instances[1].inputs[0]" });
      const extra = [{ inputs: { 0: 1n, 1: 2n } }];
      expect(await sessions[0]!.evaluate(circuit.text, { instances: extra }).catch((e: unknown) => e)).toMatchObject({
        field: "instances[0].inputs[1]",
      });
      await expect(sessions[0]!.evaluate(circuit.text, { inputs: { 0: 1n }, instances: [{}] })).rejects.toMatchObject({ field: "inputs" });
      // Still usable: a batch of two.
      const pairs = inputPairs(11, 2);
      const [r0] = await Promise.all([
        sessions[0]!.evaluate(circuit.text, { instances: pairs.map(([a]) => ({ inputs: { 0: a } })) }),
        sessions[1]!.evaluate(circuit.text, { instances: pairs.map(([, b]) => ({ inputs: { 1: b } })) }),
      ]);
      expect(r0!.instances![1]!.outputs[0]!.value).toBe(evaluatePlain(circuit, pairs[1]![0], pairs[1]![1])[0]);
    });
  }, 120_000);
});
