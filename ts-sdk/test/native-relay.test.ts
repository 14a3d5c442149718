/**
 * Sessions whose relay connection the Node addon serves itself (`nativeRelay`, the default with the
 * native runtime): the same jobs, bytes and frames as over the JavaScript connection, rooms mixing
 * the addon's client, the JavaScript client and WASM, departures, refusals and cancellation.
 */
import { createServer } from "node:net";
import type { RelayHandle } from "@chorus/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, connect, createRoom, PeerLeftError, RelayConnection, RelayError } from "../src/index.js";
import { aes128Hex, loopbackRelay, rejectionOf, seededBytes, tinytableAes, within } from "./helpers.js";

const WAIT = 60_000;
const secret = seededBytes(7, 32);
let relay: RelayHandle;

beforeAll(async () => {
  relay = await loopbackRelay();
});

afterAll(async () => {
  await relay.close();
});

describe("the addon's own relay connection", () => {
  it("runs jobs with the same ciphertext, bytes and frames as the JavaScript connection", { timeout: WAIT }, async () => {
    const key = seededBytes(1, 16);
    const plaintext = seededBytes(2, 16);
    const counts: unknown[] = [];
    for (const nativeRelay of [true, false]) {
      const room = await createRoom({ relay: relay.url, parties: 2 });
      const sessions = await Promise.all([0, 1].map((slot) => connect({ ...room.invite(slot), secret, runtime: "native", nativeRelay })));
      expect(sessions.map((s) => s.transport)).toEqual(nativeRelay ? ["relay-addon", "relay-addon"] : ["relay", "relay"]);
      for (let job = 0; job < 2; job += 1) {
        const results = await within(tinytableAes(sessions, key, plaintext), "the AES job", WAIT);
        for (const result of results) expect(result.ciphertextHex).toBe(aes128Hex(key, plaintext));
      }
      await Promise.all(sessions.map((s) => s.close()));
      // Every data frame counts its header byte; the end markers count one byte each.
      counts.push(sessions.map((s) => s.transportStats()));
    }
    expect(counts[0]).toEqual(counts[1]);
    const [zero] = counts[0] as { framesSent: number; bytesSent: number }[];
    expect(zero!.framesSent).toBeGreaterThan(2);
  });

  it("keeps session.stats() live during a job that nobody listens to", { timeout: WAIT }, async () => {
    const room = await createRoom({ relay: relay.url, parties: 2 });
    const sessions = await Promise.all([0, 1].map((slot) => connect({ ...room.invite(slot), secret, runtime: "native" })));
    let settled = false;
    const job = tinytableAes(sessions, seededBytes(1, 16), seededBytes(2, 16)).finally(() => {
      settled = true;
    });
    let seenMidJob = false;
    while (!settled) {
      const { bytesReceived, rounds } = sessions[0]!.stats();
      if (bytesReceived > 0 && rounds > 0 && !settled) seenMidJob = true;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const [result] = await job;
    expect(seenMidJob).toBe(true);
    expect(sessions[0]!.stats()).toMatchObject({ jobs: 1, bytesReceived: result!.stats.bytesReceived, rounds: result!.stats.rounds });
    await Promise.all(sessions.map((s) => s.close()));
  });

  it("shares a room with the JavaScript connection and a WASM party (MAESTRO among three)", { timeout: WAIT }, async () => {
    const room = await createRoom({ relay: relay.url, parties: 3 });
    const sessions = await Promise.all([
      connect({ ...room.invite(0), secret, runtime: "native" }),
      connect({ ...room.invite(1), secret, runtime: "native", nativeRelay: false }),
      connect({ ...room.invite(2), secret, runtime: "wasm" }),
    ]);
    expect(sessions.map((s) => s.transport)).toEqual(["relay-addon", "relay", "relay"]);
    const keyShares = [seededBytes(3, 16), seededBytes(4, 16)];
    const plaintext = seededBytes(5, 32);
    const results = await within(
      Promise.all([
        sessions[0]!.aes({ key: keyShares[0], blocks: 2 }),
        sessions[1]!.aes({ key: keyShares[1], blocks: 2 }),
        sessions[2]!.aes({ plaintext, blocks: 2 }),
      ]),
      "the MAESTRO job",
      WAIT,
    );
    const key = keyShares[0]!.map((b, i) => b ^ keyShares[1]![i]!);
    for (const result of results) expect(result.ciphertextHex).toBe(aes128Hex(key, plaintext));
    await Promise.all(sessions.map((s) => s.close()));
  });

  it("fails a running job with PeerLeftError when a peer leaves, and reports the departure", { timeout: WAIT }, async () => {
    const room = await createRoom({ relay: relay.url, parties: 2 });
    const sessions = await Promise.all([0, 1].map((slot) => connect({ ...room.invite(slot), secret, runtime: "native" })));
    const departures: number[] = [];
    sessions[0]!.on("peer-left", (event) => departures.push(event.slot));
    // Party 0 starts a job alone; party 1 leaves instead of joining it.
    const job = sessions[0]!.aes({ protocol: "tinytable", key: seededBytes(1, 16), reveal: [0, 1] });
    // Handled from the start: the job may fail before party 1's close resolves.
    const failure = rejectionOf(job);
    await sessions[1]!.close({ lingerMs: 0 });
    const error = await within(failure, "the job's failure", WAIT);
    expect(error).toBeInstanceOf(PeerLeftError);
    expect(departures).toEqual([1]);
    await expect(sessions[0]!.aes({ protocol: "tinytable", key: seededBytes(1, 16) })).rejects.toBeInstanceOf(PeerLeftError);
    await sessions[0]!.close();
  });

  it("leaves (peer-left), not drops (peer-away), when it closes while frames still arrive", { timeout: WAIT }, async () => {
    // Closing with unread data in the socket resets the connection, and a reset can lose the
    // close frame at the relay, which then keeps the slot for its grace period (the peers wait
    // 30 s): the addon's client answers the relay's close handshake instead. A race, so a few
    // rounds, each closing in the middle of a flood towards the closing party.
    for (let round = 0; round < 5; round += 1) {
      const room = await createRoom({ relay: relay.url, parties: 2 });
      const [sender, closer] = await Promise.all([
        RelayConnection.open(room.invite(0)),
        connect({ ...room.invite(1), secret, runtime: "native" }),
      ]);
      expect(closer.transport).toBe("relay-addon");
      await sender.ready();
      const departures: string[] = [];
      sender.on("peer-left", (event) => departures.push(`left (${event.reason})`));
      sender.on("peer-away", (event) => departures.push(`away (${event.reason})`));
      const frame = new Uint8Array(16 * 1024).fill(round);
      const flood = setInterval(() => {
        try {
          for (let i = 0; i < 8; i += 1) sender.send(1, frame);
        } catch {
          // Party 1 left: the connection refuses frames to it.
          clearInterval(flood);
        }
      }, 1);
      try {
        await new Promise((resolve) => setTimeout(resolve, 30));
        await closer.close({ lingerMs: 0 });
        await within(
          new Promise<void>((resolve) => {
            const check = setInterval(() => departures.length > 0 && (clearInterval(check), resolve()), 5);
          }),
          "party 1's departure",
          10_000,
        );
      } finally {
        clearInterval(flood);
      }
      expect(departures[0], `round ${round}`).toBe("left (closed)");
      await sender.close();
    }
  });

  it("turns refusals into RelayErrors with the relay's code, and cancels a pending join", { timeout: WAIT }, async () => {
    const room = await createRoom({ relay: relay.url, parties: 2 });
    const refused = await rejectionOf(connect({ ...room.invite(0), token: "not-the-token", secret, runtime: "native" }));
    expect(refused).toBeInstanceOf(RelayError);
    expect((refused as RelayError).code).toBe("bad-token");

    // A room of another size than the caller said: a ConfigError on `parties`, as in JavaScript.
    const two = await createRoom({ relay: relay.url, parties: 2 });
    const other = RelayConnection.open(two.invite(1));
    const wrongSize = await within(rejectionOf(connect({ ...two.invite(0), parties: 3, secret, runtime: "native" })), "the refused size", WAIT);
    expect(wrongSize).toBeInstanceOf(ConfigError);
    expect((wrongSize as ConfigError).field).toBe("parties");
    await (await other).close();

    // A port nobody listens on.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const unreachable = await rejectionOf(connect({ ...room.invite(0), relay: `http://127.0.0.1:${port}`, secret, runtime: "native" }));
    expect(unreachable).toBeInstanceOf(RelayError);
    expect((unreachable as RelayError).code).toBe("connect-failed");

    // Nobody else joins: the join waits for ready until the signal aborts it.
    const lonely = await createRoom({ relay: relay.url, parties: 2 });
    const controller = new AbortController();
    const pending = connect({ ...lonely.invite(0), secret, runtime: "native", signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const cancelled = await within(rejectionOf(pending), "the cancelled join", WAIT);
    expect((cancelled as Error).name).toBe("AbortError");
  });

  it("ends the session when its signal aborts after the join: a running job rejects with an AbortError", { timeout: WAIT }, async () => {
    const room = await createRoom({ relay: relay.url, parties: 2 });
    const controller = new AbortController();
    const sessions = await Promise.all(
      [0, 1].map((slot) => connect({ ...room.invite(slot), secret, runtime: "native", ...(slot === 0 ? { signal: controller.signal } : {}) })),
    );
    // Party 0 waits in a job for party 1, which never starts it; the abort ends it (vitest fails
    // the test on any unhandled rejection the abort might leave behind).
    const job = sessions[0]!.aes({ protocol: "tinytable", key: seededBytes(1, 16) });
    controller.abort();
    const error = await within(rejectionOf(job), "the aborted job", WAIT);
    expect((error as Error).name).toBe("AbortError");
    await Promise.all(sessions.map((s) => s.close()));
  });

  it("keeps the JavaScript connection where the addon's client cannot serve the options", async () => {
    const room = await createRoom({ relay: relay.url, parties: 2 });
    const sessions = await Promise.all([
      connect({ ...room.invite(0), secret, runtime: "native", resume: false }),
      connect({ ...room.invite(1), secret, runtime: "native", resumeBufferBytes: 1 << 20 }),
    ]);
    expect(sessions.map((s) => s.transport)).toEqual(["relay", "relay"]);
    await Promise.all(sessions.map((s) => s.close()));
  });
});
