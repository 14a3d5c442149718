/** Frames between SDK connections through a real in-process relay: content, senders, order, size. */
import type { RelayHandle } from "@chorus/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChorusError, ConfigError, RelayConnection, createRoom } from "../src/index.js";
import { closeAll, eventually, fillRoom, loopbackRelay, rejectionOf, sameBytes, seededBytes, within } from "./helpers.js";

let relay: RelayHandle;

beforeAll(async () => {
  relay = await loopbackRelay();
});

afterAll(async () => {
  await relay.close();
});

describe("three connected parties", () => {
  it("deliver frames in every direction with exact bytes and the sender's slot", async () => {
    const { connections } = await fillRoom(relay, 3);
    for (const connection of connections) {
      expect(connection.state).toBe("ready");
      expect(connection.roster).toEqual([0, 1, 2]);
      expect(connection.parties).toBe(3);
    }
    const expected = new Map<string, Uint8Array>();
    for (const sender of connections) {
      for (let to = 0; to < 3; to += 1) {
        if (to === sender.slot) continue;
        const payload = seededBytes(sender.slot * 10 + to, 64 + sender.slot * 3 + to);
        expected.set(`${sender.slot}->${to}`, payload);
        sender.send(to, payload);
      }
    }
    for (const receiver of connections) {
      for (let from = 0; from < 3; from += 1) {
        if (from === receiver.slot) continue;
        const got = await within(receiver.recv(from), `frame ${from}->${receiver.slot}`);
        expect(got).toEqual(expected.get(`${from}->${receiver.slot}`));
      }
    }
    for (const connection of connections) {
      expect(connection.stats()).toEqual({
        framesSent: 2,
        bytesSent: [...expected.entries()]
          .filter(([key]) => key.startsWith(`${connection.slot}->`))
          .reduce((sum, [, bytes]) => sum + bytes.length + 1, 0),
        framesReceived: 2,
        bytesReceived: [...expected.entries()]
          .filter(([key]) => key.endsWith(`->${connection.slot}`))
          .reduce((sum, [, bytes]) => sum + bytes.length + 1, 0),
      });
    }
    await closeAll(connections);
  });

  it("keeps each peer's frames in order while senders interleave (recv queues)", async () => {
    const { connections } = await fillRoom(relay, 3);
    const [receiver, a, b] = connections as [RelayConnection, RelayConnection, RelayConnection];
    const count = 200;
    for (let i = 0; i < count; i += 1) {
      a.send(0, seededBytes(1000 + i, 1 + (i % 37)));
      if (i % 3 === 0) b.send(0, seededBytes(5000 + i, 2 + (i % 11)));
      b.send(0, seededBytes(9000 + i, 3));
    }
    // Drain b entirely first: a's frames must wait in their own queue, untouched and in order.
    for (let i = 0; i < count; i += 1) {
      if (i % 3 === 0) expect(await within(receiver.recv(2), "b frame")).toEqual(seededBytes(5000 + i, 2 + (i % 11)));
      expect(await within(receiver.recv(2), "b frame")).toEqual(seededBytes(9000 + i, 3));
    }
    for (let i = 0; i < count; i += 1) {
      expect(await within(receiver.recv(1), "a frame")).toEqual(seededBytes(1000 + i, 1 + (i % 37)));
    }
    await closeAll(connections);
  });

  it("serves concurrent recv calls on one peer in call order", async () => {
    const { connections } = await fillRoom(relay, 3);
    const [receiver, sender] = connections as [RelayConnection, RelayConnection];
    const pending = [receiver.recv(1), receiver.recv(1), receiver.recv(1)];
    for (let i = 0; i < 3; i += 1) sender.send(0, seededBytes(i, 8));
    const got = await within(Promise.all(pending), "three frames");
    expect(got).toEqual([seededBytes(0, 8), seededBytes(1, 8), seededBytes(2, 8)]);
    await closeAll(connections);
  });

  it("hands frames to onFrame handlers, flushing frames queued before registration", async () => {
    const { connections } = await fillRoom(relay, 3);
    const [receiver, a, b] = connections as [RelayConnection, RelayConnection, RelayConnection];
    a.send(0, seededBytes(1, 5));
    b.send(0, seededBytes(2, 6));
    await eventually(() => receiver.stats().framesReceived === 2, "two queued frames");
    const seen: Array<[number, Uint8Array]> = [];
    const unsubscribe = receiver.onFrame((from, bytes) => seen.push([from, bytes]));
    expect(seen).toEqual([
      [1, seededBytes(1, 5)],
      [2, seededBytes(2, 6)],
    ]);
    const error = await rejectionOf(receiver.recv(1), "recv with a handler");
    expect(error).toBeInstanceOf(ChorusError);
    expect((error as ChorusError).code).toBe("frame-handler-active");
    for (let i = 0; i < 50; i += 1) {
      a.send(0, seededBytes(100 + i, 4));
      b.send(0, seededBytes(200 + i, 4));
    }
    await eventually(() => seen.length === 102, "102 frames");
    const fromA = seen.filter(([from]) => from === 1).map(([, bytes]) => bytes);
    const fromB = seen.filter(([from]) => from === 2).map(([, bytes]) => bytes);
    expect(fromA).toEqual([seededBytes(1, 5), ...Array.from({ length: 50 }, (_, i) => seededBytes(100 + i, 4))]);
    expect(fromB).toEqual([seededBytes(2, 6), ...Array.from({ length: 50 }, (_, i) => seededBytes(200 + i, 4))]);
    unsubscribe();
    a.send(0, seededBytes(7, 7));
    expect(await within(receiver.recv(1), "queued again")).toEqual(seededBytes(7, 7));
    expect(seen.length).toBe(102);
    await closeAll(connections);
  });

  it("carries a 512 KiB frame intact, and empty frames", async () => {
    const { connections } = await fillRoom(relay, 3);
    const [receiver, sender] = connections as [RelayConnection, RelayConnection];
    const big = seededBytes(42, 512 * 1024);
    sender.send(0, big);
    sender.send(0, new Uint8Array(0));
    const got = await within(receiver.recv(1), "large frame");
    expect(got.length).toBe(big.length);
    expect(sameBytes(got, big)).toBe(true);
    expect(await within(receiver.recv(1), "empty frame")).toEqual(new Uint8Array(0));
    expect(receiver.stats().bytesReceived).toBe(big.length + 1 + 1);
    await closeAll(connections);
  });

  it("refuses frames over the relay's limit locally, before sending", async () => {
    const { connections } = await fillRoom(relay, 2);
    const [first] = connections as [RelayConnection];
    expect(first.maxPayloadBytes).toBe(relay.config.maxPayloadBytes);
    expect(() => first.send(1, new Uint8Array(first.maxPayloadBytes))).toThrow(ConfigError);
    first.send(1, new Uint8Array(first.maxPayloadBytes - 1));
    expect(await within(connections[1]!.recv(0), "frame at the limit")).toHaveLength(first.maxPayloadBytes - 1);
    await closeAll(connections);
  });

  it("uses an injected WebSocket class", async () => {
    const { WebSocket } = await import("ws");
    let constructed = 0;
    class CountingWebSocket extends WebSocket {
      constructor(url: string) {
        super(url);
        constructed += 1;
      }
    }
    const room = await createRoom({ relay: relay.wsUrl, parties: 2 });
    const connections = await Promise.all(
      [0, 1].map((slot) => RelayConnection.open({ ...room.invite(slot), WebSocketImpl: CountingWebSocket })),
    );
    expect(constructed).toBe(2);
    await within(Promise.all(connections.map((c) => c.ready())), "ready");
    connections[0]!.send(1, seededBytes(3, 3));
    expect(await within(connections[1]!.recv(0), "frame")).toEqual(seededBytes(3, 3));
    await closeAll(connections);
  });
});
