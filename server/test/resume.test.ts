/**
 * Resume (protocol 2): a party whose connection drops keeps its slot for the grace period, the
 * relay holds and re-sends what it did not acknowledge, peers see `peer-away`/`peer-back`, and
 * `peer-left` only when the grace period passes. Protocol-1 clients keep the old behaviour.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RelayOptions } from "../src/config.js";
import { CloseCode } from "../src/protocol.js";
import { startRelay, type RelayHandle } from "../src/relay.js";
import type { CreatedRoom } from "../src/rooms.js";
import { createRoom, eventually, PartyClient, patternBytes, request } from "./helpers.js";

const running: RelayHandle[] = [];

async function relayWith(options: RelayOptions = {}): Promise<RelayHandle> {
  const relay = await startRelay({ host: "127.0.0.1", port: 0, logLevel: "silent", ...options });
  running.push(relay);
  return relay;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((relay) => relay.close()));
});

function join2(relay: RelayHandle, room: CreatedRoom, slot: number, resume?: number): Promise<PartyClient> {
  const query: Record<string, string | number> = { room: room.room, slot, token: room.tokens[slot]!, protocol: 2 };
  if (resume !== undefined) query.resume = resume;
  return PartyClient.connect(relay.wsUrl, query);
}

async function readyPair(relay: RelayHandle): Promise<{ room: CreatedRoom; zero: PartyClient; one: PartyClient }> {
  const room = await createRoom(relay.url, 2);
  const zero = await join2(relay, room, 0);
  const one = await join2(relay, room, 1);
  await zero.control("ready");
  await one.control("ready");
  return { room, zero, one };
}

const payloads = (frames: Buffer[]) => frames.map((frame) => frame.subarray(1).toString("hex"));

describe("protocol 2 resume", () => {
  it("holds frames for a dropped party, re-sends them once on resume, and tells the peer", async () => {
    const relay = await relayWith();
    const { room, zero, one } = await readyPair(relay);
    expect(await one.control("welcome")).toMatchObject({ protocol: 2, resumed: false, received: 0, resumeGraceMs: 30_000 });
    for (let i = 0; i < 3; i += 1) zero.sendTo(1, patternBytes(i, 10));
    await one.dataFrames(3);
    one.sendTo(0, patternBytes(100, 5));
    await zero.dataFrames(1);
    one.cut();
    const away = await zero.control("peer-away");
    expect(away).toMatchObject({ slot: 1, roster: [0], reason: "closed" });
    for (let i = 3; i < 5; i += 1) zero.sendTo(1, patternBytes(i, 10));
    await eventually(() => relay.stats().heldBytes > 0, 2000, "frames held for the away party");
    expect(relay.stats()).toMatchObject({ awayParties: 1, connections: 1 });

    const back = await join2(relay, room, 1, 3);
    expect(await back.control("welcome")).toMatchObject({ resumed: true, received: 1, roster: [0, 1] });
    const frames = await back.dataFrames(2);
    expect(payloads(frames)).toEqual([3, 4].map((i) => patternBytes(i, 10).toString("hex")));
    expect(await zero.control("peer-back")).toMatchObject({ slot: 1, roster: [0, 1] });
    expect(zero.controls.some((m) => m.type === "peer-left")).toBe(false);
    // The session goes on in both directions.
    back.sendTo(0, patternBytes(101, 5));
    await zero.dataFrames(2);
    zero.sendTo(1, patternBytes(5, 10));
    await back.dataFrames(3);
    expect(relay.stats()).toMatchObject({ awayParties: 0, connections: 2 });
    const metrics = (await request(`${relay.url}/metrics`)).body as string;
    expect(metrics).toContain("chorus_relay_resumes_total 1");
  });

  it("re-sends frames the party received but did not acknowledge, from the count it names", async () => {
    const relay = await relayWith();
    const { room, zero, one } = await readyPair(relay);
    for (let i = 0; i < 4; i += 1) zero.sendTo(1, patternBytes(i, 8));
    await one.dataFrames(4);
    one.ack(1);
    await eventually(() => relay.stats().heldBytes === 3 * 9, 2000, "frame 1 to be forgotten");
    one.cut();
    await zero.control("peer-away");
    // Party 1 lost frames 3 and 4 on the way (say): it resumes after 2.
    const back = await join2(relay, room, 1, 2);
    await back.control("welcome");
    expect(payloads(await back.dataFrames(2))).toEqual([2, 3].map((i) => patternBytes(i, 8).toString("hex")));
    // Asking for frames already acknowledged is impossible.
    back.cut();
    await zero.control("peer-away", 1);
    const stale = await join2(relay, room, 1, 0);
    expect(await stale.control("error")).toMatchObject({ code: "resume-failed" });
    expect((await stale.closed()).code).toBe(CloseCode.ResumeFailed);
    expect(await zero.control("peer-left")).toMatchObject({ slot: 1, reason: "resume-failed" });
  });

  it("acknowledges the frames it received from a party", async () => {
    const relay = await relayWith();
    const { zero, one } = await readyPair(relay);
    for (let i = 0; i < 5; i += 1) zero.sendTo(1, patternBytes(i, 3));
    await one.dataFrames(5);
    await eventually(() => zero.controls.some((m) => m.type === "ack" && m.received === 5), 2000, "ack of 5 frames");
  });

  it("announces peer-left when the grace period passes; a late resume fails", async () => {
    const relay = await relayWith({ resumeGraceMs: 300 });
    const { room, zero, one } = await readyPair(relay);
    const cutAt = Date.now();
    one.cut();
    await zero.control("peer-away");
    expect(await zero.control("peer-left", 0, 3000)).toMatchObject({ slot: 1, reason: "grace-expired", roster: [0] });
    expect(Date.now() - cutAt).toBeGreaterThanOrEqual(250);
    const late = await join2(relay, room, 1, 0);
    expect(await late.control("error")).toMatchObject({ code: "resume-failed" });
    expect((await late.closed()).code).toBe(CloseCode.ResumeFailed);
  });

  it("treats a close frame as leaving for good", async () => {
    const relay = await relayWith();
    const { zero, one } = await readyPair(relay);
    one.close();
    expect(await zero.control("peer-left")).toMatchObject({ slot: 1, reason: "closed" });
    expect(zero.controls.some((m) => m.type === "peer-away")).toBe(false);
  });

  it("lets a resume take over a connection the relay still thinks is open", async () => {
    const relay = await relayWith();
    const { room, zero, one } = await readyPair(relay);
    zero.sendTo(1, patternBytes(0, 4));
    await one.dataFrames(1);
    const twin = await join2(relay, room, 1, 1);
    expect(await twin.control("welcome")).toMatchObject({ resumed: true });
    await one.closed();
    zero.sendTo(1, patternBytes(1, 4));
    expect(payloads(await twin.dataFrames(1))).toEqual([patternBytes(1, 4).toString("hex")]);
    expect(zero.controls.some((m) => m.type === "peer-left" || m.type === "peer-away")).toBe(false);
  });

  it("ends the session when frames held for an away party outgrow resumeBufferBytes", async () => {
    const relay = await relayWith({ resumeBufferBytes: 1000, maxBufferedBytes: 100_000 });
    const { zero, one } = await readyPair(relay);
    one.cut();
    await zero.control("peer-away");
    for (let i = 0; i < 4; i += 1) zero.sendTo(1, patternBytes(i, 400));
    expect(await zero.control("peer-left")).toMatchObject({ slot: 1, reason: "buffer-full" });
    expect(relay.stats().heldBytes).toBe(0);
  });

  it("sends welcome first and every held frame once when the peer was held back while the party was away", async () => {
    // Frames held for the away party pass the socket-queue limit, so the relay stops reading the
    // sender and parks what it had read. Resuming releases the sender: its parked frames must go
    // out behind the welcome and the re-sent frames, each once.
    const relay = await relayWith({ maxBufferedBytes: 1000, resumeBufferBytes: 100_000 });
    const { room, zero, one } = await readyPair(relay);
    one.cut();
    await zero.control("peer-away");
    const count = 30;
    for (let i = 0; i < count; i += 1) zero.sendTo(1, patternBytes(i, 200));
    await eventually(() => relay.stats().pausedConnections === 1 && relay.stats().parkedFrames > 0, 2000, "the sender held, frames parked");
    const back = await join2(relay, room, 1, 0);
    const frames = await back.dataFrames(count);
    expect(back.arrivals[0]).toBe("welcome");
    expect(payloads(frames)).toEqual([...Array(count).keys()].map((i) => patternBytes(i, 200).toString("hex")));
    // Nothing more arrives: no frame was sent twice.
    zero.sendTo(1, patternBytes(999, 3));
    const last = await back.dataFrames(count + 1);
    expect(payloads(last.slice(count))).toEqual([patternBytes(999, 3).toString("hex")]);
    expect(back.data).toHaveLength(count + 1);
    expect(relay.stats()).toMatchObject({ pausedConnections: 0, parkedFrames: 0, awayParties: 0 });
  });

  it("refuses an ack of more frames than were sent, and text that is not an ack", async () => {
    const relay = await relayWith();
    const { zero, one } = await readyPair(relay);
    one.ack(7);
    expect(await one.control("error")).toMatchObject({ code: "bad-ack", fatal: true });
    expect((await one.closed()).code).toBe(CloseCode.BadAck);
    zero.ws.send("hello");
    expect(await zero.control("error")).toMatchObject({ code: "unexpected-text" });
  });
});

describe("resume edge cases", () => {
  it("keeps a room whose parties all dropped, and lets both resume with what was held for each", async () => {
    const relay = await relayWith();
    const { room, zero, one } = await readyPair(relay);
    zero.sendTo(1, patternBytes(0, 6));
    one.sendTo(0, patternBytes(1, 6));
    await zero.dataFrames(1);
    await one.dataFrames(1);
    zero.cut();
    one.cut();
    await eventually(() => relay.stats().awayParties === 2, 2000, "both parties away");
    expect(relay.stats().rooms).toBe(1);
    const zeroBack = await join2(relay, room, 0, 1);
    expect(await zeroBack.control("welcome")).toMatchObject({ resumed: true, received: 1, roster: [0] });
    zeroBack.sendTo(1, patternBytes(2, 6));
    const oneBack = await join2(relay, room, 1, 1);
    expect(await oneBack.control("welcome")).toMatchObject({ resumed: true, received: 1, roster: [0, 1] });
    expect(payloads(await oneBack.dataFrames(1))).toEqual([patternBytes(2, 6).toString("hex")]);
    expect(await zeroBack.control("peer-back")).toMatchObject({ slot: 1 });
  });

  it.each([
    ["protocol=abc", { protocol: "abc" }, "bad-request"],
    ["resume=-1", { resume: "-1" }, "bad-request"],
    ["a 16-digit resume", { resume: "1234567890123456" }, "bad-request"],
    ["resume on a room that never got ready", { resume: "0" }, "resume-failed"],
  ])("refuses %s with a typed error", async (_, extra, code) => {
    const relay = await relayWith();
    const room = await createRoom(relay.url, 2);
    const query = { room: room.room, slot: 0, token: room.tokens[0]!, protocol: 2, ...extra };
    const client = await PartyClient.connect(relay.wsUrl, query);
    expect(await client.control("error")).toMatchObject({ code, fatal: true });
    await client.closed();
    expect(relay.stats()).toMatchObject({ connections: 0, awayParties: 0 });
  });

  it("puts a protocol-2 party that stops answering pings away (reason timeout), not gone", async () => {
    const relay = await relayWith({ heartbeatIntervalMs: 100 });
    const room = await createRoom(relay.url, 2);
    const zero = await join2(relay, room, 0);
    const silent = await PartyClient.connect(
      relay.wsUrl,
      { room: room.room, slot: 1, token: room.tokens[1]!, protocol: 2 },
      { autoPong: false },
    );
    await zero.control("ready");
    await silent.control("ready");
    expect(await zero.control("peer-away", 0, 3000)).toMatchObject({ slot: 1, reason: "timeout" });
    const back = await join2(relay, room, 1, 0);
    expect(await back.control("welcome")).toMatchObject({ resumed: true });
    expect(await zero.control("peer-back")).toMatchObject({ slot: 1 });
  });

  it("a wrong token cannot resume a slot, and does not end it", async () => {
    const relay = await relayWith();
    const { room, zero, one } = await readyPair(relay);
    one.cut();
    await zero.control("peer-away");
    const thief = await PartyClient.connect(relay.wsUrl, { room: room.room, slot: 1, token: room.tokens[0]!, protocol: 2, resume: 0 });
    expect(await thief.control("error")).toMatchObject({ code: "bad-token" });
    const fresh = await join2(relay, room, 1);
    expect(await fresh.control("error")).toMatchObject({ code: "slot-taken" });
    const back = await join2(relay, room, 1, 0);
    expect(await back.control("welcome")).toMatchObject({ resumed: true });
  });
});

describe("protocol versions", () => {
  it("keeps protocol-1 clients on the old rules: no resume fields, a drop is peer-left at once", async () => {
    const relay = await relayWith();
    const room = await createRoom(relay.url, 2);
    const old = await PartyClient.join(relay.wsUrl, room, 0);
    const modern = await join2(relay, room, 1);
    const welcome = await old.control("welcome");
    expect(welcome.protocol).toBe(1);
    expect(welcome).not.toHaveProperty("resumeGraceMs");
    await modern.control("ready");
    old.cut();
    expect(await modern.control("peer-left")).toMatchObject({ slot: 0, reason: "closed" });
  });

  it("does not send protocol-2 messages to a protocol-1 peer", async () => {
    const relay = await relayWith();
    const room = await createRoom(relay.url, 2);
    const old = await PartyClient.join(relay.wsUrl, room, 0);
    const modern = await join2(relay, room, 1);
    await old.control("ready");
    modern.cut();
    await eventually(() => relay.stats().awayParties === 1, 2000, "party 1 away");
    old.sendTo(1, patternBytes(0, 4));
    const back = await join2(relay, room, 1, 0);
    await back.dataFrames(1);
    expect(old.controls.map((m) => m.type)).toEqual(["welcome", "joined", "joined", "ready"]);
  });

  it("refuses unknown versions, and protocol 1 when minProtocol is 2, with unsupported-protocol", async () => {
    const relay = await relayWith({ minProtocol: 2 });
    const room = await createRoom(relay.url, 2);
    const old = await PartyClient.join(relay.wsUrl, room, 0);
    const refusal = await old.control("error");
    expect(refusal).toMatchObject({ code: "unsupported-protocol", fatal: true });
    expect(refusal.message).toMatch(/upgrade the client/);
    expect((await old.closed()).code).toBe(CloseCode.UnsupportedProtocol);
    const future = await PartyClient.connect(relay.wsUrl, { room: room.room, slot: 0, token: room.tokens[0]!, protocol: 3 });
    expect(await future.control("error")).toMatchObject({ code: "unsupported-protocol" });
    const resumeV1 = await PartyClient.connect(relay.wsUrl, { room: room.room, slot: 0, token: room.tokens[0]!, resume: 0 });
    expect(await resumeV1.control("error")).toMatchObject({ code: "unsupported-protocol" });
  });
});
