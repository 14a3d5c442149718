/**
 * Bad input gets an error frame and a distinct close code, while a healthy room on the same relay
 * keeps exchanging frames throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CloseCode } from "../src/protocol.js";
import type { CreatedRoom } from "../src/rooms.js";
import { startRelay, type RelayHandle } from "../src/relay.js";
import { createRoom, fillRoom, PartyClient, patternBytes } from "./helpers.js";

const MAX_PAYLOAD = 4096;
let relay: RelayHandle;
let healthy: PartyClient[];
let exchanged = 0;

/** One round trip in the healthy room, checked byte for byte. */
async function assertHealthyRoomWorks(): Promise<void> {
  const [zero, one] = healthy as [PartyClient, PartyClient];
  const index = exchanged;
  exchanged += 1;
  zero.sendTo(1, patternBytes(index, 300));
  one.sendTo(0, patternBytes(index + 1000, 200));
  const toOne = (await one.dataFrames(index + 1))[index]!;
  const toZero = (await zero.dataFrames(index + 1))[index]!;
  expect(toOne[0]).toBe(0);
  expect(Buffer.compare(toOne.subarray(1), patternBytes(index, 300))).toBe(0);
  expect(toZero[0]).toBe(1);
  expect(Buffer.compare(toZero.subarray(1), patternBytes(index + 1000, 200))).toBe(0);
}

/** Expects a fatal error frame with `code`, then a close with `closeCode`. */
async function expectRejected(client: PartyClient, code: string, closeCode: number): Promise<void> {
  const error = await client.control("error");
  expect(error.code).toBe(code);
  expect(error.fatal).toBe(true);
  expect(error.message.length).toBeGreaterThan(0);
  expect((await client.closed()).code).toBe(closeCode);
}

beforeAll(async () => {
  relay = await startRelay({ host: "127.0.0.1", port: 0, maxPayloadBytes: MAX_PAYLOAD });
  healthy = await fillRoom(relay.wsUrl, await createRoom(relay.url, 2));
});

afterAll(async () => {
  await assertHealthyRoomWorks();
  for (const client of healthy) client.close();
  await relay.close();
});

describe("join refusals", () => {
  let room: CreatedRoom;
  beforeAll(async () => {
    room = await createRoom(relay.url, 3);
  });

  it("wrong token", async () => {
    const client = await PartyClient.connect(relay.wsUrl, { room: room.room, slot: 0, token: room.tokens[1]! });
    await expectRejected(client, "bad-token", CloseCode.BadToken);
    await assertHealthyRoomWorks();
  });

  it("unknown room", async () => {
    const client = await PartyClient.connect(relay.wsUrl, { room: "no-such-room", slot: 0, token: room.tokens[0]! });
    await expectRejected(client, "unknown-room", CloseCode.UnknownRoom);
    await assertHealthyRoomWorks();
  });

  it("slot out of range", async () => {
    const client = await PartyClient.connect(relay.wsUrl, { room: room.room, slot: 3, token: room.tokens[0]! });
    await expectRejected(client, "bad-slot", CloseCode.BadSlot);
    await assertHealthyRoomWorks();
  });

  it("malformed or missing parameters", async () => {
    const noSlot = await PartyClient.connect(relay.wsUrl, { room: room.room, slot: "one", token: room.tokens[0]! });
    await expectRejected(noSlot, "bad-request", CloseCode.BadRequest);
    const noToken = await PartyClient.connect(relay.wsUrl, { room: room.room, slot: 0 });
    await expectRejected(noToken, "bad-request", CloseCode.BadRequest);
    await assertHealthyRoomWorks();
  });

  it("slot already taken, without disturbing its holder", async () => {
    const holder = await PartyClient.join(relay.wsUrl, room, 0);
    await holder.control("welcome");
    const intruder = await PartyClient.join(relay.wsUrl, room, 0);
    await expectRejected(intruder, "slot-taken", CloseCode.SlotTaken);
    expect(holder.closeInfo).toBeUndefined();
    expect(holder.controls.filter((m) => m.type === "joined")).toHaveLength(1);
    holder.close();
    await holder.closed();
    await assertHealthyRoomWorks();
  });
});

describe("bad frames from a joined party", () => {
  async function readyPair(): Promise<[PartyClient, PartyClient]> {
    const clients = await fillRoom(relay.wsUrl, await createRoom(relay.url, 2));
    return clients as [PartyClient, PartyClient];
  }

  it("oversize frame: error frame, close 1009, the peer sees peer-left", async () => {
    const [zero, one] = await readyPair();
    one.sendTo(0, new Uint8Array(MAX_PAYLOAD));
    await expectRejected(one, "frame-too-large", CloseCode.MessageTooBig);
    expect(await zero.control("peer-left")).toMatchObject({ slot: 1, reason: "error" });
    expect(zero.data).toHaveLength(0);
    zero.close();
    await assertHealthyRoomWorks();
  });

  it("a frame of exactly the limit passes", async () => {
    const [zero, one] = await readyPair();
    one.sendTo(0, patternBytes(7, MAX_PAYLOAD - 1));
    const [frame] = await zero.dataFrames(1);
    expect(frame!.length).toBe(MAX_PAYLOAD);
    expect(Buffer.compare(frame!.subarray(1), patternBytes(7, MAX_PAYLOAD - 1))).toBe(0);
    zero.close();
    one.close();
  });

  it("empty binary frame", async () => {
    const [zero, one] = await readyPair();
    one.ws.send(Buffer.alloc(0));
    await expectRejected(one, "empty-frame", CloseCode.EmptyFrame);
    expect(await zero.control("peer-left")).toMatchObject({ slot: 1, reason: "error" });
    zero.close();
    await assertHealthyRoomWorks();
  });

  it("garbage text frame", async () => {
    const [zero, one] = await readyPair();
    one.ws.send("{not json at all");
    await expectRejected(one, "unexpected-text", CloseCode.UnexpectedText);
    zero.close();
    await assertHealthyRoomWorks();
  });

  it("destination out of range", async () => {
    const [zero, one] = await readyPair();
    one.sendTo(9, Buffer.from("x"));
    await expectRejected(one, "bad-destination", CloseCode.BadDestination);
    zero.close();
    await assertHealthyRoomWorks();
  });

  it("destination is the sender itself", async () => {
    const [zero, one] = await readyPair();
    zero.sendTo(0, Buffer.from("x"));
    await expectRejected(zero, "bad-destination", CloseCode.BadDestination);
    one.close();
    await assertHealthyRoomWorks();
  });

  it("destination not connected yet: non-fatal error, frame dropped, connection kept", async () => {
    const room = await createRoom(relay.url, 3);
    const zero = await PartyClient.join(relay.wsUrl, room, 0);
    const one = await PartyClient.join(relay.wsUrl, room, 1);
    zero.sendTo(2, Buffer.from("lost"));
    const error = await zero.control("error");
    expect(error).toMatchObject({ code: "peer-not-connected", fatal: false, slot: 2 });
    zero.sendTo(1, Buffer.from("kept"));
    const [frame] = await one.dataFrames(1);
    expect(frame!.subarray(1).toString()).toBe("kept");
    expect(zero.closeInfo).toBeUndefined();
    const two = await PartyClient.join(relay.wsUrl, room, 2);
    await two.control("ready");
    expect(two.data).toHaveLength(0);
    for (const client of [zero, one, two]) client.close();
    await assertHealthyRoomWorks();
  });
});

describe("HTTP errors", () => {
  it("rejects bad room requests with JSON errors", async () => {
    const post = (body: string) => fetch(`${relay.url}/rooms`, { method: "POST", body });
    for (const body of ["{", "{}", '{"parties":1}', '{"parties":17}', '{"parties":2.5}', '{"parties":"3"}', "null"]) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ type: "error", code: "bad-request" });
    }
    const tooBig = await post(JSON.stringify({ parties: 2, pad: "x".repeat(2000) }));
    expect(tooBig.status).toBe(413);
    const wrongMethod = await fetch(`${relay.url}/rooms`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    expect((await fetch(`${relay.url}/nothing-here`)).status).toBe(404);
    const plainWs = await fetch(`${relay.url}/ws`);
    expect(plainWs.status).toBe(426);
    await assertHealthyRoomWorks();
  });

  it("refuses WebSocket upgrades on other paths with 404", async () => {
    const { WebSocket } = await import("ws");
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${relay.url.replace("http", "ws")}/elsewhere`);
      ws.on("unexpected-response", (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.on("error", () => undefined);
    });
    expect(status).toBe(404);
  });

  it("answers CORS preflight", async () => {
    const response = await fetch(`${relay.url}/rooms`, { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
  });
});
