/**
 * How a joint AES fails: a party leaving mid-run, a frame altered on the way, a wrong token,
 * cancellation, and mismatched or invalid arguments. Every failure must reach every party quickly
 * as the SDK's typed error — nobody hangs.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CancelledError,
  ConfigError,
  connect,
  createRoom,
  IntegrityError,
  PeerLeftError,
  ProtocolAbortError,
  RelayError,
  type Session,
} from "@chorus/sdk";
import { FIPS_CIPHERTEXT, FIPS_KEY, FIPS_PLAINTEXT, freshSecret, settle, startRelayProcess, within, type RelayProcess } from "./relay-process.js";
import { startTamperProxy } from "./tamper-proxy.js";
import { closeAll, connectThree, runAes } from "./three-parties.js";

/** The bound within which every party must learn of a failure. */
const FAIL_MS = 5000;
const BLOCKS = 200;
const inputs = () => [
  { key: new Uint8Array(randomBytes(16)), blocks: BLOCKS },
  { key: new Uint8Array(randomBytes(16)), blocks: BLOCKS },
  { plaintext: new Uint8Array(randomBytes(16 * BLOCKS)), blocks: BLOCKS },
];

let relay: RelayProcess;
beforeAll(async () => {
  relay = await startRelayProcess();
});
afterAll(async () => {
  await relay?.stop();
});

describe("failures reach every party as typed errors", () => {
  it("a party that disconnects mid-run makes the others reject with PeerLeftError", async () => {
    const sessions = await connectThree(relay.url, freshSecret());
    try {
      // Party 2 leaves after its fifth received protocol message (inside the job, past the handshake).
      let received = 0;
      sessions[2]!.on("progress", () => {
        received += 1;
        if (received === 5) void sessions[2]!.close();
      });
      const outcomes = await within(Promise.all(runAes(sessions, inputs()).map(settle)), "the failed job", FAIL_MS);
      for (const slot of [0, 1]) {
        const outcome = outcomes[slot]!;
        expect(outcome.ok, `party ${slot}`).toBe(false);
        if (!outcome.ok) {
          expect(outcome.error).toBeInstanceOf(PeerLeftError);
          expect((outcome.error as PeerLeftError).slot).toBe(2);
        }
      }
      expect(outcomes[2]!.ok).toBe(false);
    } finally {
      await closeAll(sessions);
    }
  });

  it("a bit flipped in a data frame after the handshake gives IntegrityError", async () => {
    // Party 2 receives one handshake frame from each of parties 0 and 1; the 4th frame is protocol data.
    const proxy = await startTamperProxy(relay.ws, 4);
    const sessions = await connectThree(relay.url, freshSecret(), (slot) => (slot === 2 ? { relay: proxy.url } : {}));
    try {
      const outcomes = await within(Promise.all(runAes(sessions, inputs()).map(settle)), "the tampered job", FAIL_MS);
      expect(proxy.tampered()).toBe(true);
      const victim = outcomes[2]!;
      expect(victim.ok).toBe(false);
      if (!victim.ok) {
        expect(victim.error).toBeInstanceOf(IntegrityError);
        expect([0, 1]).toContain((victim.error as IntegrityError).slot);
      }
      // The victim closes its connection, so the others stop too.
      for (const slot of [0, 1]) {
        const outcome = outcomes[slot]!;
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expect(outcome.error).toBeInstanceOf(PeerLeftError);
      }
    } finally {
      await closeAll(sessions);
      await proxy.close();
    }
  });

  it("a wrong token is refused with RelayError bad-token", async () => {
    const room = await createRoom({ relay: relay.url, parties: 3 });
    const invite = room.invite(1);
    const outcome = await settle(connect({ ...invite, token: room.tokens[0]!, secret: freshSecret() }));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error).toBeInstanceOf(RelayError);
      expect((outcome.error as RelayError).code).toBe("bad-token");
    }
  });

  it("aborting the job's signal rejects with AbortError and releases the peers", async () => {
    const sessions = await connectThree(relay.url, freshSecret());
    try {
      const controller = new AbortController();
      sessions[0]!.on("progress", (e) => {
        if (e.round === 3) controller.abort(new Error("user cancelled"));
      });
      const options = inputs();
      const jobs = [
        sessions[0]!.aes({ ...options[0], signal: controller.signal }),
        sessions[1]!.aes(options[1]),
        sessions[2]!.aes(options[2]),
      ];
      const outcomes = await within(Promise.all(jobs.map(settle)), "the cancelled job", FAIL_MS);
      const cancelled = outcomes[0]!;
      expect(cancelled.ok).toBe(false);
      if (!cancelled.ok) {
        expect(cancelled.error).toBeInstanceOf(CancelledError);
        expect((cancelled.error as Error).name).toBe("AbortError");
      }
      for (const outcome of outcomes.slice(1)) {
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expect(outcome.error).toBeInstanceOf(PeerLeftError);
      }
      // The session is over: a new job rejects at once.
      await expect(sessions[0]!.aes(options[0])).rejects.toBeInstanceOf(CancelledError);
    } finally {
      await closeAll(sessions);
    }
  });

  it("an already aborted signal rejects before anything is sent", async () => {
    const sessions = await connectThree(relay.url, freshSecret());
    try {
      const outcome = await settle(sessions[2]!.aes({ plaintext: FIPS_PLAINTEXT, signal: AbortSignal.abort() }));
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect((outcome.error as Error).name).toBe("AbortError");
    } finally {
      await closeAll(sessions);
    }
  });

  it("parties that disagree on the job reject with ProtocolAbortError", async () => {
    const sessions: Session[] = await connectThree(relay.url, freshSecret());
    try {
      const options = inputs();
      options[2] = { plaintext: new Uint8Array(16 * 3), blocks: 3 };
      const outcomes = await within(Promise.all(runAes(sessions, options).map(settle)), "the mismatched job", FAIL_MS);
      const aborts = outcomes.filter((o) => !o.ok && o.error instanceof ProtocolAbortError);
      expect(aborts.length).toBeGreaterThan(0);
      expect(outcomes.every((o) => !o.ok)).toBe(true);
      const first = aborts[0]!;
      if (!first.ok) expect((first.error as ProtocolAbortError).check).toBe("job spec agreement");
    } finally {
      await closeAll(sessions);
    }
  });

  it("a party with another session secret fails the handshake: IntegrityError, nobody hangs", async () => {
    const sessions = await connectThree(relay.url, freshSecret(), (slot) => (slot === 2 ? { secret: freshSecret() } : {}));
    try {
      const outcomes = await within(Promise.all(runAes(sessions, inputs()).map(settle)), "the failed handshake", FAIL_MS);
      expect(outcomes.every((o) => !o.ok)).toBe(true);
      expect(outcomes.some((o) => !o.ok && o.error instanceof IntegrityError)).toBe(true);
    } finally {
      await closeAll(sessions);
    }
  });

  it("rejects bad arguments with ConfigError naming the field", async () => {
    const room = await createRoom({ relay: relay.url, parties: 3 });
    await expect(connect({ ...room.invite(0), secret: "00112233" })).rejects.toMatchObject({
      name: "ConfigError",
      field: "secret",
    });
    await expect(connect({ ...room.invite(0) })).rejects.toBeInstanceOf(ConfigError);
    const sessions = await connectThree(relay.url, freshSecret());
    try {
      await expect(sessions[2]!.aes({ key: "00".repeat(16), plaintext: FIPS_PLAINTEXT })).rejects.toMatchObject({
        field: "key",
      });
      await expect(sessions[0]!.aes({})).rejects.toMatchObject({ field: "key" });
      await expect(sessions[0]!.aes({ key: "0011" })).rejects.toMatchObject({ field: "key" });
      await expect(sessions[2]!.aes({ plaintext: "00", blocks: 1 })).rejects.toMatchObject({ field: "plaintext" });
      await expect(sessions[2]!.aes({ plaintext: "zz" })).rejects.toMatchObject({ field: "plaintext" });
      await expect(sessions[1]!.aes({ key: "00".repeat(16), keyHolders: [1, 0] })).rejects.toMatchObject({
        field: "keyHolders",
      });
      await expect(sessions[1]!.aes({ key: "00".repeat(16), reveal: [5] })).rejects.toMatchObject({ field: "reveal" });
      await expect(sessions[1]!.aes({ key: "00".repeat(16), blocks: 0 })).rejects.toMatchObject({ field: "blocks" });
      // The core checked each of these before the job started: nothing was sent, and the sessions
      // still run a job.
      const results = await Promise.all([
        sessions[0]!.aes({ keyHolders: [0], key: FIPS_KEY }),
        sessions[1]!.aes({ keyHolders: [0] }),
        sessions[2]!.aes({ keyHolders: [0], plaintext: FIPS_PLAINTEXT }),
      ]);
      for (const r of results) expect(r.ciphertextHex).toBe(FIPS_CIPHERTEXT);
    } finally {
      await closeAll(sessions);
    }
  });
});
