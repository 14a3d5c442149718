/**
 * `session.prepare` for MiniMac and Coral through the SDK and a real relay process: material made
 * ahead with OT between two parties (one on the WASM core, one on the native addon) or from the
 * trusted dealer, consumed by later AES and batched evaluate jobs with the online phase alone
 * left in them; `perJob` units (one-block jobs after a preparation for one-block jobs, a spare
 * unit dropped by a job that fills it in part);
 * `usePrepared: true` once nothing is left; members that disagree fail the spec agreement; the
 * store's bound and the options that cannot be prepared.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, connect, createRoom, NotAvailableError, ProtocolAbortError, type Session } from "@chorus/sdk";
import { FIPS_CIPHERTEXT, FIPS_KEY, FIPS_PLAINTEXT, freshSecret, fromHex, startRelayProcess, within, xor, type RelayProcess } from "./relay-process.js";
import { closeAll, connectThree, runAes } from "./three-parties.js";
import { evaluatePlain, prng, randomCircuit } from "./random-circuit.js";

let relay: RelayProcess;
beforeAll(async () => {
  relay = await startRelayProcess();
});
afterAll(async () => {
  await relay?.stop();
});

/** Party 0 on the WASM core, party 1 on the native addon. */
async function mixedTwo(): Promise<Session[]> {
  const room = await createRoom({ relay: relay.url, parties: 2 });
  const secret = freshSecret();
  return Promise.all([connect({ ...room.invite(0), secret, runtime: "wasm" }), connect({ ...room.invite(1), secret })]);
}

const share0 = new Uint8Array(randomBytes(16));
const share1 = xor(fromHex(FIPS_KEY), share0);

describe("session.prepare for MiniMac and Coral", () => {
  for (const protocol of ["minimac", "coral"] as const) {
    // MiniMac makes a whole codeword batch per one-block job over OT (tens of MB): two of them.
    const blocks = protocol === "minimac" ? 2 : 3;
    it(`${protocol} over OT: ${blocks} AES blocks for one-block jobs, consumed once each with the online phase alone`, async () => {
      const sessions = await mixedTwo();
      try {
        const roles = { protocol, keyHolders: [0, 1], plaintextOwner: 1 } as const;
        const phases: Array<string | undefined> = [];
        sessions[1]!.on("progress", (e) => phases.push(e.instances ? `${e.instances.done}/${e.instances.total}` : undefined));
        const made = await within(
          Promise.all(sessions.map((s) => s.prepare({ job: "aes", ...roles, blocks, perJob: 1 }))),
          `preparing ${blocks} ${protocol} AES blocks`,
          240_000,
        );
        for (const m of made) expect(m).toMatchObject({ job: "aes", protocol, security: "malicious", instances: blocks, available: blocks });
        const counted = Array.from({ length: blocks }, (_, i) => `${i + 1}/${blocks}`);
        expect([...new Set(phases.filter((p) => p !== undefined))]).toEqual(counted);
        for (let job = 0; job < blocks; job++) {
          const results = await within(
            Promise.all(runAes(sessions, [{ ...roles, key: share0, usePrepared: true }, { ...roles, key: share1, plaintext: FIPS_PLAINTEXT, usePrepared: true }])),
            `prepared ${protocol} AES ${job}`,
            60_000,
          );
          for (const [slot, r] of results.entries()) {
            expect(r.ciphertextHex, `party ${slot}`).toBe(FIPS_CIPHERTEXT);
            expect(r.prepared).toBe(true);
            // Spec agreement (32 bytes) and the online phase: the preprocessing was done before.
            expect(r.stats.bytesSent).toBe(r.onlineStats.bytesSent + 32);
          }
        }
        await expect(sessions[0]!.aes({ ...roles, key: share0, usePrepared: true })).rejects.toSatisfy(
          (e: unknown) => e instanceof ConfigError && e.field === "usePrepared" && /no prepared material is left/.test(e.message),
        );
      } finally {
        await closeAll(sessions);
      }
    }, 400_000);
  }

  it("with the dealer: batched evaluations from prepared units, a spare unit dropped, then inline again", async () => {
    const sessions = await connectThree(relay.url, freshSecret());
    try {
      const circuit = randomCircuit(4343);
      const next = prng(11);
      const pairs = (n: number) => Array.from({ length: n }, () => [BigInt(Math.floor(next() * 256)), BigInt(Math.floor(next() * 256))] as const);
      for (const protocol of ["minimac", "coral"] as const) {
        const io = { protocol, preprocessing: "dealer", reveal: ["both", 1] } as const;
        const made = await within(
          Promise.all(sessions.map((s) => s.prepare({ job: "evaluate", circuit: circuit.text, ...io, evaluations: 30, perJob: 15 }))),
          `${protocol}: preparing 30 evaluations from the dealer`,
          120_000,
        );
        for (const m of made) expect(m).toMatchObject({ protocol, instances: 30, available: 30 });
        // 15 instances take one unit; 4 take the next (11 spare lanes go with it); nothing is left.
        for (const n of [15, 4]) {
          const batch = pairs(n);
          const [r0, r1, dealer] = await within(
            Promise.all([
              sessions[0]!.evaluate(circuit.text, { ...io, usePrepared: true, instances: batch.map(([a]) => ({ inputs: { 0: a } })) }),
              sessions[1]!.evaluate(circuit.text, { ...io, usePrepared: true, instances: batch.map(([, b]) => ({ inputs: { 1: b } })) }),
              sessions[2]!.evaluate(circuit.text, { ...io, usePrepared: true, instances: n }),
            ]),
            `${protocol}: ${n} prepared instances`,
            60_000,
          );
          expect([r0!.prepared, r1!.prepared, dealer!.prepared]).toEqual([true, true, true]);
          batch.forEach(([a, b], i) => {
            const [both, onlyOne] = evaluatePlain(circuit, a, b);
            expect(r0!.instances![i]!.outputs[0]!.value, `${protocol} instance ${i}`).toBe(both);
            expect(r1!.instances![i]!.outputs[1]!.value).toBe(onlyOne);
          });
          // The parties sent their digests to each other and the dealer, then the online phase.
          expect(r0!.stats.bytesSent).toBe(r0!.onlineStats.bytesSent + 64);
          expect(dealer!.stats.bytesSent).toBe(64);
        }
        const [a, b] = pairs(1)[0]!;
        const inline = await within(
          Promise.all([
            sessions[0]!.evaluate(circuit.text, { ...io, inputs: { 0: a } }),
            sessions[1]!.evaluate(circuit.text, { ...io, inputs: { 1: b } }),
            sessions[2]!.evaluate(circuit.text, { ...io }),
          ]),
          `${protocol}: inline after the prepared units ran out`,
          60_000,
        );
        expect(inline[0]!.prepared).toBe(false);
        expect(inline[1]!.outputs[1]!.value).toBe(evaluatePlain(circuit, a, b)[1]);
      }
    } finally {
      await closeAll(sessions);
    }
  }, 400_000);

  it("members that disagree on using prepared material fail the spec agreement before anything is used", async () => {
    const sessions = await mixedTwo();
    try {
      const roles = { protocol: "coral", keyHolders: [0, 1], plaintextOwner: 1 } as const;
      await within(Promise.all(sessions.map((s) => s.prepare({ job: "aes", ...roles, blocks: 1 }))), "preparing a Coral block", 120_000);
      const outcomes = await Promise.allSettled(
        runAes(sessions, [{ ...roles, key: share0, usePrepared: false }, { ...roles, key: share1, plaintext: FIPS_PLAINTEXT }]),
      );
      for (const o of outcomes) {
        expect(o.status).toBe("rejected");
        if (o.status === "rejected") expect(o.reason).toSatisfy((e: unknown) => e instanceof ProtocolAbortError && /agreement/.test(e.message));
      }
    } finally {
      await closeAll(sessions);
    }
  }, 200_000);

  it("refuses what cannot be prepared, before anything is sent", async () => {
    const sessions = await mixedTwo();
    try {
      for (const s of sessions) {
        // Past the session's bound: a MiniMac AES batch is tens of MB per party.
        await expect(s.prepare({ job: "aes", protocol: "minimac", blocks: 100, perJob: 1 })).rejects.toSatisfy(
          (e: unknown) => e instanceof ConfigError && e.field === "blocks" && /MiB a session keeps/.test(e.message),
        );
        await expect(s.prepare({ job: "aes", protocol: "tinytable", blocks: 4, perJob: 2 } as never)).rejects.toSatisfy(
          (e: unknown) => e instanceof ConfigError && e.field === "perJob",
        );
        await expect(s.prepare({ job: "aes", protocol: "coral", blocks: 4, perJob: 0 })).rejects.toSatisfy(
          (e: unknown) => e instanceof ConfigError && e.field === "perJob",
        );
        await expect(s.prepare({ job: "aes", protocol: "maestro" } as never)).rejects.toSatisfy(
          (e: unknown) => e instanceof NotAvailableError && e.field === "protocol",
        );
      }
      // The session is still usable.
      const results = await within(
        Promise.all(runAes(sessions, [{ protocol: "coral", key: share0, keyHolders: [0, 1] }, { protocol: "coral", key: share1, keyHolders: [0, 1], plaintext: FIPS_PLAINTEXT }])),
        "Coral AES after the refusals",
        120_000,
      );
      for (const r of results) expect(r.ciphertextHex).toBe(FIPS_CIPHERTEXT);
    } finally {
      await closeAll(sessions);
    }
  }, 200_000);
});
