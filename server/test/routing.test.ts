/**
 * Joining, control notifications and routed data frames on an in-process relay (loopback, port 0).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelay, type RelayHandle } from "../src/relay.js";
import { createRoom, fillRoom, PartyClient, patternBytes } from "./helpers.js";

let relay: RelayHandle;

beforeAll(async () => {
  relay = await startRelay({ host: "127.0.0.1", port: 0 });
});

afterAll(async () => {
  await relay.close();
});

describe("room creation", () => {
  it("returns one distinct url-safe token per slot and an expiry in the future", async () => {
    const before = Date.now();
    const room = await createRoom(relay.url, 3);
    expect(room.parties).toBe(3);
    expect(room.tokens).toHaveLength(3);
    expect(new Set(room.tokens).size).toBe(3);
    for (const value of [room.room, ...room.tokens]) expect(value).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(room.expiresAt).toBeGreaterThan(before);
  });
});

describe("three parties", () => {
  it("announce welcome, joined and ready with the roster", async () => {
    const room = await createRoom(relay.url, 3);
    const first = await PartyClient.join(relay.wsUrl, room, 0);
    const welcome = await first.control("welcome");
    expect(welcome).toMatchObject({ protocol: 1, room: room.room, slot: 0, parties: 3, roster: [0] });
    expect(welcome.maxPayloadBytes).toBe(relay.config.maxPayloadBytes);
    expect(await first.control("joined")).toEqual({ type: "joined", slot: 0, roster: [0] });

    const second = await PartyClient.join(relay.wsUrl, room, 2);
    expect(await first.control("joined", 1)).toEqual({ type: "joined", slot: 2, roster: [0, 2] });
    expect((await second.control("welcome")).slot).toBe(2);
    expect(first.controls.some((m) => m.type === "ready")).toBe(false);

    const third = await PartyClient.join(relay.wsUrl, room, 1);
    for (const client of [first, second, third]) {
      expect(await client.control("ready")).toEqual({ type: "ready", roster: [0, 1, 2] });
    }
    for (const client of [first, second, third]) client.close();
  });

  it("route every pair's frames with the sender slot stamped and payloads intact", async () => {
    const room = await createRoom(relay.url, 3);
    const clients = await fillRoom(relay.wsUrl, room);
    for (let from = 0; from < 3; from += 1) {
      for (let to = 0; to < 3; to += 1) {
        if (from !== to) clients[from]!.sendTo(to, patternBytes(from * 3 + to, 1000 + from));
      }
    }
    for (let to = 0; to < 3; to += 1) {
      const frames = await clients[to]!.dataFrames(2);
      const bySender = new Map(frames.map((frame) => [frame[0]!, frame.subarray(1)]));
      expect([...bySender.keys()].sort()).toEqual([0, 1, 2].filter((slot) => slot !== to));
      for (const [from, payload] of bySender) {
        expect(Buffer.compare(payload, patternBytes(from * 3 + to, 1000 + from))).toBe(0);
      }
    }
    for (const client of clients) client.close();
  });

  it("stamps the real sender even when the payload imitates another slot's header", async () => {
    const room = await createRoom(relay.url, 3);
    const [zero, one, two] = await fillRoom(relay.wsUrl, room);
    // Slot 1 tries to make slot 0 believe the frame came from slot 2.
    one!.sendTo(0, Buffer.from([2, 0xde, 0xad]));
    const [frame] = await zero!.dataFrames(1);
    expect([...frame!]).toEqual([1, 2, 0xde, 0xad]);
    expect(two!.data).toHaveLength(0);
    for (const client of [zero, one, two]) client!.close();
  });

  it("forwards a frame with an empty payload as just the sender byte", async () => {
    const room = await createRoom(relay.url, 2);
    const [zero, one] = await fillRoom(relay.wsUrl, room);
    one!.sendTo(0, new Uint8Array(0));
    const [frame] = await zero!.dataFrames(1);
    expect([...frame!]).toEqual([1]);
    zero!.close();
    one!.close();
  });

  it("keeps frames from one sender in order", async () => {
    const room = await createRoom(relay.url, 2);
    const [zero, one] = await fillRoom(relay.wsUrl, room);
    for (let i = 0; i < 200; i += 1) zero!.sendTo(1, patternBytes(i, 64));
    const frames = await one!.dataFrames(200);
    frames.forEach((frame, i) => {
      expect(frame[0]).toBe(0);
      expect(Buffer.compare(frame.subarray(1), patternBytes(i, 64))).toBe(0);
    });
    zero!.close();
    one!.close();
  });
});

describe("room isolation", () => {
  it("delivers a frame only inside the sender's room", async () => {
    const first = await fillRoom(relay.wsUrl, await createRoom(relay.url, 2));
    const second = await fillRoom(relay.wsUrl, await createRoom(relay.url, 2));
    first[0]!.sendTo(1, Buffer.from("room A"));
    second[0]!.sendTo(1, Buffer.from("room B"));
    expect((await first[1]!.dataFrames(1))[0]!.subarray(1).toString()).toBe("room A");
    expect((await second[1]!.dataFrames(1))[0]!.subarray(1).toString()).toBe("room B");
    // Give a stray cross-room delivery time to show up before checking there was none.
    first[1]!.sendTo(0, Buffer.from("ack A"));
    await first[0]!.dataFrames(1);
    expect(first[1]!.data).toHaveLength(1);
    expect(second[1]!.data).toHaveLength(1);
    expect(second[0]!.data).toHaveLength(0);
    for (const client of [...first, ...second]) client.close();
  });
});

describe("departures", () => {
  it("sends peer-left to the others when a party of a ready room leaves", async () => {
    const room = await createRoom(relay.url, 3);
    const [zero, one, two] = await fillRoom(relay.wsUrl, room);
    one!.close();
    for (const client of [zero!, two!]) {
      expect(await client.control("peer-left")).toEqual({
        type: "peer-left",
        slot: 1,
        roster: [0, 2],
        reason: "closed",
      });
    }
    zero!.close();
    two!.close();
  });

  it("sends left (not peer-left) before the room was ready", async () => {
    const room = await createRoom(relay.url, 3);
    const zero = await PartyClient.join(relay.wsUrl, room, 0);
    const two = await PartyClient.join(relay.wsUrl, room, 2);
    two.close();
    expect(await zero.control("left")).toEqual({ type: "left", slot: 2, roster: [0], reason: "closed" });
    expect(zero.controls.some((m) => m.type === "peer-left")).toBe(false);
    zero.close();
  });

  it("lets a slot be joined again with its token and announces ready again", async () => {
    const room = await createRoom(relay.url, 2);
    const [zero, one] = await fillRoom(relay.wsUrl, room);
    one!.close();
    await zero!.control("peer-left");
    const again = await PartyClient.join(relay.wsUrl, room, 1);
    expect(await zero!.control("ready", 1)).toEqual({ type: "ready", roster: [0, 1] });
    again.sendTo(0, Buffer.from("hello"));
    const [frame] = await zero!.dataFrames(1);
    expect(frame!.subarray(1).toString()).toBe("hello");
    expect(frame![0]).toBe(1);
    zero!.close();
    again.close();
  });

  it("removes a room once every party has left", async () => {
    const room = await createRoom(relay.url, 2);
    const [zero, one] = await fillRoom(relay.wsUrl, room);
    zero!.close();
    one!.close();
    await zero!.closed();
    await one!.closed();
    const late = await PartyClient.join(relay.wsUrl, room, 0);
    expect((await late.control("error")).code).toBe("unknown-room");
    expect((await late.closed()).code).toBe(4001);
  });
});
