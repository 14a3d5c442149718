/** Joining, refusals, departures, cancellation and shutdown, against a real in-process relay. */
import type { RelayHandle } from "@chorus/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CancelledError,
  ChorusError,
  ConfigError,
  PeerLeftError,
  RelayConnection,
  RelayError,
  createRoom,
  isAbortError,
  type ConnectionEvent,
  type PeerJoinedEvent,
  type PeerLeftEvent,
} from "../src/index.js";
import { closeAll, eventually, fillRoom, loopbackRelay, rejectionOf, seededBytes, within } from "./helpers.js";

let relay: RelayHandle;

beforeAll(async () => {
  relay = await loopbackRelay();
});

afterAll(async () => {
  await relay.close();
});

describe("joining", () => {
  it("reports joins and resolves ready only when every slot is connected", async () => {
    const room = await createRoom({ relay: relay.url, parties: 3 });
    const first = await RelayConnection.open(room.invite(0));
    expect(first.state).toBe("open");
    expect(first.roster).toEqual([0]);
    const joined: PeerJoinedEvent[] = [];
    const states: ConnectionEvent[] = [];
    first.on("peer-joined", (event) => joined.push(event));
    first.on("connection", (event) => states.push(event));
    let ready = false;
    const readyPromise = first.ready().then(() => {
      ready = true;
    });
    const second = await RelayConnection.open(room.invite(1));
    await eventually(() => joined.length === 1, "peer-joined 1");
    expect(ready).toBe(false);
    expect(() => first.send(1, new Uint8Array([1]))).toThrow(expect.objectContaining({ code: "not-ready" }));
    const third = await RelayConnection.open(room.invite(2));
    await within(readyPromise, "ready");
    expect(joined).toEqual([
      { slot: 1, roster: [0, 1] },
      { slot: 2, roster: [0, 1, 2] },
    ]);
    expect(states).toEqual([{ state: "ready", roster: [0, 1, 2] }]);
    await within(third.ready(), "third ready");
    await closeAll([first, second, third]);
    expect(states.at(-1)).toEqual({ state: "closed", roster: [] });
  });

  it("rejects a wrong token with the relay's code and close code", async () => {
    const room = await createRoom({ relay: relay.url, parties: 2 });
    const error = await rejectionOf(RelayConnection.open({ ...room.invite(0), token: room.tokens[1]! }), "open");
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).code).toBe("bad-token");
    expect((error as RelayError).closeCode).toBe(4003);
  });

  it("rejects an unknown room and a taken slot with the relay's codes", async () => {
    const room = await createRoom({ relay: relay.url, parties: 2 });
    const unknown = await rejectionOf(RelayConnection.open({ ...room.invite(0), room: "AAAAAAAAAAAAAAAAAAAAAA" }));
    expect(unknown).toMatchObject({ name: "RelayError", code: "unknown-room", closeCode: 4001 });
    const holder = await RelayConnection.open(room.invite(0));
    const taken = await rejectionOf(RelayConnection.open(room.invite(0)));
    expect(taken).toMatchObject({ name: "RelayError", code: "slot-taken", closeCode: 4004 });
    await holder.close();
  });

  it("rejects a party count that differs from the room's with ConfigError and closes", async () => {
    const room = await createRoom({ relay: relay.url, parties: 3 });
    const error = await rejectionOf(RelayConnection.open({ ...room.invite(0), parties: 2, slot: 0 }));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).field).toBe("parties");
    await eventually(() => relay.stats().connections === 0, "the refused connection to close");
  });

  it("fails with connect-failed when nothing listens", async () => {
    const dead = await loopbackRelay();
    const url = dead.url;
    await dead.close();
    const error = await rejectionOf(
      RelayConnection.open({ relay: url, room: "r", slot: 0, token: "t", parties: 2 }),
      "open on a closed port",
    );
    expect(error).toMatchObject({ name: "RelayError", code: "connect-failed" });
  });
});

describe("departures", () => {
  it("rejects pending and later recv with PeerLeftError when a party closes", async () => {
    const { connections } = await fillRoom(relay, 3);
    const [a, b, c] = connections as [RelayConnection, RelayConnection, RelayConnection];
    const left: PeerLeftEvent[] = [];
    a.on("peer-left", (event) => left.push(event));
    const states: ConnectionEvent[] = [];
    a.on("connection", (event) => states.push(event));
    // Capture the rejections right away so none is ever unhandled, even for a moment.
    const pending = [rejectionOf(a.recv(2), "a.recv(2)"), rejectionOf(a.recv(1), "a.recv(1)"), rejectionOf(b.recv(0), "b.recv(0)")];
    const started = Date.now();
    await c.close();
    for (const error of await Promise.all(pending)) {
      expect(error).toBeInstanceOf(PeerLeftError);
      expect((error as PeerLeftError).slot).toBe(2);
      expect((error as PeerLeftError).reason).toBe("closed");
    }
    expect(Date.now() - started).toBeLessThan(3000);
    expect(left).toEqual([{ slot: 2, roster: [0, 1], reason: "closed", sessionBroken: true }]);
    expect(a.state).toBe("broken");
    expect(states).toEqual([{ state: "broken", roster: [0, 1], error: expect.any(PeerLeftError) }]);
    await expect(a.recv(1)).rejects.toBeInstanceOf(PeerLeftError);
    await expect(a.ready()).resolves.toBeUndefined();
    expect(() => a.send(1, new Uint8Array([1]))).toThrow(PeerLeftError);
    await closeAll([a, b]);
    expect(states.at(-1)).toMatchObject({ state: "closed", error: expect.any(PeerLeftError) });
  });

  it("reports a departure before ready without breaking the session", async () => {
    const room = await createRoom({ relay: relay.url, parties: 3 });
    const a = await RelayConnection.open(room.invite(0));
    const left: PeerLeftEvent[] = [];
    a.on("peer-left", (event) => left.push(event));
    const b = await RelayConnection.open(room.invite(1));
    await b.close();
    await eventually(() => left.length === 1, "left");
    expect(left[0]).toEqual({ slot: 1, roster: [0], reason: "closed", sessionBroken: false });
    const b2 = await RelayConnection.open(room.invite(1));
    const c = await RelayConnection.open(room.invite(2));
    await within(Promise.all([a.ready(), b2.ready(), c.ready()]), "ready after rejoin");
    b2.send(0, seededBytes(1, 9));
    expect(await within(a.recv(1), "frame")).toEqual(seededBytes(1, 9));
    await closeAll([a, b2, c]);
  });

  it("turns a relay shutdown into RelayError connection-lost with close code 1001", async () => {
    const own = await loopbackRelay();
    const { connections } = await fillRoom(own, 2);
    const pending = rejectionOf(connections[0]!.recv(1), "recv during shutdown");
    const closedEvents: ConnectionEvent[] = [];
    connections[0]!.on("connection", (event) => closedEvents.push(event));
    await own.close();
    const error = await pending;
    expect(error).toMatchObject({ name: "RelayError", code: "connection-lost", closeCode: 1001 });
    expect(connections[0]!.state).toBe("closed");
    expect(closedEvents).toEqual([{ state: "closed", roster: [], error }]);
    expect(() => connections[0]!.send(1, new Uint8Array(1))).toThrow(RelayError);
  });

  it("turns a fatal relay error into a RelayError with the relay's code", async () => {
    const own = await loopbackRelay({ idleTimeoutMs: 300 });
    const { connections } = await fillRoom(own, 2);
    const error = await rejectionOf(connections[0]!.recv(1), "recv until the idle timeout");
    expect(error).toMatchObject({ name: "RelayError", code: "idle-timeout", closeCode: 4008 });
    await closeAll(connections);
    await own.close();
  });
});

describe("cancellation and closing", () => {
  it("aborting while waiting for ready rejects with an AbortError and closes the socket", async () => {
    const room = await createRoom({ relay: relay.url, parties: 3 });
    const controller = new AbortController();
    const connection = await RelayConnection.open({ ...room.invite(0), signal: controller.signal });
    const waiting = connection.ready();
    const closed = new Promise<ConnectionEvent>((resolve) =>
      connection.on("connection", (event) => {
        if (event.state === "closed") resolve(event);
      }),
    );
    controller.abort();
    const error = await rejectionOf(waiting, "ready");
    expect(isAbortError(error)).toBe(true);
    expect((error as Error).name).toBe("AbortError");
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).cause).toBe(controller.signal.reason);
    const event = await within(closed, "close after abort");
    expect(event.error).toBe(error);
    expect(connection.state).toBe("closed");
    await eventually(() => relay.stats().connections === 0, "the relay to see the close");
  });

  it("rejects open at once for an already aborted signal, and aborts a pending open", async () => {
    const room = await createRoom({ relay: relay.url, parties: 2 });
    const error = await rejectionOf(
      RelayConnection.open({ ...room.invite(0), signal: AbortSignal.abort() }),
      "open with an aborted signal",
    );
    expect((error as Error).name).toBe("AbortError");
    const controller = new AbortController();
    const opening = RelayConnection.open({ ...room.invite(0), signal: controller.signal });
    controller.abort();
    expect(((await rejectionOf(opening, "aborted open")) as Error).name).toBe("AbortError");
    await eventually(() => relay.stats().connections === 0, "no connection left");
  });

  it("a per-call signal cancels one recv without closing the connection", async () => {
    const { connections } = await fillRoom(relay, 2);
    const [a, b] = connections as [RelayConnection, RelayConnection];
    const controller = new AbortController();
    const cancelled = a.recv(1, { signal: controller.signal });
    controller.abort();
    expect(((await rejectionOf(cancelled)) as Error).name).toBe("AbortError");
    const timedOut = await rejectionOf(a.recv(1, { signal: AbortSignal.timeout(20) }));
    expect(isAbortError(timedOut)).toBe(true);
    b.send(0, seededBytes(5, 5));
    expect(await within(a.recv(1), "frame after cancelled waits")).toEqual(seededBytes(5, 5));
    expect(a.state).toBe("ready");
    await closeAll(connections);
  });

  it("close() rejects pending waits with code 'closed', is idempotent and tells the others", async () => {
    const { connections } = await fillRoom(relay, 2);
    const [a, b] = connections as [RelayConnection, RelayConnection];
    const pending = rejectionOf(a.recv(1));
    const closing = a.close();
    const error = await pending;
    expect(error).toBeInstanceOf(ChorusError);
    expect((error as ChorusError).code).toBe("closed");
    await within(closing, "close");
    await within(a.close(), "second close");
    expect(a.state).toBe("closed");
    await expect(b.recv(0)).rejects.toBeInstanceOf(PeerLeftError);
    await b.close();
  });
});
