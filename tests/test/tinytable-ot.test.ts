/**
 * Two-party TinyTable with OT preprocessing (the default) through a real relay process: **two**
 * Node parties in a two-slot room, no dealer. FIPS-197 via the AES job's circuit path
 * (semi-honest, and malicious with k = 64 and 32) and via the S-box-table path (tables from the
 * paper's §4 construction over OT, both levels), and a seeded random Bristol circuit via
 * `session.evaluate` against plaintext evaluation; `session.prepare` (material made ahead of time,
 * consumed by later jobs) with one WASM and one native party. Each AES block costs about 6400 AND
 * triples of preprocessing, so jobs here are one to three blocks.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CancelledError, ConfigError, connect, createRoom, NotAvailableError, PeerLeftError, type Session } from "@chorus/sdk";
import { FIPS_CIPHERTEXT, FIPS_KEY, FIPS_PLAINTEXT, freshSecret, fromHex, hex, startRelayProcess, within, xor, type RelayProcess } from "./relay-process.js";
import { closeAll, connectTwo, withTwo as withTwoOn, runAes } from "./three-parties.js";
import { evaluatePlain, randomCircuit } from "./random-circuit.js";

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

describe("TinyTable AES with OT preprocessing (two parties, no dealer)", () => {
  it.each([
    { name: "semi-honest", level: { security: "semi-honest" } },
    { name: "malicious, k = 64", level: { security: "malicious", macBits: 64 } },
    { name: "malicious, k = 32", level: { security: "malicious", macBits: 32 } },
  ] as const)("matches FIPS-197 with the key split between both parties ($name)", async ({ level }) => {
    const share0 = new Uint8Array(randomBytes(16));
    const share1 = xor(fromHex(FIPS_KEY), share0);
    await withTwo(async (sessions) => {
      const roles = { protocol: "tinytable", keyHolders: [0, 1], plaintextOwner: 1, ...level } as const;
      const started = performance.now();
      const results = await within(
        Promise.all(runAes(sessions, [{ ...roles, key: share0 }, { ...roles, key: share1, plaintext: FIPS_PLAINTEXT }])),
        `TinyTable AES over OT (${level.security})`,
        60_000,
      );
      const ms = performance.now() - started;
      for (const [slot, r] of results.entries()) {
        expect(r.ciphertextHex, `party ${slot}`).toBe(FIPS_CIPHERTEXT);
        expect(r).toMatchObject({ protocol: "tinytable", variant: "circuit", preprocessing: "ot", security: level.security });
        // Preprocessing (OT extension, TinyOT triples, Fig. 8) is the bulk of the job: at least a
        // 16-byte half gate for each of the 6 400 AND gates.
        expect(r.stats.bytesSent - r.roundsStats.bytesSent).toBeGreaterThan(6_400 * 16);
        if (level.security === "semi-honest") {
          // The online phase is the dealer variant's: 16 bytes per owned input value plus 820.
          expect(r.roundsStats.bytesSent).toBe(16 * (slot + 1) + 820);
          expect(r.roundsStats.rounds).toBe(61);
        }
      }
      console.log(
        `[tinytable-ot] one AES-128 block, ${level.security}${"macBits" in level ? ` k=${level.macBits}` : ""}: ${ms.toFixed(0)} ms, ` +
          `${(results[0]!.stats.bytesSent / 1e6).toFixed(2)} MB sent by party 0`,
      );
    });
  });
});

describe("TinyTable's S-box-table path with OT preprocessing (two parties, no dealer)", () => {
  it.each([{ level: { security: "semi-honest" } }, { level: { security: "malicious" } }] as const)(
    "matches FIPS-197 with tables the two parties built ($level.security)",
    async ({ level }) => {
      const { security } = level;
      await withTwo(async (sessions) => {
        const roles = { protocol: "tinytable", path: "sbox-tables", keyHolders: [0], plaintextOwner: 1, ...level } as const;
        const started = performance.now();
        const results = await within(
          Promise.all(runAes(sessions, [{ ...roles, key: FIPS_KEY }, { ...roles, plaintext: FIPS_PLAINTEXT }])),
          `TinyTable S-box tables over OT (${security})`,
          90_000,
        );
        const ms = performance.now() - started;
        for (const [slot, r] of results.entries()) {
          expect(r.ciphertextHex, `party ${slot}`).toBe(FIPS_CIPHERTEXT);
          expect(r).toMatchObject({ protocol: "tinytable", variant: "sbox-tables", preprocessing: "ot", security });
          // The §4 construction (39 520 AND triples per block) is the bulk of the job.
          expect(r.stats.bytesSent - r.roundsStats.bytesSent).toBeGreaterThan(1_000_000);
          // Tables built over OT are authenticated: both levels run the malicious online phase, 1 input
          // round, 10 lookup rounds and the output opening.
          expect(r.roundsStats.rounds).toBe(12);
        }
        console.log(
          `[tinytable-ot] one AES-128 block on the S-box tables, ${security}: ${ms.toFixed(0)} ms, ` +
            `${(results[0]!.stats.bytesSent / 1e6).toFixed(2)} MB sent by party 0`,
        );
      });
    },
  );

  it("decrypts FIPS-197's ciphertext on inverse S-box tables the two parties built (malicious)", async () => {
    await withTwo(async (sessions) => {
      const roles = { protocol: "tinytable", path: "sbox-tables", direction: "decrypt", keyHolders: [0], plaintextOwner: 1, security: "malicious" } as const;
      const results = await within(
        Promise.all(runAes(sessions, [{ ...roles, key: FIPS_KEY }, { ...roles, plaintext: FIPS_CIPHERTEXT }])),
        "TinyTable S-box-table decryption over OT",
        90_000,
      );
      for (const [slot, r] of results.entries()) {
        expect(r.ciphertextHex, `party ${slot}`).toBe(FIPS_PLAINTEXT);
        expect(r.roundsStats.rounds).toBe(12);
      }
    });
  });

  it("tables prepared ahead (one WASM, one native party) leave the later job its 12 online rounds alone", async () => {
    const sessions = await mixedTwo();
    try {
      expect(sessions.map((s) => s.runtime)).toEqual(["wasm", "native"]);
      const roles = { protocol: "tinytable", path: "sbox-tables", keyHolders: [0], plaintextOwner: 1, security: "malicious" } as const;
      const made = await within(
        Promise.all(sessions.map((s) => s.prepare({ job: "aes", ...roles, blocks: 2 }))),
        "preparing the S-box tables of 2 AES blocks",
        90_000,
      );
      for (const m of made) {
        expect(m).toMatchObject({ job: "aes", protocol: "tinytable", security: "malicious", instances: 2, available: 2 });
        // The preparation is the OT work: at least a 16-byte half gate per AND triple (39 520 a block).
        expect(m.stats.bytesSent).toBeGreaterThan(2 * 39_520 * 16);
      }
      const plaintext = FIPS_PLAINTEXT.repeat(2);
      const results = await within(
        Promise.all(runAes(sessions, [{ ...roles, blocks: 2, key: FIPS_KEY, usePrepared: true }, { ...roles, blocks: 2, plaintext, usePrepared: true }])),
        "AES on the prepared S-box tables",
        30_000,
      );
      for (const [slot, r] of results.entries()) {
        expect(r.ciphertextHex, `party ${slot}`).toBe(FIPS_CIPHERTEXT.repeat(2));
        expect(r.prepared, `party ${slot}`).toBe(true);
        // Spec agreement (32 bytes) and the online phase: the tables were built before.
        expect(r.stats.bytesSent).toBe(r.onlineStats.bytesSent + 32);
        expect(r.roundsStats.rounds).toBe(12);
      }
    } finally {
      await closeAll(sessions);
    }
  });
});

describe("session.evaluate with OT preprocessing (two parties, no dealer)", () => {
  it("a random Bristol circuit matches plaintext evaluation, semi-honest and malicious", async () => {
    const circuit = randomCircuit(20240917);
    await withTwo(async (sessions) => {
      const trials: Array<[bigint, bigint]> = [
        [0xa5n, 0x3cn],
        [0xffn, 0x01n],
      ];
      for (const [trial, [a, b]] of trials.entries()) {
        const level = trial === 0 ? ({ security: "semi-honest" } as const) : ({ security: "malicious", macBits: 32 } as const);
        const reveal = ["both", 1] as const;
        const [r0, r1] = await within(
          Promise.all([
            sessions[0]!.evaluate(circuit.text, { ...level, inputs: { 0: a }, reveal }),
            sessions[1]!.evaluate(circuit.text, { ...level, inputs: { 1: b }, reveal }),
          ]),
          `random circuit, trial ${trial}`,
          30_000,
        );
        const [both, onlyOne] = evaluatePlain(circuit, a, b);
        expect(r0!.preprocessing).toBe("ot");
        expect(r0!.outputs[0]!.value, `trial ${trial}, a=${hex(Uint8Array.of(Number(a)))}`).toBe(both);
        expect(r0!.outputs[1]).toBeUndefined();
        expect(r1!.outputs[0]!.value).toBe(both);
        expect(r1!.outputs[1]!.value).toBe(onlyOne);
      }
    });
  });
});

/** Two parties of a two-slot room: party 0 on the WASM core, party 1 on the default (native addon). */
async function mixedTwo(): Promise<Session[]> {
  const room = await createRoom({ relay: relay.url, parties: 2 });
  const secret = freshSecret();
  return Promise.all([
    connect({ ...room.invite(0), secret, runtime: "wasm" }),
    connect({ ...room.invite(1), secret }),
  ]);
}

describe("session.prepare: preprocessing ahead of time, consumed by later jobs", () => {
  it("prepared AES blocks and circuit evaluations are consumed once each, with the online phase alone left in the jobs", async () => {
    const sessions = await mixedTwo();
    try {
      expect(sessions.map((s) => s.runtime)).toEqual(["wasm", "native"]);
      const share0 = new Uint8Array(randomBytes(16));
      const share1 = xor(fromHex(FIPS_KEY), share0);
      const level = { protocol: "tinytable", keyHolders: [0, 1], plaintextOwner: 1, security: "malicious", macBits: 64 } as const;
      const progress: number[] = [];
      sessions[0]!.on("progress", (e) => progress.push(e.bytesReceived));
      const made = await within(
        Promise.all(sessions.map((s) => s.prepare({ job: "aes", ...level, blocks: 3 }))),
        "preparing 3 AES blocks",
        90_000,
      );
      for (const m of made) {
        expect(m).toMatchObject({ job: "aes", protocol: "tinytable", security: "malicious", instances: 3, available: 3 });
        expect(m.stats.bytesSent).toBeGreaterThan(1_000_000);
      }
      expect(progress.length, "progress events during the preparation").toBeGreaterThan(10);
      expect(progress.at(-1)).toBe(made[0]!.stats.bytesReceived);

      // One block, then two: both from the prepared material.
      for (const blocks of [1, 2]) {
        const plaintext = FIPS_PLAINTEXT.repeat(blocks);
        const results = await within(
          Promise.all(runAes(sessions, [{ ...level, blocks, key: share0 }, { ...level, blocks, key: share1, plaintext }])),
          `prepared AES, ${blocks} block(s)`,
          30_000,
        );
        for (const [slot, r] of results.entries()) {
          expect(r.ciphertextHex, `party ${slot}`).toBe(FIPS_CIPHERTEXT.repeat(blocks));
          expect(r.prepared, `party ${slot}`).toBe(true);
          // Spec agreement (32 bytes) and the online phase: the preprocessing was done before.
          expect(r.stats.bytesSent).toBe(r.onlineStats.bytesSent + 32);
        }
      }

      // Nothing left: requiring prepared material is a ConfigError before anything is sent, and
      // the session stays usable; without `usePrepared` the job makes its own material.
      await expect(sessions[0]!.aes({ ...level, key: share0, usePrepared: true })).rejects.toSatisfy(
        (e: unknown) => e instanceof ConfigError && e.field === "usePrepared" && /no prepared material is left/.test(e.message),
      );
      const inline = await within(
        Promise.all(runAes(sessions, [{ ...level, key: share0 }, { ...level, key: share1, plaintext: FIPS_PLAINTEXT }])),
        "AES with its own preprocessing",
        60_000,
      );
      for (const r of inline) {
        expect(r.ciphertextHex).toBe(FIPS_CIPHERTEXT);
        expect(r.prepared).toBe(false);
        expect(r.preprocessingStats.bytesSent).toBeGreaterThan(6_400 * 16);
      }

      // Circuit evaluations: two prepared, consumed by two evaluate calls.
      const circuit = randomCircuit(77);
      const io = { security: "semi-honest", reveal: ["both", 1] } as const;
      await within(
        Promise.all(sessions.map((s) => s.prepare({ job: "evaluate", circuit: circuit.text, evaluations: 2, ...io }))),
        "preparing two evaluations",
        30_000,
      );
      for (const [a, b] of [
        [0x12n, 0x34n],
        [0xf0n, 0x0fn],
      ] as const) {
        const [r0, r1] = await within(
          Promise.all([
            sessions[0]!.evaluate(circuit.text, { ...io, inputs: { 0: a }, usePrepared: true }),
            sessions[1]!.evaluate(circuit.text, { ...io, inputs: { 1: b }, usePrepared: true }),
          ]),
          "a prepared evaluation",
          30_000,
        );
        const [both, onlyOne] = evaluatePlain(circuit, a, b);
        expect([r0!.prepared, r1!.prepared]).toEqual([true, true]);
        expect(r0!.outputs[0]!.value).toBe(both);
        expect(r1!.outputs[1]!.value).toBe(onlyOne);
      }
    } finally {
      await closeAll(sessions);
    }
  });

  it("options that cannot be prepared reject before anything is sent; aborting a preparation ends the session", async () => {
    const sessions = await connectTwo(relay.url, freshSecret());
    try {
      await expect(sessions[0]!.prepare({ job: "aes", protocol: "tinytable", path: "sbox-tables", preprocessing: "dealer" } as never)).rejects.toBeInstanceOf(
        NotAvailableError,
      );
      await expect(sessions[0]!.prepare({ job: "aes", protocol: "maestro" } as never)).rejects.toSatisfy(
        (e: unknown) => e instanceof NotAvailableError && e.field === "protocol",
      );
      await expect(sessions[0]!.prepare({ job: "evaluate", circuit: "not a circuit" } as never)).rejects.toBeInstanceOf(ConfigError);
      await expect(sessions[0]!.prepare({ job: "sha" } as never)).rejects.toSatisfy((e: unknown) => e instanceof ConfigError && e.field === "job");

      const controller = new AbortController();
      sessions[0]!.on("progress", (e) => {
        if (e.round === 4) controller.abort(new Error("user cancelled"));
      });
      const outcomes = await within(
        Promise.allSettled([
          sessions[0]!.prepare({ job: "aes", protocol: "tinytable", blocks: 8, signal: controller.signal }),
          sessions[1]!.prepare({ job: "aes", protocol: "tinytable", blocks: 8 }),
        ]),
        "the cancelled preparation",
        30_000,
      );
      expect(outcomes[0]!.status).toBe("rejected");
      if (outcomes[0]!.status === "rejected") expect(outcomes[0]!.reason).toBeInstanceOf(CancelledError);
      expect(outcomes[1]!.status).toBe("rejected");
      if (outcomes[1]!.status === "rejected") expect(outcomes[1]!.reason).toBeInstanceOf(PeerLeftError);
    } finally {
      await closeAll(sessions);
    }
  });
});
