/**
 * Three SDK parties in this process compute AES jointly through a real relay process: key shares
 * from parties 0 and 1, plaintext from party 2, everything inside the core's MAESTRO job (the
 * native addon by default in Node, WASM where asked for) over Noise channels. Checked against
 * FIPS-197 and Node's crypto.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProgressEvent } from "@chorus/sdk";
import {
  FIPS_CIPHERTEXT,
  FIPS_KEY,
  FIPS_PLAINTEXT,
  freshSecret,
  fromHex,
  hex,
  referenceAes,
  startRelayProcess,
  within,
  xor,
  type RelayProcess,
} from "./relay-process.js";
import { closeAll, connectThree, runAes } from "./three-parties.js";

/**
 * The default job, malicious LUT-16: bytes each party sends per block in the AES-128 rounds
 * (MAESTRO Table 1: 2560 bits), in 20 rounds; preprocessing and verification come outside them.
 */
const ROUND_BYTES_PER_BLOCK = 320;
const AES_ROUNDS = 20;

let relay: RelayProcess;
beforeAll(async () => {
  relay = await startRelayProcess();
});
afterAll(async () => {
  await relay?.stop();
});

describe("joint AES through the relay", () => {
  it("computes the FIPS-197 vector from XOR key shares, and every party learns it", async () => {
    const share0 = new Uint8Array(randomBytes(16));
    const share1 = xor(fromHex(FIPS_KEY), share0);
    const sessions = await connectThree(relay.url, freshSecret());
    const progress: ProgressEvent[][] = [[], [], []];
    sessions.forEach((s, i) => s.on("progress", (e) => progress[i]!.push(e)));
    try {
      const results = await within(
        Promise.all(runAes(sessions, [{ key: share0 }, { key: hex(share1) }, { plaintext: FIPS_PLAINTEXT }])),
        "the joint AES",
        30_000,
      );
      for (const [slot, result] of results.entries()) {
        expect(result.ciphertextHex, `party ${slot}`).toBe(FIPS_CIPHERTEXT);
        expect(hex(result.ciphertext!)).toBe(FIPS_CIPHERTEXT);
        expect(result).toMatchObject({ protocol: "maestro", variant: "lut16", security: "malicious" });
        expect(result.roundsStats.rounds).toBe(AES_ROUNDS);
        expect(result.roundsStats.bytesSent).toBe(ROUND_BYTES_PER_BLOCK);
        expect(result.roundsStats.bytesReceived).toBe(ROUND_BYTES_PER_BLOCK);
        expect(result.stats.bytesSent).toBeGreaterThan(result.roundsStats.bytesSent);
        expect(result.stats.timeMs).toBeGreaterThan(0);
        // Encrypted frames carry at least the payload plus a 26-byte frame overhead each.
        expect(result.transportStats.bytesSent).toBeGreaterThan(result.stats.bytesSent);
        const stats = sessions[slot]!.stats();
        expect(stats).toMatchObject({ jobs: 1, bytesSent: result.stats.bytesSent, rounds: result.stats.rounds });
        // Progress: one event per received message, rounds never decreasing, last one = totals.
        const events = progress[slot]!;
        expect(events.length).toBe(result.stats.messagesReceived);
        expect(events.every((e, i) => i === 0 || e.round >= events[i - 1]!.round)).toBe(true);
        expect(events.at(-1)!.bytesReceived).toBe(result.stats.bytesReceived);
      }
    } finally {
      await closeAll(sessions);
    }
  });

  it("runs one session whose parties use different runtimes (native addon, WASM), several jobs in a row", async () => {
    const share0 = new Uint8Array(randomBytes(16));
    const share1 = xor(fromHex(FIPS_KEY), share0);
    const runtimes = ["native", "wasm", "native"] as const;
    const sessions = await connectThree(relay.url, freshSecret(), (slot) => ({ runtime: runtimes[slot] }));
    try {
      expect(sessions.map((s) => s.runtime)).toEqual(runtimes);
      for (const variant of ["lut16", "gf256-circuit"] as const) {
        const results = await within(
          Promise.all(runAes(sessions, [{ key: share0, variant }, { key: share1, variant }, { plaintext: FIPS_PLAINTEXT, variant }])),
          "the mixed-runtime AES",
          30_000,
        );
        for (const [slot, result] of results.entries()) {
          expect(result.ciphertextHex, `party ${slot}, ${variant}`).toBe(FIPS_CIPHERTEXT);
          expect(result.runtime).toBe(runtimes[slot]);
        }
        // Same protocol, same bytes: the runtime changes nothing on the wire.
        expect(new Set(results.map((r) => r.stats.bytesSent)).size).toBe(1);
      }
    } finally {
      await closeAll(sessions);
    }
  });

  for (const blocks of [7, 1000]) {
    it(`encrypts ${blocks} blocks like Node's aes-128-ecb, with ${ROUND_BYTES_PER_BLOCK} round bytes per block`, async () => {
      const key = new Uint8Array(randomBytes(16));
      const plaintext = new Uint8Array(randomBytes(16 * blocks));
      const share0 = new Uint8Array(randomBytes(16));
      const sessions = await connectThree(relay.url, freshSecret());
      try {
        const results = await within(
          Promise.all(
            runAes(sessions, [
              { key: share0, blocks },
              { key: xor(key, share0), blocks },
              { plaintext, blocks },
            ]),
          ),
          `AES of ${blocks} blocks`,
          50_000,
        );
        const expected = hex(referenceAes(key, plaintext));
        for (const result of results) {
          expect(result.ciphertextHex).toBe(expected);
          expect(result.roundsStats.bytesSent).toBe(ROUND_BYTES_PER_BLOCK * blocks);
          expect(result.roundsStats.bytesReceived).toBe(ROUND_BYTES_PER_BLOCK * blocks);
        }
        // Rounds do not grow with the batch: one message per peer per round, whatever the size.
        expect(results[0]!.roundsStats.rounds).toBe(AES_ROUNDS);
      } finally {
        await closeAll(sessions);
      }
    });
  }

  it("reveals only to the chosen parties, and runs a second job in the same session", async () => {
    const key = new Uint8Array(randomBytes(16));
    const pt1 = new Uint8Array(randomBytes(32));
    const pt2 = new Uint8Array(randomBytes(16));
    const sessions = await connectThree(relay.url, freshSecret());
    try {
      const first = await within(
        Promise.all(
          runAes(sessions, [
            { blocks: 2, keyHolders: [0], plaintextOwner: 1, reveal: [1], key },
            { blocks: 2, keyHolders: [0], plaintextOwner: 1, reveal: [1], plaintext: pt1 },
            { blocks: 2, keyHolders: [0], plaintextOwner: 1, reveal: [1] },
          ]),
        ),
        "the first job",
      );
      expect(first[0]!.ciphertext).toBeUndefined();
      expect(first[2]!.ciphertext).toBeUndefined();
      expect(first[1]!.ciphertextHex).toBe(hex(referenceAes(key, pt1)));
      // Party 0 starts the second job late: frames the others already sent wait for it.
      const late = [
        sessions[1]!.aes({ keyHolders: [0], plaintextOwner: 2, key: undefined }),
        sessions[2]!.aes({ keyHolders: [0], plaintextOwner: 2, plaintext: pt2 }),
      ];
      await new Promise((resolve) => setTimeout(resolve, 200));
      const second = await within(
        Promise.all([sessions[0]!.aes({ keyHolders: [0], plaintextOwner: 2, key }), ...late]),
        "the second job",
      );
      for (const result of second) expect(result.ciphertextHex).toBe(hex(referenceAes(key, pt2)));
      expect(sessions[0]!.stats().jobs).toBe(2);
    } finally {
      await closeAll(sessions);
    }
  });

  it("runs with pinned static keys (Noise KK) instead of a session secret", async () => {
    const { x25519 } = await import("./x25519.js");
    const privates = [0, 1, 2].map(() => x25519.randomPrivate());
    const publicKeys = privates.map((k) => x25519.publicOf(k));
    const share0 = new Uint8Array(randomBytes(16));
    const { createRoom, connect } = await import("@chorus/sdk");
    const room = await createRoom({ relay: relay.url, parties: 3 });
    const sessions = await Promise.all(
      [0, 1, 2].map((slot) => connect({ ...room.invite(slot), keys: { privateKey: privates[slot]!, publicKeys } })),
    );
    try {
      const results = await within(
        Promise.all(
          runAes(sessions, [
            { key: share0 },
            { key: xor(fromHex(FIPS_KEY), share0) },
            { plaintext: FIPS_PLAINTEXT },
          ]),
        ),
        "AES with pinned keys",
      );
      for (const result of results) expect(result.ciphertextHex).toBe(FIPS_CIPHERTEXT);
    } finally {
      await closeAll(sessions);
    }
  });
});
