/**
 * Relay behaviour a well-behaved relay never shows (malformed frames, wrong protocol version) and
 * rare races (non-fatal warnings), driven through a scripted in-memory WebSocket.
 */
import { describe, expect, it } from "vitest";
import {
  RelayConnection,
  RelayError,
  type ConnectionEvent,
  type RelayWarningEvent,
  type WebSocketEventMapLike,
  type WebSocketLike,
} from "../src/index.js";
import { eventually, rejectionOf, within } from "./helpers.js";

type Listeners = { [K in keyof WebSocketEventMapLike]: Array<(event: WebSocketEventMapLike[K]) => void> };

/** A WebSocket whose relay side is driven by the test. */
class ScriptedSocket implements WebSocketLike {
  static last: ScriptedSocket | undefined;
  binaryType = "blob";
  readyState = 0;
  bufferedAmount = 0;
  readonly sent: Uint8Array[] = [];
  readonly closes: Array<{ code?: number; reason?: string }> = [];
  private readonly listeners: Listeners = { open: [], message: [], close: [], error: [] };

  constructor(readonly url: string) {
    ScriptedSocket.last = this;
  }

  addEventListener<K extends keyof WebSocketEventMapLike>(type: K, listener: (event: WebSocketEventMapLike[K]) => void): void {
    (this.listeners[type] as Array<(event: WebSocketEventMapLike[K]) => void>).push(listener);
  }

  send(data: Uint8Array | string): void {
    this.sent.push(typeof data === "string" ? new TextEncoder().encode(data) : data.slice());
  }

  close(code?: number, reason?: string): void {
    this.closes.push({ code, reason });
    if (this.readyState < 2) this.readyState = 2;
  }

  // Relay side.
  open(): void {
    this.readyState = 1;
    for (const listener of this.listeners.open) listener({});
  }

  text(message: unknown): void {
    const data = typeof message === "string" ? message : JSON.stringify(message);
    for (const listener of this.listeners.message) listener({ data });
  }

  binary(bytes: number[]): void {
    for (const listener of this.listeners.message) listener({ data: Uint8Array.from(bytes).buffer });
  }

  closed(code: number, reason = ""): void {
    this.readyState = 3;
    for (const listener of this.listeners.close) listener({ code, reason });
  }
}

const welcome = (overrides: Record<string, unknown> = {}) => ({
  type: "welcome",
  protocol: 2,
  resumeGraceMs: 30_000,
  ackBytes: 65_536,
  resumed: false,
  received: 0,
  room: "room",
  slot: 0,
  parties: 2,
  roster: [0],
  maxPayloadBytes: 1024,
  ...overrides,
});

/** Opens a connection over a scripted socket and plays `script` on the relay side. */
async function openScripted(script: (socket: ScriptedSocket) => void): Promise<RelayConnection> {
  const opening = RelayConnection.open({
    relay: "ws://relay.test/ws",
    room: "room",
    slot: 0,
    token: "token",
    parties: 2,
    WebSocketImpl: ScriptedSocket,
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  const socket = ScriptedSocket.last!;
  socket.open();
  script(socket);
  return within(opening, "open");
}

describe("scripted relay", () => {
  it("joins with the credentials in the URL and asks for ArrayBuffers", async () => {
    const connection = await openScripted((socket) => socket.text(welcome()));
    const socket = ScriptedSocket.last!;
    expect(socket.url).toBe("ws://relay.test/ws?room=room&slot=0&token=token&protocol=2");
    expect(socket.binaryType).toBe("arraybuffer");
    expect(connection.state).toBe("open");
  });

  it("refuses a relay speaking another protocol version", async () => {
    const error = await rejectionOf(openScripted((socket) => socket.text(welcome({ protocol: 1 }))));
    expect(error).toMatchObject({ name: "RelayError", code: "unsupported-protocol" });
    expect(ScriptedSocket.last!.closes).toHaveLength(1);
  });

  it("refuses data or a malformed frame before welcome", async () => {
    const data = await rejectionOf(openScripted((socket) => socket.binary([1, 2])));
    expect(data).toMatchObject({ code: "bad-relay-message" });
    const garbage = await rejectionOf(openScripted((socket) => socket.text("{nope")));
    expect(garbage).toMatchObject({ code: "bad-relay-message" });
    const wrongSlot = await rejectionOf(openScripted((socket) => socket.text(welcome({ slot: 1 }))));
    expect(wrongSlot).toMatchObject({ code: "bad-relay-message" });
  });

  it("reports connection-lost when the socket closes after opening without an error frame", async () => {
    const error = await rejectionOf(openScripted((socket) => socket.closed(1011, "oops")));
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ code: "connection-lost", closeCode: 1011, closeReason: "oops" });
  });

  it("ignores unknown message types and fields, and reports non-fatal errors as warnings", async () => {
    const connection = await openScripted((socket) => {
      socket.text({ type: "from-the-future", payload: 1 });
      socket.text(welcome({ extra: "ignored" }));
    });
    const warnings: RelayWarningEvent[] = [];
    connection.on("relay-warning", (warning) => warnings.push(warning));
    const socket = ScriptedSocket.last!;
    socket.text({ type: "joined", slot: 1, roster: [0, 1] });
    socket.text({ type: "ready", roster: [0, 1] });
    await within(connection.ready(), "ready");
    socket.text({ type: "error", code: "peer-not-connected", message: "gone", fatal: false, slot: 1 });
    expect(warnings).toEqual([{ code: "peer-not-connected", message: "gone", slot: 1 }]);
    expect(connection.state).toBe("ready");
    connection.send(1, Uint8Array.of(7, 8));
    expect(socket.sent).toEqual([Uint8Array.of(1, 7, 8)]);
  });

  it.each([
    ["a frame from its own slot", (socket: ScriptedSocket) => socket.binary([0, 1])],
    ["a frame from a slot outside the room", (socket: ScriptedSocket) => socket.binary([5, 1])],
    ["an empty binary frame", (socket: ScriptedSocket) => socket.binary([])],
    ["a second welcome", (socket: ScriptedSocket) => socket.text(welcome())],
    ["a control frame that is not JSON", (socket: ScriptedSocket) => socket.text("][")],
  ])("fails the connection with bad-relay-message on %s", async (_, misbehave) => {
    const connection = await openScripted((socket) => {
      socket.text(welcome());
      socket.text({ type: "ready", roster: [0, 1] });
    });
    const socket = ScriptedSocket.last!;
    const pending = rejectionOf(connection.recv(1));
    const events: ConnectionEvent[] = [];
    connection.on("connection", (event) => events.push(event));
    misbehave(socket);
    expect(await pending).toMatchObject({ name: "RelayError", code: "bad-relay-message" });
    expect(socket.closes).toEqual([{ code: 1000, reason: "bad relay message" }]);
    socket.closed(1000, "bad relay message");
    expect(events).toEqual([{ state: "closed", roster: [], error: expect.objectContaining({ code: "bad-relay-message" }) }]);
    expect(connection.stats().framesReceived).toBe(0);
  });

  it("attaches the close code to a fatal error frame", async () => {
    const connection = await openScripted((socket) => {
      socket.text(welcome());
      socket.text({ type: "ready", roster: [0, 1] });
    });
    const socket = ScriptedSocket.last!;
    const pending = rejectionOf(connection.recv(1));
    socket.text({ type: "error", code: "bad-destination", message: "no", fatal: true });
    socket.closed(4006, "bad-destination");
    expect(await pending).toMatchObject({ name: "RelayError", code: "bad-destination", closeCode: 4006 });
  });

  it("resumes after a drop on the wire: resume=<received>, re-sends what the relay lacks, acks both ways", async () => {
    const connection = await openScripted((socket) => {
      socket.text(welcome({ ackBytes: 1_000_000 }));
      socket.text({ type: "ready", roster: [0, 1] });
    });
    const first = ScriptedSocket.last!;
    const states: string[] = [];
    connection.on("connection", (event) => states.push(event.state));
    // Two frames in, three frames out; the relay acknowledges the first of ours.
    first.binary([1, 10]);
    first.binary([1, 11]);
    for (const byte of [20, 21, 22]) connection.send(1, Uint8Array.of(byte));
    first.text({ type: "ack", received: 1 });
    first.closed(1006);
    expect(connection.state).toBe("reconnecting");
    // Sent while reconnecting: kept, not written anywhere yet.
    connection.send(1, Uint8Array.of(23));
    await eventually(() => ScriptedSocket.last !== first, "a resume attempt");
    const second = ScriptedSocket.last!;
    expect(second.url).toBe("ws://relay.test/ws?room=room&slot=0&token=token&protocol=2&resume=2");
    second.open();
    // The relay had received two of our frames; it re-sends one frame we lack.
    second.text(welcome({ resumed: true, received: 2, roster: [0, 1] }));
    expect(second.sent).toEqual([Uint8Array.of(1, 22), Uint8Array.of(1, 23)]);
    second.binary([1, 12]);
    expect(connection.state).toBe("ready");
    expect(states).toEqual(["reconnecting", "ready"]);
    const got = [await connection.recv(1), await connection.recv(1), await connection.recv(1)];
    expect(got.map((frame) => frame[0])).toEqual([10, 11, 12]);
    await eventually(() => second.sent.length === 3, "an ack after the delay");
    expect(new TextDecoder().decode(second.sent[2])).toBe('{"type":"ack","received":3}');
    expect(first.sent).toEqual([Uint8Array.of(1, 20), Uint8Array.of(1, 21), Uint8Array.of(1, 22)]);
  });

  /** A ready connection whose socket dropped, a receive waiting on it, and its first resume socket, open. */
  async function droppedAndResuming(): Promise<{ connection: RelayConnection; waiting: Promise<unknown>; attempt: ScriptedSocket }> {
    const connection = await openScripted((socket) => {
      socket.text(welcome());
      socket.text({ type: "ready", roster: [0, 1] });
    });
    const dropped = ScriptedSocket.last!;
    const waiting = rejectionOf(connection.recv(1));
    dropped.closed(1006);
    await eventually(() => ScriptedSocket.last !== dropped, "a resume attempt");
    const attempt = ScriptedSocket.last!;
    attempt.open();
    return { connection, waiting, attempt };
  }

  it("fails with the relay's code when a resume is refused, and with bad-relay-message on an impossible ack", async () => {
    const refused = await droppedAndResuming();
    refused.attempt.text({ type: "error", code: "resume-failed", message: "session over", fatal: true });
    refused.attempt.closed(4011, "resume-failed");
    expect(await refused.waiting).toMatchObject({ name: "RelayError", code: "resume-failed", closeCode: 4011 });
    expect(refused.connection.state).toBe("closed");

    // A data frame ahead of a resume's welcome is the relay's fault: the connection fails with
    // that, at once, instead of retrying into a relay that took the close frame as a departure.
    const early = await droppedAndResuming();
    early.attempt.binary([1, 10]);
    expect(await early.waiting).toMatchObject({ name: "RelayError", code: "bad-relay-message", message: "the relay sent data before welcome" });
    expect(early.connection.state).toBe("closed");
    expect(early.attempt.closes).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ScriptedSocket.last).toBe(early.attempt);

    const other = await openScripted((socket) => {
      socket.text(welcome());
      socket.text({ type: "ready", roster: [0, 1] });
    });
    const waiting = rejectionOf(other.recv(1));
    ScriptedSocket.last!.text({ type: "ack", received: 5 });
    expect(await waiting).toMatchObject({ code: "bad-relay-message" });
  });
});
