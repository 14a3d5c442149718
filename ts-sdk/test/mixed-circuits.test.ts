/**
 * Mixed circuits through `Session.evaluate`: Summon's own programs compiled without boolify
 * (`circuits/summon/*.json`) on Coral's arithmetic shares, one party on the native addon and the
 * other on WASM over an in-memory transport, against the programs' meaning; batches, 64-bit
 * values, and every bad option a typed error before anything is sent, the session still usable.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CircuitError, ConfigError, connect, NotAvailableError, type MixedCircuit, type Session } from "../src/index.js";
import { hub, rejectionOf } from "./helpers.js";

const fixture = (name: string): MixedCircuit =>
  JSON.parse(readFileSync(new URL(`../../circuits/summon/${name}.json`, import.meta.url), "utf8")) as MixedCircuit;
const SORT = fixture("sort8");
const ARITHMETIC = fixture("arithmetic");

/** Two connected sessions over one in-memory hub: slot 0 on the addon, slot 1 on WASM. */
async function pair(): Promise<Session[]> {
  const { transports } = hub(2);
  const secret = new Uint8Array(32).fill(9);
  return Promise.all(
    transports.map((transport, slot) =>
      connect({ transport, slot, parties: 2, sessionId: "mixed", secret, runtime: slot === 0 ? "native" : "wasm" }),
    ),
  );
}

const values = (outputs: ReadonlyArray<{ value: bigint } | undefined>) => outputs.map((o) => o?.value);

describe("mixed circuits", () => {
  it("sorts eight numbers from two parties with Summon's circuit, addon against WASM", async () => {
    const sessions = await pair();
    try {
      const xs = [5, 3, 9, 1, 7, 2, 0xffffffff, 6];
      const owners = xs.map((_, i) => i % 2);
      const mine = (p: number) => Object.fromEntries(xs.flatMap((x, i) => (owners[i] === p ? [[i, BigInt(x)]] : [])));
      const results = await Promise.all(
        sessions.map((s, p) => s.evaluate(SORT, { inputOwners: owners, inputs: mine(p) })),
      );
      const sorted = [...xs].sort((a, b) => a - b).map(BigInt);
      for (const result of results) {
        expect(result.protocol).toBe("coral");
        expect(result.preprocessing).toBe("ot");
        expect(values(result.outputs)).toEqual(sorted);
        expect(result.outputs[0]!.bits).toHaveLength(32);
        expect(result.onlineStats.bytesSent).toBeGreaterThan(0);
      }
    } finally {
      sessions.forEach((s) => s.close());
    }
  });

  it("runs a batch in Z_2^64 and keeps the session usable after refused jobs", async () => {
    const sessions = await pair();
    try {
      // |a − b|, (a + b) / 2 and (a & 255) + b % 16 of 64-bit values, three instances.
      const pairs: Array<[bigint, bigint]> = [
        [(1n << 64n) - 4n, 1_000_000_007n],
        [3n, 10n],
        [1n << 63n, (1n << 63n) + 1n],
      ];
      const mask = (1n << 64n) - 1n;
      const meaning = ([a, b]: [bigint, bigint]) => [a > b ? a - b : b - a, ((a + b) & mask) / 2n, (a & 255n) + (b % 16n)];

      // Refusals first, at both parties, before anything is sent.
      const refused = await Promise.all([
        rejectionOf(sessions[0]!.evaluate(ARITHMETIC, { protocol: "tinytable" as "coral", inputs: { 0: 1n } })),
        rejectionOf(sessions[0]!.evaluate(ARITHMETIC, { ring: 64, reveal: [5, "both", "both"], inputs: { 0: 1n } })),
        rejectionOf(sessions[0]!.evaluate(ARITHMETIC, { ring: 32, inputs: { 0: 1n << 32n } })),
        rejectionOf(sessions[0]!.evaluate(ARITHMETIC, { ring: 16 as 32, inputs: { 0: 1n } })),
        rejectionOf(sessions[0]!.evaluate("2 4\n2 1 1\n2 1 1\n\n2 1 0 1 2 AND\n2 1 0 1 3 XOR\n", { ring: 32, protocol: "coral" })),
        rejectionOf(sessions[0]!.evaluate(ARITHMETIC, { preprocessing: "dealer", inputs: { 0: 1n } })),
        rejectionOf(sessions[0]!.evaluate({ bristol: "not bristol", info: ARITHMETIC.info }, { inputs: { 0: 1n } })),
        rejectionOf(sessions[0]!.evaluate({ bristol: "1 3\n999999999 1\n1 1\n\n2 1 0 1 2 AAdd\n", info: ARITHMETIC.info }, {})),
        rejectionOf(sessions[0]!.prepare({ job: "evaluate", circuit: ARITHMETIC as unknown as string, protocol: "coral" })),
      ]);
      expect(refused[0]).toBeInstanceOf(NotAvailableError);
      expect(refused[0]).toMatchObject({ field: "protocol" });
      expect(refused[1]).toMatchObject({ field: "reveal" });
      expect(refused[2]).toBeInstanceOf(ConfigError);
      expect(refused[2]).toMatchObject({ field: "inputs[0]" });
      expect(refused[3]).toMatchObject({ field: "ring" });
      expect(refused[4]).toMatchObject({ field: "ring" });
      expect(refused[5]).toBeInstanceOf(NotAvailableError);
      expect(refused[5]).toMatchObject({ field: "preprocessing" });
      expect(refused[6]).toBeInstanceOf(CircuitError);
      expect(refused[7]).toBeInstanceOf(CircuitError);
      expect(refused[7]).toMatchObject({ line: 2 });
      expect(refused[8]).toBeInstanceOf(NotAvailableError);

      const results = await Promise.all(
        sessions.map((s, p) =>
          s.evaluate(ARITHMETIC, { ring: 64, instances: pairs.map((pair) => ({ inputs: { [p]: pair[p]! } })) }),
        ),
      );
      for (const result of results) {
        expect(result.instances!.map((i) => values(i.outputs))).toEqual(pairs.map(meaning));
      }

      // The distance to party 0 alone, the remainder to party 1 alone, the mean to both.
      const own = await Promise.all(
        sessions.map((s, p) =>
          s.evaluate(ARITHMETIC, { ring: 64, reveal: [0, "both", 1], inputs: { [p]: pairs[0]![p]! } }),
        ),
      );
      const [distance, mean, low] = meaning(pairs[0]!);
      expect(values(own[0]!.outputs)).toEqual([distance, mean, undefined]);
      expect(values(own[1]!.outputs)).toEqual([undefined, mean, low]);
    } finally {
      sessions.forEach((s) => s.close());
    }
  });
});
