/**
 * TinyOT, Coral and MiniMac over OT among three members through `Session.aes` and `Session.evaluate`:
 * every member computes, owns an input and may receive an output of its own — no dealer (n-party
 * TinyOT and pairwise COPE in the core). Members on the addon and on WASM over an in-memory
 * transport; a recipient outside the session is a typed error before anything is sent. (MiniMac's
 * AES among three runs in the runner's tests: over a million bytes per AND gate per party would
 * make a WASM member slow here.)
 */
import { describe, expect, it } from "vitest";
import { ConfigError, connect, type Session } from "../src/index.js";
import { hub, rejectionOf } from "./helpers.js";

/** Bristol Fashion: 8-bit a, b, c from parties 0, 1, 2; outputs (a AND b) XOR c and a XOR b. */
function circuit(): string {
  const gates: string[] = [];
  for (let i = 0; i < 8; i++) {
    gates.push(`2 1 ${i} ${8 + i} ${24 + i} AND`);
    gates.push(`2 1 ${24 + i} ${16 + i} ${32 + i} XOR`);
    gates.push(`2 1 ${i} ${8 + i} ${40 + i} XOR`);
  }
  return `${gates.length} 48\n3 8 8 8\n2 8 8\n\n${gates.join("\n")}\n`;
}

async function three(sessionId: string): Promise<Session[]> {
  const { transports } = hub(3);
  const secret = new Uint8Array(32).fill(4);
  return Promise.all(
    transports.map((transport, slot) =>
      connect({ transport, slot, parties: 3, sessionId, secret, runtime: slot === 1 ? "wasm" : "native" }),
    ),
  );
}

const FIPS_KEY = Uint8Array.from({ length: 16 }, (_, i) => i);
const FIPS_PT = Uint8Array.from({ length: 16 }, (_, i) => i * 0x11);
const FIPS_CT = "69c4e0d86a7b0430d8cdb78070b4c55a";

describe.each(["coral", "tinyot"] as const)("%s AES among three parties over OT", (protocol) => {
  it("runs AES-128 with MAESTRO's roles by default: key shares from 0 and 1, plaintext from 2, ciphertext to all", async () => {
    const sessions = await three(`${protocol}-aes-3`);
    try {
      const mask = Uint8Array.from({ length: 16 }, (_, i) => (i * 37 + 11) & 0xff);
      const inputs = [{ key: mask }, { key: FIPS_KEY.map((k, i) => k ^ mask[i]!) }, { plaintext: FIPS_PT }];
      const results = await Promise.all(sessions.map((s, p) => s.aes({ protocol, ...inputs[p]! })));
      for (const result of results) {
        expect(result.protocol).toBe(protocol);
        expect(result.ciphertextHex).toBe(FIPS_CT);
      }
    } finally {
      sessions.forEach((s) => s.close());
    }
  });

});

describe.each(["coral", "minimac", "tinyot"] as const)("%s among three parties over OT", (protocol) => {
  it("evaluates a circuit with an input from each member and an output to party 2 alone", async () => {
    const sessions = await three(`${protocol}-3`);
    try {
      const values = [0xb6, 0x5d, 0x0f];
      const options = { protocol, inputOwners: [0, 1, 2], reveal: ["both" as const, 2] };
      const refused = await rejectionOf(sessions[0]!.evaluate(circuit(), { ...options, reveal: ["both", 3], inputs: { 0: BigInt(values[0]!) } }));
      expect(refused).toBeInstanceOf(ConfigError);
      expect(refused).toMatchObject({ field: "reveal" });
      const results = await Promise.all(
        sessions.map((s, p) => s.evaluate(circuit(), { ...options, inputs: { [p]: BigInt(values[p]!) } })),
      );
      const [a, b, c] = values as [number, number, number];
      results.forEach((result, p) => {
        expect(result.protocol).toBe(protocol);
        expect(result.preprocessing).toBe("ot");
        expect(result.outputs[0]!.value).toBe(BigInt((a & b) ^ c));
        expect(result.outputs[1]?.value).toBe(p === 2 ? BigInt(a ^ b) : undefined);
        expect(result.preprocessingStats.bytesSent).toBeGreaterThan(0);
      });
    } finally {
      sessions.forEach((s) => s.close());
    }
  });
});

// TinyOT makes its material inside each job: its preparation is refused (below).
describe.each(["coral", "minimac"] as const)("%s among three parties, prepared", (protocol) => {
  it("prepares material among the three, which later evaluations consume with their online phase alone", async () => {
    const sessions = await three(`${protocol}-3-prepared`);
    try {
      const options = { protocol, inputOwners: [0, 1, 2], reveal: ["both" as const, 2] };
      const made = await Promise.all(sessions.map((s) => s.prepare({ job: "evaluate", circuit: circuit(), ...options, evaluations: 2, perJob: 1 })));
      for (const m of made) expect(m).toMatchObject({ protocol, instances: 2, available: 2 });
      for (const values of [[0x11, 0xf0, 0x3c], [0xff, 0x0f, 0xaa]] as const) {
        const [a, b, c] = values;
        const results = await Promise.all(
          sessions.map((s, p) => s.evaluate(circuit(), { ...options, usePrepared: true, inputs: { [p]: BigInt(values[p]!) } })),
        );
        results.forEach((result, p) => {
          expect(result.prepared).toBe(true);
          expect(result.outputs[0]!.value).toBe(BigInt((a & b) ^ c));
          expect(result.outputs[1]?.value).toBe(p === 2 ? BigInt(a ^ b) : undefined);
          // Besides the online phase, only the spec digest to each of the two peers.
          expect(result.stats.bytesSent - result.onlineStats.bytesSent).toBe(64);
        });
      }
      const spent = await rejectionOf(sessions[0]!.evaluate(circuit(), { ...options, usePrepared: true, inputs: { 0: 1n } }));
      expect(spent).toMatchObject({ field: "usePrepared" });
    } finally {
      sessions.forEach((s) => s.close());
    }
  });
});

describe("TinyOT among three parties", () => {
  it("refuses to prepare material, naming the protocol, before anything is sent", async () => {
    const sessions = await three("tinyot-3-prepare");
    try {
      const options = { protocol: "tinyot" as const, inputOwners: [0, 1, 2], reveal: ["both" as const, 2] };
      const refused = await rejectionOf(sessions[0]!.prepare({ job: "evaluate", circuit: circuit(), ...options, evaluations: 2 } as never));
      expect(refused).toBeInstanceOf(ConfigError);
      expect(refused).toMatchObject({ field: "protocol" });
    } finally {
      sessions.forEach((s) => s.close());
    }
  });
});
