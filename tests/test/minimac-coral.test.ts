/**
 * MiniMac and Coral through the SDK and a real relay process: both plug into the one AES and
 * circuit job of the SDK (`session.aes` / `session.evaluate` with `protocol`). MiniMac: two Node
 * parties and the trusted dealer in slot 2, or two parties alone with OT preprocessing (a circuit:
 * OT material for a whole AES batch takes tens of seconds, see the core's ignored tests). Coral: two Node
 * parties and nobody else, preprocessing over OT, or with the trusted dealer. FIPS-197 with the key split between both
 * parties, a two-input circuit against its plaintext value, and outputs revealed to one party.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Session } from "@chorus/sdk";
import { FIPS_CIPHERTEXT, FIPS_KEY, FIPS_PLAINTEXT, freshSecret, fromHex, startRelayProcess, within, xor, type RelayProcess } from "./relay-process.js";
import { closeAll, connectThree, connectTwo, runAes } from "./three-parties.js";

/** Bristol: out = a AND b for one-bit inputs a (party 0) and b (party 1). */
const AND = "1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n";

let relay: RelayProcess;
beforeAll(async () => {
  relay = await startRelayProcess();
});
afterAll(async () => {
  await relay?.stop();
});

async function within3<T>(run: (sessions: Session[]) => Promise<T>, members: 2 | 3): Promise<T> {
  const sessions = members === 2 ? await connectTwo(relay.url, freshSecret()) : await connectThree(relay.url, freshSecret());
  try {
    return await run(sessions);
  } finally {
    await closeAll(sessions);
  }
}

describe("MiniMac through the SDK (two parties and a trusted dealer)", () => {
  it("matches FIPS-197 with the key split between both parties; the dealer learns nothing", async () => {
    const share0 = new Uint8Array(randomBytes(16));
    const share1 = xor(fromHex(FIPS_KEY), share0);
    await within3(async (sessions) => {
      const roles = { protocol: "minimac", preprocessing: "dealer", keyHolders: [0, 1], plaintextOwner: 1 } as const;
      const results = await within(
        Promise.all(runAes(sessions, [{ ...roles, key: share0 }, { ...roles, key: share1, plaintext: FIPS_PLAINTEXT }, roles])),
        "MiniMac AES",
        120_000,
      );
      for (const slot of [0, 1]) {
        expect(results[slot]!.ciphertextHex, `party ${slot}`).toBe(FIPS_CIPHERTEXT);
        expect(results[slot]).toMatchObject({ protocol: "minimac", variant: "rs256-120-matrix", security: "malicious", preprocessing: "dealer" });
        expect(results[slot]!.onlineStats.rounds).toBeGreaterThan(60);
      }
      expect(results[2]!.ciphertext).toBeUndefined();
      expect(results[2]!.onlineStats.bytesSent).toBe(0);
    }, 3);
  }, 150_000);

  it("reveals the ciphertext to party 1 only: party 0 and the dealer get nothing", async () => {
    await within3(async (sessions) => {
      const roles = { protocol: "minimac", preprocessing: "dealer", reveal: [1] } as const;
      const results = await within(
        Promise.all(runAes(sessions, [{ ...roles, key: FIPS_KEY }, { ...roles, plaintext: FIPS_PLAINTEXT }, roles])),
        "MiniMac AES to party 1",
        120_000,
      );
      expect(results[1]!.ciphertextHex).toBe(FIPS_CIPHERTEXT);
      expect(results[0]!.ciphertext).toBeUndefined();
      expect(results[2]!.ciphertext).toBeUndefined();
    }, 3);
  }, 150_000);

  it("evaluates a circuit; both parties learn the output", async () => {
    await within3(async (sessions) => {
      const options = { protocol: "minimac", preprocessing: "dealer", code: "rs255-85-fft" } as const;
      const results = await Promise.all([
        sessions[0]!.evaluate(AND, { ...options, inputs: [[true]] }),
        sessions[1]!.evaluate(AND, { ...options, inputs: [undefined, [true]] }),
        sessions[2]!.evaluate(AND, options),
      ]);
      for (const slot of [0, 1]) expect(results[slot]!.outputs[0]?.bits).toEqual([true]);
      expect(results[2]!.outputs).toEqual([undefined]);
      expect(results[0]).toMatchObject({ protocol: "minimac", preprocessing: "dealer" });
    }, 3);
  }, 60_000);
});

describe("MiniMac through the SDK (two parties over OT, no dealer)", () => {
  it("evaluates circuits with outputs to both parties and to one, with preprocessing over OT by default", async () => {
    // out0 = a AND b to party 0, out1 = (a AND b) XOR a to party 1.
    const twoOutputs = "2 4\n2 1 1\n2 1 1\n\n2 1 0 1 2 AND\n2 1 2 0 3 XOR\n";
    await within3(async (sessions) => {
      const trials: Array<[boolean, boolean]> = [
        [true, true],
        [true, false],
      ];
      for (const [a, b] of trials) {
        const options = { protocol: "minimac", code: "rs255-85-fft", reveal: [0, 1] } as const;
        const [r0, r1] = await within(
          Promise.all([
            sessions[0]!.evaluate(twoOutputs, { ...options, inputs: [[a]] }),
            sessions[1]!.evaluate(twoOutputs, { ...options, inputs: [undefined, [b]] }),
          ]),
          "MiniMac circuit over OT",
          60_000,
        );
        expect(r0).toMatchObject({ protocol: "minimac", preprocessing: "ot" });
        expect(r0!.outputs.map((o) => o?.bits)).toEqual([[a && b], undefined]);
        expect(r1!.outputs.map((o) => o?.bits)).toEqual([undefined, [(a && b) !== a]]);
        // The OT preprocessing (TinyOT triples for a whole batch, COPE, checks) is the bulk.
        expect(r0!.preprocessingStats.bytesSent).toBeGreaterThan(100 * r0!.onlineStats.bytesSent);
      }
    }, 2);
  }, 150_000);
});

describe("Coral through the SDK (two parties over OT, no dealer)", () => {
  it("matches FIPS-197 with the key split between both parties", async () => {
    const share0 = new Uint8Array(randomBytes(16));
    const share1 = xor(fromHex(FIPS_KEY), share0);
    await within3(async (sessions) => {
      const roles = { protocol: "coral", keyHolders: [0, 1], plaintextOwner: 1 } as const;
      const results = await within(
        Promise.all(runAes(sessions, [{ ...roles, key: share0 }, { ...roles, key: share1, plaintext: FIPS_PLAINTEXT }])),
        "Coral AES over OT",
        120_000,
      );
      for (const [slot, r] of results.entries()) {
        expect(r.ciphertextHex, `party ${slot}`).toBe(FIPS_CIPHERTEXT);
        expect(r).toMatchObject({ protocol: "coral", variant: "rmfe-14-42", security: "malicious", preprocessing: "ot" });
        expect(r.preprocessingStats.bytesSent).toBeGreaterThan(100 * r.onlineStats.bytesSent);
      }
    }, 2);
  }, 150_000);

  it("reveals each circuit output to the party it names", async () => {
    // out0 = a AND b to party 0, out1 = a XOR b to party 1.
    const twoOutputs = "2 4\n2 1 1\n2 1 1\n\n2 1 0 1 2 AND\n2 1 0 1 3 XOR\n";
    await within3(async (sessions) => {
      const reveal = [0, 1] as const;
      const [r0, r1] = await within(
        Promise.all([
          sessions[0]!.evaluate(twoOutputs, { protocol: "coral", reveal, inputs: [[true]] }),
          sessions[1]!.evaluate(twoOutputs, { protocol: "coral", reveal, inputs: [undefined, [true]] }),
        ]),
        "Coral circuit with one output per party",
        120_000,
      );
      expect(r0!.outputs.map((o) => o?.bits)).toEqual([[true], undefined]);
      expect(r1!.outputs.map((o) => o?.bits)).toEqual([undefined, [false]]);
    }, 2);
  }, 150_000);

  it("evaluates a circuit", async () => {
    await within3(async (sessions) => {
      const results = await Promise.all([
        sessions[0]!.evaluate(AND, { protocol: "coral", inputs: [[true]] }),
        sessions[1]!.evaluate(AND, { protocol: "coral", inputs: [undefined, [false]] }),
      ]);
      for (const r of results) expect(r.outputs[0]?.bits).toEqual([false]);
    }, 2);
  }, 120_000);
});

describe("Coral through the SDK with a trusted dealer in slot 2", () => {
  it("matches FIPS-197; the dealer learns nothing", async () => {
    await within3(async (sessions) => {
      const roles = { protocol: "coral", preprocessing: "dealer" } as const;
      const results = await within(
        Promise.all(runAes(sessions, [{ ...roles, key: FIPS_KEY }, { ...roles, plaintext: FIPS_PLAINTEXT }, roles])),
        "Coral AES with the dealer",
        120_000,
      );
      for (const slot of [0, 1]) {
        expect(results[slot]!.ciphertextHex, `party ${slot}`).toBe(FIPS_CIPHERTEXT);
        expect(results[slot]).toMatchObject({ protocol: "coral", preprocessing: "dealer" });
      }
      expect(results[2]!.ciphertext).toBeUndefined();
    }, 3);
  }, 150_000);
});
